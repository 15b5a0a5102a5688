// AVX2 building blocks shared by the constraint kernels (xpbdkernelavx2.cpp,
// verletkernelavx2.cpp): 8 constraints ("a block", XpbdBatches::kLanes slots) at a time,
// their particles fetched by gathers or, for blocks whose ends fill two runs of 8 particles,
// by plain loads of those two windows (XpbdBatches::blockFetch), and written back the same
// way. The arithmetic and the gathers are compiled for AVX2 alone and inlined into their
// callers; the block loop (xpbdblocks.inc) comes twice, in namespace avx2 with AVX2's data
// moves and in namespace avx512 with AVX-512VL's two-source permutes (Moves). Internal to the
// core; include only from sources whose functions are target("avx2").
#pragma once

#include "xpbdbatch.h"

#include <immintrin.h>

#include <cstddef>
#include <cstdint>

namespace drape::detail::avx2 {

static_assert(sizeof(Vec3) == 3 * sizeof(float), "the gathers index Vec3 arrays as floats");

#define DRAPE_AVX2_INLINE __attribute__((target("avx2,fma"), always_inline)) inline
/// A kernel entry point built for AVX-512VL: the same AVX2 intrinsics, inlined into it, get the
/// EVEX encodings and 32 vector registers (see KernelIsa::Avx512 in xpbdkernel.h).
#define DRAPE_AVX512_KERNEL __attribute__((target("avx2,fma,avx512f,avx512vl,avx512bw,avx512dq")))

// Eight lanes of x, y, z.
struct Lanes {
    __m256 x, y, z;
};

// What a block's arithmetic needs of its particles, and what it gives back.
struct BlockIn {
    Lanes xa, xb; ///< offsets of both ends
    Lanes v; ///< (x_a - x_a,prev) - (x_b - x_b,prev), for the damping (when fetched)
    __m256 wa, wb; ///< inverse masses
};

struct BlockOut {
    __m256 okF; ///< lanes that move their particles
    Lanes xa, xb; ///< corrected offsets (meaningful in the ok lanes)
};

// The link of U blocks side by side, lane for lane SlotLink (xpbdbatch.h) in the same IEEE
// operations and order: e = x_a - x_b, d = span + e, |d|, |d| + L, w_a + w_b, the stretch
// S = (|span|² - L²) + (span + d)·e ((|d| - L)(|d| + L) where |span| > 2 L), and the lanes that
// can move (w_a + w_b != 0 and |d| >= 1e-9) as out.okF. Lanes that cannot move compute with
// |d| = 1 so that nothing divides by zero, and keep d = +0 (and-ed with okF while the square
// root runs): their multipliers are masked to +0 too, so a move x + d (w Δλ/|d|) adds +0 to
// such a lane's offset and leaves it as it was, padding's NaN span included. (An offset is
// never -0, which +0 would turn into +0: offsets start at +0, and a sum is -0 only when both
// its terms are.) The fast paths of the AVX2 kernels store their moves with no blend per
// plane and end; the others still select the lanes that move (docs/benchmark.md).
template <int U> struct BlockGeometry {
    Lanes d[U];
    __m256 len[U], lenRest[U], S[U], wSum[U];
};

template <int U>
DRAPE_AVX2_INLINE void blockGeometry(const XpbdBatches &s, const std::uint32_t (&k0)[U],
    const BlockIn (&in)[U], BlockGeometry<U> &g, BlockOut (&out)[U])
{
    const __m256 minLen2 = _mm256_set1_ps(kMinLinkLengthSquared);
    const __m256 zeroF = _mm256_setzero_ps();
    const __m256 oneF = _mm256_set1_ps(1.f);
    #pragma GCC unroll 4
    for (int u = 0; u < U; ++u) {
        const BlockIn &b = in[u];
        const __m256 sx = _mm256_loadu_ps(s.spanX.data() + k0[u]);
        const __m256 sy = _mm256_loadu_ps(s.spanY.data() + k0[u]);
        const __m256 sz = _mm256_loadu_ps(s.spanZ.data() + k0[u]);
        const __m256 ex = _mm256_sub_ps(b.xa.x, b.xb.x);
        const __m256 ey = _mm256_sub_ps(b.xa.y, b.xb.y);
        const __m256 ez = _mm256_sub_ps(b.xa.z, b.xb.z);
        const __m256 dx = _mm256_add_ps(sx, ex), dy = _mm256_add_ps(sy, ey), dz = _mm256_add_ps(sz, ez);
        const __m256 len2 = _mm256_fmadd_ps(dz, dz, _mm256_fmadd_ps(dy, dy, _mm256_mul_ps(dx, dx)));
        const __m256 len = _mm256_sqrt_ps(len2);
        g.wSum[u] = _mm256_add_ps(b.wa, b.wb);
        // |d| >= kMinLinkLength, told from |d|² while the square root runs.
        out[u].okF = _mm256_and_ps(
            _mm256_cmp_ps(g.wSum[u], zeroF, _CMP_NEQ_UQ), _mm256_cmp_ps(len2, minLen2, _CMP_GE_OQ));
        g.len[u] = _mm256_blendv_ps(oneF, len, out[u].okF);
        const __m256 rest = _mm256_loadu_ps(s.restLength.data() + k0[u]);
        g.lenRest[u] = _mm256_add_ps(g.len[u], rest);
        const __m256 ss = _mm256_fmadd_ps(sz, sz, _mm256_fmadd_ps(sy, sy, _mm256_mul_ps(sx, sx)));
        const __m256 rr = _mm256_mul_ps(rest, rest);
        const __m256 te = _mm256_fmadd_ps(_mm256_add_ps(sz, dz), ez,
            _mm256_fmadd_ps(_mm256_add_ps(sy, dy), ey, _mm256_mul_ps(_mm256_add_ps(sx, dx), ex)));
        g.S[u] = _mm256_add_ps(_mm256_fnmadd_ps(rest, rest, ss), te);
        // A span longer than 2 L (padding's NaN span is not) takes (|d| - L)(|d| + L): rare,
        // hence the branch instead of computing both forms in every block.
        const __m256 far = _mm256_cmp_ps(ss, _mm256_mul_ps(rr, _mm256_set1_ps(4.f)), _CMP_GT_OQ);
        if (__builtin_expect(!_mm256_testz_ps(far, far), 0))
            g.S[u]
                = _mm256_blendv_ps(g.S[u], _mm256_mul_ps(_mm256_sub_ps(g.len[u], rest), g.lenRest[u]), far);
        const __m256 ok = out[u].okF;
        g.d[u] = { _mm256_and_ps(dx, ok), _mm256_and_ps(dy, ok), _mm256_and_ps(dz, ok) };
    }
}

// α̃ of slots [k0, k0 + 8): picked from the class table by each slot's byte while the
// refresh kept it as classes (XpbdBatches::alphaClassed), else loaded from the stream.
DRAPE_AVX2_INLINE __m256 alphaLanes(const XpbdBatches &s, std::uint32_t k0)
{
    if (!s.alphaClassed)
        return _mm256_loadu_ps(s.alphaTilde.data() + k0);
    const __m256i classes
        = _mm256_cvtepu8_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i *>(s.alphaClass.data() + k0)));
    return _mm256_permutevar8x32_ps(_mm256_loadu_ps(s.alphaTable), classes);
}

