#include "edit/player.h"

#include "edit/clothedit.h"
#include "scene/params.h"

#include <algorithm>
#include <cmath>

namespace drape {

namespace {

std::string clothMissing(int cloth, std::size_t count)
{
    return "cloth " + std::to_string(cloth) + " out of range, the scene has " + std::to_string(count);
}

// The indices of `refs`, or an error when one no longer names the constraint it did when
// recorded (out of range, or joining other particles).
std::string resolve(
    const Cloth &cloth, const std::vector<ConstraintRef> &refs, std::vector<std::uint32_t> &out)
{
    out.clear();
    for (const ConstraintRef &r : refs) {
        if (r.index >= cloth.constraints.size())
            return "constraint " + std::to_string(r.index) + " out of range, cloth has "
                + std::to_string(cloth.constraints.size());
        const DistanceConstraint &c = cloth.constraints[r.index];
        if (c.a != r.a || c.b != r.b)
            return "constraint " + std::to_string(r.index) + " joins particles " + std::to_string(c.a) + "–"
                + std::to_string(c.b) + ", not " + std::to_string(r.a) + "–" + std::to_string(r.b);
        out.push_back(r.index);
    }
    return {};
}

std::string applyClothEdit(Cloth &cloth, const ClothEditResult &made)
{
    if (!made.ok())
        return made.error;
    return apply(cloth, made.edit);
}

// Replaces the settings with `next` and applies them to the running simulation (no jolt).
void setSettings(PlayerState &state, Scene next)
{
    applySceneSettings(next, state.sim);
    state.settings = std::make_shared<const Scene>(std::move(next));
}

struct Applier {
    PlayerState &state;
    const Take &take;
    std::size_t index;

    // Runs `edit(cloth)` on cloth `index` of the running simulation, or names the missing cloth.
    template <typename F> std::string onCloth(int index, F &&edit)
    {
        if (index < 0 || index >= int(state.sim.cloths.size()))
            return clothMissing(index, state.sim.cloths.size());
        return edit(state.sim.cloths[std::size_t(index)]);
    }

    std::string operator()(const DragEvent &e)
    {
        if (e.targets.empty())
            return "a drag needs at least one target";
        HeldDrag held;
        held.event = index;
        std::string error = held.grab.beginParticles(state.sim, e.cloth, e.particles, e.centre);
        if (error.empty())
            error = held.grab.moveTo(state.sim, e.targets.front());
        if (!error.empty()) {
            held.grab.cancel(state.sim);
            return error;
        }
        if (e.targets.size() == 1 && !e.open)
            held.grab.release(state.sim);
        else
            state.drags.push_back(std::move(held));
        return {};
    }

    std::string operator()(const RemoveConstraintsEvent &e)
    {
        return onCloth(e.cloth, [&](Cloth &cloth) -> std::string {
            std::vector<std::uint32_t> indices;
            if (std::string error = resolve(cloth, e.constraints, indices); !error.empty())
                return error;
            return applyClothEdit(cloth, makeRemoveConstraints(cloth, indices, e.removeTriangles));
        });
    }

    std::string operator()(const PinEvent &e)
    {
        return onCloth(e.cloth, [&](Cloth &cloth) -> std::string {
            return applyClothEdit(cloth, makeSetKind(cloth, e.particles, e.kind));
        });
    }

    std::string operator()(const MovePinsEvent &e)
    {
        return onCloth(e.cloth, [&](Cloth &cloth) -> std::string {
            return applyClothEdit(cloth, makeMoveParticles(cloth, e.particles, e.positions));
        });
    }

    std::string operator()(const SewEvent &e)
    {
        return onCloth(e.cloth, [&](Cloth &cloth) -> std::string {
            NewConstraintDef def;
            def.restLength = e.restLength;
            def.compliance = e.compliance;
            def.damping = e.damping;
            def.tearStrain = e.tearStrain;
            def.kind = e.kind;
            return applyClothEdit(cloth, makeAddConstraint(cloth, e.a, e.b, def));
        });
    }

    std::string operator()(const ChangeConstraintsEvent &e)
    {
        return onCloth(e.cloth, [&](Cloth &cloth) -> std::string {
            std::vector<std::uint32_t> indices;
            if (std::string error = resolve(cloth, e.constraints, indices); !error.empty())
                return error;
            ConstraintProps props;
            props.restLength = e.restLength;
            props.compliance = e.compliance;
            props.damping = e.damping;
            props.tearStrain = e.tearStrain;
            return applyClothEdit(cloth, makeChangeConstraints(cloth, indices, props));
        });
    }

