// The frames of a saved scene for the command line (`drape render`, `drape simulate`): from
// the folder baked beside the scene file (diskcache.h) where it holds them, else replayed.
//
// A bake holds what is drawn and exported (positions, topology, collider centres, the state
// hash), not the solver's state (velocities, the solvers' history). So a frame past the bake
// cannot be stepped from the bake's last frame: the replay (a Player) simulates it from the
// scene's start, which reaches it bit for bit as a run without the bake does. Frames the bake
// holds are handed out as the bake's frame laid over the start state (layFrameOver), which
// draws and writes as a mesh exactly like the simulated state.
//
// A bake is used only when it is of this scene and take (documentHash), and its first two
// frames are the start state and the state one step on, bit for bit (their state hashes: a
// build that builds or simulates differently shows there; the step is taken on a copy). It serves frames from the start up to its last one, stopping early before a frame
// that blew up (the bake does not keep the solver's message), before a tear of a cloth with
// authored texture coordinates or of a rope (drawn by its constraints), and from the frame of
// a parameter event that changes a collider (the bake keeps neither the coordinates, nor the
// constraints, nor a collider's shape, only its centre).
#pragma once

#include "edit/player.h"
#include "scene/scene.h"
#include "scene/take.h"
#include "timeline/cachedframe.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace drape {

/// What was found beside a scene file.
struct BakeLookup {
    std::string folder; ///< the cache folder looked at
    std::vector<std::shared_ptr<const CachedFrame>> frames; ///< from the scene's start frame, consecutive
    std::string message; ///< why a bake that is there is ignored (names the folder); empty otherwise
};

/// Reads the bake beside `scenePath` if it was made from `scene` and `take` (no frames, and a
/// message when one is there but stale or damaged).
BakeLookup findBake(const std::string &scenePath, const Scene &scene, const Take &take);

/// Whether a parameter event of the take changes a collider (its shape or turn, which a frame
/// does not hold) between the states at frames `a` and `b`, in either order.
bool colliderChangesBetween(const Take &take, std::uint64_t a, std::uint64_t b);

class BakedReplay {
public:
    /// `baked`: frames of this document from findBake() (may be empty). Those that cannot be
    /// used (see above) are dropped; a first frame that is not the start state drops them all.
    BakedReplay(const Scene &scene, const Take &take, std::vector<std::shared_ptr<const CachedFrame>> baked = {});

    /// The bake's frames in use: [startFrame(), bakedEnd()); empty when bakedEnd() == startFrame().
    std::uint64_t startFrame() const { return m_start; }
    std::uint64_t bakedEnd() const { return m_start + m_baked.size(); }
    /// False when the bake was dropped because its first frame is not this build's start state,
    /// or its second not this build's first step.
    bool startMatched() const { return m_startMatched; }

    /// The state shown at frame `f` (never before the last frame asked for): the bake's frame
    /// where it holds f, else the replay advanced to f (stopping at a blow-up). Valid until the
    /// next call.
    const Simulation &at(std::uint64_t f);
    /// Whether the last at() came from the bake.
    bool lastFromBake() const { return m_lastFromBake; }
    /// Simulation::stateHash() of the full state at the last at() (the bake keeps it per frame).
    std::uint64_t stateHash() const;

    /// The replay: it holds the full state (velocities, the settings in force) of frames it
    /// simulated, and the take's reports.
    const Player &player() const { return m_player; }
    Player &player() { return m_player; }
    /// Frames the replay stepped, and frames handed out from the bake (each counted once).
    std::uint64_t simulatedFrames() const { return m_simulated; }
    std::uint64_t bakedFramesUsed() const { return m_bakedUsed; }

private:
    Player m_player;
    Simulation m_view; ///< the start state with the last baked frame laid over it
    std::vector<std::shared_ptr<const CachedFrame>> m_baked;
    std::uint64_t m_start = 0;
    std::uint64_t m_simFrame0 = 0; ///< Simulation::frame() at the start
    std::uint64_t m_lastHash = 0;
    std::uint64_t m_lastFrame = 0; ///< of the last at()
    std::uint64_t m_simulated = 0;
    std::uint64_t m_bakedUsed = 0;
    bool m_lastFromBake = false;
    bool m_startMatched = true;
};

} // namespace drape
