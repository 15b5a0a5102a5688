// The timeline: a FrameSource, its FrameCache and a worker thread that fills the cache ahead
// of the playhead, so the GUI thread never waits for a solver step.
//
// Threads. Every public function may be called from any thread. The cache and the settings
// are guarded by one mutex, held only for map look-ups and insertions, never during a solver
// step or a snapshot copy. The worker steps its own state (the cursor) outside the lock;
// each edit (setSource, invalidateFrom) bumps a generation number, and a frame stepped under
// an older generation is thrown away instead of stored, so a stale result never reaches the
// cache. Frames are immutable once captured and handed out as shared pointers, so a reader
// keeps a frame alive and unchanged while the worker evicts or replaces it.
//
// A state request (requestState) asks the worker for the full state at a frame, exactly what
// stateAt() gives, and is served before any filling: the editor settles on the frame under a
// resting playhead this way without stepping on its GUI thread. The worker keeps a cursor of
// its own for requests, so the filling cursor stays at the front of the cache; the caller may
// hand in its own state at an earlier frame, which the worker steps on from when it is nearer
// than the nearest snapshot (a step of one frame from the frame the editor is at).
//
// The worker fills [playhead, fillEnd) where fillEnd is the end frame of playback (or the
// playhead plus the look-ahead, whichever is first), resuming from its cursor or from the
// nearest snapshot before the first missing frame. It stops when the range is full or when
// the frame it just made was itself the one the budget dropped (the cache is full in that
// direction), and waits for the playhead to move or an edit.
#pragma once

#include "timeline/framecache.h"
#include "timeline/framesource.h"

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>

namespace drape {

/// A consistent picture of the cache for the GUI (one lock, copied out).
struct TimelineStatus {
    std::uint64_t startFrame = 0;
    std::uint64_t knownEnd = 0; ///< one past the last frame simulated in sequence
    std::uint64_t playhead = 0;
    std::uint64_t endFrame = 0; ///< playback and fill end (inclusive)
    std::vector<FrameRange> cached; ///< frames shown at once
    FrameRange stale; ///< outdated by an edit, not yet simulated again
    std::size_t bytes = 0; ///< measured cache use, frames and snapshots
    std::size_t snapshotBytes = 0; ///< of which full solver snapshots
    std::size_t budgetBytes = 0;
    std::size_t frames = 0;
    std::size_t snapshots = 0;
    bool working = false; ///< the worker is simulating
};

class Timeline {
public:
    explicit Timeline(std::shared_ptr<const FrameSource> source, CacheSettings settings = {});
    ~Timeline(); ///< stops the worker
    Timeline(const Timeline &) = delete;
    Timeline &operator=(const Timeline &) = delete;

    /// Replaces the source after an edit that changed frames `from` and later (from <= the
    /// start frame: the scene changed, everything is recomputed from its new start).
    void setSource(std::shared_ptr<const FrameSource> source, std::uint64_t from);
    /// Drops frames `from` and later (same source), e.g. after changing the solver's inputs.
    void invalidateFrom(std::uint64_t from);

    void setSettings(const CacheSettings &settings);
    CacheSettings settings() const;

    void setPlayhead(std::uint64_t f);
    /// The last frame to fill and play (inclusive); the worker does not go past it.
    void setEndFrame(std::uint64_t f);
    /// Frames past the playhead the worker keeps ready (budget permitting).
    void setLookAhead(std::uint64_t frames);

    /// The frame if it is cached, else null. Never simulates, never waits for the worker.
    std::shared_ptr<const CachedFrame> cachedFrame(std::uint64_t f) const;
    /// The frame, simulating on the calling thread from the nearest snapshot if needed
    /// (exporters, tests, the command line; the GUI uses cachedFrame()).
    std::shared_ptr<const CachedFrame> frame(std::uint64_t f);
    /// The source's full state at frame f, re-simulated from the nearest snapshot.
    std::unique_ptr<SourceState> stateAt(std::uint64_t f);
    Simulation simulationAt(std::uint64_t f) { return stateAt(f)->simulation(); }

    /// Receives a requested state, on the worker thread.
    using StateReady = std::function<void(std::unique_ptr<SourceState>)>;
    /// Asks the worker for the source's full state at frame f (bit for bit what stateAt(f)
    /// gives) and calls `ready` with it on the worker thread; the calling thread never steps.
    /// Served before any filling. `from`, if given, is a state of the current source at a
    /// frame at or before f; the worker steps on from it when it is nearer than the nearest
    /// snapshot. A request replaces the one before it, whose `ready` is then never called: the
    /// worker leaves it between two frames even while serving it, as it does when stopped; an
    /// edit meanwhile (setSource, invalidateFrom) makes the worker start again on the new
    /// source. Without a running worker the request is served at once on the calling thread.
    void requestState(std::uint64_t f, StateReady ready, std::unique_ptr<SourceState> from = nullptr);
    /// Forgets the request, if any: the worker leaves it between two frames and never calls
    /// its `ready` (unless it is already calling it).
    void cancelStateRequest();
    /// The frame of the nearest full snapshot at or before f (at least the start frame).
    std::uint64_t snapshotFrameAtOrBefore(std::uint64_t f) const;

