// Ray tests against collider surfaces, for selecting a collider by clicking it. Each test
// returns the smallest ray parameter t >= 0 at which the ray meets the surface, or a negative
// number when it misses.
#include "edit/pick.h"

#include "base/rotation.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace drape {

namespace {

constexpr float kMiss = -1.f;

// Smallest non-negative root of t² + 2bt + c = 0 (a unit direction), kMiss when none.
float nearestRoot(float b, float c)
{
    const float disc = b * b - c;
    if (disc < 0.f)
        return kMiss;
    const float s = std::sqrt(disc);
    if (-b - s >= 0.f)
        return -b - s;
    return -b + s >= 0.f ? -b + s : kMiss;
}

float raySphere(const Ray &ray, const Vec3 &centre, float radius)
{
    const Vec3 oc = ray.origin - centre;
    return nearestRoot(dot(oc, ray.direction), dot(oc, oc) - radius * radius);
}

// Slab test (Kay & Kajiya 1986) against centre ± half.
float rayBox(const Ray &ray, const Vec3 &centre, const Vec3 &half)
{
    float near = 0.f, far = std::numeric_limits<float>::max();
    const float o[3] = { ray.origin.x - centre.x, ray.origin.y - centre.y, ray.origin.z - centre.z };
    const float d[3] = { ray.direction.x, ray.direction.y, ray.direction.z };
    const float h[3] = { half.x, half.y, half.z };
    for (int i = 0; i < 3; ++i) {
        if (std::abs(d[i]) < 1e-12f) {
            if (std::abs(o[i]) > h[i])
                return kMiss;
            continue;
        }
        float t0 = (-h[i] - o[i]) / d[i], t1 = (h[i] - o[i]) / d[i];
        if (t0 > t1)
            std::swap(t0, t1);
        near = std::max(near, t0);
        far = std::min(far, t1);
        if (near > far)
            return kMiss;
    }
    return near;
}

float rayPlane(const Ray &ray, const Vec3 &point, const Vec3 &normal)
{
    const float dn = dot(ray.direction, normal);
    if (std::abs(dn) < 1e-9f)
        return kMiss;
    const float t = dot(point - ray.origin, normal) / dn;
    return t >= 0.f ? t : kMiss;
}

// The body of the capsule (a cylinder between its end centres) and its two end spheres.
float rayCapsule(const Ray &ray, const Vec3 &centre, const Vec3 &axisIn, float halfLength, float radius)
{
    const Vec3 axis = normalized(axisIn);
    const Vec3 p0 = centre - axis * halfLength;
    float best = kMiss;
    auto keep = [&best](float t) {
        if (t >= 0.f && (best < 0.f || t < best))
            best = t;
    };
    keep(raySphere(ray, p0, radius));
    keep(raySphere(ray, centre + axis * halfLength, radius));
    const Vec3 d = ray.direction - axis * dot(ray.direction, axis);
    const Vec3 o = (ray.origin - p0) - axis * dot(ray.origin - p0, axis);
    const float a = dot(d, d);
    if (a > 1e-12f) {
        const float b = dot(o, d) / a, c = (dot(o, o) - radius * radius) / a;
        const float disc = b * b - c;
        if (disc >= 0.f) {
            for (float t : { -b - std::sqrt(disc), -b + std::sqrt(disc) }) {
                const float s = dot(ray.at(t) - p0, axis);
                if (s >= 0.f && s <= 2.f * halfLength)
                    keep(t);
            }
        }
    }
    return best;
}

// Möller & Trumbore 1997, either side of the triangle.
float rayTriangle(const Ray &ray, const Vec3 &a, const Vec3 &b, const Vec3 &c)
{
    const Vec3 e1 = b - a, e2 = c - a;
    const Vec3 p = cross(ray.direction, e2);
    const float det = dot(e1, p);
    if (std::abs(det) < 1e-12f)
        return kMiss;
    const float inv = 1.f / det;
    const Vec3 s = ray.origin - a;
    const float u = dot(s, p) * inv;
    if (u < 0.f || u > 1.f)
        return kMiss;
    const Vec3 q = cross(s, e1);
    const float v = dot(ray.direction, q) * inv;
    if (v < 0.f || u + v > 1.f)
        return kMiss;
    const float t = dot(e2, q) * inv;
    return t >= 0.f ? t : kMiss;
}

float rayMesh(const Ray &ray, const Collider &c)
{
    if (!c.mesh)
        return kMiss;
    float best = kMiss;
    const std::vector<Vec3> &v = c.mesh->vertices();
    for (const Triangle &tri : c.mesh->triangles()) {
        const float t = rayTriangle(ray, v[tri.v[0]], v[tri.v[1]], v[tri.v[2]]);
        if (t >= 0.f && (best < 0.f || t < best))
            best = t;
    }
    return best;
}

// The ray is tested in the collider's own frame (centre at the origin, unturned), as the
// collision code turns the collider's normal, axis, box and mesh (sim/src/collision.cpp); a
// rotation keeps lengths, so t is the same along the world ray.
float rayCollider(const Ray &world, const Collider &c)
{
    const Mat3 frame = rotationFromEuler(c.rotation);
    const Ray ray { frame.inverseTimes(world.origin - c.center), frame.inverseTimes(world.direction) };
    const Vec3 origin { 0.f, 0.f, 0.f };
    switch (c.kind) {
    case ColliderKind::Plane:
        return rayPlane(ray, origin, normalized(c.normal));
    case ColliderKind::Sphere:
        return raySphere(ray, origin, c.radius);
    case ColliderKind::Box:
        return rayBox(ray, origin, c.halfExtents);
    case ColliderKind::Capsule:
        return rayCapsule(ray, origin, c.axis, c.halfLength, c.radius);
    case ColliderKind::Mesh:
        return rayMesh(ray, c);
    }
    return kMiss;
}

} // namespace

ColliderHit pickCollider(const Simulation &sim, const Ray &ray, const std::vector<bool> &skip)
{
    ColliderHit hit;
    if (!isFinite(ray.origin) || !isFinite(ray.direction))
        return hit;
    for (std::size_t i = 0; i < sim.colliders.size(); ++i) {
        if (i < skip.size() && skip[i])
            continue;
        const float t = rayCollider(ray, sim.colliders[i]);
        if (t >= 0.f && (!hit.found || t < hit.t)) {
            hit.found = true;
            hit.collider = int(i);
            hit.t = t;
        }
    }
    return hit;
}

} // namespace drape
