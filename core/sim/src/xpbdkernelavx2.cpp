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
// The solvers' passes take the planar entries (solveConflictFreePlanarAvx2, xpbdplanar.h, and
// solveConflictFreePlanarAvx512, xpbdpairs.h): solveXpbdPass copies the offsets into planes
// of x, y and z for the pass, so that a window is three plain loads with no transpose (13 %
// fewer instructions in the 8-lane kernel). On AVX-512 two blocks share each 16-lane
// register from fetch to store (solveWindowPair), which took a fifth off the kernel's time
// on the 128² benchmark sheet (docs/benchmark.md). The Vec3 entries stay for per-colour
// calls on Vec3 arrays (solveXpbdSlots) and share their block loop with the AVX-512 kernels.
//
// Bit-identical to solveOne: every operation is the same IEEE operation in the same order
// (the multiply-adds of SlotLink's arithmetic are FMA instructions here and fusedMulAdd there,
// each rounded once; no other multiply and add may be contracted, so this file is compiled
// with -ffp-contract=off, core/CMakeLists.txt). The AVX2 kernels need FMA as well
// (xpbdKernelIsaOfCpu), as every AVX2 CPU has.
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
        return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") ? KernelIsa::Avx2
                                                                               : KernelIsa::Portable;
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

// One plane of a block of runs: (x_a - x_a,prev) - (x_b - x_b,prev), as loadPlanarWindows
// takes it.
DRAPE_AVX2_INLINE __m256 runsMotion(
    const float *plane, const float *prev, std::uint32_t base0, std::uint32_t base1)
{
    return _mm256_sub_ps(_mm256_sub_ps(_mm256_loadu_ps(plane + base0), _mm256_loadu_ps(prev + base0)),
        _mm256_sub_ps(_mm256_loadu_ps(plane + base1), _mm256_loadu_ps(prev + base1)));
}

// One plane of a block of runs: x_a + d c_a into window 0 and x_b - d c_b into window 1
// (c = w Δλ / |d|, deltaLambda). The lanes that do not move have d = 0 and c = 0 (blockGeometry),
// so they store their offsets as read.
DRAPE_AVX2_INLINE void moveRuns(
    float *plane, std::uint32_t base0, std::uint32_t base1, __m256 d, __m256 ca, __m256 cb)
{
    const __m256 a = _mm256_loadu_ps(plane + base0), b = _mm256_loadu_ps(plane + base1);
    _mm256_storeu_ps(plane + base0, _mm256_fmadd_ps(d, ca, a));
    _mm256_storeu_ps(plane + base1, _mm256_fnmadd_ps(d, cb, b));
}

// What the damping term of a block reads: the lanes' motion kept from the fetch...
struct KeptMotion {
    const Lanes &v;
    DRAPE_AVX2_INLINE Lanes operator()() const { return v; }
};

// ... or read again from the planes for a block of runs.
struct RunsMotion {
    const PlanarPositions &x, &xPrev;
    std::uint32_t base0, base1;
    DRAPE_AVX2_INLINE Lanes operator()() const
    {
        return { runsMotion(x.x, xPrev.x, base0, base1), runsMotion(x.y, xPrev.y, base0, base1),
            runsMotion(x.z, xPrev.z, base0, base1) };
    }
};

// ... or read again from the planes and dealt for a window block of a dealt layout.
template <std::uint64_t Layout> struct DealtMotion {
    const PlanarPositions &x, &xPrev;
    std::uint32_t base0, base1;
    DRAPE_AVX2_INLINE Lanes operator()() const
    {
        Lanes va, vb;
        deal<Layout>(sub(loadPlanes(x, base0), loadPlanes(xPrev, base0)),
            sub(loadPlanes(x, base1), loadPlanes(xPrev, base1)), va, vb);
        return sub(va, vb);
    }
};

// How XpbdArith::solveTwo reads and writes the windows of a block of runs (a = window 0, b =
// window 1, lane for lane) ...
struct RunWindows {
    using Motion = RunsMotion;
    DRAPE_AVX2_INLINE static void load(
        std::uint32_t base0, std::uint32_t base1, const PlanarPositions &x, const float *w, BlockIn &in)
    {
        loadRunWindows(base0, base1, x, w, in);
    }
    // The update (solve's last loop, storePlanarWindows), from the offsets read again.
    DRAPE_AVX2_INLINE static void update(std::uint32_t base0, std::uint32_t base1, const PlanarPositions &x,
        const float *w, const Lanes &d, __m256 G)
    {
        const __m256 ca = _mm256_mul_ps(_mm256_loadu_ps(w + base0), G);
        const __m256 cb = _mm256_mul_ps(_mm256_loadu_ps(w + base1), G);
        moveRuns(x.x, base0, base1, d.x, ca, cb);
        moveRuns(x.y, base0, base1, d.y, ca, cb);
        moveRuns(x.z, base0, base1, d.z, ca, cb);
    }
};

