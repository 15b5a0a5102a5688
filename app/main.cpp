// drape: the cloth editor and its headless batch modes.
#include "commands.h"

#include <cstring>

int main(int argc, char **argv)
{
    if (argc > 1 && std::strcmp(argv[1], "simulate") == 0)
        return drape::app::runSimulate(argc, argv);
    if (argc > 1 && std::strcmp(argv[1], "render") == 0)
        return drape::app::runRender(argc, argv);
    if (argc > 1 && std::strcmp(argv[1], "import") == 0)
        return drape::app::runImport(argc, argv);
    if (argc > 1 && std::strcmp(argv[1], "bench-viewport") == 0)
        return drape::app::runBenchViewport(argc, argv);
    return drape::app::runEditor(argc, argv);
}
