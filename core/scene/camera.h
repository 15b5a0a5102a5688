// The editor's orbit camera, Qt-free so that its maths is unit-tested without a display and
// shared by the viewport (interactive) and `drape render` (headless).
//
// Turntable model: the eye orbits `target` at `distance`; yaw turns about world +Y, pitch
// tilts up/down (clamped to ±90° so the view never rolls over). Matrices follow OpenGL
// conventions: right-handed eye space looking down -Z, clip space z in [-w, w], column-major
// storage (m[column * 4 + row]) so they upload with glUniformMatrix4fv(..., GL_FALSE, m).
#pragma once

#include "base/ray.h"
#include "scene/scene.h"
#include "base/vec3.h"

namespace drape {

struct Mat4 {
    float m[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}; ///< column-major, identity by default

    float &at(int row, int col) { return m[col * 4 + row]; }
    float at(int row, int col) const { return m[col * 4 + row]; }

    Mat4 operator*(const Mat4 &o) const;
    /// Transforms a point (w = 1) and divides by the resulting w.
    Vec3 transformPoint(const Vec3 &p) const;
    /// Transforms a direction (w = 0), no division.
    Vec3 transformDirection(const Vec3 &d) const;
    /// Transforms (p, 1) and returns the clip-space w; `xyz` gets the undivided x, y, z.
    float transformClip(const Vec3 &p, Vec3 *xyz) const;
};

enum class CameraView : int { Front = 0, Side = 1, Top = 2 };

class Camera {
public:
    Camera() = default;
    explicit Camera(const CameraDesc &desc) : m_desc(desc) {}

    const CameraDesc &desc() const { return m_desc; }
    void setDesc(const CameraDesc &desc) { m_desc = desc; }

    Vec3 eye() const;
    Vec3 forward() const; ///< unit view direction
    Vec3 right() const;   ///< unit, horizontal
    Vec3 up() const;      ///< unit, completes the right-handed frame

    Mat4 view() const;
    Mat4 projection(float aspect) const;
    float nearPlane() const; ///< m
    float farPlane() const;  ///< m

    /// The ray through point (x, y) of a width × height image (y down, origin top-left; any
    /// unit as long as all four agree). Perspective rays start at the eye; orthographic rays
    /// are parallel to forward() and start on the plane through the eye.
    Ray rayThrough(float x, float y, float width, float height) const;
    /// Projects a world point into image coordinates; false when it lies behind the eye.
    /// `depth` gets the window depth in [0, 1] (0 = near plane).
    bool project(const Vec3 &p, float width, float height, float *x, float *y, float *depth = nullptr) const;

    /// Turntable orbit by degrees; pitch is clamped to ±90°. The target and distance stay.
    void orbit(float yawDegrees, float pitchDegrees);
    /// Moves the target so the scene follows a drag of (dx, dy) in image units (y down).
    void pan(float dx, float dy, float width, float height);
    /// Scales the distance (or the orthographic height) by `factor` (< 1 zooms in) while the
    /// point under (x, y) on the plane through the target stays under the cursor.
    void zoomToward(float x, float y, float width, float height, float factor);
    /// Aims at the centre of the box and backs off until the whole box is visible.
    void frameBounds(const Vec3 &min, const Vec3 &max, float aspect);
    /// Front (looking along -Z), side (from +X, looking along -X) or top (looking down).
    void setView(CameraView view);

    static constexpr float kMinDistance = 0.05f; ///< m
    static constexpr float kMaxDistance = 500.f; ///< m

private:
    float visibleHeightAtTarget() const; ///< m, height of the view at the target's depth

    CameraDesc m_desc;
};

} // namespace drape
