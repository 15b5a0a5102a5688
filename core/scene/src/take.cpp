#include "scene/take.h"

#include <algorithm>

namespace drape {

void Take::add(Event event)
{
    const auto at = std::upper_bound(events.begin(), events.end(), event.frame,
        [](std::uint64_t f, const Event &e) { return f < e.frame; });
    events.insert(at, std::move(event));
}

std::size_t Take::dropAfter(std::uint64_t frame)
{
    const auto first = std::upper_bound(
        events.begin(), events.end(), frame, [](std::uint64_t f, const Event &e) { return f < e.frame; });
    const std::size_t dropped = std::size_t(events.end() - first);
    events.erase(first, events.end());
    return dropped;
}

std::pair<std::size_t, std::size_t> Take::range(std::uint64_t frame) const
{
    const auto lo = std::lower_bound(
        events.begin(), events.end(), frame, [](const Event &e, std::uint64_t f) { return e.frame < f; });
    const auto hi = std::upper_bound(
        lo, events.end(), frame, [](std::uint64_t f, const Event &e) { return f < e.frame; });
    return { std::size_t(lo - events.begin()), std::size_t(hi - events.begin()) };
}

std::uint64_t Take::lastFrame() const
{
    std::uint64_t last = 0;
    for (const Event &e : events) {
        std::uint64_t end = e.frame;
        if (const auto *drag = std::get_if<DragEvent>(&e.data); drag && !drag->targets.empty())
            end += drag->targets.size() - 1;
        last = std::max(last, end);
    }
    return last;
}

int eventCloth(const EventData &data)
{
    return std::visit(
        [](const auto &e) -> int {
            using T = std::decay_t<decltype(e)>;
            if constexpr (std::is_same_v<T, ParameterEvent> || std::is_same_v<T, PushEvent>)
                return -1;
            else
                return e.cloth;
        },
        data);
}

const char *eventName(const EventData &data)
{
    switch (data.index()) {
    case 0:
        return "drag";
    case 1:
        return std::get<RemoveConstraintsEvent>(data).cut ? "cut" : "remove constraints";
    case 2:
        return std::get<PinEvent>(data).kind == ParticleKind::Static ? "pin" : "unpin";
    case 3:
        return "move pins";
    case 4:
        return "sew";
    case 5:
        return "change constraints";
    case 6:
        return "parameter";
    case 7:
        return "material";
    case 8:
        return "push";
    }
    return "event";
}

} // namespace drape
