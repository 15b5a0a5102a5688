// The AVX-512 kernels' arithmetic on two blocks at once: 16 lanes in one 512-bit register.
//
// Two pairs side by side (four blocks, as the 8-lane kernels take) keep as many lanes in
// flight along a block's chain of dependent operations (fetch, square root, division,
// store) with half the arithmetic instructions; measured 3-5 % faster for XPBD and 4-7 % for
// Verlet at N = 128 than four 8-lane blocks, where four pairs spill more and gained nothing
// for XPBD. On Vec3 arrays (solveColourRangeInPairs), and on planes for a pair with a
// gathered block, blocks are fetched and stored one by one (xpbdblocks.inc, xpbdplanar.h):
// two blocks' lanes are joined into one register for the arithmetic, through memory on the
// stack, and split again for the stores. Lanes that cannot move are masked in k-registers
// instead of vector masks.
//
// On planes (the solvers' passes, solveConflictFreePlanarAvx512) a pair of window blocks
// skips that round trip: its lanes come from the planes straight into 16-lane registers,
// a block's two windows side by side, and go back the same way (solveWindowPair). Moving
// the AVX-512 passes onto planes with this path took the XPBD frame of the 128² benchmark
// sheet from about 2.9 to 2.4 ms and Verlet's from 2.7 to 2.1 ms (docs/benchmark.md).
//
// Every operation is the 8-lane arithmetic's (xpbdlanes.h: blockGeometry; the kernels' Arith
// structs) lane for lane, in the same IEEE operations and order, so the results are the same
// bits; tests/tst_xpbdbatch.cpp checks them against the portable kernel. Include only from
// the kernel sources (compiled with -ffp-contract=off).
#pragma once

#include "xpbdlanes.h"
#include "xpbdplanar.h"

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

DRAPE_AVX512_INLINE Lanes16 sub(const Lanes16 &p, const Lanes16 &q)
{
    return { _mm512_sub_ps(p.x, q.x), _mm512_sub_ps(p.y, q.y), _mm512_sub_ps(p.z, q.z) };
}

// A plane's 16 lanes from two runs of 8 particles: the low block's run at `lo`, the high
// block's at `hi`.
DRAPE_AVX512_INLINE __m512 loadRuns(const float *plane, std::uint32_t lo, std::uint32_t hi)
{
    return join(_mm256_loadu_ps(plane + lo), _mm256_loadu_ps(plane + hi));
}

DRAPE_AVX512_INLINE Lanes16 loadRunPlanes(const PlanarPositions &p, std::uint32_t lo, std::uint32_t hi)
{
    return { loadRuns(p.x, lo, hi), loadRuns(p.y, lo, hi), loadRuns(p.z, lo, hi) };
}

DRAPE_AVX512_INLINE void storeRunPlanes(
    const PlanarPositions &p, std::uint32_t lo, std::uint32_t hi, const Lanes16 &v)
{
    _mm256_storeu_ps(p.x + lo, half(v.x, 0));
    _mm256_storeu_ps(p.x + hi, half(v.x, 1));
    _mm256_storeu_ps(p.y + lo, half(v.y, 0));
    _mm256_storeu_ps(p.y + hi, half(v.y, 1));
    _mm256_storeu_ps(p.z + lo, half(v.z, 0));
    _mm256_storeu_ps(p.z + hi, half(v.z, 1));
}

// Sixteen 4-bit fields, eight of `lo` in lanes 0-7 and eight of `hi` in lanes 8-15, each in
// the low bits of its lane (the permutes that read them look at no more bits than they need).
DRAPE_AVX512_INLINE __m512i nibbles16(std::uint32_t lo, std::uint32_t hi)
{
    const __m512i shifts = _mm512_setr_epi32(0, 4, 8, 12, 16, 20, 24, 28, 0, 4, 8, 12, 16, 20, 24, 28);
    const __m512i both = _mm512_inserti32x8(_mm512_set1_epi32(int(lo)), _mm256_set1_epi32(int(hi)), 1);
    // maskz with every lane set, here and below: the plain intrinsics merge into an undefined
    // value, which GCC 12 warns about; the instructions and results are the same.
    return _mm512_maskz_srlv_epi32(__mmask16(0xffff), both, shifts);
}

