// Union-find over triangle corners (path halving, union by lower root so labels are
// deterministic) and the topology consistency check.
#include "sim/topology.h"

#include <algorithm>
#include <unordered_set>

namespace drape {

namespace {

std::uint32_t findRoot(std::vector<std::uint32_t> &parent, std::uint32_t i)
{
    while (parent[i] != i) {
        parent[i] = parent[parent[i]];
        i = parent[i];
    }
    return i;
}

void unite(std::vector<std::uint32_t> &parent, std::uint32_t a, std::uint32_t b)
{
    a = findRoot(parent, a);
    b = findRoot(parent, b);
    if (a != b)
        parent[std::max(a, b)] = std::min(a, b);
}

const char *kindName(ConstraintKind k)
{
    switch (k) {
    case ConstraintKind::Structural:
        return "structural";
    case ConstraintKind::Shear:
        return "shear";
    case ConstraintKind::Bend:
        return "bend";
    case ConstraintKind::User:
        return "user";
    }
    return "unknown";
}

std::uint64_t edgeKey(std::uint32_t a, std::uint32_t b)
{
    if (a > b)
        std::swap(a, b);
    return (std::uint64_t(a) << 32) | b;
}

} // namespace

ClothPieces connectedPieces(const Cloth &cloth)
{
    const auto n = std::uint32_t(cloth.particles.size());
    std::vector<std::uint32_t> parent(n);
    std::vector<bool> used(n, false);
    for (std::uint32_t i = 0; i < n; ++i)
        parent[i] = i;
    for (const Triangle &t : cloth.triangles) {
        if (t.v[0] >= n || t.v[1] >= n || t.v[2] >= n)
            continue;
        unite(parent, t.v[0], t.v[1]);
        unite(parent, t.v[0], t.v[2]);
        for (std::uint32_t v : t.v)
            used[v] = true;
    }
    ClothPieces pieces;
    pieces.label.assign(n, kNoPiece);
    std::vector<std::uint32_t> rootLabel(n, kNoPiece);
    for (std::uint32_t i = 0; i < n; ++i) {
        if (!used[i])
            continue;
        const std::uint32_t r = findRoot(parent, i);
        if (rootLabel[r] == kNoPiece)
            rootLabel[r] = pieces.count++;
        pieces.label[i] = rootLabel[r];
    }
    return pieces;
}

bool isTriangleEdge(const Cloth &cloth, std::uint32_t a, std::uint32_t b)
{
    for (const Triangle &t : cloth.triangles) {
        const bool hasA = t.v[0] == a || t.v[1] == a || t.v[2] == a;
        const bool hasB = t.v[0] == b || t.v[1] == b || t.v[2] == b;
        if (hasA && hasB)
            return true;
    }
    return false;
}

std::string validateTopology(const Cloth &cloth)
{
    const auto n = std::uint32_t(cloth.particles.size());
    std::unordered_set<std::uint64_t> edges;
    for (std::size_t i = 0; i < cloth.triangles.size(); ++i) {
        const Triangle &t = cloth.triangles[i];
        const std::string where = "triangle " + std::to_string(i) + ": ";
        for (std::uint32_t v : t.v)
            if (v >= n)
                return where + "particle " + std::to_string(v) + " out of range, cloth has "
                    + std::to_string(n);
        if (t.v[0] == t.v[1] || t.v[1] == t.v[2] || t.v[0] == t.v[2])
            return where + "repeated corner (" + std::to_string(t.v[0]) + ", " + std::to_string(t.v[1]) + ", "
                + std::to_string(t.v[2]) + ")";
        edges.insert(edgeKey(t.v[0], t.v[1]));
        edges.insert(edgeKey(t.v[1], t.v[2]));
        edges.insert(edgeKey(t.v[0], t.v[2]));
    }
    const ClothPieces pieces = connectedPieces(cloth);
    for (std::size_t i = 0; i < cloth.constraints.size(); ++i) {
        const DistanceConstraint &c = cloth.constraints[i];
        const std::string where = "constraint " + std::to_string(i) + " (" + kindName(c.kind) + " "
            + std::to_string(c.a) + "-" + std::to_string(c.b) + ")";
        if (c.a >= n || c.b >= n)
            return where + ": particle out of range, cloth has " + std::to_string(n);
        if (c.a == c.b)
            return where + ": joins a particle to itself";
        if (c.kind != ConstraintKind::Bend && c.kind != ConstraintKind::Shear)
            continue;
        if (edges.count(edgeKey(c.a, c.b)))
            continue;
        const std::uint32_t pa = pieces.label[c.a];
        const std::uint32_t pb = pieces.label[c.b];
        if (pa != kNoPiece && pb != kNoPiece && pa != pb)
            return where + " joins pieces " + std::to_string(pa) + " and " + std::to_string(pb);
    }
    return {};
}

} // namespace drape
