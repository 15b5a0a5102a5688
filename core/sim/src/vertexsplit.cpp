// Tearing by vertex splitting along the tension plane.
//
// Design note
// -----------
// Deleting an over-stretched constraint (the tearable-cloth demo) leaves triangles spanning
// the tear, or, when they go with it (TearMode::RemoveConstraint), holes and a ragged edge.
// Splitting a vertex instead keeps every triangle whole and gives
// both lips of the tear their own particles, so torn edges render cleanly (the technique of
// the "cloth tearing by vertex splitting" write-up, and of NVIDIA FleX's tearable cloth
// extension: FlexExtTearingClothAsset, torn by NvFlexExtTearClothMesh(asset, maxStrain,
// maxSplits, ...), whose maxSplits cap per call this code shares).
//
//  * Trigger. A constraint tears when its strain (|x_a - x_b| - L) / L exceeds its own
//    tearStrain (dimensionless, a material property copied into every constraint). Strain,
//    not force, so one threshold means the same thing at every resolution and stiffness.
//  * Which particle. Only dynamic particles split (pins and grabbed particles never do).
//    When both ends are dynamic, the one with more boundary edges goes first (two at a crack
//    tip or on a free edge, four where a crack meets the edge), so a running tear continues
//    instead of a parallel one cutting a sliver loose; then the lower index. Triangle counts
//    are not compared: on a grid they alternate along a seam and sent the crack down two
//    columns by turns, leaving quads that bridged the tear. If its triangles all lie on one
//    side of the plane, the other end is tried.
//  * Partition. The plane passes through the particle p with its normal n along the tension
//    (towards the constraint's other end). Triangles of p whose centroid is on the positive
//    side, dot(c - x_p, n) > 0, move to a new particle p'. If either side is empty the test
//    is made again on the rest positions, along the constraint's rest direction (a lip folded
//    back over p puts all of p's star on one side of the plane in the current configuration;
//    the rest configuration has no folds); if a side is still empty nothing happens. A
//    particle without triangles (a rope) partitions its constraints instead, by the plane
//    test of their other ends.
//  * Constraints at p, other end o: an edge used only by moved triangles moves to p'; an edge
//    used by both sides is duplicated so each side keeps it; an edge of kept triangles stays.
//    A constraint that is no triangle edge (bend, shear, user) follows the side its other end
//    is joined to through the triangles around p; when that is ambiguous, the plane test.
//  * Nothing pulls across the tear. A constraint between two neighbours of p, one reached only
//    through kept triangles and the other only through moved ones, that crosses the slit
//    opened at p (the bend across p, a shear diagonal of a quad whose triangles went different
//    ways) is removed. A bend beside p, through a neighbour both sides keep, stays. As a
//    safety net, a bend or shear constraint near the split whose ends are no longer within
//    two triangle hops (they went round the tear) is removed too.
//  * Mass. p's mass is shared between p and p' in proportion to the rest areas of their
//    triangles (m' = m A'/(A + A'), m_p = m - m'), so the total is conserved to one rounding.
//  * Placement. p' starts exactly where p is, with the same previous position, velocity and
//    rest position. Any offset would inject energy (it stretches constraints that were just
//    solved) and could push p' through a collider; since both share one velocity, momentum
//    (m + m') v is conserved exactly. The tension then opens the tear on the next substep.
//  * Order and caps. One pass over the constraints finds those over their limit (no
//    allocation when there are none); they are processed most strained first, ties by index,
//    at most maxSplits per call. A constraint touching a particle split in this call waits for
//    the next call: the positions have not moved yet, so its strain says nothing about the
//    load after the split, and splitting it now would shatter the cloth instead of letting the
//    crack run. Everything is a function of the arrays alone, so tearing is deterministic.
//  * Cost. Particle -> triangle and particle -> constraint adjacency is built lazily, only in
//    a call that has a candidate (when there are only a few, plain scans first check that one
//    of them can split at all), then kept up to date so every split is O(local). Removed
//    constraints are compacted once at the end of the call (SplitReport::constraintMap).
#include "sim/vertexsplit.h"
#include "sim/tension.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <utility>