// The two-source permute indices of a pair of window blocks' lane ends (lane → window
// nibbles of the low block, `lo`, and of the high one, `hi`; XpbdBatches::lanesOf), for
// registers that hold the low block's windows 0 and 1 in their halves (source 1) and the
// high block's (source 2): a nibble is the position in its block's pair of windows, and
// the high block's lanes add 16 to name the second source.
DRAPE_AVX512_INLINE __m512i pairPicks(std::uint32_t lo, std::uint32_t hi)
{
    const __m512i high = _mm512_setr_epi32(0, 0, 0, 0, 0, 0, 0, 0, 16, 16, 16, 16, 16, 16, 16, 16);
    // (nibbles & 15) | high in one instruction (truth table 0xEA: (A and B) or C).
    return _mm512_ternarylogic_epi32(nibbles16(lo, hi), _mm512_set1_epi32(15), high, 0xEA);
}

DRAPE_AVX512_INLINE Lanes16 pick(const Lanes16 &lo, const Lanes16 &hi, __m512i picks)
{
    return { _mm512_permutex2var_ps(lo.x, picks, hi.x), _mm512_permutex2var_ps(lo.y, picks, hi.y),
        _mm512_permutex2var_ps(lo.z, picks, hi.z) };
}

// One plane of one block's two windows from a pair's corrected ends a, b (`which` block: 0
// the low lanes, 1 the high ones): one 128-bit shuffle puts the block's lanes of ends a and b
// side by side, and its window → lane nibbles (XpbdBatches::slotsOf, window 0 in lanes 0-7
// and window 1 in lanes 8-15: `slots`) permute them into the windows, which go to w0 and w1.
DRAPE_AVX512_INLINE void storeWindowPlane(
    float *plane, std::uint32_t w0, std::uint32_t w1, __m512 a, __m512 b, int which, __m512i slots)
{
    const __m512 ends = which == 0 ? _mm512_maskz_shuffle_f32x4(__mmask16(0xffff), a, b, 0x44)
                                   : _mm512_maskz_shuffle_f32x4(__mmask16(0xffff), a, b, 0xEE);
    const __m512 windows = _mm512_maskz_permutexvar_ps(__mmask16(0xffff), slots, ends);
    _mm256_storeu_ps(plane + w0, half(windows, 0));
    _mm256_storeu_ps(plane + w1, half(windows, 1));
}

DRAPE_AVX512_INLINE void storeWindowPair(const PlanarPositions &p, std::uint32_t w0, std::uint32_t w1,
    const Lanes16 &ya, const Lanes16 &yb, int which, __m512i slots)
{
    storeWindowPlane(p.x, w0, w1, ya.x, yb.x, which, slots);
    storeWindowPlane(p.y, w0, w1, ya.y, yb.y, which, slots);
    storeWindowPlane(p.z, w0, w1, ya.z, yb.z, which, slots);
}

// alphaLanes (xpbdlanes.h) for the 16 slots [k0, k0 + 16) of a pair of blocks.
DRAPE_AVX512_INLINE __m512 alphaLanes16(const XpbdBatches &s, std::uint32_t k0)
{
    if (!s.alphaClassed)
        return _mm512_loadu_ps(s.alphaTilde.data() + k0);
    // The maskz forms with every lane set, as elsewhere in this file (GCC 12 warns about the
    // plain ones' merge into an undefined value).
    const __m512i classes = _mm512_maskz_cvtepu8_epi32(
        __mmask16(0xffff), _mm_loadu_si128(reinterpret_cast<const __m128i *>(s.alphaClass.data() + k0)));
    return _mm512_maskz_permutexvar_ps(__mmask16(0xffff), classes, _mm512_loadu_ps(s.alphaTable));
}

template <int P> struct PairGeometry {
    Lanes16 d[P];
    __m512 len[P], lenRest[P], S[P], wSum[P];
};

