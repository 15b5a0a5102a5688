// CPU-side geometry for the renderer: collider meshes, the ground grid, constraint lines
// and the per-vertex strain ratios of the tear-risk heat map. No GL here, so it is testable
// and shared by the viewport and headless rendering.
#pragma once

#include "sim/cloth.h"
#include "base/rotation.h"
#include "base/vec3.h"

#include <cstdint>
#include <vector>

namespace drape {

/// Interleaved position + normal, 6 floats per vertex.
struct MeshData {
    std::vector<float> vertices;
    std::vector<std::uint32_t> indices;
    int indexCount() const { return int(indices.size()); }
};

/// Position + RGBA colour, the vertex of every line and point overlay.
struct LineVertex {
    float x = 0.f, y = 0.f, z = 0.f;
    float r = 1.f, g = 1.f, b = 1.f, a = 1.f;
};

MeshData makeSphereMesh(int slices, int stacks); ///< unit sphere at the origin
MeshData makeBoxMesh();                          ///< cube [-1, 1]³ with face normals
MeshData makeQuadMesh();                         ///< square [-1, 1]² in the XZ plane, normal +Y
/// Capsule along +Y: the points within `radius` of the segment y ∈ [-halfLength, halfLength].
MeshData makeCapsuleMesh(float radius, float halfLength, int slices, int stacks);
/// A triangle mesh with flat face normals (each triangle its own three vertices).
MeshData makeFlatMesh(const std::vector<Vec3> &vertices, const std::vector<Triangle> &triangles);

/// Ground grid in the XZ plane at y = 0: `halfSize` m each way, a line every `spacing` m,
/// brighter every `majorEvery` lines, the X axis red and the Z axis blue.
std::vector<LineVertex> makeGridLines(float halfSize, float spacing, int majorEvery);

/// The 12 edges of the box center ± halfExtents, its sides turned by `rotation`.
void appendBoxEdges(const Vec3 &center, const Vec3 &halfExtents, const Vec3 &color, std::vector<LineVertex> &out,
                    const Mat3 &rotation = {});

/// Colour of a constraint kind in the constraints overlay.
Vec3 constraintKindColor(ConstraintKind kind);

/// Strain at which the heat map saturates for constraints that never tear.
constexpr float kUntearableStrainScale = 0.2f;

/// Tear risk |strain| / tearStrain of one constraint (strain = (|x_a - x_b| - L) / L);
/// constraints that never tear use kUntearableStrainScale instead of tearStrain.
float tearRisk(const Cloth &cloth, const DistanceConstraint &c);

/// Per-particle maximum tear risk over the constraints touching it (0 for free particles).
void computeStrainRatios(const Cloth &cloth, std::vector<float> &out);

/// Largest stress (N/m, tension over the strip width `width` m) of any constraint, 0 if none
/// pulls; `tension` is the cloth's constraint tensions (Simulation::constraintTensions).
float maxStress(const Cloth &cloth, const std::vector<float> &tension, float width);
/// Per-particle maximum stress over the constraints touching it, as a fraction of `scale` N/m
/// (compressed constraints count as 0), for the stress heat map.
void computeStressRatios(
    const Cloth &cloth, const std::vector<float> &tension, float width, float scale, std::vector<float> &out);
/// The smallest 1, 2, 5 × 10ⁿ at or above v (the stress legend's top), 1 for v <= 0.
float niceCeiling(float v);

/// Texture coordinates of a cloth's particles for the fabric looks, two floats per particle in
/// `out`: the cloth's own UVs (an imported mesh's) when it has one per particle, otherwise its
/// rest positions along the weft (u) and the warp (v; `warp` in rest space, zero = up) divided
/// by the larger span, so the cloth covers [0, 1]. Returns the metres of cloth per unit of
/// texture space, which turns the weave's threads per metre into threads per unit: the span,
/// or √(rest area / UV area) for the cloth's own UVs.
float computeClothUvs(const Cloth &cloth, const Vec3 &warp, std::vector<float> &out);

/// Unique triangle edges as index pairs (wireframe).
std::vector<std::uint32_t> triangleEdges(const Cloth &cloth);

} // namespace drape
