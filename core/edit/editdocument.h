// The editing layer: a scene plus a take, the playhead, and undo / redo with exact inverses.
//
// Every edit means one thing, decided by the playhead:
//   * at frame 0 it changes the scene (the start);
//   * at frame f > 0 it is recorded in the take as an event stamped f, and the events after f
//     are dropped (the take continues from the new edit), as one undo step with the edit;
//   * structural edits (a grid's size or resolution; adding, duplicating, reordering or
//     removing a cloth or a collider) change the scene whatever the frame, return the
//     playhead to 0, renumber the events to follow their objects and drop those that no
//     longer apply (those of the changed or removed object), saying how many;
//   * presentation edits (names, hidden objects, camera, view) change nothing simulated: one
//     undo step, the playhead and the state stay.
// The state shown at the playhead is always the replay of (scene, take) to it (player.h):
// the document keeps the state on arrival at the playhead and re-applies that frame's events
// to a copy whenever they change, so what is shown and what a replay gives are the same.
//
// Every undo step stores the scene, the take and the playhead before and after it. Undo puts
// the document back exactly and re-simulates to the playhead, which, replay being
// deterministic, is bit for bit the state that was shown before the edit; redo likewise.
// A drag (press, the cursor's target every frame, release) is one step however long.
#pragma once

#include "edit/clothedit.h"
#include "edit/player.h"
#include "scene/scene.h"
#include "scene/take.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace drape {

/// Particle indices (pins, selections) of a grid of `from` mapped to the particles at the
/// same place on the cloth in a grid of `to`, by rest position in grid units: the top row
/// stays the top row, a corner stays a corner, a lone pin stays one pin. Sorted, unique.
std::vector<std::uint32_t> remapGridIndices(
    const GridDesc &from, const GridDesc &to, const std::vector<std::uint32_t> &indices);

/// A cloth or a collider of the scene, by kind and index (an Outliner row).
struct SceneObject {
    enum class Kind : std::uint8_t { Cloth, Collider };
    Kind kind = Kind::Cloth;
    int index = 0;

    bool operator==(const SceneObject &) const = default;
    auto operator<=>(const SceneObject &) const = default;
};

class EditDocument {
public:
    explicit EditDocument(Scene scene, Take take = {});

    const Scene &scene() const { return *m_scene; }
    /// The scene as the shared immutable value the document holds (a timeline's source keeps it).
    std::shared_ptr<const Scene> sharedScene() const { return m_scene; }
    /// The scene with the parameter and material events up to the playhead applied: the
    /// values in force in the frame shown.
    const Scene &settings() const { return *m_state.settings; }
    const Take &take() const { return m_take; }
    std::uint64_t playhead() const { return m_state.frame; }
    /// The state shown at the playhead.
    const Simulation &simulation() const { return m_state.sim; }
    const PlayerState &playerState() const { return m_state; }
    /// Events that did not apply on the way to the playhead.
    const std::vector<EventReport> &reports() const { return m_reports; }
    /// "Editing the scene" at frame 0, "Recording at frame 183" otherwise.
    std::string modeText() const;
    /// What the last edit did to the take when it dropped events ("2 events no longer apply and
    /// were removed"); empty after an edit that dropped none, and after undo or redo.
    const std::string &message() const { return m_message; }

    // ---- time ------------------------------------------------------------------------------
    /// Advances one frame (while a drag is held, it holds its current target for that frame).
    void step();
    void run(int frames);
    /// Returns the playhead to the scene's start (not an edit).
    void reset();
    /// Replays to `frame` (not an edit).
    void seek(std::uint64_t frame);
    /// Goes to `frame` starting from `shown`, the state shown at an earlier frame k < frame
    /// of this document (a snapshot of a timeline cache): steps it on instead of replaying
    /// from the start. Events that did not apply before k are not reported again.
    void seekFrom(PlayerState shown, std::uint64_t frame);

