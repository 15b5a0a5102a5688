// Connectivity and consistency checks of a cloth's triangle mesh, used after tearing and
// cutting: which particles form one connected piece of cloth, and whether every index record
// still makes sense.
#pragma once

#include "sim/cloth.h"

#include <cstdint>
#include <string>
#include <vector>

namespace drape {

/// Label of a particle that belongs to no triangle.
constexpr std::uint32_t kNoPiece = 0xffffffffu;

/// The connected pieces of a cloth's triangles: two particles are in one piece when a chain
/// of triangles sharing corners joins them (union-find over the triangles' corners).
struct ClothPieces {
    std::vector<std::uint32_t> label; ///< per particle: piece 0..count-1, or kNoPiece
    std::uint32_t count = 0; ///< number of pieces, numbered in order of their lowest particle
};

ClothPieces connectedPieces(const Cloth &cloth);

/// True when some triangle has both `a` and `b` as corners (a triangle edge). O(triangles).
bool isTriangleEdge(const Cloth &cloth, std::uint32_t a, std::uint32_t b);

/// Empty when the cloth's index records are consistent after a topology change: every
/// triangle and constraint index in range, no triangle with a repeated corner, no constraint
/// from a particle to itself, and no bend or shear constraint that is not a triangle edge
/// joining two different pieces (it would pull across a tear). Otherwise a message naming
/// the first problem ("constraint 12 (bend 40-57) joins pieces 0 and 1").
std::string validateTopology(const Cloth &cloth);

} // namespace drape
