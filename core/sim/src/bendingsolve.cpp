// Bending patches in XPBD, Verlet and the springs solver; see bendingsolve.h and sim/bending.h.
#include "bendingsolve.h"

#include "bendingpatch.h"

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

} // namespace

std::uint64_t solveBending(const BendModel &model, const BendingParams &params, const float *invMass,
    const Vec3 *origin, Vec3 *offset, float dt, float *lambda)
{
    if (!bends(params))
        return 0;
    float rigidity[3];
    patchRigidity(params, rigidity);
    const double invDt2 = 1.0 / (double(dt) * double(dt));
    for (std::size_t p = 0; p < model.patches.size(); ++p) {
        const BendPatch &patch = model.patches[p];
        float w[6];
        float wSum = 0.f;
        for (int s = 0; s < patch.count; ++s)
            wSum += w[s] = invMass[patch.vertex[s]];
        if (wSum == 0.f)
            continue;
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
            continue;
        for (int k = 0; k < 3; ++k) {
            if (!(alpha[k] > 0.0))
                dl[k] = 0.0;
            if (l)
                l[k] += float(dl[k]);
        }
        for (int s = 0; s < patch.count; ++s) {
            if (w[s] == 0.f)
                continue;
            const Vec3 step = lin.grad[0][s] * float(dl[0]) + lin.grad[1][s] * float(dl[1])
                + lin.grad[2][s] * float(dl[2]);
            offset[patch.vertex[s]] += step * w[s];
        }
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
