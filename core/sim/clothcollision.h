// Collisions between different cloths (self-collision handles one cloth). Internal to the core.
#pragma once

#include "sim/cloth.h"

#include <cstdint>
#include <vector>

namespace drape::detail {

/// Every cloth's triangles at the start of the frame, hashed by cell, so each cloth's
/// substeps can keep its particles off the other cloths' surfaces.
struct ClothSurfaces {
    struct Tri {
        Vec3 a, b, c; ///< m, corners
        Vec3 normal; ///< unit
        float thickness = 0.f; ///< m, half-thickness of the cloth it belongs to
        std::uint32_t cloth = 0;
    };
    std::vector<Tri> tris;
    float cell = 0.f; ///< m, hash cell size
    std::vector<std::uint32_t> cellStart; ///< CSR over hash buckets
    std::vector<std::uint32_t> entries; ///< triangle indices
    bool empty() const { return tris.empty(); }
};

/// Rebuilds the surfaces from the cloths' current positions (call before stepping them).
void buildClothSurfaces(const std::vector<Cloth> &cloths, ClothSurfaces &out);

/// Pushes every free particle of cloth `self` that is closer than the two thicknesses to a
/// triangle of another cloth back out, to the side it came from (its previous position).
/// Returns the number of particles moved.
std::uint32_t collideWithOtherCloths(Cloth &cloth, std::uint32_t self, const ClothSurfaces &surfaces);

} // namespace drape::detail