    /// Stores frames made earlier from the same source (a cache baked to disk) as if they had
    /// been simulated: consecutive, from the start frame, the first one equal to the start
    /// (same state hash), else none is taken. Frames past them and full states are still
    /// simulated from the start. Returns how many frames were taken.
    std::size_t seed(const std::vector<std::shared_ptr<const CachedFrame>> &frames);

    /// Stores `frame`, made by the caller from the source of generation `generation` (a state
    /// the editor adopted), unless an edit came since, the cache holds it already, or it does
    /// not follow the frames simulated in sequence. Later requests then share its topology and
    /// find the frame cached. Returns whether it was stored.
    bool offerFrame(std::uint64_t generation, std::shared_ptr<const CachedFrame> frame);

    /// Starts / stops the worker thread (stopped at construction).
    void startWorker();
    void stopWorker();
    /// The worker thread runs: a state request is answered later, on that thread.
    bool workerRunning() const;

    TimelineStatus status() const;
    /// Counts the edits (setSource, invalidateFrom): frames read under one generation may
    /// differ from those read under another (a recording that spans an edit is cancelled).
    std::uint64_t generation() const;
    /// Frames stepped by advance() so far (worker and callers), to check that an edit at f
    /// re-simulates from f only.
    std::uint64_t simulatedFrames() const { return m_simulated.load(); }
    /// Blocks until the worker has nothing to do (tests and the command line only).
    void waitIdle();

private:
    struct Cursor {
        std::unique_ptr<SourceState> state;
        std::uint64_t generation = 0;
        std::shared_ptr<const CachedFrame> last; ///< frame of `state`, for sharing topology
    };
    /// Steps `cursor` to frame `target`, storing every frame and due snapshot on the way.
    /// Called without the lock. Returns false when an edit made the work stale, or when it
    /// serves state request `request` (not 0) and that one was abandoned (abandonedLocked).
    bool simulateTo(Cursor &cursor, std::uint64_t target, bool stopWhenDropped, std::uint64_t request = 0);
    /// A state request: the frame, who receives it, and the caller's state to start from.
    struct StateRequest {
        std::uint64_t frame = 0;
        StateReady ready;
        std::unique_ptr<SourceState> from;
        std::uint64_t generation = 0; ///< of the source `from` belongs to
        std::uint64_t serial = 0; ///< names a request given to the worker (0: served at once)
    };
    /// Brings `cursor` to `request.frame` (from the request's state when it is nearer than
    /// the snapshot) and hands its state out to request.ready, unless it is abandoned on the
    /// way. Called without the lock.
    void serve(Cursor &cursor, StateRequest request);
    /// Nobody waits for the worker's request `serial` any more: a later request replaced it,
    /// it was cancelled, or the worker quits (locked).
    bool abandonedLocked(std::uint64_t serial) const;
    /// Points `cursor` at a state from which `target` can be reached: itself if it is at or
    /// before `target` and not before the nearest snapshot, else a copy of that snapshot.
    void prepareCursor(Cursor &cursor, std::uint64_t target);
    /// The first frame in [playhead, fillEnd] the worker should make, or none (locked).
    bool nextWorkLocked(std::uint64_t &target) const;
    void resetLocked(std::shared_ptr<const SourceState> start);
    void workerLoop();

    mutable std::mutex m_mutex;
    std::condition_variable m_wake; ///< worker: something to do
    std::condition_variable m_idle; ///< waitIdle(): worker went idle
    std::shared_ptr<const FrameSource> m_source;
    FrameCache m_cache;
    std::uint64_t m_generation = 0;
    std::uint64_t m_endFrame = 0;
    std::uint64_t m_lookAhead = ~std::uint64_t(0) / 2;
    bool m_full = false; ///< the budget dropped what the worker made; wait for a move or an edit
    bool m_working = false;
    bool m_quit = false;
    Cursor m_workerCursor; ///< the worker's own state (worker thread only)
    Cursor m_requestCursor; ///< the worker's cursor for state requests (worker thread only)
    std::optional<StateRequest> m_request; ///< not yet served
    std::uint64_t m_requestSerial = 0; ///< the worker's request wanted now (bumped by each request and cancel)
    std::mutex m_syncMutex; ///< guards m_syncCursor; taken before m_mutex, never by the worker
    Cursor m_syncCursor; ///< frame() and simulationAt() resume from it
    std::atomic<std::uint64_t> m_simulated { 0 };
    std::thread m_thread;
};

} // namespace drape
