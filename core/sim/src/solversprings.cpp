// Spring-mass solver: Hooke springs with explicit time integration (Provot 1995, "Deformation
// Constraints in a Mass-Spring Model to Describe Rigid Cloth Behavior"; the spring-mass
// fabric write-ups).
//
// Every distance constraint is a spring of stiffness k = 1/compliance (N/m) with damping c
// (N·s/m) along it:
//   f_a = k (|d| - L) n + c ((v_b - v_a)·n) n,   f_b = -f_a,   d = x_b - x_a, n = d/|d|,
// plus gravity, wind and fluid (air) damping -c_air m v, and the force of the bending energy
// E = ½ A_T Σ_k B_k C_k² of every triangle patch (sim/bending.h), f_j = −A_T Σ_k B_k C_k ∇_j C_k
// (bendingsolve.h; the stability bound below counts its stiffness too). Substeps are sub-frames of dt.
// Integrators (solver.integrator):
//   semi-implicit Euler  v += dt f/m;  x += dt v      (symplectic; stable for ω dt < 2)
//   explicit Euler       x += dt v;    v += dt f/m    (textbook; grows without damping)
//
// Rigid constraints (compliance 0) have no finite k. They get the fallback stiffness
//   k = 1 / (2 dt² max(w_a n_a, w_b n_b)),  n = number of constraints at the particle,
// the largest value for which the Gershgorin bound on the highest eigenfrequency,
// ω_max² ≤ max_i 2 w_i Σ_j k_ij, keeps ω_max dt ≤ 1 whatever the other rigid springs are.
//
// Stability: semi-implicit Euler is stable while every mode has ω dt < 2. Before each frame
// checkSpringStability() bounds ω_max with Gershgorin's theorem and refuses to step past the
// limit, naming the particle and the substeps that fix it; whatever the bound cannot foresee
// (explicit Euler's slow growth, large rotations) is caught after the frame by the maxSpeed
// / finiteness check in Simulation and rolled back.
//
// Tethers (Kim, Chentanez, Müller 2012) and contacts with other cloths are position
// projections, as in the position-based solvers; after each integration step they move the
// particles they hold, and such a particle takes the velocity the move implies, v += Δx/dt
// (so v = (x − x_prev)/dt after semi-implicit Euler): the motion that broke the limit stops
// instead of being carried into the next step. They add no force, so the stability bound is
// the springs' alone.
#include "bendingsolve.h"
#include "sim/clothcollision.h"
#include "collision.h"
#include "forces.h"
#include "solver.h"
#include "tensionrecord.h"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace drape::detail {

