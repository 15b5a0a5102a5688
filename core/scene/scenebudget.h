// The size budget of a whole scene. Each grid, rope and list is range-checked on its own,
// but a file of a few kilobytes can still ask for a hundred 1024 × 1024 cloths (100 M
// particles, tens of GB), which ends in std::bad_alloc or the OOM killer. The totals are
// computed from the descriptions alone, before anything is built, and checked against a
// budget that the command line (--max-particles) and the editor (open anyway, when the
// machine has the memory) can raise.
#pragma once

#include "scene/scene.h"

#include <cstdint>
#include <string>

namespace drape {

/// What a scene would allocate once built.
struct SceneTotals {
    std::uint64_t particles = 0;
    std::uint64_t constraints = 0;
    std::uint64_t triangles = 0;
    std::uint64_t bytes = 0; ///< estimated memory of the running simulation, bytes
};

/// Limits for a whole scene. The default allows one 512 × 512 cloth (about 0.1 s a frame on
/// the xpbd solver) or many smaller ones; constraints and triangles scale with particles
/// (a grid has under 6 constraints and 2 triangles per particle).
struct SceneBudget {
    std::uint64_t maxParticles = 262144; ///< particles over all cloths
    std::uint64_t maxConstraints = 8 * 262144; ///< distance constraints over all cloths
    std::uint64_t maxTriangles = 4 * 262144; ///< triangles over all cloths
    std::uint64_t maxBytes = std::uint64_t(1) << 30; ///< estimated simulation memory, bytes

    /// The default budget scaled to `particles` (what --max-particles sets).
    static SceneBudget forParticles(std::uint64_t particles);
    /// No limit (the editor's "open anyway").
    static SceneBudget unlimited();
};

/// Estimated memory per particle, constraint and triangle of a running simulation (state,
/// solver caches, last-good snapshot, render buffers), bytes.
inline constexpr std::uint64_t kBytesPerParticle = 256;
inline constexpr std::uint64_t kBytesPerConstraint = 64;
inline constexpr std::uint64_t kBytesPerTriangle = 48;

/// Totals of what one cloth description builds (grid, rope or explicit lists).
SceneTotals clothTotals(const ClothDesc &desc);
/// Totals over every cloth of the scene.
SceneTotals sceneTotals(const Scene &scene);

/// "" when `totals` fit `budget`, else a message naming the totals and the budget
/// ("the scene needs 104,857,600 particles, ... over the budget of 262,144 particles ...").
std::string checkBudget(const SceneTotals &totals, const SceneBudget &budget);

/// Physical memory of this machine that is available to a new process, bytes (0 if unknown).
std::uint64_t availableMemoryBytes();

/// "1,048,576": a count for messages.
std::string groupDigits(std::uint64_t n);

} // namespace drape