// ... and how it reads and writes those of a window block of a dealt layout: the lanes dealt
// from the windows (loadDealtWindows), the moves made in the windows' order (moveDealt); the
// damping term reads and deals its motion again. Until the lanes that do not move kept
// d = 0, the moves were made on the dealt lanes kept from the fetch (spilled across the
// division) and gathered up into the windows with a blend for those lanes; in the windows'
// order a window block of a grid's horizontal colour takes 0.90-0.93 of that time
// (docs/benchmark.md).
template <std::uint64_t Layout> struct DealtWindows {
    using Motion = DealtMotion<Layout>;
    DRAPE_AVX2_INLINE static void load(
        std::uint32_t base0, std::uint32_t base1, const PlanarPositions &x, const float *w, BlockIn &in)
    {
        loadDealtWindows<Layout, false>(base0, base1, x, x, w, in);
    }
    // The update in the windows' own order: each window read again with a plain load and
    // moved by d c of the lane that holds its particle, d and c = ±w Δλ/|d| gathered up
    // from the lanes the way storeDealtWindows gathers up the offsets (x_b - d c_b as
    // x_b + d (w_b (-G)): the same product negated, the same multiply-add).
    DRAPE_AVX2_INLINE static void update(std::uint32_t base0, std::uint32_t base1, const PlanarPositions &x,
        const float *w, const Lanes &d, __m256 G)
    {
        __m256 g0, g1;
        gatherUp<Layout>(G, _mm256_xor_ps(G, _mm256_set1_ps(-0.f)), g0, g1);
        const __m256 c0 = _mm256_mul_ps(_mm256_loadu_ps(w + base0), g0);
        const __m256 c1 = _mm256_mul_ps(_mm256_loadu_ps(w + base1), g1);
        moveDealt<Layout>(x.x, base0, base1, d.x, c0, c1);
        moveDealt<Layout>(x.y, base0, base1, d.y, c0, c1);
        moveDealt<Layout>(x.z, base0, base1, d.z, c0, c1);
    }
};

// Δλ / |d| of block u (slots [k0, k0 + 8)) from its geometry, with λ + Δλ in newLambda for
// the caller to store: Macklin 2016 eq. 18 with the §3.5 damping, in the order and precision
// of solveOne (xpbdbatch.cpp), one division. The motion is read only when the block is
// damped.
template <int U, class Motion>
DRAPE_AVX2_INLINE __m256 deltaLambda(XpbdBatches &s, std::uint32_t k0, const BlockGeometry<U> &geo, int u,
    __m256 okF, bool damped, const Motion &motion, __m256 &newLambda)
{
    const __m256 oneF = _mm256_set1_ps(1.f);
    const __m256 at = alphaLanes(s, k0);
    const float *lambdaPtr = s.lambda.data() + k0;
    const __m256 lambda = s.lambdaZero ? _mm256_setzero_ps() : _mm256_loadu_ps(lambdaPtr);
    const __m256 undamped = _mm256_fnmadd_ps(
        geo.lenRest[u], _mm256_mul_ps(at, lambda), _mm256_xor_ps(geo.S[u], _mm256_set1_ps(-0.f)));
    __m256 num = undamped;
    // (1 + γ) w = w exactly when γ = 0: a block without damping (every γ zero) skips the
    // damping term, and so does each lane of the others whose γ is zero (solveOne's rule,
    // lane for lane).
    __m256 lenRestDen, R;
    if (damped) {
        const Lanes &d = geo.d[u];
        const Lanes v = motion();
        const __m256 g = _mm256_loadu_ps(s.gamma.data() + k0);
        lenRestDen = _mm256_mul_ps(geo.lenRest[u], _mm256_fmadd_ps(_mm256_add_ps(oneF, g), geo.wSum[u], at));
        R = _mm256_div_ps(oneF, _mm256_mul_ps(geo.len[u], lenRestDen));
        const __m256 gradDotDx
            = _mm256_mul_ps(_mm256_fmadd_ps(d.z, v.z, _mm256_fmadd_ps(d.y, v.y, _mm256_mul_ps(d.x, v.x))),
                _mm256_mul_ps(lenRestDen, R));
        num = _mm256_blendv_ps(_mm256_fnmadd_ps(geo.lenRest[u], _mm256_mul_ps(g, gradDotDx), undamped),
            undamped, _mm256_cmp_ps(g, _mm256_setzero_ps(), _CMP_EQ_OQ));
    } else {
        lenRestDen = _mm256_mul_ps(geo.lenRest[u], _mm256_add_ps(geo.wSum[u], at));
        R = _mm256_div_ps(oneF, _mm256_mul_ps(geo.len[u], lenRestDen));
    }
    const __m256 G = _mm256_and_ps(_mm256_mul_ps(num, R), okF);
    newLambda = _mm256_fmadd_ps(G, geo.len[u], lambda);
    return G;
}

