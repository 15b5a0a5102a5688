// Playback and scrubbing in the editor: the viewport draws the timeline's cached frames while
// playing or scrubbing and the GUI thread runs no solver step for them, a frame past the cache
// arrives from the worker with its progress, loop and backward play in the window, the
// playhead keys from anywhere but a text field, and edits while playing recorded at the frame
// on screen. Settling on a resting playhead (pause, scrub release, an edit, a step) is the
// worker's too: the GUI thread steps nothing, and edits made meanwhile wait and land exactly.
#include "../sanitizers.h"
#include "actions/editactions.h"
#include "actions/playbackactions.h"
#include "document/document.h"
#include "document/simulationcontroller.h"
#include "edit/editdocument.h"
#include "edit/player.h"
#include "mainwindow.h"
#include "presetdocument.h"
#include "render/resources.h"
#include "render/viewport.h"
#include "timeline/timelinebar.h"
#include "timeline/timelinewidget.h"
#include "widgets/statuswidgets.h"

#include <QAction>
#include <QApplication>
#include <QLineEdit>
#include <QStandardPaths>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTest>

using namespace drape;

namespace {

// A small cloth (the three.js example's 10 × 10), so the worker fills hundreds of frames fast.
constexpr const char *kPreset = "threejs-cloth";

void showWindow(MainWindow &window)
{
    window.setDocument(presetDocument(QString::fromLatin1(kPreset)));
    window.resize(800, 600);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
}

// The cache holds every frame of the playback range and the worker has nothing left to do.
// The state is at the playhead and no edit waits for it: settling is the worker's, so a test
// waits for it (QTRY_VERIFY) where the editor would show a busy cursor.
bool settled(const Document *doc)
{
    return doc->isSettled() && !doc->isBusy();
}

// Sets the range and waits until the cache holds it and the range edit has run: on a busy
// machine the window's first frames may still be settling when the range is set, and the
// edit (with any playhead key pressed after it) then waits for the state in order.
void fillRange(MainWindow &window, quint64 start, quint64 end)
{
    window.controller()->setRange(start, end);
    Timeline &timeline = window.document()->timeline();
    QTRY_VERIFY_WITH_TIMEOUT(timeline.cachedFrame(end) != nullptr, 30000);
    QTRY_VERIFY_WITH_TIMEOUT(settled(window.document()), 30000);
    QCOMPARE(window.controller()->rangeStart(), start);
    timeline.waitIdle();
}

// The positions the viewport draws equal the forward replay's at `frame`.
bool showsReplayAt(const MainWindow &window, std::uint64_t frame)
{
    const Document *doc = window.document();
    const Simulation expected = replay(doc->scene(), doc->take(), frame);
    const Simulation &shown = window.viewport()->shownSimulation();
    if (shown.cloths.size() != expected.cloths.size())
        return false;
    for (std::size_t c = 0; c < shown.cloths.size(); ++c)
        if (shown.cloths[c].particles.position != expected.cloths[c].particles.position)
            return false;
    return true;
}

// The threejs cloth playing from the cache, past frame 20 (of 300 cached). The range then has
// no end, so that playback cannot stop by itself before a test looks: on a loaded machine
// this thread may look only after the player has shown every frame the worker made (with an
// end, it would have stopped there, as it should).
void playPastFrame20(MainWindow &window)
{
    showWindow(window);
    fillRange(window, 0, 300);
    window.controller()->setRange(0, SimulationController::kNoEnd);
    QTRY_VERIFY(settled(window.document()));
    window.controller()->setPlaying(true);
    QTRY_VERIFY_WITH_TIMEOUT(window.document()->playhead() >= 20, 10000);
}

} // namespace

class TestPlayback : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void scrubbingShowsCachedFramesWithoutSimulating();
    void seekPastTheCacheWaitsForTheWorker();
    void playingDrawsTheCacheAndStopsAtTheEnd();
    void loopsAndPlaysBackward();
    void backwardBeforeAnOpenRangeStaysAtItsStart();
    void keysMoveThePlayheadFromTheWindow();
    void rangeIsPartOfTheSceneAndUndoable();
    void editWhilePlayingIsRecordedAtThePlayhead();
    void dragWhilePlayingIsSteppedByTheWorker();
    void settlingStepsNothingOnTheGuiThread();
    void editWhilePreparingEqualsTheSameEditAtOnce();
    void undoWhileEditsWaitLeavesNothingStranded();
    void waitingEditIsUnsavedAndNamedWhenItFails();
    void undoAndRedoAreSimulatedByTheWorker();
    void cancelledDragReturnsThroughTheWorker();
    void heldDragKeepsThePlayheadAndStaysExact();
    void busyEndsWhenAnUndoArrives();
};

void TestPlayback::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    initResources();
}

