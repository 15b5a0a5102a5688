// Mesh → cloth and mesh → collider.
//
// A triangle mesh has no quads, so there are no shear diagonals: the triangle edges carry
// both stretch and shear. Bending is the dihedral bending every cloth gets from its
// triangles (sim/bending.h, with the material's bend rigidity) and nothing else: a distance
// spring between the corners opposite an edge would also resist in-plane stretch and count
// the bending twice.
//
// Thread directions come from the texture coordinates, as a pattern piece is laid on the
// fabric: the warp runs along v, the weft along u. Per triangle, the parametrisation's
// gradients ∂x/∂u and ∂x/∂v (from [x1 − x0, x2 − x0] = [∂x/∂u, ∂x/∂v] · [[Δu1, Δu2], [Δv1, Δv2]])
// give the two threads; the cloth keeps one warp axis (ExplicitDesc::warp, used by the
// stretch constraints and projected into each triangle by the bending), the area-weighted
// mean of the triangles' warp directions: the principal axis of Σ A_t d_t d_tᵀ, so that d and
// −d count alike. A mesh whose threads turn across it (a sleeve mapped around its
// circumference) gets the dominant direction only.
#include "mesh/meshobject.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace drape {

namespace {

// The warp direction of one triangle from its UVs: ∂x/∂v, and ∂x/∂u turned a quarter about
// the normal, averaged so that a slightly sheared map gives the direction between the two
// threads. False for a triangle degenerate in space or in UV.
bool triangleWarp(const MeshGeometry &mesh, const Triangle &t, Vec3 &warp, float &area)
{
    const Vec3 &x0 = mesh.positions[t.v[0]];
    const Vec3 e1 = mesh.positions[t.v[1]] - x0, e2 = mesh.positions[t.v[2]] - x0;
    const auto &t0 = mesh.uv[t.v[0]], &t1 = mesh.uv[t.v[1]], &t2 = mesh.uv[t.v[2]];
    const float du1 = t1[0] - t0[0], dv1 = t1[1] - t0[1], du2 = t2[0] - t0[0], dv2 = t2[1] - t0[1];
    const float det = du1 * dv2 - du2 * dv1;
    const Vec3 n2A = cross(e1, e2);
    area = 0.5f * length(n2A);
    if (!(std::abs(det) > 1e-12f) || !(area > 0.f))
        return false;
    const Vec3 dxdu = (e1 * dv2 - e2 * dv1) / det;
    const Vec3 dxdv = (e2 * du1 - e1 * du2) / det;
    if (!(lengthSquared(dxdu) > 0.f) || !(lengthSquared(dxdv) > 0.f))
        return false;
    const Vec3 v = normalized(dxdv);
    Vec3 turned = cross(n2A / (2.f * area), normalized(dxdu));
    if (dot(turned, v) < 0.f)
        turned = turned * -1.f;
    warp = normalized(v + turned, v);
    return true;
}

// The principal axis of Σ A_t d_t d_tᵀ (power iteration from the largest triangle's
// direction); zero when no triangle has a usable parametrisation.
Vec3 meanWarp(const MeshGeometry &mesh)
{
    if (mesh.uv.size() != mesh.positions.size())
        return {};
    double m[3][3] = {};
    Vec3 start;
    float largest = 0.f;
    for (const Triangle &t : mesh.triangles) {
        Vec3 d;
        float area = 0.f;
        if (!triangleWarp(mesh, t, d, area))
            continue;
        const float c[3] = { d.x, d.y, d.z };
        for (int i = 0; i < 3; ++i)
            for (int j = 0; j < 3; ++j)
                m[i][j] += double(area) * double(c[i]) * double(c[j]);
        if (area > largest) {
            largest = area;
            start = d;
        }
    }
    if (!(largest > 0.f))
        return {};
    double a[3] = { start.x, start.y, start.z };
    for (int it = 0; it < 64; ++it) {
        double b[3] = {};
        for (int i = 0; i < 3; ++i)
            for (int j = 0; j < 3; ++j)
                b[i] += m[i][j] * a[j];
        const double len = std::sqrt(b[0] * b[0] + b[1] * b[1] + b[2] * b[2]);
        if (!(len > 0.0))
            break;
        for (int i = 0; i < 3; ++i)
            a[i] = b[i] / len;
    }
    return normalized(Vec3 { float(a[0]), float(a[1]), float(a[2]) }, start);
}

} // namespace

