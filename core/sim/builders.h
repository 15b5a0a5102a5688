// Cloth builders shared by the presets, the tests and the benchmark: one function per
// shape, so that every user of a "64×64 curtain" gets exactly the same cloth.
#pragma once

#include "sim/cloth.h"

#include <cstdint>
#include <vector>

namespace drape {

/// Stiffness-related numbers given to every constraint of one kind.
struct ConstraintParams {
    float compliance = 0.f; ///< m/N (0 = rigid)
    float damping = 0.f; ///< N·s/m
    float tearStrain = kNeverTear; ///< strain at which it tears
    float tearForce = kNeverTear; ///< N, tension at which it tears
};

enum class GridOrientation : std::uint8_t {
    Vertical = 0, ///< in the XY plane, hanging down from `origin` (the top-left corner), facing +Z
    Horizontal = 1, ///< in the XZ plane, lying at height origin.y, facing +Y
};

struct GridSpec {
    int across = 32; ///< particles along the width (>= 2)
    int down = 32; ///< particles along the height/depth (>= 2)
    float width = 1.f; ///< m
    float height = 1.f; ///< m
    GridOrientation orientation = GridOrientation::Vertical;
    Vec3 origin { -0.5f, 1.5f, 0.f }; ///< m, position of particle (0, 0) (top-left)
    bool structural = true; ///< edge constraints
    bool shear = true; ///< both quad diagonals
    bool bend = true; ///< distance constraints skipping one particle along rows and columns
    float arealDensity
        = 0.2f; ///< kg/m²; each cell's mass is shared by its four corners (interior particles weigh one cell)
    ConstraintParams structuralParams;
    ConstraintParams shearParams { 1e-5f, 0.f, kNeverTear };
    ConstraintParams bendParams { 1e-3f, 0.f, kNeverTear };
};

/// Particle index of grid cell (i across, j down).
inline std::uint32_t gridIndex(const GridSpec &g, int i, int j)
{
    return std::uint32_t(j * g.across + i);
}

/// A rectangular grid; particle (i, j) has index j * across + i. Triangles alternate their
/// diagonal so the sheet has no preferred fold direction.
Cloth makeGrid(const GridSpec &spec);

struct RopeSpec {
    int count = 20; ///< particles (>= 2)
    float length = 1.f; ///< m, total rest length
    Vec3 start { 0.f, 1.5f, 0.f }; ///< m, position of particle 0
    Vec3 direction { 0.f, -1.f, 0.f }; ///< towards the last particle (normalised)
    float linkMass = 0.01f; ///< kg per particle
    ConstraintParams params; ///< structural links
    bool bend = false; ///< add constraints skipping one particle
    ConstraintParams bendParams { 1e-3f, 0.f, kNeverTear };
};

/// A chain of `count` particles and `count - 1` structural links (no triangles).
Cloth makeRope(const RopeSpec &spec);

/// A cloth from explicit lists. Masses are per particle (kg); when `masses` is empty the
/// mass comes from `arealDensity` spread over triangle areas (each triangle gives a third
/// of its mass to each corner). Constraints are taken as they are; when `constraints` is
/// empty, structural constraints are made from the triangle edges (rest = current length).
struct ExplicitSpec {
    std::vector<Vec3> positions;
    std::vector<float> masses;
    std::vector<ParticleKind> kinds;
    std::vector<Triangle> triangles;
    std::vector<DistanceConstraint> constraints;
    float arealDensity = 0.2f;
    ConstraintParams edgeParams;
};
Cloth makeExplicit(const ExplicitSpec &spec);

/// Spreads `arealDensity` (kg/m²) over the triangles' rest areas onto their corners.
/// Particles without any triangle get `fallbackMass`.
void assignMassFromArea(Cloth &cloth, float arealDensity, float fallbackMass);

} // namespace drape
