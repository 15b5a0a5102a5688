// The conflict-free XPBD block kernel in explicit AVX2 (Macklin et al. 2016, eq. 18 with the
// damping of §3.5; the arithmetic is spelled out in xpbdbatch.cpp's solveOne).
//
// Eight constraints at a time in AVX2 registers, the arithmetic all in float (SlotLink in
// xpbdbatch.h keeps the error C precise without double). How a block fetches its particles
// depends on where they lie (XpbdBatches::blockFetch): a block of a grid's colour usually
// has its 16 ends in two runs of 8 consecutive particles, which it reads with plain vector
// loads, transposes from Vec3 triples to x, y, z lanes, picks the lanes' ends from with
// permutes and writes back the same way (the contiguous-run idea of NvCloth's CPU solver,
// done here with windows); other blocks gather x, y, z of both ends, their previous
// positions and inverse masses and store the corrected positions of the lanes that moved
// one by one.
//
// The solvers' passes take the planar entries (solveConflictFreePlanarAvx2, xpbdplanar.h):
// solveXpbdPass copies the offsets into planes of x, y and z for the pass, so that a window
// is three plain loads with no transpose (13 % fewer instructions in the kernel). The Vec3
// entries stay for per-colour calls on Vec3 arrays (solveXpbdSlots) and share their block
// loop with the AVX-512 kernels.
//
// Bit-identical to solveOne: every operation is the same IEEE operation in the same order
// (no FMA: the AVX-512 build of the kernel could contract a multiply and an add into one
// rounding, so this file is compiled with -ffp-contract=off, core/CMakeLists.txt).
// tests/tst_xpbdbatch.cpp checks the kernel against an independent one-at-a-time reference on
// whichever path the CPU takes.
#include "xpbdkernel.h"
#include "xpbdlanes.h"
#include "xpbdpairs.h"
#include "xpbdplanar.h"

#include <algorithm>
#include <atomic>

namespace drape::detail {

namespace {

std::atomic<int> kernelLimit { int(KernelIsa::Avx512) };

} // namespace

KernelIsa xpbdKernelIsaOfCpu()
{
    static const KernelIsa best = [] {
        __builtin_cpu_init();
        if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl")
            && __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512dq"))
            return KernelIsa::Avx512;
        return __builtin_cpu_supports("avx2") ? KernelIsa::Avx2 : KernelIsa::Portable;
    }();
    return best;
}

KernelIsa xpbdKernelIsa()
{
    return KernelIsa(std::min(int(xpbdKernelIsaOfCpu()), kernelLimit.load(std::memory_order_relaxed)));
}

void setXpbdKernelLimit(KernelIsa isa)
{
    kernelLimit.store(int(isa), std::memory_order_relaxed);
}

namespace {

using namespace avx2;

// The lane arithmetic of U independent blocks (slots [k0[u], k0[u] + 8), of one colour):
// Macklin 2016 eq. 18 with the §3.5 damping, in the order and precision of solveOne
// (xpbdbatch.cpp). Each step is written for all U blocks before the next, so the long chain
// of one block (square root, two divisions) overlaps the other's instead of stalling the core.
struct XpbdArith {
    static constexpr bool kMotion = true;

