// Forces you can read: the tension each constraint carried in the last substep (kept in
// Cloth::tension by the solvers) turned into what a designer asks about — the reaction of
// every pin, the stress of the sheet in N/m and tearing by tension. See docs/solvers.md,
// "Forces and tension".
#pragma once

#include "sim/cloth.h"

#include <cstdint>
#include <vector>

namespace drape {

/// The force (N) a pinned (or grabbed) particle exerts on the cloth to hold it: minus the sum
/// of the pulls of the constraints attached to it. A hanging cloth at rest has reactions that
/// sum to the weight of its free particles.
struct PinReaction {
    std::uint32_t particle = 0;
    Vec3 force; ///< N
};

/// One entry per particle of inverse mass 0 that has at least one constraint, by index.
std::vector<PinReaction> pinReactions(const Cloth &cloth);

/// Stress of constraint c (N/m): its tension per unit width of the strip of sheet it stands
/// for, `width` m (a structural edge of a grid of spacing h stands for a strip h wide).
inline float constraintStress(const Cloth &cloth, std::size_t c, float width)
{
    return width > 0.f ? cloth.tensionOf(c) / width : 0.f;
}

/// True when constraint c pulls harder than its tear force (needs a known tension).
inline bool isOverTension(const Cloth &cloth, std::size_t c)
{
    const DistanceConstraint &k = cloth.constraints[c];
    return k.tearForce < kNeverTear && cloth.tension.size() == cloth.constraints.size()
        && cloth.tension[c] > k.tearForce;
}

} // namespace drape
