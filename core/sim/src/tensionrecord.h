// Solver side of the tension readout (see tension.cpp). Internal to the core.
#pragma once

#include "sim/cloth.h"
#include "solvercache.h"

#include <vector>

namespace drape::detail {

/// Sizes ClothSolverCache::tension to the constraints, zeroes it and keeps it as the
/// readout (the springs solver's force pass fills it).
void resetTension(const Cloth &cloth, ClothSolverCache &cache);
/// Tension of every constraint from the XPBD multipliers of the substep just solved, -λ/Δt²,
/// written into ClothSolverCache::tension (for tearing within the frame).
void recordXpbdTension(const Cloth &cloth, ClothSolverCache &cache, float dt, XpbdWorker *team = nullptr);
/// Tension of every constraint from the Verlet passes of the substep just relaxed: the sum of
/// their corrections as forces, which the passes kept in the slots' λ; written as above.
void recordVerletTension(const Cloth &cloth, ClothSolverCache &cache, XpbdWorker *team = nullptr);
/// The last substep's readout left in the streams' multipliers, to be made on request
/// (-λ/Δt² for XPBD, λ for Verlet). Call after the last substep when nothing later in the
/// frame reads the tension or lays the streams out again.
void keepXpbdTension(const Cloth &cloth, ClothSolverCache &cache, float dt);
void keepVerletTension(const Cloth &cloth, ClothSolverCache &cache);
/// After tearing removed constraints (tearOverstretched, which compacts the record with
/// them): the record stays the readout of what is left, if there was one.
void keepTornTension(const Cloth &cloth, ClothSolverCache &cache);
/// The readout is unknown until the next solve (after a vertex split or a blow-up).
void forgetTension(ClothSolverCache &cache);
/// The readout within the frame, for tearing by tension: ClothSolverCache::tension while it
/// is kept per constraint, else nullptr (unknown).
const std::vector<float> *tensionWithinFrame(const Cloth &cloth, const ClothSolverCache &cache);
/// The readout as Simulation::constraintTensions gives it.
void readTension(const Cloth &cloth, const ClothSolverCache &cache, std::vector<float> &out);

} // namespace drape::detail
