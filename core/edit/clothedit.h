// Exact, reversible edits of a running cloth.
//
// Every editing operation (pin, unpin, move a pin, change a mass, add / remove / change
// constraints, cut) is split in two halves, the way Tiled splits a command from its effect:
//
//   1. a make...() function looks at a const Cloth, validates the request and returns a
//      ClothEdit: a record of everything that will change, with the values before AND after;
//   2. apply(cloth, edit) performs it; revert(cloth, edit) undoes it.
//
// A ClothEdit holds whole records (not deltas), so revert() restores the cloth bit for bit,
// array order included, and apply() after revert() gives back the edited cloth bit for bit.
// An undo command stores one ClothEdit and calls apply() in redo() and revert() in undo().
//
// Removal is a stable compaction: surviving constraints and triangles keep their relative
// order, so the old→new index map (constraintIndexMap, triangleIndexMap) is monotonic and
// deterministic; selections and other undo records are remapped through it.
#pragma once

#include "sim/cloth.h"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace drape {

/// Index-map entry of an item that was removed.
constexpr std::uint32_t kRemovedIndex = 0xffffffffu;

/// Everything about one particle that an edit may change (not its rest position, which is
/// authoring data).
struct ParticleRecord {
    Vec3 position;
    Vec3 previous;
    Vec3 velocity;
    float mass = 0.f;
    float invMass = 0.f;
    ParticleKind kind = ParticleKind::Dynamic;

    bool operator==(const ParticleRecord &) const = default;
};

/// The record of particle i as it is now, and writing one back (all six attributes).
ParticleRecord particleRecord(const Particles &p, std::uint32_t i);
void storeParticleRecord(Particles &p, std::uint32_t i, const ParticleRecord &r);

struct ParticleChange {
    std::uint32_t index = 0;
    ParticleRecord before;
    ParticleRecord after;

    bool operator==(const ParticleChange &) const = default;
};

/// A constraint changed in place (rest length, compliance, damping, tear strain, kind).
/// `index` is its index in the array before any removal of the same edit.
struct ConstraintChange {
    std::uint32_t index = 0;
    DistanceConstraint before;
    DistanceConstraint after;

    bool operator==(const ConstraintChange &) const = default;
};

struct IndexedConstraint {
    std::uint32_t index = 0; ///< removed: index before the edit; added: index after it
    DistanceConstraint constraint;

    bool operator==(const IndexedConstraint &) const = default;
};

struct IndexedTriangle {
    std::uint32_t index = 0; ///< removed: index before the edit; added: index after it
    Triangle triangle;

    bool operator==(const IndexedTriangle &) const = default;
};

/// What one edit changes. apply() performs, in order: particle changes, in-place constraint
/// changes, constraint removals, constraint insertions, triangle removals, triangle
/// insertions. revert() undoes them in the opposite order. Index lists are sorted ascending.
struct ClothEdit {
    std::vector<ParticleChange> particles;
    std::vector<ConstraintChange> changedConstraints;
    std::vector<IndexedConstraint> removedConstraints;
    std::vector<IndexedConstraint> addedConstraints;
    std::vector<IndexedTriangle> removedTriangles;
    std::vector<IndexedTriangle> addedTriangles;

    bool operator==(const ClothEdit &) const = default;

    bool empty() const;
    /// True when constraints or triangles are added or removed (renderers rebuild indices).
    bool changesTopology() const;
};

/// An edit, or why it could not be made (the error names the index and the value).
struct ClothEditResult {
    ClothEdit edit;
    std::string error;

    bool ok() const { return error.empty(); }
};

/// Performs `edit`; `cloth` must be in the state the edit was made against. Returns an empty
/// string, or an error (nothing changed) when the edit does not fit the cloth (index out of range).
std::string apply(Cloth &cloth, const ClothEdit &edit);
/// Undoes `edit`; `cloth` must be in the state apply() left it in.
std::string revert(Cloth &cloth, const ClothEdit &edit);

/// old index → new index after apply(), kRemovedIndex for removed items. `oldCount` is the
/// number of constraints / triangles before the edit.
std::vector<std::uint32_t> constraintIndexMap(const ClothEdit &edit, std::size_t oldCount);
std::vector<std::uint32_t> triangleIndexMap(const ClothEdit &edit, std::size_t oldCount);
/// Remaps a list of indices through `map`, dropping removed ones (selections, pins).
std::vector<std::uint32_t> remapIndices(
    std::span<const std::uint32_t> indices, std::span<const std::uint32_t> map);

// ---- operations: each returns the edit to apply, or an error -------------------------------

/// Pins (Static, invMass 0) or unpins (Dynamic, invMass = 1 / mass) particles. Pinning also
/// stops the particle (velocity 0, previous = position) so it does not carry momentum into a
/// later unpin. Particles already of that kind are left out of the edit.
ClothEditResult makeSetKind(const Cloth &cloth, std::span<const std::uint32_t> particles, ParticleKind kind);

/// Moves particles (typically pins, e.g. curtain hooks) to `positions`, at rest there.
ClothEditResult makeMoveParticles(
    const Cloth &cloth, std::span<const std::uint32_t> particles, std::span<const Vec3> positions);

/// Sets the mass (kg, > 0 and finite) of particles; invMass follows unless the particle is pinned.
ClothEditResult makeSetMass(const Cloth &cloth, std::span<const std::uint32_t> particles, float massKg);

/// Settings of a constraint added by hand (sewing, the constraint tool).
struct NewConstraintDef {
    float restLength = -1.f; ///< m; < 0 means the current distance between the particles
    float compliance = 0.f; ///< m/N (0 = rigid)
    float damping = 0.f; ///< N·s/m
    float tearStrain = kNeverTear; ///< strain at which it tears
    ConstraintKind kind = ConstraintKind::User;
};

/// Appends a constraint between particles a and b (a != b).
ClothEditResult makeAddConstraint(
    const Cloth &cloth, std::uint32_t a, std::uint32_t b, const NewConstraintDef &def = {});

/// Removes constraints by index (duplicates ignored). With `removeOrphanTriangles`, triangles
/// that lose an edge are removed too (the tearing rule; see trianglesLosingEdges).
ClothEditResult makeRemoveConstraints(
    const Cloth &cloth, std::span<const std::uint32_t> indices, bool removeOrphanTriangles = true);

/// Property changes of constraints; unset fields keep their value.
struct ConstraintProps {
    std::optional<float> restLength; ///< m, >= 0
    std::optional<float> compliance; ///< m/N, >= 0
    std::optional<float> damping; ///< N·s/m, >= 0
    std::optional<float> tearStrain; ///< > 0, +inf = never tears
    std::optional<ConstraintKind> kind;
};
ClothEditResult makeChangeConstraints(
    const Cloth &cloth, std::span<const std::uint32_t> indices, const ConstraintProps &props);

/// Triangles (ascending indices) that have an edge whose particles were joined by one of the
/// `removed` constraints and are joined by none of the constraints that remain. A triangle
/// edge that never had a constraint does not count, so cloths without shear constraints
/// keep triangles whose diagonal is crossed; their other edges are.
std::vector<std::uint32_t> trianglesLosingEdges(const Cloth &cloth, std::span<const std::uint32_t> removed);

} // namespace drape
