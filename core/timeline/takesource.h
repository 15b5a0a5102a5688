// The timeline's source for a document: its scene and take, replayed (core/edit/player.h).
//
// A TakeState is a PlayerState (the Simulation, the settings in force, the drags held), the
// shown state of its frame: the frame stepped, then its events applied. The cache clones it
// for snapshots and the worker advances clones, so a frame re-simulated from a snapshot is
// bit for bit the frame first simulated (the replay is deterministic).
#pragma once

#include "edit/player.h"
#include "timeline/framesource.h"

#include <memory>

namespace drape {

class TakeState final : public SourceState {
public:
    explicit TakeState(PlayerState s)
        : state(std::move(s))
    { }
    std::unique_ptr<SourceState> clone() const override { return std::make_unique<TakeState>(*this); }
    const Simulation &simulation() const override { return state.sim; }
    std::uint64_t frame() const override { return state.frame; }

    PlayerState state;
};

class TakeSource final : public FrameSource {
public:
    TakeSource(std::shared_ptr<const Scene> scene, Take take);

    std::unique_ptr<SourceState> start() const override;
    void advance(SourceState &state) const override;
    /// The state just before an event's frame is kept: undoing or changing that event
    /// re-simulates from there, not from the nearest regular snapshot.
    bool keepSnapshotAt(std::uint64_t k) const override;

    const Scene &scene() const { return *m_scene; }
    const Take &take() const { return m_take; }

private:
    std::shared_ptr<const Scene> m_scene;
    Take m_take;
};

/// The first frame whose state differs between the document (a, takeA) and (b, takeB): 0
/// when the scenes differ in anything the simulation reads, else the frame of the first
/// event that differs (a drag from the first frame it holds differently). Equal documents give
/// UINT64_MAX.
std::uint64_t firstChangedFrame(const Scene &a, const Take &takeA, const Scene &b, const Take &takeB);

} // namespace drape
