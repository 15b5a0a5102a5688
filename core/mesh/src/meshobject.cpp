// Mesh → cloth and mesh → collider.
//
// A triangle mesh has no quads, so there are no shear diagonals: the triangle edges carry
// both stretch and shear. Bending is the dihedral bending every cloth gets from its
// triangles (sim/bending.h, with the material's bend rigidity); the distance between the two
// corners opposite an interior edge (Provot 1995's flexion springs on a triangulation) is
// kept as a legacy bending spring of kind Bend, whose stiffness is the rigidity converted
// through kLegacyBendArea, so imported cloths keep the constraint lists they always had.
#include "mesh/meshobject.h"

#include <algorithm>
#include <map>
#include <unordered_map>

namespace drape {

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
    double sum = 0.0;
    for (const auto &[key, use] : edges)
        sum += length(mesh.positions[key.first] - mesh.positions[key.second]);
    const float spacing = edges.empty() ? 0.f : float(sum / double(edges.size()));

    MeshClothCounts made;
    std::unordered_map<std::uint64_t, bool> joined;
    const auto add = [&](std::uint32_t a, std::uint32_t b, ConstraintKind kind) {
        const std::uint64_t key = (std::uint64_t(std::min(a, b)) << 32) | std::max(a, b);
        if (a == b || !joined.emplace(key, true).second)
            return false;
        const float rest = length(mesh.positions[a] - mesh.positions[b]);
        const ConstraintParams p = materialParams(material, kind, rest, spacing);
        e.constraints.push_back({ a, b, rest, p.compliance, p.damping, p.tearStrain, kind });
        return true;
    };
    for (const auto &[key, use] : edges)
        made.structural += add(key.first, key.second, ConstraintKind::Structural) ? 1 : 0;
    for (const auto &[key, use] : edges)
        if (use.count == 2)
            made.bend += add(use.opposite[0], use.opposite[1], ConstraintKind::Bend) ? 1 : 0;
    // Every constraint follows the material (a fabric change reaches them), at the mesh's
    // mean edge length; a mesh has no thread direction of its own (isotropic).
    e.own = std::vector<std::uint32_t> {};
    e.spacing = spacing;
    e.warp = {};
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
