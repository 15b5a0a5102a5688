// XPBD cloth solver.
//
// Design note
// -----------
// Extended position-based dynamics (Macklin, Müller, Chentanez 2016, "XPBD: Position-Based
// Simulation of Compliant Constrained Dynamics") with the substepping of Macklin et al. 2019
// ("Small Steps in Physics Simulation"): a frame of 1/frameRate s is split into `substeps`
// substeps of dt, each doing
//
//   1. predict      v = v exp(-c_air dt) + dt f/m;  x_prev = x;  x += dt v
//   2. solve        `iterations` Gauss-Seidel passes over the distance constraints,
//                   with λ reset to 0 at the start of the substep
//   3. collide      self-collision, then colliders (position projection + friction)
//   4. velocities   v = (x - x_prev) / dt, then restitution on contacts
//   5. tear         remove or split overstretched constraints (cloth.tearMode)
//
// Each distance constraint C = |x_a - x_b| - L with compliance α (m/N) and damping c
// (N·s/m) takes the step of Macklin 2016 eq. 18 with the damping term of §3.5 (eq. 26):
//
//   α̃ = α / dt²,   γ = α̃ β̃ / dt = α c / dt,
//   Δλ = (-C - α̃ λ - γ ∇C·(x - x_prev)) / ((1 + γ)(w_a + w_b) + α̃),
//   x_a += w_a Δλ n,  x_b -= w_b Δλ n,  n = (x_a - x_b)/|x_a - x_b|.
//
// One iteration per substep is the pairing Macklin 2019 recommends: many cheap substeps
// converge better than many iterations of one large step, and with α̃ = α/dt² the static
// stretch of a compliant constraint tends to the physical m g α regardless of iterations.
//
// Bending (sim/bending.h) follows the distance constraints in every iteration: one
// Gauss-Seidel pass over the per-triangle patches, C = the triangle's shape operator from its
// hinges' dihedral angles, compliance 1/(B A_T) per component (bendingsolve.h).
//
// Order and layout: constraints are visited in the colouring order kept in the
// solver cache (colour by colour, each grouped into blocks by buildXpbdBatches). The order is fixed by
// the topology alone, so runs are bit-identical. Constraints of one colour share no particle,
// so each colour is solved from padded structure-of-arrays streams 8 lanes at a time
// (xpbdbatch.h: gather or window loads, vectorised sqrt/division, scatter or window stores;
// AVX2 chosen at run time) and, on
// large cloths, by two threads claiming chunks of a colour (xpbdworker.h). Both give the
// same bits as visiting the constraints one by one. Prediction and projection work on
// frame-local offsets (ClothSolverCache::origin; each slot keeps x_a - x_b at the frame
// origin as its `span`), so a substep's displacement is never rounded to the float spacing
// of a position far from the world origin. No allocation happens inside a step
// once the cache is built.
#include "bendingsolve.h"
#include "collision.h"
#include "forces.h"
#include "solver.h"
#include "tensionrecord.h"
#include "xpbdkernel.h"

#include <algorithm>
#include <cmath>

