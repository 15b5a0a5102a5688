// Whether a solver can hold a simulation before it is asked to: the springs solver integrates
// explicitly, and past its stability bound (ω_max·dt > 2, Gershgorin's bound on the stiffness
// of each particle's springs; see solversprings.cpp) the first step blows up. The editor asks
// before switching a scene to springs, instead of letting the user find out.
#pragma once

#include <string>

namespace drape {

class Simulation;

/// Empty when every cloth of `sim` is within the springs solver's stability bound at
/// sim.solver's substeps; otherwise the same message Simulation::step() would stop with,
/// naming the cloth, the particle, the limit and the substeps needed. Does not change `sim`.
std::string springsStabilityProblem(const Simulation &sim);

} // namespace drape
