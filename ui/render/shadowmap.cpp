#include "render/shadowmap.h"

#include "render/glprogram.h"

#include <epoxy/gl.h>

#include <algorithm>
#include <cmath>

namespace drape {

namespace {

/// A right-handed view matrix looking from `eye` towards `target`.
Mat4 lookAt(const Vec3 &eye, const Vec3 &target, const Vec3 &upHint)
{
    const Vec3 f = normalized(target - eye);
    const Vec3 s = normalized(cross(f, upHint));
    const Vec3 u = cross(s, f);
    Mat4 m;
    for (int c = 0; c < 3; ++c) {
        m.at(0, c) = s[c];
        m.at(1, c) = u[c];
        m.at(2, c) = -f[c];
    }
    m.at(0, 3) = -dot(s, eye);
    m.at(1, 3) = -dot(u, eye);
    m.at(2, 3) = dot(f, eye);
    return m;
}

/// glOrtho's matrix for a symmetric box of half-size `half` (m) and depth [near, far] (m).
Mat4 ortho(float half, float nearPlane, float farPlane)
{
    Mat4 m;
    m.at(0, 0) = 1.f / half;
    m.at(1, 1) = 1.f / half;
    m.at(2, 2) = -2.f / (farPlane - nearPlane);
    m.at(2, 3) = -(farPlane + nearPlane) / (farPlane - nearPlane);
    return m;
}

} // namespace

ShadowMap::ShadowMap() = default;
ShadowMap::~ShadowMap() = default;

Vec3 ShadowMap::keyDirection()
{
    return normalized(Vec3 { 0.45f, 0.8f, 0.55f });
}

bool ShadowMap::initialize(QString *error)
{
    m_program = std::make_unique<GlProgram>();
    if (!m_program->load(
            QStringLiteral(":/shaders/shadow.vert"), QStringLiteral(":/shaders/shadow.frag"), error)) {
        m_program.reset();
        return false;
    }
    glGenFramebuffers(1, &m_framebuffer);
    glGenTextures(1, &m_texture);
    allocate(1);
    return true;
}

void ShadowMap::release()
{
    if (m_program)
        m_program->release();
    m_program.reset();
    if (m_framebuffer)
        glDeleteFramebuffers(1, &m_framebuffer);
    if (m_texture)
        glDeleteTextures(1, &m_texture);
    m_framebuffer = m_texture = 0;
    m_size = 0;
}

void ShadowMap::allocate(int sizePx)
{
    m_size = sizePx;
    glBindTexture(GL_TEXTURE_2D, m_texture);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_DEPTH_COMPONENT24, sizePx, sizePx, 0, GL_DEPTH_COMPONENT,
        GL_UNSIGNED_INT, nullptr);
    // Linear filtering of a compared texture blends the four comparisons (free 2 × 2 PCF).
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_COMPARE_MODE, GL_COMPARE_REF_TO_TEXTURE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_COMPARE_FUNC, GL_LEQUAL);
    glBindTexture(GL_TEXTURE_2D, 0);
    glBindFramebuffer(GL_FRAMEBUFFER, m_framebuffer);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_TEXTURE_2D, m_texture, 0);
    glDrawBuffer(GL_NONE);
    glReadBuffer(GL_NONE);
}

void ShadowMap::begin(const Vec3 &lo, const Vec3 &hi, int sizePx)
{
    if (sizePx != m_size)
        allocate(sizePx);
    // The light looks along -keyDirection at the centre of the bounding sphere of the casters
    // and receivers; the box is that sphere, so any orientation of the scene fits.
    const Vec3 center = (lo + hi) * 0.5f;
    const float radius = std::max(length(hi - lo) * 0.5f, 0.05f) * 1.05f;
    const Vec3 dir = keyDirection();
    const Vec3 eye = center + dir * (2.f * radius);
    m_lightViewProjection
        = ortho(radius, radius, 3.f * radius) * lookAt(eye, center, Vec3 { 0.f, 0.f, -1.f });
    m_depthRange = 2.f * radius;

    glBindFramebuffer(GL_FRAMEBUFFER, m_framebuffer);
    glViewport(0, 0, m_size, m_size);
    glDepthMask(GL_TRUE);
    glClear(GL_DEPTH_BUFFER_BIT);
    glEnable(GL_DEPTH_TEST);
    glDepthFunc(GL_LEQUAL);
    glDisable(GL_BLEND);
    m_program->use();
    glUniformMatrix4fv(m_program->uniform("uLightViewProjection"), 1, GL_FALSE, m_lightViewProjection.m);
    setModel(Mat4 {});
}

void ShadowMap::setModel(const Mat4 &model)
{
    glUniformMatrix4fv(m_program->uniform("uModel"), 1, GL_FALSE, model.m);
}

void ShadowMap::bind(GlProgram &program, int unit) const
{
    glActiveTexture(GLenum(GL_TEXTURE0 + unit));
    glBindTexture(GL_TEXTURE_2D, m_texture);
    glActiveTexture(GL_TEXTURE0);
    glUniform1i(program.uniform("uShadowMap"), unit);
    glUniformMatrix4fv(program.uniform("uLightViewProjection"), 1, GL_FALSE, m_lightViewProjection.m);
    glUniform1f(program.uniform("uShadowTexel"), 1.f / float(std::max(m_size, 1)));
    // About 4 mm of depth, in the [0, 1] depth range of the light's box: enough against acne on
    // cloth a few millimetres thick, small against the gap between cloth and what it rests on.
    glUniform1f(program.uniform("uShadowBias"), 0.004f / m_depthRange);
}

int ShadowMap::filterFor(int sizePx)
{
    // A full-size map (2048², recordings and GPUs) gets 3 × 3 filtered lookups; a smaller one
    // (the software renderer's Balanced quality) one lookup, a ninth of the shadow's cost per pixel.
    return sizePx >= 2048 ? 3 : 1;
}

} // namespace drape