void TestPlayback::scrubbingShowsCachedFramesWithoutSimulating()
{
    MainWindow window;
    showWindow(window);
    fillRange(window, 0, 120);
    Document *doc = window.document();
    QCOMPARE(doc->scene().record.endFrame, 120);
    TimelineWidget *ruler = window.timelineBar()->ruler();
    window.timelineBar()->refresh();
    const std::uint64_t simulated = doc->timeline().simulatedFrames();

    const int y = ruler->height() / 2;
    QTest::mousePress(ruler, Qt::LeftButton, {}, { ruler->xOf(100), y });
    for (quint64 f : { 100u, 37u, 81u }) {
        QTest::mouseMove(ruler, { ruler->xOf(f), y });
        const quint64 at = ruler->frameAt(ruler->xOf(f));
        QCOMPARE(doc->playhead(), at);
        QCOMPARE(window.viewport()->shownFrame(), at);
        QCOMPARE(doc->frame(), std::uint64_t(0)); // the state did not move: nothing was simulated
        QVERIFY(showsReplayAt(window, at));
    }
    QCOMPARE(doc->timeline().simulatedFrames(), simulated);
    const quint64 last = doc->playhead();
    QTest::mouseRelease(ruler, Qt::LeftButton, {}, { ruler->xOf(81), y });
    // On release the document comes to the frame on screen, exactly.
    QTRY_COMPARE(doc->frame(), std::uint64_t(last));
    QVERIFY(doc->isSettled());
    QCOMPARE(doc->simulation().stateHash(), replay(doc->scene(), doc->take(), last).stateHash());
    QCOMPARE(doc->simulation().stateHash(), doc->timeline().cachedFrame(last)->stateHash);
}

void TestPlayback::seekPastTheCacheWaitsForTheWorker()
{
    MainWindow window;
    showWindow(window);
    fillRange(window, 0, 60);
    Document *doc = window.document();
    SimulationController *controller = window.controller();
    controller->setRange(0, SimulationController::kNoEnd);
    // Far past the 60 cached frames (not as far under the sanitizers, which step slower).
    const quint64 target = testing::kSanitizedBuild ? 300 : 900;
    QVERIFY(doc->timeline().cachedFrame(target) == nullptr);
    controller->seekTo(target);
    QCOMPARE(doc->playhead(), target);
    QVERIFY(controller->isWaiting());
    QVERIFY(controller->waitText().startsWith(QStringLiteral("Simulating to frame %1: ").arg(target)));
    QVERIFY(controller->waitText().contains(QLatin1Char('/')));
    QTRY_VERIFY_WITH_TIMEOUT(!controller->isWaiting(), 60000);
    QTRY_COMPARE(doc->frame(), std::uint64_t(target));
    QCOMPARE(doc->simulation().stateHash(), replay(doc->scene(), doc->take(), target).stateHash());
}

void TestPlayback::playingDrawsTheCacheAndStopsAtTheEnd()
{
    MainWindow window;
    showWindow(window);
    fillRange(window, 0, 90);
    Document *doc = window.document();
    SimulationController *controller = window.controller();
    const std::uint64_t simulated = doc->timeline().simulatedFrames();
    controller->setPlaying(true);
    QVERIFY(controller->isPlaying());
    QTRY_VERIFY_WITH_TIMEOUT(doc->playhead() >= 30, 10000);
    // Playing over the cache: the GUI thread shows frames; the state stays where it was.
    QCOMPARE(doc->frame(), std::uint64_t(0));
    QCOMPARE(window.viewport()->shownFrame(), doc->playhead());
    QVERIFY(showsReplayAt(window, doc->playhead()));
    // Without loop playback stops at the end of the range, and the state comes there.
    QTRY_VERIFY_WITH_TIMEOUT(!controller->isPlaying(), 10000);
    QCOMPARE(doc->playhead(), quint64(90));
    QTRY_COMPARE(doc->frame(), std::uint64_t(90));
    QCOMPARE(doc->simulation().stateHash(), replay(doc->scene(), doc->take(), 90).stateHash());
    // Every frame came from the worker's cache: none was simulated again for playback (the
    // settle at the end re-simulates at most the frames since the last snapshot).
    QVERIFY(doc->timeline().simulatedFrames() - simulated < 30);
}

void TestPlayback::loopsAndPlaysBackward()
{
    MainWindow window;
    showWindow(window);
    fillRange(window, 0, 40);
    Document *doc = window.document();
    SimulationController *controller = window.controller();
    controller->setRange(10, 40);
    window.playbackActions()->loopAction()->trigger();
    QVERIFY(controller->loop());
    QList<quint64> frames;
    connect(doc, &Document::playheadMoved, this, [&](quint64 f) { frames << f; });
    controller->setPlaying(true);
    // Past the end it wraps to the start: a frame near 40 followed by one near 10.
    auto wrapped = [&] {
        for (qsizetype i = 1; i < frames.size(); ++i)
            if (frames[i - 1] >= 35 && frames[i] <= 15)
                return true;
        return false;
    };
    QTRY_VERIFY_WITH_TIMEOUT(wrapped(), 10000);
    for (quint64 f : frames)
        QVERIFY(f >= 10 && f <= 40);
    controller->setPlaying(false);

    // Backward, without loop: the playhead goes down to the range start and stops there.
    window.playbackActions()->loopAction()->trigger();
    QVERIFY(!controller->loop());
    controller->seekTo(30);
    frames.clear();
    window.playbackActions()->playBackwardAction()->trigger();
    QCOMPARE(controller->direction(), -1);
    QTRY_VERIFY_WITH_TIMEOUT(!controller->isPlaying(), 10000);
    QCOMPARE(doc->playhead(), quint64(10));
    QVERIFY(frames.size() >= 2);
    for (qsizetype i = 1; i < frames.size(); ++i)
        QVERIFY(frames[i] < frames[i - 1]);
    QTRY_COMPARE(doc->frame(), std::uint64_t(10));
}

