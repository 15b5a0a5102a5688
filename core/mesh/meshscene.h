// Adding an imported mesh to a scene, as a cloth or a collider: the one operation behind
// `drape import` and the editor's File ▸ Import Mesh, so both make the same object.
#pragma once

#include "mesh/meshdata.h"
#include "scene/scene.h"

#include <string>

namespace drape {

enum class MeshRole : std::uint8_t { Cloth = 0, Collider = 1 };

/// What addMeshToScene() made, for the user to see before and after accepting.
struct MeshAddition {
    MeshRole role = MeshRole::Cloth;
    std::string name; ///< the new object's name
    std::size_t index = 0; ///< its index in scene.cloths or scene.colliders
    std::size_t vertices = 0; ///< particles (cloth) or mesh vertices (collider)
    std::size_t triangles = 0;
    std::size_t structural = 0; ///< cloth: edge constraints
    std::size_t hinges = 0; ///< cloth: bending hinges (interior edges)
    Aabb bounds; ///< m, in the scene
};

/// Appends `mesh` (cleaned) to `scene` as a cloth of `fabric` or as a static mesh collider
/// named `name` (made unique among the scene's objects of that kind).
MeshAddition addMeshToScene(Scene &scene, const MeshGeometry &mesh, MeshRole role, const std::string &name,
    const Material &fabric = {});

/// A scene to import into when there is none: default settings and a ground plane at y = 0.
Scene emptySceneWithGround();

/// "cloth \"shirt\": 1,024 vertices, 1,984 triangles, 3,007 edge constraints, 2,912 bending hinges,
/// bounds [-0.5, 0, -0.5] .. [0.5, 1.2, 0.5] m (1 × 1.2 × 1 m)".
std::string describe(const MeshAddition &a);

} // namespace drape
