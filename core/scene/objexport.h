// Wavefront OBJ export of the simulated cloths: positions, per-vertex normals, texture
// coordinates from the rest shape, and faces (ropes as polylines), one object per cloth.
// Used by `drape simulate --out x.obj` and `--obj-sequence DIR` (a mesh cache that 3D
// packages import frame by frame) and by the recorder's OBJ sequence format.
#pragma once

#include "sim/simulation.h"

#include <string>

namespace drape {

/// The OBJ text of every cloth of `sim` (vertex indices offset per cloth, 1-based).
std::string objFromSimulation(const Simulation &sim);
/// Writes objFromSimulation() atomically; `error` names the path and the reason on failure.
bool writeObjFile(const std::string &path, const Simulation &sim, std::string *error);

} // namespace drape