// A window: 8 consecutive Vec3 (24 floats, registers v0 v1 v2) as 8 lanes of x, y, z.
// Float 3p + c of the window is component c of particle p; it sits in register (3p + c) / 8
// at position (3p + c) % 8. The positions of one component in v0, v1, v2 are disjoint and
// cover 0..7 (x: {0,3,6} of v0, {1,4,7} of v1, {2,5} of v2), so two blends collect a
// component into one register and one permute puts particle p in lane p: lane p reads
// position (3p + c) mod 8 (the permute vectors of loadWindow); storeWindow applies the
// inverse permutations and the same blends.
constexpr int kMask036 = 0x49, kMask147 = 0x92, kMask25 = 0x24; // blend masks, bit j = position j

DRAPE_AVX2_INLINE Lanes loadWindow(const float *f, std::uint32_t base)
{
    const float *p = f + 3 * std::size_t(base);
    const __m256 v0 = _mm256_loadu_ps(p), v1 = _mm256_loadu_ps(p + 8), v2 = _mm256_loadu_ps(p + 16);
    const __m256 tx = _mm256_blend_ps(_mm256_blend_ps(v0, v1, kMask147), v2, kMask25);
    const __m256 ty = _mm256_blend_ps(_mm256_blend_ps(v0, v1, kMask25), v2, kMask036);
    const __m256 tz = _mm256_blend_ps(_mm256_blend_ps(v0, v1, kMask036), v2, kMask147);
    return { _mm256_permutevar8x32_ps(tx, _mm256_setr_epi32(0, 3, 6, 1, 4, 7, 2, 5)),
        _mm256_permutevar8x32_ps(ty, _mm256_setr_epi32(1, 4, 7, 2, 5, 0, 3, 6)),
        _mm256_permutevar8x32_ps(tz, _mm256_setr_epi32(2, 5, 0, 3, 6, 1, 4, 7)) };
}

