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
#include "xpbdbatch.h"

#include <algorithm>

namespace drape {

std::vector<PinReaction> pinReactions(const Cloth &cloth, const std::vector<float> &tension)
{
    const Particles &p = cloth.particles;
    std::vector<std::int32_t> slot(p.size(), -1);
    std::vector<PinReaction> out;
    for (std::size_t c = 0; c < cloth.constraints.size(); ++c) {
        const DistanceConstraint &k = cloth.constraints[c];
        const float t = tensionAt(cloth, tension, c);
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

namespace {

void keep(const Cloth &cloth, ClothSolverCache &cache, TensionKept kept)
{
    cache.tensionKept = kept;
    cache.tensionConstraints = cloth.constraints.size();
    cache.tensionRevision = cloth.topologyRevision;
}

} // namespace

void resetTension(const Cloth &cloth, ClothSolverCache &cache)
{
    cache.tension.assign(cloth.constraints.size(), 0.f);
    keep(cloth, cache, TensionKept::Record);
}

void recordXpbdTension(const Cloth &cloth, ClothSolverCache &cache, float dt, XpbdWorker *team)
{
    // Every constraint has a slot, so every entry is written: only the size needs setting.
    cache.tension.resize(cloth.constraints.size());
    xpbdConstraintTensions(cache.xpbd, dt, cache.tension, team); // -λ/Δt² per constraint (xpbdbatch.h)
    keep(cloth, cache, TensionKept::Record);
}

void recordVerletTension(const Cloth &cloth, ClothSolverCache &cache, XpbdWorker *team)
{
    // As for XPBD: every entry is written, so the tension is not cleared first.
    cache.tension.resize(cloth.constraints.size());
    verletConstraintTensions(cache.xpbd, cache.tension, team);
    keep(cloth, cache, TensionKept::Record);
}

void keepTornTension(const Cloth &cloth, ClothSolverCache &cache)
{
    if (cache.tensionKept == TensionKept::Record && cache.tension.size() == cloth.constraints.size())
        keep(cloth, cache, TensionKept::Record);
    else
        forgetTension(cache);
}

namespace {

void keepInStreams(const Cloth &cloth, ClothSolverCache &cache, TensionKept kept, float dt)
{
    keep(cloth, cache, kept);
    cache.tensionDt = dt;
    cache.tensionLayout = cache.layouts + cache.remaps;
    // A record kept by earlier frames (tearing since switched off, the springs solver) is
    // stale now: its memory goes.
    std::vector<float>().swap(cache.tension);
}

} // namespace

void keepXpbdTension(const Cloth &cloth, ClothSolverCache &cache, float dt)
{
    keepInStreams(cloth, cache, TensionKept::XpbdStreams, dt);
}

void keepVerletTension(const Cloth &cloth, ClothSolverCache &cache)
{
    keepInStreams(cloth, cache, TensionKept::VerletStreams, 0.f);
}

void forgetTension(ClothSolverCache &cache)
{
    cache.tensionKept = TensionKept::None;
    std::vector<float>().swap(cache.tension);
}

namespace {

/// The readout is for the cloth's constraints as they are: the ones it was made for, with
/// no edit of the topology since.
bool keptForTheseConstraints(const Cloth &cloth, const ClothSolverCache &cache)
{
    return cache.tensionConstraints == cloth.constraints.size()
        && cache.tensionRevision == cloth.topologyRevision;
}

} // namespace

const std::vector<float> *tensionWithinFrame(const Cloth &cloth, const ClothSolverCache &cache)
{
    return cache.tensionKept == TensionKept::Record && keptForTheseConstraints(cloth, cache)
            && cache.tension.size() == cloth.constraints.size()
        ? &cache.tension
        : nullptr;
}

void readTension(const Cloth &cloth, const ClothSolverCache &cache, std::vector<float> &out)
{
    const std::size_t n = cloth.constraints.size();
    if (const std::vector<float> *record = tensionWithinFrame(cloth, cache)) {
        out = *record;
        return;
    }
    out.assign(n, 0.f);
    const bool streams
        = cache.tensionKept == TensionKept::XpbdStreams || cache.tensionKept == TensionKept::VerletStreams;
    // The streams map their slots to the constraints they were laid out for (source), which
    // an edit of the topology since would have renumbered.
    if (!streams || !keptForTheseConstraints(cloth, cache) || !cache.streamsLaidOut
        || cache.tensionLayout != cache.layouts + cache.remaps)
        return;
    if (cache.tensionKept == TensionKept::XpbdStreams)
        xpbdConstraintTensions(cache.xpbd, cache.tensionDt, out); // every constraint has a slot
    else
        verletConstraintTensions(cache.xpbd, out);
}

} // namespace detail

} // namespace drape
