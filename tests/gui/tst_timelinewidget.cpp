// The timeline under the viewport: the ruler's geometry, scrubbing, keys, the cache shading,
// event markers (hover, click, delete), and real-time playback over the cache.
#include "scene/presets.h"
#include "scene/scene.h"
#include "timeline/timelineplayer.h"
#include "timeline/timelinewidget.h"

#include <QMenu>
#include <QSignalSpy>
#include <QtTest>

using namespace drape;

class TestTimelineWidget : public QObject {
    Q_OBJECT
private slots:
    void frameAndPixelAgree();
    void dragScrubsThroughFrames();
    void keysStepFramesAndSeconds();
    void cachedAndStaleRangesAreShaded();
    void markersJumpAndOfferDelete();
    void playsInRealTimeOverTheCache();
    void playsBackwardsAndLoops();
    void waitsForTheSolverInsteadOfSlowMotion();
};

namespace {

std::unique_ptr<TimelineWidget> makeWidget()
{
    auto w = std::make_unique<TimelineWidget>();
    w->resize(516, 44); // 500 px of ruler: 2 frames per pixel over 0..998
    w->setSpan(0, 998);
    w->setPlaybackRange(0, 998);
    w->show();
    if (!QTest::qWaitForWindowExposed(w.get()))
        qFatal("timeline widget not exposed");
    return w;
}

std::unique_ptr<Timeline> smallTimeline()
{
    const SceneLoadResult loaded = loadPreset("threejs-cloth");
    return std::make_unique<Timeline>(std::make_shared<PlainSource>(buildSimulation(*loaded.scene)));
}

} // namespace

void TestTimelineWidget::frameAndPixelAgree()
{
    auto w = makeWidget();
    QCOMPARE(w->frameAt(w->xOf(0)), quint64(0));
    QCOMPARE(w->frameAt(w->xOf(998)), quint64(998));
    for (quint64 f : { 2, 100, 500, 730 })
        QCOMPARE(w->frameAt(w->xOf(f)), f);
    QVERIFY(w->xOf(500) > w->xOf(100));
    // Outside the widget clamps to the ends.
    QCOMPARE(w->frameAt(-50), quint64(0));
    QCOMPARE(w->frameAt(5000), quint64(998));
}

void TestTimelineWidget::dragScrubsThroughFrames()
{
    auto w = makeWidget();
    QSignalSpy requested(w.get(), &TimelineWidget::playheadRequested);
    QSignalSpy scrubbing(w.get(), &TimelineWidget::scrubbingChanged);
    const int y = 25;
    QTest::mousePress(w.get(), Qt::LeftButton, {}, { w->xOf(100), y });
    QTest::mouseMove(w.get(), { w->xOf(300), y });
    QTest::mouseMove(w.get(), { w->xOf(600), y });
    QTest::mouseRelease(w.get(), Qt::LeftButton, {}, { w->xOf(600), y });
    QCOMPARE(scrubbing.count(), 2);
    QCOMPARE(scrubbing.at(0).at(0).toBool(), true);
    QCOMPARE(scrubbing.at(1).at(0).toBool(), false);
    QList<quint64> frames;
    for (const auto &args : requested)
        frames << args.at(0).value<quint64>();
    QCOMPARE(frames, (QList<quint64> { 100, 300, 600 }));
}

void TestTimelineWidget::keysStepFramesAndSeconds()
{
    auto w = makeWidget();
    w->setFrameRate(60.0);
    w->setPlaybackRange(20, 400);
    w->setPlayhead(100);
    w->setFocus();
    QSignalSpy requested(w.get(), &TimelineWidget::playheadRequested);
    auto last = [&] { return requested.takeLast().at(0).value<quint64>(); };
    QTest::keyClick(w.get(), Qt::Key_Right);
    QCOMPARE(last(), quint64(101));
    QTest::keyClick(w.get(), Qt::Key_Left);
    QCOMPARE(last(), quint64(99));
    QTest::keyClick(w.get(), Qt::Key_Right, Qt::ShiftModifier);
    QCOMPARE(last(), quint64(160));
    QTest::keyClick(w.get(), Qt::Key_Left, Qt::ShiftModifier);
    QCOMPARE(last(), quint64(40));
    QTest::keyClick(w.get(), Qt::Key_Home);
    QCOMPARE(last(), quint64(20));
    QTest::keyClick(w.get(), Qt::Key_End);
    QCOMPARE(last(), quint64(400));
    w->setPlayhead(10);
    QTest::keyClick(w.get(), Qt::Key_Left, Qt::ShiftModifier);
    QCOMPARE(last(), quint64(0)); // clamped to the first frame
}

void TestTimelineWidget::cachedAndStaleRangesAreShaded()
{
    auto w = makeWidget();
    w->setPlayhead(900);
    w->setCache({ { 0, 300 } }, { 300, 500 });
    const QImage image = w->grab().toImage();
    const int y = image.height() - 2; // the cache bar along the bottom
    QCOMPARE(image.pixelColor(w->xOf(150), y), TimelineWidget::cachedColor());
    QCOMPARE(image.pixelColor(w->xOf(400), y), TimelineWidget::staleColor());
    const QColor beyond = image.pixelColor(w->xOf(700), y);
    QVERIFY(beyond != TimelineWidget::cachedColor() && beyond != TimelineWidget::staleColor());
}

