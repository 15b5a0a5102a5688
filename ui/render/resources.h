// Registers the resources compiled into the drape_ui static library (shaders, icons). Call
// once before the first QFile(":/...") or QIcon(":/..."): main, runRender and GUI tests do.
#pragma once

namespace drape {

void initResources();

} // namespace drape
