// What a timeline simulates: the state at its first frame and the rule that takes frame k to
// k + 1.
//
// The cache, its worker thread and the exporters see the document only through this
// interface, so they do not depend on how the edits are stored. A source's state is at least
// a Simulation; a replay of a take carries more from frame to frame (the drags being held,
// the settings in force), so the state is opaque to the cache: it clones it for snapshots,
// reads its Simulation for the frames it shows, and hands it back to advance().
//
// Both calls must be deterministic and callable from any thread while the GUI thread edits
// its own copy of the document (const, no shared mutable state): the cache relies on
// advance() of a clone of the state at frame k giving, bit for bit, the state at k + 1 that
// it gave the first time. A source is immutable; an edit makes a new source.
#pragma once

#include "sim/simulation.h"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

namespace drape {

/// Everything a source carries from one frame to the next.
class SourceState {
public:
    virtual ~SourceState() = default;
    virtual std::unique_ptr<SourceState> clone() const = 0;
    virtual const Simulation &simulation() const = 0;
    /// The frame this state is at (the cache's frame numbers).
    virtual std::uint64_t frame() const { return simulation().frame(); }
    /// Bytes a clone costs (for the memory budget).
    virtual std::size_t memoryBytes() const { return simulation().memoryBytes(); }
};

/// The state of a source that is a Simulation and nothing more.
class SimulationState final : public SourceState {
public:
    explicit SimulationState(Simulation s)
        : sim(std::move(s))
    { }
    std::unique_ptr<SourceState> clone() const override { return std::make_unique<SimulationState>(*this); }
    const Simulation &simulation() const override { return sim; }

    Simulation sim;
};

class FrameSource {
public:
    virtual ~FrameSource() = default;
    /// The state at the first frame (frame 0, or the frame of a scene saved with state).
    virtual std::unique_ptr<SourceState> start() const = 0;
    /// Takes `state` from its frame k to k + 1.
    virtual void advance(SourceState &state) const = 0;
    /// Whether the cache should keep the state at frame k as a snapshot: the last state an
    /// event does not change, so that undoing or changing that event re-simulates exactly
    /// the frames it changed.
    virtual bool keepSnapshotAt(std::uint64_t /*k*/) const { return false; }
};

/// A source without events: a simulation stepped as it is (the scene alone, or a
/// simulation whose user input is already part of its state).
class PlainSource final : public FrameSource {
public:
    explicit PlainSource(Simulation start)
        : m_start(std::move(start))
    { }
    std::unique_ptr<SourceState> start() const override { return std::make_unique<SimulationState>(m_start); }
    void advance(SourceState &state) const override { static_cast<SimulationState &>(state).sim.step(); }

private:
    Simulation m_start;
};

/// A source whose events are a function of the simulation's frame: `events(sim)` is called
/// with `sim` at frame k before the step to k + 1, so they change frames k + 1 and later.
/// The function must itself be deterministic and thread-safe.
class EventSource final : public FrameSource {
public:
    using Events = std::function<void(Simulation &)>;
    /// `eventFrames`: the frames k at which `events` changes anything.
    EventSource(Simulation start, Events events, std::vector<std::uint64_t> eventFrames = {})
        : m_start(std::move(start))
        , m_events(std::move(events))
        , m_eventFrames(std::move(eventFrames))
    { }
    std::unique_ptr<SourceState> start() const override { return std::make_unique<SimulationState>(m_start); }
    void advance(SourceState &state) const override
    {
        Simulation &sim = static_cast<SimulationState &>(state).sim;
        if (m_events)
            m_events(sim);
        sim.step();
    }
    bool keepSnapshotAt(std::uint64_t k) const override
    {
        return std::find(m_eventFrames.begin(), m_eventFrames.end(), k) != m_eventFrames.end();
    }

private:
    Simulation m_start;
    Events m_events;
    std::vector<std::uint64_t> m_eventFrames;
};

} // namespace drape
