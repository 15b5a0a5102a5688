// Verlet relaxation over the colour streams of xpbdbatch.h. The passes visit the constraints
// colour by colour, like the XPBD solver, so that a colour's blocks can be relaxed 8 lanes at
// a time (verletkernelavx2.cpp) from the same streams and windows; the arithmetic of one
// constraint is relaxOne's, which the AVX2 kernel reproduces bit for bit.
#include "xpbdbatch.h"

#include "xpbdkernel.h"

#include <cmath>

namespace drape::detail {

namespace {

// One constraint: d = x_a - x_b (from the frame origin's span plus the offsets, in double
// like XPBD's), the error removed in the share k = s / (s + α/dt²) of s = w_a + w_b, each
// end moved by its inverse mass, and the correction as a force added to the slot's λ.
void relaxOne(XpbdBatches &s, std::uint32_t k, Vec3 *x, const float *w, float invDt2)
{
    SlotLink l;
    if (!slotLink(s, k, x, w, l))
        return;
    const float stiffness = l.wSum / (l.wSum + s.alphaTilde[k]);
    const double scale = (l.len - double(s.restLength[k])) / (l.len * double(l.wSum)) * double(stiffness);
    const Vec3 corr { float(l.dx * scale), float(l.dy * scale), float(l.dz * scale) };
    x[s.a[k]] -= corr * w[s.a[k]];
    x[s.b[k]] += corr * w[s.b[k]];
    s.lambda[k] += float(scale * l.len) * invDt2;
}

} // namespace

void relaxVerletSlots(XpbdBatches &batches, std::uint32_t begin, std::uint32_t end, bool conflictFree,
    Vec3 *x, const float *invMass, float invDt2)
{
    if (conflictFree && xpbdAvx2Available()) {
        relaxConflictFreeAvx2(batches, begin, end, x, invMass, invDt2);
        return;
    }
    for (std::uint32_t k = begin; k < end; ++k) {
        if (batches.source[k] != ~std::uint32_t(0))
            relaxOne(batches, k, x, invMass, invDt2);
    }
}

void verletConstraintTensions(const XpbdBatches &batches, std::vector<float> &out)
{
    for (std::size_t s = 0; s < batches.slotCount(); ++s) {
        const std::uint32_t src = batches.source[s];
        if (src < out.size())
            out[src] = batches.lambda[s];
    }
}

} // namespace drape::detail
