#include "edit/clothedit.h"

#include <algorithm>
#include <cmath>
#include <unordered_set>

namespace drape {

namespace {

std::string particleOutOfRange(std::uint32_t i, std::size_t n)
{
    return "particle " + std::to_string(i) + " out of range, cloth has " + std::to_string(n);
}

std::string constraintOutOfRange(std::uint32_t i, std::size_t n)
{
    return "constraint " + std::to_string(i) + " out of range, cloth has " + std::to_string(n);
}

// Stable compaction: erases the items at `indices` (ascending, unique, in range).
template <class T, class Indexed>
void removeSorted(std::vector<T> &items, const std::vector<Indexed> &removed)
{
    if (removed.empty())
        return;
    std::size_t write = removed.front().index;
    std::size_t next = 0;
    for (std::size_t read = removed.front().index; read < items.size(); ++read) {
        if (next < removed.size() && removed[next].index == read) {
            ++next;
            continue;
        }
        items[write++] = items[read];
    }
    items.resize(write);
}

// Inserts the items so that each ends at its index (ascending): a merge, O(n + k).
template <class T, class Indexed, class Get>
void insertSorted(std::vector<T> &items, const std::vector<Indexed> &added, Get get)
{
    if (added.empty())
        return;
    std::vector<T> merged;
    merged.reserve(items.size() + added.size());
    std::size_t read = 0;
    for (const Indexed &a : added) {
        while (merged.size() < a.index)
            merged.push_back(items[read++]);
        merged.push_back(get(a));
    }
    while (read < items.size())
        merged.push_back(items[read++]);
    items = std::move(merged);
}

// Removes the records `removed` names, then inserts `added` (both ascending by index), in
// place, rewriting only the records from the first index either names; writes nothing when
// both are empty.
void removeThenInsert(ConstraintRecords &records, const std::vector<IndexedConstraint> &removed,
    const std::vector<IndexedConstraint> &added)
{
    records.eraseThenInsert(
        removed.size(), [&](std::size_t i) { return removed[i].index; }, added.size(),
        [&](std::size_t j) { return added[j].index; }, [&](std::size_t j) { return added[j].constraint; });
}

template <class Indexed>
std::string checkSorted(const std::vector<Indexed> &list, std::size_t count, const char *what, bool allowEnd)
{
    for (std::size_t k = 0; k < list.size(); ++k) {
        const std::size_t limit = allowEnd ? count + k + 1 : count;
        if (list[k].index >= limit)
            return std::string(what) + " " + std::to_string(list[k].index) + " out of range, cloth has "
                + std::to_string(count);
        if (k > 0 && list[k].index <= list[k - 1].index)
            return std::string(what) + " indices of the edit are not ascending at "
                + std::to_string(list[k].index);
    }
    return {};
}

std::vector<std::uint32_t> indexMap(
    std::size_t oldCount, const std::vector<std::uint32_t> &removed, const std::vector<std::uint32_t> &added)
{
    std::vector<std::uint32_t> map(oldCount, kRemovedIndex);
    // After compaction survivor i sits at i - (removed below i); an insertion at final
    // index a shifts every survivor whose final index reaches a.
    std::size_t r = 0;
    std::vector<std::uint32_t> survivors;
    survivors.reserve(oldCount);
    for (std::size_t i = 0; i < oldCount; ++i) {
        if (r < removed.size() && removed[r] == i) {
            ++r;
            continue;
        }
        survivors.push_back(std::uint32_t(i));
    }
    std::size_t a = 0;
    for (std::size_t s = 0; s < survivors.size(); ++s) {
        while (a < added.size() && added[a] <= s + a)
            ++a;
        map[survivors[s]] = std::uint32_t(s + a);
    }
    return map;
}

std::uint64_t pairKey(std::uint32_t a, std::uint32_t b)
{
    if (a > b)
        std::swap(a, b);
    return (std::uint64_t(a) << 32) | b;
}

// Sorted, unique copy of `indices`, or an error naming the first index out of range.
std::string sortedUnique(std::span<const std::uint32_t> indices, std::size_t count, bool particles,
    std::vector<std::uint32_t> &out)
{
    for (std::uint32_t i : indices)
        if (i >= count)
            return particles ? particleOutOfRange(i, count) : constraintOutOfRange(i, count);
    out.assign(indices.begin(), indices.end());
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return {};
}

} // namespace

ParticleRecord particleRecord(const Particles &p, std::uint32_t i)
{
    return { p.position[i], p.previous[i], p.velocity[i], p.mass[i], p.invMass[i], p.kind[i] };
}

void storeParticleRecord(Particles &p, std::uint32_t i, const ParticleRecord &r)
{
    p.position[i] = r.position;
    p.previous[i] = r.previous;
    p.velocity[i] = r.velocity;
    p.mass[i] = r.mass;
    p.invMass[i] = r.invMass;
    p.kind[i] = r.kind;
}

bool ClothEdit::empty() const
{
    return particles.empty() && changedConstraints.empty() && !changesTopology();
}

bool ClothEdit::changesTopology() const
{
    return !removedConstraints.empty() || !addedConstraints.empty() || !removedTriangles.empty()
        || !addedTriangles.empty();
}

std::string apply(Cloth &cloth, const ClothEdit &edit)
{
    const std::size_t n = cloth.particles.size();
    for (const ParticleChange &c : edit.particles)
        if (c.index >= n)
            return particleOutOfRange(c.index, n);
    for (const ConstraintChange &c : edit.changedConstraints)
        if (c.index >= cloth.constraints.size())
            return constraintOutOfRange(c.index, cloth.constraints.size());
    const std::size_t remaining
        = cloth.constraints.size() - std::min(cloth.constraints.size(), edit.removedConstraints.size());
    const std::size_t remainingTriangles
        = cloth.triangles.size() - std::min(cloth.triangles.size(), edit.removedTriangles.size());
    for (std::string e :
        { checkSorted(edit.removedConstraints, cloth.constraints.size(), "constraint", false),
            checkSorted(edit.addedConstraints, remaining, "constraint", true),
            checkSorted(edit.removedTriangles, cloth.triangles.size(), "triangle", false),
            checkSorted(edit.addedTriangles, remainingTriangles, "triangle", true) })
        if (!e.empty())
            return e;

    for (const ParticleChange &c : edit.particles)
        storeParticleRecord(cloth.particles, c.index, c.after);
    for (const ConstraintChange &c : edit.changedConstraints)
        cloth.constraints.set(c.index, c.after);
    removeThenInsert(cloth.constraints, edit.removedConstraints, edit.addedConstraints);
    removeSorted(cloth.triangles, edit.removedTriangles);
    insertSorted(cloth.triangles, edit.addedTriangles, [](const IndexedTriangle &t) { return t.triangle; });
    if (edit.changesTopology())
        cloth.touchTopology();
    return {};
}

std::string revert(Cloth &cloth, const ClothEdit &edit)
{
    const std::size_t n = cloth.particles.size();
    for (const ParticleChange &c : edit.particles)
        if (c.index >= n)
            return particleOutOfRange(c.index, n);
    const std::size_t beforeAdd
        = cloth.constraints.size() - std::min(cloth.constraints.size(), edit.addedConstraints.size());
    const std::size_t beforeAddTriangles
        = cloth.triangles.size() - std::min(cloth.triangles.size(), edit.addedTriangles.size());
    for (std::string e : { checkSorted(edit.addedConstraints, cloth.constraints.size(), "constraint", false),
             checkSorted(edit.removedConstraints, beforeAdd, "constraint", true),
             checkSorted(edit.addedTriangles, cloth.triangles.size(), "triangle", false),
             checkSorted(edit.removedTriangles, beforeAddTriangles, "triangle", true) })
        if (!e.empty())
            return e;
    const std::size_t restored = beforeAdd + edit.removedConstraints.size();
    for (const ConstraintChange &c : edit.changedConstraints)
        if (c.index >= restored)
            return constraintOutOfRange(c.index, restored);

    removeSorted(cloth.triangles, edit.addedTriangles);
    insertSorted(cloth.triangles, edit.removedTriangles, [](const IndexedTriangle &t) { return t.triangle; });
    removeThenInsert(cloth.constraints, edit.addedConstraints, edit.removedConstraints);
    for (auto c = edit.changedConstraints.rbegin(); c != edit.changedConstraints.rend(); ++c)
        cloth.constraints.set(c->index, c->before);
    for (auto c = edit.particles.rbegin(); c != edit.particles.rend(); ++c)
        storeParticleRecord(cloth.particles, c->index, c->before);
    if (edit.changesTopology())
        cloth.touchTopology();
    return {};
}

std::vector<std::uint32_t> constraintIndexMap(const ClothEdit &edit, std::size_t oldCount)
{
    std::vector<std::uint32_t> removed, added;
    for (const IndexedConstraint &c : edit.removedConstraints)
        removed.push_back(c.index);
    for (const IndexedConstraint &c : edit.addedConstraints)
        added.push_back(c.index);
    return indexMap(oldCount, removed, added);
}

std::vector<std::uint32_t> triangleIndexMap(const ClothEdit &edit, std::size_t oldCount)
{
    std::vector<std::uint32_t> removed, added;
    for (const IndexedTriangle &t : edit.removedTriangles)
        removed.push_back(t.index);
    for (const IndexedTriangle &t : edit.addedTriangles)
        added.push_back(t.index);
    return indexMap(oldCount, removed, added);
}

std::vector<std::uint32_t> remapIndices(
    std::span<const std::uint32_t> indices, std::span<const std::uint32_t> map)
{
    std::vector<std::uint32_t> out;
    out.reserve(indices.size());
    for (std::uint32_t i : indices)
        if (i < map.size() && map[i] != kRemovedIndex)
            out.push_back(map[i]);
    return out;
}

ClothEditResult makeSetKind(const Cloth &cloth, std::span<const std::uint32_t> particles, ParticleKind kind)
{
    ClothEditResult result;
    std::vector<std::uint32_t> list;
    if (std::string e = sortedUnique(particles, cloth.particles.size(), true, list); !e.empty())
        return { {}, e };
    if (kind != ParticleKind::Dynamic && kind != ParticleKind::Static && kind != ParticleKind::Kinematic)
        return { {}, "particle kind " + std::to_string(int(kind)) + " is not a valid kind" };
    const Particles &p = cloth.particles;
    for (std::uint32_t i : list) {
        if (p.kind[i] == kind)
            continue;
        ParticleChange c { i, particleRecord(p, i), particleRecord(p, i) };
        c.after.kind = kind;
        if (kind == ParticleKind::Dynamic) {
            if (!(p.mass[i] > 0.f) || !std::isfinite(p.mass[i]))
                return { {},
                    "particle " + std::to_string(i) + ": cannot unpin, mass " + std::to_string(p.mass[i])
                        + " kg is not positive" };
            c.after.invMass = 1.f / p.mass[i];
        } else {
            c.after.invMass = 0.f;
            c.after.velocity = {};
            c.after.previous = c.after.position;
        }
        result.edit.particles.push_back(c);
    }
    return result;
}

ClothEditResult makeMoveParticles(
    const Cloth &cloth, std::span<const std::uint32_t> particles, std::span<const Vec3> positions)
{
    if (particles.size() != positions.size())
        return { {},
            "move: " + std::to_string(particles.size()) + " particles but " + std::to_string(positions.size())
                + " positions" };
    ClothEditResult result;
    std::unordered_set<std::uint32_t> seen;
    for (std::size_t k = 0; k < particles.size(); ++k) {
        const std::uint32_t i = particles[k];
        if (i >= cloth.particles.size())
            return { {}, particleOutOfRange(i, cloth.particles.size()) };
        if (!isFinite(positions[k]))
            return { {}, "particle " + std::to_string(i) + ": target position is not finite" };
        if (!seen.insert(i).second)
            return { {}, "particle " + std::to_string(i) + " is listed twice" };
        ParticleChange c { i, particleRecord(cloth.particles, i), particleRecord(cloth.particles, i) };
        c.after.position = positions[k];
        c.after.previous = positions[k];
        c.after.velocity = {};
        result.edit.particles.push_back(c);
    }
    std::sort(result.edit.particles.begin(), result.edit.particles.end(),
        [](const ParticleChange &a, const ParticleChange &b) { return a.index < b.index; });
    return result;
}

ClothEditResult makeSetMass(const Cloth &cloth, std::span<const std::uint32_t> particles, float massKg)
{
    if (!(massKg > 0.f) || !std::isfinite(massKg))
        return { {}, "mass " + std::to_string(massKg) + " kg must be positive and finite" };
    std::vector<std::uint32_t> list;
    if (std::string e = sortedUnique(particles, cloth.particles.size(), true, list); !e.empty())
        return { {}, e };
    ClothEditResult result;
    for (std::uint32_t i : list) {
        ParticleChange c { i, particleRecord(cloth.particles, i), particleRecord(cloth.particles, i) };
        c.after.mass = massKg;
        c.after.invMass = c.after.kind == ParticleKind::Dynamic ? 1.f / massKg : 0.f;
        if (c.after != c.before)
            result.edit.particles.push_back(c);
    }
    return result;
}

ClothEditResult makeAddConstraint(
    const Cloth &cloth, std::uint32_t a, std::uint32_t b, const NewConstraintDef &def)
{
    const std::size_t n = cloth.particles.size();
    if (a >= n)
        return { {}, particleOutOfRange(a, n) };
    if (b >= n)
        return { {}, particleOutOfRange(b, n) };
    if (a == b)
        return { {}, "constraint from particle " + std::to_string(a) + " to itself" };
    if (!std::isfinite(def.restLength))
        return { {}, "constraint rest length is not finite" };
    if (!(def.compliance >= 0.f) || !std::isfinite(def.compliance))
        return { {},
            "constraint compliance " + std::to_string(def.compliance) + " m/N must be >= 0 and finite" };
    if (!(def.damping >= 0.f) || !std::isfinite(def.damping))
        return { {}, "constraint damping " + std::to_string(def.damping) + " N·s/m must be >= 0 and finite" };
    if (!(def.tearStrain > 0.f))
        return { {}, "constraint tear strain " + std::to_string(def.tearStrain) + " must be > 0" };
    // Two constraints between one pair would only double its stiffness, and scene files refuse
    // them as a likely mistake; so an edit that would save an unloadable scene is refused here.
    for (std::size_t i = 0; i < cloth.constraints.size(); ++i) {
        const DistanceConstraint &k = cloth.constraints[i];
        if ((k.a == a && k.b == b) || (k.a == b && k.b == a))
            return { {},
                "particles " + std::to_string(a) + " and " + std::to_string(b)
                    + " are already joined by constraint " + std::to_string(i) };
    }
    DistanceConstraint c;
    c.a = a;
    c.b = b;
    c.restLength = def.restLength >= 0.f ? def.restLength
                                         : length(cloth.particles.position[a] - cloth.particles.position[b]);
    c.compliance = def.compliance;
    c.damping = def.damping;
    c.tearStrain = def.tearStrain;
    c.kind = def.kind;
    ClothEditResult result;
    result.edit.addedConstraints.push_back({ std::uint32_t(cloth.constraints.size()), c });
    return result;
}

std::vector<std::uint32_t> trianglesLosingEdges(const Cloth &cloth, std::span<const std::uint32_t> removed)
{
    const std::size_t m = cloth.constraints.size();
    const std::size_t n = cloth.particles.size();
    std::unordered_set<std::uint64_t> lost;
    std::vector<bool> isRemoved(m, false);
    // The particles at the ends of a removed constraint: an edge can be lost only between
    // two of them, so the hash is looked up only for the few records and triangles that
    // join marked particles (or name one out of range, as a cloth under repair may).
    std::vector<std::uint8_t> marked(n, 0);
    auto isMarked = [&](std::uint32_t p) { return p >= n || marked[p] != 0; };
    for (std::uint32_t i : removed) {
        if (i >= m)
            continue;
        isRemoved[i] = true;
        const PackedConstraint c = cloth.constraints.packed(i);
        lost.insert(pairKey(c.a, c.b));
        for (std::uint32_t p : { c.a, c.b })
            if (p < n)
                marked[p] = 1;
    }
    if (lost.empty())
        return {};
    // An edge that another record still joins is not lost.
    cloth.constraints.forEachPacked([&](std::size_t i, const PackedConstraint &c) {
        if (isMarked(c.a) && isMarked(c.b) && !isRemoved[i])
            lost.erase(pairKey(c.a, c.b));
    });
    std::vector<std::uint32_t> out;
    for (std::size_t t = 0; t < cloth.triangles.size(); ++t) {
        const Triangle &tri = cloth.triangles[t];
        for (int e = 0; e < 3; ++e) {
            const std::uint32_t a = tri.v[e], b = tri.v[(e + 1) % 3];
            if (isMarked(a) && isMarked(b) && lost.count(pairKey(a, b))) {
                out.push_back(std::uint32_t(t));
                break;
            }
        }
    }
    return out;
}

ClothEditResult makeRemoveConstraints(
    const Cloth &cloth, std::span<const std::uint32_t> indices, bool removeOrphanTriangles)
{
    std::vector<std::uint32_t> list;
    if (std::string e = sortedUnique(indices, cloth.constraints.size(), false, list); !e.empty())
        return { {}, e };
    ClothEditResult result;
    for (std::uint32_t i : list)
        result.edit.removedConstraints.push_back({ i, cloth.constraints[i] });
    if (removeOrphanTriangles)
        for (std::uint32_t t : trianglesLosingEdges(cloth, list))
            result.edit.removedTriangles.push_back({ t, cloth.triangles[t] });
    return result;
}

ClothEditResult makeChangeConstraints(
    const Cloth &cloth, std::span<const std::uint32_t> indices, const ConstraintProps &props)
{
    auto bad = [](const char *what, float v, const char *rule) {
        return ClothEditResult { {},
            std::string("constraint ") + what + " " + std::to_string(v) + " " + rule };
    };
    if (props.restLength && (!(*props.restLength >= 0.f) || !std::isfinite(*props.restLength)))
        return bad("rest length", *props.restLength, "m must be >= 0 and finite");
    if (props.compliance && (!(*props.compliance >= 0.f) || !std::isfinite(*props.compliance)))
        return bad("compliance", *props.compliance, "m/N must be >= 0 and finite");
    if (props.damping && (!(*props.damping >= 0.f) || !std::isfinite(*props.damping)))
        return bad("damping", *props.damping, "N·s/m must be >= 0 and finite");
    if (props.tearStrain && !(*props.tearStrain > 0.f))
        return bad("tear strain", *props.tearStrain, "must be > 0 (inf = never tears)");
    if (props.kind && int(*props.kind) > int(ConstraintKind::User))
        return { {}, "constraint kind " + std::to_string(int(*props.kind)) + " is not a valid kind" };
    std::vector<std::uint32_t> list;
    if (std::string e = sortedUnique(indices, cloth.constraints.size(), false, list); !e.empty())
        return { {}, e };
    ClothEditResult result;
    for (std::uint32_t i : list) {
        ConstraintChange c { i, cloth.constraints[i], cloth.constraints[i] };
        if (props.restLength)
            c.after.restLength = *props.restLength;
        if (props.compliance)
            c.after.compliance = *props.compliance;
        if (props.damping)
            c.after.damping = *props.damping;
        if (props.tearStrain)
            c.after.tearStrain = *props.tearStrain;
        if (props.kind)
            c.after.kind = *props.kind;
        if (c.after != c.before)
            result.edit.changedConstraints.push_back(c);
    }
    return result;
}

} // namespace drape
