// Instruction-set specific XPBD block kernels, chosen at run time by solveXpbdSlots
// (xpbdbatch.cpp); the build stays generic x86-64. Internal to the core.
#pragma once

#include "xpbdbatch.h"

namespace drape::detail {

/// True when the CPU runs AVX2 (checked once) and the AVX2 kernels are not switched off.
bool xpbdAvx2Available();
/// Switches the AVX2 kernels off (or back on), so that tests can check the portable ones on
/// a CPU that has AVX2. Not for use while a step runs.
void setXpbdAvx2Enabled(bool enabled);

/// The conflict-free colour kernel of xpbdbatch.cpp with its 8 lanes in AVX2 registers,
/// bit-identical to it. Only call when xpbdAvx2Available().
void solveConflictFreeAvx2(
    XpbdBatches &s, std::uint32_t begin, std::uint32_t end, Vec3 *x, const Vec3 *xPrev, const float *w);

/// The conflict-free colour kernel of verletbatch.cpp (Verlet relaxation) in AVX2,
/// bit-identical to it. Only call when xpbdAvx2Available().
void relaxConflictFreeAvx2(
    XpbdBatches &s, std::uint32_t begin, std::uint32_t end, Vec3 *x, const float *w, float invDt2);

} // namespace drape::detail