// Two window blocks of one colour side by side (XpbdArith::solveTwo): their
// slots, windows and geometry, and each one's Δλ / |d|.
struct TwoBlocks : WindowBlocks<2> {
    static constexpr int U = 2;
    BlockGeometry<U> geo;
    BlockOut out[U];
    __m256 G[U];

    DRAPE_AVX2_INLINE TwoBlocks(const XpbdBatches &s, std::uint32_t first)
        : WindowBlocks<2>(s, first)
    { }

    // Reads the blocks through Windows into `in`, and their geometry.
    template <class Windows>
    DRAPE_AVX2_INLINE void fetch(
        const XpbdBatches &s, const PlanarPositions &x, const float *w, BlockIn (&in)[U])
    {
#pragma GCC unroll 2
        for (int u = 0; u < U; ++u)
            Windows::load(base0[u], base1[u], x, w, in[u]);
        blockGeometry<U>(s, k0, in, geo, out);
    }

    // Each block's multiplier (deltaLambda), the damping's motion read through Windows. The
    // new λ of both blocks are stored after both divisions: the compiler cannot move the
    // second block's loads of α̃ and λ above the first block's store of λ (they might alias),
    // so a store in between kept the two divisions some sixty instructions apart.
    template <class Windows, bool Motion>
    DRAPE_AVX2_INLINE void multipliers(XpbdBatches &s, const PlanarPositions &x, const PlanarPositions &xPrev)
    {
        __m256 newLambda[U];
#pragma GCC unroll 2
        for (int u = 0; u < U; ++u)
            G[u] = deltaLambda(s, k0[u], geo, u, out[u].okF, Motion,
                typename Windows::Motion { x, xPrev, base0[u], base1[u] }, newLambda[u]);
        if (s.lambdaUnread)
            return;
#pragma GCC unroll 2
        for (int u = 0; u < U; ++u)
            _mm256_storeu_ps(s.lambda.data() + k0[u], newLambda[u]);
    }
};

// The lane arithmetic of U independent blocks (slots [k0[u], k0[u] + 8), of one colour):
// Macklin 2016 eq. 18 with the §3.5 damping, in the order and precision of solveOne
// (xpbdbatch.cpp). Each step is written for all U blocks before the next, so the long chain
// of one block (square root, division) overlaps the other's instead of stalling the core.
struct XpbdArith {
    static constexpr bool kMotion = true;

    template <int U>
    DRAPE_AVX2_INLINE void solve(
        XpbdBatches &s, const std::uint32_t (&k0)[U], const BlockIn (&in)[U], BlockOut (&out)[U]) const
    {
        __m256 stepOverLen[U];
        BlockGeometry<U> geo;
        blockGeometry<U>(s, k0, in, geo, out);
        __m256 newLambda[U];
#pragma GCC unroll 4
        for (int u = 0; u < U; ++u)
            stepOverLen[u] = deltaLambda(s, k0[u], geo, u, out[u].okF,
                s.blockDamped[k0[u] / XpbdBatches::kLanes] != 0, KeptMotion { in[u].v }, newLambda[u]);
#pragma GCC unroll 4
        for (int u = 0; u < U; ++u)
            if (!s.lambdaUnread)
                _mm256_storeu_ps(s.lambda.data() + k0[u], newLambda[u]);
#pragma GCC unroll 4
        for (int u = 0; u < U; ++u) {
            const BlockIn &b = in[u];
            const Lanes &d = geo.d[u];
            const __m256 ca = _mm256_mul_ps(b.wa, stepOverLen[u]);
            const __m256 cb = _mm256_mul_ps(b.wb, stepOverLen[u]);
            out[u].xa = { _mm256_fmadd_ps(d.x, ca, b.xa.x), _mm256_fmadd_ps(d.y, ca, b.xa.y),
                _mm256_fmadd_ps(d.z, ca, b.xa.z) };
            out[u].xb = { _mm256_fnmadd_ps(d.x, cb, b.xb.x), _mm256_fnmadd_ps(d.y, cb, b.xb.y),
                _mm256_fnmadd_ps(d.z, cb, b.xb.z) };
        }
    }

