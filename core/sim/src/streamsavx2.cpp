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

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>

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
    const DistanceConstraint *cons = cloth.constraints.storage();
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
            batches.blockDamped[s / L] = !batches.gamma.empty()
                && _mm256_movemask_ps(
                       _mm256_cmp_ps(_mm256_loadu_ps(batches.gamma.data() + s), zeroF, _CMP_NEQ_UQ))
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
        if (batches.gamma.empty()) {
            batches.blockDamped[s / L] = 0; // no γ stream: no slot is damped
            continue;
        }
        const __m256 gamma = verlet ? zeroF : _mm256_mul_ps(_mm256_mul_ps(compliance, damping), invDtF);
        float *gammaPtr = batches.gamma.data() + s;
        const __m256 blockGamma = _mm256_blendv_ps(_mm256_loadu_ps(gammaPtr), gamma, realF);
        _mm256_storeu_ps(gammaPtr, blockGamma);
        batches.blockDamped[s / L] = _mm256_movemask_ps(_mm256_cmp_ps(blockGamma, zeroF, _CMP_NEQ_UQ)) != 0;
    }
    return _mm256_movemask_epi8(ok) == -1;
}

__attribute__((target("avx2"))) bool scanConstraintRecordsAvx2(
    const DistanceConstraint *first, std::size_t m, std::size_t particles, std::uint64_t &hash)
{
    const std::size_t n = std::min<std::size_t>(particles, 0xFFFFFFFFu);
    const int *records = reinterpret_cast<const int *>(first);
    // One record (8 dwords) per register, a record's dword d in lane d. constraintValid as
    // one bound per lane on the largest unsigned value its dword takes, once a record's
    // dwords are mapped so that exactly the valid ones lie at or under it:
    // - a, b (lanes 0, 1): themselves, at most n - 1;
    // - rest length, compliance, damping (lanes 2-4), finite and >= 0: the bits of +0 up to
    //   the largest finite float, 0x7F7FFFFF, and -0 (0x80000000), which is mapped to +0;
    //   negative values, infinities and NaNs lie above;
    // - tear strain and tear force (lanes 5, 7), > 0 and not NaN: the bits minus one, so that
    //   the smallest subnormal up to +inf become 0 to 0x7F7FFFFF, and 0 wraps to the top;
    // - the kind and colour (lane 6): anything.
    // So a record costs a map and a max instead of two compares and a mask per kind of lane.
    const __m256i signBit = _mm256_set1_epi32(std::numeric_limits<int>::min());
    const __m256i finiteLanes = _mm256_setr_epi32(0, 0, -1, -1, -1, 0, 0, 0);
    const __m256i minusOne = _mm256_setr_epi32(0, 0, 0, 0, 0, 1, 0, 1);
    const __m256i firstLane = _mm256_setr_epi32(-1, 0, 0, 0, 0, 0, 0, 0); // a != b
    const std::uint32_t lastIndex = std::uint32_t(n) - 1; // no particles: wraps, and m > 0 is refused below
    const __m256i bound = _mm256_setr_epi32(
        int(lastIndex), int(lastIndex), 0x7F7FFFFF, 0x7F7FFFFF, 0x7F7FFFFF, 0x7F7FFFFF, -1, 0x7F7FFFFF);
    __m256i largest = _mm256_setzero_si256();
    __m256i sameEnds = _mm256_setzero_si256();
    __m256i acc[4];
    for (int k = 0; k < 4; ++k)
        acc[k] = _mm256_set1_epi32(int(m) + k);
    const auto scan = [&](std::size_t r, __m256i & a) __attribute__((target("avx2"), always_inline))
    {
        const __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i *>(records + 8 * r));
        const __m256i negativeZero = _mm256_and_si256(_mm256_cmpeq_epi32(v, signBit), finiteLanes);
        largest = _mm256_max_epu32(largest, _mm256_sub_epi32(_mm256_andnot_si256(negativeZero, v), minusOne));
        sameEnds
            = _mm256_or_si256(sameEnds, _mm256_cmpeq_epi32(v, _mm256_shuffle_epi32(v, 0xB1))); // a beside b
        // The hash: rest length, compliance, damping (lanes 2-4), records taking turns
        // through four accumulators; each step a bijection of a lane's state, as in
        // xpbdbatch.cpp's mixRecord, in 32 bits.
        const __m256i t = _mm256_mullo_epi32(
            _mm256_xor_si256(a, _mm256_and_si256(v, finiteLanes)), _mm256_set1_epi32(-1640531535));
        a = _mm256_xor_si256(t, _mm256_srli_epi32(t, 15));
    };
    // Record r goes to accumulator r % 4: four records a step, so that each accumulator has
    // a register of its own (indexed at run time they lived in memory, a store and a reload
    // on every record's chain).
    std::size_t r = 0;
    for (; r + 4 <= m; r += 4) {
#pragma GCC unroll 4
        for (int k = 0; k < 4; ++k)
            scan(r + std::size_t(k), acc[k]);
    }
    for (int k = 0; r < m; ++r, ++k)
        scan(r, acc[k]);
    alignas(32) std::uint32_t lanes[4][8];
    for (int k = 0; k < 4; ++k)
        _mm256_store_si256(reinterpret_cast<__m256i *>(lanes[k]), acc[k]);
    std::uint64_t h = 0;
    for (int k = 0; k < 4; ++k)
        for (int l = 2; l < 5; ++l) {
            const std::uint64_t x = (h ^ lanes[k][l]) * 0x9E3779B97F4A7C15ull;
            h = x ^ (x >> 29);
        }
    hash = h;
    // A lane over its bound: its largest value and the bound differ and their max is not the bound.
    const __m256i over = _mm256_xor_si256(_mm256_max_epu32(largest, bound), bound);
    const bool indicesKnown = n > 0 || m == 0;
    return indicesKnown && _mm256_testz_si256(over, over) && _mm256_testz_si256(sameEnds, firstLane);
}

