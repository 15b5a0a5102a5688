// A cleaned mesh as a scene object: a cloth (particles, edge constraints, dihedral bending,
// masses from the fabric's areal density, UVs and the thread directions they give) or a
// triangle-mesh collider.
#pragma once

#include "mesh/meshdata.h"
#include "scene/scene.h"

#include <string>

namespace drape {

/// Counts of what meshToCloth() made.
struct MeshClothCounts {
    std::size_t structural = 0; ///< one per edge
    std::size_t hinges = 0; ///< bending hinges: edges shared by exactly two triangles (sim/bending.h)
};

/// An explicit cloth from `mesh`: one particle per (welded) vertex with the mass of a third of
/// each adjacent triangle's area × material.arealDensity, a structural constraint along each
/// edge with compliance and damping from `material` at the mean edge length, dihedral bending
/// (no distance springs across edges), and the mesh's UVs; the warp runs along v (the mean
/// direction over the mesh, see meshobject.cpp), the cloth is isotropic without usable UVs.
/// The mesh must be cleaned (cleanMesh) and not empty.
ClothDesc meshToCloth(const MeshGeometry &mesh, const Material &material, const std::string &name,
    MeshClothCounts *counts = nullptr);

/// A static mesh collider: its centre at the mesh's bounding-box centre, the vertices stored
/// relative to it (so moving the collider moves the centre only), default thickness, friction and
/// restitution.
Collider meshToCollider(const MeshGeometry &mesh, const std::string &name);

} // namespace drape