void TestPlayback::backwardBeforeAnOpenRangeStaysAtItsStart()
{
    // A range with a start and no end, the playhead before it: playing backward starts from
    // the range's start (there is no end frame to jump to) and stops there at once.
    MainWindow window;
    showWindow(window);
    fillRange(window, 0, 30);
    Document *doc = window.document();
    SimulationController *controller = window.controller();
    controller->setRange(20, SimulationController::kNoEnd);
    QCOMPARE(controller->rangeEnd(), SimulationController::kNoEnd);
    controller->seekTo(5);
    window.playbackActions()->playBackwardAction()->trigger();
    QTRY_VERIFY_WITH_TIMEOUT(!controller->isPlaying(), 10000);
    QCOMPARE(doc->playhead(), quint64(20));
    QTRY_COMPARE(doc->frame(), std::uint64_t(20));
}

void TestPlayback::keysMoveThePlayheadFromTheWindow()
{
    MainWindow window;
    showWindow(window);
    fillRange(window, 0, 200);
    // Activated after the seconds the cache takes to fill: the shortcuts are the window's,
    // and without a window manager a late focus event from the window before can take them.
    window.activateWindow();
    QApplication::setActiveWindow(&window);
    QVERIFY(QTest::qWaitForWindowActive(&window));
    Document *doc = window.document();
    const quint64 second = quint64(std::lround(doc->settings().solver.frameRate));
    window.viewport()->setFocus();
    QTRY_VERIFY(window.viewport()->hasFocus());
    QTest::keyClick(window.viewport(), Qt::Key_Right);
    QCOMPARE(doc->playhead(), quint64(1));
    QTest::keyClick(window.viewport(), Qt::Key_Right, Qt::ShiftModifier);
    QCOMPARE(doc->playhead(), 1 + second);
    QTest::keyClick(window.viewport(), Qt::Key_Left);
    QCOMPARE(doc->playhead(), second);
    QTest::keyClick(window.viewport(), Qt::Key_End);
    QCOMPARE(doc->playhead(), quint64(200));
    QTest::keyClick(window.viewport(), Qt::Key_Left, Qt::ShiftModifier);
    QCOMPARE(doc->playhead(), 200 - second);
    QTest::keyClick(window.viewport(), Qt::Key_Home);
    QCOMPARE(doc->playhead(), quint64(0));

    // In a field where the user types, the arrows move the text cursor instead.
    auto *field = new QLineEdit(QStringLiteral("some text"), window.statusBar());
    window.statusBar()->addWidget(field);
    field->show();
    field->setFocus();
    QTRY_VERIFY(field->hasFocus());
    field->setCursorPosition(4);
    QTest::keyClick(field, Qt::Key_Right);
    QCOMPARE(field->cursorPosition(), 5);
    QCOMPARE(doc->playhead(), quint64(0));
    QTest::keyClick(field, Qt::Key_End);
    QCOMPARE(field->cursorPosition(), 9);
    QCOMPARE(doc->playhead(), quint64(0));
}

void TestPlayback::rangeIsPartOfTheSceneAndUndoable()
{
    MainWindow window;
    showWindow(window);
    Document *doc = window.document();
    SimulationController *controller = window.controller();
    PlaybackActions *actions = window.playbackActions();
    QCOMPARE(controller->rangeEnd(), SimulationController::kNoEnd);
    const int steps = doc->undoStack()->count();
    controller->seekTo(20);
    actions->setRangeStartAction()->trigger();
    controller->seekTo(50);
    actions->setRangeEndAction()->trigger();
    QTRY_VERIFY(settled(doc));
    QCOMPARE(doc->scene().record.startFrame, 20);
    QCOMPARE(doc->scene().record.endFrame, 50);
    QCOMPARE(controller->rangeStart(), quint64(20));
    QCOMPARE(controller->rangeEnd(), quint64(50));
    QCOMPARE(doc->undoStack()->count(), steps + 2);
    window.timelineBar()->refresh();
    QCOMPARE(window.timelineBar()->ruler()->playbackStart(), quint64(20));
    QCOMPARE(window.timelineBar()->ruler()->playbackEnd(), quint64(50));
    actions->startAction()->trigger();
    QCOMPARE(doc->playhead(), quint64(20));
    actions->endAction()->trigger();
    QCOMPARE(doc->playhead(), quint64(50));
    doc->undoStack()->undo();
    QCOMPARE(doc->scene().record.endFrame, 0);
    QCOMPARE(controller->rangeEnd(), SimulationController::kNoEnd);
    QCOMPARE(controller->rangeStart(), quint64(20));
    actions->clearRangeAction()->trigger();
    QCOMPARE(controller->rangeStart(), quint64(0));
}

