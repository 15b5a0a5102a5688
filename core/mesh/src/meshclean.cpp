// Mesh cleaning: weld by position through a hash grid of tolerance-sized cells (each vertex
// looks in the 27 cells around its own), then triangle checks on the welded indices.
#include "mesh/meshdata.h"

#include <algorithm>
#include <cmath>
#include <unordered_map>
#include <unordered_set>

namespace drape {

Aabb MeshGeometry::bounds() const
{
    Aabb b;
    for (const Vec3 &p : positions)
        if (isFinite(p))
            b.grow(p);
    return b;
}

float defaultWeldTolerance(const MeshGeometry &mesh)
{
    const Aabb b = mesh.bounds();
    const float diag = b.lo.x <= b.hi.x ? length(b.hi - b.lo) : 0.f;
    return std::max(1e-6f * diag, 1e-9f);
}

namespace {

std::uint64_t cellKey(std::int64_t x, std::int64_t y, std::int64_t z)
{
    // 21 bits per axis, wrapped: collisions only cost an extra distance test.
    const auto m = [](std::int64_t v) { return std::uint64_t(v) & 0x1fffffu; };
    return (m(x) << 42) | (m(y) << 21) | m(z);
}

std::int64_t cellOf(float v, float inv)
{
    return std::int64_t(std::floor(double(v) * double(inv)));
}

// Old vertex → representative vertex, merging those within `tol`.
std::vector<std::uint32_t> weld(const std::vector<Vec3> &p, const std::vector<bool> &finite, float tol)
{
    std::vector<std::uint32_t> map(p.size());
    std::unordered_multimap<std::uint64_t, std::uint32_t> grid;
    grid.reserve(p.size());
    const float inv = 1.f / tol;
    const float tol2 = tol * tol;
    for (std::uint32_t i = 0; i < p.size(); ++i) {
        map[i] = i;
        if (!finite[i])
            continue;
        const std::int64_t cx = cellOf(p[i].x, inv), cy = cellOf(p[i].y, inv), cz = cellOf(p[i].z, inv);
        bool merged = false;
        for (int dz = -1; dz <= 1 && !merged; ++dz)
            for (int dy = -1; dy <= 1 && !merged; ++dy)
                for (int dx = -1; dx <= 1 && !merged; ++dx) {
                    const auto [b, e] = grid.equal_range(cellKey(cx + dx, cy + dy, cz + dz));
                    for (auto it = b; it != e; ++it) {
                        if (lengthSquared(p[it->second] - p[i]) <= tol2) {
                            map[i] = it->second;
                            merged = true;
                            break;
                        }
                    }
                }
        if (!merged)
            grid.emplace(cellKey(cx, cy, cz), i);
    }
    return map;
}

std::uint64_t edgeKey(std::uint32_t a, std::uint32_t b)
{
    return (std::uint64_t(std::min(a, b)) << 32) | std::max(a, b);
}

} // namespace

MeshReport cleanMesh(MeshGeometry &mesh, float weldTolerance)
{
    MeshReport r;
    r.inputVertices = mesh.positions.size();
    r.inputTriangles = mesh.triangles.size();
    std::vector<bool> finite(mesh.positions.size());
    for (std::size_t i = 0; i < mesh.positions.size(); ++i) {
        finite[i] = isFinite(mesh.positions[i]);
        r.nonFiniteVertices += finite[i] ? 0 : 1;
    }
    const std::vector<std::uint32_t> rep = weld(mesh.positions, finite, weldTolerance);
    for (std::uint32_t i = 0; i < rep.size(); ++i)
        r.weldedVertices += rep[i] != i ? 1 : 0;

    // Triangles on welded indices; an area below (10⁻⁶ of the longest edge)² counts as none.
    std::vector<Triangle> kept;
    kept.reserve(mesh.triangles.size());
    std::unordered_set<std::string> seenTriples; // sorted corner triples, as 12-byte keys
    seenTriples.reserve(mesh.triangles.size());
    for (const Triangle &t0 : mesh.triangles) {
        Triangle t;
        bool bad = false;
        for (int k = 0; k < 3; ++k) {
            t.v[k] = rep[t0.v[k]];
            bad = bad || !finite[t.v[k]];
        }
        if (bad)
            continue; // counted as non-finite vertices
        const Vec3 &a = mesh.positions[t.v[0]], &b = mesh.positions[t.v[1]], &c = mesh.positions[t.v[2]];
        const float longest = std::max({ lengthSquared(b - a), lengthSquared(c - b), lengthSquared(a - c) });
        const float area2 = length(cross(b - a, c - a));
        if (t.v[0] == t.v[1] || t.v[1] == t.v[2] || t.v[0] == t.v[2] || !(area2 > 1e-6f * longest)) {
            ++r.degenerateTriangles;
            continue;
        }
        std::uint32_t s[3] = { t.v[0], t.v[1], t.v[2] };
        std::sort(s, s + 3);
        if (!seenTriples.insert(std::string(reinterpret_cast<const char *>(s), sizeof(s))).second) {
            ++r.duplicateTriangles;
            continue;
        }
        kept.push_back(t);
    }

    // Compact the vertices to those the remaining triangles use, in first-use order of index.
    std::vector<std::uint32_t> newIndex(mesh.positions.size(), ~0u);
    for (const Triangle &t : kept)
        for (std::uint32_t v : t.v)
            newIndex[v] = 0;
    MeshGeometry out;
    const bool hasUv = mesh.uv.size() == mesh.positions.size();
    for (std::uint32_t i = 0; i < newIndex.size(); ++i) {
        if (newIndex[i] == ~0u)
            continue;
        newIndex[i] = std::uint32_t(out.positions.size());
        out.positions.push_back(mesh.positions[i]);
        if (hasUv)
            out.uv.push_back(mesh.uv[i]);
    }
    for (std::uint32_t i = 0; i < rep.size(); ++i)
        r.unusedVertices += (rep[i] == i && finite[i] && newIndex[i] == ~0u) ? 1 : 0;
    for (Triangle &t : kept)
        for (std::uint32_t &v : t.v)
            v = newIndex[v];
    out.triangles = std::move(kept);

    std::unordered_map<std::uint64_t, std::uint32_t> edgeUse;
    edgeUse.reserve(out.triangles.size() * 2);
    for (const Triangle &t : out.triangles)
        for (int k = 0; k < 3; ++k)
            ++edgeUse[edgeKey(t.v[k], t.v[(k + 1) % 3])];
    for (const auto &[key, uses] : edgeUse) {
        r.boundaryEdges += uses == 1 ? 1 : 0;
        r.nonManifoldEdges += uses > 2 ? 1 : 0;
    }
    // A closed mesh's signed volume, Σ a·(b × c) / 6 over its triangles, is negative when it is
    // wound inside out; then every normal would point in and a collider would pull cloth inside.
    if (r.boundaryEdges == 0 && r.nonManifoldEdges == 0 && !out.triangles.empty()) {
        double volume = 0.0;
        for (const Triangle &t : out.triangles)
            volume += double(dot(out.positions[t.v[0]], cross(out.positions[t.v[1]], out.positions[t.v[2]])));
        if (volume < 0.0) {
            for (Triangle &t : out.triangles)
                std::swap(t.v[1], t.v[2]);
            r.turnedOutward = true;
        }
    }
    mesh = std::move(out);
    return r;
}

std::vector<std::string> MeshReport::warnings() const
{
    std::vector<std::string> w;
    const auto add = [&w](std::size_t n, const char *what) {
        if (n > 0)
            w.push_back(std::to_string(n) + " " + what);
    };
    add(nonFiniteVertices, "vertices with NaN or infinite coordinates removed (with their triangles)");
    add(degenerateTriangles, "degenerate triangles (repeated corner or no area) removed");
    add(duplicateTriangles, "duplicate triangles removed");
    add(unusedVertices, "vertices in no triangle removed");
    add(nonManifoldEdges, "non-manifold edges (shared by more than two triangles); no bending across them");
    add(skippedPrimitives, "points or lines skipped (only triangles are used)");
    if (turnedOutward)
        w.push_back("the closed mesh was wound inside out; its triangles were turned to face outward");
    return w;
}

} // namespace drape
