#include "timeline/takesource.h"

#include <algorithm>
#include <limits>

namespace drape {

TakeSource::TakeSource(std::shared_ptr<const Scene> scene, Take take)
    : m_scene(std::move(scene))
    , m_take(std::move(take))
{
}

std::unique_ptr<SourceState> TakeSource::start() const
{
    PlayerState s = startState(*m_scene);
    Player::applyFrameEvents(s, m_take, nullptr); // the events of frame 0
    return std::make_unique<TakeState>(std::move(s));
}

void TakeSource::advance(SourceState &state) const
{
    PlayerState &s = static_cast<TakeState &>(state).state;
    Player::stepState(s);
    Player::applyFrameEvents(s, m_take, nullptr);
}

bool TakeSource::keepSnapshotAt(std::uint64_t k) const
{
    const auto [first, last] = m_take.range(k + 1);
    return first != last;
}

std::uint64_t firstChangedFrame(const Scene &a, const Take &takeA, const Scene &b, const Take &takeB)
{
    constexpr std::uint64_t kNever = std::numeric_limits<std::uint64_t>::max();
    if (!(withoutPresentation(a) == withoutPresentation(b)))
        return 0;
    const std::size_t n = std::min(takeA.events.size(), takeB.events.size());
    std::uint64_t from = kNever;
    std::size_t i = 0;
    for (; i < n; ++i) {
        const Event &x = takeA.events[i], &y = takeB.events[i];
        if (std::min(x.frame, y.frame) >= from)
            return from; // events are in frame order: nothing after can change an earlier frame
        if (x == y)
            continue;
        // The same drag with other later targets (one being recorded, or let go) changes only
        // the frames from the first one it holds differently: the frames before stay cached.
        const auto *dx = std::get_if<DragEvent>(&x.data);
        const auto *dy = std::get_if<DragEvent>(&y.data);
        if (dx && dy && x.frame == y.frame && dx->cloth == dy->cloth && dx->particles == dy->particles
            && dx->centre == dy->centre) {
            const std::size_t k = dx->firstDifference(*dy);
            if (k != SIZE_MAX)
                from = std::min(from, x.frame + k);
            continue;
        }
        return std::min({ from, x.frame, y.frame });
    }
    if (i < takeA.events.size())
        from = std::min(from, takeA.events[i].frame);
    if (i < takeB.events.size())
        from = std::min(from, takeB.events[i].frame);
    return from;
}

} // namespace drape
