// Rotations as 3×3 matrices and the Euler angles the editor shows and the scene file stores.
// Angles are degrees about the fixed X, then Y, then Z axes (R = Rz · Ry · Rx), the order a
// user types them in: "rotation [0, 0, 30]" turns an object 30° about the world's up-less Z.
#pragma once

#include "base/vec3.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace drape {

struct Mat3 {
    Vec3 col[3] { { 1.f, 0.f, 0.f }, { 0.f, 1.f, 0.f }, { 0.f, 0.f, 1.f } }; ///< columns (images of X, Y, Z)

    Vec3 operator*(const Vec3 &v) const { return col[0] * v.x + col[1] * v.y + col[2] * v.z; }
    Mat3 operator*(const Mat3 &o) const { return { { *this * o.col[0], *this * o.col[1], *this * o.col[2] } }; }
    /// The inverse of a rotation.
    Mat3 transposed() const
    {
        return { { { col[0].x, col[1].x, col[2].x }, { col[0].y, col[1].y, col[2].y },
            { col[0].z, col[1].z, col[2].z } } };
    }
    /// v through the inverse of this rotation (Rᵀ v).
    Vec3 inverseTimes(const Vec3 &v) const { return { dot(col[0], v), dot(col[1], v), dot(col[2], v) }; }
    bool isIdentity() const { return col[0] == Vec3 { 1.f, 0.f, 0.f } && col[1] == Vec3 { 0.f, 1.f, 0.f }
        && col[2] == Vec3 { 0.f, 0.f, 1.f }; }
};

constexpr float kDegree = std::numbers::pi_v<float> / 180.f;

/// Rotation by `radians` about the unit `axis` (Rodrigues' formula).
inline Mat3 axisRotation(const Vec3 &axis, float radians)
{
    const Vec3 k = normalized(axis);
    const float c = std::cos(radians), s = std::sin(radians);
    auto image = [&](const Vec3 &v) { return v * c + cross(k, v) * s + k * (dot(k, v) * (1.f - c)); };
    return { { image({ 1.f, 0.f, 0.f }), image({ 0.f, 1.f, 0.f }), image({ 0.f, 0.f, 1.f }) } };
}

/// R = Rz(z) · Ry(y) · Rx(x), angles in degrees. Zero angles give exactly the identity.
inline Mat3 rotationFromEuler(const Vec3 &degrees)
{
    if (degrees == Vec3 {})
        return {};
    return axisRotation({ 0.f, 0.f, 1.f }, degrees.z * kDegree) * axisRotation({ 0.f, 1.f, 0.f }, degrees.y * kDegree)
        * axisRotation({ 1.f, 0.f, 0.f }, degrees.x * kDegree);
}

/// The Euler angles (degrees, as rotationFromEuler takes them) of a rotation; y in [-90, 90].
/// At y = ±90° (gimbal lock) x is chosen 0.
inline Vec3 eulerFromRotation(const Mat3 &r)
{
    // Rz·Ry·Rx has row 2 = (-sin y, cos y sin x, cos y cos x) and column 0 = cos y (cos z, sin z, ·).
    const float sy = std::clamp(-r.col[0].z, -1.f, 1.f);
    const float y = std::asin(sy);
    float x = 0.f, z = 0.f;
    if (std::fabs(sy) < 0.99999f) {
        x = std::atan2(r.col[1].z, r.col[2].z);
        z = std::atan2(r.col[0].y, r.col[0].x);
    } else {
        z = std::atan2(-r.col[1].x, r.col[1].y);
    }
    return Vec3 { x, y, z } / kDegree;
}

} // namespace drape
