#include "timeline/timeline.h"

#include "sim/solverthreads.h"

#include <algorithm>

namespace drape {

Timeline::Timeline(std::shared_ptr<const FrameSource> source, CacheSettings settings)
    : m_source(std::move(source))
    , m_cache(settings)
{
    auto start = std::shared_ptr<const SourceState>(m_source->start());
    std::lock_guard lock(m_mutex);
    resetLocked(std::move(start));
    m_endFrame = m_cache.startFrame();
}

Timeline::~Timeline()
{
    stopWorker();
}

void Timeline::resetLocked(std::shared_ptr<const SourceState> start)
{
    ++m_generation;
    // The start is shown at once: its frame is captured along with the snapshot.
    auto frame = captureFrame(start->simulation(), start->frame(), nullptr);
    m_cache.reset(std::move(start));
    m_cache.put(std::move(frame));
    m_full = false;
}

void Timeline::setSource(std::shared_ptr<const FrameSource> source, std::uint64_t from)
{
    // The start state is made outside the lock (copying a large cloth is not free); it
    // replaces the cached start when the edit is at the start or moved it.
    std::shared_ptr<const SourceState> fresh = source->start();
    std::lock_guard lock(m_mutex);
    m_source = std::move(source);
    if (from <= m_cache.startFrame() || fresh->frame() != m_cache.startFrame()) {
        resetLocked(std::move(fresh));
    } else {
        ++m_generation;
        m_cache.invalidateFrom(from);
        m_full = false;
    }
    m_wake.notify_all();
}

void Timeline::invalidateFrom(std::uint64_t from)
{
    std::lock_guard lock(m_mutex);
    ++m_generation;
    if (from <= m_cache.startFrame())
        m_cache.invalidateFrom(m_cache.startFrame() + 1);
    else
        m_cache.invalidateFrom(from);
    m_full = false;
    m_wake.notify_all();
}

void Timeline::setSettings(const CacheSettings &settings)
{
    std::lock_guard lock(m_mutex);
    m_cache.setSettings(settings);
    m_full = false;
    m_wake.notify_all();
}

CacheSettings Timeline::settings() const
{
    std::lock_guard lock(m_mutex);
    return m_cache.settings();
}

void Timeline::setPlayhead(std::uint64_t f)
{
    std::lock_guard lock(m_mutex);
    if (f == m_cache.playhead())
        return;
    m_cache.setPlayhead(f);
    m_full = false;
    m_wake.notify_all();
}

void Timeline::setEndFrame(std::uint64_t f)
{
    std::lock_guard lock(m_mutex);
    m_endFrame = f;
    m_full = false;
    m_wake.notify_all();
}

void Timeline::setLookAhead(std::uint64_t frames)
{
    std::lock_guard lock(m_mutex);
    m_lookAhead = frames;
    m_full = false;
    m_wake.notify_all();
}

std::shared_ptr<const CachedFrame> Timeline::cachedFrame(std::uint64_t f) const
{
    std::lock_guard lock(m_mutex);
    return m_cache.frame(f);
}

void Timeline::prepareCursor(Cursor &cursor, std::uint64_t target)
{
    std::shared_ptr<const SourceState> snapshot;
    std::uint64_t generation = 0;
    {
        std::lock_guard lock(m_mutex);
        target = std::max(target, m_cache.startFrame());
        snapshot = m_cache.snapshotAtOrBefore(target);
        generation = m_generation;
        if (cursor.state && cursor.generation == generation && cursor.state->frame() <= target
            && cursor.state->frame() >= snapshot->frame())
            return;
        cursor.last = m_cache.frame(snapshot->frame());
    }
    // A snapshot is immutable once stored, so it is copied without the lock.
    cursor.state = snapshot->clone();
    cursor.generation = generation;
}

bool Timeline::simulateTo(Cursor &cursor, std::uint64_t target, bool stopWhenDropped, std::uint64_t request)
{
    std::shared_ptr<const FrameSource> source;
    {
        std::lock_guard lock(m_mutex);
        if (cursor.generation != m_generation)
            return false;
        source = m_source;
        // A cursor copied from a snapshot whose frame was dropped: capture that frame first.
        if (cursor.state->frame() == target && !m_cache.holds(target) && target <= m_cache.knownEnd()) {
            cursor.last = captureFrame(cursor.state->simulation(), target, cursor.last.get());
            m_cache.put(cursor.last);
        }
    }
    while (cursor.state->frame() < target) {
        SourceState &state = *cursor.state;
        source->advance(state);
        ++m_simulated;
        const std::uint64_t f = state.frame();
        std::shared_ptr<const CachedFrame> frame = captureFrame(state.simulation(), f, cursor.last.get());
        bool snapshotDue = false;
        {
            std::lock_guard lock(m_mutex);
            if (cursor.generation != m_generation || abandonedLocked(request))
                return false;
            snapshotDue = f <= m_cache.knownEnd() && m_cache.wantsSnapshot(f, source->keepSnapshotAt(f));
        }
        std::shared_ptr<const SourceState> snapshot;
        if (snapshotDue)
            snapshot = state.clone();
        bool dropped = false;
        {
            std::lock_guard lock(m_mutex);
            if (cursor.generation != m_generation)
                return false;
            // A cursor that started from a caller's state past the frames simulated in
            // sequence (a state request) stores nothing until they reach it.
            if (f <= m_cache.knownEnd()) {
                m_cache.put(frame);
                if (snapshot)
                    m_cache.putSnapshot(std::move(snapshot));
            }
            dropped = !m_cache.holds(f);
            if (dropped && stopWhenDropped) {
                m_full = true;
                cursor.last = std::move(frame);
                return true;
            }
        }
        cursor.last = std::move(frame);
    }
    return true;
}

std::shared_ptr<const CachedFrame> Timeline::frame(std::uint64_t f)
{
    std::lock_guard sync(m_syncMutex);
    for (;;) {
        if (auto cached = cachedFrame(f))
            return cached;
        prepareCursor(m_syncCursor, f);
        if (!simulateTo(m_syncCursor, f, false))
            continue; // an edit came in between: start again from the new source
        if (auto cached = cachedFrame(f))
            return cached;
        // The budget dropped it at once (it is far from the playhead): hand out the capture.
        if (m_syncCursor.last && m_syncCursor.last->frame == f)
            return m_syncCursor.last;
        return captureFrame(m_syncCursor.state->simulation(), f, nullptr);
    }
}

std::unique_ptr<SourceState> Timeline::stateAt(std::uint64_t f)
{
    std::lock_guard sync(m_syncMutex);
    for (;;) {
        prepareCursor(m_syncCursor, f);
        if (simulateTo(m_syncCursor, f, false))
            return m_syncCursor.state->clone();
    }
}

void Timeline::requestState(std::uint64_t f, StateReady ready, std::unique_ptr<SourceState> from)
{
    StateRequest request { f, std::move(ready), std::move(from), 0 };
    {
        std::lock_guard lock(m_mutex);
        request.generation = m_generation;
        if (m_thread.joinable() && !m_quit) {
            request.serial = ++m_requestSerial; // the one being served, if any, is left
            m_request = std::move(request);
            m_wake.notify_all();
            return;
        }
    }
    std::lock_guard sync(m_syncMutex);
    serve(m_syncCursor, std::move(request));
}

void Timeline::cancelStateRequest()
{
    std::lock_guard lock(m_mutex);
    ++m_requestSerial;
    m_request.reset();
}

bool Timeline::abandonedLocked(std::uint64_t serial) const
{
    return serial != 0 && (m_quit || serial != m_requestSerial);
}

std::uint64_t Timeline::snapshotFrameAtOrBefore(std::uint64_t f) const
{
    std::lock_guard lock(m_mutex);
    return m_cache.snapshotAtOrBefore(std::max(f, m_cache.startFrame()))->frame();
}

void Timeline::serve(Cursor &cursor, StateRequest request)
{
    for (;;) {
        if (request.from) {
            // The caller's state replaces the cursor when it is of the current source and
            // nearer to the frame than both the nearest snapshot and the cursor.
            std::lock_guard lock(m_mutex);
            const std::uint64_t target = std::max(request.frame, m_cache.startFrame());
            const std::uint64_t at = request.from->frame();
            const bool cursorNearer = cursor.state && cursor.generation == m_generation
                && cursor.state->frame() <= target && cursor.state->frame() >= at;
            if (request.generation == m_generation && at <= target
                && at >= m_cache.snapshotAtOrBefore(target)->frame() && !cursorNearer) {
                cursor.state = std::move(request.from);
                cursor.generation = m_generation;
                cursor.last = m_cache.frame(at);
            }
            request.from.reset();
        }
        prepareCursor(cursor, request.frame);
        if (simulateTo(cursor, request.frame, false, request.serial))
            break;
        {
            std::lock_guard lock(m_mutex);
            if (abandonedLocked(request.serial))
                return; // nobody waits for it: the cursor keeps its frames for the next request
        }
    }
    // Handed out, not copied: the next request starts from a snapshot or its caller's state.
    std::unique_ptr<SourceState> state = std::move(cursor.state);
    cursor.last.reset();
    request.ready(std::move(state));
}

std::size_t Timeline::seed(const std::vector<std::shared_ptr<const CachedFrame>> &frames)
{
    std::lock_guard lock(m_mutex);
    const std::uint64_t start = m_cache.startFrame();
    const auto startFrame = m_cache.frame(start);
    // A cache from a build that simulates differently shows already in its first frame.
    if (frames.empty() || frames.front()->frame != start || !startFrame
        || startFrame->stateHash != frames.front()->stateHash)
        return 0;
    std::size_t taken = 0;
    for (const auto &frame : frames) {
        if (!frame || frame->frame != start + taken)
            break;
        if (frame->frame >= m_cache.knownEnd())
            m_cache.put(frame);
        ++taken;
    }
    m_full = false;
    m_wake.notify_all();
    return taken;
}

bool Timeline::nextWorkLocked(std::uint64_t &target) const
{
    if (m_full)
        return false;
    const std::uint64_t from = std::max(m_cache.playhead(), m_cache.startFrame());
    const std::uint64_t ahead = from + std::min(m_lookAhead, ~std::uint64_t(0) - from);
    const std::uint64_t end = std::min(m_endFrame, ahead);
    for (std::uint64_t g = from; g <= end; ++g) {
        if (!m_cache.holds(g)) {
            target = g;
            return true;
        }
    }
    return false;
}

void Timeline::workerLoop()
{
    std::unique_lock lock(m_mutex);
    while (!m_quit) {
        if (m_request) {
            // A state the editor waits for comes before filling ahead.
            StateRequest request = std::move(*m_request);
            m_request.reset();
            m_working = true;
            lock.unlock();
            serve(m_requestCursor, std::move(request));
            lock.lock();
            continue;
        }
        std::uint64_t target = 0;
        if (!nextWorkLocked(target)) {
            m_working = false;
            m_idle.notify_all();
            m_wake.wait(lock);
            continue;
        }
        m_working = true;
        lock.unlock();
        prepareCursor(m_workerCursor, target);
        simulateTo(m_workerCursor, target, true);
        lock.lock();
    }
    m_working = false;
    m_idle.notify_all();
}

bool Timeline::offerFrame(std::uint64_t generation, std::shared_ptr<const CachedFrame> frame)
{
    std::lock_guard lock(m_mutex);
    if (!frame || generation != m_generation || frame->frame < m_cache.startFrame()
        || frame->frame > m_cache.knownEnd() || m_cache.holds(frame->frame))
        return false;
    m_cache.put(std::move(frame));
    return true;
}

bool Timeline::workerRunning() const
{
    std::lock_guard lock(m_mutex);
    return m_thread.joinable() && !m_quit;
}

void Timeline::startWorker()
{
    if (m_thread.joinable())
        return;
    {
        std::lock_guard lock(m_mutex);
        m_quit = false;
        m_working = true; // until the worker has looked for work, waitIdle() must wait
    }
    // The thread that starts the worker keeps working beside it (the editor's GUI thread):
    // a second solver thread would take that core from it (sim/solverthreads.h).
    holdSolverCore();
    m_thread = std::thread([this] { workerLoop(); });
}

void Timeline::stopWorker()
{
    if (!m_thread.joinable())
        return;
    {
        std::lock_guard lock(m_mutex);
        m_quit = true;
        m_wake.notify_all();
    }
    m_thread.join();
    releaseSolverCore();
}

void Timeline::waitIdle()
{
    std::unique_lock lock(m_mutex);
    if (!m_thread.joinable())
        return;
    std::uint64_t target = 0;
    m_idle.wait(lock, [&] { return m_quit || (!m_working && !m_request && !nextWorkLocked(target)); });
}

std::uint64_t Timeline::generation() const
{
    std::lock_guard lock(m_mutex);
    return m_generation;
}

TimelineStatus Timeline::status() const
{
    std::lock_guard lock(m_mutex);
    TimelineStatus s;
    s.startFrame = m_cache.startFrame();
    s.knownEnd = m_cache.knownEnd();
    s.playhead = m_cache.playhead();
    s.endFrame = m_endFrame;
    s.cached = m_cache.cachedRanges();
    s.stale = m_cache.staleRange();
    s.bytes = m_cache.bytes();
    s.snapshotBytes = m_cache.snapshotBytes();
    s.budgetBytes = m_cache.settings().budgetBytes;
    s.frames = m_cache.frameCount();
    s.snapshots = m_cache.snapshotCount();
    s.working = m_working;
    return s;
}

} // namespace drape
