// Spring-mass solver: Hooke springs with explicit time integration (Provot 1995, "Deformation
// Constraints in a Mass-Spring Model to Describe Rigid Cloth Behavior"; the spring-mass
// fabric write-ups).
//
// Every distance constraint is a spring of stiffness k = 1/compliance (N/m) with damping c
// (N·s/m) along it:
//   f_a = k (|d| - L) n + c ((v_b - v_a)·n) n,   f_b = -f_a,   d = x_b - x_a, n = d/|d|,
// plus gravity, wind and fluid (air) damping -c_air m v. Substeps are sub-frames of dt.
// Integrators (solver.integrator):
//   semi-implicit Euler  v += dt f/m;  x += dt v      (symplectic; stable for ω dt < 2)
//   explicit Euler       x += dt v;    v += dt f/m    (textbook; grows without damping)
//
// Rigid constraints (compliance 0) have no finite k. They get the fallback stiffness
//   k = 1 / (2 dt² max(w_a n_a, w_b n_b)),  n = number of constraints at the particle,
// the largest value for which the Gershgorin bound on the highest eigenfrequency,
// ω_max² ≤ max_i 2 w_i Σ_j k_ij, keeps ω_max dt ≤ 1 whatever the other rigid springs are.
//
// Stability: a single spring between a and b has ω² = k (w_a + w_b), and the stiffest mode of
// the whole cloth is at least that (Rayleigh quotient), so dt > 2/ω is certainly unstable
// for semi-implicit Euler. checkSpringStability() reports that before stepping, naming the
// constraint and the substeps needed (from the Gershgorin upper bound, so following the
// advice is enough); a blow-up the lower bound cannot see is caught after the frame by the
// maxSpeed / finiteness check in Simulation.
#include "collision.h"
#include "forces.h"
#include "solver.h"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace drape::detail {

void computeSpringStiffness(const Cloth &cloth, ClothSolverCache &cache, double dt)
{
    const Particles &p = cloth.particles;
    cache.springStiffness.resize(cloth.constraints.size());
    for (std::size_t c = 0; c < cloth.constraints.size(); ++c) {
        const DistanceConstraint &k = cloth.constraints[c];
        if (k.compliance > 0.f) {
            cache.springStiffness[c] = 1.f / k.compliance;
            continue;
        }
        const double na = double(cache.adjacencyStart[k.a + 1] - cache.adjacencyStart[k.a]);
        const double nb = double(cache.adjacencyStart[k.b + 1] - cache.adjacencyStart[k.b]);
        const double wn = std::max(double(p.invMass[k.a]) * na, double(p.invMass[k.b]) * nb);
        cache.springStiffness[c] = wn > 0.0 ? float(1.0 / (2.0 * dt * dt * wn)) : 0.f;
    }
}

std::string checkSpringStability(const Cloth &cloth, ClothSolverCache &cache, const FrameContext &ctx)
{
    computeSpringStiffness(cloth, cache, ctx.dt);
    const Particles &p = cloth.particles;
    const double dt = ctx.dt;
    // Lower bound, certain instability: one spring's own ω² = k (w_a + w_b) (and its damping
    // rate c (w_a + w_b)) already past the limit of 2/dt.
    double worst = 0.0;
    std::size_t worstIndex = 0;
    bool dampingProblem = false;
    cache.stiffnessSum.assign(p.size(), 0.f);
    cache.dampingSum.assign(p.size(), 0.f);
    for (std::size_t c = 0; c < cloth.constraints.size(); ++c) {
        const DistanceConstraint &k = cloth.constraints[c];
        const double wSum = double(p.invMass[k.a]) + double(p.invMass[k.b]);
        const double omegaDt = std::sqrt(double(cache.springStiffness[c]) * wSum) * dt;
        const double dampDt = double(k.damping) * wSum * dt;
        const double measure = std::max(omegaDt, dampDt);
        if (measure > worst) {
            worst = measure;
            worstIndex = c;
            dampingProblem = dampDt > omegaDt;
        }
        cache.stiffnessSum[k.a] += cache.springStiffness[c];
        cache.stiffnessSum[k.b] += cache.springStiffness[c];
        cache.dampingSum[k.a] += k.damping;
        cache.dampingSum[k.b] += k.damping;
    }
    if (worst <= 2.0)
        return {};
    // Upper bound for the advice (Gershgorin): ω_max² <= max_i 2 w_i Σ_j k_ij, and likewise
    // for the damping rate; the substeps suggested keep both below 1.8 (a margin under 2
    // because damping and stiffness narrow each other's stable range).
    double upper = 0.0;
    for (std::size_t i = 0; i < p.size(); ++i) {
        const double w = double(p.invMass[i]);
        upper = std::max(upper, std::sqrt(2.0 * w * double(cache.stiffnessSum[i])) * dt);
        upper = std::max(upper, 2.0 * w * double(cache.dampingSum[i]) * dt);
    }
    const DistanceConstraint &k = cloth.constraints[worstIndex];
    const int needed = int(std::ceil(double(ctx.substeps) * std::max(upper, worst) / 1.8));
    std::ostringstream msg;
    msg << "constraint " << worstIndex << " (particles " << k.a << "-" << k.b << "): substep " << dt
        << " s is past the springs solver's stability limit (";
    if (dampingProblem)
        msg << "damping " << k.damping << " N·s/m gives c(w_a+w_b)dt = " << worst;
    else
        msg << "stiffness " << cache.springStiffness[worstIndex] << " N/m gives ω·dt = " << worst;
    msg << ", must be below 2); raise solver.substeps to at least " << needed
        << ", soften the material or use the xpbd solver";
    return msg.str();
}

