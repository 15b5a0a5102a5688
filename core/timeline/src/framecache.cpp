#include "timeline/framecache.h"

#include <algorithm>
#include <cassert>

namespace drape {

namespace {

std::uint64_t distance(std::uint64_t a, std::uint64_t b)
{
    return a > b ? a - b : b - a;
}

} // namespace

FrameCache::FrameCache(CacheSettings settings)
    : m_settings(settings)
{
    m_settings.snapshotInterval = std::max<std::uint32_t>(1, m_settings.snapshotInterval);
}

void FrameCache::setSettings(const CacheSettings &settings)
{
    m_settings = settings;
    m_settings.snapshotInterval = std::max<std::uint32_t>(1, m_settings.snapshotInterval);
    enforceBudget();
}

void FrameCache::reset(std::shared_ptr<const SourceState> start)
{
    assert(start);
    m_frames.clear();
    m_snapshots.clear();
    m_topologyRefs.clear();
    m_frameBytes = m_topologyBytes = m_snapshotBytes = 0;
    m_startFrame = start->frame();
    m_knownEnd = m_startFrame;
    m_playhead = std::max(m_playhead, m_startFrame);
    m_stale = {};
    putSnapshot(std::move(start));
}

void FrameCache::addTopology(const CachedFrame &f)
{
    for (const ClothFrame &c : f.cloths) {
        auto &[count, bytes] = m_topologyRefs[c.topology.get()];
        if (count++ == 0) {
            bytes = c.topology->bytes();
            m_topologyBytes += bytes;
        }
        if (c.kind) {
            auto &[kindCount, kindBytes] = m_topologyRefs[c.kind.get()];
            if (kindCount++ == 0) {
                kindBytes = sizeof(*c.kind) + c.kind->capacity() * sizeof(ParticleKind);
                m_topologyBytes += kindBytes;
            }
        }
    }
}

void FrameCache::removeTopology(const CachedFrame &f)
{
    const auto release = [this](const void *record) {
        auto it = m_topologyRefs.find(record);
        assert(it != m_topologyRefs.end());
        if (--it->second.first == 0) {
            m_topologyBytes -= it->second.second;
            m_topologyRefs.erase(it);
        }
    };
    for (const ClothFrame &c : f.cloths) {
        release(c.topology.get());
        if (c.kind)
            release(c.kind.get());
    }
}

void FrameCache::put(std::shared_ptr<const CachedFrame> frame)
{
    assert(frame && frame->frame >= m_startFrame && frame->frame <= m_knownEnd);
    const std::uint64_t f = frame->frame;
    auto it = m_frames.find(f);
    if (it != m_frames.end())
        eraseFrame(it);
    addTopology(*frame);
    m_frameBytes += frame->ownBytes();
    m_frames.emplace(f, std::move(frame));
    if (f == m_knownEnd)
        ++m_knownEnd;
    if (m_stale.begin < m_knownEnd)
        m_stale.begin = std::min(m_knownEnd, m_stale.end);
    enforceBudget();
}

bool FrameCache::wantsSnapshot(std::uint64_t f, bool eventFrame) const
{
    return f >= m_startFrame && (eventFrame || (f - m_startFrame) % m_settings.snapshotInterval == 0)
        && m_snapshots.count(f) == 0;
}

void FrameCache::putSnapshot(std::shared_ptr<const SourceState> state)
{
    const std::uint64_t f = state->frame();
    assert(f >= m_startFrame && f <= m_knownEnd);
    SnapshotEntry &e = m_snapshots[f];
    m_snapshotBytes -= e.bytes;
    e.bytes = state->memoryBytes();
    e.state = std::move(state);
    m_snapshotBytes += e.bytes;
    enforceBudget();
}

std::shared_ptr<const CachedFrame> FrameCache::frame(std::uint64_t f) const
{
    auto it = m_frames.find(f);
    return it == m_frames.end() ? nullptr : it->second;
}

std::shared_ptr<const SourceState> FrameCache::snapshotAtOrBefore(std::uint64_t f) const
{
    auto it = m_snapshots.upper_bound(f);
    if (it == m_snapshots.begin())
        return nullptr;
    return std::prev(it)->second.state;
}

void FrameCache::eraseFrame(std::map<std::uint64_t, std::shared_ptr<const CachedFrame>>::iterator it)
{
    removeTopology(*it->second);
    m_frameBytes -= it->second->ownBytes();
    m_frames.erase(it);
}

void FrameCache::invalidateFrom(std::uint64_t f)
{
    f = std::max(f, m_startFrame + 1); // the start itself is the scene: reset() replaces it
    if (f >= m_knownEnd)
        return;
    m_stale = { f, std::max(m_knownEnd, m_stale.end) };
    while (!m_frames.empty() && m_frames.rbegin()->first >= f)
        eraseFrame(std::prev(m_frames.end()));
    while (!m_snapshots.empty() && m_snapshots.rbegin()->first >= f) {
        m_snapshotBytes -= m_snapshots.rbegin()->second.bytes;
        m_snapshots.erase(std::prev(m_snapshots.end()));
    }
    m_knownEnd = f;
}

void FrameCache::setPlayhead(std::uint64_t f)
{
    m_playhead = f;
}

bool FrameCache::evictFarthestFrame()
{
    // Never the frame on screen; otherwise whichever end of the map is farther away.
    if (m_frames.empty())
        return false;
    auto first = m_frames.begin();
    auto last = std::prev(m_frames.end());
    auto victim = distance(first->first, m_playhead) >= distance(last->first, m_playhead) ? first : last;
    if (victim->first == m_playhead) {
        if (first == last)
            return false;
        victim = victim == first ? last : first;
        if (victim->first == m_playhead)
            return false;
    }
    eraseFrame(victim);
    ++m_evicted;
    return true;
}

bool FrameCache::evictFarthestSnapshot()
{
    // The start snapshot always stays: it is where every re-simulation can begin.
    if (m_snapshots.size() <= 1)
        return false;
    auto first = std::next(m_snapshots.begin());
    auto last = std::prev(m_snapshots.end());
    auto victim = distance(first->first, m_playhead) >= distance(last->first, m_playhead) ? first : last;
    m_snapshotBytes -= victim->second.bytes;
    m_snapshots.erase(victim);
    return true;
}

void FrameCache::enforceBudget()
{
    const std::size_t budget = m_settings.budgetBytes;
    while (m_snapshotBytes > budget / 2 && evictFarthestSnapshot()) { }
    while (bytes() > budget && evictFarthestFrame()) { }
    while (bytes() > budget && evictFarthestSnapshot()) { }
}

std::vector<FrameRange> FrameCache::cachedRanges() const
{
    std::vector<FrameRange> out;
    for (const auto &[f, frame] : m_frames) {
        if (!out.empty() && out.back().end == f)
            ++out.back().end;
        else
            out.push_back({ f, f + 1 });
    }
    return out;
}

FrameRange FrameCache::staleRange() const
{
    if (m_stale.begin >= m_stale.end)
        return { m_knownEnd, m_knownEnd };
    return m_stale;
}

} // namespace drape