namespace {

// Two records (16 dwords) per register: a record's dword d is lane d of its half.
constexpr __mmask16 kIndexLanes = 0x0303; // a, b: below the particle count
constexpr __mmask16 kFirstLanes = 0x0101; // a: differs from b
constexpr __mmask16 kFiniteLanes = 0x1C1C; // rest length, compliance, damping: finite, >= 0
constexpr __mmask16 kPositiveLanes = 0xA0A0; // tear strain, tear force: > 0
constexpr __mmask16 kHashedLanes = 0x1C1C; // what a refresh reads

#define DRAPE_AVX512_STREAMS                                                                              \
    __attribute__((target("avx2,avx512f,avx512vl,avx512bw,avx512dq"), always_inline)) inline

// constraintValid (cloth.h) of the records in the lanes of `live`, as failing lanes.
DRAPE_AVX512_STREAMS __mmask16 failingLanes(__m512i r, __m512i particles, __mmask16 live)
{
    const __m512 f = _mm512_castsi512_ps(r);
    const __m512 zero = _mm512_setzero_ps();
    const __mmask16 inRange = _mm512_cmplt_epu32_mask(r, particles);
    // b beside a: swap the dwords of each pair (a, b are dwords 0 and 1 of a record).
    const __m512i swapped = _mm512_maskz_shuffle_epi32(0xFFFF, r, _MM_PERM_CDAB);
    const __mmask16 distinct = _mm512_cmpneq_epi32_mask(r, swapped);
    const __mmask16 finite = _mm512_cmp_ps_mask(f, zero, _CMP_GE_OQ)
        & _mm512_cmp_ps_mask(f, _mm512_set1_ps(std::numeric_limits<float>::infinity()), _CMP_LT_OQ);
    const __mmask16 positive = _mm512_cmp_ps_mask(f, zero, _CMP_GT_OQ);
    const __mmask16 bad = (kIndexLanes & ~inRange) | (kFirstLanes & ~distinct) | (kFiniteLanes & ~finite)
        | (kPositiveLanes & ~positive);
    return __mmask16(bad & live);
}

// scanConstraintRecords' mixing step (xpbdbatch.cpp), on 8 lanes. (The maskz forms with
// every lane set here and in failingLanes are the plain instructions; GCC 12 warns about the
// plain intrinsics' undefined merge value.)
DRAPE_AVX512_STREAMS __m512i mixRecords(__m512i acc, __m512i words)
{
    const __m512i t = _mm512_mullo_epi64(_mm512_xor_si512(acc, words), _mm512_set1_epi64(0x9E3779B97F4A7C15ll));
    return _mm512_xor_si512(t, _mm512_maskz_srli_epi64(0xFF, t, 29));
}

} // namespace

