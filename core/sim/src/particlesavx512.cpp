// The particle passes of solvercommon.cpp sixteen particles at a time in AVX-512: the plain
// substep's and the prediction's updates (plainSubstep(), predictSubstep()), and a full
// substep's position write-back and velocity update (writePositionsFromOffsets(),
// finishPositionSubstep()):
// the offsets, previous offsets, velocities and forces of 16 particles are 48 floats, three
// 512-bit registers, and each particle's inverse mass is spread over its three lanes by one
// permute per register. Every lane does the SSE2 and scalar loops' IEEE operations in the
// same order (the file is compiled with -ffp-contract=off, core/CMakeLists.txt), so the bits
// are theirs; the golden-state and plain-frame tests pin them.
#include "solver.h"

#include <immintrin.h>

namespace drape::detail {

namespace {

#define DRAPE_PARTICLES_INLINE                                                                             \
    __attribute__((target("avx2,avx512f,avx512vl,avx512bw,avx512dq"), always_inline)) inline

// A value per particle of a group of 16 (one register), spread over the particle's three
// lanes of register c of the group's coordinates: lane j of register c holds float 16 c + j
// of the group, a component of particle (16 c + j) / 3.
DRAPE_PARTICLES_INLINE __m512 spreadOverLanes(__m512 f, std::size_t c)
{
    const __m512i index = c == 0 ? _mm512_setr_epi32(0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4, 5)
        : c == 1                 ? _mm512_setr_epi32(5, 5, 6, 6, 6, 7, 7, 7, 8, 8, 8, 9, 9, 9, 10, 10)
                                 : _mm512_setr_epi32(10, 11, 11, 11, 12, 12, 12, 13, 13, 13, 14, 14, 14, 15, 15, 15);
    // (maskz with every lane: GCC 12 warns about the plain form's undefined merge value)
    return _mm512_maskz_permutexvar_ps(0xFFFF, index, f);
}

// Register c of sixteen particles' forces from float k of `force`, or without an array (null)
// their m g: the gravity's lanes times their masses m spread over their components.
DRAPE_PARTICLES_INLINE __m512 forceSixteens(
    const float *force, std::size_t k, const InterleavedGravity<16> &gravity, __m512 m, std::size_t c)
{
    if (force)
        return _mm512_loadu_ps(force + k);
    return _mm512_mul_ps(_mm512_load_ps(gravity.lane[c]), spreadOverLanes(m, c));
}

template <bool Verlet>
DRAPE_PARTICLES_INLINE std::size_t sixteens(
    Cloth &cloth, ClothSolverCache &cache, const Prediction &predict, std::size_t first, std::size_t n)
{
    const float *invMass = cloth.particles.invMass.data();
    const float *mass = cloth.particles.mass.data();
    const float *force = cache.force.empty() ? nullptr : &cache.force.data()->x;
    const InterleavedGravity<16> gravity(predict.gravity);
    float *offset = &cache.offset.data()->x;
    float *offsetPrev = &cache.offsetPrev.data()->x;
    float *preVelocity = &cache.preVelocity.data()->x;
    const __m512 dt = _mm512_set1_ps(predict.dt);
    const __m512 invDt = _mm512_set1_ps(1.f / predict.dt);
    const __m512 decay = _mm512_set1_ps(predict.decay);
    const __m512 startDt = _mm512_set1_ps(predict.startFactor * predict.dt);
    std::size_t i = first;
    for (; i + 16 <= n; i += 16) {
        const __m512 w = _mm512_loadu_ps(invMass + i);
        if (_mm512_cmp_ps_mask(w, _mm512_setzero_ps(), _CMP_EQ_OQ) != 0)
            break; // a static or kinematic particle: the narrower loops take over from here
        // XPBD scales the force by w dt, Verlet by w and then by (startFactor dt).
        const __m512 f = Verlet ? w : _mm512_mul_ps(w, dt);
        const __m512 m = force ? _mm512_setzero_ps() : _mm512_loadu_ps(mass + i);
        for (std::size_t c = 0; c < 3; ++c) {
            const std::size_t k = 3 * i + 16 * c;
            const __m512 spread = spreadOverLanes(f, c);
            const __m512 o = _mm512_loadu_ps(offset + k);
            const __m512 pv = _mm512_loadu_ps(preVelocity + k);
            const __m512 predicted = _mm512_add_ps(_mm512_loadu_ps(offsetPrev + k), _mm512_mul_ps(pv, dt));
            const __m512 v = _mm512_add_ps(pv, _mm512_mul_ps(_mm512_sub_ps(o, predicted), invDt));
            __m512 push = _mm512_mul_ps(forceSixteens(force, k, gravity, m, c), spread);
            if (Verlet)
                push = _mm512_mul_ps(push, startDt);
            const __m512 u = _mm512_add_ps(_mm512_mul_ps(v, decay), push);
            _mm512_storeu_ps(preVelocity + k, u);
            _mm512_storeu_ps(offsetPrev + k, o);
            _mm512_storeu_ps(offset + k, _mm512_add_ps(o, _mm512_mul_ps(u, dt)));
        }
    }
    return i - first;
}

// predictSubstep()'s update of sixteen dynamic particles at a time, as sixteens() above with
// the velocity read from the particles (and written back when KeepVelocity).
template <bool Verlet, bool KeepVelocity>
DRAPE_PARTICLES_INLINE std::size_t predictSixteens(Cloth &cloth, ClothSolverCache &cache, const Prediction &predict, std::size_t first, std::size_t n)
{
    Particles &p = cloth.particles;
    const float *invMass = p.invMass.data();
    const auto *kind = reinterpret_cast<const std::uint8_t *>(p.kind.data());
    const float *mass = p.mass.data();
    const float *force = cache.force.empty() ? nullptr : &cache.force.data()->x;
    const InterleavedGravity<16> gravity(predict.gravity);
    float *velocity = &p.velocity.data()->x;
    float *offset = &cache.offset.data()->x;
    float *offsetPrev = &cache.offsetPrev.data()->x;
    float *preVelocity = &cache.preVelocity.data()->x;
    const __m512 dt = _mm512_set1_ps(predict.dt);
    const __m512 decay = _mm512_set1_ps(predict.decay);
    const __m512 startDt = _mm512_set1_ps(predict.startFactor * predict.dt);
    const __m128i kinematic = _mm_set1_epi8(char(ParticleKind::Kinematic));
    std::size_t i = first;
    for (; i + 16 <= n; i += 16) {
        const __m512 w = _mm512_loadu_ps(invMass + i);
        if (_mm512_cmp_ps_mask(w, _mm512_setzero_ps(), _CMP_EQ_OQ) != 0)
            break; // a static particle: the scalar loop takes over from here
        const __m128i kinds = _mm_loadu_si128(reinterpret_cast<const __m128i *>(kind + i));
        if (_mm_movemask_epi8(_mm_cmpeq_epi8(kinds, kinematic)) != 0)
            break; // a kinematic one, which moveKinematics() places
        const __m512 f = Verlet ? w : _mm512_mul_ps(w, dt);
        const __m512 m = force ? _mm512_setzero_ps() : _mm512_loadu_ps(mass + i);
        for (std::size_t c = 0; c < 3; ++c) {
            const std::size_t k = 3 * i + 16 * c;
            const __m512 spread = spreadOverLanes(f, c);
            __m512 push = _mm512_mul_ps(forceSixteens(force, k, gravity, m, c), spread);
            if (Verlet)
                push = _mm512_mul_ps(push, startDt);
            const __m512 u = _mm512_add_ps(_mm512_mul_ps(_mm512_loadu_ps(velocity + k), decay), push);
            if (KeepVelocity)
                _mm512_storeu_ps(velocity + k, u);
            _mm512_storeu_ps(preVelocity + k, u);
            const __m512 o = _mm512_loadu_ps(offset + k);
            _mm512_storeu_ps(offsetPrev + k, o);
            _mm512_storeu_ps(offset + k, _mm512_add_ps(o, _mm512_mul_ps(u, dt)));
        }
    }
    return i - first;
}

// The lanes of register c of a group's coordinates whose particle has w != 0 (NaN included,
// as the scalar loops' `invMass == 0` test leaves it).
DRAPE_PARTICLES_INLINE __mmask16 movingLanes(__m512 w, std::size_t c)
{
    return _mm512_cmp_ps_mask(spreadOverLanes(w, c), _mm512_setzero_ps(), _CMP_NEQ_UQ);
}

} // namespace

__attribute__((target("avx2,avx512f,avx512vl,avx512bw,avx512dq"))) std::size_t writePositionsSixteensAvx512(
    Cloth &cloth, const ClothSolverCache &cache, std::size_t first, std::size_t n)
{
    const float *invMass = cloth.particles.invMass.data();
    float *position = &cloth.particles.position.data()->x;
    float *previous = &cloth.particles.previous.data()->x;
    const float *origin = &cache.origin.data()->x;
    const float *offset = &cache.offset.data()->x;
    const float *offsetPrev = &cache.offsetPrev.data()->x;
    std::size_t i = first;
    for (; i + 16 <= n; i += 16) {
        const __m512 w = _mm512_loadu_ps(invMass + i);
        for (std::size_t c = 0; c < 3; ++c) {
            const std::size_t k = 3 * i + 16 * c;
            const __mmask16 moving = movingLanes(w, c);
            const __m512 o = _mm512_loadu_ps(origin + k);
            _mm512_mask_storeu_ps(position + k, moving, _mm512_add_ps(o, _mm512_loadu_ps(offset + k)));
            _mm512_mask_storeu_ps(previous + k, moving, _mm512_add_ps(o, _mm512_loadu_ps(offsetPrev + k)));
        }
    }
    return i - first;
}

__attribute__((target("avx2,avx512f,avx512vl,avx512bw,avx512dq"))) std::size_t substepVelocitiesSixteensAvx512(
    Cloth &cloth, const ClothSolverCache &cache, float dt, float invDt, std::size_t first, std::size_t n)
{
    const float *invMass = cloth.particles.invMass.data();
    float *velocity = &cloth.particles.velocity.data()->x;
    const float *offset = &cache.offset.data()->x;
    const float *offsetPrev = &cache.offsetPrev.data()->x;
    const float *preVelocity = &cache.preVelocity.data()->x;
    const __m512 dtv = _mm512_set1_ps(dt), invDtv = _mm512_set1_ps(invDt);
    std::size_t i = first;
    for (; i + 16 <= n; i += 16) {
        const __m512 w = _mm512_loadu_ps(invMass + i);
        for (std::size_t c = 0; c < 3; ++c) {
            const std::size_t k = 3 * i + 16 * c;
            const __m512 pv = _mm512_loadu_ps(preVelocity + k);
            const __m512 predicted = _mm512_add_ps(_mm512_loadu_ps(offsetPrev + k), _mm512_mul_ps(pv, dtv));
            const __m512 v = _mm512_add_ps(pv, _mm512_mul_ps(_mm512_sub_ps(_mm512_loadu_ps(offset + k), predicted), invDtv));
            _mm512_mask_storeu_ps(velocity + k, movingLanes(w, c), v);
        }
    }
    return i - first;
}

__attribute__((target("avx2,avx512f,avx512vl,avx512bw,avx512dq"))) std::size_t predictSixteensAvx512(
    Cloth &cloth, ClothSolverCache &cache, const Prediction &predict, bool keepVelocity, std::size_t first, std::size_t n)
{
    if (predict.verlet)
        return keepVelocity ? predictSixteens<true, true>(cloth, cache, predict, first, n)
                            : predictSixteens<true, false>(cloth, cache, predict, first, n);
    return keepVelocity ? predictSixteens<false, true>(cloth, cache, predict, first, n)
                        : predictSixteens<false, false>(cloth, cache, predict, first, n);
}

__attribute__((target("avx2,avx512f,avx512vl,avx512bw,avx512dq"))) std::size_t plainSubstepSixteensAvx512(
    Cloth &cloth, ClothSolverCache &cache, const Prediction &predict, std::size_t first, std::size_t n)
{
    return predict.verlet ? sixteens<true>(cloth, cache, predict, first, n)
                          : sixteens<false>(cloth, cache, predict, first, n);
}

} // namespace drape::detail
