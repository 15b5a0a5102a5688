// Flat cloth panels from a closed outline (a disc, a skirt piece, a sewing pattern),
// triangulated at a chosen edge length, as a MeshGeometry for meshToCloth().
#pragma once

#include "mesh/meshdata.h"

#include <array>
#include <string>
#include <vector>

namespace drape {

using Point2 = std::array<float, 2>;

struct PanelSpec {
    std::vector<Point2>
        outline; ///< m, a simple closed polygon (either winding; the last point joins the first)
    float edgeLength = 0.05f; ///< m, target length of the triangles' edges
    bool horizontal
        = true; ///< lying in the XZ plane facing +Y (outline (u, v) → (x, z)); else in XY facing +Z
    Vec3 origin { 0.f, 1.f, 0.f }; ///< m, where the outline's (0, 0) goes
};

/// A regular polygon of `segments` corners on a circle of `radius` (m) around (0, 0).
std::vector<Point2> discOutline(float radius, int segments);

/// Triangulates the inside of the outline: its edges are split at most `edgeLength` apart,
/// the inside is filled with a triangular lattice of that spacing (kept half a spacing from
/// the edges), and all points are joined by a Delaunay triangulation (Bowyer 1981, Watson
/// 1981: points inserted one by one, the triangles whose circumcircle holds the new point
/// replaced by a fan around it), from which the triangles outside the outline are removed.
/// UVs are the outline coordinates scaled to [0, 1], so the outline's y is the warp (grain
/// line) of a cloth made from it (meshToCloth). On failure (fewer than 3 corners,
/// zero area, crossing edges, an edge length that is not positive or would make more than
/// 20,000 points, or an outline whose narrow parts the lattice cannot follow), returns an empty
/// mesh and sets `error`.
MeshGeometry makePanelMesh(const PanelSpec &spec, std::string *error);

} // namespace drape
