// Tearing by vertex splitting along the tension plane. Declared here so the solver can call
// it; see vertexsplit.cpp for the method and its design note.
#pragma once

#include "cloth.h"

#include <cstdint>
#include <vector>

namespace drape {

/// One split: particle `original` kept some of its triangles; `created` (appended at the end
/// of the particle arrays) took the others. Particles are never reordered, so every index
/// below the old particle count keeps its meaning; this list is the old→new map.
struct ParticleSplit {
    std::uint32_t original = 0;
    std::uint32_t created = 0;
};

struct SplitReport {
    std::vector<ParticleSplit> splits;
    bool capped = false; ///< stopped at maxSplits with constraints still over their limit
};

/// Splits particles of constraints stretched past their tear strain (cloth.tearMode ==
/// SplitVertex), at most `maxSplits` times. Bumps the topology revision when anything split.
SplitReport splitOverstretched(Cloth &cloth, int maxSplits);

} // namespace drape
