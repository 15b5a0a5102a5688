// Closest point on a triangle, with the feature (vertex, edge or face) that holds it and its
// barycentric weights. Region tests in the order of Ericson, "Real-Time Collision Detection"
// (2005), §5.1.5: the point's projection is classified against the Voronoi regions of the three
// vertices, then the three edges, and falls on the face otherwise. Internal to the core.
#pragma once

#include "base/vec3.h"

#include <cstdint>

namespace drape::detail {

enum class TriangleFeature : std::uint8_t { Face, Vertex0, Vertex1, Vertex2, Edge01, Edge12, Edge20 };

struct TrianglePoint {
    Vec3 point;
    float w[3] = { 1.f, 0.f, 0.f }; ///< barycentric weights of a, b, c (sum 1)
    TriangleFeature feature = TriangleFeature::Face;
};

inline TrianglePoint closestOnTriangle(const Vec3 &p, const Vec3 &a, const Vec3 &b, const Vec3 &c)
{
    const Vec3 ab = b - a, ac = c - a, ap = p - a;
    const float d1 = dot(ab, ap), d2 = dot(ac, ap);
    if (d1 <= 0.f && d2 <= 0.f)
        return { a, { 1.f, 0.f, 0.f }, TriangleFeature::Vertex0 };
    const Vec3 bp = p - b;
    const float d3 = dot(ab, bp), d4 = dot(ac, bp);
    if (d3 >= 0.f && d4 <= d3)
        return { b, { 0.f, 1.f, 0.f }, TriangleFeature::Vertex1 };
    const Vec3 cp = p - c;
    const float d5 = dot(ab, cp), d6 = dot(ac, cp);
    if (d6 >= 0.f && d5 <= d6)
        return { c, { 0.f, 0.f, 1.f }, TriangleFeature::Vertex2 };
    // Edge regions: the signed areas (scaled) of the sub-triangles opposite each vertex.
    const float vc = d1 * d4 - d3 * d2;
    if (vc <= 0.f && d1 >= 0.f && d3 <= 0.f) {
        const float t = d1 / (d1 - d3);
        return { a + ab * t, { 1.f - t, t, 0.f }, TriangleFeature::Edge01 };
    }
    const float vb = d5 * d2 - d1 * d6;
    if (vb <= 0.f && d2 >= 0.f && d6 <= 0.f) {
        const float t = d2 / (d2 - d6);
        return { a + ac * t, { 1.f - t, 0.f, t }, TriangleFeature::Edge20 };
    }
    const float va = d3 * d6 - d5 * d4;
    if (va <= 0.f && (d4 - d3) >= 0.f && (d5 - d6) >= 0.f) {
        const float t = (d4 - d3) / ((d4 - d3) + (d5 - d6));
        return { b + (c - b) * t, { 0.f, 1.f - t, t }, TriangleFeature::Edge12 };
    }
    const float sum = va + vb + vc;
    if (!(sum > 0.f)) // degenerate triangle: its first vertex is as good as any point
        return { a, { 1.f, 0.f, 0.f }, TriangleFeature::Vertex0 };
    const float v = vb / sum, w = vc / sum;
    return { a + ab * v + ac * w, { 1.f - v - w, v, w }, TriangleFeature::Face };
}

} // namespace drape::detail
