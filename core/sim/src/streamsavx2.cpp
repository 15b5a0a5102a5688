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

static_assert(sizeof(PackedConstraint) == 16 && offsetof(PackedConstraint, a) == 0
        && offsetof(PackedConstraint, b) == 4 && offsetof(PackedConstraint, restLength) == 8
        && offsetof(PackedConstraint, materialAndColour) == 12,
    "the gathers index the stored records as 4 dwords");
static_assert(sizeof(ConstraintMaterial) == 20 && offsetof(ConstraintMaterial, compliance) == 0
        && offsetof(ConstraintMaterial, damping) == 4 && offsetof(ConstraintMaterial, tearStrain) == 8
        && offsetof(ConstraintMaterial, tearForce) == 12,
    "the gathers index the materials as 5 dwords");

#define DRAPE_STREAMS_INLINE __attribute__((target("avx2,fma"), always_inline)) inline

// Lanes holding a constraint (source != ~0) as an all-ones mask.
DRAPE_STREAMS_INLINE __m256i realLanes(__m256i src)
{
    return _mm256_xor_si256(_mm256_cmpeq_epi32(src, _mm256_set1_epi32(-1)), _mm256_set1_epi32(-1));
}

// The same from a block's live-lane bits (SlotSources::liveLanes): lane l all ones if bit l
// is set.
DRAPE_STREAMS_INLINE __m256i realLanes(std::uint8_t live)
{
    const __m256i bit = _mm256_setr_epi32(1, 2, 4, 8, 16, 32, 64, 128);
    return _mm256_cmpeq_epi32(_mm256_and_si256(_mm256_set1_epi32(live), bit), bit);
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

__attribute__((target("avx2,fma"))) bool refreshSlotsAvx2(const Cloth &cloth, float invDt2, float invDt,
    bool verlet, XpbdBatches &batches, std::size_t begin, std::size_t end)
{
    constexpr std::size_t L = XpbdBatches::kLanes;
    const ConstraintRecords &constraints = cloth.constraints;
    const float *materials = reinterpret_cast<const float *>(cloth.constraints.materials().data());
    const __m256i lastParticle = _mm256_set1_epi32(int(cloth.particles.size()) - 1);
    const __m256 zeroF = _mm256_setzero_ps();
    const __m256 invDt2F = _mm256_set1_ps(invDt2), invDtF = _mm256_set1_ps(invDt);
    __m256i ok = _mm256_set1_epi32(-1);
    for (std::size_t s = begin; s < end; s += L) {
        std::uint32_t block[L];
        batches.source.block(s / L, block);
        const __m256i src = _mm256_loadu_si256(reinterpret_cast<const __m256i *>(block));
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
        // The block's records, read from their blocks (RecordBlocks) field by field into
        // arrays of their own; padding lanes hold zeros (masked off below).
        alignas(32) std::uint32_t endA[L] = {}, endB[L] = {}, material[L] = {};
        alignas(32) float restLength[L] = {};
        for (std::size_t l = 0; l < L; ++l) {
            if (block[l] == SlotSources::kNone)
                continue;
            const PackedConstraint p = constraints.packed(block[l]);
            endA[l] = p.a;
            endB[l] = p.b;
            restLength[l] = p.restLength;
            material[l] = p.material();
        }
        const __m256i a = _mm256_load_si256(reinterpret_cast<const __m256i *>(endA));
        const __m256i b = _mm256_load_si256(reinterpret_cast<const __m256i *>(endB));
        const __m256 rest = _mm256_load_ps(restLength);
        // The material's first dword: its index times 5.
        const __m256i materialIndex = _mm256_load_si256(reinterpret_cast<const __m256i *>(material));
        const __m256i materialBase = _mm256_add_epi32(_mm256_slli_epi32(materialIndex, 2), materialIndex);
        const __m256 compliance = gatherField(materials, materialBase, 0, realF);
        const __m256 damping = gatherField(materials, materialBase, 1, realF);
        const __m256 tearStrain = gatherField(materials, materialBase, 2, realF);
        const __m256 tearForce = gatherField(materials, materialBase, 3, realF);
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

namespace {

// What setSpans reads and writes, as pointers taken once (the stores through float pointers
// would otherwise make the compiler load every vector's data pointer again for each block).
struct SpanStreams {
    explicit SpanStreams(XpbdBatches &b)
        : live(b.source.liveLaneData())
        , gatherEnds(b.gatherEnds.data())
        , fetch(b.blockFetch.data())
        , windowBase(b.windowBase.data())
        , windowStep(b.windowStep.data())
        , windowPattern(b.windowPattern.data())
        , patternLanes(b.patternLanes.data())
        , spanX(b.spanX.data())
        , spanY(b.spanY.data())
        , spanZ(b.spanZ.data())
    {
    }
    const std::uint8_t *live; ///< SlotSources::liveLanes, per block
    const std::uint32_t *gatherEnds;
    const std::uint8_t *fetch;
    const std::uint32_t *windowBase;
    const std::int16_t *windowStep;
    const std::uint16_t *windowPattern;
    const std::uint64_t *patternLanes;
    float *spanX, *spanY, *spanZ;
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
        const std::uint32_t *ends = st.gatherEnds + st.windowBase[block];
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
    const avx2::Lanes x0 = avx2::loadWindow(of, st.windowBase[block]);
    const avx2::Lanes x1
        = avx2::loadWindow(of, st.windowBase[block] + std::uint32_t(std::int32_t(st.windowStep[block])));
    if (st.fetch[block] == XpbdBatches::Runs) {
        xa = x0;
        xb = x1;
    } else {
        const std::uint64_t lanes = st.patternLanes[st.windowPattern[block]];
        xa = avx2::pick(x0, x1, avx2::nibbles(std::uint32_t(lanes)));
        xb = avx2::pick(x0, x1, avx2::nibbles(std::uint32_t(lanes >> 32)));
    }
}

} // namespace

__attribute__((target("avx2,fma"))) void setSpansAvx2(
    XpbdBatches &batches, const Vec3 *origin, std::size_t begin, std::size_t end)
{
    const SpanStreams st(batches);
    const float *of = &origin[0].x;
    for (std::size_t s = begin; s < end; s += XpbdBatches::kLanes) {
        const __m256i real = realLanes(st.live[s / XpbdBatches::kLanes]);
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
    }
}

__attribute__((target("avx2,fma,avx512f,avx512vl,avx512bw,avx512dq"))) void setSpansAvx512(
    XpbdBatches &batches, const Vec3 *origin, std::size_t begin, std::size_t end)
{
    const SpanStreams st(batches);
    const float *of = &origin[0].x;
    for (std::size_t s = begin; s < end; s += XpbdBatches::kLanes) {
        const __m256i real = realLanes(st.live[s / XpbdBatches::kLanes]);
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
    }
}

} // namespace drape::detail
