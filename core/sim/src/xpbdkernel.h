// Instruction-set specific XPBD block kernels, chosen at run time by solveXpbdSlots
// (xpbdbatch.cpp); the build stays generic x86-64. Internal to the core.
#pragma once

#include "xpbdbatch.h"

namespace drape::detail {

/// The instruction sets the block kernels come in, each bit-identical to the portable one.
enum class KernelIsa : int {
    Portable = 0, ///< one constraint at a time (xpbdbatch.cpp, verletbatch.cpp)
    /// 8 lanes in AVX2 registers (with FMA), four blocks side by side: the kernel is bound by the
    /// latency of a block's chain (fetch, square root, division, store), and four
    /// independent chains hide more of it than two (about 10 % faster here, spills and all).
    Avx2 = 1,
    /// The same arithmetic on two blocks per 512-bit register (xpbdpairs.h), with AVX-512VL's
    /// 32 vector registers and two-source permutes; on planes a pair of window blocks goes
    /// from fetch to store in registers (solveWindowPair).
    Avx512 = 2,
};

/// The kernels solveXpbdSlots and relaxVerletSlots run: the best the CPU has (checked once)
/// within the limit set by setXpbdKernelLimit.
KernelIsa xpbdKernelIsa();
/// The best kernels this CPU can run, whatever the limit.
KernelIsa xpbdKernelIsaOfCpu();
/// Caps the kernels at `isa` (the CPU's best by default), so that tests can check every
/// kernel a CPU can run against the portable one. Not for use while a step runs.
void setXpbdKernelLimit(KernelIsa isa);

/// The conflict-free colour kernel of xpbdbatch.cpp with its 8 lanes in AVX2 registers,
/// bit-identical to it. Only call when xpbdKernelIsa() >= Avx2 (Avx512 for the second).
void solveConflictFreeAvx2(
    XpbdBatches &s, std::uint32_t begin, std::uint32_t end, Vec3 *x, const Vec3 *xPrev, const float *w);
void solveConflictFreeAvx512(
    XpbdBatches &s, std::uint32_t begin, std::uint32_t end, Vec3 *x, const Vec3 *xPrev, const float *w);

/// The conflict-free colour kernel of verletbatch.cpp (Verlet relaxation) in AVX2,
/// bit-identical to it. Only call when xpbdKernelIsa() >= Avx2 (Avx512 for the second).
void relaxConflictFreeAvx2(
    XpbdBatches &s, std::uint32_t begin, std::uint32_t end, Vec3 *x, const float *w, float invDt2);
void relaxConflictFreeAvx512(
    XpbdBatches &s, std::uint32_t begin, std::uint32_t end, Vec3 *x, const float *w, float invDt2);

/// The same two kernels with the particles' offsets as planes (solveXpbdPass), bit-identical
/// to them. Only call when xpbdKernelIsa() >= Avx2.
void solveConflictFreePlanarAvx2(XpbdBatches &s, std::uint32_t begin, std::uint32_t end,
    const PlanarPositions &x, const PlanarPositions &xPrev, const float *w);
void relaxConflictFreePlanarAvx2(XpbdBatches &s, std::uint32_t begin, std::uint32_t end,
    const PlanarPositions &x, const float *w, float invDt2);
/// The same two with two blocks in each 16-lane AVX-512 register, the same bits. Only call
/// when xpbdKernelIsa() is Avx512.
void solveConflictFreePlanarAvx512(XpbdBatches &s, std::uint32_t begin, std::uint32_t end,
    const PlanarPositions &x, const PlanarPositions &xPrev, const float *w);
void relaxConflictFreePlanarAvx512(XpbdBatches &s, std::uint32_t begin, std::uint32_t end,
    const PlanarPositions &x, const float *w, float invDt2);
/// Copies particles [begin, end) from Vec3 to planes and back, eight at a time. Only call when
/// xpbdKernelIsa() >= Avx2.
void toPlanesAvx2(const Vec3 *v, std::size_t begin, std::size_t end, const PlanarPositions &p);
void fromPlanesAvx2(const PlanarPositions &p, std::size_t begin, std::size_t end, Vec3 *v);

/// refreshSlots and setSpans of xpbdbatch.cpp (slots [begin, end), on block boundaries) eight
/// slots at a time, with their bits (streamsavx2.cpp). Only call when xpbdKernelIsa() >=
/// Avx2; the refresh only for a cloth with particles.
bool refreshSlotsAvx2(const Cloth &cloth, float invDt2, float invDt, bool verlet, XpbdBatches &batches,
    std::size_t begin, std::size_t end);
void setSpansAvx2(XpbdBatches &batches, const Vec3 *origin, std::size_t begin, std::size_t end);
/// setSpansAvx2 with each block's doubles in one AVX-512 register (the same bits). Only call
/// when xpbdKernelIsa() is Avx512.
void setSpansAvx512(XpbdBatches &batches, const Vec3 *origin, std::size_t begin, std::size_t end);
} // namespace drape::detail
