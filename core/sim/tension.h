// Forces you can read: the tension each constraint carried in the last substep (which
// Simulation::constraintTensions gives) turned into what a designer asks about — the reaction
// of every pin, the stress of the sheet in N/m and tearing by tension. See docs/solvers.md,
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

/// Tension of constraint c (N) in `tension`, the cloth's constraint tensions
/// (Simulation::constraintTensions); 0, unknown, when it is not of the cloth's constraint count.
inline float tensionAt(const Cloth &cloth, const std::vector<float> &tension, std::size_t c)
{
    return tension.size() == cloth.constraints.size() ? tension[c] : 0.f;
}

/// One entry per particle of inverse mass 0 that has at least one constraint, by index, from
/// the cloth's constraint tensions.
std::vector<PinReaction> pinReactions(const Cloth &cloth, const std::vector<float> &tension);

/// Stress of constraint c (N/m): its tension per unit width of the strip of sheet it stands
/// for, `width` m (a structural edge of a grid of spacing h stands for a strip h wide).
inline float constraintStress(
    const Cloth &cloth, const std::vector<float> &tension, std::size_t c, float width)
{
    return width > 0.f ? tensionAt(cloth, tension, c) / width : 0.f;
}

/// True when constraint c pulls harder than its tear force; never when the tension is not
/// known (`tension` null or not of the cloth's constraint count).
inline bool isOverTension(const Cloth &cloth, const std::vector<float> *tension, std::size_t c)
{
    const DistanceConstraint &k = cloth.constraints[c];
    return k.tearForce < kNeverTear && tension && tensionAt(cloth, *tension, c) > k.tearForce;
}

} // namespace drape
