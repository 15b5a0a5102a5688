// Pieces shared by the three solvers: kinematic particles, tearing hooks, self-collision.
#include "collision.h"
#include "sim/clothcollision.h"
#include "sim/tearing.h"
#include "sim/vertexsplit.h"
#include "solver.h"

namespace drape::detail {

bool checkFrame(const Cloth &cloth, ClothSolverCache &cache, const SolverSettings &solver)
{
    if (!cloth.validExceptConstraints())
        return false;
    const bool laidOut = cache.revision == cloth.topologyRevision && cache.particleCount == cloth.particles.size()
        && cache.constraintCount == cloth.constraints.size();
    const float dt = float(solver.substepDt());
    if (laidOut && solver.kind == SolverKind::Xpbd)
        return refreshXpbdBatches(cloth, dt, cache.xpbd);
    if (laidOut && solver.kind == SolverKind::Verlet)
        return refreshVerletBatches(cloth, dt, cache.xpbd);
    // The springs solver reads the constraints themselves; a new topology is laid out (and
    // its streams refreshed) by the step.
    bool ok = true;
    for (const DistanceConstraint &k : cloth.constraints)
        ok &= constraintValid(k, cloth.particles.size());
    return ok;
}

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
        if (cache.origin.size() == p.size()) {
            cache.offset[i] = p.position[i] - cache.origin[i];
            cache.offsetPrev[i] = p.previous[i] - cache.origin[i];
        }
    }
}

void beginFrameOffsets(Cloth &cloth, ClothSolverCache &cache)
{
    const Particles &p = cloth.particles;
    cache.origin.assign(p.position.begin(), p.position.end());
    cache.offset.assign(p.size(), Vec3 {});
    cache.offsetPrev.assign(p.size(), Vec3 {});
}

void writePositionsFromOffsets(Cloth &cloth, ClothSolverCache &cache)
{
    Particles &p = cloth.particles;
    const std::size_t n = p.size();
    for (std::size_t i = 0; i < n; ++i) {
        if (p.invMass[i] == 0.f)
            continue;
        p.position[i] = cache.origin[i] + cache.offset[i];
        p.previous[i] = cache.origin[i] + cache.offsetPrev[i];
    }
}

void predictSubstep(Cloth &cloth, ClothSolverCache &cache, const Prediction &predict, bool keepVelocity)
{
    Particles &p = cloth.particles;
    const std::size_t n = p.size();
    for (std::size_t i = 0; i < n; ++i) {
        if (p.kind[i] == ParticleKind::Kinematic)
            continue; // placed by moveKinematics
        if (p.invMass[i] == 0.f) {
            p.previous[i] = p.position[i];
            p.velocity[i] = {};
            cache.offsetPrev[i] = cache.offset[i];
            continue;
        }
        // Damp the carried velocity, then add this substep's impulse: damping the sum would
        // also scale gravity by exp(-c dt) and bias the static sag by that factor. The move is
        // integrated on the frame-local offset (see ClothSolverCache::origin).
        const Vec3 u = predict(p.velocity[i], p.force[i], p.invMass[i]);
        if (keepVelocity)
            p.velocity[i] = u;
        cache.preVelocity[i] = u;
        cache.offsetPrev[i] = cache.offset[i];
        cache.offset[i] += u * predict.dt;
    }
}

bool plainFrame(const Cloth &cloth, const ClothSolverCache &cache, const FrameContext &ctx)
{
    const bool wind = ctx.world.wind.speed > 0.f && !cloth.triangles.empty(); // accumulateExternalForces
    return !cache.tearable && !(cloth.tetherStretch > 0.f) && !ctx.solver.selfCollision
        && ctx.surfaces == nullptr && ctx.colliderCount == 0 && !wind;
}

