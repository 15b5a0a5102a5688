#include "edit/editdocument.h"

#include "scene/params.h"

#include <algorithm>
#include <cmath>

namespace drape {

std::vector<std::uint32_t> remapGridIndices(
    const GridDesc &from, const GridDesc &to, const std::vector<std::uint32_t> &indices)
{
    // Grid particle (i, j) sits at u = i / (across - 1), v = j / (down - 1) of the sheet. Each
    // listed particle maps to the new particle nearest the same (u, v), rounding halves up in
    // integers so corners stay exact (no pin is lost when the grid gets coarser). A new
    // particle that lies between listed old ones (all of the up to four old particles
    // around it listed) is listed too, so a pinned row stays a whole row when the grid gets
    // finer while a lone pin stays one pin.
    const std::int64_t fa = std::max(from.across, 2), fd = std::max(from.down, 2);
    const std::int64_t ta = std::max(to.across, 2), td = std::max(to.down, 2);
    auto scale = [](std::int64_t k, std::int64_t fromCount, std::int64_t toCount) {
        return (2 * k * (toCount - 1) + (fromCount - 1)) / (2 * (fromCount - 1));
    };
    std::vector<bool> listed(std::size_t(fa * fd), false);
    std::vector<std::uint32_t> out;
    for (std::uint32_t index : indices) {
        if (std::int64_t(index) >= fa * fd)
            continue;
        listed[index] = true;
        const std::int64_t i = std::int64_t(index) % fa, j = std::int64_t(index) / fa;
        out.push_back(std::uint32_t(scale(j, fd, td) * ta + scale(i, fa, ta)));
    }
    auto at = [&](std::int64_t i, std::int64_t j) { return bool(listed[std::size_t(j * fa + i)]); };
    for (std::int64_t j = 0; j < td; ++j) {
        const std::int64_t y = j * (fd - 1), j0 = y / (td - 1), j1 = (y + td - 2) / (td - 1);
        for (std::int64_t i = 0; i < ta; ++i) {
            const std::int64_t x = i * (fa - 1), i0 = x / (ta - 1), i1 = (x + ta - 2) / (ta - 1);
            if (at(i0, j0) && at(i1, j0) && at(i0, j1) && at(i1, j1))
                out.push_back(std::uint32_t(j * ta + i));
        }
    }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

namespace {

std::vector<ParticleKind> authoredKinds(std::vector<ParticleKind> kinds)
{
    for (ParticleKind &k : kinds)
        if (k == ParticleKind::Kinematic)
            k = ParticleKind::Dynamic; // a grab is an interaction, not authored
    return kinds;
}

// Writes an edited start-state cloth back into the scene: a pure pin change keeps a generated
// cloth generated (only `pins` changes); anything else makes the description explicit lists
// taken from the cloth. A scene with a state gets the cloth's state too.
void writeBack(Scene &scene, std::size_t index, const Cloth &cloth)
{
    ClothDesc &desc = scene.cloths[index];
    const Cloth built = buildCloth(desc);
    const bool sameShape = built.particles.size() == cloth.particles.size()
        && built.constraints == cloth.constraints && built.triangles == cloth.triangles
        && built.particles.rest == cloth.particles.rest && built.particles.mass == cloth.particles.mass;
    const std::vector<ParticleKind> kinds = authoredKinds(cloth.particles.kind);
    if (!sameShape || desc.source == ClothSource::Explicit) {
        ExplicitDesc made = explicitFor(desc, cloth); // from the description as it was
        desc.source = ClothSource::Explicit;
        desc.grid = GridDesc {};
        desc.rope = RopeDesc {};
        desc.placement = {}; // the explicit lists are placed already
        desc.explicitData = std::move(made);
        desc.explicitData.kind = kinds;
    }
    desc.pins.clear();
    for (std::uint32_t p = 0; p < kinds.size(); ++p)
        if (kinds[p] == ParticleKind::Static)
            desc.pins.push_back(p);
    if (scene.state && index < scene.state->cloths.size()) {
        ClothState &s = scene.state->cloths[index];
        s.position = cloth.particles.position;
        s.previous = cloth.particles.previous;
        s.velocity = cloth.particles.velocity;
        s.kind = kinds;
    }
}

// Sets the cloth index an event refers to.
void setEventCloth(EventData &data, int cloth)
{
    std::visit(
        [cloth](auto &e) {
            using T = std::decay_t<decltype(e)>;
            if constexpr (std::is_same_v<T, ParameterEvent>)
                e.index = cloth;
            else if constexpr (!std::is_same_v<T, PushEvent>)
                e.cloth = cloth;
        },
        data);
}

// The cloth an event is about, parameters of a cloth or its material included (-1: none).
int clothOfEvent(const EventData &data)
{
    if (const auto *p = std::get_if<ParameterEvent>(&data)) {
        const ParamDesc *param = findParam(p->key);
        if (param && (param->group == ParamGroup::Material || param->group == ParamGroup::Cloth))
            return p->index;
        return -1;
    }
    return eventCloth(data);
}

// Shortens the drags still held after `frame` so they let go at `frame`.
void endDragsAt(Take &take, std::uint64_t frame)
{
    for (Event &e : take.events)
        if (auto *drag = std::get_if<DragEvent>(&e.data); drag && e.frame <= frame)
            if (e.frame + drag->targets.size() > frame + 1)
                drag->targets.resize(std::size_t(frame - e.frame + 1));
}

// A cloth at rest as its description builds it, for a scene that starts from a saved state.
ClothState restState(const ClothDesc &desc)
{
    const Cloth cloth = buildCloth(desc);
    ClothState s;
    s.position = cloth.particles.position;
    s.previous = cloth.particles.previous;
    s.velocity = cloth.particles.velocity;
    s.kind = cloth.particles.kind;
    return s;
}


// True when replaying `a` and `b` arrives at `frame` in the same state: the same events
// before it, a drag counting only as far as it reaches the frame.
bool sameArrival(const Take &a, const Take &b, std::uint64_t frame)
{
    const std::size_t n = a.range(frame).first;
    if (b.range(frame).first != n)
        return false;
    for (std::size_t i = 0; i < n; ++i) {
        const Event &x = a.events[i], &y = b.events[i];
        if (x.frame != y.frame)
            return false;
        const auto *dx = std::get_if<DragEvent>(&x.data);
        const auto *dy = std::get_if<DragEvent>(&y.data);
        if (!dx || !dy) {
            if (!(x.data == y.data))
                return false;
            continue;
        }
        if (dx->cloth != dy->cloth || dx->particles != dy->particles || !(dx->centre == dy->centre))
            return false;
        // Frames frame0 .. frame-1 shaped the arrival; past the longer target list every
        // frame looks like the last one.
        const std::size_t reach = std::size_t(frame - x.frame);
        const std::size_t span = std::min(reach, std::max(dx->targets.size(), dy->targets.size()) + 1);
        for (std::size_t k = 0; k < span; ++k)
            if (dx->targetAt(k) != dy->targetAt(k))
                return false;
    }
    return true;
}

std::string plural(std::size_t n, const char *one, const char *many)
{
    return std::to_string(n) + " " + (n == 1 ? one : many);
}

/// What an edit at the playhead says when it cut the take short (empty when it did not).
std::string droppedMessage(std::size_t dropped)
{
    return dropped ? plural(dropped, "later event was", "later events were") + " dropped" : std::string();
}

} // namespace

EditDocument::EditDocument(Scene scene, Take take)
    : m_scene(std::make_shared<const Scene>(std::move(scene)))
    , m_take(std::move(take))
{
    replayTo(0);
}

std::string EditDocument::modeText() const
{
    if (m_state.frame == 0)
        return "Editing the scene";
    return "Recording at frame " + std::to_string(m_state.frame);
}

void EditDocument::replayTo(std::uint64_t frame)
{
    PlayerState s = startState(*m_scene);
    m_arrivedReports.clear();
    while (s.frame < frame) {
        Player::applyFrameEvents(s, m_take, &m_arrivedReports);
        Player::stepState(s);
    }
    m_arrived = std::move(s);
    m_stateIsArrival = false;
    reapplyFrame();
}

void EditDocument::materialiseArrival()
{
    if (!m_stateIsArrival)
        return;
    m_arrived = m_state;
    m_arrivedReports = m_reports;
    m_stateIsArrival = false;
}

void EditDocument::reapplyFrame()
{
    materialiseArrival();
    m_state = m_arrived;
    m_reports = m_arrivedReports;
    Player::applyFrameEvents(m_state, m_take, &m_reports);
}

void EditDocument::step()
{
    if (m_drag) {
        auto &drag = std::get<DragEvent>(m_take.events[m_drag->event].data);
        drag.targets.push_back(drag.targets.back()); // held where the cursor is
    }
    Player::stepState(m_state);
    const auto [first, last] = m_take.range(m_state.frame);
    m_stateIsArrival = m_state.drags.empty() && first == last;
    if (m_stateIsArrival)
        return; // nothing happens at this frame: the shown state is the arrival
    m_arrived = m_state;
    m_arrivedReports = m_reports;
    Player::applyFrameEvents(m_state, m_take, &m_reports);
}

void EditDocument::holdFrames(int frames)
{
    if (!m_drag || frames <= 0)
        return;
    auto &drag = std::get<DragEvent>(m_take.events[m_drag->event].data);
    drag.targets.insert(drag.targets.end(), std::size_t(frames), drag.targets.back());
}

void EditDocument::dropHeldFrames()
{
    if (!m_drag)
        return;
    const Event &event = m_take.events[m_drag->event];
    auto &drag = std::get<DragEvent>(m_take.events[m_drag->event].data);
    const std::size_t reached = std::size_t(m_state.frame - std::min(m_state.frame, event.frame)) + 1;
    if (drag.targets.size() > reached)
        drag.targets.resize(reached);
}

void EditDocument::run(int frames)
{
    for (int i = 0; i < frames; ++i)
        step();
}

void EditDocument::reset()
{
    if (m_drag)
        cancelDrag();
    replayTo(0);
}

void EditDocument::seek(std::uint64_t frame)
{
    if (m_drag)
        cancelDrag();
    if (frame >= m_state.frame) {
        while (m_state.frame < frame)
            step();
        return;
    }
    replayTo(frame);
}

void EditDocument::seekFrom(PlayerState shown, std::uint64_t frame)
{
    if (m_drag)
        cancelDrag();
    if (shown.frame >= frame) {
        replayTo(frame);
        return;
    }
    adopt(arrive(std::move(shown), m_take, frame));
}

EditDocument::Arrival EditDocument::arrive(PlayerState shown, const Take &take, std::uint64_t frame)
{
    Arrival out;
    Player::stepState(shown); // the arrival at shown.frame + 1
    while (shown.frame < frame) {
        Player::applyFrameEvents(shown, take, &out.reports);
        Player::stepState(shown);
    }
    out.state = std::move(shown);
    return out;
}

void EditDocument::adopt(Arrival arrival, bool keepDrag)
{
    if (m_drag && !keepDrag)
        cancelDrag();
    m_arrived = std::move(arrival.state);
    m_arrivedReports = std::move(arrival.reports);
    m_stateIsArrival = false;
    reapplyFrame();
}

bool EditDocument::keepsArrival(const Snapshot &s) const
{
    const bool sameStart = s.scene == m_scene || withoutPresentation(*s.scene) == withoutPresentation(*m_scene);
    return sameStart && s.playhead == m_state.frame && sameArrival(s.take, m_take, s.playhead);
}

void EditDocument::restore(const Snapshot &s, std::optional<Arrival> arrival)
{
    // An edit at the playhead leaves the arrival there as it was: undoing or redoing it only
    // re-applies that frame's events, without simulating again from the start.
    const bool keepArrival = keepsArrival(s);
    // The message spoke of the edit being undone or redone, not of the document now shown.
    m_message.clear();
    m_scene = s.scene;
    m_take = s.take;
    if (keepArrival)
        reapplyFrame();
    else if (arrival && s.playhead > 0 && arrival->state.frame == s.playhead)
        adopt(std::move(*arrival));
    else
        replayTo(s.playhead);
}

bool EditDocument::historyMoveSteps(std::size_t target) const
{
    if (target > m_steps.size() || target == m_index)
        return false;
    const Snapshot &s = historyPoint(target);
    return s.playhead > 0 && !keepsArrival(s);
}

void EditDocument::moveHistory(std::size_t target, std::optional<Arrival> arrival)
{
    if (m_drag)
        cancelDrag();
    if (target > m_steps.size() || target == m_index)
        return;
    const Snapshot &s = historyPoint(target);
    m_index = target;
    restore(s, std::move(arrival));
}

void EditDocument::push(std::string text, Snapshot before)
{
    if (m_groupStart && m_index > *m_groupStart) {
        // Inside a group every edit extends the group's one step.
        m_steps.resize(m_index);
        m_steps.back().after = snapshot();
        return;
    }
    m_steps.resize(m_index);
    m_steps.push_back({ std::move(text), std::move(before), snapshot() });
    ++m_index;
}

void EditDocument::undo()
{
    if (m_drag)
        cancelDrag();
    if (canUndo())
        moveHistory(m_index - 1);
}

void EditDocument::redo()
{
    if (m_drag)
        cancelDrag();
    if (canRedo())
        moveHistory(m_index + 1);
}

std::string EditDocument::editScene(const EventData &data, Scene &scene) const
{
    PlayerState s = startState(scene);
    Take single;
    single.events.push_back({ 0, data });
    if (std::string error = applyEvent(s, single, 0); !error.empty())
        return error;
    if (std::holds_alternative<ParameterEvent>(data) || std::holds_alternative<MaterialEvent>(data)) {
        std::optional<SceneState> state = scene.state;
        scene = *s.settings;
        scene.state = std::move(state);
        return {};
    }
    const std::size_t cloth = std::size_t(eventCloth(data));
    Cloth &edited = s.sim.cloths[cloth];
    if (const auto *move = std::get_if<MovePinsEvent>(&data))
        for (std::size_t k = 0; k < move->particles.size(); ++k)
            edited.particles.rest[move->particles[k]] = move->positions[k]; // the hook is authored there
    writeBack(scene, cloth, edited);
    return {};
}

std::string EditDocument::addAtPlayhead(
    EventData data, const Snapshot &before, std::size_t *dropped, std::size_t *index)
{
    const std::uint64_t frame = m_state.frame;
    endDragsAt(m_take, frame);
    const std::size_t count = m_take.dropAfter(frame);
    m_take.add({ frame, std::move(data) });
    const std::size_t at = m_take.range(frame).second - 1;
    reapplyFrame();
    for (const EventReport &r : m_reports)
        if (r.event == at && r.frame == frame) {
            std::string error = r.message;
            m_take = before.take;
            reapplyFrame();
            return error;
        }
    if (dropped)
        *dropped = count;
    if (index)
        *index = at;
    return {};
}

std::string EditDocument::record(std::string text, EventData data)
{
    if (m_drag)
        return "finish the drag first";
    const std::uint64_t frame = m_state.frame;
    Snapshot before = snapshot();
    if (frame == 0) {
        Scene next = *m_scene;
        if (std::string error = editScene(data, next); !error.empty())
            return error;
        m_scene = std::make_shared<const Scene>(std::move(next));
        const std::size_t dropped = m_take.dropAfter(0);
        // Events at frame 0 referred to the old start; they are replayed and kept if they fit.
        m_message = droppedMessage(dropped);
        replayTo(0);
        push(std::move(text), std::move(before));
        return {};
    }
    if (const auto *p = std::get_if<ParameterEvent>(&data)) {
        // A value changed again in the same frame (a scrubbed slider) replaces the last one.
        const auto [first, last] = m_take.range(frame);
        if (last > first)
            if (const auto *q = std::get_if<ParameterEvent>(&m_take.events[last - 1].data);
                q && q->key == p->key && q->index == p->index)
                m_take.events.erase(m_take.events.begin() + std::ptrdiff_t(last - 1));
    }
    std::size_t dropped = 0;
    if (std::string error = addAtPlayhead(std::move(data), before, &dropped, nullptr); !error.empty())
        return error;
    m_message = droppedMessage(dropped);
    push(std::move(text), std::move(before));
    return {};
}

std::string EditDocument::setKind(int cloth, const std::vector<std::uint32_t> &particles, ParticleKind kind)
{
    return record(kind == ParticleKind::Static ? "Pin" : "Unpin", PinEvent { cloth, particles, kind });
}

std::string EditDocument::movePins(
    int cloth, const std::vector<std::uint32_t> &particles, const std::vector<Vec3> &positions)
{
    return record("Move pins", MovePinsEvent { cloth, particles, positions });
}

std::string EditDocument::sew(int cloth, std::uint32_t a, std::uint32_t b, const NewConstraintDef &def)
{
    return record("Sew",
        SewEvent { cloth, a, b, def.restLength, def.compliance, def.damping, def.tearStrain, def.kind });
}

namespace {

std::string refsOf(const Simulation &sim, int cloth, const std::vector<std::uint32_t> &indices,
    std::vector<ConstraintRef> &out)
{
    if (cloth < 0 || std::size_t(cloth) >= sim.cloths.size())
        return "cloth " + std::to_string(cloth) + " out of range, the scene has "
            + std::to_string(sim.cloths.size());
    const Cloth &c = sim.cloths[std::size_t(cloth)];
    std::vector<std::uint32_t> sorted = indices;
    std::sort(sorted.begin(), sorted.end());
    sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
    for (std::uint32_t i : sorted) {
        if (i >= c.constraints.size())
            return "constraint " + std::to_string(i) + " out of range, cloth has "
                + std::to_string(c.constraints.size());
        out.push_back({ i, c.constraints[i].a, c.constraints[i].b });
    }
    return {};
}

} // namespace

std::string EditDocument::removeConstraints(
    int cloth, const std::vector<std::uint32_t> &indices, bool cut, bool removeTriangles)
{
    RemoveConstraintsEvent e { cloth, {}, removeTriangles, cut };
    if (std::string error = refsOf(m_state.sim, cloth, indices, e.constraints); !error.empty())
        return error;
    if (e.constraints.empty())
        return "nothing to remove";
    return record(cut ? "Cut" : "Remove constraints", std::move(e));
}

std::string EditDocument::changeConstraints(
    int cloth, const std::vector<std::uint32_t> &indices, const ConstraintProps &props)
{
    ChangeConstraintsEvent e { cloth, {}, props.restLength, props.compliance, props.damping,
        props.tearStrain };
    if (std::string error = refsOf(m_state.sim, cloth, indices, e.constraints); !error.empty())
        return error;
    return record("Change constraints", std::move(e));
}

std::string EditDocument::setParameter(const std::string &key, int index, double value)
{
    const ParamDesc *param = findParam(key);
    if (!param)
        return "unknown parameter \"" + key + "\"";
    if (!param->needsRebuild)
        return record("Set " + param->label, ParameterEvent { key, index, value });
    if (m_drag)
        return "finish the drag first";
    if (value < param->min || value > param->max)
        return "parameter \"" + key + "\" = " + std::to_string(value) + " is outside "
            + std::to_string(param->min) + ".." + std::to_string(param->max);
    const bool perCloth = param->group == ParamGroup::Material || param->group == ParamGroup::Cloth;
    if (perCloth && (index < 0 || std::size_t(index) >= m_scene->cloths.size()))
        return "parameter \"" + key + "\": cloth " + std::to_string(index) + " out of range";
    Scene next = *m_scene;
    param->set(next, index, value);
    if (perCloth) {
        const ClothDesc &was = m_scene->cloths[std::size_t(index)];
        ClothDesc &now = next.cloths[std::size_t(index)];
        if (was.source == ClothSource::Grid && !(was.grid == now.grid))
            now.pins = remapGridIndices(was.grid, now.grid, was.pins);
    }
    structural("Set " + param->label, std::move(next), perCloth ? index : -1, false);
    return {};
}

std::string EditDocument::setMaterial(int cloth, const Material &material)
{
    return record("Set material", MaterialEvent { cloth, material });
}

std::string EditDocument::setGrid(int cloth, const GridDesc &grid)
{
    if (m_drag)
        return "finish the drag first";
    if (cloth < 0 || std::size_t(cloth) >= m_scene->cloths.size())
        return "cloth " + std::to_string(cloth) + " out of range";
    const ClothDesc &was = m_scene->cloths[std::size_t(cloth)];
    if (was.source != ClothSource::Grid)
        return "cloth " + std::to_string(cloth) + " is not a grid";
    if (grid.across < 2 || grid.down < 2 || !(grid.width > 0.f) || !(grid.height > 0.f))
        return "a grid needs at least 2 × 2 particles and a positive size";
    Scene next = *m_scene;
    ClothDesc &now = next.cloths[std::size_t(cloth)];
    now.grid = grid;
    now.pins = remapGridIndices(was.grid, grid, was.pins);
    structural("Change grid", std::move(next), cloth, false);
    return {};
}

std::string EditDocument::addCloth(const ClothDesc &cloth)
{
    if (m_drag)
        return "finish the drag first";
    Scene next = *m_scene;
    next.cloths.push_back(cloth);
    if (next.state)
        next.state->cloths.push_back(restState(cloth)); // the new cloth starts at rest
    structural("Add cloth", std::move(next), -1, false);
    return {};
}

std::string EditDocument::removeCloth(int cloth)
{
    return removeObjects({ { SceneObject::Kind::Cloth, cloth } });
}

std::string EditDocument::addCollider(const Collider &collider)
{
    if (m_drag)
        return "finish the drag first";
    if (!isFinite(collider.center) || !isFinite(collider.baseCenter))
        return "the collider's centre is not finite";
    Scene next = *m_scene;
    next.colliders.push_back(collider);
    if (next.state)
        next.state->colliderCenters.push_back(collider.baseCenter);
    structural("Add collider", std::move(next), -1, false);
    return {};
}

std::string EditDocument::removeCollider(int index)
{
    return removeObjects({ { SceneObject::Kind::Collider, index } });
}

void EditDocument::renumbered(
    std::string text, Scene next, const std::vector<int> &clothMap, const std::vector<int> &colliderMap)
{
    // Events follow the cloth or collider they are about; those of removed objects go.
    const Take was = m_take;
    Take kept;
    for (const Event &e : m_take.events) {
        Event moved = e;
        const int c = clothOfEvent(e.data);
        if (c >= 0 && std::size_t(c) < clothMap.size()) {
            if (clothMap[std::size_t(c)] < 0)
                continue;
            setEventCloth(moved.data, clothMap[std::size_t(c)]);
        }
        if (auto *p = std::get_if<ParameterEvent>(&moved.data)) {
            const ParamDesc *param = findParam(p->key);
            if (param && param->group == ParamGroup::Collider && p->index >= 0
                && std::size_t(p->index) < colliderMap.size()) {
                if (colliderMap[std::size_t(p->index)] < 0)
                    continue;
                p->index = colliderMap[std::size_t(p->index)];
            }
        }
        kept.events.push_back(std::move(moved));
    }
    const std::size_t dropped = m_take.events.size() - kept.events.size();
    m_take = std::move(kept);
    structural(std::move(text), std::move(next), -1, false, &was, dropped);
}

void EditDocument::structural(
    std::string text, Scene next, int cloth, bool removedCloth, const Take *takeBefore, std::size_t droppedBefore)
{
    Snapshot before = snapshot();
    if (takeBefore)
        before.take = *takeBefore;
    // The state saved for a changed cloth no longer fits it: it restarts at rest.
    if (next.state && cloth >= 0 && !removedCloth && std::size_t(cloth) < next.state->cloths.size())
        next.state->cloths[std::size_t(cloth)] = restState(next.cloths[std::size_t(cloth)]);
    Take kept;
    std::size_t dropped = droppedBefore;
    for (Event &e : m_take.events) {
        const int c = clothOfEvent(e.data);
        if (cloth >= 0 && c == cloth) {
            ++dropped; // its particle and constraint indices meant the old cloth
            continue;
        }
        if (removedCloth && c > cloth)
            setEventCloth(e.data, c - 1);
        kept.events.push_back(std::move(e));
    }
    // Whatever else no longer fits the new scene is dropped too (found by replaying it).
    std::vector<EventReport> reports;
    {
        Player player(next, kept);
        player.advanceTo(kept.lastFrame());
        reports = player.reports();
    }
    if (!reports.empty()) {
        std::vector<bool> bad(kept.events.size(), false);
        for (const EventReport &r : reports)
            bad[r.event] = true;
        Take fitting;
        for (std::size_t i = 0; i < kept.events.size(); ++i)
            if (!bad[i])
                fitting.events.push_back(std::move(kept.events[i]));
        dropped += kept.events.size() - fitting.events.size();
        kept = std::move(fitting);
    }
    m_scene = std::make_shared<const Scene>(std::move(next));
    m_take = std::move(kept);
    m_message = dropped
        ? plural(dropped, "event no longer applies and was", "events no longer apply and were") + " removed"
        : std::string();
    replayTo(0);
    push(std::move(text), std::move(before));
}

std::string EditDocument::removeEvent(std::size_t index)
{
    if (m_drag)
        return "finish the drag first";
    if (index >= m_take.events.size())
        return "event " + std::to_string(index) + " out of range, the take has "
            + std::to_string(m_take.events.size());
    Snapshot before = snapshot();
    const std::string text = std::string("Delete ") + eventName(m_take.events[index].data);
    m_take.events.erase(m_take.events.begin() + std::ptrdiff_t(index));
    m_message.clear();
    if (before.take.events[index].frame <= m_state.frame)
        replayTo(m_state.frame); // the shown state no longer has it
    push(text, std::move(before));
    return {};
}

std::string EditDocument::setStartHere()
{
    if (m_drag)
        return "finish the drag first";
    Snapshot before = snapshot();
    Scene next = snapshotScene(*m_state.settings, m_state.sim, true);
    m_scene = std::make_shared<const Scene>(std::move(next));
    m_take = {};
    m_message.clear();
    replayTo(0);
    push("Set start here", std::move(before));
    return {};
}

std::pair<Scene, Take> EditDocument::fromPlayhead() const
{
    const std::uint64_t at = m_state.frame;
    std::pair<Scene, Take> out { snapshotScene(*m_state.settings, m_state.sim, true), Take {} };
    out.first.name = m_scene->name;
    out.first.description = m_scene->description;
    out.first.camera = m_scene->camera;
    out.first.view = m_scene->view;
    out.first.record = m_scene->record;
    for (std::size_t i = m_take.range(at).second; i < m_take.events.size(); ++i) {
        Event e = m_take.events[i];
        e.frame -= at;
        if (auto *drag = std::get_if<DragEvent>(&e.data))
            drag->open = false;
        out.second.events.push_back(std::move(e));
    }
    return out;
}

std::string EditDocument::setPresentation(std::string text, Scene next)
{
    if (m_drag)
        return "finish the drag first";
    if (!(withoutPresentation(next) == withoutPresentation(*m_scene)))
        return "not a change of presentation only";
    if (next == *m_scene)
        return {};
    Snapshot before = snapshot();
    next.state = m_scene->state;
    m_scene = std::make_shared<const Scene>(std::move(next));
    m_message.clear();
    push(std::move(text), std::move(before));
    return {};
}

std::string EditDocument::push(const Vec3 &centre, float radius, const Vec3 &delta, float factor)
{
    if (m_drag)
        return "finish the drag first";
    if (!(radius > 0.f) || !std::isfinite(radius) || !(factor >= 0.f && factor <= 1.f))
        return "a push needs a positive radius and a strength between 0 and 1";
    Snapshot before = snapshot();
    std::size_t dropped = 0;
    if (std::string error = addAtPlayhead(PushEvent { centre, radius, delta, factor }, before, &dropped, nullptr);
        !error.empty())
        return error;
    m_message = droppedMessage(dropped);
    push("Push", std::move(before));
    return {};
}

void EditDocument::beginGroup()
{
    if (m_groupStart)
        return;
    m_groupStart = m_index;
    m_groupRedo.assign(m_steps.begin() + std::ptrdiff_t(m_index), m_steps.end());
}

void EditDocument::abandonGroup(std::optional<Arrival> arrival)
{
    if (!m_groupStart)
        return;
    if (m_drag)
        cancelDrag();
    const std::size_t start = *m_groupStart;
    m_groupStart.reset();
    if (m_index > start) {
        const Snapshot before = m_steps[start].before;
        m_steps.resize(start);
        m_index = start;
        restore(before, std::move(arrival));
    }
    m_steps.resize(m_index);
    m_steps.insert(m_steps.end(), m_groupRedo.begin(), m_groupRedo.end());
    m_groupRedo.clear();
}

bool EditDocument::endGroup(std::string text)
{
    if (!m_groupStart)
        return false;
    const std::size_t start = *m_groupStart;
    m_groupStart.reset();
    if (m_index <= start) {
        // Nothing was edited: the redo history stays as it was.
        m_steps.resize(m_index);
        m_steps.insert(m_steps.end(), m_groupRedo.begin(), m_groupRedo.end());
        m_groupRedo.clear();
        return false;
    }
    m_groupRedo.clear();
    m_steps[start].text = std::move(text);
    m_steps[start].after = snapshot(); // the gesture ends here (its frames played included)
    return true;
}

bool EditDocument::mergeLast(std::string text)
{
    if (m_index < 2 || m_index != m_steps.size())
        return false;
    Step &first = m_steps[m_index - 2];
    first.after = m_steps[m_index - 1].after;
    first.text = std::move(text);
    m_steps.pop_back();
    --m_index;
    return true;
}

std::string EditDocument::beginDrag(
    int cloth, const std::vector<std::uint32_t> &particles, const Vec3 &centre)
{
    if (m_drag)
        return "a drag is already held";
    Snapshot before = snapshot();
    std::vector<std::uint32_t> held = particles;
    std::sort(held.begin(), held.end());
    held.erase(std::unique(held.begin(), held.end()), held.end());
    std::size_t index = 0;
    std::size_t dropped = 0;
    DragEvent drag { cloth, std::move(held), centre, { centre }, true };
    if (std::string error = addAtPlayhead(std::move(drag), before, &dropped, &index); !error.empty())
        return error;
    m_message = droppedMessage(dropped);
    m_drag = OpenDrag { std::move(before), index };
    return {};
}

void EditDocument::dragTo(const Vec3 &target)
{
    if (!m_drag)
        return;
    std::get<DragEvent>(m_take.events[m_drag->event].data).targets.back() = target;
    reapplyFrame();
}

void EditDocument::endDrag()
{
    if (!m_drag)
        return;
    std::get<DragEvent>(m_take.events[m_drag->event].data).open = false;
    reapplyFrame();
    Snapshot before = std::move(m_drag->before);
    m_drag.reset();
    push("Drag", std::move(before));
}

void EditDocument::cancelDrag(std::optional<Arrival> arrival)
{
    if (!m_drag)
        return;
    Snapshot before = std::move(m_drag->before);
    m_drag.reset();
    restore(before, std::move(arrival));
}

} // namespace drape