    template <int U>
    DRAPE_AVX2_INLINE void solve(
        XpbdBatches &s, const std::uint32_t (&k0)[U], const BlockIn (&in)[U], BlockOut (&out)[U]) const
    {
        const __m256 oneF = _mm256_set1_ps(1.f);
        const __m256 signF = _mm256_set1_ps(-0.f);
        __m256 dLambda[U];
        BlockGeometry<U> geo;
        blockGeometry<U>(s, k0, in, geo, out);
        #pragma GCC unroll 4
        for (int u = 0; u < U; ++u) {
            const BlockIn &b = in[u];
            const Lanes &n = geo.n[u];
            const __m256 at = _mm256_loadu_ps(s.alphaTilde.data() + k0[u]);
            float *lambdaPtr = s.lambda.data() + k0[u];
            const __m256 lambda = s.lambdaZero ? _mm256_setzero_ps() : _mm256_loadu_ps(lambdaPtr);
            const __m256 undamped = _mm256_sub_ps(_mm256_xor_ps(geo.C[u], signF), _mm256_mul_ps(at, lambda));
            __m256 num = undamped;
            // (1 + γ) w = w exactly when γ = 0: a block without damping (every γ zero) skips
            // the damping term, and so does each lane of the others whose γ is zero
            // (solveOne's rule, lane for lane).
            __m256 den = _mm256_add_ps(geo.wSum[u], at);
            if (s.blockDamped[k0[u] / XpbdBatches::kLanes]) {
                const __m256 g = _mm256_loadu_ps(s.gamma.data() + k0[u]);
                const __m256 gradDotDx = _mm256_add_ps(
                    _mm256_add_ps(_mm256_mul_ps(n.x, b.v.x), _mm256_mul_ps(n.y, b.v.y)), _mm256_mul_ps(n.z, b.v.z));
                num = _mm256_blendv_ps(_mm256_sub_ps(undamped, _mm256_mul_ps(g, gradDotDx)), undamped,
                    _mm256_cmp_ps(g, _mm256_setzero_ps(), _CMP_EQ_OQ));
                den = _mm256_add_ps(_mm256_mul_ps(_mm256_add_ps(oneF, g), geo.wSum[u]), at);
            }
            den = _mm256_blendv_ps(oneF, den, out[u].okF);
            dLambda[u] = _mm256_and_ps(_mm256_div_ps(num, den), out[u].okF);
            _mm256_storeu_ps(lambdaPtr, _mm256_add_ps(lambda, dLambda[u]));
        }
        #pragma GCC unroll 4
        for (int u = 0; u < U; ++u) {
            const BlockIn &b = in[u];
            const Lanes &n = geo.n[u];
            const __m256 ca = _mm256_mul_ps(b.wa, dLambda[u]);
            const __m256 cb = _mm256_mul_ps(b.wb, dLambda[u]);
            out[u].xa = { _mm256_add_ps(b.xa.x, _mm256_mul_ps(n.x, ca)), _mm256_add_ps(b.xa.y, _mm256_mul_ps(n.y, ca)),
                _mm256_add_ps(b.xa.z, _mm256_mul_ps(n.z, ca)) };
            out[u].xb = { _mm256_sub_ps(b.xb.x, _mm256_mul_ps(n.x, cb)), _mm256_sub_ps(b.xb.y, _mm256_mul_ps(n.y, cb)),
                _mm256_sub_ps(b.xb.z, _mm256_mul_ps(n.z, cb)) };
        }
    }