void plainSubstep(Cloth &cloth, ClothSolverCache &cache, const Prediction &predict)
{
    // The same per-particle arithmetic as finishPositionSubstep()'s velocity update followed
    // by predictSubstep(), in the same order, so the bits are the same; only the velocity
    // stays in registers instead of making a round trip through Particles::velocity, and
    // positions are not written (nothing reads them before the frame ends).
    Particles &p = cloth.particles;
    const std::size_t n = p.size();
    const float dt = predict.dt;
    const float invDt = 1.f / dt;
    const ParticleKind *kind = p.kind.data();
    const float *invMass = p.invMass.data();
    const Vec3 *force = p.force.data();
    Vec3 *offset = cache.offset.data();
    Vec3 *offsetPrev = cache.offsetPrev.data();
    Vec3 *preVelocity = cache.preVelocity.data();
    for (std::size_t i = 0; i < n; ++i) {
        if (invMass[i] == 0.f) {
            if (kind[i] != ParticleKind::Kinematic) {
                p.previous[i] = p.position[i];
                p.velocity[i] = {};
                offsetPrev[i] = offset[i];
            }
            continue;
        }
        const Vec3 predicted = offsetPrev[i] + preVelocity[i] * dt;
        const Vec3 v = preVelocity[i] + (offset[i] - predicted) * invDt;
        const Vec3 u = predict(v, force[i], invMass[i]);
        preVelocity[i] = u;
        offsetPrev[i] = offset[i];
        offset[i] += u * dt;
    }
}

void finishPlainFrame(Cloth &cloth, ClothSolverCache &cache, float dt)
{
    Particles &p = cloth.particles;
    const std::size_t n = p.size();
    const float invDt = 1.f / dt;
    const float *invMass = p.invMass.data();
    const Vec3 *origin = cache.origin.data();
    const Vec3 *offset = cache.offset.data();
    const Vec3 *offsetPrev = cache.offsetPrev.data();
    const Vec3 *preVelocity = cache.preVelocity.data();
    for (std::size_t i = 0; i < n; ++i) {
        if (invMass[i] == 0.f)
            continue;
        p.position[i] = origin[i] + offset[i];
        p.previous[i] = origin[i] + offsetPrev[i];
        const Vec3 predicted = offsetPrev[i] + preVelocity[i] * dt;
        p.velocity[i] = preVelocity[i] + (offset[i] - predicted) * invDt;
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

void finishPositionSubstep(
    Cloth &cloth, ClothSolverCache &cache, const FrameContext &ctx, int substep, float dt, StepStats &stats)
{
    Particles &p = cloth.particles;
    const std::size_t n = p.size();
    selfCollide(cloth, cache, ctx);
    if (ctx.surfaces)
        collideWithOtherCloths(cloth, ctx.clothIndex, *ctx.surfaces);
    projectColliders(cloth, cache, ctx.collidersAt(substep), ctx.colliderCount, ctx.dt, true);

    // Contacts moved some positions: those particles take their offset from the position
    // (a contact is resolved to float precision, which is all it needs); the others keep the
    // offset the solve left, with the sub-spacing motion the position cannot hold. Without
    // tethers, self-collision, other cloths and colliders nothing moved a position since
    // writePositionsFromOffsets() set it to origin + offset, and the pass is skipped.
    Vec3 *offset = cache.offset.data();
    const Vec3 *origin = cache.origin.data();
    const bool contacts = cloth.tetherStretch > 0.f || ctx.solver.selfCollision || ctx.surfaces != nullptr
        || ctx.colliderCount != 0;
    for (std::size_t i = 0; contacts && i < n; ++i) {
        if (p.invMass[i] != 0.f && !(p.position[i] == origin[i] + offset[i]))
            offset[i] = p.position[i] - origin[i];
    }

    // v = (x - x_prev)/dt on offsets, written as the predicted velocity plus the correction
    // the solve made: offsetPrev + v_pred dt repeats the prediction's float operations
    // exactly, so a particle nothing acted on keeps v_pred bit for bit.
    const float invDt = 1.f / dt;
    for (std::size_t i = 0; i < n; ++i) {
        if (p.invMass[i] == 0.f)
            continue;
        const Vec3 predicted = cache.offsetPrev[i] + cache.preVelocity[i] * dt;
        p.velocity[i] = cache.preVelocity[i] + (offset[i] - predicted) * invDt;
    }
    if (ctx.colliderCount != 0)
        applyRestitution(cloth, cache, ctx.collidersAt(substep), ctx.dt, ctx.restingSpeed(), false);
    const std::uint64_t revision = cache.revision;
    tearAfterSubstep(cloth, cache, ctx, stats);
    // A tear or split changed the constraints (and maybe the particle count): restart the
    // frame-local positions from here, so the new layout is built on consistent origins.
    if (cache.revision != revision || cache.origin.size() != p.size())
        beginFrameOffsets(cloth, cache);
}

} // namespace drape::detail
