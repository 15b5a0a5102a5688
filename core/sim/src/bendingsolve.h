// Bending patches (sim/bending.h) in the three solvers. Internal to the core.
#pragma once

#include "sim/bending.h"

#include <cstdint>
#include <vector>

namespace drape::detail {

/// The cloth resists bending (some rigidity above zero): without it the functions below do
/// nothing, and the solvers run their distance passes back to back.
inline bool bends(const BendingParams &params)
{
    return params.rigidity > 0.f || params.warpRigidity > 0.f;
}

/// One Gauss-Seidel pass over the bending patches on frame-local positions origin + offset
/// (ClothSolverCache::origin), moving the offsets. Each patch is a vector constraint
/// C ∈ R³ with compliance α_k = 1 / (B_k A_T); with `lambda` (three per patch, zeroed at the
/// start of the substep) it takes the XPBD step (Macklin et al. 2016, eq. 18, for a vector
/// constraint):
///
///   (J W Jᵀ + α̃) Δλ = −C − α̃ λ,   α̃ = α / dt²,   Δx_j = w_j J_jᵀ Δλ,
///
/// a 3×3 solve per patch. Without `lambda` every pass starts from λ = 0: the Verlet solver's
/// relaxation of a compliant constraint (the first XPBD iteration). Returns the patches projected.
std::uint64_t solveBending(const BendModel &model, const BendingParams &params, const float *invMass,
    const Vec3 *origin, Vec3 *offset, float dt, float *lambda);

/// Springs solver: adds the force of the bending energy, f_j = −Σ_k B_k A_T C_k ∇_j C_k (N),
/// to `force`.
std::uint64_t addBendingForces(
    const BendModel &model, const BendingParams &params, const Vec3 *position, Vec3 *force);

/// Adds the block-Gershgorin row sums of each patch's stiffness Σ_k B_k A_T ∇C_k ∇C_kᵀ at the
/// rest shape, halved to match the springs' convention (ω² ≤ 2 w_i stiffnessSum_i), to
/// `stiffnessSum` (N/m).
void addBendingStiffnessBound(const BendModel &model, const BendingParams &params,
    const std::vector<Vec3> &rest, std::vector<float> &stiffnessSum);

} // namespace drape::detail
