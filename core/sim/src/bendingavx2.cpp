// Eight bending patches at a time in AVX2 (BendChunk, bendingsolve.h): the XPBD step of
// bendingsolve.cpp's solvePatch, lane by lane, with the same IEEE operations in the same
// order, so that the pass keeps the bits of the one-by-one pass (tests/tst_bending.cpp
// compares them). No multiply-add is contracted into one rounding (-ffp-contract=off,
// core/CMakeLists.txt), the float parts stay in float and the double parts in double (four
// lanes at a time), and atan2 is the same library call, once per lane.
//
// A lane's slots differ in which corner of each hinge they are (BendChunk::swaps): blends put
// each lane's corners in its hinge's order and take the gradients back.
#include "bendingsolve.h"
#include "vec3avx2.h"

#include <immintrin.h>

#include <cmath>
#include <cstddef>
#include <cstdint>

namespace drape::detail {

namespace {

using namespace lanes8;

#define DRAPE_BEND_INLINE __attribute__((target("avx2"), always_inline)) inline

constexpr int kLanes = BendChunk::kLanes;

DRAPE_BEND_INLINE __m256 load(const float *p)
{
    return _mm256_loadu_ps(p);
}

DRAPE_BEND_INLINE __m256i loadIndex(const std::uint32_t *p)
{
    return _mm256_loadu_si256(reinterpret_cast<const __m256i *>(p));
}

// Eight bytes, one per lane, as eight 32-bit integers.
DRAPE_BEND_INLINE __m256i loadBytes(const std::uint8_t *p)
{
    return _mm256_cvtepu8_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i *>(p)));
}

// bendpatch::wrapAngle lane by lane: each lane steps by 2π while it is out of (−π, π].
DRAPE_BEND_INLINE __m256 wrapAngle(__m256 a)
{
    const __m256 pi = _mm256_set1_ps(3.14159265358979f);
    const __m256 twoPi = _mm256_set1_ps(2.f * 3.14159265358979f);
    for (__m256 m = _mm256_cmp_ps(a, pi, _CMP_GT_OQ); _mm256_movemask_ps(m);
         m = _mm256_cmp_ps(a, pi, _CMP_GT_OQ))
        a = _mm256_blendv_ps(a, _mm256_sub_ps(a, twoPi), m);
    const __m256 minusPi = _mm256_set1_ps(-3.14159265358979f);
    for (__m256 m = _mm256_cmp_ps(a, minusPi, _CMP_LE_OQ); _mm256_movemask_ps(m);
         m = _mm256_cmp_ps(a, minusPi, _CMP_LE_OQ))
        a = _mm256_blendv_ps(a, _mm256_add_ps(a, twoPi), m);
    return a;
}

// The lanes' values where `keep` is set, +0 elsewhere.
DRAPE_BEND_INLINE __m256 keepOrZero(__m256 value, __m256 keep)
{
    return _mm256_and_ps(value, keep);
}

DRAPE_BEND_INLINE __m256d toDouble(__m256 v, int half)
{
    return _mm256_cvtps_pd(half ? _mm256_extractf128_ps(v, 1) : _mm256_castps256_ps128(v));
}

DRAPE_BEND_INLINE __m256 toFloat(__m256d lo, __m256d hi)
{
    return _mm256_insertf128_ps(_mm256_castps128_ps256(_mm256_cvtpd_ps(lo)), _mm256_cvtpd_ps(hi), 1);
}

