// A cleaned mesh as a scene object: a cloth (particles, structural and bending constraints,
// masses from the fabric's areal density, UVs) or a triangle-mesh collider.
#pragma once

#include "mesh/meshdata.h"
#include "scene/scene.h"

#include <string>

namespace drape {

/// Counts of what meshToCloth() made.
struct MeshClothCounts {
    std::size_t structural = 0; ///< one per edge
    std::size_t bend = 0; ///< one per edge shared by exactly two triangles (its opposite corners)
};

/// An explicit cloth from `mesh`: one particle per (welded) vertex with the mass of a third of
/// each adjacent triangle's area × material.arealDensity, a structural constraint along each
/// edge, a bending constraint between the two opposite corners of each edge shared by exactly
/// two triangles, the constraints' compliance and damping from `material` at the mean edge
/// length, and the mesh's UVs. The mesh must be cleaned (cleanMesh) and not empty.
ClothDesc meshToCloth(const MeshGeometry &mesh, const Material &material, const std::string &name,
    MeshClothCounts *counts = nullptr);

/// A static mesh collider: its centre at the mesh's bounding-box centre, the vertices stored
/// relative to it (so moving the collider moves the centre only), default thickness, friction and
/// restitution.
Collider meshToCollider(const MeshGeometry &mesh, const std::string &name);

} // namespace drape