DRAPE_AVX2_INLINE void storeWindow(float *f, std::uint32_t base, const Lanes &w)
{
    // The inverse permutations: position j holds the lane p with (3p + c) mod 8 = j, that is
    // p = 3 (j - c) mod 8 (3 is its own inverse mod 8).
    const __m256 tx = _mm256_permutevar8x32_ps(w.x, _mm256_setr_epi32(0, 3, 6, 1, 4, 7, 2, 5));
    const __m256 ty = _mm256_permutevar8x32_ps(w.y, _mm256_setr_epi32(5, 0, 3, 6, 1, 4, 7, 2));
    const __m256 tz = _mm256_permutevar8x32_ps(w.z, _mm256_setr_epi32(2, 5, 0, 3, 6, 1, 4, 7));
    float *p = f + 3 * std::size_t(base);
    _mm256_storeu_ps(p, _mm256_blend_ps(_mm256_blend_ps(tx, ty, kMask147), tz, kMask25));
    _mm256_storeu_ps(p + 8, _mm256_blend_ps(_mm256_blend_ps(tz, tx, kMask147), ty, kMask25));
    _mm256_storeu_ps(p + 16, _mm256_blend_ps(_mm256_blend_ps(ty, tz, kMask147), tx, kMask25));
}

// Eight 4-bit fields of `packed` as lanes.
DRAPE_AVX2_INLINE __m256i nibbles(std::uint32_t packed)
{
    const __m256i shifts = _mm256_setr_epi32(0, 4, 8, 12, 16, 20, 24, 28);
    return _mm256_and_si256(_mm256_srlv_epi32(_mm256_set1_epi32(int(packed)), shifts), _mm256_set1_epi32(15));
}

// Lane l takes position nib[l] & 7 of `from1` when bit 3 of nib[l] is set, else of `from0`.
DRAPE_AVX2_INLINE __m256 pick(__m256 from0, __m256 from1, __m256i nib)
{
    return _mm256_blendv_ps(_mm256_permutevar8x32_ps(from0, nib), _mm256_permutevar8x32_ps(from1, nib),
        _mm256_castsi256_ps(_mm256_slli_epi32(nib, 28)));
}

DRAPE_AVX2_INLINE Lanes pick(const Lanes &from0, const Lanes &from1, __m256i nib)
{
    return { pick(from0.x, from1.x, nib), pick(from0.y, from1.y, nib), pick(from0.z, from1.z, nib) };
}

// dst = src one register at a time (see loadWindows in xpbdblocks.inc).
DRAPE_AVX2_INLINE void assign(Lanes &dst, const Lanes &src)
{
    dst.x = src.x;
    dst.y = src.y;
    dst.z = src.z;
}

DRAPE_AVX2_INLINE Lanes sub(const Lanes &p, const Lanes &q)
{
    return { _mm256_sub_ps(p.x, q.x), _mm256_sub_ps(p.y, q.y), _mm256_sub_ps(p.z, q.z) };
}

DRAPE_AVX2_INLINE Lanes select(const Lanes &keep, const Lanes &moved, __m256 mask)
{
    return { _mm256_blendv_ps(keep.x, moved.x, mask), _mm256_blendv_ps(keep.y, moved.y, mask),
        _mm256_blendv_ps(keep.z, moved.z, mask) };
}