// blockGeometry for P pairs (pair p = slots [k0[p], k0[p] + 16)); out[p].ok are the lanes
// that can move (blockGeometry's okF).
template <int P>
DRAPE_AVX512_INLINE void pairGeometry(const XpbdBatches &s, const std::uint32_t (&k0)[P],
    const PairIn (&in)[P], PairGeometry<P> &g, PairOut (&out)[P])
{
    const __m512 minLen2 = _mm512_set1_ps(kMinLinkLengthSquared);
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
        const __m512 len2 = _mm512_fmadd_ps(dz, dz, _mm512_fmadd_ps(dy, dy, _mm512_mul_ps(dx, dx)));
        const __m512 len = _mm512_maskz_sqrt_ps(__mmask16(0xffff), len2);
        g.wSum[p] = _mm512_add_ps(b.wa, b.wb);
        // |d| >= kMinLinkLength from |d|², as blockGeometry.
        out[p].ok = _mm512_cmp_ps_mask(g.wSum[p], zeroF, _CMP_NEQ_UQ)
            & _mm512_cmp_ps_mask(len2, minLen2, _CMP_GE_OQ);
        g.len[p] = _mm512_mask_blend_ps(out[p].ok, oneF, len);
        const __m512 rest = _mm512_loadu_ps(s.restLength.data() + k0[p]);
        g.lenRest[p] = _mm512_add_ps(g.len[p], rest);
        const __m512 ss = _mm512_fmadd_ps(sz, sz, _mm512_fmadd_ps(sy, sy, _mm512_mul_ps(sx, sx)));
        const __m512 rr = _mm512_mul_ps(rest, rest);
        const __m512 te = _mm512_fmadd_ps(_mm512_add_ps(sz, dz), ez,
            _mm512_fmadd_ps(_mm512_add_ps(sy, dy), ey, _mm512_mul_ps(_mm512_add_ps(sx, dx), ex)));
        g.S[p] = _mm512_add_ps(_mm512_fnmadd_ps(rest, rest, ss), te);
        const __mmask16 far = _mm512_cmp_ps_mask(ss, _mm512_mul_ps(rr, _mm512_set1_ps(4.f)), _CMP_GT_OQ);
        if (__builtin_expect(far != 0, 0))
            g.S[p] = _mm512_mask_blend_ps(
                far, g.S[p], _mm512_mul_ps(_mm512_sub_ps(g.len[p], rest), g.lenRest[p]));
        g.d[p] = { dx, dy, dz };
    }
}

// One block's fetch (Motion: with the relative motion in.v) and store, as solveRange
// (xpbdblocks.inc) on Vec3 arrays and solvePlanarRange (xpbdplanar.h) on planes does them.
template <bool Motion>
DRAPE_AVX512_INLINE void fetchBlock(const XpbdBatches &s, std::uint32_t k0, std::uint8_t fetch, Vec3 *x,
    const Vec3 *xPrev, const float *w, avx2::BlockIn &in)
{
    if (fetch == XpbdBatches::Gather)
        avx2::gatherBlock<Motion>(s, k0, x, xPrev, w, in);
    else
        avx512::loadWindows<Motion>(s, k0, fetch == XpbdBatches::Runs, x, xPrev, w, in);
}

template <bool Motion>
DRAPE_AVX512_INLINE void fetchBlock(const XpbdBatches &s, std::uint32_t k0, std::uint8_t fetch,
    const PlanarPositions &x, const PlanarPositions &xPrev, const float *w, avx2::BlockIn &in)
{
    if (fetch == XpbdBatches::Gather)
        avx2::gatherPlanes<Motion>(s, k0, x, xPrev, w, in);
    else
        avx2::loadPlanarWindows<Motion>(s, k0, fetch == XpbdBatches::Runs, x, xPrev, w, in);
}

DRAPE_AVX512_INLINE void storeBlock(const XpbdBatches &s, std::uint32_t k0, std::uint8_t fetch, Vec3 *x,
    const avx2::BlockIn &in, const avx2::BlockOut &out)
{
    if (fetch == XpbdBatches::Gather)
        avx2::scatterBlock(s, k0, x, out);
    else
        avx512::storeWindows(s, k0, fetch == XpbdBatches::Runs, x, in, out);
}