void TestPlayback::editWhilePlayingIsRecordedAtThePlayhead()
{
    MainWindow window;
    playPastFrame20(window);
    if (QTest::currentTestFailed())
        return;
    Document *doc = window.document();
    SimulationController *controller = window.controller();
    const quint64 at = doc->playhead();
    QVERIFY(doc->frame() != at); // the state lags behind the frame on screen
    QVERIFY(doc->setParameter("world.airDamping", 0, 0.3).isEmpty());
    // The edit waited for the state at the frame on screen and was made there. (Not
    // settled(): the state is at the playhead only until the player moves on, which it may
    // do before this thread looks.)
    QTRY_VERIFY(!doc->isBusy());
    QCOMPARE(doc->take().events.size(), std::size_t(1));
    QCOMPARE(doc->take().events.front().frame, std::uint64_t(at));
    QVERIFY(controller->isPlaying());
    // Playback goes on from the edit once the worker has simulated past it.
    QTRY_VERIFY_WITH_TIMEOUT(doc->playhead() > at + 10, 20000);
    controller->setPlaying(false);
    QCOMPARE(doc->simulation().stateHash(), replay(doc->scene(), doc->take(), doc->frame()).stateHash());
}

void TestPlayback::dragWhilePlayingIsSteppedByTheWorker()
{
    // A drag records the hand's place at every frame: while it is held the document advances
    // frame by frame, stepped by the timeline's worker, never on the GUI thread; on release
    // playback goes on from the cache, which kept the drag's frames.
    MainWindow window;
    playPastFrame20(window);
    if (QTest::currentTestFailed())
        return;
    Document *doc = window.document();
    SimulationController *controller = window.controller();
    const std::uint64_t guiSteps = Simulation::stepsOnThisThread();
    std::uint64_t ownSteps = 0; // the test's own replays, on this thread
    const auto replayHash = [&](std::uint64_t f) {
        const std::uint64_t before = Simulation::stepsOnThisThread();
        const std::uint64_t hash = replay(doc->scene(), doc->take(), f).stateHash();
        ownSteps += Simulation::stepsOnThisThread() - before;
        return hash;
    };
    const quint64 shown = doc->playhead();
    const Vec3 grabbed = window.viewport()->shownSimulation().cloths[0].particles.position[60];
    QVERIFY(doc->beginDrag(0, { 60 }, grabbed).isEmpty());
    QTRY_VERIFY(doc->dragging()); // the press waited for the state at the frame on screen
    QCOMPARE(doc->take().events.size(), std::size_t(1));
    const quint64 at = doc->take().events.front().frame;
    QCOMPARE(at, shown); // the drag starts at the frame on screen
    QVERIFY(controller->isPlaying());
    bool sawStepping = false;
    for (int k = 1; k <= 3; ++k) {
        const std::uint64_t before = doc->frame();
        doc->dragTo(grabbed + Vec3 { 0.f, 0.05f * float(k), 0.f });
        QTRY_VERIFY_WITH_TIMEOUT((sawStepping = sawStepping || doc->isStepping(), doc->frame() > before), 5000);
        QVERIFY(doc->isSettled());
        // What is shown is the replay of the take as recorded so far (the drag still open).
        const auto *open = std::get_if<DragEvent>(&doc->take().events.front().data);
        QVERIFY(open && open->open);
        if (!doc->isStepping())
            QCOMPARE(doc->simulation().stateHash(), replayHash(doc->frame()));
    }
    QVERIFY(sawStepping);
    doc->endDrag(QStringLiteral("Drag"));
    QTRY_VERIFY(!doc->dragging()); // after the frames being stepped have arrived
    QCOMPARE(Simulation::stepsOnThisThread() - ownSteps, guiSteps);
    QCOMPARE(doc->take().events.size(), std::size_t(1));
    QCOMPARE(doc->take().events.front().frame, std::uint64_t(at));
    const auto *drag = std::get_if<DragEvent>(&doc->take().events.front().data);
    QVERIFY(drag);
    QVERIFY(!drag->open);
    const std::uint64_t released = doc->frame();
    QCOMPARE(drag->targets.size(), std::size_t(released - at + 1)); // one per frame held
    QCOMPARE(doc->simulation().stateHash(), replayHash(released));
    // The frames of the drag stayed in the cache: they are the replay of the closed drag.
    for (std::uint64_t f = at; f < released; ++f) {
        const std::shared_ptr<const CachedFrame> frame = doc->timeline().cachedFrame(f);
        QVERIFY2(frame, qPrintable(QStringLiteral("frame %1 of the drag is not cached").arg(f)));
        if (f == at + 1 || f + 1 == released)
            QCOMPARE(frame->stateHash, replayHash(f));
    }
    QVERIFY(controller->isPlaying());
    QTRY_VERIFY_WITH_TIMEOUT(doc->playhead() > released + 5, 20000);
    QCOMPARE(doc->frame(), released); // from the cache again
    controller->setPlaying(false);
    QCOMPARE(doc->simulation().stateHash(), replayHash(doc->frame()));
    QCOMPARE(Simulation::stepsOnThisThread() - ownSteps, guiSteps);
}

