// Tethers (long-range attachments), Kim, Chentanez, Müller 2012. See sim/tethers.h.
//
// The rest distance is geodesic, the shortest path along the cloth's structural, shear and
// user constraints, as the paper recommends for cloth that drapes over something: the
// Euclidean rest distance would let a fold or a cloth wrapped round a collider pull taut.
// The constraint is one-sided (only a particle farther than s·d moves), so it never pushes
// a cloth that is slack or folded. Anchors have inverse mass 0, so the projection is exact:
// after it, |x_i - x_anchor| <= s d_i up to float rounding.
#include "sim/tethers.h"

#include <cmath>
#include <functional>
#include <limits>
#include <queue>
#include <tuple>

namespace drape {

namespace {

std::uint64_t tetherKey(const Cloth &cloth)
{
    // FNV-1a over the topology revision, the sizes and the pinned particles.
    std::uint64_t h = 14695981039346656037ull;
    const auto mix = [&h](std::uint64_t v) {
        for (int i = 0; i < 8; ++i, v >>= 8) {
            h ^= v & 0xffu;
            h *= 1099511628211ull;
        }
    };
    mix(cloth.topologyRevision);
    mix(cloth.particles.size());
    mix(cloth.constraints.size());
    for (std::size_t i = 0; i < cloth.particles.size(); ++i) {
        if (cloth.particles.invMass[i] == 0.f)
            mix(i);
    }
    return h;
}

} // namespace

Tethers computeTethers(const Cloth &cloth)
{
    const Particles &p = cloth.particles;
    const std::size_t n = p.size();
    // Adjacency (CSR) over the constraints that follow the sheet (bend constraints skip a
    // particle and would cut corners only where a structural path exists anyway).
    std::vector<std::uint32_t> start(n + 1, 0), next;
    const auto follows = [](const DistanceConstraint &c) { return c.kind != ConstraintKind::Bend; };
    for (const DistanceConstraint &c : cloth.constraints) {
        if (follows(c)) {
            ++start[c.a + 1];
            ++start[c.b + 1];
        }
    }
    for (std::size_t i = 0; i < n; ++i)
        start[i + 1] += start[i];
    next.resize(start[n]);
    std::vector<float> edgeLength(start[n]);
    std::vector<std::uint32_t> fill(start.begin(), start.end() - 1);
    for (const DistanceConstraint &c : cloth.constraints) {
        if (!follows(c))
            continue;
        edgeLength[fill[c.a]] = c.restLength;
        next[fill[c.a]++] = c.b;
        edgeLength[fill[c.b]] = c.restLength;
        next[fill[c.b]++] = c.a;
    }

    // Multi-source Dijkstra from every pinned particle; ties keep the lower anchor index
    // (the heap orders by distance, then anchor, then particle), so the result is deterministic.
    const float inf = std::numeric_limits<float>::infinity();
    std::vector<float> dist(n, inf);
    std::vector<std::uint32_t> anchor(n, ~std::uint32_t(0));
    using Item = std::tuple<float, std::uint32_t, std::uint32_t>; // distance, anchor, particle
    std::priority_queue<Item, std::vector<Item>, std::greater<Item>> heap;
    for (std::uint32_t i = 0; i < n; ++i) {
        if (p.invMass[i] == 0.f)
            heap.emplace(0.f, i, i);
    }
    while (!heap.empty()) {
        const auto [d, a, i] = heap.top();
        heap.pop();
        if (d > dist[i] || (d == dist[i] && a >= anchor[i]))
            continue;
        dist[i] = d;
        anchor[i] = a;
        for (std::uint32_t e = start[i]; e < start[i + 1]; ++e) {
            const float nd = d + edgeLength[e];
            const std::uint32_t j = next[e];
            if (nd < dist[j] || (nd == dist[j] && a < anchor[j]))
                heap.emplace(nd, a, j);
        }
    }

    Tethers t;
    t.key = tetherKey(cloth);
    for (std::uint32_t i = 0; i < n; ++i) {
        if (p.invMass[i] == 0.f || !(dist[i] < inf) || !(dist[i] > 0.f))
            continue;
        t.particle.push_back(i);
        t.anchor.push_back(anchor[i]);
        t.restDistance.push_back(dist[i]);
    }
    return t;
}

void updateTethers(const Cloth &cloth, Tethers &tethers)
{
    if (tethers.key != tetherKey(cloth))
        tethers = computeTethers(cloth);
}

void projectTethers(Cloth &cloth, const Tethers &tethers, float stretch)
{
    Vec3 *x = cloth.particles.position.data();
    for (std::size_t k = 0; k < tethers.particle.size(); ++k) {
        const std::uint32_t i = tethers.particle[k];
        const Vec3 anchor = x[tethers.anchor[k]];
        const Vec3 d = x[i] - anchor;
        const float limit = stretch * tethers.restDistance[k];
        const float l2 = lengthSquared(d);
        if (l2 <= limit * limit)
            continue;
        // The new position is rounded to a float metres from the origin, which can leave it
        // an ulp beyond the limit: a strain of ~1e-6 on a path one short edge long. Shrinking
        // the pull by a growing margin (2^-22 of the length, doubled each try) puts it within.
        Vec3 y = anchor + d * (limit / std::sqrt(l2));
        for (int tries = 0; tries < 12 && lengthSquared(y - anchor) > limit * limit; ++tries)
            y = anchor + d * (limit / std::sqrt(l2) * (1.f - std::ldexp(1.f, tries - 22)));
        x[i] = y;
    }
}

} // namespace drape
