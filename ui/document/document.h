// One open document: a scene (the start) and a take (what happened after it), kept by the
// core's EditDocument (core/edit/editdocument.h), which decides what every edit means and
// replays the simulation shown at the playhead. This class only adds Qt around it: each edit
// is pushed on undoStack() as one QUndoCommand that calls the core's undo / redo, and docks
// and views listen to changed() instead of calling each other (the Tiled document model).
//
// Settling. Playing and scrubbing move the playhead over the timeline's cache without moving
// the state (showFrame()); when the playhead comes to rest, settle() asks the timeline's
// worker for the exact state there and adopts it when it arrives (a move, no stepping), so
// the GUI thread never re-simulates. Meanwhile the viewport keeps the cached frame and the
// document is "preparing" (preparingChanged()). An edit, a step or a drag that comes while
// the state is not at the playhead waits: it is queued, with every call after it, and the
// queue runs in order once the state has arrived (busyChanged() brackets that, for the busy
// cursor and the undo actions). A queued edit's error is reported by editFailed(), named by
// the edit. Undo and redo give up the state being prepared (they show the frame of the step);
// what still waits then runs there. Waiting calls count as unsaved changes (isModified()).
#pragma once

#include "edit/editdocument.h"
#include "timeline/timeline.h"
#include "scene/scene.h"
#include "scene/scenebudget.h"
#include "sim/simulation.h"

#include <QElapsedTimer>
#include <QObject>
#include <QString>
#include <QUndoStack>

#include <deque>
#include <functional>
#include <memory>
#include <optional>

namespace drape {

class TakeSource;

/// What a change touched, so listeners refresh only what they show.
enum class Change : unsigned {
    None = 0,
    Parameters = 1u << 0, ///< world / solver / material / collider values
    Topology = 1u << 1,   ///< constraints, triangles, particle count (index buffers rebuild)
    Pins = 1u << 2,       ///< particle kinds
    Selection = 1u << 3,  ///< selected constraints / particles
    Camera = 1u << 4,
    View = 1u << 5,       ///< shading, overlays, colours
    Record = 1u << 6,     ///< recording settings
    Colliders = 1u << 7,
    Cloths = 1u << 8,     ///< cloths added/removed/replaced
    All = 0xffffffffu,
};
constexpr Change operator|(Change a, Change b) { return Change(unsigned(a) | unsigned(b)); }
constexpr bool operator&(Change a, Change b) { return (unsigned(a) & unsigned(b)) != 0; }

class Document : public QObject {
    Q_OBJECT
public:
    explicit Document(Scene scene, QString filePath = {}, QObject *parent = nullptr, Take take = {});
    ~Document() override;

    /// Loads a scene file (and its take), and the frames baked beside it when they were baked
    /// from it (a stale cache is a warning); on failure returns null and sets `error` (names
    /// file, line/path). A file over `budget` also sets `overBudget` to what it would need,
    /// so the caller can offer to open it with a larger budget.
    static std::unique_ptr<Document> load(const QString &filePath, QString *error, QStringList *warnings = nullptr,
                                          const SceneBudget &budget = {},
                                          std::optional<SceneTotals> *overBudget = nullptr);
    /// Saves the scene and the take atomically. `withState` saves what the viewport shows
    /// as the file's start instead (the state at the playhead; the take's later events
    /// follow it). Marks the stack clean.
    bool save(const QString &filePath, bool withState, QString *error);

