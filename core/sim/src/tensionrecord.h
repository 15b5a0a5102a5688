// Solver side of the tension readout (see tension.cpp). Internal to the core.
#pragma once

#include "sim/cloth.h"
#include "xpbdbatch.h"

namespace drape::detail {

/// Sizes Cloth::tension to the constraints and zeroes it (start of a substep's solve).
void resetTension(Cloth &cloth);
/// Tension of every constraint from the XPBD multipliers of the substep just solved: -λ/Δt².
void recordXpbdTension(Cloth &cloth, const XpbdBatches &batches, float dt, XpbdWorker *team = nullptr);
/// Tension of every constraint from the Verlet passes of the substep just relaxed: the sum of
/// their corrections as forces, which the passes kept in the slots' λ.
void recordVerletTension(Cloth &cloth, const XpbdBatches &batches, XpbdWorker *team = nullptr);

} // namespace drape::detail