__attribute__((target("avx2,avx512f,avx512vl,avx512bw,avx512dq"))) bool scanConstraintRecordsAvx512(
    const DistanceConstraint *first, std::size_t m, std::size_t particleCount, std::uint64_t &hash)
{
    const int *records = reinterpret_cast<const int *>(first);
    const std::size_t n = std::min<std::size_t>(particleCount, 0xFFFFFFFFu);
    const __m512i particles = _mm512_set1_epi32(int(std::uint32_t(n))); // compared unsigned
    // Four accumulators (records 8j + 2k and 8j + 2k + 1 go through accumulator k), so that
    // the multiply-fold chain of one pair does not hold up the next.
    __m512i acc[4];
    for (int k = 0; k < 4; ++k)
        acc[k] = _mm512_set1_epi64(static_cast<long long>(m) + k);
    __mmask16 bad = 0;
    std::size_t r = 0;
    for (; r + 8 <= m; r += 8) {
        for (int k = 0; k < 4; ++k) {
            const __m512i v = _mm512_loadu_si512(records + 8 * (r + 2 * k));
            bad |= failingLanes(v, particles, 0xFFFF);
            acc[k] = mixRecords(acc[k], _mm512_maskz_mov_epi32(kHashedLanes, v));
        }
    }
    for (; r < m; r += 2) {
        const __mmask16 live = r + 1 < m ? 0xFFFF : 0x00FF;
        const __m512i v = _mm512_maskz_loadu_epi32(live, records + 8 * r);
        bad |= failingLanes(v, particles, live);
        acc[0] = mixRecords(acc[0], _mm512_maskz_mov_epi32(kHashedLanes, v));
    }
    alignas(64) std::uint64_t lanes[4][8];
    for (int k = 0; k < 4; ++k)
        _mm512_store_si512(lanes[k], acc[k]);
    std::uint64_t h = 0;
    for (int k = 0; k < 4; ++k)
        for (int l = 0; l < 8; ++l) {
            const std::uint64_t t = (h ^ lanes[k][l]) * 0x9E3779B97F4A7C15ull;
            h = t ^ (t >> 29);
        }
    hash = h;
    return bad == 0;
}

namespace {

// What setSpans reads and writes, as pointers taken once (the stores through float pointers
// would otherwise make the compiler load every vector's data pointer again for each block).
struct SpanStreams {
    explicit SpanStreams(XpbdBatches &b)
        : source(b.source.data())
        , gatherEnds(b.gatherEnds.data())
        , fetch(b.blockFetch.data())
        , windowBase(b.windowBase.data())
        , windowPattern(b.windowPattern.data())
        , patternLanes(b.patternLanes.data())
        , restLength(b.restLength.data())
        , spanX(b.spanX.data())
        , spanY(b.spanY.data())
        , spanZ(b.spanZ.data())
        , spanStretch(b.spanStretch.data())
    {
    }
    const std::uint32_t *source, *gatherEnds;
    const std::uint8_t *fetch;
    const std::uint32_t *windowBase;
    const std::uint16_t *windowPattern;
    const std::uint64_t *patternLanes;
    const float *restLength;
    float *spanX, *spanY, *spanZ, *spanStretch;
};

// A block's ends (slots s .. s + 8) as the kernels fetch them: two windows of the origin array
// for window blocks (xpbdlanes.h), gathers for the others.
DRAPE_STREAMS_INLINE void blockEnds(
    const SpanStreams &st, const float *of, std::size_t s, __m256i real, avx2::Lanes &xa, avx2::Lanes &xb)
{
    constexpr std::size_t L = XpbdBatches::kLanes;
    const __m256i one = _mm256_set1_epi32(1), three = _mm256_set1_epi32(3);
    const std::size_t block = s / L;
    if (st.fetch[block] == XpbdBatches::Gather) {
        const std::uint32_t *ends = st.gatherEnds + st.windowBase[2 * block];
        const __m256i ia
            = _mm256_and_si256(_mm256_loadu_si256(reinterpret_cast<const __m256i *>(ends)), real);
        const __m256i ib
            = _mm256_and_si256(_mm256_loadu_si256(reinterpret_cast<const __m256i *>(ends + L)), real);
        const __m256i ax = _mm256_mullo_epi32(ia, three), bx = _mm256_mullo_epi32(ib, three);
        const __m256i ay = _mm256_add_epi32(ax, one), by = _mm256_add_epi32(bx, one);
        const __m256i az = _mm256_add_epi32(ay, one), bz = _mm256_add_epi32(by, one);
        xa = { _mm256_i32gather_ps(of, ax, 4), _mm256_i32gather_ps(of, ay, 4), _mm256_i32gather_ps(of, az, 4) };
        xb = { _mm256_i32gather_ps(of, bx, 4), _mm256_i32gather_ps(of, by, 4), _mm256_i32gather_ps(of, bz, 4) };
        return;
    }
    const avx2::Lanes x0 = avx2::loadWindow(of, st.windowBase[2 * block]);
    const avx2::Lanes x1 = avx2::loadWindow(of, st.windowBase[2 * block + 1]);
    if (st.fetch[block] == XpbdBatches::Runs) {
        xa = x0;
        xb = x1;
    } else {
        const std::uint64_t lanes = st.patternLanes[st.windowPattern[block]];
        xa = avx2::pick(x0, x1, avx2::nibbles(std::uint32_t(lanes)));
        xb = avx2::pick(x0, x1, avx2::nibbles(std::uint32_t(lanes >> 32)));
    }
}

#define DRAPE_STREAMS512_INLINE                                                                            \
    __attribute__((target("avx2,avx512f,avx512vl,avx512bw,avx512dq"), always_inline)) inline

// stretch() with the eight lanes' doubles in one register (the
// conversions in their zero-masking forms with every lane live, which GCC 12 does not take
// for a read of an undefined register).
DRAPE_STREAMS512_INLINE __m512d widen(__m256 v)
{
    return _mm512_maskz_cvtps_pd(0xFF, v);
}

DRAPE_STREAMS512_INLINE __m256 narrow(__m512d v)
{
    return _mm512_maskz_cvtpd_ps(0xFF, v);
}

DRAPE_STREAMS512_INLINE __m256 stretch512(__m256 sx, __m256 sy, __m256 sz, __m256 rest)
{
    const __m512d x = widen(sx), y = widen(sy), z = widen(sz), l = widen(rest);
    const __m512d sum = _mm512_add_pd(_mm512_add_pd(_mm512_mul_pd(x, x), _mm512_mul_pd(y, y)), _mm512_mul_pd(z, z));
    return narrow(_mm512_sub_pd(sum, _mm512_mul_pd(l, l)));
}

} // namespace

