// The timeline's frame cache: what was simulated, kept within a memory budget.
//
// Frames [0, knownEnd()) have been simulated since the start or the last invalidation. Each
// known frame is either *cached* (its CachedFrame is here: the viewport shows it at once) or
// *re-simulatable*: every K frames a full snapshot of the source's state (a Simulation copy
// is an exact copy of the solver's state) is kept, and advancing a clone of the nearest
// snapshot at or before frame f reproduces frame f bit for bit. Past the budget, frames far from the
// playhead are dropped first; snapshots may take at most half of the budget and are thinned
// farthest first beyond it (the one at frame 0 always stays), so a long run stays within the
// budget and only costs longer re-simulation far from the playhead.
//
// An edit at frame f invalidates frames f and later (invalidateFrom); the range that was
// known before is remembered as *stale* until it is simulated again, so the timeline can
// shade it as outdated. Not thread-safe by itself: Timeline guards it with a mutex.
#pragma once

#include "timeline/cachedframe.h"
#include "timeline/framesource.h"

#include <cstdint>
#include <map>
#include <memory>
#include <utility>
#include <vector>

namespace drape {

struct CacheSettings {
    std::size_t budgetBytes = std::size_t(1) << 30; ///< bytes for frames + snapshots (default 1 GiB)
    std::uint32_t snapshotInterval = 30; ///< K, frames between full solver snapshots (>= 1)
};

/// A half-open run of frames [begin, end).
struct FrameRange {
    std::uint64_t begin = 0;
    std::uint64_t end = 0;
    bool operator==(const FrameRange &) const = default;
};

class FrameCache {
public:
    explicit FrameCache(CacheSettings settings = {});

    const CacheSettings &settings() const { return m_settings; }
    /// Changes the budget or K; enforces the new budget at once (K applies to new snapshots).
    void setSettings(const CacheSettings &settings);

    /// Forgets everything and starts from `start` (frame `start->frame()`), kept as snapshot.
    void reset(std::shared_ptr<const SourceState> start);
    /// Frame of the start state (0 unless the scene was saved with state).
    std::uint64_t startFrame() const { return m_startFrame; }
    /// One past the last frame simulated in sequence from the start.
    std::uint64_t knownEnd() const { return m_knownEnd; }

    /// Stores frame f (f <= knownEnd(); storing knownEnd() extends the known range), then
    /// keeps to the budget. The frame may be evicted at once when it is the farthest from
    /// the playhead; `holds(f)` says whether it stayed.
    void put(std::shared_ptr<const CachedFrame> frame);
    /// Whether a snapshot of frame f is due: none kept yet, and f a multiple of K past the
    /// start or `eventFrame` (the source has events at f).
    bool wantsSnapshot(std::uint64_t f, bool eventFrame = false) const;
    void putSnapshot(std::shared_ptr<const SourceState> state);

    std::shared_ptr<const CachedFrame> frame(std::uint64_t f) const;
    bool holds(std::uint64_t f) const { return m_frames.count(f) != 0; }
    /// The latest snapshot at or before f (there always is one after reset()).
    std::shared_ptr<const SourceState> snapshotAtOrBefore(std::uint64_t f) const;

    /// Drops frames f and later (f > startFrame()); they become stale until simulated again.
    void invalidateFrom(std::uint64_t f);

    void setPlayhead(std::uint64_t f);
    std::uint64_t playhead() const { return m_playhead; }

    /// Measured bytes: frames, the topology and kind records they share (each counted once),
    /// snapshots.
    std::size_t bytes() const { return m_frameBytes + m_topologyBytes + m_snapshotBytes; }
    std::size_t snapshotBytes() const { return m_snapshotBytes; }
    std::size_t frameCount() const { return m_frames.size(); }
    std::size_t snapshotCount() const { return m_snapshots.size(); }
    std::uint64_t evictedFrames() const { return m_evicted; } ///< frames dropped for the budget

    /// Runs of cached frames, in order (for shading the timeline).
    std::vector<FrameRange> cachedRanges() const;
    /// Frames known before the last invalidation and not simulated again since (may be empty).
    FrameRange staleRange() const;

private:
    struct SnapshotEntry {
        std::shared_ptr<const SourceState> state;
        std::size_t bytes = 0;
    };
    void addTopology(const CachedFrame &f);
    void removeTopology(const CachedFrame &f);
    void eraseFrame(std::map<std::uint64_t, std::shared_ptr<const CachedFrame>>::iterator it);
    void enforceBudget();
    bool evictFarthestFrame();
    bool evictFarthestSnapshot();

    CacheSettings m_settings;
    std::uint64_t m_startFrame = 0;
    std::uint64_t m_knownEnd = 0;
    std::uint64_t m_playhead = 0;
    FrameRange m_stale;
    std::map<std::uint64_t, std::shared_ptr<const CachedFrame>> m_frames;
    std::map<std::uint64_t, SnapshotEntry> m_snapshots;
    // Records shared by frames (topologies, particle kinds): how many cached cloth frames
    // point at each.
    std::map<const void *, std::pair<std::size_t, std::size_t>> m_topologyRefs; // count, bytes
    std::size_t m_frameBytes = 0;
    std::size_t m_topologyBytes = 0;
    std::size_t m_snapshotBytes = 0;
    std::uint64_t m_evicted = 0;
};

} // namespace drape
