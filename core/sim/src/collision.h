// Collision response between a cloth's particles and the colliders, and within a cloth
// (self-collision). Position-level projection with Coulomb friction, then a velocity pass
// for restitution. Internal to the core.
#pragma once

#include "sim/cloth.h"
#include "sim/collider.h"
#include "solvercache.h"

#include <vector>

namespace drape::detail {

/// The collider's state at the time of one substep (its motion evaluated at t).
ColliderState colliderStateAt(const Collider &collider, double t);

/// Pushes every dynamic particle out of (or, for keepInside boxes, back into) the colliders,
/// keeping cloth.thickness + collider thickness clear of the surface. When `friction` is
/// true the tangential displacement over the substep (relative to the collider) is reduced by
/// Coulomb friction, μ × penetration depth. Records contacts in the cache.
void projectColliders(Cloth &cloth, ClothSolverCache &cache, const ColliderState *colliders,
    std::size_t colliderCount, double dt, bool friction);

/// Coarse cloth against the sharp vertices of a mesh collider: a mesh tip under the inside of a
/// cloth triangle, nearer than the margins, moves the triangle's corners (by barycentric
/// weight and inverse mass) until the sheet clears it, so a tip cannot poke through the
/// sheet between particles.
void projectSharpVertices(Cloth &cloth, const ColliderState &collider);

/// After velocities were derived from positions: the normal velocity of each particle in
/// contact becomes -restitution × its approach speed (relative to the collider), and a
/// separating speed beyond that (from pushing out of a deep overlap) is removed. `previous`
/// is rewritten as x - v dt for the particles it changed when `keepPrevious`.
void applyRestitution(Cloth &cloth, ClothSolverCache &cache, const ColliderState *colliders, double dt,
    float restingSpeed, bool keepPrevious);

/// Velocity-level contact for the springs solver: removes approaching normal velocity,
/// applies Coulomb friction on the tangential velocity (static: |v_t| <= μ_s |v_n| stops it
/// and undoes the substep's tangential slide; kinetic: takes μ_k |v_n| off) and restitution.
void applyContactVelocities(
    Cloth &cloth, ClothSolverCache &cache, const ColliderState *colliders, float restingSpeed, double dt);

/// Particle-particle self-collision: particles closer than `minDistance` that share no
/// constraint are pushed apart, weighted by inverse mass. Candidate pairs within twice
/// `minDistance` are gathered with a spatial hash built by counting sort (so the pair order,
/// and the result, is deterministic) and reused over substeps until two particles may have
/// closed in by a `minDistance`. The particles moved are listed in
/// ClothSolverCache::selfPushed. Returns the number of pairs separated.
std::uint32_t solveSelfCollision(Cloth &cloth, ClothSolverCache &cache, float minDistance);

/// The self-collision distance used for a cloth: 2 × thickness, capped below the shortest
/// structural/shear rest length so a cloth at rest never collides with itself.
float selfCollisionDistance(const Cloth &cloth, const ClothSolverCache &cache);

} // namespace drape::detail
