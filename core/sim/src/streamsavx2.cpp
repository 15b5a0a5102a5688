// The per-frame passes over the XPBD streams (xpbdbatch.cpp: refreshSlots, setSpans) eight
// slots at a time in AVX2. Both are scalar loops of a few dozen instructions per slot: the
// refresh reads each slot's constraint record, checks it and derives α̃, γ and |span|² - L²;
// the spans pass takes x_a - x_b at the frame origin in double. Here the records' fields and
// the particles' coordinates are fetched eight at a time (window blocks by the kernels' window
// loads) and the double arithmetic runs four lanes at a time, with the same IEEE operations in the same order as the scalar loops (the
// file is compiled with -ffp-contract=off, core/CMakeLists.txt), so the streams get the same
// bits (tests/tst_xpbdbatch.cpp compares them).
#include "xpbdkernel.h"
#include "xpbdlanes.h"

#include <immintrin.h>

#include <cstddef>
#include <cstdint>

namespace drape::detail {

namespace {

static_assert(sizeof(DistanceConstraint) == 32, "the gathers index constraint records as 8 dwords");
static_assert(offsetof(DistanceConstraint, a) == 0 && offsetof(DistanceConstraint, b) == 4
        && offsetof(DistanceConstraint, restLength) == 8 && offsetof(DistanceConstraint, compliance) == 12
        && offsetof(DistanceConstraint, damping) == 16 && offsetof(DistanceConstraint, tearStrain) == 20
        && offsetof(DistanceConstraint, tearForce) == 28,
    "the gathers read the fields at these offsets");

#define DRAPE_STREAMS_INLINE __attribute__((target("avx2"), always_inline)) inline

// Lanes holding a constraint (source != ~0) as an all-ones mask.
DRAPE_STREAMS_INLINE __m256i realLanes(__m256i src)
{
    return _mm256_xor_si256(_mm256_cmpeq_epi32(src, _mm256_set1_epi32(-1)), _mm256_set1_epi32(-1));
}

// float(|s|² - L²) in double for 8 lanes (xpbdbatch.cpp's spanStretch): each half as 4 doubles.
DRAPE_STREAMS_INLINE __m128 stretchHalf(__m128 sx, __m128 sy, __m128 sz, __m128 rest)
{
    const __m256d x = _mm256_cvtps_pd(sx), y = _mm256_cvtps_pd(sy), z = _mm256_cvtps_pd(sz);
    const __m256d l = _mm256_cvtps_pd(rest);
    const __m256d sum = _mm256_add_pd(_mm256_add_pd(_mm256_mul_pd(x, x), _mm256_mul_pd(y, y)), _mm256_mul_pd(z, z));
    return _mm256_cvtpd_ps(_mm256_sub_pd(sum, _mm256_mul_pd(l, l)));
}

DRAPE_STREAMS_INLINE __m256 stretch(__m256 sx, __m256 sy, __m256 sz, __m256 rest)
{
    const __m128 lo = stretchHalf(_mm256_castps256_ps128(sx), _mm256_castps256_ps128(sy),
        _mm256_castps256_ps128(sz), _mm256_castps256_ps128(rest));
    const __m128 hi = stretchHalf(_mm256_extractf128_ps(sx, 1), _mm256_extractf128_ps(sy, 1),
        _mm256_extractf128_ps(sz, 1), _mm256_extractf128_ps(rest, 1));
    return _mm256_insertf128_ps(_mm256_castps128_ps256(lo), hi, 1);
}

// Stores `value` in the real lanes of p[0..8), keeping what the others hold.
DRAPE_STREAMS_INLINE void storeReal(float *p, __m256 value, __m256 real)
{
    _mm256_storeu_ps(p, _mm256_blendv_ps(_mm256_loadu_ps(p), value, real));
}

// Double of (a - b) rounded to float, 8 lanes: the difference of two floats is exact in
// double, so its rounding is relative to the link, not to the distance from the origin.
DRAPE_STREAMS_INLINE __m256 differenceHalfRounded(__m256 a, __m256 b)
{
    const __m128 lo = _mm256_cvtpd_ps(
        _mm256_sub_pd(_mm256_cvtps_pd(_mm256_castps256_ps128(a)), _mm256_cvtps_pd(_mm256_castps256_ps128(b))));
    const __m128 hi = _mm256_cvtpd_ps(
        _mm256_sub_pd(_mm256_cvtps_pd(_mm256_extractf128_ps(a, 1)), _mm256_cvtps_pd(_mm256_extractf128_ps(b, 1))));
    return _mm256_insertf128_ps(_mm256_castps128_ps256(lo), hi, 1);
}

// Dword `dword` of the records whose first dwords are at `base`, in the real lanes (0 in the others).
DRAPE_STREAMS_INLINE __m256 gatherField(const float *records, __m256i base, int dword, __m256 real)
{
    return _mm256_mask_i32gather_ps(
        _mm256_setzero_ps(), records, _mm256_add_epi32(base, _mm256_set1_epi32(dword)), real, 4);
}

// 0 <= v < +inf (false for NaN), as a mask.
DRAPE_STREAMS_INLINE __m256 finiteNonNegative(__m256 v)
{
    return _mm256_and_ps(_mm256_cmp_ps(v, _mm256_setzero_ps(), _CMP_GE_OQ),
        _mm256_cmp_ps(v, _mm256_set1_ps(kNeverTear), _CMP_LT_OQ));
}

} // namespace

__attribute__((target("avx2"))) bool refreshSlotsAvx2(const Cloth &cloth, float invDt2, float invDt, bool verlet,
    XpbdBatches &batches, std::size_t begin, std::size_t end)
{
    constexpr std::size_t L = XpbdBatches::kLanes;
    const DistanceConstraint *cons = cloth.constraints.data();
    const int *records = reinterpret_cast<const int *>(cons);
    const float *recordFloats = reinterpret_cast<const float *>(cons);
    const std::size_t slots = batches.slotCount();
    const __m256i lastParticle = _mm256_set1_epi32(int(cloth.particles.size()) - 1);
    const __m256 zeroF = _mm256_setzero_ps();
    const __m256 invDt2F = _mm256_set1_ps(invDt2), invDtF = _mm256_set1_ps(invDt);
    __m256i ok = _mm256_set1_epi32(-1);
    for (std::size_t s = begin; s < end; s += L) {
        for (std::size_t l = 0; l < L; ++l)
            prefetchConstraint(cons, batches.source.data(), s + l, slots);
        const __m256i src = _mm256_loadu_si256(reinterpret_cast<const __m256i *>(batches.source.data() + s));
        const __m256i real = realLanes(src);
        if (_mm256_testz_si256(real, real)) {
            // Padding only; the block's damping flag still follows its (padding) γ.
            batches.blockDamped[s / L] = _mm256_movemask_ps(_mm256_cmp_ps(
                                             _mm256_loadu_ps(batches.gamma.data() + s), zeroF, _CMP_NEQ_UQ))
                != 0;
            continue;
        }
        const __m256 realF = _mm256_castsi256_ps(real);
        // Dword index of each record; padding lanes read record 0 (masked off below).
        const __m256i base = _mm256_slli_epi32(_mm256_and_si256(src, real), 3);
        const __m256i a = _mm256_mask_i32gather_epi32(_mm256_setzero_si256(), records, base, real, 4);
        const __m256i b = _mm256_mask_i32gather_epi32(
            _mm256_setzero_si256(), records, _mm256_add_epi32(base, _mm256_set1_epi32(1)), real, 4);
        const __m256 rest = gatherField(recordFloats, base, 2, realF);
        const __m256 compliance = gatherField(recordFloats, base, 3, realF);
        const __m256 damping = gatherField(recordFloats, base, 4, realF);
        const __m256 tearStrain = gatherField(recordFloats, base, 5, realF);
        const __m256 tearForce = gatherField(recordFloats, base, 7, realF);
        // constraintValid (cloth.h), lane by lane: ends in range (unsigned) and distinct,
        // rest length, compliance and damping finite and >= 0, tear thresholds > 0.
        const __m256i aIn = _mm256_cmpeq_epi32(_mm256_min_epu32(a, lastParticle), a);
        const __m256i bIn = _mm256_cmpeq_epi32(_mm256_min_epu32(b, lastParticle), b);
        const __m256i distinct = _mm256_xor_si256(_mm256_cmpeq_epi32(a, b), _mm256_set1_epi32(-1));
        const __m256 values = _mm256_and_ps(
            _mm256_and_ps(_mm256_and_ps(finiteNonNegative(rest), finiteNonNegative(compliance)),
                finiteNonNegative(damping)),
            _mm256_and_ps(_mm256_cmp_ps(tearStrain, zeroF, _CMP_GT_OQ), _mm256_cmp_ps(tearForce, zeroF, _CMP_GT_OQ)));
        const __m256i valid = _mm256_and_si256(
            _mm256_and_si256(_mm256_and_si256(aIn, bIn), distinct), _mm256_castps_si256(values));
        // Padding lanes count as valid.
        ok = _mm256_and_si256(ok, _mm256_or_si256(valid, _mm256_xor_si256(real, _mm256_set1_epi32(-1))));

        storeReal(batches.restLength.data() + s, rest, realF);
        const __m256 sx = _mm256_loadu_ps(batches.spanX.data() + s);
        const __m256 sy = _mm256_loadu_ps(batches.spanY.data() + s);
        const __m256 sz = _mm256_loadu_ps(batches.spanZ.data() + s);
        storeReal(batches.spanStretch.data() + s, stretch(sx, sy, sz, rest), realF);
        storeReal(batches.alphaTilde.data() + s, _mm256_mul_ps(compliance, invDt2F), realF);
        const __m256 gamma = verlet ? zeroF : _mm256_mul_ps(_mm256_mul_ps(compliance, damping), invDtF);
        float *gammaPtr = batches.gamma.data() + s;
        const __m256 blockGamma = _mm256_blendv_ps(_mm256_loadu_ps(gammaPtr), gamma, realF);
        _mm256_storeu_ps(gammaPtr, blockGamma);
        batches.blockDamped[s / L] = _mm256_movemask_ps(_mm256_cmp_ps(blockGamma, zeroF, _CMP_NEQ_UQ)) != 0;
    }
    return _mm256_movemask_epi8(ok) == -1;
}

__attribute__((target("avx2"))) void setSpansAvx2(
    XpbdBatches &batches, const Vec3 *origin, std::size_t begin, std::size_t end)
{
    constexpr std::size_t L = XpbdBatches::kLanes;
    const float *of = &origin[0].x;
    const __m256i one = _mm256_set1_epi32(1), three = _mm256_set1_epi32(3);
    for (std::size_t s = begin; s < end; s += L) {
        const __m256i src = _mm256_loadu_si256(reinterpret_cast<const __m256i *>(batches.source.data() + s));
        const __m256i real = realLanes(src);
        if (_mm256_testz_si256(real, real))
            continue; // padding keeps its NaN span
        const __m256 realF = _mm256_castsi256_ps(real);
        // The block's ends as the kernels fetch them: two windows of the origin array for
        // window blocks (xpbdlanes.h), gathers for the others.
        avx2::Lanes xa, xb;
        const std::size_t block = s / L;
        if (batches.blockFetch[block] == XpbdBatches::Gather) {
            const __m256i ia = _mm256_and_si256(
                _mm256_loadu_si256(reinterpret_cast<const __m256i *>(batches.a.data() + s)), real);
            const __m256i ib = _mm256_and_si256(
                _mm256_loadu_si256(reinterpret_cast<const __m256i *>(batches.b.data() + s)), real);
            const __m256i ax = _mm256_mullo_epi32(ia, three), bx = _mm256_mullo_epi32(ib, three);
            const __m256i ay = _mm256_add_epi32(ax, one), by = _mm256_add_epi32(bx, one);
            const __m256i az = _mm256_add_epi32(ay, one), bz = _mm256_add_epi32(by, one);
            xa = { _mm256_i32gather_ps(of, ax, 4), _mm256_i32gather_ps(of, ay, 4), _mm256_i32gather_ps(of, az, 4) };
            xb = { _mm256_i32gather_ps(of, bx, 4), _mm256_i32gather_ps(of, by, 4), _mm256_i32gather_ps(of, bz, 4) };
        } else {
            const avx2::Lanes x0 = avx2::loadWindow(of, batches.windowBase[2 * block]);
            const avx2::Lanes x1 = avx2::loadWindow(of, batches.windowBase[2 * block + 1]);
            if (batches.blockFetch[block] == XpbdBatches::Runs) {
                xa = x0;
                xb = x1;
            } else {
                const std::uint64_t lanes = batches.windowLanes[block];
                xa = avx2::pick(x0, x1, avx2::nibbles(std::uint32_t(lanes)));
                xb = avx2::pick(x0, x1, avx2::nibbles(std::uint32_t(lanes >> 32)));
            }
        }
        const __m256 sx = differenceHalfRounded(xa.x, xb.x);
        const __m256 sy = differenceHalfRounded(xa.y, xb.y);
        const __m256 sz = differenceHalfRounded(xa.z, xb.z);
        storeReal(batches.spanX.data() + s, sx, realF);
        storeReal(batches.spanY.data() + s, sy, realF);
        storeReal(batches.spanZ.data() + s, sz, realF);
        const __m256 rest = _mm256_loadu_ps(batches.restLength.data() + s);
        storeReal(batches.spanStretch.data() + s, stretch(sx, sy, sz, rest), realF);
    }
}

} // namespace drape::detail
