// Collider and self-collision response.
//
// Colliders are resolved at position level after the constraint solve of each substep, so
// the cloth leaves every substep (and frame) clear of the surface by its thickness plus the
// collider's. Friction is the positional Coulomb model of Macklin et al. 2014 ("Unified
// Particle Physics for Real-Time Applications", eq. 24): the tangential displacement Δx_t
// relative to the collider over the substep is removed entirely when |Δx_t| < μ_s d (static,
// d = penetration depth) and otherwise shortened by μ_k d (kinetic). For cloth resting on a
// slope of angle θ the substep's prediction gives |Δx_t| = g sinθ Δt² and d = g cosθ Δt²,
// so it holds exactly while tanθ < μ_s and slides with a = g (sinθ - μ_k cosθ) above. Restitution is applied
// on velocities afterwards, as in Müller et al. 2020 ("Detailed Rigid Body Simulation with
// Extended Position Based Dynamics", §3.5): v_n ← -e v_n(before), skipped for slow contacts
// so resting cloth does not jitter.
// Mesh colliders query a bounding volume hierarchy per particle (sim/trianglemesh.h) and, where
// the mesh has sharp vertices, push coarse cloth triangles off them (see projectSharpVertices).
#include "collision.h"

#include "meshquery.h"
#include "xpbdkernel.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include <immintrin.h>