namespace drape::detail {

namespace {

// `passes` Gauss-Seidel passes over all constraints, colour by colour; returns projections done.
std::uint64_t solveDistanceConstraints(Cloth &cloth, ClothSolverCache &cache, int passes)
{
    Particles &p = cloth.particles;
    solveXpbdPass(cache.xpbd, cache.offset.data(), cache.offsetPrev.data(), p.invMass.data(), p.size(),
        solverTeam(cache), passes);
    return cache.constraintCount * std::uint64_t(passes);
}

} // namespace

void stepXpbd(Cloth &cloth, ClothSolverCache &cache, const FrameContext &ctx, StepStats &stats)
{
    Particles &p = cloth.particles;
    const float dt = float(ctx.dt);
    const Prediction predict { airDampingFactor(ctx.world.airDamping, ctx.dt), dt, false, 1.f,
        ctx.world.gravity };
    beginKinematics(cloth, cache);
    // Without contacts, wind or tearing the particle passes between two solves fold into one
    // (plainSubstep), and positions are written once, at the end of the frame.
    const bool plain = plainFrame(cloth, cache, ctx);
    // With self-collision as the only thing acting between solves, the substeps but the last
    // end with the self-collision pass on positions and fold the rest of their end into the
    // next one's prediction, as a plain frame does (the same bits as the unfolded substeps).
    const bool selfOnly = !plain && ctx.solver.selfCollision && plainButSelfCollision(cloth, cache, ctx);
    const bool planar = beginPositionFrame(cloth, cache, ctx); // PlainPlanes
    PlainPlanes planes;
    for (int s = 0; s < ctx.substeps; ++s) {
        const double t = ctx.time + double(s) * ctx.dt;
        if (!planar)
            moveKinematics(cloth, cache, s, ctx);
        if (planar) {
            planarSubstep(cloth, cache, ctx, predict, s, planes);
        } else if ((plain || selfOnly) && s > 0) {
            plainSubstep(cloth, cache, predict); // gravity alone: the forces are the first substep's
        } else {
            takeExternalForces(cloth, cache, ctx.world, t);
            predictSubstep(cloth, cache, predict, true);
        }

        // Simulation::step() refreshed the compliance and damping the user may retune between
        // frames (checkFrame, when the records changed); a tear in the previous substep rebuilt the streams and
        // restarted the origins, so both are taken again.
        const bool stale = cache.xpbd.staleFor(dt, false);
        if (stale)
            refreshXpbdBatches(cloth, dt, cache.xpbd, solverTeam(cache));
        if (s == 0 || stale)
            setXpbdSpans(cache.xpbd, planar ? cloth.particles.position.data() : cache.origin.data(),
                solverTeam(cache));
        cache.xpbd.lambdaZero = true; // λ = 0 at the start of the substep
        // One iteration, and neither a tear nor the readout will read this substep's λ.
        cache.xpbd.lambdaUnread = ctx.solver.iterations == 1 && s + 1 < ctx.substeps && !cache.tears(cloth);
        std::fill(cache.bendLambda.begin(), cache.bendLambda.end(), 0.f);
        if (planar) {
            solveXpbdPlanes(cache.xpbd, planes.offset, planes.offsetPrev, p.invMass.data(), solverTeam(cache),
                ctx.solver.iterations);
            stats.projections += cache.constraintCount * std::uint64_t(ctx.solver.iterations);
        } else if (!bends(cloth.bending)) {
            // Nothing between the passes: they run back to back on the planes of the AVX2
            // kernels (solveXpbdPass), the same bits as one call per iteration.
            stats.projections += solveDistanceConstraints(cloth, cache, ctx.solver.iterations);
        } else {
            for (int it = 0; it < ctx.solver.iterations; ++it) {
                stats.projections += solveDistanceConstraints(cloth, cache, 1);
                stats.projections += solveBending(cache.bending, cache.bendSchedule, cloth.bending,
                    p.invMass.data(), cache.origin.data(), cache.offset.data(), dt, cache.bendLambda.data());
            }
        }
        cache.xpbd.lambdaZero = false;
        cache.xpbd.lambdaUnread = false;
        if (plain) {
            if (s + 1 == ctx.substeps) {
                if (planar)
                    holdPlainFrame(cache, ctx, dt); // committed by Simulation::step
                else
                    finishPlainFrame(cloth, cache, dt);
                keepXpbdTension(cloth, cache, dt); // made on request (Simulation::constraintTensions)
            }
            continue;
        }
        if (selfOnly && s + 1 < ctx.substeps) {
            writePositions(cloth, cache);
            selfCollide(cloth, cache, ctx);
            takeSelfContactOffsets(cloth, cache);
            continue;
        }
        writePositionsFromOffsets(cloth, cache);
        // -λ/Δt² of this substep (tension.cpp). Only tearing reads it within a frame; without
        // it the last substep's multipliers stay in the streams, and the tension is made from
        // them when something asks for it (Simulation::constraintTensions).
        if (cache.tears(cloth))
            recordXpbdTension(cloth, cache, dt, solverTeam(cache));
        else if (s + 1 == ctx.substeps)
            keepXpbdTension(cloth, cache, dt);
        applyTethers(cloth, cache); // on positions; finishPositionSubstep() takes their offsets back

        finishPositionSubstep(cloth, cache, ctx, s, dt, stats);
    }
}

} // namespace drape::detail
