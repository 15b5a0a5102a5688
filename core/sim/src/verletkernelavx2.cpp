// The conflict-free Verlet relaxation kernel in explicit AVX2: Jakobsen's (2001) projection
// of a distance constraint with the stiffness of a compliant link, spelled out one constraint
// at a time in verletbatch.cpp (relaxOne). The blocks are fetched and stored by the helpers
// of xpbdlanes.h, as the XPBD kernel's are; only the arithmetic differs. Bit-identical to
// relaxOne: the same IEEE operations in the same order, its multiply-adds as FMA instructions
// and nothing else contracted (compiled with -ffp-contract=off).
#include "xpbdkernel.h"
#include "xpbdlanes.h"
#include "xpbdpairs.h"
#include "xpbdplanar.h"

namespace drape::detail {

namespace {

using namespace avx2;

// U independent blocks of one colour, step by step side by side (see XpbdArith), lane for
// lane relaxOne: f = C / (w_a + w_b + α/dt²), x_a -= w_a n f, x_b += w_b n f, λ += f/dt², with
// n f = d (f / |d|) and f / |d| = S R from one reciprocal R (SlotLink).
struct VerletArith {
    static constexpr bool kMotion = false;
    float invDt2 = 0.f; ///< 1/s², 1/dt² of the step

    // f / |d| of block u (slots [k0, k0 + 8)) from its geometry, with f / dt² added to the
    // slots' tension; lanes that cannot move get 0.
    template <int U>
    DRAPE_AVX2_INLINE __m256 force(
        XpbdBatches &s, std::uint32_t k0, const BlockGeometry<U> &geo, int u, __m256 okF) const
    {
        const __m256 at = alphaLanes(s, k0);
        const __m256 R = _mm256_div_ps(_mm256_set1_ps(1.f),
            _mm256_mul_ps(geo.len[u], _mm256_mul_ps(geo.lenRest[u], _mm256_add_ps(geo.wSum[u], at))));
        const __m256 f = _mm256_and_ps(_mm256_mul_ps(geo.S[u], R), okF);
        float *tension = s.lambda.data() + k0;
        _mm256_storeu_ps(tension,
            _mm256_fmadd_ps(_mm256_mul_ps(f, geo.len[u]), _mm256_set1_ps(invDt2), _mm256_loadu_ps(tension)));
        return f;
    }

    // The ends of a block moved by f / |d| along d: x_a - w_a d f, x_b + w_b d f. A lane that
    // does not move has d = 0 and f = 0 (blockGeometry, force), so it keeps its offsets as read.
    DRAPE_AVX2_INLINE static void move(const BlockIn &b, const Lanes &d, __m256 f, BlockOut &out)
    {
        const __m256 cx = _mm256_mul_ps(d.x, f), cy = _mm256_mul_ps(d.y, f), cz = _mm256_mul_ps(d.z, f);
        out.xa = { _mm256_fnmadd_ps(cx, b.wa, b.xa.x), _mm256_fnmadd_ps(cy, b.wa, b.xa.y),
            _mm256_fnmadd_ps(cz, b.wa, b.xa.z) };
        out.xb = { _mm256_fmadd_ps(cx, b.wb, b.xb.x), _mm256_fmadd_ps(cy, b.wb, b.xb.y),
            _mm256_fmadd_ps(cz, b.wb, b.xb.z) };
    }

    template <int U>
    DRAPE_AVX2_INLINE void solve(
        XpbdBatches &s, const std::uint32_t (&k0)[U], const BlockIn (&in)[U], BlockOut (&out)[U]) const
    {
        __m256 f[U];
        BlockGeometry<U> geo;
        blockGeometry<U>(s, k0, in, geo, out);
        #pragma GCC unroll 4
        for (int u = 0; u < U; ++u)
            f[u] = force(s, k0[u], geo, u, out[u].okF);
#pragma GCC unroll 4
        for (int u = 0; u < U; ++u)
            move(in[u], geo.d[u], f[u], out[u]);
    }

