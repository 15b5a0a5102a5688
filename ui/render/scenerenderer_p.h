// Private to the scene renderer's sources (scenerenderer.cpp, scenelighting.cpp): its GL
// buffer records and the small matrix helpers both use.
#pragma once

#include "base/rotation.h"
#include "render/scenerenderer.h"

#include <epoxy/gl.h>

#include <cmath>
#include <vector>

namespace drape {

struct SceneRenderer::Mesh {
    GLuint vao = 0, vbo = 0, ebo = 0;
    GLsizei indexCount = 0;
};

struct SceneRenderer::ClothBuffers {
    GLuint vao = 0; ///< cloth program: position, normal, uv, strain
    GLuint lineVao = 0; ///< line program: position only (constant colour)
    GLuint position = 0, normal = 0, uv = 0, strain = 0;
    GLuint triangles = 0, edges = 0;
    std::size_t capacity = 0; ///< particles the vertex buffers can hold
    bool topologyValid = false;
    std::uint64_t revision = 0;
    std::size_t particleCount = 0, triangleCount = 0, constraintCount = 0;
    GLsizei triangleIndices = 0, edgeIndices = 0;
    Vec3 warp;                ///< the warp the UVs were derived along
    std::size_t uvCount = 0;  ///< the cloth's own UVs when they were uploaded
    float metresPerUv = 1.f;  ///< m of cloth per unit of texture space (computeClothUvs)
    std::vector<Vec3> uploadedPositions; ///< what the position buffer holds (normals follow them)
};

namespace render_detail {

inline Mat4 translation(const Vec3 &t)
{
    Mat4 m;
    m.at(0, 3) = t.x;
    m.at(1, 3) = t.y;
    m.at(2, 3) = t.z;
    return m;
}

inline Mat4 translateScale(const Vec3 &t, const Vec3 &s)
{
    Mat4 m = translation(t);
    m.at(0, 0) = s.x;
    m.at(1, 1) = s.y;
    m.at(2, 2) = s.z;
    return m;
}

/// A collider's model matrix: scaled along its own axes, turned by its rotation, moved to `t`.
inline Mat4 placedModel(const Vec3 &t, const Vec3 &rotationDegrees, const Vec3 &s)
{
    const Mat3 r = rotationFromEuler(rotationDegrees);
    Mat4 m = translation(t);
    for (int row = 0; row < 3; ++row)
        for (int col = 0; col < 3; ++col)
            m.at(row, col) = r.col[col][row] * s[col];
    return m;
}

/// Maps the XZ quad (normal +Y) onto the plane through `center` with `normal`, `halfSize` m each way.
inline Mat4 planeModel(const Vec3 &center, const Vec3 &normal, float halfSize)
{
    const Vec3 y = normalized(normal);
    const Vec3 helper = std::abs(y.x) < 0.9f ? Vec3{1, 0, 0} : Vec3{0, 0, 1};
    const Vec3 z = normalized(cross(helper, y));
    const Vec3 x = cross(y, z);
    Mat4 m = translation(center);
    for (int r = 0; r < 3; ++r) {
        m.at(r, 0) = x[r] * halfSize;
        m.at(r, 1) = y[r];
        m.at(r, 2) = z[r] * halfSize;
    }
    return m;
}

/// Height (m) of the horizontal ground plane, 0 when the scene has none.
inline float groundHeight(const std::vector<Collider> &colliders)
{
    for (const Collider &c : colliders) {
        if (c.kind == ColliderKind::Plane && std::abs((rotationFromEuler(c.rotation) * normalized(c.normal)).y) > 0.99f)
            return c.center.y;
    }
    return 0.f;
}

} // namespace render_detail

/// Objects hidden in the Outliner are not drawn (they still simulate); sim and scene lists
/// share their indices.
inline bool clothHidden(const Scene &scene, std::size_t i)
{
    return i < scene.cloths.size() && scene.cloths[i].hidden;
}
inline bool colliderHidden(const Scene &scene, std::size_t i)
{
    return i < scene.colliders.size() && scene.colliders[i].hidden;
}

} // namespace drape
