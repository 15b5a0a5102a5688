// The scene renderer's lighting: the key light's shadow pass and the uniforms that
// shaders/lighting.glsl reads (shadow map, contact spheres, ground height).
#include "render/glprogram.h"
#include "render/scenerenderer_p.h"
#include "render/shadowmap.h"

#include <algorithm>
#include <limits>

namespace drape {

using render_detail::groundHeight;
using render_detail::placedModel;
using render_detail::translateScale;

namespace {

/// What the shadow map depends on besides the cloths' positions (which uploadCloth watches):
/// the map's size, the ground (it bounds the light's box), and each cloth's and collider's
/// visibility and, for the colliders that cast, their placement.
std::vector<float> shadowKey(const Scene &scene, const Simulation &sim, int sizePx)
{
    std::vector<float> key { float(sizePx), groundHeight(scene.colliders), float(sim.cloths.size()) };
    for (std::size_t i = 0; i < sim.cloths.size(); ++i)
        key.insert(key.end(), { float(sim.cloths[i].particles.size()), clothHidden(scene, i) ? 1.f : 0.f });
    for (std::size_t i = 0; i < sim.colliders.size(); ++i) {
        const Collider &c = sim.colliders[i];
        key.insert(key.end(), { float(c.kind), colliderHidden(scene, i) ? 1.f : 0.f, c.keepInside ? 1.f : 0.f });
        for (const Vec3 &v : { c.center, c.halfExtents, c.rotation })
            key.insert(key.end(), { v.x, v.y, v.z });
        key.push_back(c.radius);
    }
    return key;
}

} // namespace

void SceneRenderer::updateShadowMap(const Scene &scene, const Simulation &sim, int sizePx)
{
    if (sizePx <= 0) {
        m_shadowsDrawn = false;
        return;
    }
    std::vector<float> key = shadowKey(scene, sim, sizePx);
    if (m_shadowStale || key != m_shadowKey) {
        m_shadowsDrawn = false;
        drawShadowCasters(scene, sim, sizePx);
        m_shadowHolds = m_shadowsDrawn;
        m_shadowKey = std::move(key);
        m_shadowStale = false;
        ++m_shadowPasses;
    }
    m_shadowsDrawn = m_shadowHolds;
}

void SceneRenderer::drawShadowCasters(const Scene &scene, const Simulation &sim, int sizePx)
{
    // The light's box holds every caster, and the ground under them where their shadows fall:
    // each corner of the casters' box is also projected along the light onto the ground.
    const float inf = std::numeric_limits<float>::infinity();
    Vec3 lo { inf, inf, inf }, hi { -inf, -inf, -inf };
    auto grow = [&](const Vec3 &p) {
        lo = { std::min(lo.x, p.x), std::min(lo.y, p.y), std::min(lo.z, p.z) };
        hi = { std::max(hi.x, p.x), std::max(hi.y, p.y), std::max(hi.z, p.z) };
    };
    for (std::size_t i = 0; i < sim.cloths.size(); ++i) {
        if (clothHidden(scene, i))
            continue;
        for (const Vec3 &p : sim.cloths[i].particles.position) {
            if (std::isfinite(p.x) && std::isfinite(p.y) && std::isfinite(p.z))
                grow(p);
        }
    }
    for (std::size_t i = 0; i < sim.colliders.size(); ++i) {
        const Collider &c = sim.colliders[i];
        if (colliderHidden(scene, i))
            continue;
        if (c.kind == ColliderKind::Sphere) {
            grow(c.center - Vec3 { 1, 1, 1 } * c.radius);
            grow(c.center + Vec3 { 1, 1, 1 } * c.radius);
        } else if (c.kind == ColliderKind::Box && !c.keepInside) {
            const Vec3 reach = Vec3 { 1, 1, 1 } * length(c.halfExtents); // holds it however it is turned
            grow(c.center - reach);
            grow(c.center + reach);
        }
    }
    if (!(lo.x <= hi.x))
        return;
    m_casterLo = lo;
    m_casterHi = hi;
    const float ground = groundHeight(scene.colliders);
    const Vec3 light = ShadowMap::keyDirection();
    const Vec3 boxLo = lo, boxHi = hi;
    for (int corner = 0; corner < 8; ++corner) {
        const Vec3 p { corner & 1 ? boxHi.x : boxLo.x, corner & 2 ? boxHi.y : boxLo.y,
            corner & 4 ? boxHi.z : boxLo.z };
        const float t = std::max(p.y - ground, 0.f) / light.y;
        grow(p - light * t);
    }

    m_shadow->begin(lo, hi, sizePx);
    // Slope-scaled offset keeps lit surfaces from shadowing themselves (shadow acne).
    glEnable(GL_POLYGON_OFFSET_FILL);
    glPolygonOffset(2.f, 4.f);
    for (std::size_t i = 0; i < sim.colliders.size(); ++i) {
        const Collider &c = sim.colliders[i];
        const Mesh *mesh = nullptr;
        if (colliderHidden(scene, i)) {
            continue;
        } else if (c.kind == ColliderKind::Sphere) {
            mesh = m_sphere.get();
            m_shadow->setModel(translateScale(c.center, Vec3 { 1, 1, 1 } * c.radius));
        } else if (c.kind == ColliderKind::Box && !c.keepInside) {
            mesh = m_box.get();
            m_shadow->setModel(placedModel(c.center, c.rotation, c.halfExtents));
        } else {
            continue; // the ground receives, it casts on nothing
        }
        glBindVertexArray(mesh->vao);
        glDrawElements(GL_TRIANGLES, mesh->indexCount, GL_UNSIGNED_INT, nullptr);
    }
    m_shadow->setModel(Mat4 {});
    for (std::size_t i = 0; i < sim.cloths.size() && i < m_cloths.size(); ++i) {
        const ClothBuffers &b = *m_cloths[i];
        if (b.triangleIndices == 0 || clothHidden(scene, i))
            continue;
        glBindVertexArray(b.vao);
        glDrawElements(GL_TRIANGLES, b.triangleIndices, GL_UNSIGNED_INT, nullptr);
    }
    glBindVertexArray(0);
    glDisable(GL_POLYGON_OFFSET_FILL);
    m_shadowsDrawn = true;
}

int SceneRenderer::shadowFilter() const
{
    return m_shadowsDrawn ? ShadowMap::filterFor(m_shadow->size()) : 0;
}

void SceneRenderer::setLighting(GlProgram &program, const Scene &scene, const Simulation &sim)
{
    if (m_shadowsDrawn)
        m_shadow->bind(program, 1);
    // Up to eight spheres darken the ambient light around them (boxes are left out: a sphere
    // is where cloth drapes in the presets, and the uniform array stays small).
    float spheres[8 * 4] = {};
    int count = 0;
    for (std::size_t i = 0; i < sim.colliders.size(); ++i) {
        const Collider &c = sim.colliders[i];
        if (c.kind != ColliderKind::Sphere || count == 8 || colliderHidden(scene, i))
            continue;
        spheres[count * 4 + 0] = c.center.x;
        spheres[count * 4 + 1] = c.center.y;
        spheres[count * 4 + 2] = c.center.z;
        spheres[count * 4 + 3] = c.radius;
        ++count;
    }
    glUniform1i(program.uniform("uSphereCount"), count);
    glUniform4fv(program.uniform("uSpheres"), 8, spheres);
    bool hasGround = false;
    for (const Collider &c : scene.colliders)
        hasGround = hasGround || (c.kind == ColliderKind::Plane && std::abs(c.normal.y) > 0.99f);
    glUniform1f(program.uniform("uGroundY"), hasGround ? groundHeight(scene.colliders) : -1e6f);
}

} // namespace drape
