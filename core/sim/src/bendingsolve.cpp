// Bending patches in XPBD, Verlet and the springs solver; see bendingsolve.h and sim/bending.h.
#include "bendingsolve.h"

#include "bendingpatch.h"
#include "xpbdkernel.h"

#include <algorithm>
#include <cmath>

namespace drape::detail {

namespace {

// Solves the symmetric 3×3 system m x = r (Cramer's rule); false when singular.
bool solve3(const double m[3][3], const double r[3], double x[3])
{
    const double c00 = m[1][1] * m[2][2] - m[1][2] * m[2][1];
    const double c01 = m[1][2] * m[2][0] - m[1][0] * m[2][2];
    const double c02 = m[1][0] * m[2][1] - m[1][1] * m[2][0];
    const double det = m[0][0] * c00 + m[0][1] * c01 + m[0][2] * c02;
    if (!(std::fabs(det) > 1e-300))
        return false;
    const double inv = 1.0 / det;
    x[0] = (r[0] * c00 + r[1] * (m[0][2] * m[2][1] - m[0][1] * m[2][2])
               + r[2] * (m[0][1] * m[1][2] - m[0][2] * m[1][1]))
        * inv;
    x[1] = (r[0] * c01 + r[1] * (m[0][0] * m[2][2] - m[0][2] * m[2][0])
               + r[2] * (m[0][2] * m[1][0] - m[0][0] * m[1][2]))
        * inv;
    x[2] = (r[0] * c02 + r[1] * (m[0][1] * m[2][0] - m[0][0] * m[2][1])
               + r[2] * (m[0][0] * m[1][1] - m[0][1] * m[1][0]))
        * inv;
    return true;
}

// One patch of the pass: the XPBD step of its vector constraint (see bendingsolve.h).
void solvePatch(const BendModel &model, std::size_t p, const float rigidity[3], double invDt2,
    const float *invMass, const Vec3 *origin, Vec3 *offset, float *lambda)
{
    const BendPatch &patch = model.patches[p];
    float w[6];
    float wSum = 0.f;
    for (int s = 0; s < patch.count; ++s)
        wSum += w[s] = invMass[patch.vertex[s]];
    if (wSum == 0.f)
        return;
    // Slot positions relative to the first: the origins' difference is exact for
    // neighbours and the offsets are small, so the angles keep a substep's tiny motion.
    const std::uint32_t first = patch.vertex[0];
    Vec3 x[6];
    for (int s = 0; s < patch.count; ++s)
        x[s] = (origin[patch.vertex[s]] - origin[first]) + (offset[patch.vertex[s]] - offset[first]);
    bendpatch::Linearised lin;
    bendpatch::linearise(model, patch, x, lin);
    double m[3][3] = {}, r[3] = {}, alpha[3] = {};
    float *l = lambda ? lambda + 3 * p : nullptr;
    for (int k = 0; k < 3; ++k) {
        const double stiffness = double(rigidity[k]) * double(patch.area); // N·m³
        if (!(stiffness > 0.0)) {
            m[k][k] = 1.0; // an inactive component: Δλ_k = 0
            continue;
        }
        alpha[k] = invDt2 / stiffness;
        for (int j = 0; j <= k; ++j) {
            double sum = 0.0;
            for (int s = 0; s < patch.count; ++s)
                sum += double(w[s]) * double(dot(lin.grad[k][s], lin.grad[j][s]));
            if (!(rigidity[j] > 0.f))
                sum = 0.0;
            m[k][j] = m[j][k] = sum;
        }
        m[k][k] += alpha[k];
        r[k] = -double(lin.c[k]) - alpha[k] * (l ? double(l[k]) : 0.0);
    }
    double dl[3];
    if (!solve3(m, r, dl))
        return;
    for (int k = 0; k < 3; ++k) {
        if (!(alpha[k] > 0.0))
            dl[k] = 0.0;
        if (l)
            l[k] += float(dl[k]);
    }
    for (int s = 0; s < patch.count; ++s) {
        if (w[s] == 0.f)
            continue;
        const Vec3 step
            = lin.grad[0][s] * float(dl[0]) + lin.grad[1][s] * float(dl[1]) + lin.grad[2][s] * float(dl[2]);
        offset[patch.vertex[s]] += step * w[s];
    }
}

// A patch the chunks can take: hinge i, where there is one, on the triangle's edge from slot
// i to slot i + 1 (mod 3), with the triangle's third corner and a far corner of its own
// across it, the far corners in slots 3, 4, ... in the order of their hinges (every triangle
// of a mesh whose neighbouring triangles have distinct far corners, the border ones too).
bool chunkable(const BendPatch &patch)
{
    int outer = 3;
    for (int i = 0; i < 3; ++i) {
        if (patch.hinge[i] == kNoHinge)
            continue;
        const std::uint8_t *slot = patch.slot[i];
        const int a = i, b = (i + 1) % 3, third = (i + 2) % 3;
        const bool edge = (slot[0] == a && slot[1] == b) || (slot[0] == b && slot[1] == a);
        const bool wings = (slot[2] == third && slot[3] == outer) || (slot[2] == outer && slot[3] == third);
        if (!edge || !wings)
            return false;
        ++outer;
    }
    return outer > 3 && patch.count == outer;
}

// Lane `lane` of `chunk` holds patch p: its far corners moved to slot 3 + i of their hinge
// i, a missing hinge's slot standing on the triangle's first corner (its inverse mass is
// taken as 0, so it is never written).
void fillLane(BendChunk &chunk, int lane, const BendModel &model, std::uint32_t p)
{
    const BendPatch &patch = model.patches[p];
    for (int s = 0; s < 3; ++s)
        chunk.vertex[s][lane] = patch.vertex[s];
    chunk.patch[lane] = p;
    chunk.swaps[lane] = 0;
    chunk.hinges[lane] = 0;
    int outer = 3;
    for (int i = 0; i < 3; ++i) {
        const bool present = patch.hinge[i] != kNoHinge;
        chunk.vertex[3 + i][lane] = present ? patch.vertex[outer] : patch.vertex[0];
        chunk.restAngle[i][lane] = present ? model.hinges[patch.hinge[i]].restAngle : 0.f;
        if (!present)
            continue;
        chunk.hinges[lane] |= std::uint8_t(1 << i);
        if (patch.slot[i][0] != i)
            chunk.swaps[lane] |= std::uint8_t(1 << (2 * i));
        if (patch.slot[i][2] == outer)
            chunk.swaps[lane] |= std::uint8_t(2 << (2 * i));
        ++outer;
    }
}

} // namespace

void buildBendSchedule(const BendModel &model, std::size_t particleCount, BendSchedule &out)
{
    out.steps.clear();
    out.chunks.clear();
    const std::size_t n = model.patches.size();
    out.patches = n;
    // Levels: one above the highest level of the earlier patches sharing a particle.
    std::vector<std::uint32_t> level(n), above(particleCount, 0);
    std::uint32_t levels = 0;
    for (std::size_t p = 0; p < n; ++p) {
        const BendPatch &patch = model.patches[p];
        std::uint32_t l = 0;
        for (int s = 0; s < patch.count; ++s)
            l = std::max(l, above[patch.vertex[s]]);
        for (int s = 0; s < patch.count; ++s)
            above[patch.vertex[s]] = l + 1;
        level[p] = l;
        levels = std::max(levels, l + 1);
    }
    // The patches level by level (a counting sort keeps their order within a level).
    std::vector<std::uint32_t> start(levels + 1, 0), byLevel(n);
    for (std::size_t p = 0; p < n; ++p)
        ++start[level[p] + 1];
    for (std::uint32_t l = 0; l < levels; ++l)
        start[l + 1] += start[l];
    std::vector<std::uint32_t> fill(start.begin(), start.end() - 1);
    for (std::size_t p = 0; p < n; ++p)
        byLevel[fill[level[p]]++] = std::uint32_t(p);
    // A level's last chunk, if not full, takes patches of the next level that share no
    // particle with its own: their earlier neighbours have all run by then, and their later
    // ones run after it. `used` marks the particles of the chunk being filled.
    std::vector<std::uint32_t> used(particleCount, 0);
    std::uint32_t stamp = 0;
    std::vector<char> taken(n, 0);
    auto addLane = [&](BendChunk &chunk, std::uint32_t p) {
        if (chunk.lanes == 0)
            ++stamp;
        fillLane(chunk, chunk.lanes++, model, p);
        const BendPatch &patch = model.patches[p];
        for (int s = 0; s < patch.count; ++s)
            used[patch.vertex[s]] = stamp;
        taken[p] = 1;
    };
    auto emit = [&](BendChunk &chunk) {
        if (chunk.lanes == 1) { // not worth eight lanes
            out.steps.push_back(chunk.patch[0]);
        } else {
            for (int lane = chunk.lanes; lane < BendChunk::kLanes; ++lane)
                fillLane(chunk, lane, model, chunk.patch[0]); // repeats lane 0, never written back
            out.steps.push_back(std::uint32_t(out.chunks.size()) | BendSchedule::kChunk);
            out.chunks.push_back(chunk);
        }
        chunk.lanes = 0;
    };
    for (std::uint32_t l = 0; l < levels; ++l) {
        BendChunk chunk;
        for (std::uint32_t i = start[l]; i < start[l + 1]; ++i) {
            const std::uint32_t p = byLevel[i];
            if (taken[p])
                continue;
            if (!chunkable(model.patches[p])) {
                out.steps.push_back(p);
                continue;
            }
            addLane(chunk, p);
            if (chunk.lanes == BendChunk::kLanes)
                emit(chunk);
        }
        if (chunk.lanes == 0)
            continue;
        for (std::uint32_t i = l + 1 < levels ? start[l + 1] : n;
             i < (l + 1 < levels ? start[l + 2] : n) && chunk.lanes < BendChunk::kLanes; ++i) {
            const std::uint32_t p = byLevel[i];
            const BendPatch &patch = model.patches[p];
            if (!chunkable(patch)
                || std::any_of(patch.vertex, patch.vertex + patch.count,
                    [&](std::uint32_t v) { return used[v] == stamp; }))
                continue;
            addLane(chunk, p);
        }
        emit(chunk);
    }
    out.steps.shrink_to_fit();
    out.chunks.shrink_to_fit();
}

std::uint64_t solveBending(const BendModel &model, const BendSchedule &schedule, const BendingParams &params,
    const float *invMass, const Vec3 *origin, Vec3 *offset, float dt, float *lambda)
{
    if (!bends(params))
        return 0;
    float rigidity[3];
    patchRigidity(params, rigidity);
    const double invDt2 = 1.0 / (double(dt) * double(dt));
    if (schedule.patches == model.patches.size() && !schedule.chunks.empty()
        && xpbdKernelIsa() >= KernelIsa::Avx2) {
        for (const std::uint32_t step : schedule.steps) {
            if (step & BendSchedule::kChunk)
                solveBendChunkAvx2(schedule.chunks[step & ~BendSchedule::kChunk], model.patches.data(),
                    rigidity, invDt2, invMass, origin, offset, lambda);
            else
                solvePatch(model, step, rigidity, invDt2, invMass, origin, offset, lambda);
        }
    } else {
        for (std::size_t p = 0; p < model.patches.size(); ++p)
            solvePatch(model, p, rigidity, invDt2, invMass, origin, offset, lambda);
    }
    return model.patches.size();
}

std::uint64_t addBendingForces(
    const BendModel &model, const BendingParams &params, const Vec3 *position, Vec3 *force)
{
    if (!bends(params))
        return 0;
    float rigidity[3];
    patchRigidity(params, rigidity);
    for (const BendPatch &patch : model.patches) {
        const Vec3 &o = position[patch.vertex[0]];
        Vec3 x[6];
        for (int s = 0; s < patch.count; ++s)
            x[s] = position[patch.vertex[s]] - o;
        bendpatch::Linearised lin;
        bendpatch::linearise(model, patch, x, lin);
        // E = ½ A Σ_k B_k C_k²  →  f_j = −A Σ_k B_k C_k ∇_j C_k.
        for (int k = 0; k < 3; ++k) {
            const float scale = -rigidity[k] * patch.area * lin.c[k]; // N·m
            for (int s = 0; s < patch.count; ++s)
                force[patch.vertex[s]] += lin.grad[k][s] * scale;
        }
    }
    return model.patches.size();
}

void addBendingStiffnessBound(const BendModel &model, const BendingParams &params,
    const std::vector<Vec3> &rest, std::vector<float> &stiffnessSum)
{
    if (!bends(params))
        return;
    float rigidity[3];
    patchRigidity(params, rigidity);
    for (const BendPatch &patch : model.patches) {
        Vec3 x[6];
        for (int s = 0; s < patch.count; ++s)
            x[s] = rest[patch.vertex[s]] - rest[patch.vertex[0]];
        bendpatch::Linearised lin;
        bendpatch::linearise(model, patch, x, lin);
        // Block (i, j) of B_k A ∇C_k ∇C_kᵀ has spectral norm B_k A |∇_i C_k| |∇_j C_k|; their
        // sum over j bounds the eigenvalues (block Gershgorin, Feingold & Varga 1962).
        for (int k = 0; k < 3; ++k) {
            float sum = 0.f;
            for (int s = 0; s < patch.count; ++s)
                sum += length(lin.grad[k][s]);
            for (int s = 0; s < patch.count; ++s)
                stiffnessSum[patch.vertex[s]]
                    += 0.5f * rigidity[k] * patch.area * length(lin.grad[k][s]) * sum;
        }
    }
}

} // namespace drape::detail