    /// The scene: the start of the document.
    const Scene &scene() const { return m_edit.scene(); }
    /// The scene's values in force at the playhead (parameter events applied).
    const Scene &settings() const { return m_edit.settings(); }
    const Take &take() const { return m_edit.take(); }
    /// The simulation shown: the replay of the scene and the take to the playhead.
    const Simulation &simulation() const { return m_edit.simulation(); }
    /// Frames since the scene's start of the state simulation() holds.
    std::uint64_t frame() const { return m_edit.playhead(); }
    /// The frame on screen: frame(), or while playing or scrubbing over the cache a frame the
    /// state has not been brought to yet (showFrame()); an edit brings it there first.
    std::uint64_t playhead() const { return m_shown ? *m_shown : frame(); }
    /// True while the playhead shows a cached frame the state is not at (see settle()).
    bool isSettled() const { return !m_shown.has_value(); }
    /// The worker prepares the state at the playhead for editing (settle() asked for it).
    bool isPreparing() const { return m_preparing.has_value(); }
    /// Edits wait for that state (or for an undo or redo to arrive): they run in order once
    /// it arrives.
    bool isBusy() const { return !m_deferred.empty() || m_restore.has_value(); }
    /// Calls are being queued behind those edits: a caller that must keep its place in that
    /// order queues itself with whenSettled() (false within the queued call that runs).
    bool isQueueing() const { return isBusy() && !m_replaying; }
    /// Runs `action` now when the state is at the playhead and nothing waits, else queues it
    /// after what waits and asks for the state (settle()).
    void whenSettled(std::function<void()> action);
    /// Spins the event loop, without user input, until the state is at the playhead and the
    /// edits waiting for it have run (the solver's work stays on the worker). For the rare
    /// caller that needs the state at once: saving with state, tests.
    void waitUntilSettled();
    /// "Editing the scene" at frame 0, "Recording at frame 183" otherwise (at the playhead).
    QString modeText() const;
    /// Events of the take that no longer applied on the way to the playhead.
    const std::vector<EventReport> &reports() const { return m_edit.reports(); }

    QUndoStack *undoStack() { return &m_undo; }
    /// The size budget edits are held to (the one the scene was opened with).
    const SceneBudget &budget() const { return m_budget; }
    void setBudget(const SceneBudget &budget) { m_budget = budget; }
    QString filePath() const { return m_filePath; }
    QString displayName() const; ///< file name, or the scene name when unsaved
    /// Edits since the last save, or calls waiting for the state that may make some (so that
    /// closing asks first; saving runs them).
    bool isModified() const { return !m_undo.isClean() || isBusy(); }

    // ---- time (not edits) --------------------------------------------------------------------
    /// Advances `frames` frames (a held drag holds its place); stops at a blow-up. While a
    /// drag or a stroke is in progress and the timeline's worker runs, the frames are recorded
    /// (the drag's target for each) and stepped by the worker from the state shown: step()
    /// returns at once and the state is taken over when it arrives (isStepping() meanwhile;
    /// stepsArrived() then). The cursor's moves meanwhile go to the frame that arrives; other
    /// calls wait for it, in order, without the busy signal (they wait a frame or two).
    int step(int frames = 1);
    /// Returns to the scene's start (frame 0).
    void reset();
    /// Brings the state to `frame` at once, from the timeline's nearest snapshot, on the
    /// calling thread: for tests and callers that need the state before going on. Not an
    /// edit. The editor and the recorder use showFrame() and settle(), which leave the
    /// stepping to the timeline's worker.
    void seek(std::uint64_t frame);
    /// Moves the playhead to `frame` without simulating: the viewport draws the timeline's
    /// cached frame. The state follows at settle(); every edit, step and drag made meanwhile
    /// waits for it, so it is still recorded at the frame on screen.
    void showFrame(std::uint64_t frame);
    /// Asks the timeline's worker for the exact state at the playhead and returns at once;
    /// the state is adopted when it arrives (bit for bit what seek() gives), then what waits
    /// for it runs. At the scene's start the start is built at once (nothing is stepped).
    void settle();
    /// A drag or a stroke is in progress: its edits are recorded frame by frame, so the
    /// document itself steps while it lasts (step()).
    bool interacting() const { return dragging() || m_gestureDepth > 0; }
    /// Frames step() asked the timeline's worker for have not arrived yet (see step()).
    bool isStepping() const { return m_stepTarget.has_value(); }

    /// The document's timeline: a cache of its frames kept by a worker thread (started by
    /// the window that shows the document), re-filled from the frame each edit changes.
    Timeline &timeline() { return *m_timeline; }

