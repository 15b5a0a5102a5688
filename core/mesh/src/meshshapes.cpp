#include "mesh/meshshapes.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace drape {

MeshGeometry makeUvSphereMesh(float radius, int rings, int segments)
{
    rings = std::max(rings, 2);
    segments = std::max(segments, 3);
    MeshGeometry m;
    const float pi = std::numbers::pi_v<float>;
    m.positions.push_back({ 0.f, -radius, 0.f });
    m.uv.push_back({ 0.5f, 0.f });
    for (int r = 1; r < rings; ++r) {
        const float theta = pi * float(r) / float(rings); // from the south pole
        for (int s = 0; s < segments; ++s) {
            const float phi = 2.f * pi * float(s) / float(segments);
            m.positions.push_back({ radius * std::sin(theta) * std::cos(phi), -radius * std::cos(theta),
                -radius * std::sin(theta) * std::sin(phi) });
            m.uv.push_back({ float(s) / float(segments), float(r) / float(rings) });
        }
    }
    const auto top = std::uint32_t(m.positions.size());
    m.positions.push_back({ 0.f, radius, 0.f });
    m.uv.push_back({ 0.5f, 1.f });
    const auto ring
        = [segments](int r, int s) { return std::uint32_t(1 + (r - 1) * segments + (s % segments)); };
    for (int s = 0; s < segments; ++s)
        m.triangles.push_back({ { 0, ring(1, s + 1), ring(1, s) } });
    for (int r = 1; r + 1 < rings; ++r) {
        for (int s = 0; s < segments; ++s) {
            m.triangles.push_back({ { ring(r, s), ring(r, s + 1), ring(r + 1, s + 1) } });
            m.triangles.push_back({ { ring(r, s), ring(r + 1, s + 1), ring(r + 1, s) } });
        }
    }
    for (int s = 0; s < segments; ++s)
        m.triangles.push_back({ { top, ring(rings - 1, s), ring(rings - 1, s + 1) } });
    return m;
}

} // namespace drape