void TestPlayback::settlingStepsNothingOnTheGuiThread()
{
    // Pausing, releasing the ruler, an edit and a step at a playhead the state is not at: the
    // worker prepares the state there, the GUI thread steps no frame for any of them.
    MainWindow window;
    showWindow(window);
    fillRange(window, 0, 120);
    Document *doc = window.document();
    SimulationController *controller = window.controller();
    Timeline &timeline = doc->timeline();
    const std::uint64_t guiSteps = Simulation::stepsOnThisThread();
    const std::uint64_t simulated = timeline.simulatedFrames();

    controller->setPlaying(true);
    QTRY_VERIFY_WITH_TIMEOUT(doc->playhead() >= 45, 10000);
    controller->setPlaying(false);
    const quint64 paused = doc->playhead();
    QVERIFY(!doc->isSettled());
    QVERIFY(doc->isPreparing());
    QCOMPARE(controller->waitText(), QStringLiteral("Preparing frame %1 for editing…").arg(paused));
    QCOMPARE(window.viewport()->shownFrame(), paused); // the cached frame meanwhile
    QTRY_VERIFY(settled(doc));
    QCOMPARE(doc->frame(), std::uint64_t(paused));
    QCOMPARE(doc->simulation().stateHash(), timeline.cachedFrame(paused)->stateHash);

    TimelineWidget *ruler = window.timelineBar()->ruler();
    window.timelineBar()->refresh();
    const int y = ruler->height() / 2;
    QTest::mousePress(ruler, Qt::LeftButton, {}, { ruler->xOf(100), y });
    QTest::mouseMove(ruler, { ruler->xOf(37), y });
    const quint64 scrubbed = doc->playhead();
    QVERIFY(scrubbed != paused);
    QTest::mouseRelease(ruler, Qt::LeftButton, {}, { ruler->xOf(37), y });
    QTRY_VERIFY(settled(doc));
    QCOMPARE(doc->frame(), std::uint64_t(scrubbed));
    QCOMPARE(doc->simulation().stateHash(), timeline.cachedFrame(scrubbed)->stateHash);

    controller->seekTo(97, false);
    QVERIFY(!doc->isSettled());
    QVERIFY(doc->setParameter("world.airDamping", 0, 0.3).isEmpty());
    QVERIFY(doc->isBusy()); // it waits for the state at 97
    QVERIFY(doc->take().events.empty());
    QTRY_VERIFY(settled(doc));
    QCOMPARE(doc->take().events.size(), std::size_t(1));
    QCOMPARE(doc->take().events.front().frame, std::uint64_t(97));

    controller->stepFrames(1);
    QTRY_VERIFY_WITH_TIMEOUT(settled(doc) && doc->frame() == 98, 20000);

    QCOMPARE(Simulation::stepsOnThisThread(), guiSteps); // none on the GUI thread
    QVERIFY(timeline.simulatedFrames() > simulated); // the worker made them
    QCOMPARE(doc->simulation().stateHash(), replay(doc->scene(), doc->take(), 98).stateHash());
}

void TestPlayback::editWhilePreparingEqualsTheSameEditAtOnce()
{
    // Edits made while the worker prepares the state wait and then run in order at the frame
    // that was on screen: the document ends where the core's editing layer, making the same
    // edits there at once, ends. Undo gives back the frame that was shown before them.
    MainWindow window;
    showWindow(window);
    fillRange(window, 0, 120);
    Document *doc = window.document();
    const Scene scene = doc->scene();
    const Take take = doc->take();
    const int steps = doc->undoStack()->count();
    constexpr quint64 kAt = 83;
    const std::uint64_t shownHash = doc->timeline().cachedFrame(kAt)->stateHash;
    window.controller()->seekTo(kAt, false);
    QVERIFY(!doc->isSettled());
    const Vec3 centre = window.viewport()->shownSimulation().cloths[0].particles.position[60];
    const Vec3 target = centre + Vec3 { 0.f, 0.1f, 0.05f };

    QVERIFY(doc->setParameter("world.airDamping", 0, 0.3).isEmpty());
    QVERIFY(doc->isBusy());
    QVERIFY(doc->isPreparing());
    QVERIFY(doc->beginDrag(0, { 60 }, centre).isEmpty());
    doc->dragTo(target);
    doc->endDrag(QStringLiteral("Drag"));
    QVERIFY(doc->setKind(0, { 55 }, true).isEmpty());
    QVERIFY(doc->take().events.empty()); // nothing ran yet
    QTRY_VERIFY(settled(doc));

    EditDocument direct(scene, take);
    direct.seek(kAt);
    QCOMPARE(direct.simulation().stateHash(), shownHash);
    QVERIFY(direct.setParameter("world.airDamping", 0, 0.3).empty());
    QVERIFY(direct.beginDrag(0, { 60 }, centre).empty());
    direct.dragTo(target);
    direct.endDrag();
    QVERIFY(direct.setKind(0, { 55 }, ParticleKind::Static).empty());
    QCOMPARE(direct.take().events.size(), std::size_t(3));

    QCOMPARE(doc->frame(), std::uint64_t(kAt));
    QCOMPARE(doc->take().events.size(), direct.take().events.size());
    QVERIFY(doc->take() == direct.take());
    for (const Event &e : doc->take().events)
        QCOMPARE(e.frame, std::uint64_t(kAt));
    QCOMPARE(doc->simulation().stateHash(), direct.simulation().stateHash());
    QCOMPARE(doc->undoStack()->count(), steps + 3);

    for (int i = 0; i < 3; ++i)
        doc->undoStack()->undo();
    QCOMPARE(doc->frame(), std::uint64_t(kAt));
    QVERIFY(doc->take().events.empty());
    QCOMPARE(doc->simulation().stateHash(), shownHash);
}

