#include "render/resources.h"

#include <QtGlobal>

// Q_INIT_RESOURCE must be used outside any namespace.
static void initDrapeResources() { Q_INIT_RESOURCE(drape); }

namespace drape {

void initResources()
{
    static bool done = false;
    if (!done) {
        initDrapeResources();
        done = true;
    }
}

} // namespace drape