ClothDesc meshToCloth(
    const MeshGeometry &mesh, const Material &material, const std::string &name, MeshClothCounts *counts)
{
    ClothDesc desc;
    desc.name = name;
    desc.source = ClothSource::Explicit;
    desc.material = material;
    ExplicitDesc &e = desc.explicitData;
    const std::size_t n = mesh.positions.size();
    e.rest = mesh.positions;
    e.kind.assign(n, ParticleKind::Dynamic);
    e.triangles = mesh.triangles;
    if (mesh.uv.size() == n)
        e.uv = mesh.uv;

    // Masses: m_i = ρ_A Σ_{t ∋ i} area(t) / 3 (kg).
    e.mass.assign(n, 0.f);
    for (const Triangle &t : mesh.triangles) {
        const Vec3 &a = mesh.positions[t.v[0]], &b = mesh.positions[t.v[1]], &c = mesh.positions[t.v[2]];
        const float third = 0.5f * length(cross(b - a, c - a)) / 3.f * material.arealDensity;
        for (std::uint32_t v : t.v)
            e.mass[v] += third;
    }
    for (float &m : e.mass)
        m = std::max(m, 1e-9f); // a sliver's corner still needs a positive mass

    // Edges in a sorted map keep the constraint order independent of hashing.
    struct EdgeUse {
        std::uint32_t opposite[2] = { 0, 0 };
        int count = 0;
    };
    std::map<std::pair<std::uint32_t, std::uint32_t>, EdgeUse> edges;
    for (const Triangle &t : mesh.triangles) {
        for (int k = 0; k < 3; ++k) {
            const std::uint32_t a = t.v[k], b = t.v[(k + 1) % 3], c = t.v[(k + 2) % 3];
            EdgeUse &u = edges[{ std::min(a, b), std::max(a, b) }];
            if (u.count < 2)
                u.opposite[u.count] = c;
            ++u.count;
        }
    }
    // The warp first: every constraint's stiffness depends on its angle to it.
    const Vec3 warp = meanWarp(mesh);
    double sum = 0.0;
    for (const auto &[key, use] : edges)
        sum += length(mesh.positions[key.first] - mesh.positions[key.second]);
    const float spacing = edges.empty() ? 0.f : float(sum / double(edges.size()));

    MeshClothCounts made;
    for (const auto &[key, use] : edges) {
        const auto [a, b] = key; // a < b: a cleaned mesh has no repeated corner
        const Vec3 d = mesh.positions[b] - mesh.positions[a];
        const float rest = length(d);
        const ConstraintParams p
            = materialParams(material, ConstraintKind::Structural, rest, spacing, warpShareOf(d, warp));
        e.constraints.push_back({ .a = a, .b = b, .restLength = rest, .compliance = p.compliance,
            .damping = p.damping, .tearStrain = p.tearStrain, .kind = ConstraintKind::Structural,
            .tearForce = p.tearForce });
        ++made.structural;
    }
    // The hinges sim/bending.h will make: edges of exactly two triangles with distinct
    // opposite corners.
    for (const auto &[key, use] : edges)
        made.hinges += use.count == 2 && use.opposite[0] != use.opposite[1] ? 1 : 0;
    // Every constraint follows the material (a fabric change reaches them), at the mesh's
    // mean edge length; without usable UVs the cloth is isotropic (zero warp).
    e.own = std::vector<std::uint32_t> {};
    e.spacing = spacing;
    e.warp = warp;
    if (counts)
        *counts = made;
    return desc;
}

Collider meshToCollider(const MeshGeometry &mesh, const std::string &name)
{
    Collider c;
    c.name = name;
    c.kind = ColliderKind::Mesh;
    const Aabb b = mesh.bounds();
    const Vec3 centre = (b.lo + b.hi) * 0.5f;
    c.center = c.baseCenter = centre;
    std::vector<Vec3> local;
    local.reserve(mesh.positions.size());
    for (const Vec3 &p : mesh.positions)
        local.push_back(p - centre);
    c.mesh = makeMeshRef(std::move(local), mesh.triangles);
    return c;
}

} // namespace drape
