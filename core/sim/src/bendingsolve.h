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

/// Eight bending patches solved side by side in AVX2 lanes: each lane holds one patch whose
/// six slots are its triangle's corners (0-2) and the far corners of its hinges (3-5, hinge
/// i's in slot 3 + i; hinge i on the triangle's edge from corner i to i + 1), as BendPatch
/// lays out every triangle whose neighbours' far corners are distinct. A border triangle
/// lacks a hinge or two: their slots stand on corner 0 with inverse mass 0. Only what the
/// solve reads, as one array of eight lanes per field.
struct BendChunk {
    static constexpr int kLanes = 8;
    std::uint32_t vertex[6][kLanes]; ///< particle of each slot
    std::uint32_t patch[kLanes]; ///< index in BendModel::patches (its multipliers)
    float restAngle[3][kLanes]; ///< θ̄ of hinge i
    // A patch's coefficients and area (BendPatch::coeff, area) are gathered from the model
    // by `patch` rather than held again here: 40 bytes a patch less.
    /// Where hinge i's corners (BendHinge::v) are: bit 2i set when its edge runs from slot
    /// i + 1 to slot i (mod 3) rather than from i to i + 1, bit 2i + 1 when its third corner
    /// (v[2]) is slot 3 + i and its fourth the triangle's third corner, rather than the
    /// other way round.
    std::uint8_t swaps[kLanes];
    std::uint8_t hinges[kLanes]; ///< bit i set when the patch has hinge i
    std::uint8_t lanes = 0; ///< lanes holding a patch (the first ones); the rest repeat lane 0
};

/// The order in which solveBending visits the patches when it can take eight at a time. A
/// Gauss-Seidel pass visits them one after another, each moving the particles the next ones
/// read; two patches that share no particle commute exactly, whatever order they run in.
/// So each patch gets a level, one above the highest level of the earlier patches it shares
/// a particle with, and the pass runs the levels in turn: within a level no two patches
/// share a particle, and every patch still runs after each earlier one it shares a particle
/// with, so the pass ends with the bits of the one-by-one pass. Within a level the patches
/// go eight at a time (BendChunk), the few a chunk cannot lay out (where two neighbours of a
/// triangle share their far corner) one by one; a level's last chunk, if not full, is
/// filled with patches of the next level that share no particle with it.
struct BendSchedule {
    static constexpr std::uint32_t kChunk = 0x80000000u; ///< flag of a step that is a chunk
    /// Chunk index | kChunk, or a patch index, in the order they run.
    std::vector<std::uint32_t> steps;
    std::vector<BendChunk> chunks;
    std::size_t patches = 0; ///< BendModel::patches.size() the schedule was built for
};

/// The schedule of `model` on a cloth of `particleCount` particles.
void buildBendSchedule(const BendModel &model, std::size_t particleCount, BendSchedule &out);

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
///
/// With a schedule of this model and a CPU with AVX2 (xpbdKernelIsa()), the patches run in
/// the schedule's order, eight at a time where it says so: the same bits as one by one.
std::uint64_t solveBending(const BendModel &model, const BendSchedule &schedule, const BendingParams &params,
    const float *invMass, const Vec3 *origin, Vec3 *offset, float dt, float *lambda);

/// One chunk of solveBending in AVX2 (bendingavx2.cpp): the same IEEE operations in the same
/// order as the one-by-one pass, lane by lane. `rigidity` from patchRigidity, `invDt2` = 1/dt².
/// `patches` are the model's (BendModel::patches) the chunk was filled from.
void solveBendChunkAvx2(const BendChunk &chunk, const BendPatch *patches, const float rigidity[3],
    double invDt2, const float *invMass, const Vec3 *origin, Vec3 *offset, float *lambda);

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
