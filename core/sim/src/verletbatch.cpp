// Verlet relaxation over the colour streams of xpbdbatch.h. The passes visit the constraints
// colour by colour, like the XPBD solver, so that a colour's blocks can be relaxed 8 lanes at
// a time (verletkernelavx2.cpp) from the same streams and windows; the arithmetic of one
// constraint is relaxOne's, which the AVX2 kernel reproduces bit for bit.
#include "xpbdbatch.h"

#include "xpbdkernel.h"
#include "xpbdworker.h"

#include <cmath>

namespace drape::detail {

namespace {

// One constraint, in SlotLink's float arithmetic: the error C removed in the share
// k = s / (s + α/dt²) of s = w_a + w_b, that is a correction f = C / (s + α/dt²) along n, each
// end moved by its inverse mass, and the correction as a force f/dt² added to the slot's λ.
template <typename Positions>
void relaxOne(XpbdBatches &s, std::uint32_t k, const Positions &x, const float *w, float invDt2)
{
    SlotLink l;
    const XpbdBatches::Ends ends = s.ends(k);
    if (!slotLink(s, k, ends, x, w, l))
        return;
    // f = C / (w_a + w_b + α̃) along n = d / |d|: f / |d| = S R with one reciprocal
    // R = 1 / (|d| (|d| + L) (w_a + w_b + α̃)) (SlotLink).
    const float R = 1.f / (l.len * (l.lenRest * (l.wSum + s.alphaOf(k))));
    const float fd = l.S * R; // f / |d|
    const float cx = l.dx * fd, cy = l.dy * fd, cz = l.dz * fd;
    const auto [a, b] = ends;
    const Vec3 xa = positionOf(x, a), xb = positionOf(x, b);
    setPosition(x, a,
        Vec3 { fusedMulAdd(-cx, w[a], xa.x), fusedMulAdd(-cy, w[a], xa.y), fusedMulAdd(-cz, w[a], xa.z) });
    setPosition(
        x, b, Vec3 { fusedMulAdd(cx, w[b], xb.x), fusedMulAdd(cy, w[b], xb.y), fusedMulAdd(cz, w[b], xb.z) });
    s.lambda[k] = fusedMulAdd(fd * l.len, invDt2, s.lambda[k]);
}

} // namespace

void relaxVerletSlots(XpbdBatches &batches, std::uint32_t begin, std::uint32_t end, bool conflictFree,
    Vec3 *x, const float *invMass, float invDt2)
{
    if (conflictFree) {
        switch (xpbdKernelIsa()) {
        case KernelIsa::Avx512:
            relaxConflictFreeAvx512(batches, begin, end, x, invMass, invDt2);
            return;
        case KernelIsa::Avx2:
            relaxConflictFreeAvx2(batches, begin, end, x, invMass, invDt2);
            return;
        case KernelIsa::Portable:
            break;
        }
    }
    for (std::uint32_t k = begin; k < end; ++k) {
        if (batches.source.live(k))
            relaxOne(batches, k, x, invMass, invDt2);
    }
}

void relaxVerletSlots(XpbdBatches &batches, std::uint32_t begin, std::uint32_t end, bool conflictFree,
    const PlanarPositions &x, const float *invMass, float invDt2)
{
    if (conflictFree) {
        if (xpbdKernelIsa() == KernelIsa::Avx512)
            relaxConflictFreePlanarAvx512(batches, begin, end, x, invMass, invDt2);
        else
            relaxConflictFreePlanarAvx2(batches, begin, end, x, invMass, invDt2);
        return;
    }
    for (std::uint32_t k = begin; k < end; ++k) {
        if (batches.source.live(k))
            relaxOne(batches, k, x, invMass, invDt2);
    }
}

void verletConstraintTensions(const XpbdBatches &batches, std::vector<float> &out, XpbdWorker *team)
{
    constexpr std::uint32_t L = XpbdBatches::kLanes;
    forRanges(team, batches.slotCount(), 16, [&](std::uint32_t begin, std::uint32_t end) {
        for (std::uint32_t k0 = begin; k0 < end; k0 += L) { // ranges start and end on blocks
            std::uint32_t records[L];
            batches.source.block(k0 / L, records);
            for (std::uint32_t l = 0; l < L; ++l)
                if (records[l] < out.size())
                    out[records[l]] = batches.lambda[k0 + l];
        }
    });
}

} // namespace drape::detail
