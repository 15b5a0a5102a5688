// External forces on a cloth: gravity, air damping and wind with deterministic gusts.
#pragma once

#include "sim/cloth.h"
#include "sim/settings.h"

namespace drape {

/// Gust noise in [-1, 1]: smooth value noise over time (s × Hz), seeded, deterministic.
float gustNoise(std::uint32_t seed, double x);

/// The wind velocity (m/s) at simulation time t, gusts included.
Vec3 windVelocity(const WindSettings &wind, double t);

/// Per-substep velocity factor of linear air damping c (1/s) over dt: exp(-c dt), the exact
/// solution of dv/dt = -c v (so the result does not depend on the substep count).
float airDampingFactor(float airDamping, double dt);

/// True when the wind acts on the cloth (it blows and the cloth has triangles): its external
/// forces are then more than gravity, and vary from particle to particle beyond m g.
bool windActs(const Cloth &cloth, const WorldSettings &world);

/// Sets `force` (N, one per particle, resized to the cloth's) to gravity (m g) plus the
/// aerodynamic force of the wind on the triangles at time t, using the particles' current
/// velocities. Static and kinematic particles receive forces too (the solvers ignore them
/// through inverse mass 0).
void accumulateExternalForces(
    const Cloth &cloth, const WorldSettings &world, double t, std::vector<Vec3> &force);

/// Adds the wind force on each triangle to `force` (one per particle), shared a third per
/// corner (see forces.cpp).
void addWindForces(const Cloth &cloth, const WindSettings &wind, const Vec3 &windVel, Vec3 *force);

namespace detail {

/// The factors of addWindForces that are the same for every triangle.
struct WindFactors {
    Vec3 wind; ///< m/s, the wind's velocity
    float halfRhoDrag = 0.f; ///< ½ ρ C_d
    float halfRhoLift = 0.f; ///< ½ ρ C_l
    bool lift = false; ///< C_l > 0
};

/// addWindForces for the first triangles of `triangles`, eight at a time in AVX2, with the
/// same bits (windavx2.cpp); returns how many it did (the rest are fewer than eight). Only
/// call when xpbdKernelIsa() >= KernelIsa::Avx2.
std::size_t addWindForcesAvx2(const Triangle *triangles, std::size_t count, const Vec3 *position,
    const Vec3 *velocity, Vec3 *force, const WindFactors &factors);

} // namespace detail

} // namespace drape
