// Per-frame totals of a running simulation for `drape simulate --report`: energy, the largest
// strain and stress, what the pins hold and what tore. Plain numbers in SI units, computed
// from the state and the constraint tensions the solvers keep (sim/tension.h).
#pragma once

#include "scene/scene.h"

#include <cstdint>
#include <string>
#include <vector>

namespace drape {

struct FrameTotals {
    std::uint64_t frame = 0;
    double time = 0.0; ///< s
    double kineticEnergy = 0.0; ///< J, Σ ½ m v²
    double potentialEnergy = 0.0; ///< J, Σ -m g·x (relative to the origin)
    double elasticEnergy = 0.0; ///< J, Σ ½ k (|d| - L)² over compliant constraints
    double maxStrain = 0.0; ///< largest (|d| - L)/L of any constraint
    double maxStress = 0.0; ///< N/m, largest tension per unit width of any constraint
    Vec3 pinReaction; ///< N, sum of the forces all pins exert on the cloths
    std::uint32_t pins = 0; ///< pinned particles holding a constraint
    std::uint32_t torn = 0; ///< constraints torn during the frame
    std::uint32_t splits = 0; ///< particle splits during the frame
};

/// Totals of the simulation's current state and last step. The stress width of each cloth is
/// its particle spacing (clothSpacing), the strip width its constraints stand for.
FrameTotals frameTotals(const Scene &scene, const Simulation &sim);

/// The report as JSON: {"format": "drape-report", "version": 1, "units": ..., "frames": [...]}.
std::string reportJson(const std::vector<FrameTotals> &frames);

} // namespace drape
