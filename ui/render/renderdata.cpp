#include "render/renderdata.h"

#include "sim/tearing.h"
#include "sim/tension.h"

#include <algorithm>
#include <cmath>

namespace drape {

namespace {

constexpr float kPi = 3.14159265358979f;

void pushVertex(MeshData &m, const Vec3 &p, const Vec3 &n)
{
    m.vertices.insert(m.vertices.end(), {p.x, p.y, p.z, n.x, n.y, n.z});
}

void pushLine(std::vector<LineVertex> &out, const Vec3 &a, const Vec3 &b, const Vec3 &c, float alpha)
{
    out.push_back({a.x, a.y, a.z, c.x, c.y, c.z, alpha});
    out.push_back({b.x, b.y, b.z, c.x, c.y, c.z, alpha});
}

} // namespace

MeshData makeSphereMesh(int slices, int stacks)
{
    MeshData m;
    for (int j = 0; j <= stacks; ++j) {
        const float theta = kPi * float(j) / float(stacks);
        for (int i = 0; i <= slices; ++i) {
            const float phi = 2.f * kPi * float(i) / float(slices);
            const Vec3 n{std::sin(theta) * std::cos(phi), std::cos(theta), std::sin(theta) * std::sin(phi)};
            pushVertex(m, n, n);
        }
    }
    const std::uint32_t row = std::uint32_t(slices + 1);
    for (int j = 0; j < stacks; ++j) {
        for (int i = 0; i < slices; ++i) {
            const std::uint32_t a = std::uint32_t(j) * row + std::uint32_t(i), b = a + row;
            // Counter-clockwise seen from outside.
            m.indices.insert(m.indices.end(), {a, a + 1, b, a + 1, b + 1, b});
        }
    }
    return m;
}

MeshData makeCapsuleMesh(float radius, float halfLength, int slices, int stacks)
{
    // The unit sphere's rows, scaled by the radius, with the upper half lifted by halfLength
    // and the lower half lowered: the equator row appears twice, joining the caps by a tube.
    MeshData m;
    stacks += stacks % 2; // an even number, so a row sits on the equator
    int rows = 0;
    for (int j = 0; j <= stacks; ++j) {
        const float theta = kPi * float(j) / float(stacks);
        for (int copy = 0; copy < (2 * j == stacks ? 2 : 1); ++copy, ++rows) {
            const float lift = (2 * j < stacks || (2 * j == stacks && copy == 0)) ? halfLength : -halfLength;
            for (int i = 0; i <= slices; ++i) {
                const float phi = 2.f * kPi * float(i) / float(slices);
                const Vec3 n{std::sin(theta) * std::cos(phi), std::cos(theta), std::sin(theta) * std::sin(phi)};
                pushVertex(m, n * radius + Vec3{0.f, lift, 0.f}, n);
            }
        }
    }
    const std::uint32_t row = std::uint32_t(slices + 1);
    for (int j = 0; j + 1 < rows; ++j) {
        for (int i = 0; i < slices; ++i) {
            const std::uint32_t a = std::uint32_t(j) * row + std::uint32_t(i), b = a + row;
            m.indices.insert(m.indices.end(), {a, a + 1, b, a + 1, b + 1, b});
        }
    }
    return m;
}

MeshData makeFlatMesh(const std::vector<Vec3> &vertices, const std::vector<Triangle> &triangles)
{
    MeshData m;
    for (const Triangle &t : triangles) {
        const Vec3 &a = vertices[t.v[0]], &b = vertices[t.v[1]], &c = vertices[t.v[2]];
        const Vec3 n = normalized(cross(b - a, c - a));
        const std::uint32_t base = std::uint32_t(m.vertices.size() / 6);
        pushVertex(m, a, n);
        pushVertex(m, b, n);
        pushVertex(m, c, n);
        m.indices.insert(m.indices.end(), {base, base + 1, base + 2});
    }
    return m;
}

MeshData makeBoxMesh()
{
    MeshData m;
    const Vec3 normals[6] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
    for (const Vec3 &n : normals) {
        // Two axes spanning the face, ordered so that u × v = n (counter-clockwise from outside).
        const Vec3 u = std::abs(n.y) > 0.5f ? Vec3{0, 0, 1} : Vec3{0, 1, 0};
        const Vec3 v = cross(n, u);
        const std::uint32_t base = std::uint32_t(m.vertices.size() / 6);
        pushVertex(m, n - u - v, n);
        pushVertex(m, n + u - v, n);
        pushVertex(m, n + u + v, n);
        pushVertex(m, n - u + v, n);
        // u × v = u × (n × u) = n, so the corner order above is counter-clockwise from outside.
        m.indices.insert(m.indices.end(), {base, base + 1, base + 2, base, base + 2, base + 3});
    }
    return m;
}

MeshData makeQuadMesh()
{
    MeshData m;
    const Vec3 n{0, 1, 0};
    pushVertex(m, {-1, 0, -1}, n);
    pushVertex(m, {-1, 0, 1}, n);
    pushVertex(m, {1, 0, 1}, n);
    pushVertex(m, {1, 0, -1}, n);
    m.indices = {0, 1, 2, 0, 2, 3};
    return m;
}

std::vector<LineVertex> makeGridLines(float halfSize, float spacing, int majorEvery)
{
    std::vector<LineVertex> out;
    const int n = int(std::round(halfSize / spacing));
    for (int i = -n; i <= n; ++i) {
        const float t = float(i) * spacing;
        const bool major = majorEvery > 0 && i % majorEvery == 0;
        const Vec3 c = major ? Vec3{0.42f, 0.44f, 0.47f} : Vec3{0.30f, 0.31f, 0.33f};
        const float alpha = major ? 0.9f : 0.55f;
        pushLine(out, {t, 0, -halfSize}, {t, 0, halfSize}, i == 0 ? Vec3{0.25f, 0.45f, 0.85f} : c, alpha);
        pushLine(out, {-halfSize, 0, t}, {halfSize, 0, t}, i == 0 ? Vec3{0.85f, 0.30f, 0.30f} : c, alpha);
    }
    return out;
}

void appendBoxEdges(const Vec3 &center, const Vec3 &h, const Vec3 &color, std::vector<LineVertex> &out,
                    const Mat3 &rotation)
{
    auto corner = [&](int k) {
        return center + rotation * Vec3{k & 1 ? h.x : -h.x, k & 2 ? h.y : -h.y, k & 4 ? h.z : -h.z};
    };
    for (int k = 0; k < 8; ++k) {
        for (int bit : {1, 2, 4}) {
            if (!(k & bit))
                pushLine(out, corner(k), corner(k | bit), color, 1.f);
        }
    }
}

Vec3 constraintKindColor(ConstraintKind kind)
{
    switch (kind) {
    case ConstraintKind::Structural: return {0.35f, 0.65f, 1.00f};
    case ConstraintKind::Shear: return {0.40f, 0.90f, 0.45f};
    case ConstraintKind::Bend: return {0.80f, 0.50f, 1.00f};
    case ConstraintKind::User: return {1.00f, 0.62f, 0.15f};
    }
    return {1.f, 1.f, 1.f};
}

float tearRisk(const Cloth &cloth, const DistanceConstraint &c)
{
    // Only stretch tears: a compressed constraint (a fold, crumpled cloth at rest) has no
    // tear risk, however short it is.
    const float stretch = std::max(constraintStrain(cloth, c), 0.f);
    const float limit = std::isfinite(c.tearStrain) && c.tearStrain > 0.f ? c.tearStrain : kUntearableStrainScale;
    return stretch / limit;
}

void computeStrainRatios(const Cloth &cloth, std::vector<float> &out)
{
    out.assign(cloth.particles.size(), 0.f);
    for (const DistanceConstraint &c : cloth.constraints) {
        const float r = tearRisk(cloth, c);
        out[c.a] = std::max(out[c.a], r);
        out[c.b] = std::max(out[c.b], r);
    }
}

float maxStress(const Cloth &cloth, const std::vector<float> &tension, float width)
{
    float worst = 0.f;
    for (std::size_t c = 0; c < cloth.constraints.size(); ++c)
        worst = std::max(worst, constraintStress(cloth, tension, c, width));
    return worst;
}

void computeStressRatios(
    const Cloth &cloth, const std::vector<float> &tension, float width, float scale, std::vector<float> &out)
{
    out.assign(cloth.particles.size(), 0.f);
    const float inv = scale > 0.f ? 1.f / scale : 0.f;
    for (std::size_t c = 0; c < cloth.constraints.size(); ++c) {
        const DistanceConstraint &k = cloth.constraints[c];
        const float r = std::max(constraintStress(cloth, tension, c, width), 0.f) * inv;
        out[k.a] = std::max(out[k.a], r);
        out[k.b] = std::max(out[k.b], r);
    }
}

float niceCeiling(float v)
{
    if (!(v > 0.f) || !std::isfinite(v))
        return 1.f;
    const float decade = std::pow(10.f, std::floor(std::log10(v)));
    for (const float m : {1.f, 2.f, 5.f, 10.f}) {
        if (m * decade >= v * (1.f - 1e-6f))
            return m * decade;
    }
    return 10.f * decade;
}

namespace {

/// √(rest area / UV area) of a cloth's own UVs, 0 when they are missing or degenerate.
float metresPerUvUnit(const Cloth &cloth)
{
    const auto &rest = cloth.particles.rest;
    if (cloth.uv.empty() || cloth.uv.size() != rest.size())
        return 0.f; // none, or a tear split particles since the import
    double restArea = 0.0, uvArea = 0.0;
    for (const Triangle &t : cloth.triangles) {
        restArea += length(cross(rest[t.v[1]] - rest[t.v[0]], rest[t.v[2]] - rest[t.v[0]]));
        const auto &p = cloth.uv[t.v[0]], &q = cloth.uv[t.v[1]], &r = cloth.uv[t.v[2]];
        uvArea += std::abs((q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0]));
    }
    return uvArea > 1e-12 && restArea > 0.0 ? float(std::sqrt(restArea / uvArea)) : 0.f;
}

} // namespace