    // Two blocks of runs on planes side by side (solvePlanarColourRange), as XpbdArith::solveTwo
    // takes them: the offsets read for the geometry and read again for the moves, so that
    // little stays live across the square root and the division. On Zen 3 a tenth faster than
    // the blocks one after the other with their lanes kept (docs/benchmark.md).
    template <bool Motion>
    DRAPE_AVX2_INLINE void solveRuns(XpbdBatches &s, std::uint32_t first, const PlanarPositions &x,
        const PlanarPositions &, const float *w) const
    {
        constexpr int U = 2;
        const WindowBlocks<U> blocks(s, first);
        BlockGeometry<U> geo;
        BlockOut out[U];
        __m256 f[U];
        {
            BlockIn in[U];
#pragma GCC unroll 2
            for (int u = 0; u < U; ++u)
                loadRunWindows(blocks.base0[u], blocks.base1[u], x, w, in[u]);
            blockGeometry<U>(s, blocks.k0, in, geo, out);
        }
#pragma GCC unroll 2
        for (int u = 0; u < U; ++u)
            f[u] = force(s, blocks.k0[u], geo, u, out[u].okF);
        asm volatile("" ::: "memory");
#pragma GCC unroll 2
        for (int u = 0; u < U; ++u) {
            BlockIn again;
            loadRunWindows(blocks.base0[u], blocks.base1[u], x, w, again);
            BlockOut moved;
            move(again, geo.d[u], f[u], moved);
            storePlanes(x, blocks.base0[u], moved.xa);
            storePlanes(x, blocks.base1[u], moved.xb);
        }
    }

    // Two window blocks of one dealt layout side by side (solvePlanarColourRange), as
    // solveRuns takes them: the windows read again for the moves, each moved in its own order
    // by d f of the lane that holds its particle (gathered up as storeDealtWindows gathers up
    // offsets), times -w_a or w_b (x_a - w_a d f as x_a + (-w_a) d f: the same multiply-add).
    template <std::uint64_t Layout, bool Motion>
    DRAPE_AVX2_INLINE void solveDealt(XpbdBatches &s, std::uint32_t first, const PlanarPositions &x,
        const PlanarPositions &, const float *w) const
    {
        constexpr int U = 2;
        const WindowBlocks<U> blocks(s, first);
        BlockGeometry<U> geo;
        BlockOut out[U];
        __m256 f[U];
        {
            BlockIn in[U];
#pragma GCC unroll 2
            for (int u = 0; u < U; ++u)
                loadDealtWindows<Layout, false>(blocks.base0[u], blocks.base1[u], x, x, w, in[u]);
            blockGeometry<U>(s, blocks.k0, in, geo, out);
        }
#pragma GCC unroll 2
        for (int u = 0; u < U; ++u)
            f[u] = force(s, blocks.k0[u], geo, u, out[u].okF);
        asm volatile("" ::: "memory");
        __m256 sign0, sign1; // -0 at the positions of ends a, +0 at those of ends b
        gatherUp<Layout>(_mm256_set1_ps(-0.f), _mm256_setzero_ps(), sign0, sign1);
#pragma GCC unroll 2
        for (int u = 0; u < U; ++u) {
            const std::uint32_t base0 = blocks.base0[u], base1 = blocks.base1[u];
            const __m256 w0 = _mm256_xor_ps(_mm256_loadu_ps(w + base0), sign0);
            const __m256 w1 = _mm256_xor_ps(_mm256_loadu_ps(w + base1), sign1);
            const Lanes &d = geo.d[u];
            moveDealt<Layout>(x.x, base0, base1, _mm256_mul_ps(d.x, f[u]), w0, w1);
            moveDealt<Layout>(x.y, base0, base1, _mm256_mul_ps(d.y, f[u]), w0, w1);
            moveDealt<Layout>(x.z, base0, base1, _mm256_mul_ps(d.z, f[u]), w0, w1);
        }
    }

