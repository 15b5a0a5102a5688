// A flat square mesh with texture coordinates, as a file exported from a modelling tool
// would give it: for the tests of thread directions taken from UVs.
#pragma once

#include "mesh/meshdata.h"

namespace drape::testing {

/// An n × n-vertex square of side `size` (m) in the XY plane (x right, y down from y = 0),
/// one diagonal per cell. Its UVs run u along x and v down the square; `turned` turns them a
/// quarter (u' = 1 − v, v' = u), so that v, the warp, runs along x instead.
inline MeshGeometry uvSquare(int n, float size, bool turned)
{
    MeshGeometry m;
    const float h = size / float(n - 1);
    for (int j = 0; j < n; ++j) {
        for (int i = 0; i < n; ++i) {
            m.positions.push_back({ float(i) * h, -float(j) * h, 0.f });
            const float u = float(i) / float(n - 1), v = float(j) / float(n - 1);
            m.uv.push_back(turned ? std::array<float, 2> { 1.f - v, u } : std::array<float, 2> { u, v });
        }
    }
    const auto at = [n](int i, int j) { return std::uint32_t(j * n + i); };
    for (int j = 0; j + 1 < n; ++j) {
        for (int i = 0; i + 1 < n; ++i) {
            m.triangles.push_back({ { at(i, j), at(i, j + 1), at(i + 1, j + 1) } });
            m.triangles.push_back({ { at(i, j), at(i + 1, j + 1), at(i + 1, j) } });
        }
    }
    return m;
}

} // namespace drape::testing
