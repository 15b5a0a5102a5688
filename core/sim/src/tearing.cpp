// Tearing by stretch (tearMode RemoveConstraint), as in the classic tearable-cloth demo: a
// constraint stretched past its tear strain is deleted.
//
// Design note. Removal is an erase, not a mask: Cloth::constraints is the one list the
// renderer, the saver and the editing tools read, so a torn constraint must be gone from it.
// Erasing keeps the survivors' relative order (stable compaction, one pass) so the result is
// deterministic; the solvers update their colouring when the topology revision changes,
// which happens only on the frames where something tore (the survivors keep their colours,
// and the solver fits them into the streams it laid out before: docs/solvers.md). A triangle that has a torn
// constraint as an edge is removed as well, so nothing is rendered across the tear. Bend
// constraints are not triangle edges: they tear by their own strain like any other.
// Particles are never removed or renumbered, so indices held elsewhere (pins, selections)
// stay valid.
#include "sim/tearing.h"
#include "sim/tension.h"

#include <algorithm>

namespace drape {

namespace {

std::uint64_t edgeKey(std::uint32_t a, std::uint32_t b)
{
    return a < b ? (std::uint64_t(a) << 32) | b : (std::uint64_t(b) << 32) | a;
}

} // namespace

float constraintStrain(const Cloth &cloth, const DistanceConstraint &c)
{
    if (c.restLength <= 0.f)
        return 0.f;
    const float l = length(cloth.particles.position[c.a] - cloth.particles.position[c.b]);
    return (l - c.restLength) / c.restLength;
}

std::uint32_t tearOverstretched(
    Cloth &cloth, std::vector<std::uint64_t> &scratch, std::vector<float> *tension)
{
    scratch.clear();
    const bool haveTension = tension && tension->size() == cloth.constraints.size();
    const ConstraintRecords &records = cloth.constraints; // read without marking them written
    const auto tears = [&](const DistanceConstraint &k, std::size_t c) {
        return (k.tearStrain < kNeverTear && constraintStrain(cloth, k) > k.tearStrain)
            || isOverTension(cloth, tension, c);
    };
    // Most calls tear nothing: they find so without writing the records.
    std::size_t first = 0;
    while (first < records.size() && !tears(records[first], first))
        ++first;
    if (first == records.size())
        return 0;
    std::size_t c = 0, out = 0;
    cloth.constraints.eraseIf([&](const DistanceConstraint &k) {
        const std::size_t i = c++;
        if (i >= first && tears(k, i)) {
            scratch.push_back(edgeKey(k.a, k.b));
            return true;
        }
        // (The tension at i is read before anything is written there: writes go to out <= i.)
        if (haveTension && out != i)
            (*tension)[out] = (*tension)[i];
        ++out;
        return false;
    });
    const auto torn = std::uint32_t(c - out);
    if (haveTension)
        tension->resize(out);
    std::sort(scratch.begin(), scratch.end());
    const auto hasTornEdge = [&](const Triangle &t) {
        for (int e = 0; e < 3; ++e) {
            if (std::binary_search(scratch.begin(), scratch.end(), edgeKey(t.v[e], t.v[(e + 1) % 3])))
                return true;
        }
        return false;
    };
    cloth.triangles.erase(
        std::remove_if(cloth.triangles.begin(), cloth.triangles.end(), hasTornEdge), cloth.triangles.end());
    cloth.touchTopology();
    return torn;
}

} // namespace drape
