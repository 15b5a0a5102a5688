// Position Verlet with relaxation passes: the classic cloth write-ups (Jakobsen 2001,
// "Advanced Character Physics"; the 3D Verlet cloth and tearable-cloth demos).
//
// Per substep of dt:
//   x' = x + (x - x_prev)(1 - drag) + a dt²,   a = f/m,   drag = 1 - exp(-c_air dt)
// so air damping c_air (1/s) decays velocity exactly as in the other solvers. Then
// `iterations` relaxation passes over the constraints in their list order; each moves both
// ends along the error, weighted by inverse mass (half each for equal masses):
//   Δ = (|d| - L) / |d| · d · s,   x_a += w_a/(w_a+w_b) Δ,   x_b -= w_b/(w_a+w_b) Δ.
// Compliance maps to the relaxation factor s = (w_a+w_b) / (w_a+w_b + α/dt²), the weight of
// the first XPBD iteration: rigid constraints (α = 0, the write-ups' default) get s = 1, and
// with one pass per substep a compliant constraint behaves exactly like XPBD's. With several
// passes a compliant constraint gets stiffer (no multiplier is accumulated). Constraint
// damping is not used by this solver; air damping is.
//
// Velocity is implicit in x - x_prev. On the first frame the history is started to second
// order, x_prev = x - v dt + ½ a dt², so free fall follows x0 + v0 t + ½ a t² exactly;
// after another solver (or a change of dt) it is rebuilt as x_prev = x - v dt, which keeps
// the velocity the previous solver left (no energy injected on a switch).
#include "collision.h"
#include "forces.h"
#include "solver.h"

#include <cmath>

namespace drape::detail {

namespace {

std::uint64_t relax(Cloth &cloth, float dt)
{
    Particles &p = cloth.particles;
    Vec3 *x = p.position.data();
    const float *w = p.invMass.data();
    const float invDt2 = 1.f / (dt * dt);
    for (const DistanceConstraint &c : cloth.constraints) {
        const float wSum = w[c.a] + w[c.b];
        if (wSum == 0.f)
            continue;
        const Vec3 d = x[c.b] - x[c.a];
        const float len = length(d);
        if (len < 1e-9f)
            continue;
        const float stiffness = wSum / (wSum + c.compliance * invDt2);
        const Vec3 corr = d * ((len - c.restLength) / (len * wSum) * stiffness);
        x[c.a] += corr * w[c.a];
        x[c.b] -= corr * w[c.b];
    }
    return cloth.constraints.size();
}

} // namespace

void stepVerlet(Cloth &cloth, ClothSolverCache &cache, const FrameContext &ctx, StepStats &stats)
{
    Particles &p = cloth.particles;
    const float dt = float(ctx.dt);
    const float keep = airDampingFactor(ctx.world.airDamping, ctx.dt); // 1 - drag
    const bool history = cache.verletHistory && cache.verletDt == ctx.dt;
    const bool fresh = !cache.endValid;
    beginKinematics(cloth, cache);
    for (int s = 0; s < ctx.substeps; ++s) {
        const double t = ctx.time + double(s) * ctx.dt;
        moveKinematics(cloth, cache, s, ctx);
        accumulateExternalForces(cloth, ctx.world, t);

        const std::size_t n = p.size();
        for (std::size_t i = 0; i < n; ++i) {
            if (p.kind[i] == ParticleKind::Kinematic)
                continue;
            if (p.invMass[i] == 0.f) {
                p.previous[i] = p.position[i];
                p.velocity[i] = {};
                continue;
            }
            const Vec3 a = p.force[i] * p.invMass[i];
            if (s == 0 && !history) {
                p.previous[i] = p.position[i] - p.velocity[i] * dt;
                if (fresh)
                    p.previous[i] += a * (0.5f * dt * dt);
            }
            const Vec3 x = p.position[i];
            const Vec3 next = x + (x - p.previous[i]) * keep + a * (dt * dt);
            cache.preVelocity[i] = (next - x) / dt;
            p.previous[i] = x;
            p.position[i] = next;
        }

        for (int it = 0; it < ctx.solver.iterations; ++it)
            stats.projections += relax(cloth, dt);

        selfCollide(cloth, cache, ctx);
        projectColliders(cloth, cache, ctx.collidersAt(s), ctx.colliderCount, ctx.dt, true);

        const float invDt = 1.f / dt;
        for (std::size_t i = 0; i < n; ++i) {
            if (p.invMass[i] != 0.f)
                p.velocity[i] = (p.position[i] - p.previous[i]) * invDt;
        }
        if (ctx.colliderCount)
            applyRestitution(cloth, cache, ctx.collidersAt(s), ctx.dt, ctx.restingSpeed(), true);
        tearAfterSubstep(cloth, cache, ctx, stats);
    }
    cache.verletHistory = true;
    cache.verletDt = ctx.dt;
}

} // namespace drape::detail
