// A triangle mesh as read from a file, before it becomes a cloth or a collider, and the
// checks that make it usable: welding, and the removal of non-finite vertices, degenerate and
// duplicate triangles, each counted so the user is told what was changed.
#pragma once

#include "base/vec3.h"
#include "sim/cloth.h"
#include "sim/trianglemesh.h"

#include <array>
#include <cstddef>
#include <string>
#include <vector>

namespace drape {

struct MeshGeometry {
    std::vector<Vec3> positions; ///< m
    std::vector<std::array<float, 2>> uv; ///< texture coordinates per vertex; empty when the file has none
    std::vector<Triangle> triangles; ///< counter-clockwise seen from outside

    Aabb bounds() const;
};

/// What cleanMesh() found and changed, with counts.
struct MeshReport {
    std::size_t inputVertices = 0;
    std::size_t inputTriangles = 0;
    std::size_t weldedVertices = 0; ///< vertices merged into another at the same place
    std::size_t nonFiniteVertices = 0; ///< NaN or infinite coordinates; their triangles are dropped
    std::size_t degenerateTriangles = 0; ///< a repeated corner or (almost) no area; dropped
    std::size_t duplicateTriangles = 0; ///< the same three vertices again; dropped
    std::size_t unusedVertices = 0; ///< in no remaining triangle; dropped
    std::size_t nonManifoldEdges = 0; ///< edges shared by more than two triangles (kept)
    std::size_t boundaryEdges = 0; ///< edges of one triangle only (an open surface)
    std::size_t skippedPrimitives = 0; ///< points and lines in the file (not surfaces)
    bool turnedOutward
        = false; ///< a closed mesh wound inside out (negative volume) had its triangles flipped

    /// One line per problem with its count, e.g. "3 degenerate triangles removed".
    std::vector<std::string> warnings() const;
};

/// Welds vertices closer than `weldTolerance` (m; by position only, so UV seams do not split
/// the surface — the first vertex's UV is kept), drops non-finite vertices, degenerate and
/// duplicate triangles and unused vertices, and counts non-manifold and boundary edges.
/// Indices must be in range. The result may be empty (see MeshReport).
MeshReport cleanMesh(MeshGeometry &mesh, float weldTolerance);

/// The weld tolerance used for imported meshes: 10⁻⁶ of the bounding box diagonal, so only
/// vertices a file repeats (at seams, per-face vertices of STL) merge, never real features.
float defaultWeldTolerance(const MeshGeometry &mesh);

} // namespace drape