    // solve on P pairs of blocks, 16 lanes at a time (xpbdpairs.h).
    template <int P>
    DRAPE_AVX512_INLINE void solve16(XpbdBatches &s, const std::uint32_t (&k0)[P], const avx512::PairIn (&in)[P],
        avx512::PairOut (&out)[P]) const
    {
        __m512 f[P];
        avx512::PairGeometry<P> geo;
        avx512::pairGeometry<P>(s, k0, in, geo, out);
#pragma GCC unroll 4
        for (int p = 0; p < P; ++p) {
            const __m512 at = avx512::alphaLanes16(s, k0[p]);
            const __m512 R = _mm512_div_ps(_mm512_set1_ps(1.f),
                _mm512_mul_ps(geo.len[p], _mm512_mul_ps(geo.lenRest[p], _mm512_add_ps(geo.wSum[p], at))));
            // f / |d|; lanes that cannot move get +0, as the 8-lane kernel's mask gives them.
            f[p] = _mm512_maskz_mul_ps(out[p].ok, geo.S[p], R);
            float *tension = s.lambda.data() + k0[p];
            _mm512_storeu_ps(tension,
                _mm512_fmadd_ps(
                    _mm512_mul_ps(f[p], geo.len[p]), _mm512_set1_ps(invDt2), _mm512_loadu_ps(tension)));
        }
#pragma GCC unroll 4
        for (int p = 0; p < P; ++p) {
            const avx512::PairIn &b = in[p];
            const avx512::Lanes16 &d = geo.d[p];
            const __m512 cx = _mm512_mul_ps(d.x, f[p]), cy = _mm512_mul_ps(d.y, f[p]),
                         cz = _mm512_mul_ps(d.z, f[p]);
            out[p].xa = { _mm512_fnmadd_ps(cx, b.wa, b.xa.x), _mm512_fnmadd_ps(cy, b.wa, b.xa.y),
                _mm512_fnmadd_ps(cz, b.wa, b.xa.z) };
            out[p].xb = { _mm512_fmadd_ps(cx, b.wb, b.xb.x), _mm512_fmadd_ps(cy, b.wb, b.xb.y),
                _mm512_fmadd_ps(cz, b.wb, b.xb.z) };
        }
    }
};

} // namespace

__attribute__((target("avx2,fma"))) void relaxConflictFreeAvx2(
    XpbdBatches &s, std::uint32_t begin, std::uint32_t end, Vec3 *x, const float *w, float invDt2)
{
    VerletArith arith;
    arith.invDt2 = invDt2;
    avx2::solveColourRange<4>(s, begin, end, x, nullptr, w, arith);
}

__attribute__((target("avx2,fma"))) void relaxConflictFreePlanarAvx2(XpbdBatches &s, std::uint32_t begin,
    std::uint32_t end, const PlanarPositions &x, const float *w, float invDt2)
{
    VerletArith arith;
    arith.invDt2 = invDt2;
    avx2::solvePlanarColourRange<4>(s, begin, end, x, x, w, arith);
}

DRAPE_AVX512_KERNEL void relaxConflictFreeAvx512(
    XpbdBatches &s, std::uint32_t begin, std::uint32_t end, Vec3 *x, const float *w, float invDt2)
{
    VerletArith arith;
    arith.invDt2 = invDt2;
    avx512::solveColourRangeInPairs(s, begin, end, x, nullptr, w, arith);
}

DRAPE_AVX512_KERNEL void relaxConflictFreePlanarAvx512(XpbdBatches &s, std::uint32_t begin, std::uint32_t end,
    const PlanarPositions &x, const float *w, float invDt2)
{
    VerletArith arith;
    arith.invDt2 = invDt2;
    avx512::solvePlanarColourRangeInPairs(s, begin, end, x, x, w, arith);
}

} // namespace drape::detail
