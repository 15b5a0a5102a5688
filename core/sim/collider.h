// Colliders the cloth collides with: a ground plane, spheres, a box that either keeps the
// cloth inside (the tearable-cloth canvas bounds) or out, capsules and triangle meshes. Each
// has a rotation: its normal, axis, box sides and mesh vertices are given in the collider's
// own frame and turned by it about the centre.
#pragma once

#include "base/vec3.h"
#include "sim/trianglemesh.h"

#include <cstdint>
#include <string>

namespace drape {

enum class ColliderKind : std::uint8_t {
    Plane = 0,  ///< infinite plane through `center` with normal `normal`; cloth stays on the normal side
    Sphere = 1, ///< ball of `radius` at `center`
    Box = 2,    ///< box `center` ± `halfExtents` along the collider's rotated axes
    Capsule = 3, ///< points within `radius` of the segment `center` ± `halfLength` · `axis`
    Mesh = 4,   ///< triangle mesh `mesh`, its vertices relative to `center`; cloth stays on the outer side
};

/// Optional motion of a collider, evaluated from simulation time so runs stay deterministic:
/// center(t) = baseCenter + amplitude * sin(2π frequency t + phase).
struct ColliderMotion {
    Vec3 amplitude{0.f, 0.f, 0.f}; ///< m
    float frequency = 0.f;          ///< Hz (0 = still)
    float phase = 0.f;              ///< rad

    bool operator==(const ColliderMotion &) const = default;
    bool moving() const { return frequency != 0.f && lengthSquared(amplitude) > 0.f; }
};

struct Collider {
    std::string name;
    ColliderKind kind = ColliderKind::Sphere;
    Vec3 center{0.f, 0.f, 0.f};      ///< m; the current centre (moves with `motion`)
    Vec3 baseCenter{0.f, 0.f, 0.f};  ///< m; the centre at rest, that `motion` oscillates about
    Vec3 normal{0.f, 1.f, 0.f};      ///< plane normal (unit)
    float radius = 0.25f;            ///< m (sphere)
    Vec3 halfExtents{1.f, 1.f, 1.f}; ///< m (box)
    bool keepInside = false;         ///< box: cloth stays inside (bounds that bounce) instead of outside
    Vec3 axis{0.f, 1.f, 0.f};        ///< capsule axis (normalised on use)
    float halfLength = 0.25f;        ///< m, capsule: half the length of its core segment
    MeshRef mesh;                    ///< mesh: shared, immutable triangles (vertices in m, relative to center)
    /// degrees about X, then Y, then Z (base/rotation.h): turns the normal, the capsule axis,
    /// the box and the mesh about the centre; zero = as given (files from before the key)
    Vec3 rotation{0.f, 0.f, 0.f};
    float thickness = 0.005f;        ///< m, extra margin kept between cloth and surface
    float friction = 0.3f;           ///< kinetic Coulomb friction coefficient μ_k, 0..∞ (typically 0..1)
    /// Static Coulomb coefficient μ_s (cloth at rest holds on a slope while tanθ < μ_s);
    /// negative = the same as `friction`, the single coefficient of scenes made before it.
    float staticFriction = -1.f;
    float restitution = 0.f;         ///< 0..1, fraction of normal speed kept on bounce
    ColliderMotion motion;
    Vec3 velocity{0.f, 0.f, 0.f};    ///< m/s, derived from motion each step (used for friction)
    bool hidden = false;             ///< not drawn in the editor's viewport (still collides); presentation only

    bool operator==(const Collider &) const = default;

    /// Moves the collider to its position at time t (s) and sets its velocity.
    void updateMotion(double t);
};

} // namespace drape
