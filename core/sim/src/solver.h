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

/// The check that runs before every frame in place of Cloth::validate(), and the refresh of
/// the parameters the user may retune between frames: the particle arrays in one branch-free
/// pass (Cloth::validExceptConstraints), then the constraints, checked while the XPBD or
/// Verlet streams are refreshed from them for the frame's substep (one pass over them
/// instead of two), or on their own for the springs solver and for a topology the cache has
/// not laid out yet. False when something is invalid: Cloth::validate() then names it.
bool checkFrame(const Cloth &cloth, ClothSolverCache &cache, const SolverSettings &solver);

/// The worker thread a cloth's passes share this frame, or null for one thread
/// (XpbdWorkerSlot::forCloth: large cloths, when the machine has a core to spare).
inline XpbdWorker *solverTeam(ClothSolverCache &cache)
{
    if (cache.constraintCount == ~std::size_t(0))
        return nullptr; // not laid out yet (ClothSolverCache::ensure)
    return cache.xpbdWorker.forCloth(cache.constraintCount);
}

/// body(begin, end) over particles [0, count), shared with the cloth's worker thread when
/// it has one. For per-particle passes only: each particle's result must depend on nothing
/// another particle of the pass writes. Ranges start at multiples of 16 particles, so Vec3
/// arrays split on cache-line multiples (16 × 12 bytes = 3 lines).
template <typename Body> void forParticles(ClothSolverCache &cache, std::size_t count, Body &&body)
{
    forRanges(solverTeam(cache), count, 16, body);
}

// Shared pieces of every solver's substep.

/// Frame start: remembers where kinematic particles were at the end of the last frame and
/// where they were moved to since, and puts them back at the start of that motion.
void beginKinematics(Cloth &cloth, ClothSolverCache &cache);
/// Before the simulation's snapshot of the frame start replaces `lastEnd` (where the last
/// frame left every particle): keeps that of the particles that are kinematic now, for
/// beginKinematics; none unless a frame was stepped since the last state load or rollback
/// (ClothSolverCache::endValid) and the particle count is the same.
void keepKinematicEnds(const Particles &p, ClothSolverCache &cache, const std::vector<Vec3> &lastEnd);
/// Places kinematic particles on their path for substep s (previous = start of the substep)
/// and gives them the velocity of that motion, and their offsets from the frame's origin when
/// the frame keeps them as Vec3 (beginFrameOffsets()).
void moveKinematics(Cloth &cloth, ClothSolverCache &cache, int substep, const FrameContext &ctx);
/// moveKinematics() without the offsets, for substep s of `substeps` in a frame of `frameDt`:
/// Particles alone.
void placeKinematics(Cloth &cloth, const ClothSolverCache &cache, int substep, int substeps, double frameDt);
/// Frame start of a position-based solver (after beginKinematics): origin = position,
/// offset = 0 (frame-local positions, see ClothSolverCache::origin), in the Vec3 arrays
/// (ClothSolverCache::offset, offsetPrev; preVelocity sized for the predictions).
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
/// How a position-based solver turns the carried velocity v into the velocity of a substep
/// (prediction): XPBD `v decay + f (w dt)`, Verlet `v keep + (f w)(startFactor dt)`. Two
/// spellings because each rounds its own way and both are pinned by golden hashes.
struct Prediction {
    float decay = 1.f; ///< exp(-c_air dt)
    float dt = 0.f; ///< s
    bool verlet = false;
    float startFactor = 1.f; ///< Verlet's second-order start (0.5 on the first substep), else 1
    /// m/s², the world's gravity: a particle's force while the cache keeps none (forceOn).
    Vec3 gravity {};

    Vec3 operator()(const Vec3 &v, const Vec3 &f, float invMass) const
    {
        return verlet ? v * decay + (f * invMass) * (startFactor * dt) : v * decay + f * (invMass * dt);
    }
};

/// The external forces of a position-based substep at time t: while the wind acts on the
/// cloth, accumulateExternalForces() into cache.force; otherwise they are gravity alone and
/// cache.force is freed, so that a frame without wind keeps no array of forces: the
/// predictions take m g from the masses instead (forceOn), the same bits.
void takeExternalForces(const Cloth &cloth, ClothSolverCache &cache, const WorldSettings &world, double t);

/// Gravity laid out as the vector particle passes load W particles' Vec3 triples, in three
/// registers of W floats (float 3p + k is component k of particle p): lane j of register r
/// holds component (W r + j) mod 3. Multiplied by the masses spread the same way, it gives
/// the m g those passes would have read from an array of forces.
template <std::size_t W> struct InterleavedGravity {
    alignas(64) float lane[3][W];
    explicit InterleavedGravity(const Vec3 &g)
    {
        const float component[3] = { g.x, g.y, g.z };
        for (std::size_t r = 0; r < 3; ++r) {
            for (std::size_t j = 0; j < W; ++j)
                lane[r][j] = component[(W * r + j) % 3];
        }
    }
};