    // Two window blocks of runs or of one dealt layout (solvePlanarColourRange, Windows =
    // RunWindows or DealtWindows), both damped when Motion, neither otherwise: solve<2> on
    // their lanes, spelled out so that little stays live across the long chain of the square
    // root and the division. The offsets are read where they are needed and read again for
    // the update (the blocks' own particles, which nothing else writes meanwhile; the
    // compiler barriers keep the compiler from holding the first reads in registers, or on
    // the stack, instead). The same IEEE operations in the same order as solve<2>, so the
    // same bits.
    template <class Windows, bool Motion>
    DRAPE_AVX2_INLINE void solveTwo(XpbdBatches &s, std::uint32_t first, const PlanarPositions &x,
        const PlanarPositions &xPrev, const float *w) const
    {
        TwoBlocks two(s, first);
        {
            // The geometry from the lanes' offsets and inverse masses, read once for it.
            BlockIn in[TwoBlocks::U];
            two.fetch<Windows>(s, x, w, in);
        }
        if constexpr (Motion)
            asm volatile("" ::: "memory");
        two.multipliers<Windows, Motion>(s, x, xPrev);
        asm volatile("" ::: "memory");
#pragma GCC unroll 2
        for (int u = 0; u < TwoBlocks::U; ++u)
            Windows::update(two.base0[u], two.base1[u], x, w, two.geo.d[u], two.G[u]);
    }

    // Two blocks of runs (a grid's vertical and diagonal colours).
    template <bool Motion>
    DRAPE_AVX2_INLINE void solveRuns(XpbdBatches &s, std::uint32_t first, const PlanarPositions &x,
        const PlanarPositions &xPrev, const float *w) const
    {
        solveTwo<RunWindows, Motion>(s, first, x, xPrev, w);
    }

    // Two window blocks of one dealt layout (a grid's horizontal colours).
    template <std::uint64_t Layout, bool Motion>
    DRAPE_AVX2_INLINE void solveDealt(XpbdBatches &s, std::uint32_t first, const PlanarPositions &x,
        const PlanarPositions &xPrev, const float *w) const
    {
        solveTwo<DealtWindows<Layout>, Motion>(s, first, x, xPrev, w);
    }

    // Δλ / |d| of pair p (slots [k0, k0 + 16)) from its geometry, with λ + Δλ stored into λ:
    // deltaLambda on 16 lanes. A pair with one damped block takes the damping term in all its
    // lanes: the undamped block's lanes have γ = 0, which picks the undamped numerator, and
    // (1 + 0) w + α̃ = w + α̃ exactly. Lanes that cannot move get +0, as the 8-lane kernel's
    // mask gives them.
    template <int P>
    DRAPE_AVX512_INLINE __m512 pairDeltaLambda(XpbdBatches &s, std::uint32_t k0,
        const avx512::PairGeometry<P> &geo, int p, __mmask16 ok, bool damped, const avx512::Lanes16 &v) const
    {
        const __m512 oneF = _mm512_set1_ps(1.f);
        const __m512 signF = _mm512_set1_ps(-0.f);
        const __m512 at = avx512::alphaLanes16(s, k0);
        float *lambdaPtr = s.lambda.data() + k0;
        const __m512 lambda = s.lambdaZero ? _mm512_setzero_ps() : _mm512_loadu_ps(lambdaPtr);
        const __m512 undamped
            = _mm512_fnmadd_ps(geo.lenRest[p], _mm512_mul_ps(at, lambda), _mm512_xor_ps(geo.S[p], signF));
        __m512 num = undamped;
        __m512 lenRestDen, R;
        if (damped) {
            const avx512::Lanes16 &d = geo.d[p];
            const __m512 g = _mm512_loadu_ps(s.gamma.data() + k0);
            lenRestDen
                = _mm512_mul_ps(geo.lenRest[p], _mm512_fmadd_ps(_mm512_add_ps(oneF, g), geo.wSum[p], at));
            R = _mm512_div_ps(oneF, _mm512_mul_ps(geo.len[p], lenRestDen));
            const __m512 gradDotDx
                = _mm512_mul_ps(_mm512_fmadd_ps(d.z, v.z, _mm512_fmadd_ps(d.y, v.y, _mm512_mul_ps(d.x, v.x))),
                    _mm512_mul_ps(lenRestDen, R));
            num = _mm512_mask_blend_ps(_mm512_cmp_ps_mask(g, _mm512_setzero_ps(), _CMP_EQ_OQ),
                _mm512_fnmadd_ps(geo.lenRest[p], _mm512_mul_ps(g, gradDotDx), undamped), undamped);
        } else {
            lenRestDen = _mm512_mul_ps(geo.lenRest[p], _mm512_add_ps(geo.wSum[p], at));
            R = _mm512_div_ps(oneF, _mm512_mul_ps(geo.len[p], lenRestDen));
        }
        const __m512 G = _mm512_maskz_mul_ps(ok, num, R);
        if (!s.lambdaUnread)
            _mm512_storeu_ps(lambdaPtr, _mm512_fmadd_ps(G, geo.len[p], lambda));
        return G;
    }