void TestPlayback::undoWhileEditsWaitLeavesNothingStranded()
{
    // Edits wait for the state at 60; the first runs there and pushes a step, a queued move
    // sends the playhead on to 90 and the last edit waits again. Undo stays disabled although
    // the stack has a step to undo. Undone anyway (the document's own path, at the moment the
    // state at 90 is asked for), the request is given up and undo shows frame 60: the edit
    // still waiting runs there, and the document ends settled, not busy, Undo usable again.
    MainWindow window;
    showWindow(window);
    fillRange(window, 0, 120);
    Document *doc = window.document();
    QAction *undo = window.editActions()->undoAction();
    const int steps = doc->undoStack()->count();
    window.controller()->seekTo(60, false);
    QVERIFY(!doc->isSettled());
    QVERIFY(doc->setParameter("world.airDamping", 0, 0.3).isEmpty());
    doc->showFrame(90);
    QVERIFY(doc->setKind(0, { 55 }, true).isEmpty());
    QVERIFY(doc->isBusy());
    QVERIFY(!undo->isEnabled());

    bool undone = false;
    bool undoEnabledWhileBusy = true;
    const QMetaObject::Connection atNinety = connect(doc, &Document::preparingChanged, this,
                                                     [&](bool preparing, quint64 frame) {
        if (!preparing || frame != 90 || undone)
            return;
        undone = true;
        undoEnabledWhileBusy = undo->isEnabled();
        QCOMPARE(doc->undoStack()->count(), steps + 1); // the first edit ran
        QVERIFY(doc->isBusy());
        doc->undoStack()->undo();
    });
    QTRY_VERIFY(undone);
    disconnect(atNinety);
    QVERIFY(!undoEnabledWhileBusy);
    QTRY_VERIFY(settled(doc));
    QCOMPARE(doc->frame(), std::uint64_t(60));
    QCOMPARE(doc->take().events.size(), std::size_t(1)); // the pin; the parameter was undone
    QCOMPARE(doc->take().events.front().frame, std::uint64_t(60));
    QCOMPARE(doc->simulation().cloths[0].particles.kind[55], ParticleKind::Static);
    QCOMPARE(doc->undoStack()->count(), steps + 1);
    QVERIFY(undo->isEnabled());
    // Later calls are not left waiting either.
    QVERIFY(doc->setParameter("world.airDamping", 0, 0.2).isEmpty());
    QVERIFY(settled(doc));
    QCOMPARE(doc->undoStack()->count(), steps + 2);
}

void TestPlayback::waitingEditIsUnsavedAndNamedWhenItFails()
{
    // An edit waiting for the state is an unsaved change (closing asks first), and one that
    // fails when it runs is reported with what it was.
    MainWindow window;
    showWindow(window);
    fillRange(window, 0, 120);
    Document *doc = window.document();
    doc->undoStack()->setClean(); // as if saved with its range
    QVERIFY(!doc->isModified());
    QSignalSpy failed(doc, &Document::editFailed);
    window.controller()->seekTo(70, false);
    QVERIFY(!doc->isSettled());
    QVERIFY(!doc->isModified()); // a moved playhead is no change
    const Vec3 centre = window.viewport()->shownSimulation().cloths[0].particles.position[60];
    QVERIFY(doc->beginDrag(0, { 60 }, centre).isEmpty());
    QVERIFY(doc->isModified());
    QVERIFY(window.isWindowModified());
    QVERIFY(doc->setColliderPlacement(0, { 0.f, 1.f, 0.f }, {}).isEmpty()); // fails when it runs
    doc->cancelDrag();
    QTRY_VERIFY(settled(doc));
    QCOMPARE(failed.count(), 1);
    QCOMPARE(failed.at(0).at(0).toString(), QStringLiteral("Place Collider #1: finish the drag first"));
    QCOMPARE(window.statusWidgets()->shownText(), QStringLiteral("Place Collider #1: finish the drag first"));
    QVERIFY(!doc->isModified()); // the drag was cancelled: nothing changed after all
    QVERIFY(!window.isWindowModified());
}