__attribute__((target("avx2"))) void setSpansAvx2(
    XpbdBatches &batches, const Vec3 *origin, std::size_t begin, std::size_t end)
{
    const SpanStreams st(batches);
    const float *of = &origin[0].x;
    for (std::size_t s = begin; s < end; s += XpbdBatches::kLanes) {
        const __m256i src = _mm256_loadu_si256(reinterpret_cast<const __m256i *>(st.source + s));
        const __m256i real = realLanes(src);
        if (_mm256_testz_si256(real, real))
            continue; // padding keeps its NaN span
        const __m256 realF = _mm256_castsi256_ps(real);
        avx2::Lanes xa, xb;
        blockEnds(st, of, s, real, xa, xb);
        const __m256 sx = _mm256_sub_ps(xa.x, xb.x);
        const __m256 sy = _mm256_sub_ps(xa.y, xb.y);
        const __m256 sz = _mm256_sub_ps(xa.z, xb.z);
        storeReal(st.spanX + s, sx, realF);
        storeReal(st.spanY + s, sy, realF);
        storeReal(st.spanZ + s, sz, realF);
        storeReal(st.spanStretch + s, stretch(sx, sy, sz, _mm256_loadu_ps(st.restLength + s)), realF);
    }
}

__attribute__((target("avx2,avx512f,avx512vl,avx512bw,avx512dq"))) void setSpansAvx512(
    XpbdBatches &batches, const Vec3 *origin, std::size_t begin, std::size_t end)
{
    const SpanStreams st(batches);
    const float *of = &origin[0].x;
    for (std::size_t s = begin; s < end; s += XpbdBatches::kLanes) {
        const __m256i src = _mm256_loadu_si256(reinterpret_cast<const __m256i *>(st.source + s));
        const __m256i real = realLanes(src);
        if (_mm256_testz_si256(real, real))
            continue; // padding keeps its NaN span
        const __mmask8 live = __mmask8(_mm256_movemask_ps(_mm256_castsi256_ps(real)));
        avx2::Lanes xa, xb;
        blockEnds(st, of, s, real, xa, xb);
        const __m256 sx = _mm256_sub_ps(xa.x, xb.x);
        const __m256 sy = _mm256_sub_ps(xa.y, xb.y);
        const __m256 sz = _mm256_sub_ps(xa.z, xb.z);
        _mm256_mask_storeu_ps(st.spanX + s, live, sx);
        _mm256_mask_storeu_ps(st.spanY + s, live, sy);
        _mm256_mask_storeu_ps(st.spanZ + s, live, sz);
        _mm256_mask_storeu_ps(st.spanStretch + s, live, stretch512(sx, sy, sz, _mm256_loadu_ps(st.restLength + s)));
    }
}

} // namespace drape::detail
