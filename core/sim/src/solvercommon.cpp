// Pieces shared by the three solvers: kinematic particles, tearing hooks, self-collision.
#include "collision.h"
#include "solver.h"
#include "sim/clothcollision.h"
#include "sim/tearing.h"
#include "sim/vertexsplit.h"

namespace drape::detail {

void beginKinematics(Cloth &cloth, ClothSolverCache &cache)
{
    Particles &p = cloth.particles;
    cache.kinematic.clear();
    cache.kinematicStart.clear();
    cache.kinematicTarget.clear();
    for (std::size_t i = 0; i < p.size(); ++i) {
        if (p.kind[i] != ParticleKind::Kinematic)
            continue;
        // Kinematic particles were moved from outside since the last frame: interpolate from
        // where the last frame left them to where they are now, so a fast grab does not
        // teleport one substep's worth of cloth.
        const Vec3 target = p.position[i];
        const Vec3 start
            = cache.endValid && cache.endPosition.size() == p.size() ? cache.endPosition[i] : target;
        cache.kinematic.push_back(std::uint32_t(i));
        cache.kinematicStart.push_back(start);
        cache.kinematicTarget.push_back(target);
        p.position[i] = start;
    }
}

void moveKinematics(Cloth &cloth, ClothSolverCache &cache, int substep, const FrameContext &ctx)
{
    Particles &p = cloth.particles;
    const float t0 = float(substep) / float(ctx.substeps);
    const float t1 = float(substep + 1) / float(ctx.substeps);
    for (std::size_t k = 0; k < cache.kinematic.size(); ++k) {
        const std::uint32_t i = cache.kinematic[k];
        if (i >= p.size() || p.kind[i] != ParticleKind::Kinematic)
            continue;
        const Vec3 &a = cache.kinematicStart[k];
        const Vec3 &b = cache.kinematicTarget[k];
        p.previous[i] = lerp(a, b, t0);
        p.position[i] = lerp(a, b, t1);
        p.velocity[i] = (b - a) * float(1.0 / ctx.frameDt);
    }
}

void tearAfterSubstep(Cloth &cloth, ClothSolverCache &cache, const FrameContext &ctx, StepStats &stats)
{
    if (!cache.tearable)
        return;
    if (cloth.tearMode == TearMode::RemoveConstraint) {
        const std::uint32_t torn = tearOverstretched(cloth, ctx.tearScratch);
        if (torn) {
            stats.tornConstraints += torn;
            cache.ensure(cloth);
        }
    } else if (cloth.tearMode == TearMode::SplitVertex) {
        const SplitReport report = splitOverstretched(cloth, ctx.solver.maxSplitsPerStep);
        if (!report.splits.empty()) {
            stats.splitParticles += std::uint32_t(report.splits.size());
            cloth.tension.assign(cloth.constraints.size(), 0.f); // unknown until the next solve
            cache.splitsThisFrame.insert(
                cache.splitsThisFrame.end(), report.splits.begin(), report.splits.end());
            cache.ensure(cloth);
        }
    }
}

void applyTethers(Cloth &cloth, ClothSolverCache &cache)
{
    if (!(cloth.tetherStretch > 0.f))
        return;
    updateTethers(cloth, cache.tethers); // after a tear or a pin change
    projectTethers(cloth, cache.tethers, cloth.tetherStretch);
}

void selfCollide(Cloth &cloth, ClothSolverCache &cache, const FrameContext &ctx)
{
    if (!ctx.solver.selfCollision)
        return;
    solveSelfCollision(cloth, cache, selfCollisionDistance(cloth, cache));
}

void finishPositionSubstep(Cloth &cloth, ClothSolverCache &cache, const FrameContext &ctx, int substep, float dt,
                           StepStats &stats)
{
    Particles &p = cloth.particles;
    const std::size_t n = p.size();
    selfCollide(cloth, cache, ctx);
    if (ctx.surfaces)
        collideWithOtherCloths(cloth, ctx.clothIndex, *ctx.surfaces);
    projectColliders(cloth, cache, ctx.collidersAt(substep), ctx.colliderCount, ctx.dt, true);

    // v = (x - x_prev)/dt, written as the predicted velocity plus the correction the
    // solve made: x_prev + v_pred dt repeats the prediction's float operations exactly,
    // so a particle nothing acted on keeps v_pred bit for bit instead of picking up the
    // rounding of a position far from the origin (at 10 m, float spacing / dt is ~1e-4 m/s
    // per substep, which otherwise accumulates into a visible drag).
    const float invDt = 1.f / dt;
    for (std::size_t i = 0; i < n; ++i) {
        if (p.invMass[i] == 0.f)
            continue;
        const Vec3 predicted = p.previous[i] + cache.preVelocity[i] * dt;
        p.velocity[i] = cache.preVelocity[i] + (p.position[i] - predicted) * invDt;
    }
    if (ctx.colliderCount != 0)
        applyRestitution(cloth, cache, ctx.collidersAt(substep), ctx.dt, ctx.restingSpeed(), false);
    tearAfterSubstep(cloth, cache, ctx, stats);
}

} // namespace drape::detail
