// The three cloth solvers and the pieces they share. Internal to the core: Simulation::step()
// is the public entry point. Each solver advances one cloth by one frame, split into
// `substeps` substeps of dt = frameDt / substeps; see docs/solvers.md for the step
// structure of each and how they hand over to one another.
#pragma once

#include "sim/cloth.h"
#include "sim/clothcollision.h"
#include "sim/settings.h"
#include "sim/simulation.h"
#include "solvercache.h"

#include <string>
#include <vector>

namespace drape::detail {

struct FrameContext {
    const WorldSettings &world;
    const SolverSettings &solver;
    const std::vector<ColliderState> &colliders; ///< substeps × colliderCount, substep-major
    std::size_t colliderCount = 0;
    double time = 0.0; ///< s, at the start of the frame
    double frameDt = 0.0; ///< s
    double dt = 0.0; ///< s, substep
    int substeps = 1;
    std::vector<std::uint64_t> &tearScratch;
    const ClothSurfaces *surfaces = nullptr; ///< other cloths to collide with, or none
    std::uint32_t clothIndex = 0; ///< this cloth's index among them

    const ColliderState *collidersAt(int substep) const
    {
        return colliderCount ? colliders.data() + std::size_t(substep) * colliderCount : nullptr;
    }
    /// Normal speed (m/s) below which a contact counts as resting (no bounce): the speed gained
    /// under gravity over two substeps.
    float restingSpeed() const { return 2.f * length(world.gravity) * float(dt); }
};

void stepXpbd(Cloth &cloth, ClothSolverCache &cache, const FrameContext &ctx, StepStats &stats);
void stepVerlet(Cloth &cloth, ClothSolverCache &cache, const FrameContext &ctx, StepStats &stats);
void stepSprings(Cloth &cloth, ClothSolverCache &cache, const FrameContext &ctx, StepStats &stats);

/// Springs solver only: empty when dt is within the explicit stability limit of every spring,
/// otherwise a message naming the constraint, the limit and the substeps needed.
std::string checkSpringStability(const Cloth &cloth, ClothSolverCache &cache, const FrameContext &ctx);
/// The stiffness (N/m) the springs solver uses for constraint c: 1/compliance, or for a rigid
/// constraint the largest stiffness whose Gershgorin bound keeps ω·dt <= 1 (see solversprings.cpp).
void computeSpringStiffness(const Cloth &cloth, ClothSolverCache &cache, double dt);

// Shared pieces of every solver's substep.

/// Frame start: remembers where kinematic particles were at the end of the last frame and
/// where they were moved to since, and puts them back at the start of that motion.
void beginKinematics(Cloth &cloth, ClothSolverCache &cache);
/// Places kinematic particles on their path for substep s (previous = start of the substep)
/// and gives them the velocity of that motion; static particles get zero velocity.
void moveKinematics(Cloth &cloth, ClothSolverCache &cache, int substep, const FrameContext &ctx);
/// Frame start of a position-based solver (after beginKinematics): origin = position,
/// offset = 0 (frame-local positions, see ClothSolverCache::origin).
void beginFrameOffsets(Cloth &cloth, ClothSolverCache &cache);
/// After a constraint solve on offsets: position = origin + offset and previous =
/// origin + offsetPrev for the particles the solver moves.
void writePositionsFromOffsets(Cloth &cloth, ClothSolverCache &cache);
/// Substep end: collider projection is done by the caller; this tears (by removal or split)
/// when the cloth's tear mode asks for it and refreshes the cache if the topology changed.
void tearAfterSubstep(Cloth &cloth, ClothSolverCache &cache, const FrameContext &ctx, StepStats &stats);
/// Long-range attachments after a position solve, when the cloth has them (tethers.h).
void applyTethers(Cloth &cloth, ClothSolverCache &cache);
/// Self-collision pass when enabled.
void selfCollide(Cloth &cloth, ClothSolverCache &cache, const FrameContext &ctx);
/// End of a position-based substep (XPBD and Verlet, after their constraint passes):
/// self-collision, collider projection, velocities from positions, restitution, tearing.
void finishPositionSubstep(
    Cloth &cloth, ClothSolverCache &cache, const FrameContext &ctx, int substep, float dt, StepStats &stats);

} // namespace drape::detail
