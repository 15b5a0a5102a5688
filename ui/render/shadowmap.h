// The key light's shadow map: a depth texture rendered from the light's direction with an
// orthographic projection fitted around the scene's cloths and colliders at each pass, sampled
// by lighting.glsl with hardware depth comparison and 3 × 3 PCF. Written against libepoxy
// like the rest of the renderer; the header names no GL types.
#pragma once

#include "scene/camera.h"

#include <QString>

#include <memory>

namespace drape {

class GlProgram;

class ShadowMap {
public:
    ShadowMap();
    ~ShadowMap();

    /// Loads the depth program and makes a 1 × 1 texture (so the sampler is always valid).
    bool initialize(QString *error);
    void release();

    /// Starts the depth pass for a scene inside the box [lo, hi] (m): resizes the texture to
    /// `sizePx` if needed, binds its framebuffer, clears it and selects the depth program.
    /// The caller draws the casters with drawCaster() and then restores its own framebuffer.
    void begin(const Vec3 &lo, const Vec3 &hi, int sizePx);
    /// Sets the model matrix of the next caster (identity for cloths).
    void setModel(const Mat4 &model);

    /// Binds the depth texture to texture unit `unit` and sets the sampling uniforms of a
    /// program that includes lighting.glsl (one built with SHADOW_FILTER > 0).
    void bind(GlProgram &program, int unit) const;
    /// lighting.glsl's SHADOW_FILTER for a map of `sizePx`: 3 (3 × 3 lookups) or 1.
    static int filterFor(int sizePx);

    const Mat4 &lightViewProjection() const { return m_lightViewProjection; }
    int size() const { return m_size; }
    /// m of the scene one texel of the map covers (from the last begin()).
    float texelMetres() const { return m_depthRange / float(m_size > 0 ? m_size : 1); }
    /// The key light's direction (towards the light), the same as lighting.glsl's kKeyDir.
    static Vec3 keyDirection();

private:
    void allocate(int sizePx);

    std::unique_ptr<GlProgram> m_program;
    unsigned m_framebuffer = 0;
    unsigned m_texture = 0;
    int m_size = 0;
    float m_depthRange = 1.f; ///< m, near-to-far extent of the light's box (for the bias)
    Mat4 m_lightViewProjection;
};

} // namespace drape