/// The force on particle i this substep (takeExternalForces).
inline Vec3 forceOn(
    const ClothSolverCache &cache, const Particles &p, const Prediction &predict, std::size_t i)
{
    return cache.force.empty() ? predict.gravity * p.mass[i] : cache.force[i];
}

/// Prediction of a position-based substep, one pass over the particles: a dynamic particle
/// gets u = predict(velocity), preVelocity = u, offsetPrev = offset, offset += u dt (and
/// velocity = u when `keepVelocity`); a static one keeps its place with zero velocity;
/// kinematic ones are left to moveKinematics().
void predictSubstep(Cloth &cloth, ClothSolverCache &cache, const Prediction &predict, bool keepVelocity);

/// writePositionsFromOffsets() and finishPositionSubstep()'s velocity update for the
/// particles from `first`, sixteen at a time (particlesavx512.cpp; static and kinematic
/// lanes are left alone), with the bits of their scalar loops. Each stops before the last
/// group that would pass n and returns how many it did. Only call when xpbdKernelIsa() >=
/// KernelIsa::Avx512.
std::size_t writePositionsSixteensAvx512(Cloth &cloth, const ClothSolverCache &cache, std::size_t first, std::size_t n);
std::size_t substepVelocitiesSixteensAvx512(
    Cloth &cloth, const ClothSolverCache &cache, float dt, float invDt, std::size_t first, std::size_t n);

/// predictSubstep()'s update of dynamic particles from `first`, sixteen at a time
/// (particlesavx512.cpp), with the bits of its scalar loop: stops before particle n or the
/// first group holding a static or kinematic particle and returns how many it did. Only call
/// when xpbdKernelIsa() >= KernelIsa::Avx512.
std::size_t predictSixteensAvx512(
    Cloth &cloth, ClothSolverCache &cache, const Prediction &predict, bool keepVelocity, std::size_t first, std::size_t n);

/// plainSubstep()'s update of dynamic particles from `first`, sixteen at a time
/// (particlesavx512.cpp), with the bits of its other loops: stops before particle n or the
/// first group holding a static or kinematic particle and returns how many it did. Only call
/// when xpbdKernelIsa() >= KernelIsa::Avx512.
std::size_t plainSubstepSixteensAvx512(
    Cloth &cloth, ClothSolverCache &cache, const Prediction &predict, std::size_t first, std::size_t n);

/// True when, in this frame, nothing but the constraint passes moves a particle or reads the
/// particles' positions and velocities between substeps: no contacts of any kind, no
/// tethers, no wind (gravity alone, so the forces stay what the first substep made them) and
/// no constraint that can tear. Such a frame is stepped with plainSubstep() and
/// finishPlainFrame() in place of writePositionsFromOffsets() and finishPositionSubstep().
bool plainFrame(const Cloth &cloth, const ClothSolverCache &cache, const FrameContext &ctx);
/// True when the frame would be plain (plainFrame()) but for self-collision: then between two
/// substeps only the self-collision pass moves particles, on positions, and the substep
/// boundary folds the same way around it (writePositions(), selfCollide(),
/// takeSelfContactOffsets(), then plainSubstep()); the last substep ends as any other.
bool plainButSelfCollision(const Cloth &cloth, const ClothSolverCache &cache, const FrameContext &ctx);
/// position = origin + offset for the particles the solver moves (previous positions are
/// left as they are: nothing reads them before the frame ends).
void writePositions(Cloth &cloth, ClothSolverCache &cache);
/// After the self-collision pass alone moved positions since they were written: each
/// dynamic particle it moved whose position is no longer origin + offset takes its offset
/// from the position (as finishPositionSubstep() does for every particle after contacts).
void takeSelfContactOffsets(Cloth &cloth, ClothSolverCache &cache);
/// A plain frame's substep boundary in one pass: the velocity of the substep just solved
/// (as finishPositionSubstep() computes it) straight into the next substep's prediction
/// (as predictSubstep() does), without storing positions or velocities in between.
void plainSubstep(Cloth &cloth, ClothSolverCache &cache, const Prediction &predict);
/// A plain frame's end: position, previous position and velocity of the last substep, the
/// values writePositionsFromOffsets() and finishPositionSubstep() would leave.
void finishPlainFrame(Cloth &cloth, ClothSolverCache &cache, float dt);