DRAPE_AVX512_INLINE void storeBlock(const XpbdBatches &s, std::uint32_t k0, std::uint8_t fetch,
    const PlanarPositions &x, const avx2::BlockIn &in, const avx2::BlockOut &out)
{
    if (fetch == XpbdBatches::Gather)
        avx2::scatterBlock(s, k0, x, out);
    else
        avx2::storePlanarWindows(s, k0, fetch == XpbdBatches::Runs, x, in, out);
}

// 2P consecutive blocks from `first` (slots [first, first + 16 P) of one colour): each block
// fetched as in solveRange (xpbdblocks.inc), pairs joined, arith.template solve16<P>
// computes the corrected positions, each block stored as in solveRange. `x` and `xPrev` are
// Vec3 arrays or PlanarPositions.
template <int P, class Positions, class PrevPositions, class Arith>
DRAPE_AVX512_INLINE void solvePairs(XpbdBatches &s, std::uint32_t first, const Positions &x,
    const PrevPositions &xPrev, const float *w, const Arith &arith)
{
    constexpr int U = 2 * P;
    std::uint8_t fetch[U];
    avx2::BlockIn in[U];
#pragma GCC unroll 8
    for (int u = 0; u < U; ++u) {
        const std::uint32_t k0 = first + std::uint32_t(u) * XpbdBatches::kLanes;
        const std::size_t block = k0 / XpbdBatches::kLanes;
        fetch[u] = s.blockFetch[block];
        if (Arith::kMotion && s.blockDamped[block]) {
            fetchBlock<true>(s, k0, fetch[u], x, xPrev, w, in[u]);
        } else {
            fetchBlock<false>(s, k0, fetch[u], x, xPrev, w, in[u]);
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
        storeBlock(s, first + std::uint32_t(u) * XpbdBatches::kLanes, fetch[u], x, in[u], out);
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

// A pair of window blocks on planes (slots [k0, k0 + 16), solvePlanarColourRangeInPairs),
// fetched, solved and stored with every lane in registers: each plane's 16 lanes are the two
// blocks' windows, one load and one inserted load per pair of windows, the lanes' ends picked
// from them by one two-source permute each (none when both blocks are Runs), and the windows
// written back the same way. Motion: the previous offsets are fetched for the damping term
// (either block damped, as solve16 takes the term). The lanes hold the values solvePairs
// gives them, so the arithmetic (arith.template solve16<1>) gives the same bits; lanes that
// do not move keep the values they were read with.
template <bool Motion, bool Runs, class Arith>
DRAPE_AVX512_INLINE void solveWindowPair(XpbdBatches &s, std::uint32_t k0, const PlanarPositions &x,
    const PlanarPositions &xPrev, const float *w, const Arith &arith)
{
    const std::uint32_t k[1] = { k0 };
    const std::size_t block = k0 / XpbdBatches::kLanes;
    // Windows 0 and 1 of the low block, then of the high one.
    const std::uint32_t base[4] = { s.windowFirst(block), s.windowSecond(block), s.windowFirst(block + 1),
        s.windowSecond(block + 1) };
    PairIn in[1];
    PairOut out[1];
    const __m512 zero = _mm512_setzero_ps();
    in[0].v = { zero, zero, zero };
    if constexpr (Runs) {
        in[0].xa = loadRunPlanes(x, base[0], base[2]);
        in[0].xb = loadRunPlanes(x, base[1], base[3]);
        in[0].wa = loadRuns(w, base[0], base[2]);
        in[0].wb = loadRuns(w, base[1], base[3]);
        if constexpr (Motion)
            in[0].v = sub(sub(in[0].xa, loadRunPlanes(xPrev, base[0], base[2])),
                sub(in[0].xb, loadRunPlanes(xPrev, base[1], base[3])));
    } else {
        const std::uint64_t lanesLo = s.lanesOf(block), lanesHi = s.lanesOf(block + 1);
        const __m512i ia = pairPicks(std::uint32_t(lanesLo), std::uint32_t(lanesHi));
        const __m512i ib = pairPicks(std::uint32_t(lanesLo >> 32), std::uint32_t(lanesHi >> 32));
        const Lanes16 lo = loadRunPlanes(x, base[0], base[1]);
        const Lanes16 hi = loadRunPlanes(x, base[2], base[3]);
        in[0].xa = pick(lo, hi, ia);
        in[0].xb = pick(lo, hi, ib);
        if constexpr (Motion) {
            // x - x_prev per particle: the same subtraction the gather path does per lane end.
            const Lanes16 dLo = sub(lo, loadRunPlanes(xPrev, base[0], base[1]));
            const Lanes16 dHi = sub(hi, loadRunPlanes(xPrev, base[2], base[3]));
            in[0].v = sub(pick(dLo, dHi, ia), pick(dLo, dHi, ib));
        }
        const __m512 wLo = loadRuns(w, base[0], base[1]), wHi = loadRuns(w, base[2], base[3]);
        in[0].wa = _mm512_permutex2var_ps(wLo, ia, wHi);
        in[0].wb = _mm512_permutex2var_ps(wLo, ib, wHi);
    }
    arith.template solve16<1>(s, k, in, out);
    const __mmask16 ok = out[0].ok;
    const Lanes16 ya { _mm512_mask_blend_ps(ok, in[0].xa.x, out[0].xa.x),
        _mm512_mask_blend_ps(ok, in[0].xa.y, out[0].xa.y),
        _mm512_mask_blend_ps(ok, in[0].xa.z, out[0].xa.z) };
    const Lanes16 yb { _mm512_mask_blend_ps(ok, in[0].xb.x, out[0].xb.x),
        _mm512_mask_blend_ps(ok, in[0].xb.y, out[0].xb.y),
        _mm512_mask_blend_ps(ok, in[0].xb.z, out[0].xb.z) };
    if constexpr (Runs) {
        storeRunPlanes(x, base[0], base[2], ya);
        storeRunPlanes(x, base[1], base[3], yb);
    } else {
        const std::uint64_t slotsLo = s.slotsOf(block), slotsHi = s.slotsOf(block + 1);
        storeWindowPair(
            x, base[0], base[1], ya, yb, 0, nibbles16(std::uint32_t(slotsLo), std::uint32_t(slotsLo >> 32)));
        storeWindowPair(
            x, base[2], base[3], ya, yb, 1, nibbles16(std::uint32_t(slotsHi), std::uint32_t(slotsHi >> 32)));
    }
}

// The same on planes (solveXpbdPlanes, relaxVerletPass), a pair of blocks at a time: a pair
// of window blocks (Runs or Windows; a grid's blocks but a few around holes and splits) goes
// to solveWindowPair, which keeps every lane in registers from fetch to store; a pair with a
// gathered block goes through solvePairs.
template <class Arith>
DRAPE_AVX512_INLINE void solvePlanarColourRangeInPairs(XpbdBatches &s, std::uint32_t begin, std::uint32_t end,
    const PlanarPositions &x, const PlanarPositions &xPrev, const float *w, const Arith &arith)
{
    constexpr std::uint32_t L = XpbdBatches::kLanes;
    std::uint32_t k0 = begin;
    for (; k0 + 2 * L <= end; k0 += 2 * L) {
        const std::size_t block = k0 / L;
        const std::uint8_t f0 = s.blockFetch[block], f1 = s.blockFetch[block + 1];
        if (f0 == XpbdBatches::Gather || f1 == XpbdBatches::Gather) {
            solvePairs<1>(s, k0, x, xPrev, w, arith);
            continue;
        }
        const bool runs = f0 == XpbdBatches::Runs && f1 == XpbdBatches::Runs;
        if (Arith::kMotion && (s.blockDamped[block] || s.blockDamped[block + 1])) {
            if (runs)
                solveWindowPair<Arith::kMotion, true>(s, k0, x, xPrev, w, arith);
            else
                solveWindowPair<Arith::kMotion, false>(s, k0, x, xPrev, w, arith);
        } else {
            if (runs)
                solveWindowPair<false, true>(s, k0, x, xPrev, w, arith);
            else
                solveWindowPair<false, false>(s, k0, x, xPrev, w, arith);
        }
    }
    avx2::solvePlanarColourRange<4>(s, k0, end, x, xPrev, w, arith);
}

} // namespace drape::detail::avx512
