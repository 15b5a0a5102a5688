// The block loop of the AVX2 constraint kernels on planar offsets (PlanarPositions: x, y, z
// of every particle as three float arrays, the layout solveXpbdPass copies the offsets into
// for a pass). What xpbdblocks.inc does on Vec3 arrays, with the data moves of planes: a
// window of 8 consecutive particles is three plain loads, one per plane, already in x, y, z
// lanes, where a window of Vec3 triples takes three loads, six blends and three permutes in,
// and as many out; a gathered block indexes the planes by particle, not by 3 × particle. The
// window blocks of a grid's rows come in two lane layouts (XpbdBatches::kEvenOddLanes,
// kPairLanes), which take one in-lane shuffle per end, and one unpack per window back,
// instead of two permutes and a blend (deal, gatherUp); other layouts go through the
// general picks. The lanes hold the same values as xpbdblocks.inc gives them, so the
// arithmetic (XpbdArith, VerletArith) and its bits are the same. Internal to the core;
// include only from sources whose functions are target("avx2"), after xpbdlanes.h.
#pragma once

#include "xpbdlanes.h"

namespace drape::detail::avx2 {

DRAPE_AVX2_INLINE Lanes loadPlanes(const PlanarPositions &p, std::uint32_t base)
{
    return { _mm256_loadu_ps(p.x + base), _mm256_loadu_ps(p.y + base), _mm256_loadu_ps(p.z + base) };
}

DRAPE_AVX2_INLINE void storePlanes(const PlanarPositions &p, std::uint32_t base, const Lanes &v)
{
    _mm256_storeu_ps(p.x + base, v.x);
    _mm256_storeu_ps(p.y + base, v.y);
    _mm256_storeu_ps(p.z + base, v.z);
}

// Both ends' x, y, z and inverse masses of a block of scattered particles (gatherBlock).
template <bool Motion>
DRAPE_AVX2_INLINE void gatherPlanes(const XpbdBatches &s, std::uint32_t k0, const PlanarPositions &x,
    const PlanarPositions &xPrev, const float *w, BlockIn &in)
{
    const std::uint32_t *ends = s.gathered(k0 / XpbdBatches::kLanes);
    const __m256i ia = _mm256_loadu_si256(reinterpret_cast<const __m256i *>(ends));
    const __m256i ib = _mm256_loadu_si256(reinterpret_cast<const __m256i *>(ends + XpbdBatches::kLanes));
    in.xa = { _mm256_i32gather_ps(x.x, ia, 4), _mm256_i32gather_ps(x.y, ia, 4),
        _mm256_i32gather_ps(x.z, ia, 4) };
    in.xb = { _mm256_i32gather_ps(x.x, ib, 4), _mm256_i32gather_ps(x.y, ib, 4),
        _mm256_i32gather_ps(x.z, ib, 4) };
    in.wa = _mm256_i32gather_ps(w, ia, 4);
    in.wb = _mm256_i32gather_ps(w, ib, 4);
    if constexpr (Motion) {
        const Lanes pa { _mm256_i32gather_ps(xPrev.x, ia, 4), _mm256_i32gather_ps(xPrev.y, ia, 4),
            _mm256_i32gather_ps(xPrev.z, ia, 4) };
        const Lanes pb { _mm256_i32gather_ps(xPrev.x, ib, 4), _mm256_i32gather_ps(xPrev.y, ib, 4),
            _mm256_i32gather_ps(xPrev.z, ib, 4) };
        in.v = sub(sub(in.xa, pa), sub(in.xb, pb));
    }
}

constexpr std::uint64_t kEvenOddLanes = XpbdBatches::kEvenOddLanes;
constexpr std::uint64_t kPairLanes = XpbdBatches::kPairLanes;

// The ends a, b of the lanes from windows w0, w1 in one of the two layouts above (what pick
// gives with that layout's nibbles): one in-lane shuffle per end. The layouts put the lanes
// in the order the shuffles give them, so that no lane crosses a 128-bit half.
template <std::uint64_t Layout> DRAPE_AVX2_INLINE void deal(__m256 w0, __m256 w1, __m256 &a, __m256 &b)
{
    static_assert(Layout == kEvenOddLanes || Layout == kPairLanes);
    if constexpr (Layout == kEvenOddLanes) {
        a = _mm256_shuffle_ps(w0, w1, 0x88);
        b = _mm256_shuffle_ps(w0, w1, 0xDD);
    } else {
        a = _mm256_shuffle_ps(w0, w1, 0x44);
        b = _mm256_shuffle_ps(w0, w1, 0xEE);
    }
}

template <std::uint64_t Layout>
DRAPE_AVX2_INLINE void deal(const Lanes &w0, const Lanes &w1, Lanes &a, Lanes &b)
{
    deal<Layout>(w0.x, w1.x, a.x, b.x);
    deal<Layout>(w0.y, w1.y, a.y, b.y);
    deal<Layout>(w0.z, w1.z, a.z, b.z);
}

// The inverse of deal: the windows from the lanes' ends, one in-lane unpack per window.
template <std::uint64_t Layout> DRAPE_AVX2_INLINE void gatherUp(__m256 a, __m256 b, __m256 &w0, __m256 &w1)
{
    if constexpr (Layout == kEvenOddLanes) {
        w0 = _mm256_unpacklo_ps(a, b);
        w1 = _mm256_unpackhi_ps(a, b);
    } else {
        w0 = _mm256_castpd_ps(_mm256_unpacklo_pd(_mm256_castps_pd(a), _mm256_castps_pd(b)));
        w1 = _mm256_castpd_ps(_mm256_unpackhi_pd(_mm256_castps_pd(a), _mm256_castps_pd(b)));
    }
}

// A window block of one of the two layouts (loadPlanarWindows).
template <std::uint64_t Layout, bool Motion>
DRAPE_AVX2_INLINE void loadDealtWindows(std::uint32_t base0, std::uint32_t base1, const PlanarPositions &x,
    const PlanarPositions &xPrev, const float *w, BlockIn &in)
{
    const Lanes x0 = loadPlanes(x, base0), x1 = loadPlanes(x, base1);
    Lanes xa, xb;
    deal<Layout>(x0, x1, xa, xb);
    assign(in.xa, xa);
    assign(in.xb, xb);
    if constexpr (Motion) {
        Lanes va, vb;
        deal<Layout>(sub(x0, loadPlanes(xPrev, base0)), sub(x1, loadPlanes(xPrev, base1)), va, vb);
        assign(in.v, sub(va, vb));
    }
    deal<Layout>(_mm256_loadu_ps(w + base0), _mm256_loadu_ps(w + base1), in.wa, in.wb);
}

template <std::uint64_t Layout>
DRAPE_AVX2_INLINE void storeDealtWindows(
    std::uint32_t base0, std::uint32_t base1, const PlanarPositions &x, const Lanes &ya, const Lanes &yb)
{
    __m256 w0, w1;
    gatherUp<Layout>(ya.x, yb.x, w0, w1);
    _mm256_storeu_ps(x.x + base0, w0);
    _mm256_storeu_ps(x.x + base1, w1);
    gatherUp<Layout>(ya.y, yb.y, w0, w1);
    _mm256_storeu_ps(x.y + base0, w0);
    _mm256_storeu_ps(x.y + base1, w1);
    gatherUp<Layout>(ya.z, yb.z, w0, w1);
    _mm256_storeu_ps(x.z + base0, w0);
    _mm256_storeu_ps(x.z + base1, w1);
}

// One plane of a window block of one of the two layouts moved in the windows' own order:
// each window read again and moved by a multiply-add of the lanes' values `lanes`, gathered
// up to the positions of their particles, and the window's own factors (factor0, factor1).
template <std::uint64_t Layout>
DRAPE_AVX2_INLINE void moveDealt(
    float *plane, std::uint32_t base0, std::uint32_t base1, __m256 lanes, __m256 factor0, __m256 factor1)
{
    __m256 l0, l1;
    gatherUp<Layout>(lanes, lanes, l0, l1);
    _mm256_storeu_ps(plane + base0, _mm256_fmadd_ps(l0, factor0, _mm256_loadu_ps(plane + base0)));
    _mm256_storeu_ps(plane + base1, _mm256_fmadd_ps(l1, factor1, _mm256_loadu_ps(plane + base1)));
}

// A block of runs: lane i of its ends is particle base0 + i and base1 + i, read with plain
// loads from the two windows (the kernels' two-block steps for runs).
DRAPE_AVX2_INLINE void loadRunWindows(
    std::uint32_t base0, std::uint32_t base1, const PlanarPositions &x, const float *w, BlockIn &in)
{
    in.xa = loadPlanes(x, base0);
    in.xb = loadPlanes(x, base1);
    in.wa = _mm256_loadu_ps(w + base0);
    in.wb = _mm256_loadu_ps(w + base1);
}

// The slots and windows of U consecutive window blocks from slot `first` (the kernels'
// two-block steps for runs and dealt layouts).
template <int U> struct WindowBlocks {
    std::uint32_t k0[U], base0[U], base1[U];

    DRAPE_AVX2_INLINE WindowBlocks(const XpbdBatches &s, std::uint32_t first)
    {
#pragma GCC unroll 4
        for (int u = 0; u < U; ++u) {
            k0[u] = first + std::uint32_t(u) * XpbdBatches::kLanes;
            const std::size_t block = k0[u] / XpbdBatches::kLanes;
            base0[u] = s.windowFirst(block);
            base1[u] = s.windowSecond(block);
        }
    }
};

// A block whose particles fill two windows (loadWindows).
template <bool Motion>
DRAPE_AVX2_INLINE void loadPlanarWindows(const XpbdBatches &s, std::uint32_t k0, bool runs,
    const PlanarPositions &x, const PlanarPositions &xPrev, const float *w, BlockIn &in)
{
    const std::size_t block = k0 / XpbdBatches::kLanes;
    const std::uint32_t base0 = s.windowFirst(block);
    const std::uint32_t base1 = s.windowSecond(block);
    // Member by member, as loadWindows writes them (store forwarding).
    if (runs) {
        assign(in.xa, loadPlanes(x, base0));
        assign(in.xb, loadPlanes(x, base1));
        if constexpr (Motion)
            assign(in.v, sub(sub(in.xa, loadPlanes(xPrev, base0)), sub(in.xb, loadPlanes(xPrev, base1))));
        in.wa = _mm256_loadu_ps(w + base0);
        in.wb = _mm256_loadu_ps(w + base1);
        return;
    }
    const std::uint64_t lanes = s.lanesOf(block);
    if (lanes == kEvenOddLanes)
        return loadDealtWindows<kEvenOddLanes, Motion>(base0, base1, x, xPrev, w, in);
    if (lanes == kPairLanes)
        return loadDealtWindows<kPairLanes, Motion>(base0, base1, x, xPrev, w, in);
    const Lanes x0 = loadPlanes(x, base0), x1 = loadPlanes(x, base1);
    const __m256i na = nibbles(std::uint32_t(lanes)), nb = nibbles(std::uint32_t(lanes >> 32));
    assign(in.xa, pick(x0, x1, na));
    assign(in.xb, pick(x0, x1, nb));
    if constexpr (Motion) {
        const Lanes d0 = sub(x0, loadPlanes(xPrev, base0));
        const Lanes d1 = sub(x1, loadPlanes(xPrev, base1));
        assign(in.v, sub(pick(d0, d1, na), pick(d0, d1, nb)));
    }
    const __m256 w0 = _mm256_loadu_ps(w + base0), w1 = _mm256_loadu_ps(w + base1);
    in.wa = pick(w0, w1, na);
    in.wb = pick(w0, w1, nb);
}

// Writes the two windows back whole (storeWindows).
DRAPE_AVX2_INLINE void storePlanarWindows(const XpbdBatches &s, std::uint32_t k0, bool runs,
    const PlanarPositions &x, const BlockIn &in, const BlockOut &out)
{
    const std::size_t block = k0 / XpbdBatches::kLanes;
    const std::uint32_t base0 = s.windowFirst(block);
    const std::uint32_t base1 = s.windowSecond(block);
    const Lanes ya = select(in.xa, out.xa, out.okF), yb = select(in.xb, out.xb, out.okF);
    if (runs) {
        storePlanes(x, base0, ya);
        storePlanes(x, base1, yb);
        return;
    }
    const std::uint64_t lanes = s.lanesOf(block);
    if (lanes == kEvenOddLanes)
        return storeDealtWindows<kEvenOddLanes>(base0, base1, x, ya, yb);
    if (lanes == kPairLanes)
        return storeDealtWindows<kPairLanes>(base0, base1, x, ya, yb);
    const std::uint64_t slots = s.slotsOf(block);
    storePlanes(x, base0, pick(ya, yb, nibbles(std::uint32_t(slots))));
    storePlanes(x, base1, pick(ya, yb, nibbles(std::uint32_t(slots >> 32))));
}

// U consecutive blocks from `first` (solveRange).
template <int U, class Arith>
DRAPE_AVX2_INLINE void solvePlanarRange(XpbdBatches &s, std::uint32_t first, const PlanarPositions &x,
    const PlanarPositions &xPrev, const float *w, const Arith &arith)
{
    std::uint32_t k0[U];
    std::uint8_t fetch[U];
    BlockIn in[U];
    BlockOut out[U];
#pragma GCC unroll 4
    for (int u = 0; u < U; ++u) {
        k0[u] = first + std::uint32_t(u) * XpbdBatches::kLanes;
        const std::size_t block = k0[u] / XpbdBatches::kLanes;
        fetch[u] = s.blockFetch[block];
        const bool runs = fetch[u] == XpbdBatches::Runs;
        if (Arith::kMotion && s.blockDamped[block]) {
            if (fetch[u] == XpbdBatches::Gather)
                gatherPlanes<true>(s, k0[u], x, xPrev, w, in[u]);
            else
                loadPlanarWindows<true>(s, k0[u], runs, x, xPrev, w, in[u]);
        } else {
            if (fetch[u] == XpbdBatches::Gather)
                gatherPlanes<false>(s, k0[u], x, xPrev, w, in[u]);
            else
                loadPlanarWindows<false>(s, k0[u], runs, x, xPrev, w, in[u]);
            in[u].v = { _mm256_setzero_ps(), _mm256_setzero_ps(), _mm256_setzero_ps() };
        }
    }
    arith.template solve<U>(s, k0, in, out);
#pragma GCC unroll 4
    for (int u = 0; u < U; ++u) {
        if (fetch[u] == XpbdBatches::Gather)
            scatterBlock(s, k0[u], x, out[u]);
        else
            storePlanarWindows(s, k0[u], fetch[u] == XpbdBatches::Runs, x, in[u], out[u]);
    }
}

// Whether the N blocks from `block` all have fetch (or damping) `value`.
template <int N>
DRAPE_AVX2_INLINE bool allOf(const std::vector<std::uint8_t> &bytes, std::size_t block, std::uint8_t value)
{
    bool all = true;
#pragma GCC unroll 4
    for (int u = 0; u < N; ++u)
        all &= bytes[block + std::size_t(u)] == value;
    return all;
}

// Every block of slots [begin, end) of a conflict-free colour, U at a time (solveColourRange).
// U blocks that are all runs, and all damped or none (a grid's vertical and diagonal
// colours, two thirds of a sheet's blocks), go to the arithmetic's solveRuns: the same bits
// with the lanes kept in registers, a tenth off the frame of the 128² benchmark sheet. U
// window blocks of one of the two dealt layouts, all damped or none (the horizontal colours,
// the last third), go to its solveDealt the same way; through solvePlanarRange, which keeps
// their lanes on the stack, each cost about twice a block of runs (docs/benchmark.md).
template <int U, class Arith>
DRAPE_AVX2_INLINE void solvePlanarColourRange(XpbdBatches &s, std::uint32_t begin, std::uint32_t end,
    const PlanarPositions &x, const PlanarPositions &xPrev, const float *w, const Arith &arith)
{
    static_assert(U == 2 || U == 4);
    constexpr std::uint32_t L = XpbdBatches::kLanes;
    std::uint32_t k0 = begin;
    for (; k0 + U * L <= end; k0 += U * L) {
        const std::size_t block = k0 / L;
        if (allOf<U>(s.blockFetch, block, XpbdBatches::Runs)) {
            if (!Arith::kMotion || allOf<U>(s.blockDamped, block, 0)) {
#pragma GCC unroll 2
                for (int h = 0; h < U; h += 2)
                    arith.template solveRuns<false>(s, k0 + std::uint32_t(h) * L, x, xPrev, w);
                continue;
            }
            if (allOf<U>(s.blockDamped, block, 1)) {
#pragma GCC unroll 2
                for (int h = 0; h < U; h += 2)
                    arith.template solveRuns<Arith::kMotion>(s, k0 + std::uint32_t(h) * L, x, xPrev, w);
                continue;
            }
        }
        if (allOf<U>(s.blockFetch, block, XpbdBatches::Windows)) {
            const std::uint64_t lanes = s.lanesOf(block);
            bool same = lanes == kEvenOddLanes || lanes == kPairLanes;
#pragma GCC unroll 4
            for (int u = 1; u < U; ++u)
                same &= s.lanesOf(block + std::size_t(u)) == lanes;
            const bool undamped = !Arith::kMotion || allOf<U>(s.blockDamped, block, 0);
            if (same && (undamped || allOf<U>(s.blockDamped, block, 1))) {
                for (int h = 0; h < U; h += 2) {
                    const std::uint32_t first = k0 + std::uint32_t(h) * L;
                    if (lanes == kEvenOddLanes) {
                        if (undamped)
                            arith.template solveDealt<kEvenOddLanes, false>(s, first, x, xPrev, w);
                        else
                            arith.template solveDealt<kEvenOddLanes, Arith::kMotion>(s, first, x, xPrev, w);
                    } else if (undamped) {
                        arith.template solveDealt<kPairLanes, false>(s, first, x, xPrev, w);
                    } else {
                        arith.template solveDealt<kPairLanes, Arith::kMotion>(s, first, x, xPrev, w);
                    }
                }
                continue;
            }
        }
        solvePlanarRange<U>(s, k0, x, xPrev, w, arith);
    }
    for (; k0 < end; k0 += L)
        solvePlanarRange<1>(s, k0, x, xPrev, w, arith);
}

} // namespace drape::detail::avx2
