// Placing cloths and colliders (the transform gizmo and the placement rows of the
// Parameters dock). A cloth's placement moves its rest geometry, so it is structural like a
// grid change; a collider's centre, rotation and size are parameters, so they follow the
// document's frame rule (the scene at frame 0, the take after it) and a moving collider's
// motion description is left alone.
#include "edit/editdocument.h"

#include "scene/params.h"

#include <cmath>
#include <initializer_list>
#include <utility>

namespace drape {

std::string EditDocument::setPlacement(int cloth, const Placement &placement)
{
    if (m_drag)
        return "finish the drag first";
    if (cloth < 0 || std::size_t(cloth) >= m_scene->cloths.size())
        return "cloth " + std::to_string(cloth) + " out of range";
    if (!isFinite(placement.offset) || !isFinite(placement.rotation) || !(placement.scale > 0.f)
        || !std::isfinite(placement.scale))
        return "cloth " + std::to_string(cloth) + ": a placement needs finite values and a positive scale";
    if (m_scene->cloths[std::size_t(cloth)].placement == placement)
        return {};
    Scene next = *m_scene;
    next.cloths[std::size_t(cloth)].placement = placement;
    structural("Place cloth", std::move(next), cloth, false);
    return {};
}

std::string EditDocument::setColliderPlacement(int index, const Vec3 &centre, const Vec3 &rotation, float scale)
{
    // A mesh's scale is structural (back to frame 0), which a held drag cannot survive.
    if (m_drag)
        return "finish the drag first";
    if (index < 0 || std::size_t(index) >= m_scene->colliders.size())
        return "collider " + std::to_string(index) + " out of range";
    if (!isFinite(centre) || !isFinite(rotation) || !(scale > 0.f) || !std::isfinite(scale))
        return "collider " + std::to_string(index) + ": a placement needs finite values and a positive scale";
    // The values in force at the playhead, which parameter events may have changed.
    const Collider &now = settings().colliders[std::size_t(index)];
    std::vector<std::pair<std::string, double>> edits;
    const char *axes[3] = { "x", "y", "z" };
    for (int a = 0; a < 3; ++a) {
        if (centre[a] != now.baseCenter[a])
            edits.emplace_back(std::string("collider.center.") + axes[a], centre[a]);
        if (rotation[a] != now.rotation[a] && now.kind != ColliderKind::Sphere) // a ball has no turn to show
            edits.emplace_back(std::string("collider.rotation.") + axes[a], rotation[a]);
    }
    const bool meshScale = scale != 1.f && now.kind == ColliderKind::Mesh;
    if (scale != 1.f) {
        switch (now.kind) {
        case ColliderKind::Sphere:
            edits.emplace_back("collider.radius", now.radius * scale);
            break;
        case ColliderKind::Capsule:
            edits.emplace_back("collider.radius", now.radius * scale);
            edits.emplace_back("collider.halfLength", now.halfLength * scale);
            break;
        case ColliderKind::Box:
            for (int a = 0; a < 3; ++a)
                edits.emplace_back(std::string("collider.halfExtents.") + axes[a], now.halfExtents[a] * scale);
            break;
        case ColliderKind::Plane: // an infinite plane has no size
        case ColliderKind::Mesh:
            break;
        }
    }
    if (edits.empty() && !meshScale)
        return {};
    const bool own = !grouping();
    if (own)
        beginGroup();
    std::string error;
    if (meshScale && m_scene->colliders[std::size_t(index)].mesh) {
        // The triangles are shared and immutable: a scaled copy replaces them.
        Scene next = *m_scene;
        Collider &c = next.colliders[std::size_t(index)];
        std::vector<Vec3> vertices = c.mesh->vertices();
        for (Vec3 &v : vertices)
            v *= scale;
        c.mesh = makeMeshRef(std::move(vertices), c.mesh->triangles());
        structural("Scale collider", std::move(next), -1, false);
    }
    for (const auto &[key, value] : edits) {
        error = setParameter(key, index, value);
        if (!error.empty())
            break;
    }
    if (!error.empty()) {
        if (own)
            abandonGroup();
        return error;
    }
    if (own)
        endGroup("Place collider");
    return {};
}

} // namespace drape
