// The particles the pin actions pin: a cloth's top edge and its corners, read from its
// description (grid rows and corners, rope ends) or, for explicit cloths, from the rest shape.
#pragma once

#include "scene/scene.h"

#include <cstdint>
#include <vector>

namespace drape {

/// Grid: row 0; rope: the first particle; explicit: the particles at the highest rest height
/// (for a flat sheet, the edge farthest from the viewer, lowest z).
std::vector<std::uint32_t> topEdgeParticles(const ClothDesc &desc, const Cloth &cloth);
/// Grid: its four corners; rope: both ends; explicit: the particles farthest out along the
/// diagonals of the rest shape's two largest extents.
std::vector<std::uint32_t> cornerParticles(const ClothDesc &desc, const Cloth &cloth);

} // namespace drape
