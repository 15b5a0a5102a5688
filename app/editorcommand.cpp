// `drape [SCENE]`: the editor (being wired up).
#include "commands.h"

#include <cstdio>

namespace drape::app {

int runEditor(int, char **)
{
    std::fprintf(stderr, "drape: the editor is not available in this build\n");
    return 2;
}

} // namespace drape::app
