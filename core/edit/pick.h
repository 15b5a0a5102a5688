// Picking and selecting particles and constraints: what is under the cursor (a ray from the
// camera), what lies within a radius of a point, what satisfies a predicate (box selection
// done in screen space by the UI). Read-only; nothing here changes a cloth.
#pragma once

#include "base/ray.h"
#include "sim/simulation.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace drape {

/// How far from the ray something may be and still be hit. The tolerance grows with the
/// distance along the ray so a fixed pixel radius works with a perspective camera:
/// tolerance(t) = radius + radiusPerMeter * t.
struct PickSettings {
    float radius = 0.02f; ///< m, tolerance at the ray origin (> 0)
    float radiusPerMeter = 0.f; ///< m per m along the ray (pixel radius / focal length in px); >= 0
    float maxDistance = 1e6f; ///< m, nothing beyond this along the ray
};

/// The particle under a ray. Among the particles within tolerance in front of the ray origin,
/// the front-most one sets the depth; among those no deeper than it plus its tolerance, the
/// one closest to the ray wins (so the particle under the cursor is picked, not an
/// arbitrary neighbour on the same sheet that happens to be a hair nearer the camera).
struct ParticleHit {
    bool found = false;
    int cloth = -1; ///< index into Simulation::cloths
    std::uint32_t particle = 0;
    float t = 0.f; ///< m, ray parameter of the closest approach
    Vec3 point; ///< m, the particle's position
    float distance = 0.f; ///< m, perpendicular distance from the ray
    std::string error; ///< set when the request was invalid (found is false)
};

/// The constraint under a ray (segment–ray distance), same depth rule as particles.
struct ConstraintHit {
    bool found = false;
    int cloth = -1;
    std::uint32_t constraint = 0;
    float t = 0.f; ///< m, ray parameter of the closest approach
    Vec3 point; ///< m, closest point on the constraint's segment
    float distance = 0.f; ///< m, segment–ray distance
    std::string error;
};

ParticleHit pickParticle(const Simulation &sim, const Ray &ray, const PickSettings &settings = {});
ConstraintHit pickConstraint(const Simulation &sim, const Ray &ray, const PickSettings &settings = {});

/// The collider under a ray: the nearest surface the ray enters (a plane from either side).
struct ColliderHit {
    bool found = false;
    int collider = -1; ///< index into Simulation::colliders
    float t = 0.f;     ///< m, ray parameter of the hit
};

/// Ray test against every collider's surface at its current centre (spheres, axis-aligned
/// boxes, capsules and planes analytically, meshes triangle by triangle); colliders with
/// `skip[i]` set (hidden in the viewport) are not hit. The ray direction must be unit.
ColliderHit pickCollider(const Simulation &sim, const Ray &ray, const std::vector<bool> &skip = {});

/// A particle of a simulation.
struct ParticleRef {
    int cloth = 0;
    std::uint32_t particle = 0;

    bool operator==(const ParticleRef &) const = default;
};

/// Particles of one cloth within `radius` (m, > 0) of `centre`, ascending. Empty on bad input.
std::vector<std::uint32_t> particlesWithin(const Cloth &cloth, const Vec3 &centre, float radius);
/// Across all cloths, ordered by cloth then particle.
std::vector<ParticleRef> particlesWithin(const Simulation &sim, const Vec3 &centre, float radius);
/// Particles whose position satisfies `inside` (e.g. "projects into the selection rectangle").
std::vector<std::uint32_t> particlesWhere(
    const Cloth &cloth, const std::function<bool(const Vec3 &)> &inside);
std::vector<ParticleRef> particlesWhere(
    const Simulation &sim, const std::function<bool(const Vec3 &)> &inside);

/// Validates a pick request; empty when fine.
std::string validatePick(const Ray &ray, const PickSettings &settings);

} // namespace drape