void TestPlayback::undoAndRedoAreSimulatedByTheWorker()
{
    // Undo returns to the frame the step was made at. When that frame must be simulated again
    // the worker does it: the GUI thread steps nothing, the document is busy meanwhile (an edit
    // made then waits and lands at the frame undo returns to), and the result is exactly the
    // replay of the document before the edit. Redo likewise; two steps at once (the History
    // view) end at the second.
    MainWindow window;
    showWindow(window);
    fillRange(window, 0, 150);
    Document *doc = window.document();
    SimulationController *controller = window.controller();
    QAction *undo = window.editActions()->undoAction();
    const int steps = doc->undoStack()->count();
    controller->seekTo(40, true);
    QTRY_VERIFY_WITH_TIMEOUT(settled(doc), 30000);
    QVERIFY(doc->setKind(0, { 55 }, true).isEmpty());
    controller->seekTo(60, true);
    QTRY_VERIFY_WITH_TIMEOUT(settled(doc), 30000);
    QVERIFY(doc->setParameter("world.airDamping", 0, 0.4).isEmpty());
    QCOMPARE(doc->undoStack()->count(), steps + 2);
    controller->seekTo(120, true);
    QTRY_VERIFY_WITH_TIMEOUT(settled(doc), 30000);
    const Take both = doc->take();
    QCOMPARE(both.events.size(), std::size_t(2));

    std::uint64_t ownSteps = 0; // the test's own replays, on this thread
    const auto replayHash = [&](std::uint64_t f) {
        const std::uint64_t before = Simulation::stepsOnThisThread();
        const std::uint64_t hash = replay(doc->scene(), doc->take(), f).stateHash();
        ownSteps += Simulation::stepsOnThisThread() - before;
        return hash;
    };
    const std::uint64_t guiSteps = Simulation::stepsOnThisThread();

    // Undo the parameter change: back to frame 60 without it, simulated by the worker.
    doc->undoStack()->undo();
    QVERIFY(doc->isBusy());
    QVERIFY(!undo->isEnabled());
    QCOMPARE(doc->playhead(), std::uint64_t(60));
    // An edit made meanwhile waits for the state and is recorded at frame 60.
    QVERIFY(doc->setKind(0, { 57 }, true).isEmpty());
    QTRY_VERIFY_WITH_TIMEOUT(settled(doc), 30000);
    QCOMPARE(doc->frame(), std::uint64_t(60));
    QCOMPARE(doc->take().events.size(), std::size_t(2));
    QCOMPARE(doc->take().events[0], both.events[0]);
    QVERIFY(std::holds_alternative<PinEvent>(doc->take().events[1].data));
    QCOMPARE(doc->take().events[1].frame, std::uint64_t(60));
    QCOMPARE(doc->simulation().stateHash(), replayHash(60));
    QVERIFY(undo->isEnabled());

    // Undo the pin made while waiting (at the playhead: its events only), then the first pin
    // from frame 100, and redo it, from frame 20: each of the last two simulates frames.
    doc->undoStack()->undo();
    QTRY_VERIFY_WITH_TIMEOUT(settled(doc), 30000);
    QCOMPARE(doc->take().events.size(), std::size_t(1));
    controller->seekTo(100, true);
    QTRY_VERIFY_WITH_TIMEOUT(settled(doc), 30000);
    doc->undoStack()->undo();
    QVERIFY(doc->isBusy());
    QTRY_VERIFY_WITH_TIMEOUT(settled(doc), 30000);
    QCOMPARE(doc->frame(), std::uint64_t(40));
    QVERIFY(doc->take().events.empty());
    QCOMPARE(doc->simulation().stateHash(), replayHash(40));
    controller->seekTo(20, true);
    QTRY_VERIFY_WITH_TIMEOUT(settled(doc), 30000);
    doc->undoStack()->redo();
    QTRY_VERIFY_WITH_TIMEOUT(settled(doc), 30000);
    QCOMPARE(doc->frame(), std::uint64_t(40));
    QCOMPARE(doc->take().events.size(), std::size_t(1));
    QCOMPARE(doc->take().events[0], both.events[0]);
    QCOMPARE(doc->simulation().stateHash(), replayHash(40));

    // Two steps at once from frame 130: the move goes on to the second while the first's
    // state is on its way, and ends where two single undos end.
    controller->seekTo(130, true);
    QTRY_VERIFY_WITH_TIMEOUT(settled(doc), 30000);
    doc->undoStack()->redo(); // the pin at 60 made while waiting
    QTRY_VERIFY_WITH_TIMEOUT(settled(doc), 30000);
    QCOMPARE(doc->take().events.size(), std::size_t(2));
    controller->seekTo(130, true);
    QTRY_VERIFY_WITH_TIMEOUT(settled(doc), 30000);
    doc->undoStack()->setIndex(steps);
    QTRY_VERIFY_WITH_TIMEOUT(settled(doc), 30000);
    QCOMPARE(doc->undoStack()->index(), steps);
    QVERIFY(doc->take().events.empty());
    QCOMPARE(doc->frame(), std::uint64_t(40));
    QCOMPARE(doc->simulation().stateHash(), replayHash(40));
    QCOMPARE(Simulation::stepsOnThisThread() - ownSteps, guiSteps);
}