namespace {

std::uint64_t addSpringForces(Cloth &cloth, const ClothSolverCache &cache)
{
    Particles &p = cloth.particles;
    const Vec3 *x = p.position.data();
    const Vec3 *v = p.velocity.data();
    Vec3 *f = p.force.data();
    for (std::size_t c = 0; c < cloth.constraints.size(); ++c) {
        const DistanceConstraint &k = cloth.constraints[c];
        // Length and stretch in double: see the note in solverxpbd.cpp.
        const double dx = double(x[k.b].x) - double(x[k.a].x);
        const double dy = double(x[k.b].y) - double(x[k.a].y);
        const double dz = double(x[k.b].z) - double(x[k.a].z);
        const double len = std::sqrt(dx * dx + dy * dy + dz * dz);
        if (len < 1e-9)
            continue;
        const Vec3 n{float(dx / len), float(dy / len), float(dz / len)};
        const float stretch = float(len - double(k.restLength));
        const float closing = dot(v[k.b] - v[k.a], n);
        const Vec3 fa = n * (cache.springStiffness[c] * stretch + k.damping * closing);
        f[k.a] += fa;
        f[k.b] -= fa;
    }
    return cloth.constraints.size();
}

} // namespace

void stepSprings(Cloth &cloth, ClothSolverCache &cache, const FrameContext &ctx, StepStats &stats)
{
    Particles &p = cloth.particles;
    const float dt = float(ctx.dt);
    const bool explicitEuler = ctx.solver.integrator == SpringIntegrator::ExplicitEuler;
    beginKinematics(cloth, cache);
    for (int s = 0; s < ctx.substeps; ++s) {
        const double t = ctx.time + double(s) * ctx.dt;
        moveKinematics(cloth, cache, s, ctx);
        accumulateExternalForces(cloth, ctx.world, t);
        const std::size_t n = p.size();
        for (std::size_t i = 0; i < n; ++i)
            p.force[i] -= p.velocity[i] * (ctx.world.airDamping * p.mass[i]); // fluid damping
        if (cache.springStiffness.size() != cloth.constraints.size())
            computeSpringStiffness(cloth, cache, ctx.dt); // topology changed inside the frame
        stats.projections += addSpringForces(cloth, cache);

        for (std::size_t i = 0; i < n; ++i) {
            if (p.kind[i] == ParticleKind::Kinematic)
                continue;
            if (p.invMass[i] == 0.f) {
                p.previous[i] = p.position[i];
                p.velocity[i] = {};
                continue;
            }
            const Vec3 a = p.force[i] * p.invMass[i];
            p.previous[i] = p.position[i];
            if (explicitEuler) {
                p.position[i] += p.velocity[i] * dt;
                p.velocity[i] += a * dt;
            } else {
                p.velocity[i] += a * dt;
                p.position[i] += p.velocity[i] * dt;
            }
        }

        selfCollide(cloth, cache, ctx);
        projectColliders(cloth, cache, ctx.collidersAt(s), ctx.colliderCount, ctx.dt, false);
        if (ctx.colliderCount)
            applyContactVelocities(cloth, cache, ctx.collidersAt(s), ctx.restingSpeed());
        tearAfterSubstep(cloth, cache, ctx, stats);
    }
}

} // namespace drape::detail