/// A plain XPBD or Verlet frame on the vector kernels keeps the particles' state in planes for
/// the whole frame (stepXpbd, stepVerlet): the offsets and the offsets at the substep's start
/// where the passes read them (XpbdBatches::planes, prevPlanes), and the carried velocities
/// beside them (ClothSolverCache::planarVelocity). Nothing else reads the frame-local state
/// within such a frame, so it needs no Vec3 copy of it (ClothSolverCache::offset, offsetPrev,
/// preVelocity stay unallocated on a cloth that only takes such frames: 36 bytes a particle),
/// the passes no longer copy the offsets into planes and back, and the substep boundary works
/// plane by plane.
///
/// Such a frame writes nothing into Particles but the kinematic particles' start
/// (beginKinematics) and the forces: the frame's origin is Particles::position itself, and the
/// frame ends held in the planes (holdPlainFrame). Simulation::step checks the held result
/// from the planes (firstUnsettledPlainFrame) and then writes it (commitPlainFrame), or drops
/// it on a rollback (dropPlainFrame), which only has the kinematic particles to put back: so
/// the frame needs neither an origin array (12 bytes a particle) nor the rollback snapshot's
/// copies of the previous positions and the velocities (24).
struct PlainPlanes {
    PlanarPositions offset, offsetPrev, velocity;
};
/// Whether this frame of an XPBD or Verlet cloth keeps its particles in planes from its start
/// to its end: a plain frame, on the AVX2 or AVX-512 kernels, without bending between the
/// passes. Call after ClothSolverCache::ensure().
bool planarFrame(const Cloth &cloth, const ClothSolverCache &cache, const FrameContext &ctx);
/// Frame start of XPBD and Verlet (after beginKinematics): planarFrame(), and
/// beginFrameOffsets() for the other frames.
bool beginPositionFrame(Cloth &cloth, ClothSolverCache &cache, const FrameContext &ctx);
/// The first substep's prediction (predictSubstep()'s, after takeExternalForces())
/// written into the planes, the velocities after prediction into the velocity planes: each
/// dynamic particle gets the same IEEE operations in the same order, so the same bits.
/// Particles are not written: Particles::velocity and the static particles are left for
/// commitPlainFrame(), the kinematic ones at a zero offset for placeKinematicPlanes().
PlainPlanes beginPlainPlanes(const Cloth &cloth, ClothSolverCache &cache, const Prediction &predict);
/// The particle pass before substep s's constraint passes in such a frame: the forces and
/// beginPlainPlanes() on the first substep, plainSubstepPlanes() on the others, then
/// placeKinematicPlanes(). (moveKinematics() is not called within the frame.)
void planarSubstep(Cloth &cloth, ClothSolverCache &cache, const FrameContext &ctx, const Prediction &predict,
    int substep, PlainPlanes &planes);
/// The offsets moveKinematics() would give the kinematic particles on substep s, written into
/// the planes; Particles are left alone.
void placeKinematicPlanes(const Cloth &cloth, const ClothSolverCache &cache, int substep,
    const FrameContext &ctx, const PlainPlanes &planes);
/// plainSubstep() on the planes: each dynamic particle gets the same IEEE operations in the
/// same order, so the same bits.
void plainSubstepPlanes(
    const Cloth &cloth, ClothSolverCache &cache, const Prediction &predict, const PlainPlanes &planes);
/// The frame's end, held in the planes (ClothSolverCache::heldFrame) for Simulation::step.
void holdPlainFrame(ClothSolverCache &cache, const FrameContext &ctx, float dt);
/// What commitPlainFrame() will leave particle i with.
ParticleEnd plainFrameEnd(const Cloth &cloth, ClothSolverCache &cache, std::uint32_t i);
/// The lowest particle in [begin, end) that commitPlainFrame() would leave with a position,
/// previous position or velocity not finite, or a speed above √maxSpeed2; `end` if none.
std::size_t firstUnsettledPlainFrame(
    const Cloth &cloth, ClothSolverCache &cache, float maxSpeed2, std::size_t begin, std::size_t end);
/// The held frame into Particles: finishPlainFrame()'s positions, previous positions and
/// velocities, bit for bit (the origin read from Particles::position), the static particles
/// in their place with zero velocity, the kinematic ones where moveKinematics() leaves them
/// after the last substep.
void commitPlainFrame(Cloth &cloth, ClothSolverCache &cache);
/// The held frame dropped (a rollback): the kinematic particles back where they were put.
void dropPlainFrame(Cloth &cloth, ClothSolverCache &cache);

/// End of a position-based substep (XPBD and Verlet, after their constraint passes):
/// self-collision, collider projection, velocities from positions, restitution, tearing.
void finishPositionSubstep(
    Cloth &cloth, ClothSolverCache &cache, const FrameContext &ctx, int substep, float dt, StepStats &stats);

} // namespace drape::detail
