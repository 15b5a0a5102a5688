// One frame as the viewport and the exporters need it: positions per cloth, the topology
// (triangles, rest positions for texture coordinates) shared with the frames before it for
// as long as the cloth neither tears nor is cut, and the particle kinds (pins and grabs are
// drawn) shared for as long as they stay, so a steady cloth costs 12 bytes per particle per
// frame.
#pragma once

#include "sim/simulation.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace drape {

/// What changes only when the cloth tears, is cut or sewn (Cloth::topologyRevision).
struct ClothTopology {
    std::uint64_t revision = 0; ///< Cloth::topologyRevision it was taken from
    std::size_t particleCount = 0;
    std::vector<Triangle> triangles;
    std::vector<Vec3> rest; ///< m, authored positions (texture coordinates derive from them)

    std::size_t bytes() const;
};

struct ClothFrame {
    std::vector<Vec3> position; ///< m, one per particle
    std::shared_ptr<const ClothTopology> topology; ///< shared by consecutive frames
    /// Per particle, shared by consecutive frames with the same pins and grabs.
    std::shared_ptr<const std::vector<ParticleKind>> kind;
};

struct CachedFrame {
    std::uint64_t frame = 0; ///< frames stepped since the start (Simulation::frame())
    double time = 0.0; ///< s, simulated time
    std::uint64_t simFrame = 0; ///< Simulation::frame() (ahead of `frame` for a scene saved with state; not kept by a bake)
    std::uint64_t stateHash = 0; ///< Simulation::stateHash() of the full state at this frame
    bool blownUp = false; ///< the solver had flagged a blow-up (state is the last good frame)
    std::string blowUpMessage; ///< the solver's reason when blownUp (not kept by a bake)
    std::vector<ClothFrame> cloths;
    std::vector<Vec3> colliderCenters; ///< m, per collider (animated colliders move)

    /// Bytes this frame holds itself (positions, centres), not counting shared topology.
    std::size_t ownBytes() const;
};

/// Captures `sim` as frame `frame`. A cloth whose topology revision and particle count equal
/// those of `previous` (if given) shares its topology record instead of copying it.
std::shared_ptr<const CachedFrame> captureFrame(
    const Simulation &sim, std::uint64_t frame, const CachedFrame *previous);

/// Lays `frame` over `sim`, a state of the same document: the positions, each cloth's
/// triangles and rest positions where its topology differs from the frame's (a tear or cut in
/// between; its constraints, not in the frame, are dropped), the collider centres, the time and
/// frame number, and no blow-up unless the frame had one. What a frame does not hold
/// (velocities, pins, constraints) stays as `sim` had it: the result is drawn and written as a
/// mesh the way the simulated state is, but it is never stepped. A frame of another shape (cloth
/// or collider counts that differ) changes only what matches.
void layFrameOver(Simulation &sim, const CachedFrame &frame);

/// Whether `frame` laid over `sim` (layFrameOver) is drawn and written as a mesh exactly like
/// the full state at that frame, as far as the two can tell: the same cloth and collider
/// counts, texture coordinates that still fit, and no cloth whose topology differs and is
/// drawn by its constraints (a rope; or every cloth when `constraintsDrawn`, the overlays).
/// Parameter events between the two frames (a collider's shape or turn) are the caller's to
/// check: a frame does not hold parameters.
bool drawsLikeState(const Simulation &sim, const CachedFrame &frame, bool constraintsDrawn);

} // namespace drape
