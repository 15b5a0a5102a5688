// Batched XPBD distance-constraint kernel; see xpbdbatch.h for the layout and solverxpbd.cpp
// for the constraint step (Macklin et al. 2016, eq. 18 with the damping of §3.5).
#include "xpbdbatch.h"

#include "xpbdkernel.h"

#include <algorithm>
#include <cmath>

#include <emmintrin.h>

namespace drape::detail {

namespace {

// The nibble tables of a window block whose ends lie in [base0, base0 + 8) and
// [base1, base1 + 8) (see XpbdBatches::blockFetch).
void setWindows(XpbdBatches &out, std::size_t block, std::uint32_t base0, std::uint32_t base1)
{
    constexpr std::uint32_t L = XpbdBatches::kLanes;
    std::uint64_t lanes = 0, slots = 0;
    for (std::uint32_t l = 0; l < L; ++l) {
        for (std::uint32_t end = 0; end < 2; ++end) {
            const std::uint32_t particle = (end ? out.b : out.a)[block * L + l];
            const std::uint32_t window = particle >= base1 && particle < base1 + L ? 1 : 0;
            const std::uint32_t pos = particle - (window ? base1 : base0);
            lanes |= std::uint64_t(window << 3 | pos) << (4 * (end * L + l));
            slots |= std::uint64_t(end << 3 | l) << (4 * (window * L + pos));
        }
    }
    out.windowBase[2 * block] = base0;
    out.windowBase[2 * block + 1] = base1;
    out.windowLanes[block] = lanes;
    out.windowSlots[block] = slots;
}

// Classifies the blocks of the conflict-free colours (XpbdBatches::blockFetch).
void classifyBlocks(XpbdBatches &out)
{
    constexpr std::uint32_t L = XpbdBatches::kLanes;
    const std::size_t blocks = out.slotCount() / L;
    out.blockFetch.assign(blocks, XpbdBatches::Gather);
    out.windowBase.assign(2 * blocks, 0);
    out.windowLanes.assign(blocks, 0);
    out.windowSlots.assign(blocks, 0);
    for (std::size_t c = 0; c < out.conflictFree.size(); ++c) {
        if (!out.conflictFree[c])
            continue;
        for (std::uint32_t k0 = out.start[c]; k0 < out.start[c + 1]; k0 += L) {
            const std::size_t block = k0 / L;
            const std::uint32_t *a = out.a.data() + k0;
            const std::uint32_t *b = out.b.data() + k0;
            bool padded = false, runs = true;
            std::uint32_t ends[2 * L];
            for (std::uint32_t l = 0; l < L; ++l) {
                padded |= out.source[k0 + l] == ~std::uint32_t(0);
                runs &= a[l] == a[0] + l && b[l] == b[0] + l;
                ends[l] = a[l];
                ends[L + l] = b[l];
            }
            if (padded)
                continue;
            if (runs) {
                out.blockFetch[block] = XpbdBatches::Runs;
                setWindows(out, block, a[0], b[0]);
                continue;
            }
            // Two windows when the 16 (distinct) ends sorted form two runs of 8.
            std::sort(ends, ends + 2 * L);
            bool windows = ends[L - 1] - ends[0] == L - 1 && ends[2 * L - 1] - ends[L] == L - 1;
            for (std::uint32_t i = 0; i + 1 < 2 * L; ++i)
                windows &= ends[i] != ends[i + 1];
            if (windows) {
                out.blockFetch[block] = XpbdBatches::Windows;
                setWindows(out, block, ends[0], ends[L]);
            }
        }
    }
}

} // namespace

void buildXpbdBatches(const Cloth &cloth, const std::vector<std::uint32_t> &order,
    const std::vector<std::uint32_t> &batchStart, int catchAllColour, XpbdBatches &out)
{
    constexpr std::uint32_t L = XpbdBatches::kLanes;
    const std::size_t colours = batchStart.empty() ? 0 : batchStart.size() - 1;
    out.start.assign(colours + 1, 0);
    out.conflictFree.assign(colours, 1);
    for (std::size_t c = 0; c < colours; ++c) {
        const std::uint32_t count = batchStart[c + 1] - batchStart[c];
        out.start[c + 1] = out.start[c] + (count + L - 1) / L * L;
        out.conflictFree[c] = int(c) != catchAllColour;
    }
    const std::size_t slots = out.start[colours];
    out.chunkBegin.clear();
    out.chunkColour.clear();
    out.colourFirstChunk.assign(colours + 1, 0);
    for (std::size_t c = 0; c < colours; ++c) {
        out.colourFirstChunk[c] = std::uint32_t(out.chunkColour.size());
        const std::uint32_t step
            = out.conflictFree[c] ? XpbdBatches::kChunkSlots : out.start[c + 1] - out.start[c];
        for (std::uint32_t k = out.start[c]; k < out.start[c + 1]; k += step) {
            out.chunkBegin.push_back(k);
            out.chunkColour.push_back(std::uint32_t(c));
        }
    }
    out.colourFirstChunk[colours] = std::uint32_t(out.chunkColour.size());
    out.chunkBegin.push_back(std::uint32_t(slots));
    out.a.assign(slots, 0);
    out.b.assign(slots, 0);
    out.source.assign(slots, ~std::uint32_t(0));
    out.restLength.assign(slots, 0.f);
    out.alphaTilde.assign(slots, 0.f);
    out.gamma.assign(slots, 0.f);
    out.lambda.assign(slots, 0.f);
    out.spanX.assign(slots, 0.f);
    out.spanY.assign(slots, 0.f);
    out.spanZ.assign(slots, 0.f);
    out.needsRefresh = true;
    for (std::size_t c = 0; c < colours; ++c) {
        std::uint32_t slot = out.start[c];
        for (std::uint32_t k = batchStart[c]; k < batchStart[c + 1]; ++k, ++slot) {
            const DistanceConstraint &dc = cloth.constraints[order[k]];
            out.a[slot] = dc.a;
            out.b[slot] = dc.b;
            out.source[slot] = order[k];
            out.restLength[slot] = dc.restLength;
        }
    }
    classifyBlocks(out);
}

namespace {

// The per-frame parameter refresh of both solvers: α̃ = α · invDt2 and, for XPBD, γ = α c ·
// invDt (each solver rounds 1/dt² its own way, and both are pinned by golden hashes).
bool refreshBatches(const Cloth &cloth, float dt, float invDt2, bool verlet, XpbdBatches &batches)
{
    const float invDt = 1.f / dt;
    const DistanceConstraint *cons = cloth.constraints.data();
    const std::size_t particles = cloth.particles.size();
    const std::size_t slots = batches.slotCount();
    const std::uint32_t *source = batches.source.data();
    float *rest = batches.restLength.data();
    float *alphaTilde = batches.alphaTilde.data();
    float *gamma = batches.gamma.data();
    bool ok = true;
    for (std::size_t s = 0; s < slots; ++s) {
        prefetchConstraint(cons, source, s, slots);
        const std::uint32_t src = source[s];
        if (src == ~std::uint32_t(0))
            continue;
        const DistanceConstraint &c = cons[src];
        ok &= constraintValid(c, particles); // every constraint has exactly one slot
        rest[s] = c.restLength;
        alphaTilde[s] = c.compliance * invDt2;
        // α̃ β̃ / dt (Macklin 2016 §3.5); constraint damping is not used by Verlet.
        gamma[s] = verlet ? 0.f : c.compliance * c.damping * invDt;
    }
    batches.needsRefresh = false;
    batches.refreshedDt = dt;
    batches.refreshedForVerlet = verlet;
    return ok;
}

} // namespace

bool refreshXpbdBatches(const Cloth &cloth, float dt, XpbdBatches &batches)
{
    const float invDt = 1.f / dt;
    return refreshBatches(cloth, dt, invDt * invDt, false, batches);
}

bool refreshVerletBatches(const Cloth &cloth, float dt, XpbdBatches &batches)
{
    return refreshBatches(cloth, dt, 1.f / (dt * dt), true, batches);
}

void setXpbdSpans(XpbdBatches &batches, const Vec3 *origin)
{
    const std::size_t slots = batches.slotCount();
    for (std::size_t s = 0; s < slots; ++s) {
        const Vec3 &a = origin[batches.a[s]];
        const Vec3 &b = origin[batches.b[s]];
        // The difference of two floats is exact in double; its float rounding is relative to
        // the link length, not to the distance from the world origin.
        batches.spanX[s] = float(double(a.x) - double(b.x));
        batches.spanY[s] = float(double(a.y) - double(b.y));
        batches.spanZ[s] = float(double(a.z) - double(b.z));
    }
}

void xpbdConstraintTensions(const XpbdBatches &batches, float dt, std::vector<float> &out)
{
    const float invDt2 = 1.f / (dt * dt);
    for (std::size_t s = 0; s < batches.slotCount(); ++s) {
        const std::uint32_t src = batches.source[s];
        if (src < out.size())
            out[src] = -batches.lambda[s] * invDt2;
    }
}

namespace {

// One constraint, in exactly the arithmetic of the lane loop below (used for the catch-all
// colour, whose constraints may share particles and must be visited in order).
void solveOne(XpbdBatches &s, std::uint32_t k, Vec3 *x, const Vec3 *xPrev, const float *w)
{
    const float lambda = s.lambdaZero ? 0.f : s.lambda[k];
    SlotLink l;
    if (!slotLink(s, k, x, w, l)) {
        s.lambda[k] = lambda;
        return;
    }
    const std::uint32_t a = s.a[k];
    const std::uint32_t b = s.b[k];
    const double len = l.len;
    const float wSum = l.wSum;
    const double invLen = 1.0 / len;
    const Vec3 n { float(l.dx * invLen), float(l.dy * invLen), float(l.dz * invLen) };
    const float C = float(len - double(s.restLength[k]));
    const float gradDotDx = dot(n, (x[a] - xPrev[a]) - (x[b] - xPrev[b]));
    const float dLambda = (-C - s.alphaTilde[k] * lambda - s.gamma[k] * gradDotDx)
        / ((1.f + s.gamma[k]) * wSum + s.alphaTilde[k]);
    s.lambda[k] = lambda + dLambda;
    x[a] += n * (w[a] * dLambda);
    x[b] -= n * (w[b] * dLambda);
}

// A conflict-free colour, kLanes constraints at a time: gather the lanes' particle data,
// compute every lane with straight-line arithmetic the compiler vectorises (the length and C
// in double: C = |d| - L is a small difference of numbers near L, and float rounding of |d|
// would be a sizeable part of it at short substeps), then scatter. This is the portable
// (SSE2) spelling; CPUs with AVX2 take the register-resident one in xpbdkernelavx2.cpp, which
// rounds identically. No FMA, so both round exactly like solveOne.
void solveConflictFree(
    XpbdBatches &s, std::uint32_t begin, std::uint32_t end, Vec3 *x, const Vec3 *xPrev, const float *w)
{
    constexpr std::uint32_t L = XpbdBatches::kLanes;
    const std::uint32_t *sa = s.a.data();
    const std::uint32_t *sb = s.b.data();
    const float *rest = s.restLength.data();
    const float *alphaTilde = s.alphaTilde.data();
    const float *gamma = s.gamma.data();
    float *lambda = s.lambda.data();
    const float *spanX = s.spanX.data();
    const float *spanY = s.spanY.data();
    const float *spanZ = s.spanZ.data();
    const bool lambdaZero = s.lambdaZero;
    for (std::uint32_t k0 = begin; k0 < end; k0 += L) {
        alignas(32) double dx[L], dy[L], dz[L];
        alignas(32) float lam[L];
        alignas(32) float vx[L], vy[L], vz[L], wa[L], wb[L];
        for (std::uint32_t l = 0; l < L; ++l) {
            const std::uint32_t a = sa[k0 + l];
            const std::uint32_t b = sb[k0 + l];
            const Vec3 xa = x[a];
            const Vec3 xb = x[b];
            dx[l] = double(spanX[k0 + l]) + (double(xa.x) - double(xb.x));
            dy[l] = double(spanY[k0 + l]) + (double(xa.y) - double(xb.y));
            dz[l] = double(spanZ[k0 + l]) + (double(xa.z) - double(xb.z));
            const Vec3 v = (xa - xPrev[a]) - (xb - xPrev[b]);
            vx[l] = v.x;
            vy[l] = v.y;
            vz[l] = v.z;
            wa[l] = w[a];
            wb[l] = w[b];
            lam[l] = lambdaZero ? 0.f : lambda[k0 + l];
        }
        // The square roots and divisions, the costly part, in packed SSE2 instructions
        // (correctly rounded like their scalar forms); the cheap arithmetic around them is
        // left to the compiler.
        alignas(32) double len[L], invLen[L];
        alignas(32) float nx[L], ny[L], nz[L], num[L], den[L], dl[L], ca[L], cb[L];
        alignas(32) std::int32_t ok[L];
        for (std::uint32_t l = 0; l < L; ++l)
            len[l] = dx[l] * dx[l] + dy[l] * dy[l] + dz[l] * dz[l];
        for (std::uint32_t l = 0; l < L; l += 2)
            _mm_store_pd(len + l, _mm_sqrt_pd(_mm_load_pd(len + l)));
        for (std::uint32_t l = 0; l < L; ++l) {
            ok[l] = (wa[l] + wb[l] != 0.f) & (len[l] >= 1e-9); // padding has len 0
            invLen[l] = ok[l] ? len[l] : 1.0;
        }
        for (std::uint32_t l = 0; l < L; l += 2)
            _mm_store_pd(invLen + l, _mm_div_pd(_mm_set1_pd(1.0), _mm_load_pd(invLen + l)));
        for (std::uint32_t l = 0; l < L; ++l) {
            nx[l] = float(dx[l] * invLen[l]);
            ny[l] = float(dy[l] * invLen[l]);
            nz[l] = float(dz[l] * invLen[l]);
            const float C = float(len[l] - double(rest[k0 + l]));
            const float gradDotDx = nx[l] * vx[l] + ny[l] * vy[l] + nz[l] * vz[l];
            const float g = gamma[k0 + l];
            const float at = alphaTilde[k0 + l];
            num[l] = -C - at * lam[l] - g * gradDotDx;
            den[l] = ok[l] ? (1.f + g) * (wa[l] + wb[l]) + at : 1.f;
        }
        for (std::uint32_t l = 0; l < L; l += 4)
            _mm_store_ps(dl + l, _mm_div_ps(_mm_load_ps(num + l), _mm_load_ps(den + l)));
        for (std::uint32_t l = 0; l < L; ++l) {
            const float dLambda = ok[l] ? dl[l] : 0.f;
            lambda[k0 + l] = lam[l] + dLambda;
            ca[l] = wa[l] * dLambda;
            cb[l] = wb[l] * dLambda;
        }
        for (std::uint32_t l = 0; l < L; ++l) {
            if (!ok[l])
                continue;
            const Vec3 n { nx[l], ny[l], nz[l] };
            x[sa[k0 + l]] += n * ca[l];
            x[sb[k0 + l]] -= n * cb[l];
        }
    }
}

} // namespace

void solveXpbdSlots(XpbdBatches &batches, std::uint32_t begin, std::uint32_t end, bool conflictFree, Vec3 *x,
    const Vec3 *xPrev, const float *invMass)
{
    if (conflictFree) {
        if (xpbdAvx2Available()) {
            solveConflictFreeAvx2(batches, begin, end, x, xPrev, invMass);
            return;
        }
        solveConflictFree(batches, begin, end, x, xPrev, invMass);
        return;
    }
    for (std::uint32_t k = begin; k < end; ++k) {
        if (batches.source[k] != ~std::uint32_t(0))
            solveOne(batches, k, x, xPrev, invMass);
    }
}

} // namespace drape::detail