    /// The state on arrival at a frame (stepped there, before that frame's events) and the
    /// events that did not apply on the way: all the stepping seekFrom() does, made apart
    /// from the document so that another thread can do it (the editor's timeline worker) and
    /// the document only takes the result over (adopt()).
    struct Arrival {
        PlayerState state;
        std::vector<EventReport> reports;
    };
    /// Steps `shown`, the state shown at frame k < `frame` of a document whose take is
    /// `take`, to the arrival at `frame`. Touches no document: callable from any thread.
    static Arrival arrive(PlayerState shown, const Take &take, std::uint64_t frame);
    /// Goes to the arrival's frame with it as the state on arrival there, without stepping:
    /// only that frame's own events are applied. `arrival` must come from arrive() with this
    /// document's take (a held drag is let go first, as by seek(), unless `keepDrag`: the
    /// arrival was made from this take with the drag held, after holdFrames()).
    void adopt(Arrival arrival, bool keepDrag = false);
    /// Records `frames` more frames of the held drag, each at its current target, without
    /// stepping: what step() records, for a caller that has the frames stepped elsewhere (from
    /// the state shown now and this take, arrive()) and adopts the result with `keepDrag`.
    /// Until then the take reaches past the playhead: no other edit may come in between.
    void holdFrames(int frames);
    /// Forgets the frames holdFrames() recorded past the playhead (their state never came).
    void dropHeldFrames();

    // ---- edits: each is one undo step; an error changes nothing -----------------------------
    std::string setKind(int cloth, const std::vector<std::uint32_t> &particles, ParticleKind kind);
    std::string movePins(
        int cloth, const std::vector<std::uint32_t> &particles, const std::vector<Vec3> &positions);
    std::string sew(int cloth, std::uint32_t a, std::uint32_t b, const NewConstraintDef &def = {});
    std::string removeConstraints(
        int cloth, const std::vector<std::uint32_t> &indices, bool cut = false, bool removeTriangles = true);
    std::string changeConstraints(
        int cloth, const std::vector<std::uint32_t> &indices, const ConstraintProps &props);
    /// A parameter of scene/params.h. Parameters that need a rebuild are structural edits.
    std::string setParameter(const std::string &key, int index, double value);
    std::string setMaterial(int cloth, const Material &material);
    /// Structural edits.
    std::string setGrid(int cloth, const GridDesc &grid);
    std::string addCloth(const ClothDesc &cloth);
    std::string removeCloth(int cloth);
    std::string addCollider(const Collider &collider);
    /// Places cloth `cloth`: its rest geometry and pins move, so a structural edit.
    std::string setPlacement(int cloth, const Placement &placement);
    /// Places collider `index`: its rest centre (m) and rotation (degrees) are parameter
    /// edits (frame 0: the scene; f > 0: events of the take, so a moving collider keeps its
    /// motion about the new centre), and `scale` multiplies its size (radius, half length,
    /// half extents as parameters; a mesh's vertices as a structural edit). One undo step.
    std::string setColliderPlacement(int index, const Vec3 &centre, const Vec3 &rotation, float scale = 1.f);
    /// Removes collider `index`; parameter events of later colliders follow their new index.
    std::string removeCollider(int index);
    /// Removes several objects as one step (events of removed cloths and colliders dropped,
    /// those of the others follow their new index).
    std::string removeObjects(std::vector<SceneObject> objects);
    /// Copies of the objects, each appended to its list as "<name> copy" (the copy of a
    /// scene started from a state starts from the same state). One step.
    std::string duplicate(std::vector<SceneObject> objects);
    /// Moves an object to position `to` of its list (cloths draw and solve in list order);
    /// the events follow the objects they are about.
    std::string moveObject(SceneObject object, int to);
    /// Renames an object: presentation only (one step, no replay, the playhead stays).
    std::string rename(SceneObject object, std::string name);
    /// Hides objects from the viewport or shows them again: presentation only (they still
    /// simulate and collide).
    std::string setHidden(const std::vector<SceneObject> &objects, bool hidden);
    /// Deletes event `index` of the take (the timeline's marker menu). The playhead stays;
    /// what it shows is replayed without the event.
    std::string removeEvent(std::size_t index);
    /// The state at the playhead becomes the scene's start (with state); the take is cleared.
    std::string setStartHere();
    /// The document as it would be with the state at the playhead as its start: that state
    /// as the scene's start, and the events after the playhead, re-stamped from it (a drag
    /// held across the playhead ends there). Nothing changes; "Save with simulation state".
    std::pair<Scene, Take> fromPlayhead() const;
    /// Changes what does not affect the simulation (name, description, camera, view and
    /// recording settings): one undo step, no replay. An error when `next` differs in more.
    std::string setPresentation(std::string text, Scene next);
    /// The Push tool over the current frame: recorded in the take at the playhead, also at
    /// frame 0 (an interaction with the cloth, never part of the scene).
    std::string push(const Vec3 &centre, float radius, const Vec3 &delta, float factor);

