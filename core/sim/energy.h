// The mechanical energy of a simulation's cloths, for summaries and for checking solvers.
#pragma once

namespace drape {

class Simulation;

struct Energy {
    double kinetic = 0.0; ///< J, Σ ½ m |v|² over the free particles
    double gravitational = 0.0; ///< J, Σ −m g·x over the free particles (zero at the origin)
    double elastic = 0.0; ///< J, Σ ½ k (|x_a − x_b| − L)² over constraints with k = 1/compliance > 0
    double total() const { return kinetic + gravitational + elastic; }
};

/// Particles with inverse mass 0 (pinned, static, kinematic) are left out: the solver does not
/// move them by forces, so their energy is not the system's. Rigid constraints (compliance 0)
/// hold no energy.
Energy energyOf(const Simulation &sim);

} // namespace drape
