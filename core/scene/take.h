// The take: what the user did after the scene's start, as events stamped with the frame at
// which they apply.
//
// The document is a scene plus a take. The simulation at frame f is a pure function of the
// scene and the events stamped 0..f (core/edit/player.h replays it). Tears the solver
// produces are consequences of the replay, never events.
//
// Events refer to particles and constraints by their index at the frame they apply. Those
// indices are deterministic given the scene and the earlier events, so replaying from frame 0
// or from a snapshot taken at frame k gives the same indices. Constraint references also
// carry the two particles the constraint joined when the event was recorded, so an event
// whose constraint is no longer there (an earlier event was deleted) is reported as not
// applying instead of removing a different constraint.
#pragma once

#include "base/vec3.h"
#include "scene/scene.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace drape {

/// A constraint as an event sees it: its index at the event's frame and its two particles.
struct ConstraintRef {
    std::uint32_t index = 0;
    std::uint32_t a = 0;
    std::uint32_t b = 0;

    bool operator==(const ConstraintRef &) const = default;
};

/// Particles held by the cursor. At frame `frame + i` the held particles are moved so that
/// the grab centre is at targets[i]; after the last target they are let go (with the
/// cursor's recent velocity; held pins stay where they were dropped).
struct DragEvent {
    int cloth = 0;
    std::vector<std::uint32_t> particles; ///< held particle indices, ascending
    Vec3 centre; ///< m, the grabbed point at the first frame
    std::vector<Vec3> targets; ///< m, one per frame the drag lasts (at least one)
    /// Still held by the user: the replay keeps holding after the last target. Never saved.
    bool open = false;

    /// Where the particles are held at frame `frame + k`; none once let go.
    std::optional<Vec3> targetAt(std::size_t k) const
    {
        if (k < targets.size())
            return targets[k];
        if (open && !targets.empty())
            return targets.back();
        return std::nullopt;
    }
    /// Whether the particles are still held after frame `frame + k` (let go with its last target).
    bool heldAfter(std::size_t k) const { return open || k + 1 < targets.size(); }
    /// The first k at which this drag and `other` (the same particles, from the same frame)
    /// hold differently: another target or one let go where the other holds. SIZE_MAX when
    /// they never do (an open drag and the same one with more targets, each the last).
    std::size_t firstDifference(const DragEvent &other) const
    {
        const std::size_t span = std::max(targets.size(), other.targets.size()) + 1;
        for (std::size_t k = 0; k < span; ++k)
            if (targetAt(k) != other.targetAt(k) || heldAfter(k) != other.heldAfter(k))
                return k;
        return SIZE_MAX;
    }

    bool operator==(const DragEvent &) const = default;
};

/// Constraints removed (a cut stroke, the constraint tool's Delete).
struct RemoveConstraintsEvent {
    int cloth = 0;
    std::vector<ConstraintRef> constraints; ///< ascending index
    bool removeTriangles = true; ///< also remove triangles that lose an edge
    bool cut = false; ///< made by a knife stroke (shown as "Cut")

    bool operator==(const RemoveConstraintsEvent &) const = default;
};

/// Particles pinned (kind Static) or unpinned (Dynamic).
struct PinEvent {
    int cloth = 0;
    std::vector<std::uint32_t> particles;
    ParticleKind kind = ParticleKind::Static;

    bool operator==(const PinEvent &) const = default;
};

/// Pins moved to new places (curtain hooks), at rest there.
struct MovePinsEvent {
    int cloth = 0;
    std::vector<std::uint32_t> particles;
    std::vector<Vec3> positions; ///< m, parallel to particles

    bool operator==(const MovePinsEvent &) const = default;
};

/// A constraint added between two particles (sewing).
struct SewEvent {
    int cloth = 0;
    std::uint32_t a = 0;
    std::uint32_t b = 0;
    float restLength = -1.f; ///< m; < 0: the distance between the particles at that frame
    float compliance = 0.f; ///< m/N
    float damping = 0.f; ///< N·s/m
    float tearStrain = kNeverTear; ///< strain at which it tears
    ConstraintKind kind = ConstraintKind::User;

    bool operator==(const SewEvent &) const = default;
};

/// Properties of constraints changed; unset fields keep their value.
struct ChangeConstraintsEvent {
    int cloth = 0;
    std::vector<ConstraintRef> constraints;
    std::optional<float> restLength; ///< m
    std::optional<float> compliance; ///< m/N
    std::optional<float> damping; ///< N·s/m
    std::optional<float> tearStrain;

    bool operator==(const ChangeConstraintsEvent &) const = default;
};

/// A value of the parameter table (scene/params.h) changed while running.
struct ParameterEvent {
    std::string key; ///< ParamDesc::key
    int index = 0; ///< cloth or collider index for per-object parameters
    double value = 0; ///< in the parameter's unit

    bool operator==(const ParameterEvent &) const = default;
};

/// A cloth's whole material replaced while running (a material preset).
struct MaterialEvent {
    int cloth = 0;
    Material material;

    bool operator==(const MaterialEvent &) const = default;
};

/// The Push tool over one frame (the tearable-cloth demo's left drag): particles of every
/// cloth within `radius` of `centre` take the cursor's displacement `delta` as their motion.
struct PushEvent {
    Vec3 centre; ///< m
    float radius = 0.f; ///< m
    Vec3 delta; ///< m, the cursor's motion over the frame
    float factor = 1.f; ///< strength, 0..1

    bool operator==(const PushEvent &) const = default;
};

using EventData = std::variant<DragEvent, RemoveConstraintsEvent, PinEvent, MovePinsEvent, SewEvent,
    ChangeConstraintsEvent, ParameterEvent, MaterialEvent, PushEvent>;

struct Event {
    std::uint64_t frame = 0; ///< frames after the scene's start at which it applies
    EventData data;

    bool operator==(const Event &) const = default;
};

/// Events in the order they apply: by frame, and in recording order within a frame.
struct Take {
    std::vector<Event> events;

    bool operator==(const Take &) const = default;
    bool empty() const { return events.empty(); }
    /// Inserts `event` after every event of the same or an earlier frame.
    void add(Event event);
    /// Removes the events stamped after `frame`; returns how many.
    std::size_t dropAfter(std::uint64_t frame);
    /// [first, last) indices of the events stamped `frame`.
    std::pair<std::size_t, std::size_t> range(std::uint64_t frame) const;
    /// The last frame any event touches (a drag lasts as many frames as it has targets).
    std::uint64_t lastFrame() const;
};

/// The cloth an event refers to, or -1 (parameters of the world, solver, wind; a push).
int eventCloth(const EventData &data);
/// A short name for messages and undo text ("drag", "cut", "pin", ...).
const char *eventName(const EventData &data);

} // namespace drape