    std::string operator()(const ParameterEvent &e)
    {
        const ParamDesc *param = findParam(e.key);
        if (!param)
            return "unknown parameter \"" + e.key + "\"";
        if (param->needsRebuild)
            return "parameter \"" + e.key
                + "\" changes the cloth's structure and cannot change while running";
        if (!std::isfinite(e.value) || e.value < param->min || e.value > param->max)
            return "parameter \"" + e.key + "\" = " + std::to_string(e.value) + " is outside "
                + std::to_string(param->min) + ".." + std::to_string(param->max);
        const Scene &current = *state.settings;
        const bool perCloth = param->group == ParamGroup::Material || param->group == ParamGroup::Cloth;
        const std::size_t count = perCloth         ? current.cloths.size()
            : param->group == ParamGroup::Collider ? current.colliders.size()
                                                   : std::size_t(1);
        const bool indexed = perCloth || param->group == ParamGroup::Collider;
        if (indexed && (e.index < 0 || std::size_t(e.index) >= count))
            return "parameter \"" + e.key + "\": index " + std::to_string(e.index)
                + " out of range, the scene has " + std::to_string(count);
        if (!param->applies(current, e.index))
            return "parameter \"" + e.key + "\" does not apply to object " + std::to_string(e.index);
        Scene next = current;
        param->set(next, e.index, e.value);
        setSettings(state, std::move(next));
        return {};
    }

    std::string operator()(const PushEvent &e)
    {
        std::string error;
        if (push(state.sim, e.centre, e.radius, e.delta, e.factor, &error) < 0)
            return error;
        return {};
    }

    std::string operator()(const MaterialEvent &e)
    {
        const Scene &current = *state.settings;
        if (e.cloth < 0 || std::size_t(e.cloth) >= current.cloths.size())
            return clothMissing(e.cloth, current.cloths.size());
        Scene next = current;
        next.cloths[std::size_t(e.cloth)].material = e.material;
        setSettings(state, std::move(next));
        return {};
    }
};

// Moves each held drag to its target for the current frame; lets go after its last one.
void continueDrags(PlayerState &state, const Take &take)
{
    std::vector<HeldDrag> still;
    for (HeldDrag &held : state.drags) {
        const DragEvent *e = held.event < take.events.size()
            ? std::get_if<DragEvent>(&take.events[held.event].data)
            : nullptr;
        if (!e) {
            held.grab.release(state.sim); // the take changed under the replay
            continue;
        }
        // The target of this frame follows from the frame alone, not from a count kept in the
        // state: a state stepped while the drag held fewer targets (the editor records them
        // while the worker steps) goes on exactly as one stepped with all of them.
        const std::uint64_t start = take.events[held.event].frame;
        const std::size_t k = std::size_t(state.frame - std::min(state.frame, start));
        if (k < e->targets.size())
            held.grab.moveTo(state.sim, e->targets[k]);
        else if (e->open && !e->targets.empty())
            held.grab.moveTo(state.sim, e->targets.back());
        if (k + 1 >= e->targets.size() && !e->open)
            held.grab.release(state.sim);
        else
            still.push_back(std::move(held));
    }
    state.drags = std::move(still);
}

} // namespace

PlayerState startState(const Scene &scene)
{
    PlayerState state;
    state.sim = buildSimulation(scene);
    state.settings = std::make_shared<const Scene>(scene);
    state.frame = 0;
    return state;
}

std::string applyEvent(PlayerState &state, const Take &take, std::size_t event)
{
    if (event >= take.events.size())
        return "event " + std::to_string(event) + " out of range";
    Applier applier { state, take, event };
    return std::visit(applier, take.events[event].data);
}

void Player::applyFrameEvents(PlayerState &state, const Take &take, std::vector<EventReport> *reports)
{
    continueDrags(state, take);
    const auto [first, last] = take.range(state.frame);
    for (std::size_t i = first; i < last; ++i) {
        std::string error = applyEvent(state, take, i);
        if (!error.empty() && reports)
            reports->push_back({ i, state.frame,
                std::string(eventName(take.events[i].data)) + " at frame " + std::to_string(state.frame)
                    + ": " + error });
    }
}

void Player::stepState(PlayerState &state)
{
    state.sim.step();
    ++state.frame;
}

Player::Player(const Scene &scene, const Take &take)
    : m_state(startState(scene))
    , m_take(&take)
{
    applyFrameEvents(m_state, take, &m_reports);
}

Player::Player(PlayerState state, const Take &take)
    : m_state(std::move(state))
    , m_take(&take)
{ }

void Player::advance()
{
    stepState(m_state);
    applyFrameEvents(m_state, *m_take, &m_reports);
}

void Player::advanceTo(std::uint64_t frame)
{
    while (m_state.frame < frame)
        advance();
}

Simulation replay(
    const Scene &scene, const Take &take, std::uint64_t frame, std::vector<EventReport> *reports)
{
    Player player(scene, take);
    player.advanceTo(frame);
    if (reports)
        *reports = player.reports();
    return player.state().sim;
}

} // namespace drape