namespace drape {

namespace {

constexpr std::uint8_t kKept = 1; // reached through a triangle that stays with p
constexpr std::uint8_t kMoved = 2; // reached through a triangle that moves to p'

float strainOf(const Cloth &cloth, const DistanceConstraint &c)
{
    const float len = length(cloth.particles.position[c.b] - cloth.particles.position[c.a]);
    return (len - c.restLength) / c.restLength;
}

float restArea(const Cloth &cloth, const Triangle &t)
{
    const std::vector<Vec3> &r = cloth.particles.rest;
    return 0.5f * length(cross(r[t.v[1]] - r[t.v[0]], r[t.v[2]] - r[t.v[0]]));
}

bool hasCorner(const Triangle &t, std::uint32_t v)
{
    return t.v[0] == v || t.v[1] == v || t.v[2] == v;
}

struct Candidate {
    float strain = 0.f;
    std::uint32_t constraint = 0;
};

class Splitter {
public:
    explicit Splitter(Cloth &cloth)
        : m_cloth(cloth)
        , m_originalConstraints(cloth.constraints.size())
    { }

    void run(std::vector<Candidate> &candidates, int maxSplits, SplitReport &report);

private:
    void buildAdjacency();
    bool trySplit(std::uint32_t p, std::uint32_t o, SplitReport &report);
    std::size_t classify(std::uint32_t p, const Vec3 &xp, const Vec3 &n, float &keptArea, float &movedArea);
    std::uint8_t ringFlags(std::uint32_t v) const;
    std::uint8_t sideOfUnjoined(std::uint32_t o, const Vec3 &xp, const Vec3 &n) const;
    std::uint32_t appendParticle(std::uint32_t p, float movedFraction);
    void repoint(std::uint32_t ci, std::uint32_t from, std::uint32_t to);
    void duplicate(std::uint32_t ci, std::uint32_t from, std::uint32_t to);
    bool crossesSlit(std::uint32_t v, std::uint32_t w, const Vec3 &xp, const Vec3 &n) const;
    void removeCrossing(const Vec3 &xp, const Vec3 &n);
    std::size_t boundaryEdges(std::uint32_t v) const;
    bool withinTwoHops(std::uint32_t v, std::uint32_t w) const;
    void removeUnjoined(std::uint32_t v);
    void remove(std::uint32_t ci);
    void compact(SplitReport &report);
    /// Constraint ci, read without marking the records written (ConstraintRecords).
    DistanceConstraint record(std::uint32_t ci) const { return std::as_const(m_cloth.constraints)[ci]; }