// bendAngle (bending.cpp) for eight hinges: `valid` marks the lanes whose hinge is not
// degenerate; the others' angle and gradient are whatever the arithmetic gave.
DRAPE_BEND_INLINE void bendAngle(
    const V3 &x0, const V3 &x1, const V3 &x2, const V3 &x3, __m256 &valid, __m256 &angle, V3 grad[4])
{
    const V3 e = sub(x1, x0);
    const __m256 ee = dot(e, e);
    const V3 d2 = sub(x2, x0), d3 = sub(x3, x0);
    const V3 nA = cross(e, d2);
    const V3 nB = cross(d3, e);
    const __m256 aa = dot(nA, nA), bb = dot(nB, nB);
    const __m256 tiny = _mm256_mul_ps(_mm256_mul_ps(_mm256_set1_ps(1e-12f), ee), ee);
    valid = _mm256_and_ps(_mm256_cmp_ps(ee, _mm256_setzero_ps(), _CMP_GT_OQ),
        _mm256_and_ps(_mm256_cmp_ps(aa, tiny, _CMP_GT_OQ), _mm256_cmp_ps(bb, tiny, _CMP_GT_OQ)));
    const __m256 le = _mm256_sqrt_ps(ee);
    const __m256 sine = _mm256_div_ps(dot(cross(nB, nA), e), le);
    const __m256 cosine = dot(nA, nB);
    alignas(32) float s[kLanes], c[kLanes], a[kLanes];
    _mm256_store_ps(s, sine);
    _mm256_store_ps(c, cosine);
    for (int lane = 0; lane < kLanes; ++lane)
        a[lane] = std::atan2(s[lane], c[lane]);
    angle = wrapAngle(_mm256_load_ps(a));
    const V3 g2 = scale(nA, _mm256_div_ps(le, aa));
    const V3 g3 = scale(nB, _mm256_div_ps(le, bb));
    const __m256 s2 = _mm256_div_ps(dot(d2, e), ee), s3 = _mm256_div_ps(dot(d3, e), ee);
    const __m256 one = _mm256_set1_ps(1.f);
    grad[0] = negate(add(scale(g2, _mm256_sub_ps(one, s2)), scale(g3, _mm256_sub_ps(one, s3))));
    grad[1] = negate(add(scale(g2, s2), scale(g3, s3)));
    grad[2] = g2;
    grad[3] = g3;
}

DRAPE_BEND_INLINE __m256d mul(__m256d a, __m256d b)
{
    return _mm256_mul_pd(a, b);
}

DRAPE_BEND_INLINE __m256d sub(__m256d a, __m256d b)
{
    return _mm256_sub_pd(a, b);
}

DRAPE_BEND_INLINE __m256d add(__m256d a, __m256d b)
{
    return _mm256_add_pd(a, b);
}

// solve3 (bendingsolve.cpp) for four lanes; `ok` marks the lanes whose matrix is regular.
DRAPE_BEND_INLINE void solve3(const __m256d m[3][3], const __m256d r[3], __m256d x[3], __m256d &ok)
{
    const __m256d c00 = sub(mul(m[1][1], m[2][2]), mul(m[1][2], m[2][1]));
    const __m256d c01 = sub(mul(m[1][2], m[2][0]), mul(m[1][0], m[2][2]));
    const __m256d c02 = sub(mul(m[1][0], m[2][1]), mul(m[1][1], m[2][0]));
    const __m256d det = add(add(mul(m[0][0], c00), mul(m[0][1], c01)), mul(m[0][2], c02));
    const __m256d absDet = _mm256_andnot_pd(_mm256_set1_pd(-0.0), det);
    ok = _mm256_cmp_pd(absDet, _mm256_set1_pd(1e-300), _CMP_GT_OQ);
    const __m256d inv = _mm256_div_pd(_mm256_set1_pd(1.0), det);
    x[0] = mul(add(add(mul(r[0], c00), mul(r[1], sub(mul(m[0][2], m[2][1]), mul(m[0][1], m[2][2])))),
                   mul(r[2], sub(mul(m[0][1], m[1][2]), mul(m[0][2], m[1][1])))),
        inv);
    x[1] = mul(add(add(mul(r[0], c01), mul(r[1], sub(mul(m[0][0], m[2][2]), mul(m[0][2], m[2][0])))),
                   mul(r[2], sub(mul(m[0][2], m[1][0]), mul(m[0][0], m[1][2])))),
        inv);
    x[2] = mul(add(add(mul(r[0], c02), mul(r[1], sub(mul(m[0][1], m[2][0]), mul(m[0][0], m[2][1])))),
                   mul(r[2], sub(mul(m[0][0], m[1][1]), mul(m[0][1], m[1][0])))),
        inv);
}

