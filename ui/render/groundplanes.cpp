// The scene renderer's plane colliders (the ground): most of a view's pixels on a software
// renderer, and most of them where no shadow can fall. They are shaded with the shadow lookup
// only inside the part of the view where a caster's shadow may land (shadowedRect) and with
// the shadowless program around it; outside that part the lookup returns exactly 1, so both
// programs give the same pixels, and the scissor keeps each draw to its part of the view.
// While the view stays still (the editor playing a scene), the shadowless planes and the
// background are kept in a BackdropCache and copied in; only the shadowed part is drawn.
#include "render/backdropcache.h"
#include "render/glprogram.h"
#include "render/scenerenderer_p.h"
#include "render/shadowmap.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace drape {

using render_detail::planeModel;

namespace {

/// The plane collider's unit normal as drawn (turned by its rotation).
Vec3 planeNormal(const Collider &c)
{
    return normalized(rotationFromEuler(c.rotation) * c.normal);
}

} // namespace

void SceneRenderer::drawPlaneColliders(
    const Scene &scene, const Simulation &sim, const Mat4 &viewProjection, const Vec3 &eye, int filter)
{
    GlProgram *program = nullptr;
    for (std::size_t i = 0; i < sim.colliders.size(); ++i) {
        const Collider &c = sim.colliders[i];
        if (c.kind != ColliderKind::Plane || colliderHidden(scene, i))
            continue;
        if (!program) {
            program = useLit(*m_solidPrograms, {{"SHADOW_FILTER", filter}, {"CONTACT", 0}}, scene, sim, viewProjection, eye);
            if (!program)
                return;
            glUniform4f(program->uniform("uColor"), 0.20f, 0.21f, 0.23f, 1.f);
            glBindVertexArray(m_quad->vao);
        }
        const Mat4 m = planeModel(c.center, planeNormal(c), 6.f);
        glUniformMatrix4fv(program->uniform("uModel"), 1, GL_FALSE, m.m);
        glDrawElements(GL_TRIANGLES, m_quad->indexCount, GL_UNSIGNED_INT, nullptr);
    }
    glBindVertexArray(0);
}

void SceneRenderer::drawPlanes(const Scene &scene, const Simulation &sim, const Mat4 &viewProjection,
    const Vec3 &eye, int widthPx, int heightPx, bool backdrop)
{
    const bool anyPlane = std::any_of(sim.colliders.begin(), sim.colliders.end(),
        [](const Collider &c) { return c.kind == ColliderKind::Plane; });
    if (!anyPlane)
        return;
    const int filter = shadowFilter();
    if (filter == 0) {
        if (!backdrop)
            drawPlaneColliders(scene, sim, viewProjection, eye, 0);
        return;
    }
    const auto [x, y, w, h] = shadowedRect(scene, sim, viewProjection, widthPx, heightPx);
    glEnable(GL_SCISSOR_TEST);
    if (w > 0 && h > 0) {
        // Over the backdrop the planes' depth is already there: the same triangles give the
        // same depth, so GL_LEQUAL lets them through exactly where nothing covers them.
        glScissor(x, y, w, h);
        drawPlaneColliders(scene, sim, viewProjection, eye, filter);
    }
    if (backdrop) {
        glDisable(GL_SCISSOR_TEST);
        return;
    }
    // The four bands around the rectangle (all of the target when it is empty).
    const std::array<int, 4> bands[] = {
        {0, 0, widthPx, h > 0 ? y : heightPx},
        {0, y + h, widthPx, h > 0 ? heightPx - y - h : 0},
        {0, y, x, h},
        {x + w, y, widthPx - x - w, h},
    };
    for (const auto &[bx, by, bw, bh] : bands) {
        if (bw <= 0 || bh <= 0)
            continue;
        glScissor(bx, by, bw, bh);
        drawPlaneColliders(scene, sim, viewProjection, eye, 0);
    }
    glDisable(GL_SCISSOR_TEST);
}

