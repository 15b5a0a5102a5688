// Batched XPBD distance-constraint kernel; see xpbdbatch.h for the layout and solverxpbd.cpp
// for the constraint step (Macklin et al. 2016, eq. 18 with the damping of §3.5).
#include "xpbdbatch.h"

#include "xpbdkernel.h"

#include <algorithm>
#include <cmath>


namespace drape::detail {

namespace {

// |span|² - L² in double (each square of a float is exact there), rounded once to float.
float spanStretch(float sx, float sy, float sz, float rest)
{
    const double x = sx, y = sy, z = sz, l = rest;
    return float((x * x + y * y + z * z) - l * l);
}

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
    out.spanStretch.assign(slots, 0.f);
    out.needsRefresh = true;
    for (std::size_t c = 0; c < colours; ++c) {
        std::uint32_t slot = out.start[c];
        for (std::uint32_t k = batchStart[c]; k < batchStart[c + 1]; ++k, ++slot) {
            const DistanceConstraint &dc = cloth.constraints[order[k]];
            out.a[slot] = dc.a;
            out.b[slot] = dc.b;
            out.source[slot] = order[k];
            out.restLength[slot] = dc.restLength;
            out.spanStretch[slot] = spanStretch(0.f, 0.f, 0.f, dc.restLength);
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
        batches.spanStretch[s] = spanStretch(batches.spanX[s], batches.spanY[s], batches.spanZ[s], c.restLength);
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
        batches.spanStretch[s]
            = spanStretch(batches.spanX[s], batches.spanY[s], batches.spanZ[s], batches.restLength[s]);
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

// One constraint (Macklin 2016 eq. 18 with the §3.5 damping) in the float arithmetic of
// SlotLink, operation for operation what each lane of the AVX2 kernel does. Used for the
// catch-all colour, whose constraints may share particles and must be visited in order, and
// for every colour on CPUs without AVX2.
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
    const Vec3 va = x[a] - xPrev[a], vb = x[b] - xPrev[b];
    const float vx = va.x - vb.x, vy = va.y - vb.y, vz = va.z - vb.z;
    const float gradDotDx = (l.nx * vx + l.ny * vy) + l.nz * vz;
    const float g = s.gamma[k];
    const float at = s.alphaTilde[k];
    const float dLambda = ((-l.C - at * lambda) - g * gradDotDx) / ((1.f + g) * l.wSum + at);
    s.lambda[k] = lambda + dLambda;
    const float ca = w[a] * dLambda, cb = w[b] * dLambda;
    x[a] = Vec3 { x[a].x + l.nx * ca, x[a].y + l.ny * ca, x[a].z + l.nz * ca };
    x[b] = Vec3 { x[b].x - l.nx * cb, x[b].y - l.ny * cb, x[b].z - l.nz * cb };
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
    }
    for (std::uint32_t k = begin; k < end; ++k) {
        if (batches.source[k] != ~std::uint32_t(0))
            solveOne(batches, k, x, xPrev, invMass);
    }
}

} // namespace drape::detail