    // ---- edits: one undo step each; an error (returned) changes nothing ---------------------
    QString setKinds(const std::vector<std::vector<std::uint32_t>> &particlesPerCloth, bool pin, const QString &text);
    QString setKind(int cloth, const std::vector<std::uint32_t> &particles, bool pin, const QString &text = {});
    QString movePins(int cloth, const std::vector<std::uint32_t> &particles, const std::vector<Vec3> &positions);
    QString sew(int cloth, std::uint32_t a, std::uint32_t b, const NewConstraintDef &def, const QString &text);
    QString removeConstraints(int cloth, const std::vector<std::uint32_t> &indices, bool cut, const QString &text);
    /// `mergeKey`: consecutive changes with the same non-empty key are one undo step.
    QString changeConstraints(int cloth, const std::vector<std::uint32_t> &indices, const ConstraintProps &props,
                              const QString &text, const QString &mergeKey = {});
    /// A parameter of the table; `scrub` merges it with the previous change of the same
    /// parameter into one step until closeMerging().
    QString setParameter(const std::string &key, int index, double value, bool scrub = false);
    QString setMaterial(int cloth, const Material &material);
    /// Name, camera, view and recording settings: an undo step that replays nothing.
    QString setPresentation(const Scene &next, const QString &text, const QString &mergeKey = {}, Change what = Change::View);
    /// The same, `change` made to the scene as it is when the edit runs (after the edits
    /// that wait for the state): what the editor's views and docks use, so that two changes
    /// made while edits wait both count. No step when it changes nothing.
    QString setPresentation(const std::function<void(Scene &)> &change, const QString &text,
                            const QString &mergeKey = {}, Change what = Change::View);
    QString setStartHere();
    /// Objects: structural edits (the playhead returns to the start; events that no longer
    /// apply are dropped, with a message saying how many).
    QString addCloth(const ClothDesc &cloth);
    QString removeCloth(int cloth);
    QString addCollider(const Collider &collider);
    QString removeCollider(int collider);
    /// Places a cloth (a structural edit) or a collider (core/edit/editdocument.h).
    QString setPlacement(int cloth, const Placement &placement);
    QString setColliderPlacement(int collider, const Vec3 &centre, const Vec3 &rotation, float scale = 1.f);
    /// The Outliner's edits of whole objects (core/edit/src/sceneedits.cpp): remove,
    /// duplicate and reorder are structural; rename and hide replay nothing.
    QString removeObjects(const std::vector<SceneObject> &objects);
    QString duplicate(const std::vector<SceneObject> &objects);
    QString moveObject(const SceneObject &object, int to);
    QString rename(const SceneObject &object, const QString &name);
    QString setHidden(const std::vector<SceneObject> &objects, bool hidden);
    /// Deletes event `index` of the take (a timeline marker's menu).
    QString removeEvent(std::size_t index);
    QString push(const Vec3 &centre, float radius, const Vec3 &delta, float factor);
    /// The next change starts a new undo step even if it could merge (a slider released).
    void closeMerging();

    /// Edits between beginGesture() and endGesture() are one undo step named `text`.
    void beginGesture();
    void endGesture(const QString &text);
    /// Ends the gesture and puts back everything it did (Escape during a stroke).
    void cancelGesture();

    /// A drag: one undo step from press to release, an event of the take. At frame 0, the
    /// pins it held become a "Move Pin" scene edit instead (authored where they were dropped).
    QString beginDrag(int cloth, const std::vector<std::uint32_t> &particles, const Vec3 &centre);
    void dragTo(const Vec3 &target);
    void endDrag(const QString &text);
    void cancelDrag();
    bool dragging() const { return m_edit.dragging(); }

    /// Stores the viewport's camera, saved with the scene (not an undo step: looking around
    /// is not an edit).
    void setCameraQuietly(const CameraDesc &camera) { m_camera = camera; }
    const CameraDesc &camera() const { return m_camera; }

