// `drape render`: placeholder until the mode is implemented.
#include "commands.h"

#include <cstdio>

namespace drape::app {

const char *renderUsage() { return "  drape render ...      (not available in this build)\n"; }

int runRender(int, char **)
{
    std::fprintf(stderr, "drape render: not available in this build\n");
    return 2;
}

} // namespace drape::app
