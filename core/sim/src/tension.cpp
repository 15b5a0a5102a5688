// Constraint tension as each solver reports it, and the pin reactions derived from it.
//
// XPBD (Macklin, Müller, Chentanez 2016, §4 and eq. 4): the multiplier λ accumulated over a
// substep's iterations is the constraint impulse times Δt, so the force is f = λ ∇C / Δt².
// With C = |x_a - x_b| - L a stretched constraint gets λ < 0, hence tension T = -λ / Δt².
// The paper suggests exactly this for breakable joints. Springs: Hooke's force k (|d| - L).
// Verlet relaxation: a pass moves particle b by -w_b s (|d| - L)/(w_a + w_b) along d̂, the
// displacement an impulse J would cause over Δt is w J Δt, so the correction stands for a
// force T = s (|d| - L) / ((w_a + w_b) Δt²), summed over the passes of the substep.
// At rest all three are exact: every free particle's corrections cancel its weight,
// Σ_j T_j n_j = -m g, whatever the iteration count.
#include "sim/tension.h"

#include "tensionrecord.h"

#include <algorithm>

namespace drape {

std::vector<PinReaction> pinReactions(const Cloth &cloth)
{
    const Particles &p = cloth.particles;
    std::vector<std::int32_t> slot(p.size(), -1);
    std::vector<PinReaction> out;
    for (std::size_t c = 0; c < cloth.constraints.size(); ++c) {
        const DistanceConstraint &k = cloth.constraints[c];
        const float t = cloth.tensionOf(c);
        const Vec3 d = p.position[k.b] - p.position[k.a];
        const float len = length(d);
        if (len < 1e-9f)
            continue;
        const Vec3 pullOnA = d * (t / len); // a stretched constraint pulls a towards b
        const std::uint32_t ends[2] = { k.a, k.b };
        for (int e = 0; e < 2; ++e) {
            const std::uint32_t i = ends[e];
            if (p.invMass[i] != 0.f)
                continue;
            if (slot[i] < 0) {
                slot[i] = std::int32_t(out.size());
                out.push_back({ i, {} });
            }
            out[std::size_t(slot[i])].force -= e == 0 ? pullOnA : -pullOnA;
        }
    }
    std::sort(out.begin(), out.end(),
        [](const PinReaction &l, const PinReaction &r) { return l.particle < r.particle; });
    return out;
}

namespace detail {

void resetTension(Cloth &cloth)
{
    cloth.tension.assign(cloth.constraints.size(), 0.f);
}

void recordXpbdTension(Cloth &cloth, const XpbdBatches &batches, float dt, XpbdWorker *team)
{
    // Every constraint has a slot, so every entry is written: only the size needs setting.
    cloth.tension.resize(cloth.constraints.size());
    xpbdConstraintTensions(batches, dt, cloth.tension, team); // -λ/Δt² per constraint (xpbdbatch.h)
}

void recordVerletTension(Cloth &cloth, const XpbdBatches &batches, XpbdWorker *team)
{
    // As for XPBD: every entry is written, so the tension is not cleared first.
    cloth.tension.resize(cloth.constraints.size());
    verletConstraintTensions(batches, cloth.tension, team);
}

} // namespace detail

} // namespace drape