namespace drape::detail {

ColliderState colliderStateAt(const Collider &collider, double t)
{
    Collider c = collider;
    c.updateMotion(t);
    ColliderState s;
    s.kind = c.kind;
    s.center = c.center;
    s.frame = rotationFromEuler(c.rotation);
    s.rotated = !s.frame.isIdentity();
    s.normal = s.frame * normalized(c.normal);
    s.halfExtents = { std::fabs(c.halfExtents.x), std::fabs(c.halfExtents.y), std::fabs(c.halfExtents.z) };
    s.velocity = c.velocity;
    s.radius = std::max(0.f, c.radius);
    s.margin = std::max(0.f, c.thickness);
    s.friction = std::max(0.f, c.friction);
    s.staticFriction = c.staticFriction < 0.f ? s.friction : c.staticFriction;
    s.restitution = std::clamp(c.restitution, 0.f, 1.f);
    s.keepInside = c.keepInside;
    s.axis = s.frame * normalized(c.axis);
    s.halfLength = std::max(0.f, c.halfLength);
    s.mesh = c.mesh.mesh.get();
    return s;
}

namespace {

struct Contact {
    Vec3 normal;
    float depth = 0.f;
};

int sphereContact(const Vec3 &d, float r, Contact &out)
{
    const float l2 = lengthSquared(d);
    if (l2 >= r * r)
        return 0;
    const float l = std::sqrt(l2);
    out = { l > 1e-9f ? d / l : Vec3 { 0.f, 1.f, 0.f }, r - l };
    return 1;
}

// A mesh contact: the closest surface point within reach of this substep's motion. The search
// radius is the margin plus the distance the particle moved in the substep (at least the margin
// again), so a particle that crossed the surface in the substep is still found, and a resting
// particle searches only a margin-sized ball.
int meshContact(const ColliderState &c, const Vec3 &x, const Vec3 &previous, float margin,
    std::uint32_t &hint, Contact &out)
{
    if (!c.mesh)
        return 0;
    const Vec3 p = c.frame.inverseTimes(x - c.center); // in the mesh's frame
    const float reach = margin + std::max(margin, length(x - previous));
    MeshHit hit;
    if (!c.mesh->closestPoint(p, reach, hit, nullptr, hint))
        return 0;
    hint = hit.triangle;
    const Vec3 d = p - hit.point;
    const float dist = std::sqrt(hit.distanceSquared);
    if (dot(d, hit.normal) >= 0.f) { // outside, by the pseudo-normal's sign
        if (dist >= margin)
            return 0;
        out = { dist > 1e-9f ? d / dist : hit.normal, margin - dist };
    } else {
        out = { dist > 1e-9f ? d * (-1.f / dist) : hit.normal, margin + dist };
    }
    out.normal = c.frame * out.normal; // back to world space (a rotation keeps depths)
    return 1;
}

// Contacts with the axis-aligned box ±c.halfExtents of a point q in the box's frame.
int boxContacts(const ColliderState &c, const Vec3 &q, float margin, Contact out[3])
{
    const float qa[3] = { q.x, q.y, q.z };
    const float ha[3] = { c.halfExtents.x, c.halfExtents.y, c.halfExtents.z };
    if (c.keepInside) {
        int count = 0;
        for (int axis = 0; axis < 3; ++axis) {
            const float limit = std::max(0.f, ha[axis] - margin);
            Vec3 n;
            if (qa[axis] > limit) {
                (axis == 0 ? n.x : axis == 1 ? n.y : n.z) = -1.f;
                out[count++] = { n, qa[axis] - limit };
            } else if (qa[axis] < -limit) {
                (axis == 0 ? n.x : axis == 1 ? n.y : n.z) = 1.f;
                out[count++] = { n, -limit - qa[axis] };
            }
        }
        return count;
    }
    // Outside: push out through the face of least penetration of the inflated box.
    int best = -1;
    float bestDepth = 0.f;
    for (int axis = 0; axis < 3; ++axis) {
        const float depth = ha[axis] + margin - std::fabs(qa[axis]);
        if (depth <= 0.f)
            return 0;
        if (best < 0 || depth < bestDepth) {
            best = axis;
            bestDepth = depth;
        }
    }
    Vec3 n;
    (best == 0 ? n.x : best == 1 ? n.y : n.z) = qa[best] >= 0.f ? 1.f : -1.f;
    out[0] = { n, bestDepth };
    return 1;
}

// Up to three contacts (a keepInside box can be violated on three axes at a corner).
int findContacts(const ColliderState &c, const Vec3 &x, const Vec3 &previous, float clothMargin,
    std::uint32_t &meshHint, Contact out[3])
{
    const float margin = c.margin + clothMargin;
    switch (c.kind) {
    case ColliderKind::Plane: {
        const float s = dot(x - c.center, c.normal) - margin;
        if (s >= 0.f)
            return 0;
        out[0] = { c.normal, -s };
        return 1;
    }
    case ColliderKind::Sphere:
        return sphereContact(x - c.center, c.radius + margin, out[0]);
    case ColliderKind::Capsule: {
        // A sphere around the nearest point of the core segment.
        const float t = std::clamp(dot(x - c.center, c.axis), -c.halfLength, c.halfLength);
        return sphereContact(x - (c.center + c.axis * t), c.radius + margin, out[0]);
    }
    case ColliderKind::Mesh:
        return meshContact(c, x, previous, margin, meshHint, out[0]);
    case ColliderKind::Box: {
        // In the box's frame, where it is axis-aligned; the normals are turned back after.
        const int count = boxContacts(c, c.frame.inverseTimes(x - c.center), margin, out);
        for (int k = 0; k < count && c.rotated; ++k)
            out[k].normal = c.frame * out[k].normal;
        return count;
    }
    }
    return 0;
}

} // namespace

void projectColliders(Cloth &cloth, ClothSolverCache &cache, const ColliderState *colliders,
    std::size_t colliderCount, double dt, bool friction)
{
    Particles &p = cloth.particles;
    const std::size_t n = p.size();
    if (colliderCount == 0)
        return;
    if (cache.meshHint.size() != n)
        cache.meshHint.assign(n, ~0u);
    cache.contactNormal.resize(n);
    cache.contactCollider.assign(n, -1);
    const float h = float(dt);
    for (std::size_t i = 0; i < n; ++i) {
        if (p.invMass[i] == 0.f)
            continue;
        for (std::size_t ci = 0; ci < colliderCount; ++ci) {
            const ColliderState &c = colliders[ci];
            Contact contacts[3];
            const int count
                = findContacts(c, p.position[i], p.previous[i], cloth.thickness, cache.meshHint[i], contacts);
            for (int k = 0; k < count; ++k) {
                const Contact &ct = contacts[k];
                p.position[i] += ct.normal * ct.depth;
                if (friction && (c.friction > 0.f || c.staticFriction > 0.f)) {
                    const Vec3 moved = (p.position[i] - p.previous[i]) - c.velocity * h;
                    const Vec3 tangential = moved - ct.normal * dot(moved, ct.normal);
                    const float lt = length(tangential);
                    if (lt > 0.f && lt <= c.staticFriction * ct.depth)
                        p.position[i] -= tangential; // sticks
                    else if (lt > 0.f)
                        p.position[i] -= tangential * (std::min(lt, c.friction * ct.depth) / lt); // slides
                }
                cache.contactCollider[i] = std::int32_t(ci);
                cache.contactNormal[i] = ct.normal;
            }
        }
    }
    for (std::size_t ci = 0; ci < colliderCount; ++ci)
        if (colliders[ci].kind == ColliderKind::Mesh && colliders[ci].mesh)
            projectSharpVertices(cloth, colliders[ci]);
}

void projectSharpVertices(Cloth &cloth, const ColliderState &c)
{
    const TriangleMesh &mesh = *c.mesh;
    if (mesh.sharpVertices().empty())
        return;
    Particles &p = cloth.particles;
    const float margin = c.margin + cloth.thickness;
    Aabb reach = mesh.bounds();
    reach.lo -= Vec3 { margin, margin, margin };
    reach.hi += Vec3 { margin, margin, margin };
    for (const Triangle &t : cloth.triangles) {
        // In the mesh's frame; the correction is turned back to world space below.
        const Vec3 x0 = c.frame.inverseTimes(p.position[t.v[0]] - c.center),
                   x1 = c.frame.inverseTimes(p.position[t.v[1]] - c.center),
                   x2 = c.frame.inverseTimes(p.position[t.v[2]] - c.center);
        Aabb box;
        box.grow(x0);
        box.grow(x1);
        box.grow(x2);
        if (!box.overlaps(reach))
            continue;
        box.lo -= Vec3 { margin, margin, margin };
        box.hi += Vec3 { margin, margin, margin };
        mesh.forSharpVerticesIn(box, [&](std::uint32_t v) {
            const Vec3 &tip = mesh.vertices()[v];
            const Vec3 &n = mesh.vertexNormal(v);
            const TrianglePoint q = closestOnTriangle(tip, x0, x1, x2);
            // Only a tip under the inside of the sheet: near its edges the particles'
            // own contacts already hold it.
            if (q.feature != TriangleFeature::Face)
                return;
            const float s = dot(q.point - tip, n);
            if (s >= margin || s < -2.f * margin)
                return;
            // Constraint C = n·(Σ w_i x_i − tip) − margin ≥ 0; its position-based correction
            // moves each corner by w_i m_i⁻¹ / Σ w_j² m_j⁻¹ × (margin − s) along n.
            float denom = 0.f;
            for (int k = 0; k < 3; ++k)
                denom += q.w[k] * q.w[k] * p.invMass[t.v[k]];
            if (!(denom > 0.f))
                return;
            const float lambda = (margin - s) / denom;
            const Vec3 push = c.frame * n;
            for (int k = 0; k < 3; ++k)
                p.position[t.v[k]] += push * (lambda * q.w[k] * p.invMass[t.v[k]]);
        });
    }
}

void applyRestitution(Cloth &cloth, ClothSolverCache &cache, const ColliderState *colliders, double dt,
    float restingSpeed, bool keepPrevious)
{
    Particles &p = cloth.particles;
    const std::size_t n = p.size();
    for (std::size_t i = 0; i < n; ++i) {
        const std::int32_t ci = cache.contactCollider[i];
        if (ci < 0)
            continue;
        const ColliderState &c = colliders[ci];
        const Vec3 nrm = cache.contactNormal[i];
        const float approach = dot(cache.preVelocity[i] - c.velocity, nrm);
        const float vn = dot(p.velocity[i] - c.velocity, nrm);
        // The separating speed after a contact is the bounce, -e × approach speed, and never
        // more: pushing a particle out of a deep overlap (a collider moved into the cloth)
        // must not turn the correction into a launch velocity.
        const float target = approach < -restingSpeed ? -c.restitution * approach : 0.f;
        if (vn == target || (vn < target && c.restitution <= 0.f))
            continue;
        p.velocity[i] += nrm * (target - vn);
        if (keepPrevious)
            p.previous[i] = p.position[i] - p.velocity[i] * float(dt);
    }
}

void applyContactVelocities(
    Cloth &cloth, ClothSolverCache &cache, const ColliderState *colliders, float restingSpeed, double dt)
{
    Particles &p = cloth.particles;
    const std::size_t n = p.size();
    for (std::size_t i = 0; i < n; ++i) {
        const std::int32_t ci = cache.contactCollider[i];
        if (ci < 0)
            continue;
        const ColliderState &c = colliders[ci];
        const Vec3 nrm = cache.contactNormal[i];
        const Vec3 rel = p.velocity[i] - c.velocity;
        const float vn = dot(rel, nrm);
        if (vn >= 0.f)
            continue;
        Vec3 vt = rel - nrm * vn;
        const float lt = length(vt);
        // Coulomb: the normal impulse m|v_n| holds the tangential motion while |v_t| <= μ_s |v_n|,
        // otherwise takes μ_k m |v_n| off it.
        const float reduce = c.friction * -vn;
        const bool sticks = lt <= c.staticFriction * -vn;
        vt = sticks ? Vec3 {} : vt * (std::max(0.f, lt - reduce) / lt);
        if (sticks) {
            // Held by static friction: the substep's slide along the surface is undone too,
            // so a sheet on a slope below the friction angle does not creep by v dt.
            const Vec3 moved = (p.position[i] - p.previous[i]) - c.velocity * float(dt);
            p.position[i] -= moved - nrm * dot(moved, nrm);
        }
        const float bounce = -vn > restingSpeed ? -c.restitution * vn : 0.f;
        p.velocity[i] = c.velocity + vt + nrm * bounce;
    }
}

float selfCollisionDistance(const Cloth &cloth, const ClothSolverCache &cache)
{
    float d = 2.f * cloth.thickness;
    if (cache.minRestLength > 0.f)
        d = std::min(d, 0.9f * cache.minRestLength);
    return d;
}

namespace {

// Where the row of cells (y, z) starts in the self-collision hash: Teschner et al. 2003,
// "Optimized Spatial Hashing for Collision Detection of Deformable Objects", for y and z. The
// cells of a row then take consecutive buckets (cellBucket), so the three cells of a row
// next to a cell are one run of memory.
std::uint32_t rowHash(std::int32_t y, std::int32_t z)
{
    return (std::uint32_t(y) * 19349663u) ^ (std::uint32_t(z) * 83492791u);
}

std::uint32_t cellBucket(std::uint32_t row, std::int32_t x, std::uint32_t mask)
{
    return (row + std::uint32_t(x)) & mask;
}

std::int32_t cellCoord(float v, float inv)
{
    // Clamped (and NaN mapped to a cell) so a particle that ran away within the frame, before
    // the runaway check catches it, cannot overflow the integer conversion.
    const double c = std::floor(double(v) * double(inv));
    return std::isnan(c) ? 0 : std::int32_t(std::clamp(c, -1e9, 1e9));
}

} // namespace

namespace {

// The coarse cells of the self-collision check: kSelfCoarse hash cells a side, keyed by their
// three coordinates, 21 bits each (wrapping: two cells far apart that share a key count as one,
// which only makes the check stricter).
constexpr std::int32_t kSelfCoarse = 4;
constexpr std::uint64_t kCoarseMask = (std::uint64_t(1) << 21) - 1;

std::uint64_t coarseKey(std::int64_t x, std::int64_t y, std::int64_t z)
{
    return (std::uint64_t(x) & kCoarseMask) << 42 | (std::uint64_t(y) & kCoarseMask) << 21
        | (std::uint64_t(z) & kCoarseMask);
}

// The number of the coarse cell `key` in the open-addressing table (ClothSolverCache::
// selfCoarseTable, a power of two, at most half full), or ~0 when it has none; with `add`,
// a cell not there yet is numbered next and added (the table grows as it fills).
std::uint32_t coarseNumber(ClothSolverCache &cache, std::uint64_t key, bool add)
{
    std::vector<std::uint32_t> &table = cache.selfCoarseTable;
    std::vector<std::uint64_t> &keys = cache.selfCoarseKeys;
    for (;;) {
        const std::size_t mask = table.size() - 1;
        std::size_t slot = std::size_t((key * 0x9E3779B97F4A7C15ull) >> 32) & mask;
        while (table[slot] != 0) {
            if (keys[table[slot] - 1] == key)
                return table[slot] - 1;
            slot = (slot + 1) & mask;
        }
        if (!add)
            return ~0u;
        if (2 * (keys.size() + 1) <= table.size()) {
            keys.push_back(key);
            table[slot] = std::uint32_t(keys.size());
            return std::uint32_t(keys.size() - 1);
        }
        // Twice the slots, the cells placed again in number order.
        std::fill(table.begin(), table.end(), 0u);
        table.resize(2 * table.size(), 0u);
        const std::size_t grownMask = table.size() - 1;
        for (std::size_t c = 0; c < keys.size(); ++c) {
            std::size_t at = std::size_t((keys[c] * 0x9E3779B97F4A7C15ull) >> 32) & grownMask;
            while (table[at] != 0)
                at = (at + 1) & grownMask;
            table[at] = std::uint32_t(c + 1);
        }
    }
}

// Each coarse cell's neighbours (itself and the 26 around it) of the same or a higher
// number, as runs (selfCoarseNearStart, selfCoarseNear), for the cells numbered so far.
void linkCoarseCells(ClothSolverCache &cache)
{
    const std::size_t cells = cache.selfCoarseKeys.size();
    cache.selfCoarseNearStart.assign(cells + 1, 0);
    cache.selfCoarseNear.clear();
    for (std::size_t c = 0; c < cells; ++c) {
        const std::uint64_t key = cache.selfCoarseKeys[c];
        const auto x = std::int64_t(key >> 42 & kCoarseMask), y = std::int64_t(key >> 21 & kCoarseMask),
                   z = std::int64_t(key & kCoarseMask);
        cache.selfCoarseNear.push_back(std::uint32_t(c));
        for (std::int64_t dz = -1; dz <= 1; ++dz)
            for (std::int64_t dy = -1; dy <= 1; ++dy)
                for (std::int64_t dx = -1; dx <= 1; ++dx) {
                    const std::uint32_t near = coarseNumber(cache, coarseKey(x + dx, y + dy, z + dz), false);
                    if (near != ~0u && near > c)
                        cache.selfCoarseNear.push_back(near);
                }
        cache.selfCoarseNearStart[c + 1] = std::uint32_t(cache.selfCoarseNear.size());
    }
}

// Whether no two particles of neighbouring coarse cells closed in by more than the slack
// since the gather: each cell's box of displacements, then every pair of neighbours' box
// together, as selfPairsCurrent bounds the whole cloth's. Particles come in index order,
// in runs within one cell along a row: a run's box is kept in registers until it ends.
bool nearCellsHold(const Particles &p, ClothSolverCache &cache)
{
    const std::size_t cells = cache.selfCoarseKeys.size();
    const float inf = std::numeric_limits<float>::infinity();
    std::vector<Vec3> &low = cache.selfCoarseLow, &high = cache.selfCoarseHigh;
    low.assign(cells, Vec3 { inf, inf, inf });
    high.assign(cells, Vec3 { -inf, -inf, -inf });
    const std::uint32_t *coarse = cache.selfCoarseOf.data();
    const std::size_t n = p.size();
    std::size_t i = 0;
    while (i < n) {
        const std::uint32_t c = coarse[i];
        Vec3 lo = low[c], hi = high[c];
        for (; i < n && coarse[i] == c; ++i) {
            const Vec3 d = p.position[i] - cache.selfPairsAnchor[i];
            lo = { std::min(lo.x, d.x), std::min(lo.y, d.y), std::min(lo.z, d.z) };
            hi = { std::max(hi.x, d.x), std::max(hi.y, d.y), std::max(hi.z, d.z) };
        }
        low[c] = lo;
        high[c] = hi;
    }
    const float slack2 = cache.selfPairsSlack * cache.selfPairsSlack;
    for (std::size_t c = 0; c < cells; ++c) {
        for (std::uint32_t k = cache.selfCoarseNearStart[c]; k < cache.selfCoarseNearStart[c + 1]; ++k) {
            const std::uint32_t b = cache.selfCoarseNear[k];
            const Vec3 lo { std::min(low[c].x, low[b].x), std::min(low[c].y, low[b].y),
                std::min(low[c].z, low[b].z) };
            const Vec3 hi { std::max(high[c].x, high[b].x), std::max(high[c].y, high[b].y),
                std::max(high[c].z, high[b].z) };
            if (!(lengthSquared(hi - lo) <= slack2))
                return false;
        }
    }
    return true;
}

// Whether the candidate pairs gathered earlier still cover every pair that can be closer
// than minDistance now: same topology and distance, and no two particles closed in by more
// than they may since. With Δ_k each particle's displacement since the gather and m any
// vector, |Δ_i - Δ_j| <= |Δ_i - m| + |Δ_j - m|; taking m as the centre of a box that holds
// both displacements bounds that by the box's diagonal. A pair the gather did not list was
// at least minDistance + slack apart, so it stays clear while its particles close in by less
// than the slack; a pair from coarse cells that are not neighbours (kSelfCoarse hash cells a
// side, a whole cell between them) was more than kSelfCoarse (minDistance + slack) apart, and
// may close in by that less minDistance (selfPairsFarSlack). Hence three tests, cheapest first:
// every displacement in a box of diagonal `slack` (a cloth that moves as a whole keeps its
// pairs for good); if not, in a box of diagonal selfPairsFarSlack, and the displacements of
// every two neighbouring coarse cells in a box of diagonal `slack` (nearCellsHold). A sheet
// swinging from a pinned edge turns as a whole, so that the particles far apart move apart
// fast but neighbours slowly: in the swinging start of the benchmark's 128² sheet the pairs
// were gathered 22 times in 4,130 passes, against 285 times in 3,330 with the first test
// alone (docs/benchmark.md).
bool selfPairsCurrent(const Cloth &cloth, ClothSolverCache &cache, float minDistance)
{
    const Particles &p = cloth.particles;
    const std::size_t n = p.size();
    if (!cache.selfPairsValid || cache.selfPairsRevision != cloth.topologyRevision
        || cache.selfPairsAnchor.size() != n || cache.selfPairsDistance != minDistance)
        return false;
    if (n == 0)
        return true;
    // Four particles at a time as three SSE2 vectors of their coordinates (x0 y0 z0 x1 | y1
    // z1 x2 y2 | z2 x3 y3 z3): lane l of vector v holds coordinate (4v + l) mod 3. Minima and
    // maxima are exact, so the box is the scalar loop's; d · 0 is NaN exactly when d is not
    // finite.
    const float *x = &p.position[0].x;
    const float *a = &cache.selfPairsAnchor[0].x;
    const float inf = std::numeric_limits<float>::infinity();
    __m128 lo[3], hi[3];
    for (int v = 0; v < 3; ++v) {
        lo[v] = _mm_set1_ps(inf);
        hi[v] = _mm_set1_ps(-inf);
    }
    __m128 bad = _mm_setzero_ps();
    const std::size_t fours = n / 4;
    for (std::size_t q = 0; q < fours; ++q) {
        for (int v = 0; v < 3; ++v) {
            const __m128 d = _mm_sub_ps(_mm_loadu_ps(x + 12 * q + 4 * v), _mm_loadu_ps(a + 12 * q + 4 * v));
            lo[v] = _mm_min_ps(lo[v], d);
            hi[v] = _mm_max_ps(hi[v], d);
            const __m128 z = _mm_mul_ps(d, _mm_setzero_ps());
            bad = _mm_or_ps(bad, _mm_cmpunord_ps(z, z));
        }
    }
    bool finite = _mm_movemask_ps(bad) == 0;
    float low[3] = { inf, inf, inf }, high[3] = { -inf, -inf, -inf };
    alignas(16) float l[12], h[12];
    for (int v = 0; v < 3; ++v) {
        _mm_store_ps(l + 4 * v, lo[v]);
        _mm_store_ps(h + 4 * v, hi[v]);
    }
    for (int k = 0; k < 12; ++k) {
        low[k % 3] = std::min(low[k % 3], l[k]);
        high[k % 3] = std::max(high[k % 3], h[k]);
    }
    for (std::size_t i = 4 * fours; i < n; ++i) {
        const Vec3 d = p.position[i] - cache.selfPairsAnchor[i];
        finite &= std::isfinite(d.x) & std::isfinite(d.y) & std::isfinite(d.z);
        low[0] = std::min(low[0], d.x);
        low[1] = std::min(low[1], d.y);
        low[2] = std::min(low[2], d.z);
        high[0] = std::max(high[0], d.x);
        high[1] = std::max(high[1], d.y);
        high[2] = std::max(high[2], d.z);
    }
    const Vec3 lo3 { low[0], low[1], low[2] }, hi3 { high[0], high[1], high[2] };
    if (!finite)
        return false;
    const float spread2 = lengthSquared(hi3 - lo3);
    if (spread2 <= cache.selfPairsSlack * cache.selfPairsSlack)
        return true;
    return spread2 <= cache.selfPairsFarSlack * cache.selfPairsFarSlack && nearCellsHold(p, cache);
}

// The candidates of `list` from `from` on that particle i of the searched cell keeps as
// partners, written to `out` in the list's order; returns how many. A partner is a candidate
// outside i's own cell or of higher index, not pinned together with i, and closer than
// √r2 (|c - x_i|² in lengthSquared's operations and order).
std::uint32_t keepCandidates(
    const SelfCandidates &list, std::size_t from, const CellEntry &own, float r2, std::uint32_t *out)
{
    const std::uint32_t i = own.particle;
    std::uint32_t count = 0;
    for (std::size_t m = from; m < list.size; ++m) {
        const Vec3 c { list.x[m], list.y[m], list.z[m] };
        const bool keep = (!list.ownCell[m] | (list.particle[m] > i)) & (own.invMass + list.invMass[m] != 0.f)
            & (lengthSquared(c - own.position) < r2);
        out[count] = list.particle[m];
        count += keep ? 1u : 0u;
    }
    return count;
}

// keepCandidates eight candidates at a time in AVX2: the same IEEE operations on each lane
// (no multiply-add: x² + y² then + z², as lengthSquared), the kept ones written in order.
__attribute__((target("avx2"))) std::uint32_t keepCandidatesAvx2(
    const SelfCandidates &list, const CellEntry &own, float r2, std::uint32_t *out)
{
    const __m256 ox = _mm256_set1_ps(own.position.x), oy = _mm256_set1_ps(own.position.y),
                 oz = _mm256_set1_ps(own.position.z), ow = _mm256_set1_ps(own.invMass);
    const __m256 r2v = _mm256_set1_ps(r2), zero = _mm256_setzero_ps();
    // Unsigned j > i as signed after flipping the top bits.
    const __m256i top = _mm256_set1_epi32(std::int32_t(0x80000000u));
    const __m256i iv = _mm256_xor_si256(_mm256_set1_epi32(std::int32_t(own.particle)), top);
    std::uint32_t count = 0;
    const std::size_t eights = list.size / 8 * 8;
    for (std::size_t m = 0; m < eights; m += 8) {
        const __m256 dx = _mm256_sub_ps(_mm256_loadu_ps(list.x.data() + m), ox);
        const __m256 dy = _mm256_sub_ps(_mm256_loadu_ps(list.y.data() + m), oy);
        const __m256 dz = _mm256_sub_ps(_mm256_loadu_ps(list.z.data() + m), oz);
        const __m256 l2 = _mm256_add_ps(
            _mm256_add_ps(_mm256_mul_ps(dx, dx), _mm256_mul_ps(dy, dy)), _mm256_mul_ps(dz, dz));
        const __m256i j = _mm256_loadu_si256(reinterpret_cast<const __m256i *>(list.particle.data() + m));
        const __m256i own8 = _mm256_loadu_si256(reinterpret_cast<const __m256i *>(list.ownCell.data() + m));
        const __m256i higher = _mm256_cmpgt_epi32(_mm256_xor_si256(j, top), iv);
        const __m256 partner
            = _mm256_castsi256_ps(_mm256_or_si256(_mm256_xor_si256(own8, _mm256_set1_epi32(-1)), higher));
        const __m256 loose
            = _mm256_cmp_ps(_mm256_add_ps(ow, _mm256_loadu_ps(list.invMass.data() + m)), zero, _CMP_NEQ_UQ);
        const __m256 near = _mm256_cmp_ps(l2, r2v, _CMP_LT_OQ);
        unsigned keep = unsigned(_mm256_movemask_ps(_mm256_and_ps(_mm256_and_ps(partner, loose), near)));
        while (keep != 0) {
            out[count++] = list.particle[m + unsigned(__builtin_ctz(keep))];
            keep &= keep - 1;
        }
    }
    return count + keepCandidates(list, eights, own, r2, out + count);
}

// Gathers the unconnected pairs closer than minDistance + slack with a spatial hash
// (Teschner et al. 2003, filled by counting sort, so the order is fixed by the positions).
// Each pair is looked for once: from particle i, in i's own cell (partners of higher index)
// and in the 13 neighbouring cells of one half-space (every partner there); a pair whose
// cells lie the other way round is found from its other particle. A bucket may also hold
// particles of cells that hash alike; they are skipped by their cell, so no pair is found
// twice. The search runs cell by cell, in bucket order, listing a cell's neighbourhood once
// for all of its particles; the cells of a row take consecutive buckets, so a neighbourhood
// is five runs of memory, mostly the last cell's. The pairs are then put in the order of
// the search particle by particle, which the solve follows.
void gatherSelfPairs(const Cloth &cloth, ClothSolverCache &cache, float minDistance)
{
    const Particles &p = cloth.particles;
    const std::size_t n = p.size();
    cache.ensureAdjacency(cloth); // neighbours through a constraint are not collision pairs
    const float slack = minDistance; // m of relative motion the pairs stay valid for
    const float radius = minDistance + slack;
    // At least two buckets per particle, a power of two so that a bucket is a mask away.
    std::uint32_t tableSize = 1;
    while (tableSize < 2 * n)
        tableSize <<= 1;
    const std::uint32_t mask = tableSize - 1;
    const float inv = 1.f / radius;
    // Counting sort: cellStart[h] counts bucket h, summed to where each bucket ends; the
    // particles are then placed from the last one down, each at its bucket's end, so each
    // bucket lists its particles by ascending index and cellStart[h] becomes where it begins
    // (cellStart[tableSize] stays n).
    cache.cellStart.assign(std::size_t(tableSize) + 1, 0);
    cache.cellOf.resize(n);
    cache.cellEntries.resize(n);
    const auto cellOf = [inv](const Vec3 &x) {
        return CellCoord { cellCoord(x.x, inv), cellCoord(x.y, inv), cellCoord(x.z, inv) };
    };
    // The coarse cells (selfPairsCurrent) numbered as the particles first fall in them.
    cache.selfCoarseKeys.clear();
    cache.selfCoarseTable.assign(64, 0u);
    cache.selfCoarseOf.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
        const CellCoord c = cellOf(p.position[i]);
        const std::uint32_t h = cellBucket(rowHash(c.y, c.z), c.x, mask);
        cache.cellOf[i] = h;
        ++cache.cellStart[h];
        // >> is floor division by kSelfCoarse = 4 (arithmetic shift of a signed coordinate).
        static_assert(kSelfCoarse == 4);
        cache.selfCoarseOf[i] = coarseNumber(cache, coarseKey(c.x >> 2, c.y >> 2, c.z >> 2), true);
    }
    linkCoarseCells(cache);
    for (std::uint32_t c = 0; c < tableSize; ++c)
        cache.cellStart[c + 1] += cache.cellStart[c];
    for (std::size_t i = n; i-- > 0;) {
        const std::uint32_t e = --cache.cellStart[cache.cellOf[i]];
        cache.cellEntries[e] = CellEntry { p.position[i], p.invMass[i], cellOf(p.position[i]), std::uint32_t(i) };
    }
    // Around a cell, the cell itself and the 13 neighbours with (dz, dy, dx) lexicographically
    // positive, in that order: the cell and the next of its row, then three cells (dx = -1,
    // 0, 1) in each of the rows (dy, dz) below.
    static constexpr std::int32_t kRows[4][2] = { { 1, 0 }, { -1, 1 }, { 0, 1 }, { 1, 1 } };
    const float r2 = radius * radius;
    const std::uint32_t *start = cache.cellStart.data();
    const CellEntry *entries = cache.cellEntries.data();
    // Cell by cell: the particles of the 14 cells are listed once, in that order and each
    // cell's by ascending index, then every particle of the cell is tested against the list.
    // The candidates come out cell by cell, each particle's in one run of `found`: where it
    // starts in selfFoundStart, how long it is in cellOf (no longer needed).
    std::vector<std::uint32_t> &owned = cache.cellOf;
    std::fill(owned.begin(), owned.end(), 0u);
    cache.selfFoundStart.resize(n);
    SelfCandidates &around = cache.selfCandidates;
    const bool avx2 = xpbdKernelIsa() >= KernelIsa::Avx2;
    std::vector<std::uint32_t> &found = cache.selfPairsFound;
    std::size_t foundSize = 0;
    // Lists the particles of cells (x0 .. x0 + count - 1, y, z), by cell then index; the
    // buckets are one run unless the run wraps past the table's end. A bucket may hold other
    // cells too: only the row's own are taken.
    const auto listRun = [&](std::int32_t x0, int count, std::int32_t y, std::int32_t z, bool ownRow) {
        const std::uint32_t row = rowHash(y, z);
        const std::uint32_t first = cellBucket(row, x0, mask);
        const auto take = [&](std::uint32_t from, std::uint32_t to) {
            around.reserveMore(to - from);
            for (std::uint32_t f = from; f < to; ++f) {
                const CellEntry &c = entries[f];
                const auto dx = std::uint32_t(c.cell.x - x0);
                if (c.cell.y == y && c.cell.z == z && dx < std::uint32_t(count))
                    around.add(c.position, c.invMass, c.particle, ownRow && c.cell.x == x0);
            }
        };
        if (first + std::uint32_t(count) <= tableSize) {
            take(start[first], start[first + std::uint32_t(count)]);
        } else {
            for (int d = 0; d < count; ++d) {
                const std::uint32_t b = cellBucket(row, x0 + d, mask);
                take(start[b], start[b + 1]);
            }
        }
    };
    for (std::uint32_t h = 0; h < tableSize; ++h) {
        const std::uint32_t bucketEnd = start[h + 1];
        for (std::uint32_t e = start[h]; e < bucketEnd; ++e) {
            const CellCoord cell = entries[e].cell;
            bool searched = false; // a cell sharing the bucket, met earlier in it
            for (std::uint32_t f = start[h]; f < e && !searched; ++f)
                searched = entries[f].cell == cell;
            if (searched)
                continue;
            around.clear();
            listRun(cell.x, 2, cell.y, cell.z, true);
            for (const auto &r : kRows)
                listRun(cell.x - 1, 3, cell.y + r[0], cell.z + r[1], false);
            const std::size_t candidates = around.size;
            for (std::uint32_t f = e; f < bucketEnd; ++f) {
                const CellEntry &own = entries[f];
                if (!(own.cell == cell))
                    continue;
                const std::uint32_t i = own.particle;
                if (found.size() < foundSize + candidates)
                    found.resize(std::max(2 * found.size(), foundSize + candidates));
                // In the list's order, eight at a time where the CPU has AVX2.
                std::uint32_t *out = found.data() + foundSize;
                const std::uint32_t count = avx2 ? keepCandidatesAvx2(around, own, r2, out)
                                                 : keepCandidates(around, 0, own, r2, out);
                cache.selfFoundStart[i] = std::uint32_t(foundSize);
                owned[i] = count;
                foundSize += count;
            }
        }
    }
    // In the order of a search particle by particle: each particle's run in turn, without
    // the pairs a constraint joins. Particle i's neighbours are marked with i + 1 in a
    // scratch array of the particles (the buckets' starts, no longer needed, with room for
    // two particles a bucket), so that each candidate is one look-up: most candidates of a
    // cloth lying flat are its neighbours (ClothSolverCache::adjacent's binary search took a
    // fifth of the gathering).
    std::uint32_t *mark = cache.cellStart.data();
    std::fill(mark, mark + n, 0u);
    std::vector<std::uint32_t> &pairs = cache.selfPairs;
    pairs.clear();
    for (std::uint32_t i = 0; i < n; ++i) {
        if (owned[i] == 0)
            continue;
        for (std::uint32_t k = cache.adjacencyStart[i]; k < cache.adjacencyStart[i + 1]; ++k)
            mark[cache.adjacency[k]] = i + 1;
        const std::uint32_t *run = found.data() + cache.selfFoundStart[i];
        for (std::uint32_t m = 0; m < owned[i]; ++m) {
            const std::uint32_t j = run[m];
            if (mark[j] == i + 1)
                continue;
            pairs.push_back(std::min(i, j));
            pairs.push_back(std::max(i, j));
        }
    }
    cache.selfPairsAnchor.assign(p.position.begin(), p.position.end());
    cache.selfPairsSlack = slack;
    // Coarse cells with one between them hold points more than kSelfCoarse cell sizes apart
    // (1/inv, within a float's rounding of `radius`: the factor keeps clear of it).
    cache.selfPairsFarSlack = float(kSelfCoarse) * radius * 0.9999f - minDistance;
    cache.selfPairsDistance = minDistance;
    cache.selfPairsRevision = cloth.topologyRevision;
    cache.selfPairsValid = true;
}

} // namespace

