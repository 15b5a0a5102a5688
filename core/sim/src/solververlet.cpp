// Position Verlet with relaxation passes: the classic cloth write-ups (Jakobsen 2001,
// "Advanced Character Physics"; the 3D Verlet cloth and tearable-cloth demos).
//
// Per substep of dt:
//   x' = x + (x - x_prev)(1 - drag) + a dt²,   a = f/m,   drag = 1 - exp(-c_air dt)
// so air damping c_air (1/s) decays velocity exactly as in the other solvers. Then
// `iterations` relaxation passes over the constraints in the colour order of the solver
// cache (as XPBD, so a colour's constraints, which share no particle, are relaxed 8 at a time
// from the same streams: verletbatch.cpp); each moves both ends along the error, weighted by inverse mass
// (half each for equal masses):
//   Δ = (|d| - L) / |d| · d · s,   x_a += w_a/(w_a+w_b) Δ,   x_b -= w_b/(w_a+w_b) Δ.
// Compliance maps to the relaxation factor s = (w_a+w_b) / (w_a+w_b + α/dt²), the weight of
// the first XPBD iteration: rigid constraints (α = 0, the write-ups' default) get s = 1, and
// with one pass per substep a compliant constraint behaves exactly like XPBD's. With several
// passes a compliant constraint gets stiffer (no multiplier is accumulated). Constraint
// damping is not used by this solver; air damping is.
//
// Bending (sim/bending.h) is relaxed after the distance constraints in each pass, the same
// way: the first XPBD iteration of each per-triangle patch constraint (bendingsolve.h).
//
// Velocity is implicit in x - x_prev. The recurrence is evaluated in the algebraically
// identical form u = (x - x_prev)/dt, u' = u (1 - drag) + a dt, x' = x + u' dt, with u kept
// in Particles::velocity and updated by the relaxation's displacement (u += Δx/dt). Taking
// x - x_prev from two floats would lose the velocity to cancellation once positions are
// metres from the origin and dt is small (ε|x|/dt ≈ 1e-4 m/s per substep at 10 m, 600 Hz).
// Positions are integrated and relaxed as frame-local offsets (ClothSolverCache::origin),
// so substep displacements far below the float spacing of a position are kept.
// On the first frame the history is started to second order, u = v0 + ½ a dt (i.e.
// x_prev = x - v0 dt + ½ a dt²), so free fall follows x0 + v0 t + ½ a t² exactly. Since every
// solver leaves v = (x - x_prev)/dt of its last substep, switching into or out of Verlet
// keeps the motion as it was (no energy injected).
#include "bendingsolve.h"
#include "collision.h"
#include "forces.h"
#include "solver.h"
#include "tensionrecord.h"

#include <algorithm>
#include <cmath>

namespace drape::detail {

namespace {

// `passes` relaxation passes over every constraint, colour by colour (verletbatch.cpp);
// returns the projections done.
std::uint64_t relax(const Cloth &cloth, ClothSolverCache &cache, float invDt2, int passes)
{
    relaxVerletPass(cache.xpbd, cache.offset.data(), cloth.particles.invMass.data(), invDt2,
        cloth.particles.size(), solverTeam(cache), passes);
    return cache.constraintCount * std::uint64_t(passes);
}

} // namespace

void stepVerlet(Cloth &cloth, ClothSolverCache &cache, const FrameContext &ctx, StepStats &stats)
{
    const float dt = float(ctx.dt);
    // x' = x + (x - x_prev)(1 - drag) + a dt², with (x - x_prev)/dt = velocity.
    // decay = 1 - drag
    Prediction predict { airDampingFactor(ctx.world.airDamping, ctx.dt), dt, true, 1.f, ctx.world.gravity };
    const float invDt2 = 1.f / (dt * dt);
    const bool fresh = !cache.started;
    beginKinematics(cloth, cache);
    const bool plain = plainFrame(cloth, cache, ctx); // see stepXpbd
    const bool planar = beginPositionFrame(cloth, cache, ctx); // PlainPlanes
    PlainPlanes planes;
    for (int s = 0; s < ctx.substeps; ++s) {
        const double t = ctx.time + double(s) * ctx.dt;
        if (!planar)
            moveKinematics(cloth, cache, s, ctx);
        predict.startFactor = (s == 0 && fresh) ? 0.5f : 1.f;
        if (planar) {
            planarSubstep(cloth, cache, ctx, predict, s, planes);
        } else if (plain && s > 0) {
            plainSubstep(cloth, cache, predict);
        } else {
            takeExternalForces(cloth, cache, ctx.world, t);
            predictSubstep(cloth, cache, predict, false);
        }

        // Rest lengths and stiffness were refreshed by Simulation::step() (checkFrame, when the
        // records changed), and a tear in the previous substep rebuilt the streams (and
        // restarted the origins).
        const bool stale = cache.xpbd.staleFor(dt, true);
        if (stale)
            refreshVerletBatches(cloth, dt, cache.xpbd, solverTeam(cache));
        if (s == 0 || stale)
            setXpbdSpans(cache.xpbd, planar ? cloth.particles.position.data() : cache.origin.data(),
                solverTeam(cache));
        std::fill(cache.xpbd.lambda.begin(), cache.xpbd.lambda.end(), 0.f);
        if (planar) {
            relaxVerletPlanes(cache.xpbd, planes.offset, cloth.particles.invMass.data(), invDt2,
                solverTeam(cache), ctx.solver.iterations);
            stats.projections += cache.constraintCount * std::uint64_t(ctx.solver.iterations);
        } else if (!bends(cloth.bending)) {
            // Nothing between the passes: back to back on the vector kernels' planes (see stepXpbd).
            stats.projections += relax(cloth, cache, invDt2, ctx.solver.iterations);
        } else {
            for (int it = 0; it < ctx.solver.iterations; ++it) {
                stats.projections += relax(cloth, cache, invDt2, 1);
                stats.projections += solveBending(cache.bending, cache.bendSchedule, cloth.bending,
                    cloth.particles.invMass.data(), cache.origin.data(), cache.offset.data(), dt, nullptr);
            }
        }
        if (plain) {
            if (s + 1 == ctx.substeps && planar)
                holdPlainFrame(cache, ctx, dt); // committed by Simulation::step
            else if (s + 1 == ctx.substeps)
                finishPlainFrame(cloth, cache, dt);
        } else {
            writePositionsFromOffsets(cloth, cache);
        }
        // The passes' corrections as forces (tension.cpp). Only tearing reads them within a
        // frame; without it the last substep's sums stay in the streams, made into the
        // tension when something asks for it (Simulation::constraintTensions).
        if (cache.tears(cloth))
            recordVerletTension(cloth, cache, solverTeam(cache));
        else if (s + 1 == ctx.substeps)
            keepVerletTension(cloth, cache);
        if (plain)
            continue;
        applyTethers(cloth, cache); // on positions; finishPositionSubstep() takes their offsets back

        finishPositionSubstep(cloth, cache, ctx, s, dt, stats);
    }
}

} // namespace drape::detail