void TestPlayback::cancelledDragReturnsThroughTheWorker()
{
    // Escape during a drag held while playing puts everything back as before the press: the
    // frame the drag began at, prepared by the worker, with nothing recorded.
    MainWindow window;
    playPastFrame20(window);
    if (QTest::currentTestFailed())
        return;
    Document *doc = window.document();
    SimulationController *controller = window.controller();
    const std::uint64_t guiSteps = Simulation::stepsOnThisThread();
    const Vec3 grabbed = window.viewport()->shownSimulation().cloths[0].particles.position[60];
    QVERIFY(doc->beginDrag(0, { 60 }, grabbed).isEmpty());
    QTRY_VERIFY(doc->dragging());
    const quint64 at = doc->frame();
    const int steps = doc->undoStack()->count();
    doc->dragTo(grabbed + Vec3 { 0.f, 0.1f, 0.f });
    QTRY_VERIFY_WITH_TIMEOUT(doc->frame() >= at + 6, 10000);
    // What the document holds when the state the cancel returns to arrives (playback goes on
    // from there at once).
    bool prepared = false; // the worker was asked for the state at the drag's first frame
    bool arrived = false;
    std::uint64_t arrivedFrame = 0, arrivedHash = 0, arrivedSteps = 0;
    bool arrivedEmpty = false, arrivedDragging = true;
    connect(doc, &Document::preparingChanged, this, [&](bool preparing, quint64 frame) {
        prepared = prepared || (preparing && frame == at);
        if (preparing || frame != at || arrived)
            return;
        arrived = true;
        arrivedFrame = doc->frame();
        arrivedHash = doc->simulation().stateHash();
        arrivedEmpty = doc->take().empty();
        arrivedDragging = doc->dragging();
        arrivedSteps = Simulation::stepsOnThisThread();
    });
    doc->cancelDrag();
    QTRY_VERIFY_WITH_TIMEOUT(arrived, 30000);
    controller->setPlaying(false);
    QVERIFY(prepared);
    QCOMPARE(arrivedFrame, at);
    QVERIFY(arrivedEmpty);
    QVERIFY(!arrivedDragging);
    QCOMPARE(arrivedSteps, guiSteps); // nothing stepped on this thread
    QCOMPARE(doc->undoStack()->count(), steps);
    QCOMPARE(arrivedHash, replay(doc->scene(), Take {}, at).stateHash());
}

void TestPlayback::heldDragKeepsThePlayheadAndStaysExact()
{
    // A Step while a drag is held (paused) is stepped by the worker; playhead keys meanwhile,
    // one landing on the frame being stepped to and one past it, leave the playhead to the
    // drag. The state stays the replay of the take (the drag still open), and what comes after
    // the release runs.
    MainWindow window;
    showWindow(window);
    fillRange(window, 0, 150);
    Document *doc = window.document();
    SimulationController *controller = window.controller();
    controller->seekTo(20, true);
    QTRY_VERIFY_WITH_TIMEOUT(settled(doc), 30000);
    const Vec3 grabbed = doc->simulation().cloths[0].particles.position[60];
    QVERIFY(doc->beginDrag(0, { 60 }, grabbed).isEmpty());
    doc->dragTo(grabbed + Vec3 { 0.f, 0.3f, 0.f });
    const std::uint64_t f = doc->frame();
    QCOMPARE(doc->step(4), 4);
    QVERIFY(doc->isStepping());
    doc->showFrame(f + 4);
    controller->seekTo(f + 30, true);
    QTRY_VERIFY_WITH_TIMEOUT(!doc->isStepping(), 30000);
    QCOMPARE(doc->frame(), f + 4);
    QCOMPARE(doc->playhead(), f + 4);
    QVERIFY(doc->isSettled());
    QVERIFY(doc->dragging());
    QCOMPARE(doc->simulation().stateHash(), replay(doc->scene(), doc->take(), doc->frame()).stateHash());
    doc->endDrag(QStringLiteral("Drag"));
    QTRY_VERIFY_WITH_TIMEOUT(settled(doc) && !doc->dragging(), 30000);
    const auto *drag = std::get_if<DragEvent>(&doc->take().events.front().data);
    QVERIFY(drag);
    QCOMPARE(drag->targets.size(), std::size_t(5));
    QVERIFY(doc->setKind(0, { 57 }, true).isEmpty());
    QTRY_VERIFY_WITH_TIMEOUT(settled(doc), 30000);
    QCOMPARE(doc->take().events.size(), std::size_t(2));
    QCOMPARE(doc->simulation().stateHash(), replay(doc->scene(), doc->take(), doc->frame()).stateHash());
}

void TestPlayback::busyEndsWhenAnUndoArrives()
{
    // An undo the worker simulates makes the document busy (Undo disabled, a busy cursor) until
    // it arrives, and no longer: the busy signal ends, Undo comes back.
    MainWindow window;
    showWindow(window);
    fillRange(window, 0, 150);
    Document *doc = window.document();
    SimulationController *controller = window.controller();
    QAction *undo = window.editActions()->undoAction();
    controller->seekTo(40, true);
    QTRY_VERIFY_WITH_TIMEOUT(settled(doc), 30000);
    QVERIFY(doc->setKind(0, { 55 }, true).isEmpty());
    QVERIFY(doc->setKind(0, { 57 }, true).isEmpty());
    controller->seekTo(120, true);
    QTRY_VERIFY_WITH_TIMEOUT(settled(doc), 30000);
    QSignalSpy busy(doc, &Document::busyChanged);
    doc->undoStack()->undo(); // back to frame 40: the worker simulates it
    QCOMPARE(busy.size(), 1);
    QCOMPARE(busy.last().at(0).toBool(), true);
    QVERIFY(!undo->isEnabled());
    QTRY_VERIFY_WITH_TIMEOUT(settled(doc), 30000);
    QCOMPARE(doc->frame(), std::uint64_t(40));
    QCOMPARE(busy.size(), 2);
    QCOMPARE(busy.last().at(0).toBool(), false);
    QVERIFY(undo->isEnabled());
    QVERIFY(window.viewport()->cursor().shape() != Qt::BusyCursor);
}

QTEST_MAIN(TestPlayback)
#include "tst_playback.moc"