    /// Emits changed(); for listeners that must refresh without an edit.
    void notify(Change what) { emit changed(what); }
    /// Emits simulationStepped().
    void notifyStepped() { emit simulationStepped(); }

signals:
    void changed(drape::Change what);
    /// The state's frame jumped (Reset, undo or redo to another frame, a structural edit, the
    /// state taken over at the playhead when it settles).
    void simulationReset();
    /// Reset (reset()) brought the state back to the start: emitted after simulationReset().
    void resetToStart();
    void simulationStepped();
    /// The playhead moved over the cache without simulating (showFrame()).
    void playheadMoved(quint64 frame);
    void modifiedChanged(bool modified); ///< isModified() changed
    void filePathChanged(const QString &path);
    /// A message about the take ("2 events no longer apply and were removed").
    void takeMessage(const QString &message);
    /// The worker started (true) or finished or dropped (false) preparing the state at the
    /// playhead, `frame`.
    void preparingChanged(bool preparing, quint64 frame);
    /// Edits started (true) or finished (false) waiting for that state.
    void busyChanged(bool busy);
    /// The state is at the playhead and nothing waits (after settle() was asked for it).
    void settled();
    /// Frames a step() left to the worker arrived: `frames` of them, `seconds` of wall time
    /// after they were asked for.
    void stepsArrived(int frames, double seconds);
    /// An edit that waited for the state failed when it ran: the error it would have
    /// returned, after what the edit was ("Place Collider #2: finish the drag first").
    void editFailed(const QString &message);
    /// A grid's size or resolution changed (an edit, its undo or redo): selections of its
    /// particles follow them to the same place on the cloth (remapGridIndices).
    void gridChanged(int cloth, const drape::GridDesc &from, const drape::GridDesc &to);

private:
    friend class EditStepCommand;
    /// Wraps the step the core just made (if it made one) in a command and announces it.
    QString finishEdit(const std::string &error, std::size_t stepsBefore, std::uint64_t frameBefore, Change what,
                       const QString &mergeKey = {});
    /// Runs one edit of the core and finishes it (renamed `text` when not empty; `name` says
    /// what it was in a queued edit's error when `text` leaves the core's name).
    QString run(const std::function<std::string()> &edit, const QString &text, Change what,
                const QString &mergeKey = {}, const QString &name = {});
    /// After the core's undo or redo.
    void afterHistoryMove(std::uint64_t frameBefore);
    /// Before the core's undo or redo: a state being prepared is no longer wanted (undo
    /// returns to the frame the step was made at). Returns the frame on screen.
    std::uint64_t beforeHistoryMove();
    /// Undo (`undo`) or redo of one step (EditStepCommand): restoreOnWorker() when the
    /// document it returns to must be simulated to its playhead; a further undo or redo while
    /// that state is on its way retargets the move.
    void moveHistory(bool undo);
    /// A return to an earlier document (undo, redo, cancelling a drag or a stroke) whose state
    /// the worker prepares: `apply` makes the core's move, given the arrival at the playhead
    /// (or none: the core replays).
    struct PendingRestore {
        std::function<void(std::optional<EditDocument::Arrival>)> apply;
        std::optional<std::size_t> historyTarget; ///< an undo or redo: the core undo index it goes to
        std::uint64_t frameBefore = 0; ///< the frame on screen before the move
        std::uint64_t playhead = 0; ///< the frame it returns to
        Change what = Change::All;
    };
    /// When returning to `point` simulates frames and the worker runs: switches the timeline
    /// to that document at once, asks the worker for the state at its playhead and makes the
    /// document busy until adoptRestore() takes the move; true. Else false (the caller moves
    /// at once). `announced`: the frame a move it replaces was preparing.
    bool restoreOnWorker(const EditDocument::Snapshot &point, PendingRestore pending,
                         std::optional<std::uint64_t> announced = std::nullopt);
    void adoptRestore(std::uint64_t serial, EditDocument::Arrival arrival);
    /// Completes a pending restore on this thread (seek(), or before another undo).
    void finishRestoreNow();
    /// Gives the timeline (scene, take), invalidating from the first frame that changed.
    void setTimelineDocument(const std::shared_ptr<const Scene> &scene, const Take &take);
    /// A call must wait for the state: the playhead is ahead of it, or edits already wait.
    bool mustWait() const;
    /// Queues `action` after what waits and asks for the state.
    void defer(std::function<void()> action);
    /// Queues an edit named `what` (its undo text); an error it returns when it runs is
    /// emitted as editFailed(), prefixed with `what`, since it comes later than the edit.
    void deferEdit(const QString &what, std::function<QString()> edit);
    /// Busy changed: the signal, and modifiedChanged() when the stack alone does not say it.
    void setBusy(bool busy);
    /// Asks the timeline's worker for the arrival at `frame` of the timeline's document (see
    /// EditDocument::arrive), stepping on from `from` when it is nearer than the cache's
    /// snapshot; `take` receives it on this thread.
    void requestArrival(std::uint64_t frame, std::unique_ptr<SourceState> from,
                        std::function<void(EditDocument::Arrival)> take);
    /// Takes over the state the worker prepared for request `serial`, then runs what waits.
    void adoptState(std::uint64_t serial, EditDocument::Arrival arrival);
    /// Forgets the state being prepared (nothing waits for it).
    void cancelPreparing();
    /// step() during an interaction: the worker steps from the state shown.
    int stepOnWorker(int frames);
    /// Takes over the frames stepped for request `serial` (made from source `generation`).
    void adoptStep(std::uint64_t serial, std::uint64_t generation, EditDocument::Arrival arrival);
    /// Puts the frame shown into the timeline's cache when it is the frame of `generation`'s
    /// source there and the cache lacks it (frames made by step() requests).
    void offerShownFrame(std::uint64_t generation);
    /// Forgets frames asked of the worker by step() (the drag's targets recorded for them too).
    void cancelStep();
    /// Runs the queued calls while the state stays at the playhead.
    void runDeferred();
    void announce(Change what, std::uint64_t frameBefore);
    /// Gives the timeline the document as it is now, invalidating from the first frame that changed.
    void updateTimeline();
    /// The grids of the scene now (nullopt for cloths that are not grids).
    std::vector<std::optional<GridDesc>> grids() const;

