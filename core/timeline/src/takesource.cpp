#include "timeline/takesource.h"

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
    if (!(withoutPresentation(a) == withoutPresentation(b)))
        return 0;
    const std::size_t n = std::min(takeA.events.size(), takeB.events.size());
    std::size_t i = 0;
    while (i < n && takeA.events[i] == takeB.events[i])
        ++i;
    if (i == takeA.events.size() && i == takeB.events.size())
        return std::numeric_limits<std::uint64_t>::max();
    std::uint64_t from = std::numeric_limits<std::uint64_t>::max();
    if (i < takeA.events.size())
        from = std::min(from, takeA.events[i].frame);
    if (i < takeB.events.size())
        from = std::min(from, takeB.events[i].frame);
    // A drag that differs only in its later targets changes only the frames from there on;
    // counting it from its start is exact, if sometimes earlier than needed.
    return from;
}

} // namespace drape
