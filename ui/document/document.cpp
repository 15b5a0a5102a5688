#include "document/document.h"

#include "commands/editstepcommand.h"
#include "document/bake.h"

#include "scene/params.h"
#include "scene/scenefile.h"
#include "timeline/takesource.h"

#include <QEventLoop>
#include <QFile>
#include <QFileInfo>
#include <QUndoCommand>

#include <algorithm>
#include <functional>
#include <limits>

namespace drape {

Document::Document(Scene scene, QString filePath, QObject *parent, Take take)
    : QObject(parent), m_edit(std::move(scene), std::move(take)), m_filePath(std::move(filePath))
{
    m_camera = m_edit.scene().camera;
    m_grids = grids();
    m_timelineScene = m_edit.sharedScene();
    m_timelineTake = m_edit.take();
    m_timelineSource = std::make_shared<TakeSource>(m_timelineScene, m_timelineTake);
    m_timeline = std::make_unique<Timeline>(m_timelineSource);
    connect(&m_undo, &QUndoStack::cleanChanged, this, [this](bool clean) { emit modifiedChanged(!clean); });
}

Document::~Document()
{
    m_timeline->stopWorker();
    // Clearing the stack on the way out must not look like an undo to its listeners.
    m_undo.blockSignals(true);
}

QString Document::displayName() const
{
    if (!m_filePath.isEmpty())
        return QFileInfo(m_filePath).fileName();
    return scene().name.empty() ? tr("Untitled") : QString::fromStdString(scene().name);
}

QString Document::modeText() const
{
    if (playhead() == 0)
        return tr("Editing the scene");
    return tr("Recording at frame %1").arg(playhead());
}

// ---- time ----------------------------------------------------------------------------------

int Document::step(int frames)
{
    if (mustWait()) {
        defer([this, frames] { step(frames); });
        return 0;
    }
    if (interacting() && m_timeline->workerRunning())
        return stepOnWorker(frames);
    int ran = 0;
    for (; ran < frames && !simulation().status().blownUp; ++ran)
        m_edit.step();
    if (ran > 0)
        emit simulationStepped();
    return ran;
}

int Document::stepOnWorker(int frames)
{
    if (frames <= 0 || simulation().status().blownUp)
        return 0;
    // The drag's target for each frame is recorded now, so the take says what the worker
    // steps; the frames before the first new one stay cached (firstChangedFrame).
    const std::uint64_t target = frame() + std::uint64_t(frames);
    m_edit.holdFrames(frames);
    updateTimeline();
    const std::uint64_t serial = ++m_stepSerial;
    const std::uint64_t generation = m_timeline->generation();
    offerShownFrame(generation); // the frame the worker starts from (the drag's first, a target moved)
    m_stepTarget = target;
    m_stepClock.start();
    // The worker steps a copy of the state shown (adoptStep takes the result over).
    requestArrival(target, std::make_unique<TakeState>(m_edit.playerState()),
                   [this, serial, generation](EditDocument::Arrival arrival) {
                       adoptStep(serial, generation, std::move(arrival));
                   });
    return frames;
}

void Document::adoptStep(std::uint64_t serial, std::uint64_t generation, EditDocument::Arrival arrival)
{
    if (serial != m_stepSerial || !m_stepTarget)
        return; // given up since (cancelStep())
    const int frames = int(*m_stepTarget - frame());
    m_stepTarget.reset();
    const double seconds = double(m_stepClock.nsecsElapsed()) * 1e-9;
    m_edit.adopt(std::move(arrival), true);
    if (m_shown == frame())
        m_shown.reset();
    // The frame on screen goes into the cache, so the worker's next step shares its topology
    // and playing the drag back finds every frame of it.
    offerShownFrame(generation);
    m_timeline->setPlayhead(frame());
    if (m_heldTarget) { // where the cursor went meanwhile: the target of the frame shown now
        m_edit.dragTo(*m_heldTarget);
        m_heldTarget.reset();
    }
    emit simulationStepped();
    emit stepsArrived(frames, seconds);
    runDeferred();
    if (!isSettled())
        settle(); // a queued call moved the playhead
    else if (!isBusy())
        emit settled();
}

void Document::offerShownFrame(std::uint64_t generation)
{
    const std::uint64_t at = frame();
    if (m_timeline->cachedFrame(at))
        return;
    const std::shared_ptr<const CachedFrame> previous = at > 0 ? m_timeline->cachedFrame(at - 1) : nullptr;
    m_timeline->offerFrame(generation, captureFrame(simulation(), at, previous.get()));
}

void Document::cancelStep()
{
    if (!m_stepTarget)
        return;
    ++m_stepSerial;
    m_stepTarget.reset();
    m_timeline->cancelStateRequest();
    m_edit.dropHeldFrames();
    if (m_heldTarget) {
        m_edit.dragTo(*m_heldTarget);
        m_heldTarget.reset();
    }
}

void Document::reset()
{
    if (isQueueing()) {
        defer([this] { reset(); });
        return;
    }
    cancelPreparing(); // the start is built at once
    cancelStep();
    if (m_gestureDepth > 0) { // a stroke still held keeps what it did so far
        m_gestureDepth = 1;
        endGesture(tr("Edit"));
    }
    const std::uint64_t before = frame();
    m_shown.reset();
    m_edit.reset();
    announce(Change::Topology | Change::Pins | Change::Parameters, before == 0 ? 1 : before);
    emit resetToStart();
}

// ---- edits ---------------------------------------------------------------------------------

std::vector<std::optional<GridDesc>> Document::grids() const
{
    std::vector<std::optional<GridDesc>> out;
    for (const ClothDesc &c : scene().cloths)
        out.push_back(c.source == ClothSource::Grid ? std::optional<GridDesc>(c.grid) : std::nullopt);
    return out;
}

void Document::updateTimeline()
{
    if (m_restore)
        return; // the timeline has the document an undo, redo or cancel returns to already
    // A drag in progress is in the take (open, holding its last target): the frames it has
    // recorded are the timeline's too, and stay cached when it is let go.
    setTimelineDocument(m_edit.sharedScene(), m_edit.take());
}

void Document::setTimelineDocument(const std::shared_ptr<const Scene> &scene, const Take &take)
{
    if (scene == m_timelineScene && take == m_timelineTake)
        return;
    const std::uint64_t from = firstChangedFrame(*m_timelineScene, m_timelineTake, *scene, take);
    m_timelineScene = scene;
    m_timelineTake = take;
    if (from != std::numeric_limits<std::uint64_t>::max()) {
        m_timelineSource = std::make_shared<TakeSource>(m_timelineScene, m_timelineTake);
        m_timeline->setSource(m_timelineSource, from);
    }
}

void Document::seek(std::uint64_t target)
{
    finishRestoreNow();
    cancelPreparing();
    cancelStep();
    if (dragging()) {
        // Seeking lets a held drag go as the core's seek does, before the timeline's state is
        // asked for: the timeline's source holds the drag until then.
        m_edit.cancelDrag();
        updateTimeline();
    }
    const std::uint64_t before = frame();
    m_shown.reset();
    if (target == before) {
        m_timeline->setPlayhead(target);
        emit playheadMoved(target);
        return;
    }
    updateTimeline();
    if (target > before && target - before <= 2) {
        m_edit.seek(target); // a step or two: simulate them
    } else if (target <= m_timeline->snapshotFrameAtOrBefore(0)) {
        m_edit.seek(target); // the start: built, not simulated
    } else {
        std::unique_ptr<SourceState> state = m_timeline->stateAt(target - 1);
        m_edit.seekFrom(static_cast<TakeState &>(*state).state, target);
    }
    m_timeline->setPlayhead(frame());
    announce(Change::Pins | Change::Topology | Change::Parameters, before);
    runDeferred(); // calls that waited for frames being stepped run here
}

void Document::showFrame(std::uint64_t target)
{
    if (isQueueing() || m_stepTarget) {
        // After what waits, and after the frames a stroke asked the worker for.
        defer([this, target] { showFrame(target); });
        return;
    }
    if (dragging() && target != frame())
        return; // a held drag keeps the playhead: it moves by the frames the drag records
    if (target == frame())
        m_shown.reset();
    else
        m_shown = target;
    if (m_preparing && m_shown != m_preparing)
        cancelPreparing(); // the worker goes back to filling; settle() asks again
    m_timeline->setPlayhead(target);
    emit playheadMoved(target);
    if (isSettled())
        runDeferred(); // back on the frame the state is at: what waited can run
}

void Document::settle()
{
    if (!m_shown) {
        // The state is at the playhead already (an undo or a seek brought it there while calls
        // waited, giving up the request they waited for): they run now.
        if (isBusy() && !m_replaying) {
            runDeferred();
            if (isSettled() && !isBusy())
                emit settled();
        }
        return;
    }
    if (m_preparing == m_shown)
        return;
    const std::uint64_t target = *m_shown;
    updateTimeline();
    const std::uint64_t start = m_timeline->snapshotFrameAtOrBefore(0);
    if (target <= start) {
        // The scene's start is built from the scene, not simulated: at once.
        const std::uint64_t before = frame();
        m_shown.reset();
        m_edit.seek(target);
        m_timeline->setPlayhead(frame());
        announce(Change::Pins | Change::Topology | Change::Parameters, before);
        runDeferred();
        if (isSettled() && !isBusy())
            emit settled();
        return;
    }
    const std::uint64_t serial = ++m_settleSerial;
    const bool announced = m_preparing.has_value();
    m_preparing = target;
    // The state the document is at, when it is nearer than the cache's snapshot: a step or
    // two from it instead of up to a snapshot interval (copied here, stepped by the worker).
    std::unique_ptr<SourceState> from;
    if (!dragging() && frame() < target && frame() > m_timeline->snapshotFrameAtOrBefore(target - 1))
        from = std::make_unique<TakeState>(m_edit.playerState());
    requestArrival(target, std::move(from),
                   [this, serial](EditDocument::Arrival arrival) { adoptState(serial, std::move(arrival)); });
    if (!announced)
        emit preparingChanged(true, target);
}

void Document::requestArrival(std::uint64_t frame, std::unique_ptr<SourceState> from,
                              std::function<void(EditDocument::Arrival)> take)
{
    // The worker brings the state to frame - 1 (from `from` when that is nearer than the
    // cache's snapshot) and on to the arrival at `frame`, on its thread; the GUI thread only
    // takes it over. The document outlives the worker (~Document stops it), and an answer
    // posted to a deleted document is dropped by Qt.
    const std::shared_ptr<const TakeSource> source = m_timelineSource;
    m_timeline->requestState(
        frame - 1,
        [this, frame, source, take = std::move(take)](std::unique_ptr<SourceState> state) {
            auto arrival = std::make_shared<EditDocument::Arrival>(
                EditDocument::arrive(std::move(static_cast<TakeState &>(*state).state), source->take(), frame));
            QMetaObject::invokeMethod(this, [take, arrival] { take(std::move(*arrival)); }, Qt::QueuedConnection);
        },
        std::move(from));
}

void Document::adoptState(std::uint64_t serial, EditDocument::Arrival arrival)
{
    if (serial != m_settleSerial || !m_preparing)
        return; // a request given up since
    const std::uint64_t target = *m_preparing;
    m_preparing.reset();
    emit preparingChanged(false, target);
    if (m_shown != target)
        return;
    const std::uint64_t before = frame();
    m_shown.reset();
    m_edit.adopt(std::move(arrival));
    m_timeline->setPlayhead(frame());
    announce(Change::Pins | Change::Topology | Change::Parameters, before);
    runDeferred();
    if (isSettled() && !isBusy())
        emit settled();
}

void Document::cancelPreparing()
{
    if (!m_preparing || m_restore)
        return; // (an undo, redo or cancel is never given up: it completes, then what waits runs)
    const std::uint64_t frame = *m_preparing;
    ++m_settleSerial;
    m_preparing.reset();
    m_timeline->cancelStateRequest();
    emit preparingChanged(false, frame);
}

bool Document::mustWait() const
{
    if (m_stepTarget)
        return true; // what comes after the frames being stepped waits for them
    if (m_replaying && isSettled())
        return false; // called by the queued call that runs: part of it
    return !isSettled() || isBusy();
}

void Document::defer(std::function<void()> action)
{
    const bool wasBusy = isBusy();
    if (m_replaying)
        m_deferred.insert(m_deferred.begin() + std::ptrdiff_t(std::min(m_insertAt++, m_deferred.size())),
                          std::move(action));
    else
        m_deferred.push_back(std::move(action));
    // Waiting for frames being stepped during a drag is a frame or two, not worth a busy
    // cursor or disabling Undo at every frame.
    if (!wasBusy && !m_stepTarget)
        setBusy(true);
    settle();
}

void Document::setBusy(bool busy)
{
    if (busy == m_busyAnnounced)
        return;
    m_busyAnnounced = busy;
    emit busyChanged(busy);
    if (m_undo.isClean())
        emit modifiedChanged(isModified());
}

void Document::deferEdit(const QString &what, std::function<QString()> edit)
{
    defer([this, what, edit = std::move(edit)] {
        if (const QString error = edit(); !error.isEmpty())
            emit editFailed(what.isEmpty() ? error : tr("%1: %2").arg(what, error));
    });
}

void Document::whenSettled(std::function<void()> action)
{
    if (mustWait())
        defer(std::move(action));
    else
        action();
}

void Document::runDeferred()
{
    if (m_replaying || !isBusy())
        return;
    while (isSettled() && !m_stepTarget && !m_deferred.empty()) {
        std::function<void()> action = std::move(m_deferred.front());
        m_deferred.pop_front();
        m_replaying = true;
        m_insertAt = 0;
        action();
        m_replaying = false;
    }
    if (m_deferred.empty()) {
        if (!m_restore) // (a queued call may have started a return the worker prepares)
            setBusy(false);
    } else if (!m_stepTarget) {
        setBusy(true); // (not announced if it began while frames were being stepped)
        settle(); // a queued call moved the playhead: the rest waits for the state there
    }
}

void Document::waitUntilSettled()
{
    settle();
    if (isSettled() && !isBusy() && !isStepping())
        return;
    QEventLoop loop;
    connect(this, &Document::settled, &loop, &QEventLoop::quit);
    // A request given up on the way (the playhead moved) is made again for the new frame.
    connect(this, &Document::preparingChanged, &loop, [this, &loop](bool preparing) {
        if (isSettled() && !isBusy() && !isStepping())
            loop.quit();
        else if (!preparing)
            QMetaObject::invokeMethod(this, &Document::settle, Qt::QueuedConnection);
    });
    loop.exec(QEventLoop::ExcludeUserInputEvents);
}

void Document::moveHistory(bool undo)
{
    const bool retarget = m_restore && m_restore->historyTarget;
    const std::size_t from = retarget ? *m_restore->historyTarget : m_edit.undoIndex();
    if (undo ? from == 0 : from >= m_edit.undoCount())
        return;
    const std::size_t target = undo ? from - 1 : from + 1;
    std::uint64_t frameBefore = 0;
    std::optional<std::uint64_t> announced; // the frame a move being retargeted was preparing
    if (retarget) {
        // A further step while the last one's state is on its way (the History view moves
        // several steps at once): the move goes to the new step instead.
        frameBefore = m_restore->frameBefore;
        announced = m_restore->playhead;
        ++m_settleSerial;
        m_timeline->cancelStateRequest();
        m_restore.reset();
        m_preparing.reset();
        m_shown.reset();
    } else {
        finishRestoreNow();
        frameBefore = beforeHistoryMove();
    }
    const auto apply = [this, target](std::optional<EditDocument::Arrival> arrival) {
        m_edit.moveHistory(target, std::move(arrival));
    };
    if (target != m_edit.undoIndex() && !dragging()
        && restoreOnWorker(m_edit.historyPoint(target), { apply, target, frameBefore, 0, Change::All }, announced))
        return;
    // Nothing to simulate (the start, or the playhead's own events), or no worker: here.
    apply(std::nullopt);
    if (announced) {
        emit preparingChanged(false, *announced);
        if (!isBusy())
            setBusy(false);
        m_timeline->setPlayhead(frame()); // it was moved to the frame given up
        emit playheadMoved(frame());
    }
    afterHistoryMove(frameBefore);
}

bool Document::restoreOnWorker(const EditDocument::Snapshot &point, PendingRestore pending,
                               std::optional<std::uint64_t> announced)
{
    if (!m_timeline->workerRunning() || !m_edit.restoreSteps(point))
        return false;
    const std::uint64_t playhead = point.playhead;
    setTimelineDocument(point.scene, point.take); // what the worker replays from now on
    const std::uint64_t serial = ++m_settleSerial;
    pending.playhead = playhead;
    m_restore = std::move(pending);
    m_preparing = playhead;
    m_shown = playhead;
    requestArrival(playhead, nullptr,
                   [this, serial](EditDocument::Arrival arrival) { adoptRestore(serial, std::move(arrival)); });
    setBusy(true);
    m_timeline->setPlayhead(playhead);
    if (announced && *announced != playhead)
        emit preparingChanged(false, *announced);
    emit preparingChanged(true, playhead);
    emit playheadMoved(playhead);
    return true;
}

void Document::adoptRestore(std::uint64_t serial, EditDocument::Arrival arrival)
{
    if (serial != m_settleSerial || !m_restore)
        return; // a further undo or redo asked for another state since
    PendingRestore done = std::move(*m_restore);
    m_restore.reset();
    m_preparing.reset();
    m_shown.reset();
    done.apply(std::move(arrival));
    emit preparingChanged(false, done.playhead);
    announce(done.what, done.frameBefore);
    runDeferred(); // what waited runs at the frame the document returned to
    if (!isBusy())
        setBusy(false);
    if (isSettled() && !isBusy())
        emit settled();
}

void Document::finishRestoreNow()
{
    if (!m_restore)
        return;
    PendingRestore done = std::move(*m_restore);
    m_restore.reset();
    ++m_settleSerial;
    m_timeline->cancelStateRequest();
    m_preparing.reset();
    m_shown.reset();
    done.apply(std::nullopt);
    emit preparingChanged(false, done.playhead);
    announce(done.what, done.frameBefore);
    if (!isBusy())
        setBusy(false);
}

std::uint64_t Document::beforeHistoryMove()
{
    const std::uint64_t shown = playhead();
    cancelPreparing();
    cancelStep();
    m_shown.reset(); // undo and redo show the frame of the step (replayed), not a cached one
    return shown;
}

namespace {

QString quotedName(const std::string &name, const QString &fallback)
{
    return name.empty() ? fallback : QStringLiteral("“%1”").arg(QString::fromStdString(name));
}

} // namespace

QString Document::run(const std::function<std::string()> &edit, const QString &text, Change what,
                      const QString &mergeKey, const QString &name)
{
    if (mustWait()) {
        deferEdit(text.isEmpty() ? name : text,
                  [this, edit, text, what, mergeKey] { return run(edit, text, what, mergeKey); });
        return {};
    }
    const std::size_t steps = m_edit.undoIndex();
    const std::uint64_t before = frame();
    const std::string error = edit();
    if (error.empty() && !text.isEmpty() && m_edit.undoIndex() > steps)
        m_edit.renameLast(text.toStdString());
    return finishEdit(error, steps, before, what, mergeKey);
}

QString Document::addCloth(const ClothDesc &cloth)
{
    return run([=, this] { return m_edit.addCloth(cloth); }, tr("Add Cloth %1").arg(quotedName(cloth.name, {})).trimmed(),
               Change::All);
}

QString Document::removeCloth(int cloth)
{
    const bool ok = cloth >= 0 && std::size_t(cloth) < scene().cloths.size();
    const QString name = quotedName(ok ? scene().cloths[std::size_t(cloth)].name : "", {});
    return run([=, this] { return m_edit.removeCloth(cloth); }, tr("Delete Cloth %1").arg(name).trimmed(), Change::All);
}

QString Document::addCollider(const Collider &collider)
{
    return run([=, this] { return m_edit.addCollider(collider); },
               tr("Add Collider %1").arg(quotedName(collider.name, {})).trimmed(), Change::All);
}

QString Document::removeCollider(int collider)
{
    const bool ok = collider >= 0 && std::size_t(collider) < scene().colliders.size();
    const QString name = quotedName(ok ? scene().colliders[std::size_t(collider)].name : "", {});
    return run([=, this] { return m_edit.removeCollider(collider); }, tr("Delete Collider %1").arg(name).trimmed(),
               Change::All);
}

QString Document::setPlacement(int cloth, const Placement &placement)
{
    return run([=, this] { return m_edit.setPlacement(cloth, placement); }, tr("Place Cloth #%1").arg(cloth + 1),
               Change::All);
}

QString Document::setColliderPlacement(int collider, const Vec3 &centre, const Vec3 &rotation, float scale)
{
    return run([=, this] { return m_edit.setColliderPlacement(collider, centre, rotation, scale); },
               tr("Place Collider #%1").arg(collider + 1), Change::All);
}

QString Document::removeObjects(const std::vector<SceneObject> &objects)
{
    if (objects.size() == 1)
        return objects[0].kind == SceneObject::Kind::Cloth ? removeCloth(objects[0].index)
                                                           : removeCollider(objects[0].index);
    return run([=, this] { return m_edit.removeObjects(objects); }, tr("Delete %n Objects", nullptr, int(objects.size())),
               Change::All);
}

QString Document::duplicate(const std::vector<SceneObject> &objects)
{
    return run([=, this] { return m_edit.duplicate(objects); }, {}, Change::All, {}, tr("Duplicate"));
}

QString Document::moveObject(const SceneObject &object, int to)
{
    return run([=, this] { return m_edit.moveObject(object, to); }, {}, Change::All, {}, tr("Move Object"));
}

QString Document::rename(const SceneObject &object, const QString &name)
{
    return run([=, this] { return m_edit.rename(object, name.trimmed().toStdString()); },
               tr("Rename to %1").arg(quotedName(name.trimmed().toStdString(), {})), Change::View | Change::Parameters);
}

QString Document::setHidden(const std::vector<SceneObject> &objects, bool hidden)
{
    return run([=, this] { return m_edit.setHidden(objects, hidden); }, {}, Change::View, {},
               hidden ? tr("Hide") : tr("Show"));
}

QString Document::removeEvent(std::size_t index)
{
    return run([=, this] { return m_edit.removeEvent(index); }, {}, Change::All, {}, tr("Delete Event"));
}

void Document::announce(Change what, std::uint64_t frameBefore)
{
    updateTimeline();
    std::vector<std::optional<GridDesc>> now = grids();
    if (now.size() == m_grids.size())
        for (std::size_t i = 0; i < now.size(); ++i)
            if (now[i] && m_grids[i] && !(*now[i] == *m_grids[i]))
                emit gridChanged(int(i), *m_grids[i], *now[i]);
    m_grids = std::move(now);
    if (frameBefore != frame())
        emit simulationReset();
    emit changed(what);
    emit simulationStepped();
}

QString Document::finishEdit(const std::string &error, std::size_t stepsBefore, std::uint64_t frameBefore,
                             Change what, const QString &mergeKey)
{
    if (!error.empty())
        return QString::fromStdString(error);
    if (!m_edit.message().empty())
        emit takeMessage(QString::fromStdString(m_edit.message()));
    if (m_gestureDepth > 0) {
        announce(what, frameBefore);
        return {};
    }
    if (m_edit.undoIndex() > stepsBefore) {
        const QString text = QString::fromStdString(m_edit.undoText(m_edit.undoIndex() - 1));
        const QString key = mergeKey.isEmpty() ? QString() : mergeKey + QLatin1Char('#') + QString::number(m_mergeSerial);
        m_undo.push(new EditStepCommand(this, text, key));
    }
    announce(what, frameBefore);
    return {};
}

void Document::afterHistoryMove(std::uint64_t frameBefore)
{
    announce(Change::All, frameBefore);
    // Calls that waited for the state given up by beforeHistoryMove() run once the stack has
    // finished moving (the editor keeps Undo and Redo disabled while they wait).
    if (isBusy())
        QMetaObject::invokeMethod(this, &Document::settle, Qt::QueuedConnection);
}

namespace {

std::vector<std::uint32_t> sortedUnique(std::vector<std::uint32_t> v)
{
    std::sort(v.begin(), v.end());
    v.erase(std::unique(v.begin(), v.end()), v.end());
    return v;
}

// Only the particles whose kind would change: pinning a pin again is no edit.
std::vector<std::uint32_t> changing(const Simulation &sim, std::size_t cloth, const std::vector<std::uint32_t> &list,
                                    bool pin)
{
    std::vector<std::uint32_t> out;
    if (cloth >= sim.cloths.size())
        return list; // the core names the missing cloth
    const Particles &p = sim.cloths[cloth].particles;
    for (std::uint32_t i : sortedUnique(list)) {
        if (i >= p.size()) {
            out.push_back(i); // the core names the index
            continue;
        }
        const bool pinned = p.kind[i] == ParticleKind::Static;
        if (pinned != pin)
            out.push_back(i);
    }
    return out;
}

} // namespace

QString Document::setKinds(const std::vector<std::vector<std::uint32_t>> &particlesPerCloth, bool pin,
                           const QString &text)
{
    if (mustWait()) {
        deferEdit(text, [=, this] { return setKinds(particlesPerCloth, pin, text); });
        return {};
    }
    beginGesture();
    QString error;
    for (std::size_t c = 0; c < particlesPerCloth.size() && error.isEmpty(); ++c) {
        const std::vector<std::uint32_t> list = changing(simulation(), c, particlesPerCloth[c], pin);
        if (list.empty())
            continue;
        error = setKind(int(c), list, pin);
    }
    if (!error.isEmpty()) {
        cancelGesture(); // leave nothing half done: the cloths edited before the error go back
        return error;
    }
    endGesture(text);
    return {};
}

QString Document::setKind(int cloth, const std::vector<std::uint32_t> &particles, bool pin, const QString &text)
{
    if (mustWait()) {
        deferEdit(text.isEmpty() ? (pin ? tr("Pin") : tr("Unpin")) : text,
                  [=, this] { return setKind(cloth, particles, pin, text); });
        return {};
    }
    const std::size_t steps = m_edit.undoIndex();
    const std::uint64_t before = frame();
    const std::vector<std::uint32_t> list = changing(simulation(), std::size_t(std::max(cloth, 0)), particles, pin);
    if (list.empty())
        return {};
    std::string error = m_edit.setKind(cloth, list, pin ? ParticleKind::Static : ParticleKind::Dynamic);
    if (error.empty() && !text.isEmpty() && m_gestureDepth == 0 && m_edit.undoIndex() > steps) {
        m_edit.renameLast(text.toStdString());
    }
    return finishEdit(error, steps, before, Change::Pins);
}

QString Document::movePins(int cloth, const std::vector<std::uint32_t> &particles, const std::vector<Vec3> &positions)
{
    return run([=, this] { return m_edit.movePins(cloth, particles, positions); }, tr("Move Pins"), Change::Pins);
}

QString Document::sew(int cloth, std::uint32_t a, std::uint32_t b, const NewConstraintDef &def, const QString &text)
{
    if (mustWait()) {
        deferEdit(text, [=, this] { return sew(cloth, a, b, def, text); });
        return {};
    }
    beginGesture();
    const std::size_t steps = m_edit.undoIndex();
    const std::uint64_t before = frame();
    const QString error = finishEdit(m_edit.sew(cloth, a, b, def), steps, before, Change::Topology);
    endGesture(text);
    return error;
}

QString Document::removeConstraints(int cloth, const std::vector<std::uint32_t> &indices, bool cut,
                                    const QString &text)
{
    if (mustWait()) {
        deferEdit(text, [=, this] { return removeConstraints(cloth, indices, cut, text); });
        return {};
    }
    beginGesture();
    const std::size_t steps = m_edit.undoIndex();
    const std::uint64_t before = frame();
    const QString error = finishEdit(m_edit.removeConstraints(cloth, indices, cut), steps, before, Change::Topology);
    endGesture(text);
    return error;
}

QString Document::changeConstraints(int cloth, const std::vector<std::uint32_t> &indices,
                                    const ConstraintProps &props, const QString &text, const QString &mergeKey)
{
    if (mustWait()) {
        deferEdit(text, [=, this] { return changeConstraints(cloth, indices, props, text, mergeKey); });
        return {};
    }
    const std::size_t steps = m_edit.undoIndex();
    const std::uint64_t before = frame();
    std::string error = m_edit.changeConstraints(cloth, indices, props);
    if (error.empty() && m_edit.undoIndex() > steps) {
        m_edit.renameLast(text.toStdString());
    }
    return finishEdit(error, steps, before, Change::Parameters, mergeKey);
}

QString Document::setParameter(const std::string &key, int index, double value, bool scrub)
{
    const ParamDesc *param = findParam(key);
    if (mustWait()) {
        const QString what = param ? tr("Set %1").arg(QString::fromStdString(param->label)) : QString();
        deferEdit(what, [=, this] { return setParameter(key, index, value, scrub); });
        return {};
    }
    const std::size_t steps = m_edit.undoIndex();
    const std::uint64_t before = frame();
    std::string error = m_edit.setParameter(key, index, value);
    Change what = Change::Parameters;
    if (param && param->group == ParamGroup::Collider)
        what = what | Change::Colliders;
    if (param && param->needsRebuild)
        what = Change::All;
    if (error.empty() && param && m_edit.undoIndex() > steps) {
        QString text = tr("Set %1").arg(QString::fromStdString(param->label));
        if (param->group == ParamGroup::Material || param->group == ParamGroup::Cloth
            || param->group == ParamGroup::Collider)
            text += QStringLiteral(" (#%1)").arg(index + 1);
        m_edit.renameLast(text.toStdString());
    }
    const QString mergeKey = scrub ? QStringLiteral("param:%1:%2").arg(QString::fromStdString(key)).arg(index) : QString();
    return finishEdit(error, steps, before, what, mergeKey);
}

QString Document::setMaterial(int cloth, const Material &material)
{
    return run([=, this] { return m_edit.setMaterial(cloth, material); },
               tr("Material: %1").arg(QString::fromStdString(material.name)), Change::Parameters);
}

QString Document::setPresentation(const Scene &next, const QString &text, const QString &mergeKey, Change what)
{
    // Looking different changes no state, but the undo step records the playhead: it must be
    // the frame on screen, or undoing a rename made after a scrub would jump back.
    if (mustWait()) {
        deferEdit(text, [=, this] { return setPresentation(next, text, mergeKey, what); });
        return {};
    }
    const std::size_t steps = m_edit.undoIndex();
    const std::uint64_t before = frame();
    const std::string error = m_edit.setPresentation(text.toStdString(), next);
    return finishEdit(error, steps, before, what, mergeKey);
}

QString Document::setPresentation(const std::function<void(Scene &)> &change, const QString &text,
                                  const QString &mergeKey, Change what)
{
    if (mustWait()) {
        deferEdit(text, [=, this] { return setPresentation(change, text, mergeKey, what); });
        return {};
    }
    Scene next = scene();
    change(next);
    if (next == scene())
        return {};
    return setPresentation(next, text, mergeKey, what);
}

QString Document::setStartHere()
{
    return run([=, this] { return m_edit.setStartHere(); }, tr("Set Start Here"), Change::All);
}

QString Document::push(const Vec3 &centre, float radius, const Vec3 &delta, float factor)
{
    return run([=, this] { return m_edit.push(centre, radius, delta, factor); }, {}, Change::None, {}, tr("Push"));
}

void Document::closeMerging()
{
    if (isQueueing())
        defer([this] { ++m_mergeSerial; }); // after the edits it closes
    else
        ++m_mergeSerial;
}

void Document::beginGesture()
{
    if (mustWait()) {
        defer([this] { beginGesture(); });
        return;
    }
    if (m_gestureDepth++ == 0) {
        m_gestureSteps = m_edit.undoIndex();
        m_gestureFrame = frame();
        m_edit.beginGroup();
    }
}

void Document::endGesture(const QString &text)
{
    if (mustWait()) {
        defer([this, text] { endGesture(text); });
        return;
    }
    if (m_gestureDepth == 0 || --m_gestureDepth > 0)
        return;
    if (m_edit.endGroup(text.toStdString()) && m_edit.undoIndex() > m_gestureSteps)
        m_undo.push(new EditStepCommand(this, text, QString()));
}

void Document::cancelGesture()
{
    if (mustWait()) {
        defer([this] { cancelGesture(); });
        return;
    }
    if (m_gestureDepth == 0)
        return;
    m_gestureDepth = 0;
    const std::uint64_t before = frame();
    // A stroke held while playing returns to the frame it began at: the worker simulates it.
    const auto apply = [this](std::optional<EditDocument::Arrival> arrival) { m_edit.abandonGroup(std::move(arrival)); };
    if (const EditDocument::Snapshot *start = m_edit.groupStart();
        start && !dragging() && restoreOnWorker(*start, { apply, std::nullopt, before, 0, Change::All }))
        return;
    apply(std::nullopt);
    announce(Change::All, before);
}

QString Document::beginDrag(int cloth, const std::vector<std::uint32_t> &particles, const Vec3 &centre)
{
    if (mustWait()) {
        deferEdit(tr("Drag"), [=, this] { return beginDrag(cloth, particles, centre); });
        return {};
    }
    const std::uint64_t before = frame();
    m_dragCloth = cloth;
    m_dragPins.clear();
    if (cloth >= 0 && std::size_t(cloth) < simulation().cloths.size()) {
        const Particles &p = simulation().cloths[std::size_t(cloth)].particles;
        for (std::uint32_t i : particles)
            if (i < p.size() && p.kind[i] == ParticleKind::Static)
                m_dragPins.push_back(i);
    }
    const std::string error = m_edit.beginDrag(cloth, particles, centre);
    if (!error.empty())
        return QString::fromStdString(error);
    announce(Change::Pins, before);
    return {};
}

void Document::dragTo(const Vec3 &target)
{
    if (m_stepTarget && m_edit.dragging() && m_deferred.empty()) {
        m_heldTarget = target; // the target of the frame being stepped to, once it is there
        return;
    }
    if (mustWait()) {
        defer([this, target] { dragTo(target); });
        return;
    }
    m_edit.dragTo(target);
    emit simulationStepped();
}

void Document::endDrag(const QString &text)
{
    if (mustWait()) {
        defer([this, text] { endDrag(text); });
        return;
    }
    if (!m_edit.dragging())
        return;
    if (frame() == 0 && !m_dragPins.empty()) {
        // At the start a dragged pin is a scene edit: the hook is authored where it was dropped.
        const Particles &p = simulation().cloths[std::size_t(m_dragCloth)].particles;
        std::vector<Vec3> places;
        for (std::uint32_t i : m_dragPins)
            places.push_back(p.position[i]);
        const std::vector<std::uint32_t> pins = std::move(m_dragPins);
        m_dragPins.clear();
        m_edit.cancelDrag();
        const std::size_t steps = m_edit.undoIndex();
        std::string error = m_edit.movePins(m_dragCloth, pins, places);
        if (error.empty() && m_edit.undoIndex() > steps)
            m_edit.renameLast(tr("Move Pin").toStdString());
        finishEdit(error, steps, 0, Change::Pins);
        return;
    }
    const std::size_t steps = m_edit.undoIndex();
    const std::uint64_t before = frame();
    m_edit.endDrag();
    m_edit.renameLast(text.toStdString());
    finishEdit({}, steps, before, Change::Pins);
}

void Document::cancelDrag()
{
    if (mustWait()) {
        defer([this] { cancelDrag(); });
        return;
    }
    if (!m_edit.dragging())
        return;
    const std::uint64_t before = frame();
    // A drag held while playing returns to the frame it began at: the worker simulates it.
    const auto apply = [this](std::optional<EditDocument::Arrival> arrival) { m_edit.cancelDrag(std::move(arrival)); };
    if (restoreOnWorker(*m_edit.dragStart(), { apply, std::nullopt, before, 0, Change::Pins }))
        return;
    apply(std::nullopt);
    announce(Change::Pins, before);
}

// ---- files ---------------------------------------------------------------------------------

std::unique_ptr<Document> Document::load(const QString &filePath, QString *error, QStringList *warnings,
                                         const SceneBudget &budget, std::optional<SceneTotals> *overBudget)
{
    SceneLoadResult result = loadSceneFile(QFile::encodeName(filePath).toStdString(), budget);
    if (overBudget)
        *overBudget = result.overBudget;
    if (warnings) {
        for (const std::string &w : result.warnings)
            warnings->append(QString::fromStdString(w));
    }
    if (!result.ok()) {
        if (error)
            *error = QString::fromStdString(result.error);
        return nullptr;
    }
    auto document = std::make_unique<Document>(std::move(*result.scene), QFileInfo(filePath).absoluteFilePath(),
                                               nullptr, std::move(result.take));
    document->setBudget(budget);
    // A cache baked beside the file lets the document scrub at once; a stale one is named.
    const QString cacheMessage = seedFromDiskCache(*document);
    if (warnings && !cacheMessage.isEmpty())
        warnings->append(cacheMessage);
    return document;
}

bool Document::save(const QString &filePath, bool withState, QString *error)
{
    // The scene and the take are the document: saving needs no state, only the edits that
    // wait for it. With state, the state at the playhead is the file's start.
    if (isBusy() || isStepping() || (withState && !isSettled()))
        waitUntilSettled();
    Scene scene;
    Take take;
    if (withState) {
        auto [start, rest] = m_edit.fromPlayhead();
        scene = std::move(start);
        take = std::move(rest);
    } else {
        scene = m_edit.scene();
        take = m_edit.take();
    }
    scene.camera = m_camera;
    SaveOptions options;
    options.withState = withState || scene.state.has_value(); // a start kept with Set Start Here
    options.take = &take;
    std::string message;
    if (!saveSceneFile(QFile::encodeName(filePath).toStdString(), scene, options, &message)) {
        if (error)
            *error = QString::fromStdString(message);
        return false; // the old file is untouched and the document stays modified
    }
    m_undo.setClean();
    const QString absolute = QFileInfo(filePath).absoluteFilePath();
    if (m_filePath != absolute) {
        m_filePath = absolute;
        emit filePathChanged(m_filePath);
    }
    return true;
}

} // namespace drape
