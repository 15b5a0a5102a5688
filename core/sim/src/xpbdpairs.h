// The AVX-512 kernels' arithmetic on two blocks at once: 16 lanes in one 512-bit register.
//
// Two pairs side by side (four blocks, as the 8-lane kernels take) keep as many lanes in
// flight along a block's chain of dependent operations (fetch, square root, two divisions,
// store) with half the arithmetic instructions; measured 3-5 % faster for XPBD and 4-7 % for
// Verlet at N = 128 than four 8-lane blocks, where four pairs spill more and gained nothing
// for XPBD. Blocks are still fetched and stored one by one (xpbdblocks.inc): two blocks'
// lanes are joined into one register for the arithmetic and split again for the stores.
// Lanes that cannot move are masked in k-registers instead of vector masks.
//
// Every operation is the 8-lane arithmetic's (xpbdlanes.h: blockGeometry; the kernels' Arith
// structs) lane for lane, in the same IEEE operations and order, so the results are the same
// bits; tests/tst_xpbdbatch.cpp checks them against the portable kernel. Include only from
// the kernel sources (compiled with -ffp-contract=off).
#pragma once

#include "xpbdlanes.h"

namespace drape::detail::avx512 {

// Sixteen lanes of x, y, z: block 2p in lanes 0-7, block 2p + 1 in lanes 8-15.
struct Lanes16 {
    __m512 x, y, z;
};

struct PairIn {
    Lanes16 xa, xb, v;
    __m512 wa, wb;
};

struct PairOut {
    __mmask16 ok;
    Lanes16 xa, xb;
};

DRAPE_AVX512_INLINE __m512 join(__m256 lo, __m256 hi)
{
    return __builtin_shufflevector(lo, hi, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
}

DRAPE_AVX512_INLINE Lanes16 join(const Lanes &lo, const Lanes &hi)
{
    return { join(lo.x, hi.x), join(lo.y, hi.y), join(lo.z, hi.z) };
}

DRAPE_AVX512_INLINE __m256 half(__m512 v, int which)
{
    return which == 0 ? __builtin_shufflevector(v, v, 0, 1, 2, 3, 4, 5, 6, 7)
                      : __builtin_shufflevector(v, v, 8, 9, 10, 11, 12, 13, 14, 15);
}

DRAPE_AVX512_INLINE void assignHalf(Lanes &dst, const Lanes16 &src, int which)
{
    dst.x = half(src.x, which);
    dst.y = half(src.y, which);
    dst.z = half(src.z, which);
}

template <int P> struct PairGeometry {
    Lanes16 n[P];
    __m512 C[P], wSum[P];
};

// blockGeometry for P pairs (pair p = slots [k0[p], k0[p] + 16)); out[p].ok are the lanes
// that can move (blockGeometry's okF).
template <int P>
DRAPE_AVX512_INLINE void pairGeometry(const XpbdBatches &s, const std::uint32_t (&k0)[P],
    const PairIn (&in)[P], PairGeometry<P> &g, PairOut (&out)[P])
{
    const __m512 minLen = _mm512_set1_ps(1e-9f);
    const __m512 zeroF = _mm512_setzero_ps();
    const __m512 oneF = _mm512_set1_ps(1.f);
#pragma GCC unroll 4
    for (int p = 0; p < P; ++p) {
        const PairIn &b = in[p];
        const __m512 sx = _mm512_loadu_ps(s.spanX.data() + k0[p]);
        const __m512 sy = _mm512_loadu_ps(s.spanY.data() + k0[p]);
        const __m512 sz = _mm512_loadu_ps(s.spanZ.data() + k0[p]);
        const __m512 ex = _mm512_sub_ps(b.xa.x, b.xb.x);
        const __m512 ey = _mm512_sub_ps(b.xa.y, b.xb.y);
        const __m512 ez = _mm512_sub_ps(b.xa.z, b.xb.z);
        const __m512 dx = _mm512_add_ps(sx, ex), dy = _mm512_add_ps(sy, ey), dz = _mm512_add_ps(sz, ez);
        // maskz with every lane set: _mm512_sqrt_ps merges into an undefined value, which
        // GCC 12 warns about; the instruction and the result are the same.
        const __m512 len = _mm512_maskz_sqrt_ps(__mmask16(0xffff),
            _mm512_add_ps(
                _mm512_add_ps(_mm512_mul_ps(dx, dx), _mm512_mul_ps(dy, dy)), _mm512_mul_ps(dz, dz)));
        const __m512 se = _mm512_add_ps(
            _mm512_add_ps(_mm512_mul_ps(sx, ex), _mm512_mul_ps(sy, ey)), _mm512_mul_ps(sz, ez));
        const __m512 ee = _mm512_add_ps(
            _mm512_add_ps(_mm512_mul_ps(ex, ex), _mm512_mul_ps(ey, ey)), _mm512_mul_ps(ez, ez));
        const __m512 stretch = _mm512_add_ps(
            _mm512_loadu_ps(s.spanStretch.data() + k0[p]), _mm512_add_ps(_mm512_add_ps(se, se), ee));
        g.wSum[p] = _mm512_add_ps(b.wa, b.wb);
        out[p].ok
            = _mm512_cmp_ps_mask(g.wSum[p], zeroF, _CMP_NEQ_UQ) & _mm512_cmp_ps_mask(len, minLen, _CMP_GE_OQ);
        const __m512 safeLen = _mm512_mask_blend_ps(out[p].ok, oneF, len);
        const __m512 rest = _mm512_loadu_ps(s.restLength.data() + k0[p]);
        const __m512 lenRest = _mm512_add_ps(safeLen, rest);
        const __m512 q = _mm512_div_ps(oneF, _mm512_mul_ps(safeLen, lenRest));
        const __m512 invLen = _mm512_mul_ps(lenRest, q);
        const __m512 ss = _mm512_add_ps(
            _mm512_add_ps(_mm512_mul_ps(sx, sx), _mm512_mul_ps(sy, sy)), _mm512_mul_ps(sz, sz));
        const __m512 twice = _mm512_add_ps(lenRest, lenRest);
        const __mmask16 wellConditioned = _mm512_cmp_ps_mask(ss, _mm512_mul_ps(twice, twice), _CMP_LE_OQ);
        g.C[p] = _mm512_mask_blend_ps(
            wellConditioned, _mm512_sub_ps(safeLen, rest), _mm512_mul_ps(stretch, _mm512_mul_ps(safeLen, q)));
        g.n[p] = { _mm512_mul_ps(dx, invLen), _mm512_mul_ps(dy, invLen), _mm512_mul_ps(dz, invLen) };
    }
}

// 2P consecutive blocks from `first` (slots [first, first + 16 P) of one colour): each block
// fetched as in solveRange (xpbdblocks.inc), pairs joined, arith.template solve16<P>
// computes the corrected positions, each block stored as in solveRange.
template <int P, class Arith>
DRAPE_AVX512_INLINE void solvePairs(
    XpbdBatches &s, std::uint32_t first, Vec3 *x, const Vec3 *xPrev, const float *w, const Arith &arith)
{
    constexpr int U = 2 * P;
    std::uint8_t fetch[U];
    avx2::BlockIn in[U];
#pragma GCC unroll 8
    for (int u = 0; u < U; ++u) {
        const std::uint32_t k0 = first + std::uint32_t(u) * XpbdBatches::kLanes;
        const std::size_t block = k0 / XpbdBatches::kLanes;
        fetch[u] = s.blockFetch[block];
        const bool runs = fetch[u] == XpbdBatches::Runs;
        if (Arith::kMotion && s.blockDamped[block]) {
            if (fetch[u] == XpbdBatches::Gather)
                avx2::gatherBlock<true>(s, k0, x, xPrev, w, in[u]);
            else
                avx512::loadWindows<true>(s, k0, runs, x, xPrev, w, in[u]);
        } else {
            if (fetch[u] == XpbdBatches::Gather)
                avx2::gatherBlock<false>(s, k0, x, xPrev, w, in[u]);
            else
                avx512::loadWindows<false>(s, k0, runs, x, xPrev, w, in[u]);
            in[u].v = { _mm256_setzero_ps(), _mm256_setzero_ps(), _mm256_setzero_ps() };
        }
    }
    std::uint32_t k0[P];
    PairIn pin[P];
    PairOut pout[P];
#pragma GCC unroll 4
    for (int p = 0; p < P; ++p) {
        k0[p] = first + std::uint32_t(2 * p) * XpbdBatches::kLanes;
        const avx2::BlockIn &lo = in[2 * p], &hi = in[2 * p + 1];
        pin[p].xa = join(lo.xa, hi.xa);
        pin[p].xb = join(lo.xb, hi.xb);
        pin[p].v = join(lo.v, hi.v);
        pin[p].wa = join(lo.wa, hi.wa);
        pin[p].wb = join(lo.wb, hi.wb);
    }
    arith.template solve16<P>(s, k0, pin, pout);
#pragma GCC unroll 8
    for (int u = 0; u < U; ++u) {
        const PairOut &o = pout[u / 2];
        avx2::BlockOut out;
        const __mmask8 ok = __mmask8(u % 2 ? o.ok >> 8 : o.ok);
        out.okF = _mm256_castsi256_ps(_mm256_movm_epi32(ok));
        assignHalf(out.xa, o.xa, u % 2);
        assignHalf(out.xb, o.xb, u % 2);
        const std::uint32_t k = first + std::uint32_t(u) * XpbdBatches::kLanes;
        if (fetch[u] == XpbdBatches::Gather)
            avx2::scatterBlock(s, k, x, out);
        else
            avx512::storeWindows(s, k, fetch[u] == XpbdBatches::Runs, x, in[u], out);
    }
}

// Every block of slots [begin, end) of a conflict-free colour: four blocks (two pairs) at a
// time, the rest as avx512::solveColourRange does.
template <class Arith>
DRAPE_AVX512_INLINE void solveColourRangeInPairs(XpbdBatches &s, std::uint32_t begin, std::uint32_t end,
    Vec3 *x, const Vec3 *xPrev, const float *w, const Arith &arith)
{
    constexpr std::uint32_t L = XpbdBatches::kLanes;
    std::uint32_t k0 = begin;
    for (; k0 + 4 * L <= end; k0 += 4 * L)
        solvePairs<2>(s, k0, x, xPrev, w, arith);
    avx512::solveColourRange<4>(s, k0, end, x, xPrev, w, arith);
}

} // namespace drape::detail::avx512
