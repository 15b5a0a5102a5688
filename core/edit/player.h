// Replay: the simulation at frame f as a pure function of the scene and the take.
//
// A PlayerState is everything the replay carries from one frame to the next: the running
// Simulation, the settings in force (the scene's, changed by parameter events) and the drags
// being held. It is a plain copyable value, so a copy taken at frame k is an exact snapshot:
// a Player started from it and stepped to frame m gives bit for bit the state a replay from
// frame 0 gives at m (tests/tst_take.cpp checks this on every preset).
//
// Frame convention. state(0) is the scene's start with the events stamped 0 applied;
// state(k+1) is state(k) stepped one frame, then the events stamped k+1 applied (first the
// frame of each drag still held, then the new events in take order). So an edit made at the
// playhead shows at once, and undoing it re-simulates the same frames.
//
// An event that no longer fits (a particle or constraint index out of range, a constraint
// that no longer joins the particles it did when recorded) changes nothing and is reported
// with its index, frame and the reason; the replay goes on.
#pragma once

#include "edit/grab.h"
#include "scene/scene.h"
#include "scene/take.h"
#include "sim/simulation.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace drape {

/// An event that did not apply during a replay.
struct EventReport {
    std::size_t event = 0; ///< index in the take
    std::uint64_t frame = 0; ///< the frame it was stamped with
    std::string message; ///< why ("cut at frame 40: constraint 912 out of range, cloth has 900")

    bool operator==(const EventReport &) const = default;
};

/// A drag in progress during a replay.
struct HeldDrag {
    std::size_t event = 0; ///< index of its DragEvent in the take
    Grab grab;
};

struct PlayerState {
    Simulation sim;
    std::shared_ptr<const Scene> settings; ///< the scene with the parameter events so far applied
    std::uint64_t frame = 0; ///< frames since the scene's start
    std::vector<HeldDrag> drags;
};

/// The state at the scene's start before the events of frame 0 (buildSimulation).
PlayerState startState(const Scene &scene);

/// Applies one event to a state at its frame. Returns an empty string, or why it does not
/// apply (nothing changed then). Drags begin here and continue in advance().
std::string applyEvent(PlayerState &state, const Take &take, std::size_t event);

class Player {
public:
    /// Starts at the scene's start and applies the events of frame 0.
    Player(const Scene &scene, const Take &take);
    /// Continues from a snapshot taken at some frame (the events of that frame applied).
    Player(PlayerState state, const Take &take);

    /// Steps one frame and applies the events stamped with the new frame.
    void advance();
    /// Advances until frame() == frame (never backwards).
    void advanceTo(std::uint64_t frame);

    const PlayerState &state() const { return m_state; }
    PlayerState &state() { return m_state; }
    const Simulation &simulation() const { return m_state.sim; }
    std::uint64_t frame() const { return m_state.frame; }
    /// Events that did not apply so far.
    const std::vector<EventReport> &reports() const { return m_reports; }

    /// Applies what happens at `state.frame` on arrival: each held drag's target for the
    /// frame (letting go after its last), then the events stamped with the frame.
    static void applyFrameEvents(PlayerState &state, const Take &take, std::vector<EventReport> *reports);
    /// Steps `state` one frame without applying events (the arrival at frame + 1).
    static void stepState(PlayerState &state);

private:
    PlayerState m_state;
    const Take *m_take;
    std::vector<EventReport> m_reports;
};

/// The simulation at `frame` replayed from the scene and the take; `reports` receives the
/// events that did not apply.
Simulation replay(
    const Scene &scene, const Take &take, std::uint64_t frame, std::vector<EventReport> *reports = nullptr);

} // namespace drape
