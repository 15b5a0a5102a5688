// `drape simulate`: placeholder until the mode is implemented.
#include "commands.h"

#include <cstdio>

namespace drape::app {

const char *simulateUsage() { return "  drape simulate ...      (not available in this build)\n"; }

int runSimulate(int, char **)
{
    std::fprintf(stderr, "drape simulate: not available in this build\n");
    return 2;
}

} // namespace drape::app