    // solve on P pairs of blocks, 16 lanes at a time (xpbdpairs.h).
    template <int P>
    DRAPE_AVX512_INLINE void solve16(XpbdBatches &s, const std::uint32_t (&k0)[P],
        const avx512::PairIn (&in)[P], avx512::PairOut (&out)[P]) const
    {
        __m512 stepOverLen[P];
        avx512::PairGeometry<P> geo;
        avx512::pairGeometry<P>(s, k0, in, geo, out);
#pragma GCC unroll 4
        for (int p = 0; p < P; ++p) {
            const std::size_t block = k0[p] / XpbdBatches::kLanes;
            stepOverLen[p] = pairDeltaLambda<P>(
                s, k0[p], geo, p, out[p].ok, s.blockDamped[block] || s.blockDamped[block + 1], in[p].v);
        }
#pragma GCC unroll 4
        for (int p = 0; p < P; ++p) {
            const avx512::PairIn &b = in[p];
            const avx512::Lanes16 &d = geo.d[p];
            const __m512 ca = _mm512_mul_ps(b.wa, stepOverLen[p]);
            const __m512 cb = _mm512_mul_ps(b.wb, stepOverLen[p]);
            out[p].xa = { _mm512_fmadd_ps(d.x, ca, b.xa.x), _mm512_fmadd_ps(d.y, ca, b.xa.y),
                _mm512_fmadd_ps(d.z, ca, b.xa.z) };
            out[p].xb = { _mm512_fnmadd_ps(d.x, cb, b.xb.x), _mm512_fnmadd_ps(d.y, cb, b.xb.y),
                _mm512_fnmadd_ps(d.z, cb, b.xb.z) };
        }
    }
};

} // namespace

__attribute__((target("avx2,fma"))) void solveConflictFreeAvx2(
    XpbdBatches &s, std::uint32_t begin, std::uint32_t end, Vec3 *x, const Vec3 *xPrev, const float *w)
{
    avx2::solveColourRange<4>(s, begin, end, x, xPrev, w, XpbdArith {});
}

__attribute__((target("avx2,fma"))) void solveConflictFreePlanarAvx2(XpbdBatches &s, std::uint32_t begin,
    std::uint32_t end, const PlanarPositions &x, const PlanarPositions &xPrev, const float *w)
{
    avx2::solvePlanarColourRange<4>(s, begin, end, x, xPrev, w, XpbdArith {});
}

// Windows of 8 particles through the kernels' transposes, the rest one by one.
__attribute__((target("avx2,fma"))) void toPlanesAvx2(
    const Vec3 *v, std::size_t begin, std::size_t end, const PlanarPositions &p)
{
    std::size_t i = begin;
    for (; i + XpbdBatches::kLanes <= end; i += XpbdBatches::kLanes)
        avx2::storePlanes(p, std::uint32_t(i), avx2::loadWindow(&v[0].x, std::uint32_t(i)));
    for (; i < end; ++i)
        setPosition(p, std::uint32_t(i), v[i]);
}

__attribute__((target("avx2,fma"))) void fromPlanesAvx2(
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

DRAPE_AVX512_KERNEL void solveConflictFreePlanarAvx512(XpbdBatches &s, std::uint32_t begin, std::uint32_t end,
    const PlanarPositions &x, const PlanarPositions &xPrev, const float *w)
{
    avx512::solvePlanarColourRangeInPairs(s, begin, end, x, xPrev, w, XpbdArith {});
}

} // namespace drape::detail
