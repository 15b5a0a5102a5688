// Tearing by vertex splitting along the tension plane. Declared here so the solver can call
// it; see vertexsplit.cpp for the method and its design note, docs/tearing.md for the long form.
#pragma once

#include "sim/cloth.h"
#include "edit/clothedit.h" // kRemovedIndex

#include <cstdint>
#include <vector>

namespace drape {

/// One split: particle `original` kept some of its triangles; `created` (appended at the end
/// of the particle arrays) took the others. Particles are never reordered, so every index
/// below the old particle count keeps its meaning; this list is the old→new map.
struct ParticleSplit {
    std::uint32_t original = 0;
    std::uint32_t created = 0;

    bool operator==(const ParticleSplit &) const = default;
};

struct SplitReport {
    std::vector<ParticleSplit> splits; ///< in the order they happened
    bool capped = false; ///< stopped at maxSplits with constraints still over their limit
    /// Empty when no constraint was removed: then every constraint kept its index and the
    /// call only appended constraints (copies of edges shared by both sides of a split).
    /// Otherwise one entry per constraint that existed before the call: its new index, or
    /// kRemovedIndex for a constraint that pulled across a tear and was removed. Removal is
    /// a stable compaction (survivors keep their order); constraints appended by the call
    /// follow the survivors. Triangles are never added, removed or reordered (a split only
    /// re-points some of their corners to the created particle).
    std::vector<std::uint32_t> constraintMap;
    /// Constraints added by the call and still present (the last ones of the array). A copy
    /// made and removed again within the call is counted nowhere.
    std::uint32_t appendedConstraints = 0;
    std::uint32_t removedConstraints = 0; ///< constraints of before the call that it removed

    bool empty() const { return splits.empty() && constraintMap.empty(); }
};

/// Splits particles of constraints stretched past their tear strain, or pulling harder than
/// their tear force by `tension` (the constraint tensions, sim/tension.h; null: unknown)
/// (cloth.tearMode == SplitVertex; any other mode does nothing), at most `maxSplits` times,
/// most strained constraint first. Bumps the topology revision when anything changed. Total
/// mass and momentum are conserved exactly up to float rounding; the result is deterministic.
SplitReport splitOverstretched(Cloth &cloth, int maxSplits, const std::vector<float> *tension = nullptr);

/// True when constraint `c` of `cloth` is stretched past its tear strain:
/// (|x_a - x_b| - L) / L > tearStrain. Never true for tearStrain = +inf or L <= 0.
bool isOverstretched(const Cloth &cloth, const DistanceConstraint &c);

} // namespace drape