bool SceneRenderer::useBackdrop(const Scene &scene, const Simulation &sim, unsigned framebuffer,
    const Mat4 &viewProjection, const Vec3 &eye, int widthPx, int heightPx)
{
    // Without a plane to keep, a clear (on the rasteriser's threads) is cheaper than a copy.
    bool anyPlane = false;
    for (std::size_t i = 0; i < sim.colliders.size(); ++i)
        anyPlane = anyPlane || (sim.colliders[i].kind == ColliderKind::Plane && !colliderHidden(scene, i));
    if (!anyPlane) {
        m_lastBackdropKey.clear();
        return false;
    }
    // Everything the backdrop's pixels depend on.
    std::vector<float> key(viewProjection.m, viewProjection.m + 16);
    const Vec3 &bg = scene.view.background;
    key.insert(key.end(), {eye.x, eye.y, eye.z, float(widthPx), float(heightPx), bg.x, bg.y, bg.z});
    for (std::size_t i = 0; i < sim.colliders.size(); ++i) {
        const Collider &c = sim.colliders[i];
        if (c.kind != ColliderKind::Plane)
            continue;
        key.insert(key.end(), {float(i), colliderHidden(scene, i) ? 1.f : 0.f});
        for (const Vec3 &v : {c.center, c.normal, c.rotation})
            key.insert(key.end(), {v.x, v.y, v.z});
    }
    const bool still = key == m_lastBackdropKey;
    m_lastBackdropKey = key;
    if (m_backdrop->holds(key))
        return m_backdrop->copyTo(framebuffer);
    // A view that moves draws everything; one that stayed for a frame keeps its backdrop.
    if (!still || !m_backdrop->begin(framebuffer, widthPx, heightPx))
        return false;
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT | GL_STENCIL_BUFFER_BIT);
    drawPlaneColliders(scene, sim, viewProjection, eye, 0);
    m_backdrop->end(std::move(key));
    return m_backdrop->copyTo(framebuffer);
}

std::array<int, 4> SceneRenderer::shadowedRect(
    const Scene &scene, const Simulation &sim, const Mat4 &viewProjection, int widthPx, int heightPx) const
{
    const std::array<int, 4> whole {0, 0, widthPx, heightPx};
    // How far from a caster's outline a lookup can still see it: the 3 × 3 filter's offsets
    // (1.5 texels) and the linear filter's texel, the lookup's push along the normal (6 mm,
    // lighting.glsl) and its bias, with room to spare.
    const float reach = 4.f * m_shadow->texelMetres() + 0.02f;
    const Vec3 lo = m_casterLo - Vec3{reach, reach, reach}, hi = m_casterHi + Vec3{reach, reach, reach};
    const Vec3 light = ShadowMap::keyDirection();
    float x0 = std::numeric_limits<float>::infinity(), y0 = x0, x1 = -x0, y1 = -x0;
    for (std::size_t i = 0; i < sim.colliders.size(); ++i) {
        const Collider &c = sim.colliders[i];
        if (c.kind != ColliderKind::Plane || colliderHidden(scene, i))
            continue;
        const Vec3 n = planeNormal(c);
        const float facing = dot(light, n);
        if (std::abs(facing) < 0.05f)
            return whole; // the light grazes the plane: shadows run far along it
        for (int corner = 0; corner < 8; ++corner) {
            const Vec3 p {corner & 1 ? hi.x : lo.x, corner & 2 ? hi.y : lo.y, corner & 4 ? hi.z : lo.z};
            // Along the light onto the plane, then into the view.
            const Vec3 onPlane = p - light * (dot(p - c.center, n) / facing);
            Vec3 clip;
            const float w = viewProjection.transformClip(onPlane, &clip);
            if (!(w > 1e-4f))
                return whole; // behind the eye: the projection does not bound it
            const float px = (clip.x / w * 0.5f + 0.5f) * float(widthPx);
            const float py = (clip.y / w * 0.5f + 0.5f) * float(heightPx);
            x0 = std::min(x0, px);
            x1 = std::max(x1, px);
            y0 = std::min(y0, py);
            y1 = std::max(y1, py);
        }
    }
    if (!(x0 <= x1))
        return {0, 0, 0, 0};
    // Two pixels of margin against rounding; clamped to the target.
    const auto clampTo = [](float v, int size) { return int(std::clamp(v, 0.f, float(size))); };
    const int left = clampTo(std::floor(x0) - 2.f, widthPx), right = clampTo(std::ceil(x1) + 2.f, widthPx);
    const int bottom = clampTo(std::floor(y0) - 2.f, heightPx), top = clampTo(std::ceil(y1) + 2.f, heightPx);
    if (right <= left || top <= bottom)
        return {0, 0, 0, 0};
    return {left, bottom, right - left, top - bottom};
}

} // namespace drape