std::uint32_t solveSelfCollision(Cloth &cloth, ClothSolverCache &cache, float minDistance)
{
    Particles &p = cloth.particles;
    const std::size_t n = p.size();
    cache.selfPushed.clear(); // this pass's only, even when it does nothing
    if (n < 2 || !(minDistance > 0.f))
        return 0;
    // The hash is built for a group of substeps, not for each: the pairs are gathered with a
    // slack and reused until two particles may have closed in by it (a resting, falling or
    // slowly deforming cloth rebuilds rarely, a fast one every substep).
    if (!selfPairsCurrent(cloth, cache, minDistance))
        gatherSelfPairs(cloth, cache, minDistance);
    const float d2 = minDistance * minDistance;
    std::uint32_t pairs = 0;
    const std::size_t count = cache.selfPairs.size();
    for (std::size_t k = 0; k < count; k += 2) {
        const std::uint32_t i = cache.selfPairs[k];
        const std::uint32_t j = cache.selfPairs[k + 1];
        const Vec3 d = p.position[j] - p.position[i];
        const float l2 = lengthSquared(d);
        if (l2 >= d2)
            continue;
        const float wi = p.invMass[i], wj = p.invMass[j];
        if (wi + wj == 0.f)
            continue; // both pinned since the pairs were gathered
        const float l = std::sqrt(l2);
        const Vec3 nrm = l > 1e-9f ? d / l : Vec3 { 0.f, 1.f, 0.f };
        const float push = (minDistance - l) / (wi + wj);
        p.position[i] -= nrm * (push * wi);
        p.position[j] += nrm * (push * wj);
        cache.selfPushed.push_back(i);
        cache.selfPushed.push_back(j);
        ++pairs;
    }
    return pairs;
}

} // namespace drape::detail