    EditDocument m_edit;
    QUndoStack m_undo;
    QString m_filePath;
    SceneBudget m_budget;
    CameraDesc m_camera;
    std::vector<std::optional<GridDesc>> m_grids; ///< each cloth's grid as last announced
    std::unique_ptr<Timeline> m_timeline;
    std::optional<std::uint64_t> m_shown; ///< the playhead while the state lags behind it
    std::optional<std::uint64_t> m_preparing; ///< the frame the worker prepares the state of
    std::uint64_t m_settleSerial = 0; ///< names the one state request whose answer is taken
    std::optional<std::uint64_t> m_stepTarget; ///< the frame step() asked the worker for
    std::uint64_t m_stepSerial = 0; ///< names the step request whose answer is taken
    std::optional<Vec3> m_heldTarget; ///< the cursor's target given while a step was out
    QElapsedTimer m_stepClock; ///< since the step was asked for
    bool m_busyAnnounced = false; ///< busyChanged(true) was emitted for what waits
    std::optional<PendingRestore> m_restore; ///< waiting for the state it returns to
    std::deque<std::function<void()>> m_deferred; ///< calls waiting for the state
    bool m_replaying = false; ///< running a queued call: the calls it makes run at once
    std::size_t m_insertAt = 0; ///< where a call made by the queued one that runs is queued
    std::shared_ptr<const Scene> m_timelineScene; ///< what the timeline's source replays
    Take m_timelineTake;
    std::shared_ptr<const TakeSource> m_timelineSource;
    std::size_t m_gestureSteps = 0; ///< core undo index at beginGesture()
    std::uint64_t m_gestureFrame = 0;
    int m_gestureDepth = 0;
    unsigned m_mergeSerial = 0;
    int m_dragCloth = -1;
    std::vector<std::uint32_t> m_dragPins; ///< particles of the drag that were pins at the press
};

} // namespace drape
