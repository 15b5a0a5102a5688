#include "scene/camera.h"

#include <algorithm>
#include <cmath>

namespace drape {

namespace {

constexpr float kDegToRad = 3.14159265358979f / 180.f;

} // namespace

Mat4 Mat4::operator*(const Mat4 &o) const
{
    Mat4 r;
    for (int row = 0; row < 4; ++row) {
        for (int col = 0; col < 4; ++col) {
            float s = 0.f;
            for (int k = 0; k < 4; ++k)
                s += at(row, k) * o.at(k, col);
            r.at(row, col) = s;
        }
    }
    return r;
}

float Mat4::transformClip(const Vec3 &p, Vec3 *xyz) const
{
    const float x = at(0, 0) * p.x + at(0, 1) * p.y + at(0, 2) * p.z + at(0, 3);
    const float y = at(1, 0) * p.x + at(1, 1) * p.y + at(1, 2) * p.z + at(1, 3);
    const float z = at(2, 0) * p.x + at(2, 1) * p.y + at(2, 2) * p.z + at(2, 3);
    const float w = at(3, 0) * p.x + at(3, 1) * p.y + at(3, 2) * p.z + at(3, 3);
    if (xyz)
        *xyz = {x, y, z};
    return w;
}

Vec3 Mat4::transformPoint(const Vec3 &p) const
{
    Vec3 xyz;
    const float w = transformClip(p, &xyz);
    return w != 0.f ? xyz / w : xyz;
}

Vec3 Mat4::transformDirection(const Vec3 &d) const
{
    return {at(0, 0) * d.x + at(0, 1) * d.y + at(0, 2) * d.z,
            at(1, 0) * d.x + at(1, 1) * d.y + at(1, 2) * d.z,
            at(2, 0) * d.x + at(2, 1) * d.y + at(2, 2) * d.z};
}

Vec3 Camera::forward() const
{
    const float yaw = m_desc.yaw * kDegToRad;
    const float pitch = m_desc.pitch * kDegToRad;
    return {-std::sin(yaw) * std::cos(pitch), -std::sin(pitch), -std::cos(yaw) * std::cos(pitch)};
}

Vec3 Camera::right() const
{
    // forward × +Y, normalised; independent of pitch, so it stays defined looking straight down.
    const float yaw = m_desc.yaw * kDegToRad;
    return {std::cos(yaw), 0.f, -std::sin(yaw)};
}

Vec3 Camera::up() const { return cross(right(), forward()); }

Vec3 Camera::eye() const { return m_desc.target - forward() * m_desc.distance; }

float Camera::nearPlane() const
{
    if (m_desc.orthographic)
        return 0.01f;
    return std::clamp(m_desc.distance * 0.01f, 0.005f, 1.f);
}

float Camera::farPlane() const { return m_desc.distance * 20.f + 200.f; }

Mat4 Camera::view() const
{
    const Vec3 r = right(), u = up(), f = forward(), e = eye();
    Mat4 v;
    v.at(0, 0) = r.x;  v.at(0, 1) = r.y;  v.at(0, 2) = r.z;  v.at(0, 3) = -dot(r, e);
    v.at(1, 0) = u.x;  v.at(1, 1) = u.y;  v.at(1, 2) = u.z;  v.at(1, 3) = -dot(u, e);
    v.at(2, 0) = -f.x; v.at(2, 1) = -f.y; v.at(2, 2) = -f.z; v.at(2, 3) = dot(f, e);
    return v;
}

Mat4 Camera::projection(float aspect) const
{
    aspect = aspect > 0.f ? aspect : 1.f;
    const float n = nearPlane(), f = farPlane();
    Mat4 p;
    if (m_desc.orthographic) {
        const float top = m_desc.orthoHeight * 0.5f, rightExtent = top * aspect;
        p.at(0, 0) = 1.f / rightExtent;
        p.at(1, 1) = 1.f / top;
        p.at(2, 2) = -2.f / (f - n);
        p.at(2, 3) = -(f + n) / (f - n);
        return p;
    }
    // The classic gluPerspective matrix.
    const float t = 1.f / std::tan(m_desc.fovY * kDegToRad * 0.5f);
    p.at(0, 0) = t / aspect;
    p.at(1, 1) = t;
    p.at(2, 2) = (f + n) / (n - f);
    p.at(2, 3) = 2.f * f * n / (n - f);
    p.at(3, 2) = -1.f;
    p.at(3, 3) = 0.f;
    return p;
}

float Camera::visibleHeightAtTarget() const
{
    if (m_desc.orthographic)
        return m_desc.orthoHeight;
    return 2.f * m_desc.distance * std::tan(m_desc.fovY * kDegToRad * 0.5f);
}

Ray Camera::rayThrough(float x, float y, float width, float height) const
{
    width = width > 0.f ? width : 1.f;
    height = height > 0.f ? height : 1.f;
    const float aspect = width / height;
    const float nx = 2.f * x / width - 1.f;
    const float ny = 1.f - 2.f * y / height;
    Ray ray;
    if (m_desc.orthographic) {
        const float halfH = m_desc.orthoHeight * 0.5f;
        ray.origin = eye() + right() * (nx * halfH * aspect) + up() * (ny * halfH);
        ray.direction = forward();
    } else {
        const float t = std::tan(m_desc.fovY * kDegToRad * 0.5f);
        ray.origin = eye();
        ray.direction = normalized(forward() + right() * (nx * t * aspect) + up() * (ny * t));
    }
    return ray;
}

bool Camera::project(const Vec3 &p, float width, float height, float *x, float *y, float *depth) const
{
    const float aspect = height > 0.f ? width / height : 1.f;
    const Mat4 vp = projection(aspect) * view();
    Vec3 clip;
    const float w = vp.transformClip(p, &clip);
    if (w <= 1e-9f)
        return false;
    const Vec3 ndc = clip / w;
    if (x)
        *x = (ndc.x + 1.f) * 0.5f * width;
    if (y)
        *y = (1.f - ndc.y) * 0.5f * height;
    if (depth)
        *depth = ndc.z * 0.5f + 0.5f;
    return true;
}

void Camera::orbit(float yawDegrees, float pitchDegrees)
{
    m_desc.yaw = std::remainder(m_desc.yaw + yawDegrees, 360.f);
    m_desc.pitch = std::clamp(m_desc.pitch + pitchDegrees, -90.f, 90.f);
}

void Camera::pan(float dx, float dy, float width, float height)
{
    if (height <= 0.f)
        return;
    const float metresPerUnit = visibleHeightAtTarget() / height;
    m_desc.target = m_desc.target - right() * (dx * metresPerUnit) + up() * (dy * metresPerUnit);
    (void)width;
}

void Camera::zoomToward(float x, float y, float width, float height, float factor)
{
    if (!(factor > 0.f) || !std::isfinite(factor))
        return;
    // The point under the cursor on the plane through the target facing the camera.
    const Ray ray = rayThrough(x, y, width, height);
    const Vec3 f = forward();
    const float denom = dot(ray.direction, f);
    Vec3 anchor = m_desc.target;
    if (std::abs(denom) > 1e-6f)
        anchor = ray.at(dot(m_desc.target - ray.origin, f) / denom);

    if (m_desc.orthographic) {
        const float h = std::clamp(m_desc.orthoHeight * factor, 0.01f, 2.f * kMaxDistance);
        factor = h / m_desc.orthoHeight;
        m_desc.orthoHeight = h;
    } else {
        const float d = std::clamp(m_desc.distance * factor, kMinDistance, kMaxDistance);
        factor = d / m_desc.distance;
        m_desc.distance = d;
    }
    // Scaling about the anchor moves the eye along the anchor's line of sight (perspective)
    // or keeps its offset in view units (orthographic), so the anchor keeps its pixel.
    m_desc.target = anchor + (m_desc.target - anchor) * factor;
}

void Camera::frameBounds(const Vec3 &min, const Vec3 &max, float aspect)
{
    aspect = aspect > 0.f ? aspect : 1.f;
    const Vec3 center = (min + max) * 0.5f;
    const float radius = std::max(length(max - min) * 0.5f, 0.05f);
    m_desc.target = center;
    const float margin = 1.08f;
    if (m_desc.orthographic) {
        // The bounding sphere fits in both directions.
        m_desc.orthoHeight = 2.f * radius * margin * std::max(1.f, 1.f / aspect);
        m_desc.distance = std::max(m_desc.distance, radius * 2.f + 1.f);
        return;
    }
    const float halfY = m_desc.fovY * kDegToRad * 0.5f;
    const float halfX = std::atan(std::tan(halfY) * aspect);
    const float half = std::min(halfX, halfY);
    m_desc.distance = std::clamp(radius * margin / std::sin(half), kMinDistance, kMaxDistance);
}

void Camera::setView(CameraView view)
{
    switch (view) {
    case CameraView::Front: m_desc.yaw = 0.f; m_desc.pitch = 0.f; break;
    case CameraView::Side: m_desc.yaw = 90.f; m_desc.pitch = 0.f; break;
    case CameraView::Top: m_desc.yaw = 0.f; m_desc.pitch = 90.f; break;
    }
}

} // namespace drape