void computeSpringStiffness(const Cloth &cloth, ClothSolverCache &cache, double dt)
{
    const Particles &p = cloth.particles;
    cache.ensureAdjacency(cloth); // the particles' degrees
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

// The largest solver.substeps the settings allow (validate(SolverSettings)).
constexpr int kMaxSpringSubsteps = 1000;

std::string checkSpringStability(const Cloth &cloth, ClothSolverCache &cache, const FrameContext &ctx)
{
    computeSpringStiffness(cloth, cache, ctx.dt);
    const Particles &p = cloth.particles;
    const double dt = ctx.dt;
    cache.stiffnessSum.assign(p.size(), 0.f);
    cache.dampingSum.assign(p.size(), 0.f);
    for (std::size_t c = 0; c < cloth.constraints.size(); ++c) {
        const DistanceConstraint &k = cloth.constraints[c];
        cache.stiffnessSum[k.a] += cache.springStiffness[c];
        cache.stiffnessSum[k.b] += cache.springStiffness[c];
        cache.dampingSum[k.a] += k.damping;
        cache.dampingSum[k.b] += k.damping;
    }
    addBendingStiffnessBound(cache.bending, cloth.bending, p.rest, cache.stiffnessSum);
    // Gershgorin: every eigenfrequency of M⁻¹K satisfies ω² <= max_i 2 w_i Σ_j k_ij, and
    // every damping rate is <= max_i 2 w_i Σ_j c_ij. Below 2/dt for both, semi-implicit
    // Euler cannot blow up from stiffness. The bound is tight for chains (the alternating
    // mode of a chain has ω² = 4k/m exactly) and at most √2 high in ω for grids, so it may
    // ask for up to ~40% more substeps than strictly needed; the per-spring value
    // ω² = k(w_a + w_b), a lower bound, misses the chain modes by √2 and let edges of fine
    // grids blow up.
    double worst = 0.0;
    std::size_t worstParticle = 0;
    bool dampingProblem = false;
    for (std::size_t i = 0; i < p.size(); ++i) {
        const double w = double(p.invMass[i]);
        const double omegaDt = std::sqrt(2.0 * w * double(cache.stiffnessSum[i])) * dt;
        const double dampDt = 2.0 * w * double(cache.dampingSum[i]) * dt;
        if (std::max(omegaDt, dampDt) > worst) {
            worst = std::max(omegaDt, dampDt);
            worstParticle = i;
            dampingProblem = dampDt > omegaDt;
        }
    }
    if (worst <= 2.0)
        return {};
    // Substeps that bring ω·dt to 1.8 (a margin under 2). Computed in double and compared
    // with the allowed range before any conversion to int: a stiff spring on a light particle
    // asks for 10¹⁶ substeps, which no int holds and no setting reaches.
    const double needed = std::ceil(double(ctx.substeps) * worst / 1.8);
    std::ostringstream msg;
    msg << "particle " << worstParticle << ": substep " << dt
        << " s is past the springs solver's stability limit (";
    if (dampingProblem)
        msg << "spring damping " << cache.dampingSum[worstParticle] << " N·s/m on " << p.mass[worstParticle]
            << " kg gives 2c·dt/m = " << worst;
    else
        msg << "spring stiffness " << cache.stiffnessSum[worstParticle] << " N/m on " << p.mass[worstParticle]
            << " kg gives ω·dt up to " << worst;
    msg << ", must be at most 2); ";
    if (needed <= double(kMaxSpringSubsteps))
        msg << "raise solver.substeps to at least " << int(needed) << ", soften the material or use the xpbd solver";
    else
        msg << "no solver.substeps up to " << kMaxSpringSubsteps
            << " can make it stable; soften the material, make the particles heavier or use the xpbd solver";
    return msg.str();
}

namespace {

std::uint64_t addSpringForces(Cloth &cloth, ClothSolverCache &cache)
{
    Particles &p = cloth.particles;
    const Vec3 *x = p.position.data();
    const Vec3 *v = p.velocity.data();
    Vec3 *f = cache.force.data();
    resetTension(cloth, cache);
    float *tension = cache.tension.data();
    // The stored records and their materials, read without marking them written (and
    // without making a whole DistanceConstraint of each, every substep), a run at a time.
    const ConstraintMaterial *materials = cloth.constraints.materials().data();
    cloth.constraints.forEachPacked([&](std::size_t c, const PackedConstraint &k) {
        // Length and stretch in double: see the note in solverxpbd.cpp.
        const double dx = double(x[k.b].x) - double(x[k.a].x);
        const double dy = double(x[k.b].y) - double(x[k.a].y);
        const double dz = double(x[k.b].z) - double(x[k.a].z);
        const double len = std::sqrt(dx * dx + dy * dy + dz * dz);
        if (len < 1e-9)
            return;
        const Vec3 n { float(dx / len), float(dy / len), float(dz / len) };
        const float stretch = float(len - double(k.restLength));
        const float closing = dot(v[k.b] - v[k.a], n);
        tension[c] = cache.springStiffness[c] * stretch; // Hooke's force, N
        const Vec3 fa = n * (tension[c] + materials[k.material()].damping * closing);
        f[k.a] += fa;
        f[k.b] -= fa;
    });
    return cloth.constraints.size();
}

// Tethers and other cloths after an integration step, with the velocity their moves imply.
// The springs keep no frame-local positions, so ClothSolverCache::offset holds the positions
// before the projections here.
void projectWithVelocity(Cloth &cloth, ClothSolverCache &cache, const FrameContext &ctx, float dt)
{
    if (!(cloth.tetherStretch > 0.f) && !ctx.surfaces)
        return;
    Particles &p = cloth.particles;
    std::vector<Vec3> &before = cache.offset;
    before.assign(p.position.begin(), p.position.end());
    applyTethers(cloth, cache);
    if (ctx.surfaces)
        collideWithOtherCloths(cloth, ctx.clothIndex, *ctx.surfaces);
    const float invDt = 1.f / dt;
    for (std::size_t i = 0; i < p.size(); ++i) {
        if (p.invMass[i] != 0.f && !(p.position[i] == before[i]))
            p.velocity[i] += (p.position[i] - before[i]) * invDt;
    }
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
        // The springs add their forces to the external ones: they are kept whatever acts.
        std::vector<Vec3> &force = cache.force;
        accumulateExternalForces(cloth, ctx.world, t, force);
        const std::size_t n = p.size();
        for (std::size_t i = 0; i < n; ++i)
            force[i] -= p.velocity[i] * (ctx.world.airDamping * p.mass[i]); // fluid damping
        if (cache.springStiffness.size() != cloth.constraints.size())
            computeSpringStiffness(cloth, cache, ctx.dt); // topology changed inside the frame
        stats.projections += addSpringForces(cloth, cache);
        stats.projections += addBendingForces(cache.bending, cloth.bending, p.position.data(), force.data());

        for (std::size_t i = 0; i < n; ++i) {
            if (p.kind[i] == ParticleKind::Kinematic)
                continue;
            if (p.invMass[i] == 0.f) {
                p.previous[i] = p.position[i];
                p.velocity[i] = {};
                continue;
            }
            const Vec3 a = force[i] * p.invMass[i];
            p.previous[i] = p.position[i];
            if (explicitEuler) {
                p.position[i] += p.velocity[i] * dt;
                p.velocity[i] += a * dt;
            } else {
                p.velocity[i] += a * dt;
                p.position[i] += p.velocity[i] * dt;
            }
        }

        projectWithVelocity(cloth, cache, ctx, dt);
        selfCollide(cloth, cache, ctx);
        projectColliders(cloth, cache, ctx.collidersAt(s), ctx.colliderCount, ctx.dt, false);
        if (ctx.colliderCount)
            applyContactVelocities(cloth, cache, ctx.collidersAt(s), ctx.restingSpeed(), ctx.dt);
        tearAfterSubstep(cloth, cache, ctx, stats);
    }
}

} // namespace drape::detail