    // ---- gestures that are one undo step however many edits they make ---------------------
    /// Edits until endGroup() become one undo step (a cut stroke, a brush of pins).
    void beginGroup();
    /// Ends the group; true when it made a step (named `text`).
    bool endGroup(std::string text);
    bool grouping() const { return m_groupStart.has_value(); }
    /// Ends the group and puts everything back as before beginGroup(), the redo history
    /// included (a stroke cancelled with Escape).
    void abandonGroup(std::optional<Arrival> arrival = std::nullopt);
    /// Joins the last two undo steps into one named `text` (a value scrubbed with the mouse);
    /// false when there are not two steps at the top of the history.
    bool mergeLast(std::string text);

    // ---- a drag: one undo step from press to release ---------------------------------------
    std::string beginDrag(int cloth, const std::vector<std::uint32_t> &particles, const Vec3 &centre);
    /// The cursor's target for the current frame.
    void dragTo(const Vec3 &target);
    /// Lets go and records the drag as one undo step.
    void endDrag();
    /// Puts everything back as before the press.
    void cancelDrag(std::optional<Arrival> arrival = std::nullopt);
    bool dragging() const { return m_drag.has_value(); }

    // ---- undo --------------------------------------------------------------------------------
    bool canUndo() const { return m_index > 0; }
    bool canRedo() const { return m_index < m_steps.size(); }
    void undo();
    void redo();

    /// The document at one point of the history.
    struct Snapshot {
        std::shared_ptr<const Scene> scene;
        Take take;
        std::uint64_t playhead = 0;
    };
    /// The document undo or redo, step by step, arrives at on reaching undo index `target`.
    const Snapshot &historyPoint(std::size_t target) const
    {
        return target < m_index ? m_steps[target].before : m_steps[target - 1].after;
    }
    /// Whether going to undo index `target` simulates frames: false when it only re-applies
    /// the playhead's events to the state there or builds the start.
    bool historyMoveSteps(std::size_t target) const;
    /// Whether returning to `s` simulates frames (see historyMoveSteps()).
    bool restoreSteps(const Snapshot &s) const { return s.playhead > 0 && !keepsArrival(s); }
    /// The document cancelDrag() returns to, while a drag is held (else null).
    const Snapshot *dragStart() const { return m_drag ? &m_drag->before : nullptr; }
    /// The document abandonGroup() returns to, when the group made a step (else null).
    const Snapshot *groupStart() const
    {
        return m_groupStart && m_index > *m_groupStart ? &m_steps[*m_groupStart].before : nullptr;
    }
    // cancelDrag() and abandonGroup() take, like moveHistory(), the arrival at the playhead
    // of the document they return to, made elsewhere, instead of replaying to it.
    /// Goes to undo index `target` (0..undoCount()) as undo() / redo() would one step at a
    /// time. `arrival`, when given, is the arrival at historyPoint(target)'s playhead made from
    /// its scene and take (arrive(), on another thread): it is taken over instead of
    /// replaying, when replaying is needed at all.
    void moveHistory(std::size_t target, std::optional<Arrival> arrival = std::nullopt);
    std::size_t undoCount() const { return m_steps.size(); }
    std::size_t undoIndex() const { return m_index; }
    std::string undoText(std::size_t step) const { return m_steps[step].text; }
    /// Renames the last step made (the editor names steps in the user's words).
    void renameLast(std::string text)
    {
        if (m_index > 0)
            m_steps[m_index - 1].text = std::move(text);
    }

private:
    struct Step {
        std::string text;
        Snapshot before;
        Snapshot after;
    };
    struct OpenDrag {
        Snapshot before;
        std::size_t event = 0;
    };