// A block of particles scattered in memory: gathers.
template <bool Motion>
DRAPE_AVX2_INLINE void gatherBlock(
    const XpbdBatches &s, std::uint32_t k0, const Vec3 *x, const Vec3 *xPrev, const float *w, BlockIn &in)
{
    const float *xf = &x[0].x;
    const __m256i one = _mm256_set1_epi32(1);
    const __m256i three = _mm256_set1_epi32(3);
    const std::uint32_t *ends = s.gathered(k0 / XpbdBatches::kLanes);
    const __m256i ia = _mm256_loadu_si256(reinterpret_cast<const __m256i *>(ends));
    const __m256i ib = _mm256_loadu_si256(reinterpret_cast<const __m256i *>(ends + XpbdBatches::kLanes));
    const __m256i ax = _mm256_mullo_epi32(ia, three);
    const __m256i ay = _mm256_add_epi32(ax, one);
    const __m256i az = _mm256_add_epi32(ay, one);
    const __m256i bx = _mm256_mullo_epi32(ib, three);
    const __m256i by = _mm256_add_epi32(bx, one);
    const __m256i bz = _mm256_add_epi32(by, one);
    in.xa
        = { _mm256_i32gather_ps(xf, ax, 4), _mm256_i32gather_ps(xf, ay, 4), _mm256_i32gather_ps(xf, az, 4) };
    in.xb
        = { _mm256_i32gather_ps(xf, bx, 4), _mm256_i32gather_ps(xf, by, 4), _mm256_i32gather_ps(xf, bz, 4) };
    in.wa = _mm256_i32gather_ps(w, ia, 4);
    in.wb = _mm256_i32gather_ps(w, ib, 4);
    if constexpr (Motion) {
        const float *pf = &xPrev[0].x;
        const Lanes pa { _mm256_i32gather_ps(pf, ax, 4), _mm256_i32gather_ps(pf, ay, 4),
            _mm256_i32gather_ps(pf, az, 4) };
        const Lanes pb { _mm256_i32gather_ps(pf, bx, 4), _mm256_i32gather_ps(pf, by, 4),
            _mm256_i32gather_ps(pf, bz, 4) };
        in.v = sub(sub(in.xa, pa), sub(in.xb, pb));
    }
}

// Scalar stores of the lanes that move anything: padding lanes point at particle 0, which a
// real lane of the same block may have just corrected. `x` is a Vec3 array or PlanarPositions.
template <typename Positions>
DRAPE_AVX2_INLINE void scatterBlock(
    const XpbdBatches &s, std::uint32_t k0, const Positions &x, const BlockOut &out)
{
    const int ok = _mm256_movemask_ps(out.okF);
    if (ok == 0)
        return;
    alignas(32) float o[6][XpbdBatches::kLanes];
    _mm256_store_ps(o[0], out.xa.x);
    _mm256_store_ps(o[1], out.xa.y);
    _mm256_store_ps(o[2], out.xa.z);
    _mm256_store_ps(o[3], out.xb.x);
    _mm256_store_ps(o[4], out.xb.y);
    _mm256_store_ps(o[5], out.xb.z);
    const std::uint32_t *ends = s.gathered(k0 / XpbdBatches::kLanes);
    for (int bits = ok; bits != 0; bits &= bits - 1) {
        const int l = __builtin_ctz(unsigned(bits));
        setPosition(x, ends[l], Vec3 { o[0][l], o[1][l], o[2][l] });
        setPosition(x, ends[XpbdBatches::kLanes + l], Vec3 { o[3][l], o[4][l], o[5][l] });
    }
}

// The data moves of the block loop in AVX2 (the functions above).
struct Moves {
    static DRAPE_AVX2_INLINE Lanes loadWindow(const float *f, std::uint32_t base)
    {
        return avx2::loadWindow(f, base);
    }
    static DRAPE_AVX2_INLINE void storeWindow(float *f, std::uint32_t base, const Lanes &w)
    {
        avx2::storeWindow(f, base, w);
    }
    static DRAPE_AVX2_INLINE __m256i nibbles(std::uint32_t packed) { return avx2::nibbles(packed); }
    static DRAPE_AVX2_INLINE __m256 pick(__m256 from0, __m256 from1, __m256i nib)
    {
        return avx2::pick(from0, from1, nib);
    }
    static DRAPE_AVX2_INLINE Lanes pick(const Lanes &from0, const Lanes &from1, __m256i nib)
    {
        return avx2::pick(from0, from1, nib);
    }
};

} // namespace drape::detail::avx2

