// What a timeline simulates: the state at frame 0 and the rule that takes frame k to k + 1.
//
// The cache, its worker thread and the exporters see the document only through this
// interface, so they do not depend on how the edits are stored. The rule applies whatever
// the user did at frame k (the events stamped with frame k), then steps the solver once.
// Both calls must be deterministic and callable from any thread while the GUI thread edits
// its own copy of the document (const, no shared mutable state): the cache relies on
// advance() of a copy of the state at frame k giving, bit for bit, the state at k + 1 that
// it gave the first time. A source is immutable; an edit makes a new source.
#pragma once

#include "sim/simulation.h"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

namespace drape {

class FrameSource {
public:
    virtual ~FrameSource() = default;
    /// The state at frame 0 (sim.frame() need not be 0 for a scene saved with state).
    virtual Simulation start() const = 0;
    /// Takes `sim` from its frame k to k + 1: applies frame k's events, then sim.step().
    virtual void advance(Simulation &sim) const = 0;
    /// Whether frame k has events. The cache keeps the state at such a frame as a snapshot,
    /// so that undoing or changing the event re-simulates from frame k exactly.
    virtual bool hasEventsAt(std::uint64_t /*k*/) const { return false; }
};

/// A source without events: a simulation stepped as it is (the scene alone, or a
/// simulation whose user input is already part of its state).
class PlainSource final : public FrameSource {
public:
    explicit PlainSource(Simulation start)
        : m_start(std::move(start))
    { }
    Simulation start() const override { return m_start; }
    void advance(Simulation &sim) const override { sim.step(); }

private:
    Simulation m_start;
};

/// A source whose events are a function of the simulation's frame: `events(sim)` is called
/// with `sim` at frame k before the step. The function must itself be deterministic and
/// thread-safe; it is how a take is replayed (see docs/timeline.md).
class EventSource final : public FrameSource {
public:
    using Events = std::function<void(Simulation &)>;
    /// `eventFrames`: the frames at which `events` changes anything (sorted or not).
    EventSource(Simulation start, Events events, std::vector<std::uint64_t> eventFrames = {})
        : m_start(std::move(start))
        , m_events(std::move(events))
        , m_eventFrames(std::move(eventFrames))
    { }
    Simulation start() const override { return m_start; }
    void advance(Simulation &sim) const override
    {
        if (m_events)
            m_events(sim);
        sim.step();
    }
    bool hasEventsAt(std::uint64_t k) const override
    {
        return std::find(m_eventFrames.begin(), m_eventFrames.end(), k) != m_eventFrames.end();
    }

private:
    Simulation m_start;
    Events m_events;
    std::vector<std::uint64_t> m_eventFrames;
};

} // namespace drape
