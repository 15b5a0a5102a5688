// Bending for any triangle mesh, from dihedral angles.
//
// Hinges: one per edge shared by exactly two triangles, the edge (v[0], v[1]) and the corners
// opposite it (v[2], v[3]); its bend angle θ (Müller, Heidelberger, Hennix, Ratcliff 2007,
// "Position Based Dynamics", §4.2, measured with atan2 so it is signed and exact at any fold).
//
// Energy: a per-hinge spring ½ k (θ − θ̄)² (discrete shells, Grinspun et al. 2003) lets a mesh
// bend partly by folding along its diagonals, which for a strip costs a quarter less than the
// fold the plate would make (a Poisson-like softening that depends on the triangulation).
// So the hinges are combined per triangle into a discrete shape operator (Grinspun, Gingold,
// Reisman, Zorin 2006, "Computing discrete shape operators on general meshes", the simple
// per-triangle form):
//
//   S_T = Σ_{edges i of T} (θ_i − θ̄_i) |e_i| / (2 A_T) · t_i t_iᵀ   (1/m; t_i the unit in-plane normal of
//   edge i)
//
// and the energy is that of an orthotropic Kirchhoff plate with Poisson ratio 0 (woven fabric
// bends along each thread direction without curling across it):
//
//   E_T = ½ A_T (B_weft S_uu² + B_warp S_vv² + 2 √(B_weft B_warp) S_uv²)   (J)
//
// in the triangle's frame u (weft), v (warp: the cloth's warp axis projected into the
// triangle). B is the bending rigidity per unit width (N·m) of an Euler–Bernoulli plate, so a
// strip of width W bends with rigidity B W at any resolution. Each triangle is one vector
// constraint C = (S_uu, S_vv, √2 S_uv) with compliance 1 / (B_k A_T) per component (XPBD,
// Macklin, Müller, Chentanez 2016). Border edges have no hinge and add nothing. Every number
// here comes from the rest positions, so the model depends on topology and rest shape only.
#pragma once

#include "sim/cloth.h"

#include <cstdint>
#include <vector>

namespace drape {

constexpr std::uint32_t kNoHinge = ~std::uint32_t(0);

/// An interior edge and the corners opposite it.
struct BendHinge {
    std::uint32_t v[4] = { 0, 0, 0, 0 }; ///< edge v[0]–v[1], opposite corners v[2], v[3]
    float restAngle = 0.f; ///< rad, θ̄ at the rest positions (0 for a flat sheet)
};

/// One triangle's bending constraint: its hinges and the particles they touch.
struct BendPatch {
    std::uint32_t vertex[6] = {}; ///< the particles of its hinges (the triangle's first)
    std::uint32_t hinge[3] = { kNoHinge, kNoHinge, kNoHinge }; ///< per edge, kNoHinge on a border
    std::uint8_t slot[3][4] = {}; ///< where each hinge's corners are in `vertex`
    std::uint8_t count = 0; ///< particles used in `vertex`
    float coeff[3][3] = {}; ///< ∂C_k/∂θ_i (1/m): row k = S_uu, S_vv, √2 S_uv; column i = edge
    float area = 0.f; ///< m², rest area A_T
};

struct BendModel {
    std::vector<BendHinge> hinges;
    std::vector<BendPatch> patches;
};

/// The hinges and per-triangle patches of `cloth` from its triangles, rest positions and
/// warp axis. Hinges are in ascending order of their edge (deterministic); edges of one or of
/// more than two triangles, and degenerate triangles, get none.
void buildBendModel(const Cloth &cloth, BendModel &out);

/// The rigidities (N·m) of a patch's three components: weft S_uu, warp S_vv and twist.
void patchRigidity(const BendingParams &params, float out[3]);

/// The bend angle θ (rad, in (−π, π]) of a hinge with edge x0–x1 and opposite corners x2, x3,
/// positive when both wings turn towards the same side (a valley seen from that side), and
/// its gradient ∂θ/∂x_j (1/m) in grad[0..3]. False (and nothing written) for a degenerate
/// hinge (zero-length edge or a zero-area triangle).
bool bendAngle(const Vec3 &x0, const Vec3 &x1, const Vec3 &x2, const Vec3 &x3, float &angle, Vec3 grad[4]);

/// The bending energy (J) of `cloth` at `positions` under `model` (for tests and reports).
double bendingEnergy(const Cloth &cloth, const BendModel &model, const std::vector<Vec3> &positions);

} // namespace drape
