// The conflict-free XPBD block kernel in explicit AVX2 (Macklin et al. 2016, eq. 18 with the
// damping of §3.5; the arithmetic is spelled out in xpbdbatch.cpp's solveOne).
//
// Why a second spelling: the portable kernel in xpbdbatch.cpp computes its 8 lanes through
// arrays on the stack, and GCC keeps most of it scalar; the profile was dominated by those
// stack loads and stores and by the scalar gathers. Here the 8 lanes live in registers:
// the particles are fetched with AVX2 gathers (x, y, z of both ends, their previous
// positions and inverse masses), the double part (the constraint vector, length and error)
// runs as two halves of 4 doubles, the float part as 8 floats, and only the corrected
// positions of the lanes that move anything go back through scalar stores.
//
// Bit-identical to the portable kernel: every operation is the same IEEE operation in the
// same order (no FMA: the function is compiled for AVX2 alone, so nothing is contracted), and
// the conversions round to nearest like the scalar casts. tests/tst_xpbdbatch.cpp checks the
// kernel against an independent one-at-a-time reference on whichever path the CPU takes.
#include "xpbdkernel.h"

#include <immintrin.h>

namespace drape::detail {

static_assert(sizeof(Vec3) == 3 * sizeof(float), "the gathers index Vec3 arrays as floats");

bool xpbdAvx2Available()
{
    static const bool available = __builtin_cpu_supports("avx2");
    return available;
}

namespace {

// Lane masks from the low 8 bits of `bits`: one 32-bit lane per bit, or one 64-bit lane per
// bit of a half (bits 0-3 or 4-7).
__attribute__((target("avx2"))) inline __m256 floatMask(int bits)
{
    const __m256i sel = _mm256_setr_epi32(1, 2, 4, 8, 16, 32, 64, 128);
    const __m256i b = _mm256_and_si256(_mm256_set1_epi32(bits), sel);
    return _mm256_castsi256_ps(_mm256_cmpeq_epi32(b, sel));
}

__attribute__((target("avx2"))) inline __m256d doubleMask(int bits)
{
    const __m256i sel = _mm256_setr_epi64x(1, 2, 4, 8);
    const __m256i b = _mm256_and_si256(_mm256_set1_epi64x(bits), sel);
    return _mm256_castsi256_pd(_mm256_cmpeq_epi64(b, sel));
}

__attribute__((target("avx2"))) inline __m256d lowToDouble(__m256 v)
{
    return _mm256_cvtps_pd(_mm256_castps256_ps128(v));
}

__attribute__((target("avx2"))) inline __m256d highToDouble(__m256 v)
{
    return _mm256_cvtps_pd(_mm256_extractf128_ps(v, 1));
}

__attribute__((target("avx2"))) inline __m256 toFloat(__m256d lo, __m256d hi)
{
    return _mm256_set_m128(_mm256_cvtpd_ps(hi), _mm256_cvtpd_ps(lo));
}

// One half (4 lanes) of the double part: d = span + (x_a - x_b), |d|, and the lanes whose
// length is usable (|d| >= 1e-9, as in the portable kernel).
struct HalfGeometry {
    __m256d dx, dy, dz, len;
};

__attribute__((target("avx2"))) inline HalfGeometry halfGeometry(__m256d sx, __m256d sy, __m256d sz,
    __m256d ax, __m256d ay, __m256d az, __m256d bx, __m256d by, __m256d bz)
{
    HalfGeometry g;
    g.dx = _mm256_add_pd(sx, _mm256_sub_pd(ax, bx));
    g.dy = _mm256_add_pd(sy, _mm256_sub_pd(ay, by));
    g.dz = _mm256_add_pd(sz, _mm256_sub_pd(az, bz));
    const __m256d len2 = _mm256_add_pd(
        _mm256_add_pd(_mm256_mul_pd(g.dx, g.dx), _mm256_mul_pd(g.dy, g.dy)), _mm256_mul_pd(g.dz, g.dz));
    g.len = _mm256_sqrt_pd(len2);
    return g;
}

} // namespace

__attribute__((target("avx2"))) void solveConflictFreeAvx2(
    XpbdBatches &s, std::uint32_t begin, std::uint32_t end, Vec3 *x, const Vec3 *xPrev, const float *w)
{
    float *xf = &x[0].x;
    const float *pf = &xPrev[0].x;
    const __m256i one = _mm256_set1_epi32(1);
    const __m256i three = _mm256_set1_epi32(3);
    const __m256d minLen = _mm256_set1_pd(1e-9);
    const __m256d oneD = _mm256_set1_pd(1.0);
    const __m256 oneF = _mm256_set1_ps(1.f);
    const __m256 zeroF = _mm256_setzero_ps();
    const __m256 signF = _mm256_set1_ps(-0.f);
    for (std::uint32_t k0 = begin; k0 < end; k0 += XpbdBatches::kLanes) {
        const __m256i ia = _mm256_loadu_si256(reinterpret_cast<const __m256i *>(s.a.data() + k0));
        const __m256i ib = _mm256_loadu_si256(reinterpret_cast<const __m256i *>(s.b.data() + k0));
        const __m256i ax = _mm256_mullo_epi32(ia, three);
        const __m256i ay = _mm256_add_epi32(ax, one);
        const __m256i az = _mm256_add_epi32(ay, one);
        const __m256i bx = _mm256_mullo_epi32(ib, three);
        const __m256i by = _mm256_add_epi32(bx, one);
        const __m256i bz = _mm256_add_epi32(by, one);
        const __m256 xax = _mm256_i32gather_ps(xf, ax, 4), xay = _mm256_i32gather_ps(xf, ay, 4),
                     xaz = _mm256_i32gather_ps(xf, az, 4);
        const __m256 xbx = _mm256_i32gather_ps(xf, bx, 4), xby = _mm256_i32gather_ps(xf, by, 4),
                     xbz = _mm256_i32gather_ps(xf, bz, 4);
        const __m256 wa = _mm256_i32gather_ps(w, ia, 4), wb = _mm256_i32gather_ps(w, ib, 4);
        // Relative motion this substep, (x_a - x_a,prev) - (x_b - x_b,prev), for the damping.
        const __m256 vx = _mm256_sub_ps(_mm256_sub_ps(xax, _mm256_i32gather_ps(pf, ax, 4)),
            _mm256_sub_ps(xbx, _mm256_i32gather_ps(pf, bx, 4)));
        const __m256 vy = _mm256_sub_ps(_mm256_sub_ps(xay, _mm256_i32gather_ps(pf, ay, 4)),
            _mm256_sub_ps(xby, _mm256_i32gather_ps(pf, by, 4)));
        const __m256 vz = _mm256_sub_ps(_mm256_sub_ps(xaz, _mm256_i32gather_ps(pf, az, 4)),
            _mm256_sub_ps(xbz, _mm256_i32gather_ps(pf, bz, 4)));

        const __m256 sx = _mm256_loadu_ps(s.spanX.data() + k0);
        const __m256 sy = _mm256_loadu_ps(s.spanY.data() + k0);
        const __m256 sz = _mm256_loadu_ps(s.spanZ.data() + k0);
        const HalfGeometry lo
            = halfGeometry(lowToDouble(sx), lowToDouble(sy), lowToDouble(sz), lowToDouble(xax),
                lowToDouble(xay), lowToDouble(xaz), lowToDouble(xbx), lowToDouble(xby), lowToDouble(xbz));
        const HalfGeometry hi = halfGeometry(highToDouble(sx), highToDouble(sy), highToDouble(sz),
            highToDouble(xax), highToDouble(xay), highToDouble(xaz), highToDouble(xbx), highToDouble(xby),
            highToDouble(xbz));

        const __m256 wSum = _mm256_add_ps(wa, wb);
        const int movable = _mm256_movemask_ps(_mm256_cmp_ps(wSum, zeroF, _CMP_NEQ_UQ));
        const int longEnough = _mm256_movemask_pd(_mm256_cmp_pd(lo.len, minLen, _CMP_GE_OQ))
            | (_mm256_movemask_pd(_mm256_cmp_pd(hi.len, minLen, _CMP_GE_OQ)) << 4);
        const int ok = movable & longEnough;
        if (ok == 0)
            continue;
        const __m256 okF = floatMask(ok);
        const __m256d invLo = _mm256_div_pd(oneD, _mm256_blendv_pd(oneD, lo.len, doubleMask(ok)));
        const __m256d invHi = _mm256_div_pd(oneD, _mm256_blendv_pd(oneD, hi.len, doubleMask(ok >> 4)));
        const __m256 nx = toFloat(_mm256_mul_pd(lo.dx, invLo), _mm256_mul_pd(hi.dx, invHi));
        const __m256 ny = toFloat(_mm256_mul_pd(lo.dy, invLo), _mm256_mul_pd(hi.dy, invHi));
        const __m256 nz = toFloat(_mm256_mul_pd(lo.dz, invLo), _mm256_mul_pd(hi.dz, invHi));
        const __m256 rest = _mm256_loadu_ps(s.restLength.data() + k0);
        const __m256 C
            = toFloat(_mm256_sub_pd(lo.len, lowToDouble(rest)), _mm256_sub_pd(hi.len, highToDouble(rest)));

        const __m256 gradDotDx = _mm256_add_ps(
            _mm256_add_ps(_mm256_mul_ps(nx, vx), _mm256_mul_ps(ny, vy)), _mm256_mul_ps(nz, vz));
        const __m256 g = _mm256_loadu_ps(s.gamma.data() + k0);
        const __m256 at = _mm256_loadu_ps(s.alphaTilde.data() + k0);
        float *lambdaPtr = s.lambda.data() + k0;
        const __m256 lambda = _mm256_loadu_ps(lambdaPtr);
        const __m256 num = _mm256_sub_ps(
            _mm256_sub_ps(_mm256_xor_ps(C, signF), _mm256_mul_ps(at, lambda)), _mm256_mul_ps(g, gradDotDx));
        const __m256 den
            = _mm256_blendv_ps(oneF, _mm256_add_ps(_mm256_mul_ps(_mm256_add_ps(oneF, g), wSum), at), okF);
        const __m256 dLambda = _mm256_and_ps(_mm256_div_ps(num, den), okF);
        _mm256_storeu_ps(lambdaPtr, _mm256_add_ps(lambda, dLambda));
        const __m256 ca = _mm256_mul_ps(wa, dLambda);
        const __m256 cb = _mm256_mul_ps(wb, dLambda);

        alignas(32) float out[6][XpbdBatches::kLanes];
        _mm256_store_ps(out[0], _mm256_add_ps(xax, _mm256_mul_ps(nx, ca)));
        _mm256_store_ps(out[1], _mm256_add_ps(xay, _mm256_mul_ps(ny, ca)));
        _mm256_store_ps(out[2], _mm256_add_ps(xaz, _mm256_mul_ps(nz, ca)));
        _mm256_store_ps(out[3], _mm256_sub_ps(xbx, _mm256_mul_ps(nx, cb)));
        _mm256_store_ps(out[4], _mm256_sub_ps(xby, _mm256_mul_ps(ny, cb)));
        _mm256_store_ps(out[5], _mm256_sub_ps(xbz, _mm256_mul_ps(nz, cb)));
        // Only lanes that move anything are stored: padding lanes point at particle 0, which
        // a real lane of the same block may have just corrected.
        for (int bits = ok; bits != 0; bits &= bits - 1) {
            const int l = __builtin_ctz(unsigned(bits));
            x[s.a[k0 + l]] = Vec3 { out[0][l], out[1][l], out[2][l] };
            x[s.b[k0 + l]] = Vec3 { out[3][l], out[4][l], out[5][l] };
        }
    }
}

} // namespace drape::detail