namespace drape::detail::avx512 {

#define DRAPE_AVX512_INLINE                                                                                  \
    __attribute__((target("avx2,fma,avx512f,avx512vl,avx512bw,avx512dq"), always_inline)) inline

using avx2::Lanes;

// The same data moves with AVX-512VL's two-source permutes (vpermt2ps), which pick any lane
// of two registers in one instruction: a window's 24 floats are one 16-float and one 8-float
// load, and each component one permute of the two (three blends and a permute in AVX2); a
// lane's end is one permute of the two windows (two permutes and a blend). Only data moves:
// the lanes hold the same bits as avx2::Moves gives them.
struct Moves {
    // The low 8 lanes (a register rename, as _mm512_castps512_ps256, which GCC 12 spells with
    // an extract of an undefined value and warns about).
    static DRAPE_AVX512_INLINE __m256 low(__m512 v)
    {
        return __builtin_shufflevector(v, v, 0, 1, 2, 3, 4, 5, 6, 7);
    }

    // Float 3p + c of the window is lane 3p + c of (v0 = floats 0..15, v1 = floats 16..23),
    // exactly the index vpermt2ps gives it.
    static DRAPE_AVX512_INLINE Lanes loadWindow(const float *f, std::uint32_t base)
    {
        const float *p = f + 3 * std::size_t(base);
        const __m512 v0 = _mm512_loadu_ps(p);
        const __m512 v1 = _mm512_castps256_ps512(_mm256_loadu_ps(p + 16));
        const __m512i ix = _mm512_setr_epi32(0, 3, 6, 9, 12, 15, 18, 21, 0, 0, 0, 0, 0, 0, 0, 0);
        const __m512i one = _mm512_set1_epi32(1);
        const __m512i iy = _mm512_add_epi32(ix, one), iz = _mm512_add_epi32(iy, one);
        return { low(_mm512_permutex2var_ps(v0, ix, v1)),
            low(_mm512_permutex2var_ps(v0, iy, v1)),
            low(_mm512_permutex2var_ps(v0, iz, v1)) };
    }

    // Position j = 3p + c of the window takes lane p of component c, from (x | y, z) with
    // x in lanes 0..7, y in 8..15 and z in 16..23 of the permute's index space.
    static DRAPE_AVX512_INLINE void storeWindow(float *f, std::uint32_t base, const Lanes &w)
    {
        const __m512 xy
            = __builtin_shufflevector(w.x, w.y, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
        const __m512 z = _mm512_castps256_ps512(w.z);
        const __m512i lo = _mm512_setr_epi32(0, 8, 16, 1, 9, 17, 2, 10, 18, 3, 11, 19, 4, 12, 20, 5);
        const __m512i hi = _mm512_setr_epi32(13, 21, 6, 14, 22, 7, 15, 23, 0, 0, 0, 0, 0, 0, 0, 0);
        float *p = f + 3 * std::size_t(base);
        _mm512_storeu_ps(p, _mm512_permutex2var_ps(xy, lo, z));
        _mm256_storeu_ps(p + 16, low(_mm512_permutex2var_ps(xy, hi, z)));
    }

    // Eight 4-bit fields of `packed`, each in the low bits of its lane: the permutes below
    // read only those four bits, so the rest of the lane need not be cleared.
    static DRAPE_AVX512_INLINE __m256i nibbles(std::uint32_t packed)
    {
        const __m256i shifts = _mm256_setr_epi32(0, 4, 8, 12, 16, 20, 24, 28);
        return _mm256_srlv_epi32(_mm256_set1_epi32(int(packed)), shifts);
    }

    // Lane l takes position nib[l] & 7 of `from1` when bit 3 of nib[l] is set, else of `from0`.
    static DRAPE_AVX512_INLINE __m256 pick(__m256 from0, __m256 from1, __m256i nib)
    {
        return _mm256_permutex2var_ps(from0, nib, from1);
    }

    static DRAPE_AVX512_INLINE Lanes pick(const Lanes &from0, const Lanes &from1, __m256i nib)
    {
        return { pick(from0.x, from1.x, nib), pick(from0.y, from1.y, nib), pick(from0.z, from1.z, nib) };
    }
};

} // namespace drape::detail::avx512

// The block loop, once with each set of moves.
#define DRAPE_LANES_NS avx2
#define DRAPE_LANES_INLINE DRAPE_AVX2_INLINE
#include "xpbdblocks.inc"
#undef DRAPE_LANES_INLINE
#undef DRAPE_LANES_NS

#define DRAPE_LANES_NS avx512
#define DRAPE_LANES_INLINE DRAPE_AVX512_INLINE
#include "xpbdblocks.inc"
#undef DRAPE_LANES_INLINE
#undef DRAPE_LANES_NS
