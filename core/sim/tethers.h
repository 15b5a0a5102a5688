// Long-range attachments (tethers): Kim, Chentanez and Müller 2012, "Long Range Attachments —
// A Method to Simulate Inextensible Clothing in Computer Games" (SCA). Every free particle
// is tied to its nearest pinned particle, nearest along the cloth (geodesic rest distance),
// by a one-sided constraint |x_i - x_anchor| <= s d_i with s = Cloth::tetherStretch. Projected
// after the distance constraints of every substep, it holds a hanging cloth to its stretch
// limit at any iteration count. See docs/solvers.md, "Tethers".
#pragma once

#include "sim/cloth.h"

#include <cstdint>
#include <vector>

namespace drape {

/// The attachments of one cloth, rebuilt when its topology or its set of pinned particles
/// changes (a tear, a cut, a pin added or removed).
struct Tethers {
    std::uint64_t key = ~std::uint64_t(0); ///< topology revision and pinned set they were built for
    std::vector<std::uint32_t> particle; ///< free particle
    std::vector<std::uint32_t> anchor; ///< its nearest pinned particle along the cloth
    std::vector<float> restDistance; ///< m, geodesic rest distance between them
};

/// Geodesic rest distances from the pinned particles (inverse mass 0) by Dijkstra over the
/// structural, shear and user constraints (rest lengths as edge lengths); a free particle not
/// connected to any pin gets no tether.
Tethers computeTethers(const Cloth &cloth);

/// Rebuilds `tethers` if the cloth's topology or pinned set changed since they were built.
void updateTethers(const Cloth &cloth, Tethers &tethers);

/// Moves every free particle farther than stretch × its rest distance from its anchor back
/// onto that sphere (the anchor has inverse mass 0 and does not move).
void projectTethers(Cloth &cloth, const Tethers &tethers, float stretch);

} // namespace drape
