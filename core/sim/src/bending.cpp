// Hinges and per-triangle shape-operator patches from a cloth's triangles, and the bend angle
// with its gradient; see sim/bending.h for the model.
#include "sim/bending.h"

#include "bendingpatch.h"

#include <algorithm>
#include <cmath>
#include <tuple>

namespace drape {

namespace {

struct EdgeUse {
    std::uint32_t a, b; // a < b
    std::uint32_t opposite;
    std::uint32_t triangle;
    int edge; // edge index k in the triangle: from v[k] to v[(k+1) % 3]

    auto key() const { return std::tie(a, b, opposite, triangle, edge); }
    bool operator<(const EdgeUse &o) const { return key() < o.key(); }
};

bool validTriangle(const Triangle &t, std::size_t n)
{
    return t.v[0] < n && t.v[1] < n && t.v[2] < n && t.v[0] != t.v[1] && t.v[1] != t.v[2] && t.v[0] != t.v[2];
}

// Appends particle p to the patch's list if it is not there yet; returns its slot.
std::uint8_t slotOf(BendPatch &patch, std::uint32_t p)
{
    for (std::uint8_t s = 0; s < patch.count; ++s)
        if (patch.vertex[s] == p)
            return s;
    patch.vertex[patch.count] = p;
    return patch.count++;
}

} // namespace

void buildBendModel(const Cloth &cloth, BendModel &out)
{
    out.hinges.clear();
    out.patches.clear();
    const std::vector<Vec3> &rest = cloth.particles.rest;
    const std::size_t n = rest.size();
    // Every triangle edge with its opposite corner, sorted so that the hinges come out in an
    // order fixed by the topology alone (deterministic runs).
    std::vector<EdgeUse> edges;
    edges.reserve(cloth.triangles.size() * 3);
    for (std::size_t t = 0; t < cloth.triangles.size(); ++t) {
        const Triangle &tri = cloth.triangles[t];
        if (!validTriangle(tri, n))
            continue; // reported by Cloth::validate(), or a sliver with a repeated corner
        for (int k = 0; k < 3; ++k) {
            const std::uint32_t a = tri.v[k], b = tri.v[(k + 1) % 3];
            edges.push_back({ std::min(a, b), std::max(a, b), tri.v[(k + 2) % 3], std::uint32_t(t), k });
        }
    }
    std::sort(edges.begin(), edges.end());
    std::vector<std::uint32_t> hingeOf(cloth.triangles.size() * 3, kNoHinge);
    for (std::size_t i = 0; i < edges.size();) {
        std::size_t j = i + 1;
        while (j < edges.size() && edges[j].a == edges[i].a && edges[j].b == edges[i].b)
            ++j;
        const EdgeUse &p = edges[i];
        const EdgeUse &q = edges[j - 1];
        const std::size_t uses = j - i;
        i = j;
        if (uses != 2 || p.opposite == q.opposite)
            continue; // a border edge, or non-manifold (no single fold angle)
        BendHinge h;
        h.v[0] = p.a;
        h.v[1] = p.b;
        h.v[2] = p.opposite;
        h.v[3] = q.opposite;
        Vec3 grad[4];
        if (!bendAngle(rest[h.v[0]], rest[h.v[1]], rest[h.v[2]], rest[h.v[3]], h.restAngle, grad))
            continue; // a degenerate pair has no fold angle
        hingeOf[std::size_t(p.triangle) * 3 + std::size_t(p.edge)] = std::uint32_t(out.hinges.size());
        hingeOf[std::size_t(q.triangle) * 3 + std::size_t(q.edge)] = std::uint32_t(out.hinges.size());
        out.hinges.push_back(h);
    }

    const Vec3 &warp = cloth.bending.warpAxis;
    for (std::size_t t = 0; t < cloth.triangles.size(); ++t) {
        const std::uint32_t *hinge = hingeOf.data() + t * 3;
        if (hinge[0] == kNoHinge && hinge[1] == kNoHinge && hinge[2] == kNoHinge)
            continue;
        const Triangle &tri = cloth.triangles[t];
        const Vec3 &x0 = rest[tri.v[0]], &x1 = rest[tri.v[1]], &x2 = rest[tri.v[2]];
        const Vec3 normal2A = cross(x1 - x0, x2 - x0);
        const float area = 0.5f * length(normal2A);
        if (!(area > 0.f))
            continue;
        const Vec3 nT = normal2A / (2.f * area);
        // Frame: v along the warp as it lies in this triangle, u across it (the weft); any
        // in-plane frame when the cloth is isotropic or the warp is normal to the triangle.
        Vec3 v = warp - nT * dot(nT, warp);
        if (!(lengthSquared(v) > 1e-12f * std::max(lengthSquared(warp), 1e-30f))
            || !(lengthSquared(warp) > 0.f))
            v = cross(nT, normalized(x1 - x0));
        v = normalized(v);
        const Vec3 u = cross(v, nT);
        BendPatch patch;
        patch.area = area;
        for (std::uint32_t c : tri.v)
            slotOf(patch, c);
        for (int k = 0; k < 3; ++k) {
            patch.hinge[k] = hinge[k];
            if (hinge[k] == kNoHinge)
                continue;
            const BendHinge &h = out.hinges[hinge[k]];
            for (int c = 0; c < 4; ++c)
                patch.slot[k][c] = slotOf(patch, h.v[c]);
            // θ is measured towards the normal of the wing holding v[2]; count it towards this
            // triangle's normal instead, so that all three edges agree on which side is a valley.
            const float side = dot(cross(rest[h.v[1]] - rest[h.v[0]], rest[h.v[2]] - rest[h.v[0]]), nT) >= 0.f
                ? 1.f
                : -1.f;
            const Vec3 e = rest[tri.v[(k + 1) % 3]] - rest[tri.v[k]];
            const Vec3 across = normalized(cross(nT, e)); // in-plane normal of the edge
            const float tu = dot(across, u), tv = dot(across, v);
            const float f = side * length(e) / (2.f * area); // 1/m
            patch.coeff[0][k] = f * tu * tu;
            patch.coeff[1][k] = f * tv * tv;
            patch.coeff[2][k] = f * std::sqrt(2.f) * tu * tv;
        }
        out.patches.push_back(patch);
    }
}

void patchRigidity(const BendingParams &params, float out[3])
{
    const float weft = std::max(params.rigidity, 0.f);
    const float warp = params.warpRigidity > 0.f ? params.warpRigidity : weft;
    out[0] = weft;
    out[1] = warp;
    out[2] = std::sqrt(weft * warp); // twist: the usual geometric mean of an orthotropic plate
}

bool bendAngle(const Vec3 &x0, const Vec3 &x1, const Vec3 &x2, const Vec3 &x3, float &angle, Vec3 grad[4])
{
    const Vec3 e = x1 - x0;
    const float ee = lengthSquared(e);
    // Unnormalised wing normals oriented so that they agree on a flat pair whatever the
    // triangles' winding: |nA| = |e| h₂, h₂ the distance of x2 from the hinge line.
    const Vec3 nA = cross(e, x2 - x0);
    const Vec3 nB = cross(x3 - x0, e);
    const float aa = lengthSquared(nA), bb = lengthSquared(nB);
    if (!(ee > 0.f) || !(aa > 1e-12f * ee * ee) || !(bb > 1e-12f * ee * ee))
        return false;
    const float le = std::sqrt(ee);
    // atan2 of sin and cos scaled alike by |nA| |nB|: no need to normalise the normals.
    angle = bendpatch::wrapAngle(std::atan2(dot(cross(nB, nA), e) / le, dot(nA, nB)));
    // Lifting a wing tip x2 by δ along its normal turns that wing by δ/h₂ about the hinge:
    // ∂θ/∂x2 = n̂A / h₂ = nA |e| / |nA|². The hinge ends take the rest so that the gradient is
    // free of translation and rotation: x2's share goes to x0 and x1 in proportion to where
    // x2 projects on the hinge, s₂ = (x2 − x0)·e / |e|² (Bridson, Marino, Fedkiw 2003 give the
    // same gradient in another form).
    const Vec3 g2 = nA * (le / aa);
    const Vec3 g3 = nB * (le / bb);
    const float s2 = dot(x2 - x0, e) / ee, s3 = dot(x3 - x0, e) / ee;
    grad[0] = -(g2 * (1.f - s2) + g3 * (1.f - s3));
    grad[1] = -(g2 * s2 + g3 * s3);
    grad[2] = g2;
    grad[3] = g3;
    return true;
}

double bendingEnergy(const Cloth &cloth, const BendModel &model, const std::vector<Vec3> &positions)
{
    float rigidity[3];
    patchRigidity(cloth.bending, rigidity);
    double energy = 0.0;
    for (const BendPatch &patch : model.patches) {
        bendpatch::Linearised lin;
        const Vec3 origin = positions[patch.vertex[0]];
        Vec3 x[6];
        for (int s = 0; s < patch.count; ++s)
            x[s] = positions[patch.vertex[s]] - origin;
        bendpatch::linearise(model, patch, x, lin);
        for (int k = 0; k < 3; ++k)
            energy += 0.5 * double(rigidity[k]) * double(patch.area) * double(lin.c[k]) * double(lin.c[k]);
    }
    return energy;
}

} // namespace drape