DRAPE_BEND_INLINE void solveChunk(const BendChunk &chunk, const BendPatch *patches, const float rigidity[3],
    double invDt2, const float *invMass, const Vec3 *origin, Vec3 *offset, float *lambda)
{
    // Each lane's patch record as floats, for gathering its coefficients and area.
    static_assert(sizeof(BendPatch) % 4 == 0 && offsetof(BendPatch, coeff) % 4 == 0
        && offsetof(BendPatch, area) % 4 == 0);
    const float *patchFloats = reinterpret_cast<const float *>(patches);
    const __m256i patchIndex
        = _mm256_mullo_epi32(loadIndex(chunk.patch), _mm256_set1_epi32(int(sizeof(BendPatch) / 4)));
    const __m256i laneIndex = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    const __m256 real = _mm256_castsi256_ps(_mm256_cmpgt_epi32(_mm256_set1_epi32(chunk.lanes), laneIndex));
    const __m256i three = _mm256_set1_epi32(3);

    // The lanes with hinge i; a missing hinge's far-corner slot counts as a fixed particle
    // (w = +0: what it adds to a sum leaves the sum as it was).
    const __m256i hinges = loadBytes(chunk.hinges);
    __m256 present[3];
    for (int i = 0; i < 3; ++i) {
        const __m256i bit = _mm256_set1_epi32(1 << i);
        present[i] = _mm256_castsi256_ps(_mm256_cmpeq_epi32(_mm256_and_si256(hinges, bit), bit));
    }

    // Inverse masses; a patch whose particles are all fixed is skipped.
    __m256i index3[6];
    __m256 w[6];
    __m256 wSum = _mm256_setzero_ps();
    for (int s = 0; s < 6; ++s) {
        const __m256i v = loadIndex(chunk.vertex[s]);
        index3[s] = _mm256_mullo_epi32(v, three);
        w[s] = _mm256_i32gather_ps(invMass, v, 4);
        if (s >= 3)
            w[s] = keepOrZero(w[s], present[s - 3]);
        wSum = _mm256_add_ps(wSum, w[s]);
    }
    __m256 live = _mm256_and_ps(real, _mm256_cmp_ps(wSum, _mm256_setzero_ps(), _CMP_NEQ_UQ));
    if (!_mm256_movemask_ps(live))
        return;

    // Slot positions relative to the first.
    V3 x[6], offsetOf[6];
    const V3 origin0 = gather(origin, index3[0]);
    const V3 offset0 = gather(offset, index3[0]);
    for (int s = 0; s < 6; ++s) {
        offsetOf[s] = gather(offset, index3[s]);
        x[s] = add(sub(gather(origin, index3[s]), origin0), sub(offsetOf[s], offset0));
    }

    // Each hinge's angle and gradient (bendpatch::linearise). Hinge i joins triangle slots i
    // and i + 1 (mod 3), with the triangle's third corner and slot 3 + i across it; its
    // corners are these slots in the order of BendHinge::v, which BendChunk::swaps gives per
    // lane. Blends put them in that order for bendAngle and take the gradients back to the
    // slots: the same values, exactly, as BendPatch::slot's indirection.
    const __m256i swaps = loadBytes(chunk.swaps);
    __m256 coeff[3][3];
    __m256 c[3] = { _mm256_setzero_ps(), _mm256_setzero_ps(), _mm256_setzero_ps() };
    V3 hingeGrad[3][4]; // per hinge: slot i, slot i + 1, the triangle's third corner, slot 3 + i
    for (int i = 0; i < 3; ++i) {
        const __m256i bit = _mm256_set1_epi32(1 << (2 * i));
        const __m256 swapEdge = _mm256_castsi256_ps(_mm256_cmpeq_epi32(_mm256_and_si256(swaps, bit), bit));
        const __m256i wingBit = _mm256_set1_epi32(2 << (2 * i));
        const __m256 swapWing
            = _mm256_castsi256_ps(_mm256_cmpeq_epi32(_mm256_and_si256(swaps, wingBit), wingBit));
        const V3 &edgeA = x[i], &edgeB = x[(i + 1) % 3], &third = x[(i + 2) % 3], &outer = x[3 + i];
        const V3 x0 = select(edgeA, edgeB, swapEdge), x1 = select(edgeB, edgeA, swapEdge);
        const V3 x2 = select(third, outer, swapWing), x3 = select(outer, third, swapWing);
        __m256 valid, angle;
        V3 g[4];
        bendAngle(x0, x1, x2, x3, valid, angle, g);
        valid = _mm256_and_ps(valid, present[i]); // a missing hinge adds nothing, as a degenerate one
        const __m256 d = wrapAngle(_mm256_sub_ps(angle, load(chunk.restAngle[i])));
        for (int k = 0; k < 3; ++k) {
            // The patch's coefficient, +0 where the hinge is missing (as the one-by-one pass
            // has it: a missing hinge adds nothing).
            coeff[k][i] = keepOrZero(
                _mm256_i32gather_ps(patchFloats + offsetof(BendPatch, coeff) / 4 + 3 * k + i, patchIndex, 4),
                present[i]);
            c[k] = _mm256_add_ps(c[k], keepOrZero(_mm256_mul_ps(coeff[k][i], d), valid));
        }
        for (V3 &gc : g)
            gc = { keepOrZero(gc.x, valid), keepOrZero(gc.y, valid), keepOrZero(gc.z, valid) };
        hingeGrad[i][0] = select(g[0], g[1], swapEdge);
        hingeGrad[i][1] = select(g[1], g[0], swapEdge);
        hingeGrad[i][2] = select(g[2], g[3], swapWing);
        hingeGrad[i][3] = select(g[3], g[2], swapWing);
    }

    // ∇C_k per slot: Σ_i coeff[k][i] ∇θ_i, the hinges in order. A degenerate hinge's terms
    // are +0, which leaves a sum that started from +0 as it was. Slot by slot, each also adds
    // its terms w_s (∇_s C_k · ∇_s C_j) of the 3×3 matrix (solvePatch: the dot in float, then
    // widened) to their sums in double, four lanes at a time, in the order of the slots.
    V3 grad[3][6];
    constexpr int kPairs = 6; // (k, j) with j <= k: (0,0) (1,0) (1,1) (2,0) (2,1) (2,2)
    __m256d pairSum[kPairs][2];
    for (int q = 0; q < kPairs; ++q)
        pairSum[q][0] = pairSum[q][1] = _mm256_setzero_pd();
    for (int s = 0; s < 6; ++s) {
        for (int k = 0; k < 3; ++k) {
            V3 sum = { _mm256_setzero_ps(), _mm256_setzero_ps(), _mm256_setzero_ps() };
            for (int i = 0; i < 3; ++i) {
                // Which of hinge i's corners slot s is, if any.
                const int at = s < 3 ? (s - i + 3) % 3 : (s == 3 + i ? 3 : -1);
                if (at >= 0)
                    sum = add(sum, scale(hingeGrad[i][at], coeff[k][i]));
            }
            grad[k][s] = sum;
        }
        const __m256d wide[2] = { toDouble(w[s], 0), toDouble(w[s], 1) };
        int q = 0;
        for (int k = 0; k < 3; ++k)
            for (int j = 0; j <= k; ++j, ++q) {
                const __m256 d = dot(grad[k][s], grad[j][s]);
                for (int half = 0; half < 2; ++half)
                    pairSum[q][half]
                        = _mm256_add_pd(pairSum[q][half], _mm256_mul_pd(wide[half], toDouble(d, half)));
            }
    }

    // The 3×3 system in double, four lanes at a time.
    const __m256 patchArea = _mm256_i32gather_ps(patchFloats + offsetof(BendPatch, area) / 4, patchIndex, 4);
    __m256 dl[3];
    int solved = 0; // lanes whose system was regular, as bits
    {
        __m256d dlHalf[2][3], solvedHalf[2];
        for (int half = 0; half < 2; ++half) {
            const __m256d area = toDouble(patchArea, half);
            __m256d m[3][3], r[3], alpha[3];
            for (int k = 0; k < 3; ++k) {
                r[k] = _mm256_setzero_pd();
                alpha[k] = _mm256_setzero_pd();
                for (int j = 0; j < 3; ++j)
                    m[k][j] = _mm256_setzero_pd();
            }
            for (int k = 0; k < 3; ++k) {
                if (!(rigidity[k] > 0.f)) { // its stiffness is not above zero, in every lane
                    m[k][k] = _mm256_set1_pd(1.0);
                    continue;
                }
                const __m256d stiffness = _mm256_mul_pd(_mm256_set1_pd(double(rigidity[k])), area);
                alpha[k] = _mm256_div_pd(_mm256_set1_pd(invDt2), stiffness);
                for (int j = 0; j <= k; ++j) {
                    __m256d sum = pairSum[k * (k + 1) / 2 + j][half];
                    if (!(rigidity[j] > 0.f))
                        sum = _mm256_setzero_pd();
                    m[k][j] = m[j][k] = sum;
                }
                m[k][k] = _mm256_add_pd(m[k][k], alpha[k]);
                __m256d l = _mm256_setzero_pd();
                if (lambda) {
                    alignas(32) double held[4];
                    for (int lane = 0; lane < 4; ++lane)
                        held[lane] = double(lambda[3 * std::size_t(chunk.patch[4 * half + lane]) + k]);
                    l = _mm256_load_pd(held);
                }
                r[k] = _mm256_sub_pd(
                    _mm256_xor_pd(toDouble(c[k], half), _mm256_set1_pd(-0.0)), _mm256_mul_pd(alpha[k], l));
            }
            solve3(m, r, dlHalf[half], solvedHalf[half]);
            for (int k = 0; k < 3; ++k)
                dlHalf[half][k] = _mm256_and_pd(
                    dlHalf[half][k], _mm256_cmp_pd(alpha[k], _mm256_setzero_pd(), _CMP_GT_OQ));
        }
        for (int k = 0; k < 3; ++k)
            dl[k] = toFloat(dlHalf[0][k], dlHalf[1][k]);
        solved = _mm256_movemask_pd(solvedHalf[0]) | (_mm256_movemask_pd(solvedHalf[1]) << 4);
    }
    const int liveLanes = _mm256_movemask_ps(live) & solved;
    if (!liveLanes)
        return;

    if (lambda) {
        alignas(32) float step[3][kLanes];
        for (int k = 0; k < 3; ++k)
            _mm256_store_ps(step[k], dl[k]);
        for (int lane = 0; lane < kLanes; ++lane)
            if (liveLanes & (1 << lane))
                for (int k = 0; k < 3; ++k)
                    lambda[3 * std::size_t(chunk.patch[lane]) + k] += step[k][lane];
    }

    // Δx_j = w_j ∇C_jᵀ Δλ, written back lane by lane (no two lanes share a particle).
    for (int s = 0; s < 6; ++s) {
        const V3 step
            = add(add(scale(grad[0][s], dl[0]), scale(grad[1][s], dl[1])), scale(grad[2][s], dl[2]));
        const V3 moved = add(offsetOf[s], scale(step, w[s]));
        const int write
            = liveLanes & _mm256_movemask_ps(_mm256_cmp_ps(w[s], _mm256_setzero_ps(), _CMP_NEQ_UQ));
        if (!write)
            continue;
        alignas(32) float mx[kLanes], my[kLanes], mz[kLanes];
        _mm256_store_ps(mx, moved.x);
        _mm256_store_ps(my, moved.y);
        _mm256_store_ps(mz, moved.z);
        for (int lane = 0; lane < kLanes; ++lane)
            if (write & (1 << lane))
                offset[chunk.vertex[s][lane]] = Vec3(mx[lane], my[lane], mz[lane]);
    }
}

} // namespace

__attribute__((target("avx2"))) void solveBendChunkAvx2(const BendChunk &chunk, const BendPatch *patches,
    const float rigidity[3], double invDt2, const float *invMass, const Vec3 *origin, Vec3 *offset,
    float *lambda)
{
    solveChunk(chunk, patches, rigidity, invDt2, invMass, origin, offset, lambda);
}

} // namespace drape::detail