    Cloth &m_cloth;
    std::size_t m_originalConstraints;
    std::vector<std::vector<std::uint32_t>> m_trianglesOf; // per particle
    std::vector<std::vector<std::uint32_t>> m_constraintsOf; // per particle
    std::vector<bool> m_removed; // per constraint
    std::vector<bool> m_locked; // per particle: split in this call
    std::uint32_t m_removedCount = 0;
    // Scratch of the split in progress.
    std::vector<std::uint8_t> m_side; // per triangle (or constraint) of p
    std::vector<std::pair<std::uint32_t, std::uint8_t>> m_ring; // neighbour -> kKept | kMoved
    std::vector<std::uint32_t> m_work;
    /// The configuration the split in progress partitions p's star in: the current positions,
    /// or the rest positions when the current ones leave every element on one side.
    const std::vector<Vec3> *m_space = nullptr;
};

void Splitter::buildAdjacency()
{
    const std::size_t n = m_cloth.particles.size();
    m_trianglesOf.assign(n, {});
    m_constraintsOf.assign(n, {});
    for (std::uint32_t t = 0; t < m_cloth.triangles.size(); ++t)
        for (std::uint32_t v : m_cloth.triangles[t].v)
            m_trianglesOf[v].push_back(t);
    for (std::uint32_t c = 0; c < m_cloth.constraints.size(); ++c) {
        const DistanceConstraint &dc = record(c);
        m_constraintsOf[dc.a].push_back(c);
        if (dc.b != dc.a)
            m_constraintsOf[dc.b].push_back(c);
    }
    m_removed.assign(m_cloth.constraints.size(), false);
    m_locked.assign(n, false);
}

void Splitter::run(std::vector<Candidate> &candidates, int maxSplits, SplitReport &report)
{
    // Most strained first; ties by index so the order is a function of the arrays alone.
    std::sort(candidates.begin(), candidates.end(), [](const Candidate &l, const Candidate &r) {
        return l.strain != r.strain ? l.strain > r.strain : l.constraint < r.constraint;
    });
    buildAdjacency();
    const Particles &pa = m_cloth.particles;
    for (std::size_t k = 0; k < candidates.size(); ++k) {
        const std::uint32_t ci = candidates[k].constraint;
        if (m_removed[ci])
            continue;
        const DistanceConstraint c = record(ci);
        if (m_locked[c.a] || m_locked[c.b])
            continue; // its load changed with that split: judge it again next call
        if (int(report.splits.size()) >= maxSplits) {
            report.capped = true;
            break;
        }
        // Dynamic ends in order of preference: the one with more boundary edges first (a crack
        // tip or a free edge, more where a crack meets the edge, so an existing tear runs on
        // instead of a parallel one starting a row over and cutting a sliver loose), then the
        // lower index.
        std::uint32_t ends[2] = { c.a, c.b };
        if (pa.kind[c.a] != ParticleKind::Dynamic) {
            std::swap(ends[0], ends[1]);
        } else if (pa.kind[c.b] == ParticleKind::Dynamic) {
            const std::size_t boundaryA = boundaryEdges(c.a), boundaryB = boundaryEdges(c.b);
            if (boundaryA != boundaryB ? boundaryB > boundaryA : c.b < c.a)
                std::swap(ends[0], ends[1]);
        }
        for (int e = 0; e < 2; ++e) {
            const std::uint32_t p = ends[e];
            if (pa.kind[p] == ParticleKind::Dynamic && trySplit(p, ends[1 - e], report))
                break;
        }
    }
    if (m_removedCount > 0)
        compact(report);
    // Constraints that existed before the call and survive, then the appended survivors.
    report.appendedConstraints
        = std::uint32_t(m_cloth.constraints.size() - (m_originalConstraints - report.removedConstraints));
}

std::uint8_t Splitter::ringFlags(std::uint32_t v) const
{
    for (const auto &[vertex, flags] : m_ring)
        if (vertex == v)
            return flags;
    return 0;
}

// Side of the other end `o` of a constraint that is no triangle edge of p: the side through
// which o is joined to p's neighbourhood (o shares a triangle with a neighbour reached from
// one side only), else the plane test.
std::uint8_t Splitter::sideOfUnjoined(std::uint32_t o, const Vec3 &xp, const Vec3 &n) const
{
    std::uint8_t votes = 0;
    for (std::uint32_t t : m_trianglesOf[o])
        for (std::uint32_t w : m_cloth.triangles[t].v) {
            const std::uint8_t f = ringFlags(w);
            if (f == kKept || f == kMoved)
                votes |= f;
        }
    if (votes == kKept || votes == kMoved)
        return votes;
    return dot((*m_space)[o] - xp, n) > 0.f ? kMoved : kKept;
}

std::uint32_t Splitter::appendParticle(std::uint32_t p, float movedFraction)
{
    Particles &pa = m_cloth.particles;
    const auto q = std::uint32_t(pa.size());
    const float m = pa.mass[p];
    const float movedMass = m * movedFraction;
    const float keptMass = m - movedMass;
    pa.position.push_back(pa.position[p]);
    pa.previous.push_back(pa.previous[p]);
    pa.velocity.push_back(pa.velocity[p]);
    pa.rest.push_back(pa.rest[p]);
    pa.mass.push_back(movedMass);
    pa.invMass.push_back(movedMass > 0.f ? 1.f / movedMass : 0.f);
    pa.kind.push_back(ParticleKind::Dynamic);
    pa.mass[p] = keptMass;
    pa.invMass[p] = keptMass > 0.f ? 1.f / keptMass : 0.f;
    m_trianglesOf.emplace_back();
    m_constraintsOf.emplace_back();
    m_locked.push_back(true);
    m_locked[p] = true;
    return q;
}

void Splitter::repoint(std::uint32_t ci, std::uint32_t from, std::uint32_t to)
{
    DistanceConstraint c = m_cloth.constraints[ci];
    (c.a == from ? c.a : c.b) = to;
    m_cloth.constraints.set(ci, c);
    std::erase(m_constraintsOf[from], ci);
    m_constraintsOf[to].push_back(ci);
}

void Splitter::duplicate(std::uint32_t ci, std::uint32_t from, std::uint32_t to)
{
    DistanceConstraint copy = record(ci);
    const std::uint32_t other = copy.a == from ? copy.b : copy.a;
    (copy.a == from ? copy.a : copy.b) = to;
    const auto ni = std::uint32_t(m_cloth.constraints.size());
    m_cloth.constraints.push_back(copy);
    m_removed.push_back(false);
    m_constraintsOf[to].push_back(ni);
    m_constraintsOf[other].push_back(ni);
}

void Splitter::remove(std::uint32_t ci)
{
    const DistanceConstraint &c = record(ci);
    m_removed[ci] = true;
    ++m_removedCount;
    std::erase(m_constraintsOf[c.a], ci);
    std::erase(m_constraintsOf[c.b], ci);
}

// True when the segment v-w crosses the slit the split opens at p. Locally the slit is the
// part of the splitting plane inside p's star: from p out to the neighbours that both sides
// keep (they are not split, so the cloth still holds together there). The segment meets the
// plane at x*; it crosses the slit when x* lies nearer p than the shared neighbour in its
// direction (the bend from above p to below it meets the plane at p; a bend beside p meets it
// at the shared neighbour, which still joins both ends). 0.75 leaves room for deformation.
bool Splitter::crossesSlit(std::uint32_t v, std::uint32_t w, const Vec3 &xp, const Vec3 &n) const
{
    const std::vector<Vec3> &x = *m_space;
    const float dv = dot(x[v] - xp, n);
    const float dw = dot(x[w] - xp, n);
    const float t = dv != dw ? std::clamp(dv / (dv - dw), 0.f, 1.f) : 0.5f;
    const Vec3 r = x[v] + (x[w] - x[v]) * t - xp;
    const float rr = lengthSquared(r);
    if (!(rr > 0.f))
        return true;
    float bestCos = -2.f;
    float bestS = 0.f;
    for (const auto &[b, flags] : m_ring) {
        if (flags != (kKept | kMoved))
            continue;
        const Vec3 e = x[b] - xp;
        const float ee = lengthSquared(e);
        if (!(ee > 0.f))
            continue;
        const float cosine = dot(r, e) / std::sqrt(rr * ee);
        if (cosine > bestCos) {
            bestCos = cosine;
            bestS = dot(r, e) / ee;
        }
    }
    return bestCos < -1.f || bestS < 0.75f;
}

// Removes constraints between a neighbour reached only through kept triangles and one reached
// only through moved triangles when they cross the slit at p, unless the two share a triangle
// of their own. User constraints (sewing) were placed deliberately and stay.
void Splitter::removeCrossing(const Vec3 &xp, const Vec3 &n)
{
    for (const auto &[v, flags] : m_ring) {
        if (flags != kKept)
            continue;
        m_work = m_constraintsOf[v];
        for (std::uint32_t ci : m_work) {
            const DistanceConstraint &c = record(ci);
            const std::uint32_t w = c.a == v ? c.b : c.a;
            if (c.kind == ConstraintKind::User || ringFlags(w) != kMoved)
                continue;
            const bool joined = std::any_of(m_trianglesOf[v].begin(), m_trianglesOf[v].end(),
                [&](std::uint32_t t) { return hasCorner(m_cloth.triangles[t], w); });
            if (!joined && crossesSlit(v, w, xp, n))
                remove(ci);
        }
    }
}

// How many edges at v belong to only one triangle: none inside the cloth, two on its border or
// at the tip of a tear, four where a tear has reached the border. A particle without
// triangles counts as inside.
std::size_t Splitter::boundaryEdges(std::uint32_t v) const
{
    const std::vector<std::uint32_t> &tris = m_trianglesOf[v];
    std::size_t count = 0;
    for (std::uint32_t t : tris)
        for (std::uint32_t m : m_cloth.triangles[t].v) {
            if (m == v)
                continue;
            const auto uses = std::count_if(tris.begin(), tris.end(),
                [&](std::uint32_t u) { return hasCorner(m_cloth.triangles[u], m); });
            count += uses == 1 ? 1 : 0;
        }
    return count;
}

// True when v and w share a triangle or both share one with a common neighbour.
bool Splitter::withinTwoHops(std::uint32_t v, std::uint32_t w) const
{
    for (std::uint32_t t : m_trianglesOf[v])
        for (std::uint32_t m : m_cloth.triangles[t].v) {
            if (m == w)
                return true;
            if (m == v)
                continue;
            for (std::uint32_t u : m_trianglesOf[m])
                if (hasCorner(m_cloth.triangles[u], w))
                    return true;
        }
    return false;
}

// The safety net behind removeCrossing: a bend or shear constraint spans at most two triangle
// hops (skip-one bends, quad diagonals, the far corners of a triangle pair). One at v whose
// ends are no longer that close went around a tear and would pull across it: it is removed.
void Splitter::removeUnjoined(std::uint32_t v)
{
    if (m_trianglesOf[v].empty())
        return;
    m_work = m_constraintsOf[v];
    for (std::uint32_t ci : m_work) {
        const DistanceConstraint &c = record(ci);
        if (c.kind != ConstraintKind::Bend && c.kind != ConstraintKind::Shear)
            continue;
        const std::uint32_t w = c.a == v ? c.b : c.a;
        if (!m_trianglesOf[w].empty() && !withinTwoHops(v, w))
            remove(ci);
    }
}

// Sorts p's triangles (or, for a rope particle, its constraints) to the two sides of the plane
// through xp with normal n in m_space: fills m_side and m_ring, adds up the rest areas of
// each side, and returns how many elements move.
std::size_t Splitter::classify(
    std::uint32_t p, const Vec3 &xp, const Vec3 &n, float &keptArea, float &movedArea)
{
    const std::vector<Vec3> &x = *m_space;
    const bool rope = m_trianglesOf[p].empty();
    m_side.clear();
    m_ring.clear();
    keptArea = movedArea = 0.f;
    std::size_t moved = 0;
    auto mark = [this](std::uint32_t v, std::uint8_t f) {
        for (auto &[vertex, flags] : m_ring)
            if (vertex == v) {
                flags |= f;
                return;
            }
        m_ring.emplace_back(v, f);
    };
    const std::vector<std::uint32_t> &elements = rope ? m_constraintsOf[p] : m_trianglesOf[p];
    for (std::uint32_t e : elements) {
        bool positive = false;
        if (rope) {
            const DistanceConstraint &c = record(e);
            const std::uint32_t other = c.a == p ? c.b : c.a;
            positive = dot(x[other] - xp, n) > 0.f;
            mark(other, positive ? kMoved : kKept);
        } else {
            const Triangle &t = m_cloth.triangles[e];
            const Vec3 centroid = (x[t.v[0]] + x[t.v[1]] + x[t.v[2]]) / 3.f;
            positive = dot(centroid - xp, n) > 0.f;
            (positive ? movedArea : keptArea) += restArea(m_cloth, t);
            for (std::uint32_t v : t.v)
                if (v != p)
                    mark(v, positive ? kMoved : kKept);
        }
        m_side.push_back(positive ? kMoved : kKept);
        moved += positive ? 1 : 0;
    }
    return moved;
}

bool Splitter::trySplit(std::uint32_t p, std::uint32_t o, SplitReport &report)
{
    const bool rope = m_trianglesOf[p].empty();
    const std::vector<std::uint32_t> &elements = rope ? m_constraintsOf[p] : m_trianglesOf[p];
    // The plane in the current configuration first. Near a running tear the cloth can fold
    // over (a lip flipped past the particle it was torn from) so that all of p's star lies on
    // one side of it although the star still holds the two sides together; the tear would
    // stop there while the pull goes on. The rest configuration has no folds: the same test
    // there, along the constraint's rest direction, parts the star as the material lies.
    Vec3 xp, n;
    std::size_t moved = 0;
    float keptArea = 0.f;
    float movedArea = 0.f;
    bool found = false;
    for (const std::vector<Vec3> *space : { &m_cloth.particles.position, &m_cloth.particles.rest }) {
        m_space = space;
        xp = (*space)[p];
        const Vec3 d = (*space)[o] - xp;
        if (!(lengthSquared(d) > 0.f))
            continue;
        n = normalized(d);
        moved = classify(p, xp, n, keptArea, movedArea);
        if (moved > 0 && moved < elements.size()) {
            found = true;
            break;
        }
    }
    if (!found)
        return false;

    // Mass by rest area; by element count when an area is degenerate; halves for a rope.
    float fraction = 0.5f;
    if (!rope)
        fraction = (keptArea > 0.f && movedArea > 0.f) ? movedArea / (keptArea + movedArea)
                                                       : float(moved) / float(elements.size());
    const std::uint32_t q = appendParticle(p, fraction); // may reallocate the adjacency lists

    if (rope) {
        m_work = m_constraintsOf[p];
        for (std::size_t i = 0; i < m_work.size(); ++i)
            if (m_side[i] == kMoved)
                repoint(m_work[i], p, q);
    } else {
        m_work = m_trianglesOf[p];
        std::vector<std::uint32_t> &kept = m_trianglesOf[p];
        kept.clear();
        for (std::size_t i = 0; i < m_work.size(); ++i) {
            const std::uint32_t t = m_work[i];
            if (m_side[i] == kKept) {
                kept.push_back(t);
                continue;
            }
            for (std::uint32_t &v : m_cloth.triangles[t].v)
                if (v == p)
                    v = q;
            m_trianglesOf[q].push_back(t);
        }
        m_work = m_constraintsOf[p];
        for (std::uint32_t ci : m_work) {
            const DistanceConstraint &c = record(ci);
            const std::uint32_t other = c.a == p ? c.b : c.a;
            if (other == p)
                continue;
            std::uint8_t flags = ringFlags(other);
            if (flags == 0)
                flags = sideOfUnjoined(other, xp, n);
            if (flags == kMoved)
                repoint(ci, p, q);
            else if (flags == (kKept | kMoved))
                duplicate(ci, p, q);
        }
    }
    removeCrossing(xp, n);
    removeUnjoined(p);
    removeUnjoined(q);
    for (std::size_t i = 0; i < m_ring.size(); ++i)
        removeUnjoined(m_ring[i].first);
    report.splits.push_back({ p, q });
    return true;
}

void Splitter::compact(SplitReport &report)
{
    const std::size_t m = m_cloth.constraints.size();
    std::vector<std::uint32_t> map(m, kRemovedIndex);
    std::uint32_t next = 0;
    for (std::uint32_t i = 0; i < m; ++i) {
        if (!m_removed[i])
            map[i] = next++;
    }
    std::size_t i = 0;
    m_cloth.constraints.eraseIf([&](const DistanceConstraint &) { return m_removed[i++]; });
    map.resize(m_originalConstraints);
    report.removedConstraints = std::uint32_t(std::count(map.begin(), map.end(), kRemovedIndex));
    report.constraintMap = std::move(map);
}

// Whether splitting p with the plane towards o would leave something on both sides (in the
// current configuration or, failing that, the rest one: Splitter::trySplit), decided by a
// scan of all triangles (or, for a rope particle, constraints) without building any
// adjacency: lets a call whose few candidates cannot split return without allocating.
bool splittableIn(const Cloth &cloth, const std::vector<Vec3> &x, std::uint32_t p, std::uint32_t o)
{
    const Vec3 n = x[o] - x[p];
    if (!(lengthSquared(n) > 0.f))
        return false;
    bool positive = false, negative = false, anyTriangle = false;
    for (const Triangle &t : cloth.triangles) {
        if (!hasCorner(t, p))
            continue;
        anyTriangle = true;
        const Vec3 centroid = (x[t.v[0]] + x[t.v[1]] + x[t.v[2]]) / 3.f;
        (dot(centroid - x[p], n) > 0.f ? positive : negative) = true;
        if (positive && negative)
            return true;
    }
    if (anyTriangle)
        return false;
    for (const DistanceConstraint &c : cloth.constraints) {
        if ((c.a == p) == (c.b == p))
            continue;
        const std::uint32_t other = c.a == p ? c.b : c.a;
        (dot(x[other] - x[p], n) > 0.f ? positive : negative) = true;
        if (positive && negative)
            return true;
    }
    return false;
}

bool splittable(const Cloth &cloth, std::uint32_t p, std::uint32_t o)
{
    if (cloth.particles.kind[p] != ParticleKind::Dynamic)
        return false;
    return splittableIn(cloth, cloth.particles.position, p, o)
        || splittableIn(cloth, cloth.particles.rest, p, o);
}

} // namespace

bool isOverstretched(const Cloth &cloth, const DistanceConstraint &c)
{
    // Compared squared so the pass that finds nothing costs no square root:
    // |d| > L (1 + s)  <=>  |d|² > (L (1 + s))² for L > 0, s > -1.
    if (!(c.tearStrain < kNeverTear) || !(c.restLength > 0.f) || !(c.tearStrain > -1.f))
        return false;
    const float limit = c.restLength * (1.f + c.tearStrain);
    return lengthSquared(cloth.particles.position[c.b] - cloth.particles.position[c.a]) > limit * limit;
}

SplitReport splitOverstretched(Cloth &cloth, int maxSplits, const std::vector<float> *tension)
{
    SplitReport report;
    if (cloth.tearMode != TearMode::SplitVertex)
        return report;
    const Particles &pa = cloth.particles;
    std::vector<Candidate> candidates; // stays unallocated unless something is over its limit
    const ConstraintRecords &records = cloth.constraints; // read without marking them written
    for (std::uint32_t i = 0; i < records.size(); ++i) {
        const DistanceConstraint &c = records[i];
        assert(c.a < pa.size() && c.b < pa.size());
        if (!isOverstretched(cloth, c) && !isOverTension(cloth, tension, i))
            continue;
        if (pa.kind[c.a] != ParticleKind::Dynamic && pa.kind[c.b] != ParticleKind::Dynamic)
            continue; // pinned at both ends: nothing may split
        candidates.push_back({ strainOf(cloth, c), i });
    }
    if (candidates.empty())
        return report;
    if (maxSplits <= 0) {
        report.capped = true;
        return report;
    }
    // A few constraints that stay over their limit without being splittable (a corner pulled
    // by a grab) are common while dragging; settle them with plain scans instead of building
    // the adjacency on every substep.
    constexpr std::size_t kScanLimit = 8;
    if (candidates.size() <= kScanLimit) {
        const bool any = std::any_of(candidates.begin(), candidates.end(), [&](const Candidate &k) {
            const DistanceConstraint &c = records[k.constraint];
            return splittable(cloth, c.a, c.b) || splittable(cloth, c.b, c.a);
        });
        if (!any)
            return report;
    }
    Splitter splitter(cloth);
    splitter.run(candidates, maxSplits, report);
    if (!report.empty())
        cloth.touchTopology();
    return report;
}

} // namespace drape