void TestTimelineWidget::markersJumpAndOfferDelete()
{
    auto w = makeWidget();
    w->setMarkers({ { 120, "Drag, 4 particles" }, { 640, "Cut, 12 constraints" } });
    QCOMPARE(w->markerAt({ w->xOf(640), 3 }), 1);
    QCOMPARE(w->markerAt({ w->xOf(640), 30 }), -1); // below the marker strip
    QCOMPARE(w->markerAt({ w->xOf(400), 3 }), -1);

    QSignalSpy activated(w.get(), &TimelineWidget::markerActivated);
    QSignalSpy requested(w.get(), &TimelineWidget::playheadRequested);
    QTest::mouseClick(w.get(), Qt::LeftButton, {}, { w->xOf(640), 3 });
    QCOMPARE(activated.count(), 1);
    QCOMPARE(activated.at(0).at(0).toInt(), 1);
    QCOMPARE(requested.takeLast().at(0).value<quint64>(), quint64(640));

    // The marker's menu deletes the event (the owner makes it an undoable edit).
    QSignalSpy deleted(w.get(), &TimelineWidget::markerDeleteRequested);
    std::unique_ptr<QMenu> menu(w->markerMenu(0));
    QAction *remove = nullptr;
    for (QAction *a : menu->actions())
        if (a->text().startsWith("Delete event"))
            remove = a;
    QVERIFY(remove);
    QVERIFY(remove->text().contains("Drag, 4 particles"));
    remove->trigger();
    QCOMPARE(deleted.count(), 1);
    QCOMPARE(deleted.at(0).at(0).toInt(), 0);
}

void TestTimelineWidget::playsInRealTimeOverTheCache()
{
    auto timeline = smallTimeline();
    timeline->frame(120);
    TimelinePlayer player(timeline.get());
    player.setFrameRate(60.0);
    player.setRange(0, 120);
    QSignalSpy shown(&player, &TimelinePlayer::frameShown);
    player.play(1);
    // A quarter of a second of wall time is 15 frames at 60 Hz; a whole second measures the
    // real-time factor.
    player.advanceWall(0.25);
    QCOMPARE(player.playhead(), quint64(15));
    QCOMPARE(shown.count(), 15);
    QCOMPARE(shown.last().at(0).value<std::shared_ptr<const CachedFrame>>()->frame, quint64(15));
    for (int i = 0; i < 3; ++i)
        player.advanceWall(0.25);
    QCOMPARE(player.playhead(), quint64(60));
    QCOMPARE(player.realTimeFactor(), 1.0);
    QVERIFY(!player.waiting());
    // At the end without loop, playback stops there.
    player.advanceWall(2.0);
    QCOMPARE(player.playhead(), quint64(120));
    QVERIFY(!player.isPlaying());
}

void TestTimelineWidget::playsBackwardsAndLoops()
{
    auto timeline = smallTimeline();
    timeline->frame(60);
    TimelinePlayer player(timeline.get());
    player.setFrameRate(60.0);
    player.setRange(10, 60);
    player.seek(40);
    player.play(-1);
    player.advanceWall(0.25);
    QCOMPARE(player.playhead(), quint64(25));
    QCOMPARE(player.direction(), -1);
    // Backwards past the start wraps to the end with loop on.
    player.setLoop(true);
    player.advanceWall(0.5); // 30 frames: 25 -> 10 (15), wrap to 60 (1), 60 -> 46 (14)
    QCOMPARE(player.playhead(), quint64(46));
    // Backwards stops where the cache ends: with a budget of a few frames and the playhead
    // at 60, the frames far from it are dropped.
    player.pause();
    player.setLoop(false);
    player.seek(60);
    // Room for the start snapshot (the others are thinned) and about 20 frames.
    CacheSettings small = timeline->settings();
    const std::size_t start = timeline->stateAt(0)->memoryBytes();
    small.budgetBytes = 2 * start + 20 * timeline->cachedFrame(60)->ownBytes();
    timeline->setSettings(small);
    const TimelineStatus after = timeline->status();
    QCOMPARE(after.cached.size(), std::size_t(1));
    QCOMPARE(after.cached.front().end, quint64(61));
    QVERIFY2(after.cached.front().begin > 10, qPrintable(QString::number(after.cached.front().begin)));
    player.play(-1);
    player.advanceWall(1.0);
    QCOMPARE(player.playhead(), after.cached.front().begin);
    QVERIFY(!player.isPlaying());
}

void TestTimelineWidget::waitsForTheSolverInsteadOfSlowMotion()
{
    auto timeline = smallTimeline();
    timeline->frame(10);
    TimelinePlayer player(timeline.get());
    player.setFrameRate(60.0);
    player.setRange(0, 200);
    QSignalSpy waiting(&player, &TimelinePlayer::waitingChanged);
    player.play(1);
    // Without the worker the cache ends at frame 10: the playhead waits there.
    player.advanceWall(1.0);
    QCOMPARE(player.playhead(), quint64(10));
    QVERIFY(player.waiting());
    QCOMPARE(waiting.count(), 1);
    QCOMPARE(player.realTimeFactor(), 10.0 / 60.0);
    // The worker fills ahead of the playhead; playback resumes.
    timeline->startWorker();
    timeline->waitIdle();
    player.advanceWall(0.5);
    QCOMPARE(player.playhead(), quint64(40));
    QVERIFY(!player.waiting());
    timeline->stopWorker();
}

QTEST_MAIN(TestTimelineWidget)
#include "tst_timelinewidget.moc"
