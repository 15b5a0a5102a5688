// The conflict-free Verlet relaxation kernel in explicit AVX2: Jakobsen's (2001) projection
// of a distance constraint with the stiffness of a compliant link, spelled out one constraint
// at a time in verletbatch.cpp (relaxOne). The blocks are fetched and stored by the helpers
// of xpbdlanes.h, as the XPBD kernel's are; only the arithmetic differs. Bit-identical to
// relaxOne: the same IEEE operations in the same order, no FMA (compiled for AVX2 alone).
#include "xpbdkernel.h"
#include "xpbdlanes.h"

namespace drape::detail {

namespace {

using namespace avx2;

// U independent blocks of one colour, step by step side by side (see XpbdArith):
//   d = x_a - x_b (span + offsets, double), |d|, s = w_a + w_b,
//   k = s / (s + α/dt²)  (the share of the error a compliant link removes, float),
//   scale = (|d| - L) / (|d| s) k  (double),
//   x_a -= w_a float(d scale),  x_b += w_b float(d scale),
//   and the correction as a force, float(scale |d|) / dt², added to the slot's λ.
struct VerletArith {
    static constexpr bool kMotion = false;
    float invDt2 = 0.f; ///< 1/s², 1/dt² of the step

    template <int U>
    DRAPE_AVX2_INLINE void solve(
        XpbdBatches &s, const std::uint32_t (&k0)[U], const BlockIn (&in)[U], BlockOut (&out)[U]) const
    {
        const __m256d oneD = _mm256_set1_pd(1.0);
        const __m256 oneF = _mm256_set1_ps(1.f);
        __m256 cx[U], cy[U], cz[U];
        BlockGeometry<U> geo;
        blockGeometry<U>(s, k0, in, geo, out);
        for (int u = 0; u < U; ++u) {
            const __m256 at = _mm256_loadu_ps(s.alphaTilde.data() + k0[u]);
            const __m256 stiffness = _mm256_div_ps(
                geo.wSum[u], _mm256_blendv_ps(oneF, _mm256_add_ps(geo.wSum[u], at), out[u].okF));
            const __m256 rest = _mm256_loadu_ps(s.restLength.data() + k0[u]);
            const __m256d denLo
                = _mm256_blendv_pd(oneD, _mm256_mul_pd(geo.lo[u].len, lowToDouble(geo.wSum[u])), geo.okLo[u]);
            const __m256d denHi = _mm256_blendv_pd(
                oneD, _mm256_mul_pd(geo.hi[u].len, highToDouble(geo.wSum[u])), geo.okHi[u]);
            const __m256d scaleLo = _mm256_and_pd(
                _mm256_mul_pd(_mm256_div_pd(_mm256_sub_pd(geo.lo[u].len, lowToDouble(rest)), denLo),
                    lowToDouble(stiffness)),
                geo.okLo[u]);
            const __m256d scaleHi = _mm256_and_pd(
                _mm256_mul_pd(_mm256_div_pd(_mm256_sub_pd(geo.hi[u].len, highToDouble(rest)), denHi),
                    highToDouble(stiffness)),
                geo.okHi[u]);
            cx[u] = toFloat(_mm256_mul_pd(geo.lo[u].dx, scaleLo), _mm256_mul_pd(geo.hi[u].dx, scaleHi));
            cy[u] = toFloat(_mm256_mul_pd(geo.lo[u].dy, scaleLo), _mm256_mul_pd(geo.hi[u].dy, scaleHi));
            cz[u] = toFloat(_mm256_mul_pd(geo.lo[u].dz, scaleLo), _mm256_mul_pd(geo.hi[u].dz, scaleHi));
            const __m256 force = _mm256_mul_ps(
                toFloat(_mm256_mul_pd(scaleLo, geo.lo[u].len), _mm256_mul_pd(scaleHi, geo.hi[u].len)),
                _mm256_set1_ps(invDt2));
            float *tension = s.lambda.data() + k0[u];
            _mm256_storeu_ps(
                tension, _mm256_add_ps(_mm256_loadu_ps(tension), _mm256_and_ps(force, out[u].okF)));
        }
        for (int u = 0; u < U; ++u) {
            const BlockIn &b = in[u];
            out[u].xa = { _mm256_sub_ps(b.xa.x, _mm256_mul_ps(cx[u], b.wa)),
                _mm256_sub_ps(b.xa.y, _mm256_mul_ps(cy[u], b.wa)),
                _mm256_sub_ps(b.xa.z, _mm256_mul_ps(cz[u], b.wa)) };
            out[u].xb = { _mm256_add_ps(b.xb.x, _mm256_mul_ps(cx[u], b.wb)),
                _mm256_add_ps(b.xb.y, _mm256_mul_ps(cy[u], b.wb)),
                _mm256_add_ps(b.xb.z, _mm256_mul_ps(cz[u], b.wb)) };
        }
    }
};

} // namespace

__attribute__((target("avx2"))) void relaxConflictFreeAvx2(
    XpbdBatches &s, std::uint32_t begin, std::uint32_t end, Vec3 *x, const float *w, float invDt2)
{
    VerletArith arith;
    arith.invDt2 = invDt2;
    avx2::solveColourRange(s, begin, end, x, nullptr, w, arith);
}

} // namespace drape::detail
