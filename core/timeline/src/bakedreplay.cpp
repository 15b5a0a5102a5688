#include "timeline/bakedreplay.h"

#include "timeline/diskcache.h"

#include <algorithm>
#include <variant>

namespace drape {

BakeLookup findBake(const std::string &scenePath, const Scene &scene, const Take &take)
{
    BakeLookup out;
    out.folder = diskCacheFolder(scenePath);
    DiskCacheLoad load = readDiskCache(out.folder, documentHash(scene, take));
    if (load.status == DiskCacheStatus::Loaded)
        out.frames = std::move(load.frames);
    else
        out.message = load.message;
    return out;
}

bool colliderChangesBetween(const Take &take, std::uint64_t a, std::uint64_t b)
{
    const auto [lo, hi] = std::minmax(a, b);
    for (const Event &e : take.events)
        if (const auto *p = std::get_if<ParameterEvent>(&e.data);
            p && p->key.starts_with("collider.") && e.frame > lo && e.frame <= hi)
            return true;
    return false;
}

namespace {

// The first frame from which a parameter event changes a collider's shape or turn, which a
// frame does not record (only the centres).
std::uint64_t firstColliderChange(const Take &take)
{
    for (const Event &e : take.events)
        if (const auto *p = std::get_if<ParameterEvent>(&e.data); p && p->key.starts_with("collider."))
            return e.frame;
    return ~std::uint64_t(0);
}

// How many frames from the front of `baked` can stand for the simulated state.
std::size_t usableFrames(const Simulation &start, const Take &take,
                         const std::vector<std::shared_ptr<const CachedFrame>> &baked)
{
    const std::uint64_t colliderChange = firstColliderChange(take);
    std::size_t n = 0;
    for (; n < baked.size(); ++n) {
        const CachedFrame &f = *baked[n];
        if (f.blownUp || f.frame != start.frame() + n || f.frame >= colliderChange
            || !drawsLikeState(start, f, false))
            break;
    }
    return n;
}

} // namespace

BakedReplay::BakedReplay(const Scene &scene, const Take &take, std::vector<std::shared_ptr<const CachedFrame>> baked)
    : m_player(scene, take)
    , m_start(m_player.frame())
    , m_simFrame0(m_player.state().sim.frame())
{
    const Simulation &start = m_player.state().sim;
    m_lastHash = start.stateHash();
    if (!baked.empty() && (baked.front()->frame != m_start || baked.front()->stateHash != m_lastHash)) {
        m_startMatched = false;
        baked.clear();
    }
    // The start is built, not simulated: a build that steps differently shows only from the
    // first step on. One step on a copy, compared with the bake's frame 1, tells.
    if (baked.size() > 1 && baked[1]->frame == m_start + 1) {
        Player probe(m_player.state(), take);
        probe.advance();
        if (probe.state().sim.stateHash() != baked[1]->stateHash) {
            m_startMatched = false;
            baked.clear();
        }
    }
    baked.resize(usableFrames(start, take, baked));
    m_baked = std::move(baked);
    if (!m_baked.empty())
        m_view = start; // copied only when there is something to lay over it
}

const Simulation &BakedReplay::at(std::uint64_t f)
{
    if (f >= m_start && f < bakedEnd()) {
        const CachedFrame &frame = *m_baked[f - m_start];
        layFrameOver(m_view, frame);
        m_view.setTime(frame.time, m_simFrame0 + (f - m_start)); // the bake numbers frames from the start
        m_lastHash = frame.stateHash;
        if (!m_lastFromBake || f != m_lastFrame)
            ++m_bakedUsed;
        m_lastFromBake = true;
        m_lastFrame = f;
        return m_view;
    }
    Simulation &sim = m_player.state().sim;
    while (m_player.frame() < f && !sim.status().blownUp) {
        m_player.advance();
        ++m_simulated;
    }
    m_lastHash = sim.stateHash();
    m_lastFromBake = false;
    m_lastFrame = m_player.frame();
    return sim;
}

std::uint64_t BakedReplay::stateHash() const { return m_lastHash; }

} // namespace drape