    Snapshot snapshot() const { return { m_scene, m_take, m_state.frame }; }
    /// Puts the document to `s` and replays to its playhead.
    void restore(const Snapshot &s, std::optional<Arrival> arrival = std::nullopt);
    /// Restoring `s` keeps the arrival at the playhead (only its frame's events re-applied).
    bool keepsArrival(const Snapshot &s) const;
    /// Replays from the start to `frame`.
    void replayTo(std::uint64_t frame);
    /// Recomputes the shown state from the arrival state after the events of the playhead changed.
    void reapplyFrame();
    /// Makes m_arrived hold the arrival state (kept implicit while nothing happens at a frame).
    void materialiseArrival();
    void push(std::string text, Snapshot before);
    /// Adds `data` to the take at the playhead (later events dropped, drags held past it let
    /// go there) and shows it; when it does not apply, puts the take back to `before`'s and
    /// returns why.
    std::string addAtPlayhead(
        EventData data, const Snapshot &before, std::size_t *dropped, std::size_t *index);
    /// Records `data` at the playhead (dropping later events), or changes the scene at frame 0.
    std::string record(std::string text, EventData data);
    /// Applies `data` to the scene's start (frame 0 edits of cloths).
    std::string editScene(const EventData &data, Scene &scene) const;
    /// Scene change that applies whatever the frame: playhead to 0, events of `cloth` dropped
    /// (`removedCloth`: later cloths renumbered).
    void structural(std::string text, Scene next, int cloth, bool removedCloth, const Take *takeBefore = nullptr,
        std::size_t droppedBefore = 0);
    /// Structural change that renumbers objects: `clothMap` / `colliderMap` give each old
    /// index its new one (-1: removed); the take's events follow them or are dropped.
    void renumbered(std::string text, Scene next, const std::vector<int> &clothMap, const std::vector<int> &colliderMap);
    /// Why `objects` cannot be edited (none given, one not in the scene, a drag held for a
    /// `structural` edit), or empty.
    std::string checkObjects(const std::vector<SceneObject> &objects, bool structural) const;

    std::shared_ptr<const Scene> m_scene;
    Take m_take;
    PlayerState m_arrived; ///< state on arrival at the playhead, before its events
    PlayerState m_state; ///< the state shown: m_arrived with the playhead's events applied
    /// Nothing happened at the playhead's frame, so m_state is also the arrival state and
    /// m_arrived is not kept (playing copies no simulation per frame).
    bool m_stateIsArrival = false;
    std::optional<std::size_t> m_groupStart; ///< undo index at beginGroup()
    std::vector<Step> m_groupRedo; ///< the redo history at beginGroup(), kept for abandonGroup()
    std::vector<EventReport> m_arrivedReports; ///< events that did not apply before the playhead
    std::vector<EventReport> m_reports; ///< those and the playhead's own
    std::vector<Step> m_steps;
    std::size_t m_index = 0;
    std::optional<OpenDrag> m_drag;
    std::string m_message;
};

} // namespace drape
