// Tearing by stretch: constraints strained past their tear strain are removed, together with
// the triangles that used them as an edge. Internal to the core; see tearing.cpp.
#pragma once

#include "sim/cloth.h"

#include <cstdint>
#include <vector>

namespace drape {

/// Strain (|x_a - x_b| - L) / L of a constraint at the current positions (0 for L = 0).
float constraintStrain(const Cloth &cloth, const DistanceConstraint &c);

/// Removes every constraint whose strain exceeds its tearStrain, or whose tension in
/// `tension` (the constraint tensions, sim/tension.h; null: unknown) exceeds its tearForce,
/// and every triangle having a removed constraint as one of its edges; bumps the topology
/// revision when anything was removed. `tension`, when of the constraint count, is compacted
/// with the constraints. `scratch` is reused between calls. Returns the number of
/// constraints removed.
std::uint32_t tearOverstretched(
    Cloth &cloth, std::vector<std::uint64_t> &scratch, std::vector<float> *tension = nullptr);

} // namespace drape