float computeClothUvs(const Cloth &cloth, const Vec3 &warp, std::vector<float> &out)
{
    const std::size_t n = cloth.particles.size();
    const auto &rest = cloth.particles.rest;
    out.resize(2 * n);
    if (const float scale = metresPerUvUnit(cloth); scale > 0.f) {
        for (std::size_t i = 0; i < n; ++i) {
            out[2 * i] = cloth.uv[i][0];
            out[2 * i + 1] = cloth.uv[i][1];
        }
        return scale;
    }
    // v along the warp, u across it in the cloth's mean plane (the area-weighted normal).
    Vec3 normal;
    for (const Triangle &t : cloth.triangles)
        normal += cross(rest[t.v[1]] - rest[t.v[0]], rest[t.v[2]] - rest[t.v[0]]);
    const Vec3 v = normalized(warp);
    Vec3 u = cross(v, normal);
    if (lengthSquared(u) < 1e-12f * std::max(lengthSquared(normal), 1e-12f))
        u = cross(v, std::abs(v.x) < 0.9f ? Vec3{1, 0, 0} : Vec3{0, 0, 1});
    u = normalized(u);
    float lo[2] = {INFINITY, INFINITY}, hi[2] = {-INFINITY, -INFINITY};
    for (std::size_t i = 0; i < n; ++i) {
        out[2 * i] = dot(rest[i], u);
        out[2 * i + 1] = dot(rest[i], v);
        for (int k = 0; k < 2; ++k) {
            lo[k] = std::min(lo[k], out[2 * i + k]);
            hi[k] = std::max(hi[k], out[2 * i + k]);
        }
    }
    const float span = n > 0 ? std::max({hi[0] - lo[0], hi[1] - lo[1], 1e-6f}) : 1.f;
    for (std::size_t i = 0; i < n; ++i) {
        out[2 * i] = (out[2 * i] - lo[0]) / span;
        out[2 * i + 1] = (out[2 * i + 1] - lo[1]) / span;
    }
    return span;
}

std::vector<std::uint32_t> triangleEdges(const Cloth &cloth)
{
    std::vector<std::uint64_t> keys;
    keys.reserve(cloth.triangles.size() * 3);
    for (const Triangle &t : cloth.triangles) {
        for (int e = 0; e < 3; ++e) {
            const std::uint32_t a = t.v[e], b = t.v[(e + 1) % 3];
            keys.push_back((std::uint64_t(std::min(a, b)) << 32) | std::max(a, b));
        }
    }
    std::sort(keys.begin(), keys.end());
    keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
    std::vector<std::uint32_t> out;
    out.reserve(keys.size() * 2);
    for (std::uint64_t k : keys) {
        out.push_back(std::uint32_t(k >> 32));
        out.push_back(std::uint32_t(k & 0xffffffffu));
    }
    return out;
}

} // namespace drape
