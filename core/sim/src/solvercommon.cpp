// Pieces shared by the three solvers: kinematic particles, tearing hooks, self-collision.
#include "bendingsolve.h"
#include "collision.h"
#include "forces.h"
#include "sim/clothcollision.h"
#include "sim/tearing.h"
#include "sim/vertexsplit.h"
#include "solver.h"
#include "tensionrecord.h"
#include "xpbdkernel.h"
#include "xpbdlanes.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <limits>

#include <emmintrin.h>
#include <immintrin.h>

namespace drape::detail {

bool checkFrame(const Cloth &cloth, ClothSolverCache &cache, const SolverSettings &solver)
{
    // Cloth::validExceptConstraints, its particles and triangles shared with the worker.
    if (!cloth.arraysAndSettingsValid())
        return false;
    std::atomic<bool> valuesOk { true };
    const std::size_t particles = cloth.particles.size(), triangles = cloth.triangles.size();
    forParticles(cache, particles, [&](std::uint32_t begin, std::uint32_t end) {
        // The triangles in the same proportion as the particles (a grid's are in row order too).
        const auto triangleAt = [&](std::uint32_t i) {
            return i == particles ? triangles
                                  : std::size_t(double(i) / double(particles) * double(triangles));
        };
        if (!cloth.valuesValid(begin, end, begin == 0 ? 0 : triangleAt(begin), triangleAt(end)))
            valuesOk.store(false, std::memory_order_relaxed);
    });
    if (!valuesOk.load(std::memory_order_relaxed))
        return false;
    const bool laidOut = cache.streamsLaidOut && cache.revision == cloth.topologyRevision
        && cache.particleCount == cloth.particles.size() && cache.constraintCount == cloth.constraints.size();
    const float dt = float(solver.substepDt());
    const bool verlet = solver.kind == SolverKind::Verlet;
    if (laidOut && (verlet || solver.kind == SolverKind::Xpbd)) {
        // The records are checked in record order whenever something may have written them
        // since the last check (ConstraintRecords); the refresh (which reads the records in
        // slot order, with gathers) runs only when the parameters it takes may have changed:
        // records that hash differently, another substep or solver, a layout.
        XpbdBatches &batches = cache.xpbd;
        std::uint64_t hash = 0;
        int isa = -1;
        if (!scanConstraintRecordsOnce(cloth, batches, hash, isa, solverTeam(cache)))
            return false;
        if (!batches.staleFor(dt, verlet) && batches.recordsHashIsa == isa && batches.recordsHash == hash)
            return true;
        const bool ok = verlet ? refreshVerletBatches(cloth, dt, batches, solverTeam(cache))
                               : refreshXpbdBatches(cloth, dt, batches, solverTeam(cache));
        batches.recordsHash = hash;
        batches.recordsHashIsa = ok ? isa : -1;
        return ok;
    }
    // The springs solver reads the constraints themselves; a new topology is laid out (and
    // its streams refreshed) by the step.
    bool ok = true;
    for (const DistanceConstraint &k : cloth.constraints)
        ok &= constraintValid(k, cloth.particles.size());
    return ok;
}

namespace {

// Calls f(i) for each kinematic particle i, in index order. Most frames have no kinematic
// particle, and a grab holds a few: the kinds are searched with memchr (vector compares over
// the byte array) rather than tested one by one in a loop that pushes to arrays and so does
// not vectorise (1 % of a 128² frame).
template <class F> void forEachKinematic(const Particles &p, F &&f)
{
    static_assert(sizeof(ParticleKind) == 1);
    const auto *kinds = reinterpret_cast<const unsigned char *>(p.kind.data());
    const std::size_t n = p.kind.size();
    for (std::size_t i = 0; i < n; ++i) {
        const void *next = std::memchr(kinds + i, int(ParticleKind::Kinematic), n - i);
        if (!next)
            break;
        i = std::size_t(static_cast<const unsigned char *>(next) - kinds);
        f(std::uint32_t(i));
    }
}

} // namespace

void beginKinematics(Cloth &cloth, ClothSolverCache &cache)
{
    Particles &p = cloth.particles;
    cache.kinematic.clear();
    cache.kinematicStart.clear();
    cache.kinematicTarget.clear();
    auto end = cache.kinematicEnd.cbegin();
    forEachKinematic(p, [&](std::uint32_t i) {
        // Kinematic particles were moved from outside since the last frame: interpolate from
        // where the last frame left them to where they are now, so a fast grab does not
        // teleport one substep's worth of cloth.
        const Vec3 target = p.position[i];
        while (end != cache.kinematicEnd.cend() && end->particle < i)
            ++end;
        const Vec3 start = end != cache.kinematicEnd.cend() && end->particle == i ? end->position : target;
        cache.kinematic.push_back(i);
        cache.kinematicStart.push_back(start);
        cache.kinematicTarget.push_back(target);
        p.position[i] = start;
    });
    cache.kinematicEnd.clear(); // read once: a frame stepped without keepKinematicEnds starts where they are
}

void keepKinematicEnds(const Particles &p, ClothSolverCache &cache, const std::vector<Vec3> &lastEnd)
{
    cache.kinematicEnd.clear();
    if (!cache.endValid || lastEnd.size() != p.size())
        return;
    forEachKinematic(p, [&](std::uint32_t i) { cache.kinematicEnd.push_back({ i, lastEnd[i] }); });
}

namespace {

// Substep s's path of the kinematic particles: for each one moveKinematics() places,
// place(i, where the substep starts, where it ends, start of the frame's motion, end of it).
template <typename Place>
void forKinematicPath(
    const Cloth &cloth, const ClothSolverCache &cache, int substep, int substeps, Place &&place)
{
    const Particles &p = cloth.particles;
    const float t0 = float(substep) / float(substeps);
    const float t1 = float(substep + 1) / float(substeps);
    for (std::size_t k = 0; k < cache.kinematic.size(); ++k) {
        const std::uint32_t i = cache.kinematic[k];
        if (i >= p.size() || p.kind[i] != ParticleKind::Kinematic)
            continue;
        const Vec3 &a = cache.kinematicStart[k];
        const Vec3 &b = cache.kinematicTarget[k];
        place(i, lerp(a, b, t0), lerp(a, b, t1), a, b);
    }
}

} // namespace

void placeKinematics(Cloth &cloth, const ClothSolverCache &cache, int substep, int substeps, double frameDt)
{
    Particles &p = cloth.particles;
    forKinematicPath(
        cloth, cache, substep, substeps, [&](std::uint32_t i, Vec3 from, Vec3 to, Vec3 a, Vec3 b) {
            p.previous[i] = from;
            p.position[i] = to;
            p.velocity[i] = (b - a) * float(1.0 / frameDt);
        });
}

void moveKinematics(Cloth &cloth, ClothSolverCache &cache, int substep, const FrameContext &ctx)
{
    placeKinematics(cloth, cache, substep, ctx.substeps, ctx.frameDt);
    const Particles &p = cloth.particles;
    if (cache.origin.size() != p.size() || cache.offset.size() != p.size())
        return;
    for (const std::uint32_t i : cache.kinematic) {
        if (i < p.size() && p.kind[i] == ParticleKind::Kinematic) {
            cache.offset[i] = p.position[i] - cache.origin[i];
            cache.offsetPrev[i] = p.previous[i] - cache.origin[i];
        }
    }
}

void beginFrameOffsets(Cloth &cloth, ClothSolverCache &cache)
{
    const Particles &p = cloth.particles;
    cache.origin.resize(p.size());
    cache.offset.resize(p.size());
    cache.offsetPrev.resize(p.size());
    cache.preVelocity.resize(p.size());
    forParticles(cache, p.size(), [&](std::uint32_t begin, std::uint32_t end) {
        std::copy(p.position.begin() + begin, p.position.begin() + end, cache.origin.begin() + begin);
        std::fill(cache.offset.begin() + begin, cache.offset.begin() + end, Vec3 {});
        std::fill(cache.offsetPrev.begin() + begin, cache.offsetPrev.begin() + end, Vec3 {});
    });
}

namespace {

// After contacts moved positions, for particles [begin, end): a dynamic particle whose
// position is no longer origin + offset takes its offset from the position.
void takeContactOffsetsRange(Cloth &cloth, ClothSolverCache &cache, std::size_t begin, std::size_t end)
{
    const Particles &p = cloth.particles;
    const Vec3 *origin = cache.origin.data();
    Vec3 *offset = cache.offset.data();
    for (std::size_t i = begin; i < end; ++i) {
        if (p.invMass[i] != 0.f && !(p.position[i] == origin[i] + offset[i]))
            offset[i] = p.position[i] - origin[i];
    }
}

} // namespace

namespace {

// Some of the eight inverse masses from w is 0: a static or kinematic particle, which the
// particle passes' runs of eight leave to their one-by-one loops.
__attribute__((target("avx2,fma"))) inline bool holdsStill(const float *w)
{
    return _mm256_movemask_ps(_mm256_cmp_ps(_mm256_loadu_ps(w), _mm256_setzero_ps(), _CMP_EQ_OQ)) != 0;
}

// coordinates(k) for the three registers of floats k .. k + 7 of the Vec3 arrays (float 3p + c
// is component c of particle p) of each run of eight dynamic particles from `first`: stops
// before particle n or the first eight holding a static or kinematic particle; returns how
// many particles it did.
template <class Coordinates>
__attribute__((target("avx2,fma"), always_inline)) inline std::size_t coordinateEights(
    const float *invMass, std::size_t first, std::size_t n, const Coordinates &coordinates)
{
    std::size_t i = first;
    for (; i + 8 <= n; i += 8) {
        if (holdsStill(invMass + i))
            break;
        for (std::size_t c = 0; c < 3; ++c)
            coordinates(3 * i + 8 * c);
    }
    return i - first;
}

// one(i) for the particles of [begin, end), but where the vector kernels run (`vector`):
// there eights(first, end) takes the runs of eight dynamic particles from `first` (the same
// bits; it returns how many it did), and one(i) the rest.
template <class Eights, class One>
void inEights(bool vector, std::size_t begin, std::size_t end, Eights &&eights, One &&one)
{
    for (std::size_t i = begin; i < end; ++i) {
        if (vector) {
            i += eights(i, end);
            if (i == end)
                break;
        }
        one(i);
    }
}

// inEights over every particle of the cloth, on the caller and the worker (forParticles).
template <class Eights, class One>
void forParticlesInEights(ClothSolverCache &cache, std::size_t count, Eights &&eights, One &&one)
{
    const bool vector = xpbdKernelIsa() >= KernelIsa::Avx2;
    forParticles(cache, count,
        [&](std::uint32_t begin, std::uint32_t end) { inEights(vector, begin, end, eights, one); });
}

// A pass over the particles of [begin, end) in the widest vectors the CPU takes: with
// AVX-512, sixteens(begin, end) takes the groups of sixteen from `begin` (static particles
// too, masked; it returns how many it did); with AVX2 alone, eights the runs of eight dynamic
// particles (inEights); one(i) the rest. The same bits on every path.
template <class Sixteens, class Eights, class One>
void inSixteensOrEights(
    KernelIsa isa, std::size_t begin, std::size_t end, Sixteens &&sixteens, Eights &&eights, One &&one)
{
    const std::size_t vectors = isa >= KernelIsa::Avx512 ? sixteens(begin, end) : 0;
    inEights(isa == KernelIsa::Avx2, begin + vectors, end, eights, one);
}

// writePositionsFromOffsets() for eight dynamic particles at a time in AVX2 (the same IEEE
// additions; on AVX-512, writePositionsSixteensAvx512 takes groups with static particles too).
__attribute__((target("avx2,fma"))) std::size_t writePositionsFromOffsetsEights(
    Cloth &cloth, const ClothSolverCache &cache, std::size_t first, std::size_t n)
{
    const float *origin = &cache.origin.data()->x;
    const float *offset = &cache.offset.data()->x;
    const float *offsetPrev = &cache.offsetPrev.data()->x;
    float *position = &cloth.particles.position.data()->x;
    float *previous = &cloth.particles.previous.data()->x;
    return coordinateEights(
        cloth.particles.invMass.data(), first, n, [&](std::size_t k) __attribute__((target("avx2,fma"))) {
            const __m256 o = _mm256_loadu_ps(origin + k);
            _mm256_storeu_ps(position + k, _mm256_add_ps(o, _mm256_loadu_ps(offset + k)));
            _mm256_storeu_ps(previous + k, _mm256_add_ps(o, _mm256_loadu_ps(offsetPrev + k)));
        });
}

// finishPositionSubstep()'s velocities for eight dynamic particles at a time in AVX2 (its IEEE
// operations in its order; on AVX-512, substepVelocitiesSixteensAvx512).
__attribute__((target("avx2,fma"))) std::size_t substepVelocitiesEights(
    Cloth &cloth, const ClothSolverCache &cache, float dt, float invDt, std::size_t first, std::size_t n)
{
    const float *offset = &cache.offset.data()->x;
    const float *offsetPrev = &cache.offsetPrev.data()->x;
    const float *preVelocity = &cache.preVelocity.data()->x;
    float *velocity = &cloth.particles.velocity.data()->x;
    const __m256 dt8 = _mm256_set1_ps(dt), invDt8 = _mm256_set1_ps(invDt);
    return coordinateEights(
        cloth.particles.invMass.data(), first, n, [&](std::size_t k) __attribute__((target("avx2,fma"))) {
            const __m256 pv = _mm256_loadu_ps(preVelocity + k);
            const __m256 predicted = _mm256_add_ps(_mm256_loadu_ps(offsetPrev + k), _mm256_mul_ps(pv, dt8));
            _mm256_storeu_ps(velocity + k,
                _mm256_add_ps(
                    pv, _mm256_mul_ps(_mm256_sub_ps(_mm256_loadu_ps(offset + k), predicted), invDt8)));
        });
}

} // namespace

void writePositionsFromOffsets(Cloth &cloth, ClothSolverCache &cache)
{
    Particles &p = cloth.particles;
    const KernelIsa isa = xpbdKernelIsa();
    const auto one = [&](std::size_t i) {
        if (p.invMass[i] == 0.f)
            return;
        p.position[i] = cache.origin[i] + cache.offset[i];
        p.previous[i] = cache.origin[i] + cache.offsetPrev[i];
    };
    forParticles(cache, p.size(), [&](std::uint32_t begin, std::uint32_t end) {
        inSixteensOrEights(
            isa, begin, end,
            [&](std::size_t first, std::size_t n) {
                return writePositionsSixteensAvx512(cloth, cache, first, n);
            },
            [&](std::size_t first, std::size_t n) {
                return writePositionsFromOffsetsEights(cloth, cache, first, n);
            },
            one);
    });
}

namespace {

// The lanes of eight particles' Vec3 triples (24 floats, float 3p + c is component c of
// particle p) that register r of three holds belong to these particles.
__attribute__((target("avx2,fma"))) inline __m256i eightsOwner(std::size_t r)
{
    return r == 0 ? _mm256_setr_epi32(0, 0, 0, 1, 1, 1, 2, 2)
        : r == 1  ? _mm256_setr_epi32(2, 3, 3, 3, 4, 4, 4, 5)
                  : _mm256_setr_epi32(5, 5, 6, 6, 6, 7, 7, 7);
}

// Register c of eight particles' forces from float k of `force`, or without an array (null)
// their m g: the gravity's lanes times their masses m8 spread over their components.
__attribute__((target("avx2,fma"))) inline __m256 forceEights(
    const float *force, std::size_t k, const InterleavedGravity<8> &gravity, __m256 m8, std::size_t c)
{
    if (force)
        return _mm256_loadu_ps(force + k);
    return _mm256_mul_ps(_mm256_load_ps(gravity.lane[c]), _mm256_permutevar8x32_ps(m8, eightsOwner(c)));
}

// predictSubstep() for eight dynamic particles at a time in AVX2 (the scalar loop's IEEE
// operations in its order, nothing contracted: -ffp-contract=off): stops before particle n or the first
// group holding a static or kinematic particle (inverse mass 0); returns how many it did.
template <bool Verlet>
__attribute__((target("avx2,fma"))) std::size_t predictEights(Cloth &cloth, ClothSolverCache &cache,
    const Prediction &predict, bool keepVelocity, std::size_t first, std::size_t n)
{
    Particles &p = cloth.particles;
    const float *invMass = p.invMass.data();
    const float *mass = p.mass.data();
    const float *force = cache.force.empty() ? nullptr : &cache.force.data()->x;
    const InterleavedGravity<8> gravity(predict.gravity);
    float *velocity = &p.velocity.data()->x;
    float *offset = &cache.offset.data()->x;
    float *offsetPrev = &cache.offsetPrev.data()->x;
    float *preVelocity = &cache.preVelocity.data()->x;
    const __m256 dt = _mm256_set1_ps(predict.dt);
    const __m256 decay = _mm256_set1_ps(predict.decay);
    const __m256 startDt = _mm256_set1_ps(predict.startFactor * predict.dt);
    std::size_t i = first;
    for (; i + 8 <= n; i += 8) {
        const __m256 w8 = _mm256_loadu_ps(invMass + i);
        if (_mm256_movemask_ps(_mm256_cmp_ps(w8, _mm256_setzero_ps(), _CMP_EQ_OQ)) != 0)
            break;
        // XPBD: v decay + f (w dt); Verlet: v decay + (f w)(startFactor dt).
        const __m256 scale = Verlet ? w8 : _mm256_mul_ps(w8, dt);
        const __m256 m8 = force ? _mm256_setzero_ps() : _mm256_loadu_ps(mass + i);
        for (std::size_t c = 0; c < 3; ++c) {
            const std::size_t k = 3 * i + 8 * c;
            __m256 push = _mm256_mul_ps(
                forceEights(force, k, gravity, m8, c), _mm256_permutevar8x32_ps(scale, eightsOwner(c)));
            if (Verlet)
                push = _mm256_mul_ps(push, startDt);
            const __m256 u = _mm256_add_ps(_mm256_mul_ps(_mm256_loadu_ps(velocity + k), decay), push);
            if (keepVelocity)
                _mm256_storeu_ps(velocity + k, u);
            _mm256_storeu_ps(preVelocity + k, u);
            const __m256 o = _mm256_loadu_ps(offset + k);
            _mm256_storeu_ps(offsetPrev + k, o);
            _mm256_storeu_ps(offset + k, _mm256_add_ps(o, _mm256_mul_ps(u, dt)));
        }
    }
    return i - first;
}

} // namespace

void takeExternalForces(const Cloth &cloth, ClothSolverCache &cache, const WorldSettings &world, double t)
{
    if (windActs(cloth, world))
        accumulateExternalForces(cloth, world, t, cache.force);
    else if (!cache.force.empty())
        std::vector<Vec3>().swap(cache.force);
}

void predictSubstep(Cloth &cloth, ClothSolverCache &cache, const Prediction &predict, bool keepVelocity)
{
    Particles &p = cloth.particles;
    const bool sixteens = xpbdKernelIsa() >= KernelIsa::Avx512;
    const bool eights = xpbdKernelIsa() == KernelIsa::Avx2;
    forParticles(cache, p.size(), [&](std::uint32_t begin, std::uint32_t end) {
        for (std::size_t i = begin; i < end; ++i) {
            // Runs of sixteen (AVX-512) or eight (AVX2) dynamic particles in vectors (the same
            // bits), the rest one by one.
            if (sixteens || eights) {
                i += sixteens        ? predictSixteensAvx512(cloth, cache, predict, keepVelocity, i, end)
                    : predict.verlet ? predictEights<true>(cloth, cache, predict, keepVelocity, i, end)
                                     : predictEights<false>(cloth, cache, predict, keepVelocity, i, end);
                if (i == end)
                    break;
            }
            if (p.kind[i] == ParticleKind::Kinematic)
                continue; // placed by moveKinematics
            if (p.invMass[i] == 0.f) {
                p.previous[i] = p.position[i];
                p.velocity[i] = {};
                cache.offsetPrev[i] = cache.offset[i];
                continue;
            }
            // Damp the carried velocity, then add this substep's impulse: damping the sum
            // would also scale gravity by exp(-c dt) and bias the static sag by that factor.
            // The move is integrated on the frame-local offset (see ClothSolverCache::origin).
            const Vec3 u = predict(p.velocity[i], forceOn(cache, p, predict, i), p.invMass[i]);
            if (keepVelocity)
                p.velocity[i] = u;
            cache.preVelocity[i] = u;
            cache.offsetPrev[i] = cache.offset[i];
            cache.offset[i] += u * predict.dt;
        }
    });
}

bool plainButSelfCollision(const Cloth &cloth, const ClothSolverCache &cache, const FrameContext &ctx)
{
    return !cache.tears(cloth) && !(cloth.tetherStretch > 0.f) && ctx.surfaces == nullptr
        && ctx.colliderCount == 0 && !windActs(cloth, ctx.world);
}

bool plainFrame(const Cloth &cloth, const ClothSolverCache &cache, const FrameContext &ctx)
{
    return !ctx.solver.selfCollision && plainButSelfCollision(cloth, cache, ctx);
}

namespace {

// writePositions() for eight dynamic particles at a time in AVX2 (the same IEEE additions):
// stops before particle n or the first group holding a static or kinematic particle; returns
// how many it did.
__attribute__((target("avx2,fma"))) std::size_t writePositionsEights(
    Cloth &cloth, const ClothSolverCache &cache, std::size_t first, std::size_t n)
{
    const float *invMass = cloth.particles.invMass.data();
    const float *origin = &cache.origin.data()->x;
    const float *offset = &cache.offset.data()->x;
    float *position = &cloth.particles.position.data()->x;
    return coordinateEights(
        invMass, first, n, [&](std::size_t k) __attribute__((target("avx2,fma"))) {
            _mm256_storeu_ps(
                position + k, _mm256_add_ps(_mm256_loadu_ps(origin + k), _mm256_loadu_ps(offset + k)));
        });
}

} // namespace

void writePositions(Cloth &cloth, ClothSolverCache &cache)
{
    Particles &p = cloth.particles;
    forParticlesInEights(
        cache, p.size(),
        [&](std::size_t first, std::size_t end) { return writePositionsEights(cloth, cache, first, end); },
        [&](std::size_t i) {
            if (p.invMass[i] != 0.f)
                p.position[i] = cache.origin[i] + cache.offset[i];
        });
}

void takeSelfContactOffsets(Cloth &cloth, ClothSolverCache &cache)
{
    // A particle listed twice takes the same offset twice (from the same position).
    for (const std::uint32_t i : cache.selfPushed)
        takeContactOffsetsRange(cloth, cache, i, i + 1);
}

namespace {

// A value per particle of four, spread over register r of their three registers of
// components (float 4 r + j of the four particles' Vec3 triples is lane j of register r).
template <int R> inline __m128 spreadFours(__m128 f4)
{
    if constexpr (R == 0)
        return _mm_shuffle_ps(f4, f4, _MM_SHUFFLE(1, 0, 0, 0));
    else if constexpr (R == 1)
        return _mm_shuffle_ps(f4, f4, _MM_SHUFFLE(2, 2, 1, 1));
    else
        return _mm_shuffle_ps(f4, f4, _MM_SHUFFLE(3, 3, 3, 2));
}

// plainSubstep() for four particles at a time, as three SSE2 vectors of their x, y, z (the
// x86-64 baseline): each lane does the scalar loop's IEEE operations in the same order, the
// inverse mass of each particle repeated over its three lanes. Starts at particle `first` and
// stops before particle n or the first group with a static or kinematic particle; returns
// how many it did.
template <bool Verlet>
std::size_t plainSubstepFours(
    Cloth &cloth, ClothSolverCache &cache, const Prediction &predict, std::size_t first, std::size_t n)
{
    const float *invMass = cloth.particles.invMass.data();
    const float *mass = cloth.particles.mass.data();
    const float *force = cache.force.empty() ? nullptr : &cache.force.data()->x;
    const InterleavedGravity<4> gravity(predict.gravity);
    float *offset = &cache.offset.data()->x;
    float *offsetPrev = &cache.offsetPrev.data()->x;
    float *preVelocity = &cache.preVelocity.data()->x;
    const __m128 dt = _mm_set1_ps(predict.dt);
    const __m128 invDt = _mm_set1_ps(1.f / predict.dt);
    const __m128 decay = _mm_set1_ps(predict.decay);
    const __m128 startDt = _mm_set1_ps(predict.startFactor * predict.dt);
    std::size_t i = first;
    for (; i + 4 <= n; i += 4) {
        const __m128 w4 = _mm_loadu_ps(invMass + i);
        if (_mm_movemask_ps(_mm_cmpeq_ps(w4, _mm_setzero_ps())) != 0)
            break; // a static or kinematic particle: the scalar loop takes over from here
        // XPBD scales the force by w dt, Verlet by w and then by (startFactor dt).
        const __m128 f4 = Verlet ? w4 : _mm_mul_ps(w4, dt);
        const __m128 spread[3] = { spreadFours<0>(f4), spreadFours<1>(f4), spreadFours<2>(f4) };
        // Without an array of forces, each particle's m g (gravity's lanes times the masses).
        const __m128 m4 = force ? _mm_setzero_ps() : _mm_loadu_ps(mass + i);
        const __m128 weight[3] = { _mm_mul_ps(_mm_load_ps(gravity.lane[0]), spreadFours<0>(m4)),
            _mm_mul_ps(_mm_load_ps(gravity.lane[1]), spreadFours<1>(m4)),
            _mm_mul_ps(_mm_load_ps(gravity.lane[2]), spreadFours<2>(m4)) };
        for (std::size_t c = 0; c < 3; ++c) {
            const std::size_t k = 3 * i + 4 * c;
            const __m128 o = _mm_loadu_ps(offset + k);
            const __m128 pv = _mm_loadu_ps(preVelocity + k);
            const __m128 predicted = _mm_add_ps(_mm_loadu_ps(offsetPrev + k), _mm_mul_ps(pv, dt));
            const __m128 v = _mm_add_ps(pv, _mm_mul_ps(_mm_sub_ps(o, predicted), invDt));
            __m128 push = _mm_mul_ps(force ? _mm_loadu_ps(force + k) : weight[c], spread[c]);
            if (Verlet)
                push = _mm_mul_ps(push, startDt);
            const __m128 u = _mm_add_ps(_mm_mul_ps(v, decay), push);
            _mm_storeu_ps(preVelocity + k, u);
            _mm_storeu_ps(offsetPrev + k, o);
            _mm_storeu_ps(offset + k, _mm_add_ps(o, _mm_mul_ps(u, dt)));
        }
    }
    return i - first;
}

// plainSubstepFours with eight particles in three AVX2 registers (24 floats: float 3p + c is
// component c of particle p), the inverse masses spread over them by permutes. The same IEEE
// operations in the same order; nothing is contracted (-ffp-contract=off).
template <bool Verlet>
__attribute__((target("avx2,fma"))) std::size_t plainSubstepEights(
    Cloth &cloth, ClothSolverCache &cache, const Prediction &predict, std::size_t first, std::size_t n)
{
    const float *invMass = cloth.particles.invMass.data();
    const float *mass = cloth.particles.mass.data();
    const float *force = cache.force.empty() ? nullptr : &cache.force.data()->x;
    const InterleavedGravity<8> gravity(predict.gravity);
    float *offset = &cache.offset.data()->x;
    float *offsetPrev = &cache.offsetPrev.data()->x;
    float *preVelocity = &cache.preVelocity.data()->x;
    const __m256 dt = _mm256_set1_ps(predict.dt);
    const __m256 invDt = _mm256_set1_ps(1.f / predict.dt);
    const __m256 decay = _mm256_set1_ps(predict.decay);
    const __m256 startDt = _mm256_set1_ps(predict.startFactor * predict.dt);
    std::size_t i = first;
    for (; i + 8 <= n; i += 8) {
        const __m256 w8 = _mm256_loadu_ps(invMass + i);
        if (_mm256_movemask_ps(_mm256_cmp_ps(w8, _mm256_setzero_ps(), _CMP_EQ_OQ)) != 0)
            break; // a static or kinematic particle: the narrower loops take over from here
        const __m256 f8 = Verlet ? w8 : _mm256_mul_ps(w8, dt);
        const __m256 m8 = force ? _mm256_setzero_ps() : _mm256_loadu_ps(mass + i);
        for (std::size_t c = 0; c < 3; ++c) {
            const std::size_t k = 3 * i + 8 * c;
            const __m256 o = _mm256_loadu_ps(offset + k);
            const __m256 pv = _mm256_loadu_ps(preVelocity + k);
            const __m256 predicted = _mm256_add_ps(_mm256_loadu_ps(offsetPrev + k), _mm256_mul_ps(pv, dt));
            const __m256 v = _mm256_add_ps(pv, _mm256_mul_ps(_mm256_sub_ps(o, predicted), invDt));
            __m256 push = _mm256_mul_ps(
                forceEights(force, k, gravity, m8, c), _mm256_permutevar8x32_ps(f8, eightsOwner(c)));
            if (Verlet)
                push = _mm256_mul_ps(push, startDt);
            const __m256 u = _mm256_add_ps(_mm256_mul_ps(v, decay), push);
            _mm256_storeu_ps(preVelocity + k, u);
            _mm256_storeu_ps(offsetPrev + k, o);
            _mm256_storeu_ps(offset + k, _mm256_add_ps(o, _mm256_mul_ps(u, dt)));
        }
    }
    return i - first;
}

// plainSubstep() for particles [i, n).
void plainSubstepRange(Cloth &cloth, ClothSolverCache &cache, const Prediction &predict, std::size_t i, std::size_t n)
{
    Particles &p = cloth.particles;
    const float dt = predict.dt;
    const float invDt = 1.f / dt;
    const ParticleKind *kind = p.kind.data();
    const float *invMass = p.invMass.data();
    Vec3 *offset = cache.offset.data();
    Vec3 *offsetPrev = cache.offsetPrev.data();
    Vec3 *preVelocity = cache.preVelocity.data();
    const bool sixteens = xpbdKernelIsa() >= KernelIsa::Avx512;
    const bool eights = xpbdKernelIsa() == KernelIsa::Avx2;
    while (i < n) {
        // Runs of sixteen (AVX-512) or eight (AVX2) and four dynamic particles in vectors, the
        // rest one by one.
        if (sixteens)
            i += plainSubstepSixteensAvx512(cloth, cache, predict, i, n);
        if (eights)
            i += predict.verlet ? plainSubstepEights<true>(cloth, cache, predict, i, n)
                                : plainSubstepEights<false>(cloth, cache, predict, i, n);
        i += predict.verlet ? plainSubstepFours<true>(cloth, cache, predict, i, n)
                            : plainSubstepFours<false>(cloth, cache, predict, i, n);
        const std::size_t scalarEnd = std::min(n, i + 4);
        for (; i < scalarEnd; ++i) {
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
            const Vec3 u = predict(v, forceOn(cache, p, predict, i), invMass[i]);
            preVelocity[i] = u;
            offsetPrev[i] = offset[i];
            offset[i] += u * dt;
        }
    }
}

} // namespace

void plainSubstep(Cloth &cloth, ClothSolverCache &cache, const Prediction &predict)
{
    // The same per-particle arithmetic as finishPositionSubstep()'s velocity update followed
    // by predictSubstep(), in the same order, so the bits are the same; only the velocity
    // stays in registers instead of making a round trip through Particles::velocity, and
    // positions are not written (nothing reads them before the frame ends). Each particle's
    // lanes do the same operations wherever a range starts, so ranges may be split anywhere.
    forParticles(cache, cloth.particles.size(), [&](std::uint32_t begin, std::uint32_t end) {
        plainSubstepRange(cloth, cache, predict, begin, end);
    });
}

namespace {

// finishPlainFrame() for eight dynamic particles at a time in AVX2 (its IEEE operations in its
// order, nothing contracted: -ffp-contract=off): stops before particle n or the first group holding a static
// or kinematic particle; returns how many it did.
__attribute__((target("avx2,fma"))) std::size_t finishPlainFrameEights(
    Cloth &cloth, const ClothSolverCache &cache, float dt, std::size_t first, std::size_t n)
{
    Particles &p = cloth.particles;
    const float *invMass = p.invMass.data();
    const float *origin = &cache.origin.data()->x;
    const float *offset = &cache.offset.data()->x;
    const float *offsetPrev = &cache.offsetPrev.data()->x;
    const float *preVelocity = &cache.preVelocity.data()->x;
    float *position = &p.position.data()->x;
    float *previous = &p.previous.data()->x;
    float *velocity = &p.velocity.data()->x;
    const __m256 dt8 = _mm256_set1_ps(dt);
    const __m256 invDt = _mm256_set1_ps(1.f / dt);
    return coordinateEights(
        invMass, first, n, [&](std::size_t k) __attribute__((target("avx2,fma"))) {
            const __m256 o = _mm256_loadu_ps(origin + k);
            const __m256 x = _mm256_loadu_ps(offset + k);
            const __m256 xPrev = _mm256_loadu_ps(offsetPrev + k);
            const __m256 pv = _mm256_loadu_ps(preVelocity + k);
            _mm256_storeu_ps(position + k, _mm256_add_ps(o, x));
            _mm256_storeu_ps(previous + k, _mm256_add_ps(o, xPrev));
            const __m256 predicted = _mm256_add_ps(xPrev, _mm256_mul_ps(pv, dt8));
            _mm256_storeu_ps(
                velocity + k, _mm256_add_ps(pv, _mm256_mul_ps(_mm256_sub_ps(x, predicted), invDt)));
        });
}

} // namespace

void finishPlainFrame(Cloth &cloth, ClothSolverCache &cache, float dt)
{
    Particles &p = cloth.particles;
    const float invDt = 1.f / dt;
    const float *invMass = p.invMass.data();
    const Vec3 *origin = cache.origin.data();
    const Vec3 *offset = cache.offset.data();
    const Vec3 *offsetPrev = cache.offsetPrev.data();
    const Vec3 *preVelocity = cache.preVelocity.data();
    forParticlesInEights(
        cache, p.size(),
        [&](std::size_t first, std::size_t end) {
            return finishPlainFrameEights(cloth, cache, dt, first, end);
        },
        [&](std::size_t i) {
            if (invMass[i] == 0.f)
                return;
            p.position[i] = origin[i] + offset[i];
            p.previous[i] = origin[i] + offsetPrev[i];
            const Vec3 predicted = offsetPrev[i] + preVelocity[i] * dt;
            p.velocity[i] = preVelocity[i] + (offset[i] - predicted) * invDt;
        });
}

namespace {

// plainSubstepPlanes() for eight dynamic particles at a time in AVX2, one plane after the
// other: plainSubstepEights' operations on the same values, lane for lane, with no permutes
// (each lane is one particle's coordinate). The force is each lane's m g: a frame in planes is
// a plain frame, which the wind does not act on (plainButSelfCollision), so takeExternalForces
// kept no array of forces. With `First`, beginPlainPlanes()'s:
// predictEights' operations on the carried velocities, the offsets zero at the frame's start.
// Stops before particle n or the first group holding a static or kinematic particle; returns
// how many it did.
template <bool First, bool Verlet>
__attribute__((target("avx2,fma"))) std::size_t plainPlanesEights(
    const Particles &p, const Prediction &predict, const PlainPlanes &pl, std::size_t first, std::size_t n)
{
    const float *invMass = p.invMass.data();
    const float *mass = p.mass.data();
    const __m256 gx = _mm256_set1_ps(predict.gravity.x);
    const __m256 gy = _mm256_set1_ps(predict.gravity.y);
    const __m256 gz = _mm256_set1_ps(predict.gravity.z);
    const __m256 dt = _mm256_set1_ps(predict.dt);
    const __m256 invDt = _mm256_set1_ps(1.f / predict.dt);
    const __m256 decay = _mm256_set1_ps(predict.decay);
    const __m256 startDt = _mm256_set1_ps(predict.startFactor * predict.dt);
    const __m256 zero = _mm256_setzero_ps();
    // One plane's eight lanes (the planes' pointers passed in, so that they stay in registers);
    // `carried` is the particles' velocity lane on the first substep.
    const auto plane = [&](float *offset, float *offsetPrev, float *velocity, __m256 carried, __m256 push,
        std::size_t i) __attribute__((target("avx2,fma"), always_inline))
    {
        __m256 o = zero, v = carried;
        if constexpr (!First) {
            o = _mm256_loadu_ps(offset + i);
            const __m256 pv = _mm256_loadu_ps(velocity + i);
            const __m256 predicted = _mm256_add_ps(_mm256_loadu_ps(offsetPrev + i), _mm256_mul_ps(pv, dt));
            v = _mm256_add_ps(pv, _mm256_mul_ps(_mm256_sub_ps(o, predicted), invDt));
        }
        const __m256 u = _mm256_add_ps(_mm256_mul_ps(v, decay), push);
        _mm256_storeu_ps(velocity + i, u);
        _mm256_storeu_ps(offsetPrev + i, o);
        _mm256_storeu_ps(offset + i, _mm256_add_ps(o, _mm256_mul_ps(u, dt)));
    };
    std::size_t i = first;
    for (; i + 8 <= n; i += 8) {
        const __m256 w8 = _mm256_loadu_ps(invMass + i);
        if (_mm256_movemask_ps(_mm256_cmp_ps(w8, zero, _CMP_EQ_OQ)) != 0)
            break;
        // Prediction's push, XPBD's force (w dt) or Verlet's (force w)(startFactor dt), with
        // the force m g.
        const __m256 scale = Verlet ? w8 : _mm256_mul_ps(w8, dt);
        const __m256 m8 = _mm256_loadu_ps(mass + i);
        avx2::Lanes f { _mm256_mul_ps(gx, m8), _mm256_mul_ps(gy, m8), _mm256_mul_ps(gz, m8) };
        f = { _mm256_mul_ps(f.x, scale), _mm256_mul_ps(f.y, scale), _mm256_mul_ps(f.z, scale) };
        if constexpr (Verlet)
            f = { _mm256_mul_ps(f.x, startDt), _mm256_mul_ps(f.y, startDt), _mm256_mul_ps(f.z, startDt) };
        avx2::Lanes v { zero, zero, zero };
        if constexpr (First)
            v = avx2::loadWindow(&p.velocity.data()->x, std::uint32_t(i));
        plane(pl.offset.x, pl.offsetPrev.x, pl.velocity.x, v.x, f.x, i);
        plane(pl.offset.y, pl.offsetPrev.y, pl.velocity.y, v.y, f.y, i);
        plane(pl.offset.z, pl.offsetPrev.z, pl.velocity.z, v.z, f.z, i);
    }
    return i - first;
}

// The planes of a frame in planes, in the cache's stores (grown when the cloth grew: never
// once the frame has begun).
PlainPlanes plainPlanesOf(ClothSolverCache &cache, std::size_t particles)
{
    return { planesIn(cache.xpbd.planes, particles),
        planesIn(cache.xpbd.prevPlanes, particles, kPrevPlanesSkew),
        planesIn(cache.planarVelocity, particles, kVelocityPlanesSkew) };
}

// beginPlainPlanes() (`First`) and plainSubstepPlanes() on the planes `pl`: runs of eight
// dynamic particles in AVX2 (plainPlanesEights), the rest one by one with the same operations.
template <bool First>
void planePass(const Cloth &cloth, ClothSolverCache &cache, const Prediction &predict, const PlainPlanes &pl)
{
    const Particles &p = cloth.particles;
    const float dt = predict.dt;
    const float invDt = 1.f / dt;
    forParticles(cache, p.size(), [&](std::uint32_t begin, std::uint32_t end) {
        std::size_t i = begin;
        while (i < end) {
            i += predict.verlet ? plainPlanesEights<First, true>(p, predict, pl, i, end)
                                : plainPlanesEights<First, false>(p, predict, pl, i, end);
            // Up to a group of eight one by one (predictSubstep's and plainSubstepRange's
            // scalar loops, per plane).
            const std::size_t scalarEnd = std::min<std::size_t>(end, i + 8);
            for (; i < scalarEnd; ++i) {
                const auto u32 = std::uint32_t(i);
                if constexpr (First) {
                    // A particle that does not move has no offset yet (the kinematic ones are
                    // placed by placeKinematicPlanes), and no velocity a plane reads; the
                    // static ones are given theirs when the frame is committed
                    // (commitPlainFrame).
                    setPosition(pl.velocity, u32, Vec3 {});
                    setPosition(pl.offset, u32, Vec3 {});
                    setPosition(pl.offsetPrev, u32, Vec3 {});
                }
                if (p.invMass[i] == 0.f) {
                    if (!First && p.kind[i] != ParticleKind::Kinematic)
                        setPosition(pl.offsetPrev, u32, positionOf(pl.offset, u32));
                    continue;
                }
                // The first substep damps the carried velocity; the others take it from the
                // offsets' motion over the last substep.
                Vec3 o {}, v = p.velocity[i];
                if constexpr (!First) {
                    o = positionOf(pl.offset, u32);
                    const Vec3 pv = positionOf(pl.velocity, u32);
                    const Vec3 predicted = positionOf(pl.offsetPrev, u32) + pv * dt;
                    v = pv + (o - predicted) * invDt;
                }
                const Vec3 u = predict(v, predict.gravity * p.mass[i], p.invMass[i]);
                setPosition(pl.velocity, u32, u);
                setPosition(pl.offsetPrev, u32, o);
                setPosition(pl.offset, u32, o + u * dt);
            }
        }
    });
}

} // namespace

PlainPlanes beginPlainPlanes(const Cloth &cloth, ClothSolverCache &cache, const Prediction &predict)
{
    const PlainPlanes pl = plainPlanesOf(cache, cloth.particles.size());
    planePass<true>(cloth, cache, predict, pl);
    return pl;
}

bool planarFrame(const Cloth &cloth, const ClothSolverCache &cache, const FrameContext &ctx)
{
    return plainFrame(cloth, cache, ctx) && !bends(cloth.bending) && xpbdKernelIsa() >= KernelIsa::Avx2;
}

bool beginPositionFrame(Cloth &cloth, ClothSolverCache &cache, const FrameContext &ctx)
{
    const bool planar = planarFrame(cloth, cache, ctx);
    if (!planar)
        beginFrameOffsets(cloth, cache);
    return planar;
}

void planarSubstep(Cloth &cloth, ClothSolverCache &cache, const FrameContext &ctx, const Prediction &predict,
    int substep, PlainPlanes &planes)
{
    if (substep == 0) {
        takeExternalForces(cloth, cache, ctx.world, ctx.time);
        planes = beginPlainPlanes(cloth, cache, predict);
    } else {
        plainSubstepPlanes(cloth, cache, predict, planes);
    }
    placeKinematicPlanes(cloth, cache, substep, ctx, planes);
}

void placeKinematicPlanes(const Cloth &cloth, const ClothSolverCache &cache, int substep,
    const FrameContext &ctx, const PlainPlanes &pl)
{
    // moveKinematics()'s offsets: its positions less the frame's origin, which for a kinematic
    // particle is the start of its motion (beginKinematics put it there).
    forKinematicPath(
        cloth, cache, substep, ctx.substeps, [&](std::uint32_t i, Vec3 from, Vec3 to, Vec3 a, Vec3) {
            setPosition(pl.offset, i, to - a);
            setPosition(pl.offsetPrev, i, from - a);
        });
}

void plainSubstepPlanes(
    const Cloth &cloth, ClothSolverCache &cache, const Prediction &predict, const PlainPlanes &pl)
{
    planePass<false>(cloth, cache, predict, pl);
}

namespace {

// One plane's eight lanes of a held frame's end, from the planes at the lanes' first particle
// and the origin `o`: position, previous position and velocity (finishPlainFrameEights'
// operations).
DRAPE_AVX2_INLINE void heldLanes(const float *offset, const float *offsetPrev, const float *velocity,
    __m256 o, __m256 dt, __m256 invDt, __m256 &x, __m256 &xPrev, __m256 &v)
{
    const __m256 off = _mm256_loadu_ps(offset);
    const __m256 offPrev = _mm256_loadu_ps(offsetPrev);
    const __m256 pv = _mm256_loadu_ps(velocity);
    x = _mm256_add_ps(o, off);
    xPrev = _mm256_add_ps(o, offPrev);
    const __m256 predicted = _mm256_add_ps(offPrev, _mm256_mul_ps(pv, dt));
    v = _mm256_add_ps(pv, _mm256_mul_ps(_mm256_sub_ps(off, predicted), invDt));
}

// commitPlainFrame()'s values for eight dynamic particles at a time in AVX2, checked instead of
// written: true when each is certainly calm (every coordinate of the position, the previous
// position and the velocity finite, each velocity component squared below `bound`). Stops
// before particle n, the first group holding a static or kinematic particle, or the first
// group not certainly calm; returns how many it passed.
__attribute__((target("avx2,fma"))) std::size_t calmPlanesEights(
    const Particles &p, float dt, const PlainPlanes &pl, float bound, std::size_t first, std::size_t n)
{
    const float *invMass = p.invMass.data();
    const __m256 dt8 = _mm256_set1_ps(dt);
    const __m256 invDt = _mm256_set1_ps(1.f / dt);
    const __m256 bound8 = _mm256_set1_ps(bound);
    // One plane's eight lanes: the lanes where a value is not finite (x - x is NaN) or the
    // velocity component is not certainly below the bound.
    const auto unsettled = [&](const float *offset, const float *offsetPrev, const float *velocity, __m256 o,
        std::size_t i) __attribute__((target("avx2,fma"), always_inline))
    {
        __m256 x, xPrev, v;
        heldLanes(offset + i, offsetPrev + i, velocity + i, o, dt8, invDt, x, xPrev, v);
        const __m256 zero = _mm256_setzero_ps();
        const __m256 notFinite = _mm256_or_ps(_mm256_cmp_ps(_mm256_sub_ps(x, x), zero, _CMP_NEQ_UQ),
            _mm256_cmp_ps(_mm256_sub_ps(xPrev, xPrev), zero, _CMP_NEQ_UQ));
        return _mm256_or_ps(notFinite, _mm256_cmp_ps(_mm256_mul_ps(v, v), bound8, _CMP_NLT_UQ));
    };
    std::size_t i = first;
    for (; i + 8 <= n; i += 8) {
        if (holdsStill(invMass + i))
            break;
        const avx2::Lanes o = avx2::loadWindow(&p.position.data()->x, std::uint32_t(i));
        const __m256 bad
            = _mm256_or_ps(_mm256_or_ps(unsettled(pl.offset.x, pl.offsetPrev.x, pl.velocity.x, o.x, i),
                               unsettled(pl.offset.y, pl.offsetPrev.y, pl.velocity.y, o.y, i)),
                unsettled(pl.offset.z, pl.offsetPrev.z, pl.velocity.z, o.z, i));
        if (_mm256_movemask_ps(bad) != 0)
            break;
    }
    return i - first;
}

// commitPlainFrame() for eight dynamic particles at a time in AVX2: finishPlainFrameEights'
// operations on the same values, lane for lane. Stops before particle n or the first group
// holding a static or kinematic particle; returns how many it did.
__attribute__((target("avx2,fma"))) std::size_t finishPlanesEights(
    Particles &p, float dt, const PlainPlanes &pl, std::size_t first, std::size_t n)
{
    const float *invMass = p.invMass.data();
    const __m256 dt8 = _mm256_set1_ps(dt);
    const __m256 invDt = _mm256_set1_ps(1.f / dt);
    std::size_t i = first;
    for (; i + 8 <= n; i += 8) {
        if (holdsStill(invMass + i))
            break;
        // The frame's origin is where the particles still are; each window is read before it
        // is written.
        const avx2::Lanes o = avx2::loadWindow(&p.position.data()->x, std::uint32_t(i));
        avx2::Lanes x, xPrev, v;
        heldLanes(
            pl.offset.x + i, pl.offsetPrev.x + i, pl.velocity.x + i, o.x, dt8, invDt, x.x, xPrev.x, v.x);
        heldLanes(
            pl.offset.y + i, pl.offsetPrev.y + i, pl.velocity.y + i, o.y, dt8, invDt, x.y, xPrev.y, v.y);
        heldLanes(
            pl.offset.z + i, pl.offsetPrev.z + i, pl.velocity.z + i, o.z, dt8, invDt, x.z, xPrev.z, v.z);
        avx2::storeWindow(&p.position.data()->x, std::uint32_t(i), x);
        avx2::storeWindow(&p.previous.data()->x, std::uint32_t(i), xPrev);
        avx2::storeWindow(&p.velocity.data()->x, std::uint32_t(i), v);
    }
    return i - first;
}

} // namespace

void holdPlainFrame(ClothSolverCache &cache, const FrameContext &ctx, float dt)
{
    cache.heldFrame = { true, dt, ctx.substeps, ctx.frameDt };
}

namespace {

// plainFrameEnd() with the planes at hand.
ParticleEnd heldEnd(const Cloth &cloth, const ClothSolverCache &cache, const PlainPlanes &pl, std::uint32_t i)
{
    const Particles &p = cloth.particles;
    const ClothSolverCache::HeldFrame &held = cache.heldFrame;
    if (p.invMass[i] != 0.f) {
        // commitPlainFrame()'s scalar arithmetic (the same bits as its vector lanes).
        const float dt = held.dt;
        const float invDt = 1.f / dt;
        const Vec3 offset = positionOf(pl.offset, i);
        const Vec3 offsetPrev = positionOf(pl.offsetPrev, i);
        const Vec3 preVelocity = positionOf(pl.velocity, i);
        const Vec3 o = p.position[i];
        const Vec3 predicted = offsetPrev + preVelocity * dt;
        return { o + offset, o + offsetPrev, preVelocity + (offset - predicted) * invDt };
    }
    if (p.kind[i] != ParticleKind::Kinematic)
        return { p.position[i], p.position[i], Vec3 {} };
    ParticleEnd end { p.position[i], p.previous[i], p.velocity[i] };
    const auto k = std::lower_bound(cache.kinematic.begin(), cache.kinematic.end(), i);
    if (k != cache.kinematic.end() && *k == i) {
        // placeKinematics()'s values for the last substep.
        const std::size_t ki = std::size_t(k - cache.kinematic.begin());
        const Vec3 &a = cache.kinematicStart[ki];
        const Vec3 &b = cache.kinematicTarget[ki];
        const float t0 = float(held.substeps - 1) / float(held.substeps);
        const float t1 = float(held.substeps) / float(held.substeps);
        end = { lerp(a, b, t1), lerp(a, b, t0), (b - a) * float(1.0 / held.frameDt) };
    }
    return end;
}

} // namespace

ParticleEnd plainFrameEnd(const Cloth &cloth, ClothSolverCache &cache, std::uint32_t i)
{
    return heldEnd(cloth, cache, plainPlanesOf(cache, cloth.particles.size()), i);
}

std::size_t firstUnsettledPlainFrame(
    const Cloth &cloth, ClothSolverCache &cache, float maxSpeed2, std::size_t begin, std::size_t end)
{
    const Particles &p = cloth.particles;
    const PlainPlanes pl = plainPlanesOf(cache, p.size());
    // A component squared below 0.33 maxSpeed² keeps |v|² below maxSpeed² whatever the rounding
    // of the sum; a subnormal bound could round up by a whole unit, so then every particle is
    // looked at one by one (as Simulation::detectBlowUp does).
    const bool fast = maxSpeed2 >= std::numeric_limits<float>::min();
    std::size_t i = begin;
    while (i < end) {
        if (fast)
            i += calmPlanesEights(p, cache.heldFrame.dt, pl, 0.33f * maxSpeed2, i, end);
        const std::size_t scalarEnd = std::min<std::size_t>(end, i + 8);
        for (; i < scalarEnd; ++i) {
            const ParticleEnd e = heldEnd(cloth, cache, pl, std::uint32_t(i));
            if (!(isFinite(e.position) && isFinite(e.velocity) && isFinite(e.previous)
                    && lengthSquared(e.velocity) <= maxSpeed2))
                return i;
        }
    }
    return end;
}

void commitPlainFrame(Cloth &cloth, ClothSolverCache &cache)
{
    Particles &p = cloth.particles;
    const ClothSolverCache::HeldFrame held = cache.heldFrame;
    cache.heldFrame = {};
    const PlainPlanes pl = plainPlanesOf(cache, p.size());
    const float dt = held.dt;
    const float invDt = 1.f / dt;
    forParticles(cache, p.size(), [&](std::uint32_t begin, std::uint32_t end) {
        std::size_t i = begin;
        while (i < end) {
            i += finishPlanesEights(p, dt, pl, i, end);
            // Up to a group of eight one by one (finishPlainFrame's scalar loop, per plane).
            const std::size_t scalarEnd = std::min<std::size_t>(end, i + 8);
            for (; i < scalarEnd; ++i) {
                if (p.invMass[i] == 0.f) {
                    // A static particle keeps its place with zero velocity (predictSubstep).
                    if (p.kind[i] != ParticleKind::Kinematic) {
                        p.previous[i] = p.position[i];
                        p.velocity[i] = {};
                    }
                    continue;
                }
                const auto u32 = std::uint32_t(i);
                const Vec3 offset = positionOf(pl.offset, u32);
                const Vec3 offsetPrev = positionOf(pl.offsetPrev, u32);
                const Vec3 preVelocity = positionOf(pl.velocity, u32);
                const Vec3 o = p.position[i]; // the frame's origin
                p.position[i] = o + offset;
                p.previous[i] = o + offsetPrev;
                const Vec3 predicted = offsetPrev + preVelocity * dt;
                p.velocity[i] = preVelocity + (offset - predicted) * invDt;
            }
        }
    });
    // The kinematic particles where moveKinematics() leaves them after the last substep.
    placeKinematics(cloth, cache, held.substeps - 1, held.substeps, held.frameDt);
}

void dropPlainFrame(Cloth &cloth, ClothSolverCache &cache)
{
    cache.heldFrame = {};
    // beginKinematics() put the kinematic particles at the start of their motion: back where
    // they were put.
    Particles &p = cloth.particles;
    for (std::size_t k = 0; k < cache.kinematic.size(); ++k) {
        const std::uint32_t i = cache.kinematic[k];
        if (i < p.size() && p.kind[i] == ParticleKind::Kinematic)
            p.position[i] = cache.kinematicTarget[k];
    }
}

void tearAfterSubstep(Cloth &cloth, ClothSolverCache &cache, const FrameContext &ctx, StepStats &stats)
{
    if (!cache.tears(cloth))
        return;
    if (cloth.tearMode == TearMode::RemoveConstraint) {
        std::vector<float> *tension = tensionWithinFrame(cloth, cache) ? &cache.tension : nullptr;
        const std::uint32_t torn = tearOverstretched(cloth, ctx.tearScratch, tension);
        if (torn) {
            stats.tornConstraints += torn;
            keepTornTension(cloth, cache);
            cache.ensure(cloth);
        }
    } else if (cloth.tearMode == TearMode::SplitVertex) {
        const SplitReport report
            = splitOverstretched(cloth, ctx.solver.maxSplitsPerStep, tensionWithinFrame(cloth, cache));
        if (!report.splits.empty()) {
            stats.splitParticles += std::uint32_t(report.splits.size());
            forgetTension(cache); // unknown until the next solve
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
    selfCollide(cloth, cache, ctx);
    if (ctx.surfaces)
        collideWithOtherCloths(cloth, ctx.clothIndex, *ctx.surfaces);
    projectColliders(cloth, cache, ctx.collidersAt(substep), ctx.colliderCount, ctx.dt, true);

    // Contacts moved some positions: those particles take their offset from the position
    // (a contact is resolved to float precision, which is all it needs); the others keep the
    // offset the solve left, with the sub-spacing motion the position cannot hold. Without
    // tethers, self-collision, other cloths and colliders nothing moved a position since
    // writePositionsFromOffsets() set it to origin + offset, and the pass is skipped; with
    // self-collision alone, only the particles it moved are looked at.
    const Vec3 *offset = cache.offset.data();
    const bool otherContacts = cloth.tetherStretch > 0.f || ctx.surfaces != nullptr || ctx.colliderCount != 0;
    if (ctx.solver.selfCollision && !otherContacts)
        takeSelfContactOffsets(cloth, cache); // only those particles moved
    const bool contacts = otherContacts;
    const float invDt = 1.f / dt;
    const KernelIsa isa = xpbdKernelIsa();
    forParticles(cache, p.size(), [&](std::uint32_t begin, std::uint32_t end) {
        if (contacts)
            takeContactOffsetsRange(cloth, cache, begin, end);
        // v = (x - x_prev)/dt on offsets, written as the predicted velocity plus the
        // correction the solve made: offsetPrev + v_pred dt repeats the prediction's float
        // operations exactly, so a particle nothing acted on keeps v_pred bit for bit.
        inSixteensOrEights(
            isa, begin, end,
            [&](std::size_t first, std::size_t n) {
                return substepVelocitiesSixteensAvx512(cloth, cache, dt, invDt, first, n);
            },
            [&](std::size_t first, std::size_t n) {
                return substepVelocitiesEights(cloth, cache, dt, invDt, first, n);
            },
            [&](std::size_t i) {
                if (p.invMass[i] == 0.f)
                    return;
                const Vec3 predicted = cache.offsetPrev[i] + cache.preVelocity[i] * dt;
                p.velocity[i] = cache.preVelocity[i] + (offset[i] - predicted) * invDt;
            });
    });
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