    // solve on P pairs of blocks, 16 lanes at a time (xpbdpairs.h). A pair with one damped
    // block takes the damping term in all its lanes: the undamped block's lanes have γ = 0,
    // which picks the undamped numerator, and (1 + 0) w + α̃ = w + α̃ exactly.
    template <int P>
    DRAPE_AVX512_INLINE void solve16(XpbdBatches &s, const std::uint32_t (&k0)[P], const avx512::PairIn (&in)[P],
        avx512::PairOut (&out)[P]) const
    {
        const __m512 oneF = _mm512_set1_ps(1.f);
        const __m512 signF = _mm512_set1_ps(-0.f);
        __m512 dLambda[P];
        avx512::PairGeometry<P> geo;
        avx512::pairGeometry<P>(s, k0, in, geo, out);
#pragma GCC unroll 4
        for (int p = 0; p < P; ++p) {
            const avx512::PairIn &b = in[p];
            const avx512::Lanes16 &n = geo.n[p];
            const __m512 at = _mm512_loadu_ps(s.alphaTilde.data() + k0[p]);
            float *lambdaPtr = s.lambda.data() + k0[p];
            const __m512 lambda = s.lambdaZero ? _mm512_setzero_ps() : _mm512_loadu_ps(lambdaPtr);
            const __m512 undamped = _mm512_sub_ps(_mm512_xor_ps(geo.C[p], signF), _mm512_mul_ps(at, lambda));
            __m512 num = undamped;
            __m512 den = _mm512_add_ps(geo.wSum[p], at);
            const std::size_t block = k0[p] / XpbdBatches::kLanes;
            if (s.blockDamped[block] || s.blockDamped[block + 1]) {
                const __m512 g = _mm512_loadu_ps(s.gamma.data() + k0[p]);
                const __m512 gradDotDx = _mm512_add_ps(
                    _mm512_add_ps(_mm512_mul_ps(n.x, b.v.x), _mm512_mul_ps(n.y, b.v.y)), _mm512_mul_ps(n.z, b.v.z));
                num = _mm512_mask_blend_ps(_mm512_cmp_ps_mask(g, _mm512_setzero_ps(), _CMP_EQ_OQ),
                    _mm512_sub_ps(undamped, _mm512_mul_ps(g, gradDotDx)), undamped);
                den = _mm512_add_ps(_mm512_mul_ps(_mm512_add_ps(oneF, g), geo.wSum[p]), at);
            }
            // Lanes that cannot move get +0, as the 8-lane kernel's mask gives them.
            dLambda[p] = _mm512_maskz_div_ps(out[p].ok, num, den);
            _mm512_storeu_ps(lambdaPtr, _mm512_add_ps(lambda, dLambda[p]));
        }
#pragma GCC unroll 4
        for (int p = 0; p < P; ++p) {
            const avx512::PairIn &b = in[p];
            const avx512::Lanes16 &n = geo.n[p];
            const __m512 ca = _mm512_mul_ps(b.wa, dLambda[p]);
            const __m512 cb = _mm512_mul_ps(b.wb, dLambda[p]);
            out[p].xa = { _mm512_add_ps(b.xa.x, _mm512_mul_ps(n.x, ca)), _mm512_add_ps(b.xa.y, _mm512_mul_ps(n.y, ca)),
                _mm512_add_ps(b.xa.z, _mm512_mul_ps(n.z, ca)) };
            out[p].xb = { _mm512_sub_ps(b.xb.x, _mm512_mul_ps(n.x, cb)), _mm512_sub_ps(b.xb.y, _mm512_mul_ps(n.y, cb)),
                _mm512_sub_ps(b.xb.z, _mm512_mul_ps(n.z, cb)) };
        }
    }
};

} // namespace

__attribute__((target("avx2"))) void solveConflictFreeAvx2(
    XpbdBatches &s, std::uint32_t begin, std::uint32_t end, Vec3 *x, const Vec3 *xPrev, const float *w)
{
    avx2::solveColourRange<4>(s, begin, end, x, xPrev, w, XpbdArith {});
}

__attribute__((target("avx2"))) void solveConflictFreePlanarAvx2(XpbdBatches &s, std::uint32_t begin,
    std::uint32_t end, const PlanarPositions &x, const PlanarPositions &xPrev, const float *w)
{
    avx2::solvePlanarColourRange<4>(s, begin, end, x, xPrev, w, XpbdArith {});
}

// Windows of 8 particles through the kernels' transposes, the rest one by one.
__attribute__((target("avx2"))) void toPlanesAvx2(
    const Vec3 *v, std::size_t begin, std::size_t end, const PlanarPositions &p)
{
    std::size_t i = begin;
    for (; i + XpbdBatches::kLanes <= end; i += XpbdBatches::kLanes)
        avx2::storePlanes(p, std::uint32_t(i), avx2::loadWindow(&v[0].x, std::uint32_t(i)));
    for (; i < end; ++i)
        setPosition(p, std::uint32_t(i), v[i]);
}

__attribute__((target("avx2"))) void fromPlanesAvx2(
    const PlanarPositions &p, std::size_t begin, std::size_t end, Vec3 *v)
{
    std::size_t i = begin;
    for (; i + XpbdBatches::kLanes <= end; i += XpbdBatches::kLanes)
        avx2::storeWindow(&v[0].x, std::uint32_t(i), avx2::loadPlanes(p, std::uint32_t(i)));
    for (; i < end; ++i)
        v[i] = positionOf(p, std::uint32_t(i));
}

DRAPE_AVX512_KERNEL void solveConflictFreeAvx512(
    XpbdBatches &s, std::uint32_t begin, std::uint32_t end, Vec3 *x, const Vec3 *xPrev, const float *w)
{
    avx512::solveColourRangeInPairs(s, begin, end, x, xPrev, w, XpbdArith {});
}

} // namespace drape::detail
