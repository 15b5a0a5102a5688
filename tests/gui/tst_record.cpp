// The editor's recorder: exact frame times (frame k at k / fps), every format written through
// the Recorder with exactly the requested frames, size and rate (ffprobe, independent of
// Drape's code), frames that change over time, Cancel leaving no video and no temporary
// file, a missing ffmpeg reported while PNG still works, the editor's PNG frames equal to
// `drape render`'s for the same scene (run with no display), F12 screenshots, and undoable
// settings in the Record dock.
#include "document/document.h"
#include "document/simulationcontroller.h"
#include "document/presetcatalog.h"
#include "edit/cut.h"
#include "record/ffmpegencoder.h"
#include "record/framerenderer.h"
#include "record/objsequencewriter.h"
#include "record/pngsequencewriter.h"
#include "record/recorder.h"
#include "record/recordplan.h"
#include "record/recordsession.h"
#include "docks/recorddock.h"
#include "render/resources.h"
#include "scene/scenefile.h"
#include "render/screenshot.h"
#include "render/viewport.h"

#include "../ffprobe.h"
#include "../sanitizers.h"

#include <QApplication>
#include <QDir>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSignalSpy>
#include <QComboBox>
#include <QSpinBox>
#include <QStandardPaths>
#include <QSurfaceFormat>
#include <QTemporaryDir>
#include <QRegularExpression>
#include <QTest>

#include <functional>

#include <cmath>
#include <memory>

using namespace drape;

namespace {

// Changes the recording or view settings of the document (an undoable presentation edit).
void changeScene(Document *doc, const std::function<void(Scene &)> &change)
{
    Scene next = doc->scene();
    change(next);
    const QString error = doc->setPresentation(next, QStringLiteral("Test edit"), {}, Change::Record | Change::View);
    QVERIFY2(error.isEmpty(), qPrintable(error));
}

} // namespace

namespace {

std::unique_ptr<Document> flagDocument(RecordFormat format, int frames = 30)
{
    QString error;
    std::optional<Scene> scene = loadPreset(QStringLiteral("flag"), &error);
    if (!scene)
        return nullptr;
    scene->record.format = format;
    scene->record.fps = 30;
    scene->record.width = 160;
    scene->record.height = 120;
    scene->record.frames = frames;
    scene->record.overlays = false;
    return std::make_unique<Document>(std::move(*scene));
}

/// MD5 of each decoded frame (ffmpeg's framemd5 muxer), to see that frames change.
QStringList frameHashes(const QString &path)
{
    QProcess p;
    p.start(QStringLiteral("ffmpeg"), {QStringLiteral("-v"), QStringLiteral("error"), QStringLiteral("-i"), path,
                                       QStringLiteral("-f"), QStringLiteral("framemd5"), QStringLiteral("-")});
    p.waitForFinished(60000);
    QStringList hashes;
    for (const QByteArray &line : p.readAllStandardOutput().split('\n')) {
        if (!line.isEmpty() && !line.startsWith('#'))
            hashes << QString::fromLatin1(line.split(',').last().trimmed());
    }
    return hashes;
}

bool haveFfmpeg()
{
    return !FfmpegEncoder::findFfmpeg().isEmpty() && !QStandardPaths::findExecutable(QStringLiteral("ffprobe")).isEmpty();
}

QStringList filesIn(const QString &folder)
{
    return QDir(folder).entryList(QDir::Files | QDir::Hidden, QDir::Name);
}

struct Difference {
    int maxAbs = 0;           ///< largest channel difference, 0..255
    double fractionDiffering = 0; ///< pixels with any channel differing

    void include(const Difference &d)
    {
        maxAbs = std::max(maxAbs, d.maxAbs);
        fractionDiffering = std::max(fractionDiffering, d.fractionDiffering);
    }
};

/// Same renderer, same offscreen target, same samples, same options and same llvmpipe: the
/// documented tolerance (docs/recording.md) is 2/255 per channel on at most 0.5% of pixels.
void checkTolerance(const char *what, const Difference &worst)
{
    qInfo("%s: max channel difference %d/255, at most %.4f%% of pixels differ", what, worst.maxAbs,
          worst.fractionDiffering * 100.0);
    QVERIFY(worst.maxAbs <= 2);
    QVERIFY(worst.fractionDiffering <= 0.005);
}

Difference compare(const QImage &a, const QImage &b)
{
    Difference d;
    const QImage x = a.convertToFormat(QImage::Format_RGBA8888), y = b.convertToFormat(QImage::Format_RGBA8888);
    qint64 differing = 0;
    for (int row = 0; row < x.height(); ++row) {
        const uchar *p = x.constScanLine(row), *q = y.constScanLine(row);
        for (int col = 0; col < x.width(); ++col) {
            int m = 0;
            for (int c = 0; c < 4; ++c)
                m = std::max(m, std::abs(int(p[col * 4 + c]) - int(q[col * 4 + c])));
            d.maxAbs = std::max(d.maxAbs, m);
            differing += m > 0;
        }
    }
    d.fractionDiffering = double(differing) / (double(x.width()) * x.height());
    return d;
}

/// Records a take on `doc`: a drag of a corner from frame 20 to 35, then a cut at 45; and
/// sets the recording range to frames 10 to 80 (36 frames at 30 fps of the 60 Hz scene).
void dragAndCut(Document *doc)
{
    doc->step(20);
    const Particles &p = doc->simulation().cloths[0].particles;
    const std::uint32_t corner = std::uint32_t(p.size() - 1);
    const Vec3 centre = p.position[corner];
    QVERIFY(doc->beginDrag(0, {corner}, centre).isEmpty());
    for (int i = 0; i < 15; ++i) {
        doc->dragTo(centre + Vec3{0.f, 0.03f, 0.04f} * float(i));
        doc->step(1);
    }
    doc->endDrag(QStringLiteral("Drag"));
    doc->step(10);
    const Cloth &cloth = doc->simulation().cloths[0];
    const std::vector<std::uint32_t> cut = constraintsNearSegment(
        cloth, cloth.particles.position[cloth.particles.size() / 2], cloth.particles.position[cloth.particles.size() / 2 + 6],
        0.03f);
    QVERIFY(!cut.empty());
    QVERIFY(doc->removeConstraints(0, cut, true, QStringLiteral("Cut")).isEmpty());
    QCOMPARE(doc->take().events.size(), std::size_t(2));
    changeScene(doc, [](Scene &s) {
        s.record.startFrame = 10;
        s.record.endFrame = 80;
    });
}

} // namespace

class TestRecord : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();
    void planRules();
    void framesAtExactTimes();
    void recordFormats_data();
    void recordFormats();
    void cancelLeavesNoVideo();
    void resetCancels();
    void recordWhilePlayingAndSettling();
    void tornRopeFromTheStartMatchesHeadlessRender();
    void missingFfmpeg();
    void matchesHeadlessRender();
    void takeMatchesHeadlessRender();
    void rangeFromThePlayheadEndsAtItsEnd();
    void recordsTheViewportsCachedFrames();
    void transparentPng();
    void sinkErrors();
    void screenshot();
    void dockEditsAreUndoable();

private:
    /// Records `document` into `output` and waits for the end; returns the final message.
    bool record(Document *document, const QString &output, QString *message, bool restart = true);
    /// Saves `doc` (scene and take, the viewport's camera), renders it with `drape render` and
    /// compares its PNG frames with the `frames` the editor wrote to `editorFrames`.
    void checkMatchesHeadless(Document *doc, const QString &editorFrames, QTemporaryDir &dir, int frames);

    std::unique_ptr<Viewport> m_viewport;
};

void TestRecord::initTestCase()
{
    initResources();
    m_viewport = std::make_unique<Viewport>();
    m_viewport->resize(320, 240);
    m_viewport->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_viewport.get()));
    QTRY_VERIFY(m_viewport->renderer()->isInitialized());
}

void TestRecord::cleanupTestCase()
{
    m_viewport->setDocument(nullptr);
    m_viewport.reset();
}

bool TestRecord::record(Document *document, const QString &output, QString *message, bool restart)
{
    m_viewport->setDocument(document);
    Recorder recorder;
    recorder.setViewport(m_viewport.get());
    QSignalSpy finished(&recorder, &Recorder::finished);
    if (!recorder.start(document, output, restart, message))
        return false;
    if (!finished.wait(180000)) {
        *message = QStringLiteral("the recording did not finish");
        return false;
    }
    *message = finished.first().at(1).toString();
    return finished.first().at(0).toBool();
}

void TestRecord::planRules()
{
    RecordSettings s;
    s.fps = 30;
    s.width = 321;
    s.height = 241;
    RecordPlan plan;
    QString error;
    // 60 Hz at 30 fps: two whole steps per frame, the rate unchanged, MP4 rounds sizes down.
    s.format = RecordFormat::Mp4;
    QVERIFY(makeRecordPlan(s, 60.0, {}, QStringLiteral("x.mp4"), &plan, &error));
    QCOMPARE(plan.stepsPerFrame, 2);
    QCOMPARE(plan.simFrameRate, 60.0);
    QCOMPARE(plan.frameSize, QSize(320, 240));
    // 60 Hz at 24 fps: 2.5 steps is not whole, so the simulation runs at 3 · 24 = 72 Hz.
    s.fps = 24;
    s.format = RecordFormat::PngSequence;
    QVERIFY(makeRecordPlan(s, 60.0, {}, QStringLiteral("dir"), &plan, &error));
    QCOMPARE(plan.stepsPerFrame, 3);
    QCOMPARE(plan.simFrameRate, 72.0);
    QCOMPARE(plan.frameSize, QSize(321, 241));
    // 30 Hz at 60 fps: one step per frame at 60 Hz (steps never get longer than the scene's).
    s.fps = 60;
    QVERIFY(makeRecordPlan(s, 30.0, {}, QStringLiteral("dir"), &plan, &error));
    QCOMPARE(plan.stepsPerFrame, 1);
    QCOMPARE(plan.simFrameRate, 60.0);
    // Width 0: the viewport's size.
    s.width = 0;
    QVERIFY(makeRecordPlan(s, 60.0, QSize(640, 480), QStringLiteral("dir"), &plan, &error));
    QCOMPARE(plan.frameSize, QSize(640, 480));
    s.fps = 0;
    QVERIFY(!makeRecordPlan(s, 60.0, QSize(640, 480), QStringLiteral("dir"), &plan, &error));
    QVERIFY2(error.contains(QStringLiteral("record.fps")), qPrintable(error));
    // A range of document frames sets the length: frames 10..80 at 30 fps of 60 Hz are 36.
    s.fps = 30;
    s.startFrame = 10;
    s.endFrame = 80;
    QVERIFY(makeRecordPlan(s, 60.0, QSize(640, 480), QStringLiteral("dir"), &plan, &error));
    QCOMPARE(plan.frames, 36);
    // At 24 fps an output frame is not whole frames of the scene: refused, by name.
    s.fps = 24;
    QVERIFY(!makeRecordPlan(s, 60.0, QSize(640, 480), QStringLiteral("dir"), &plan, &error));
    QVERIFY2(error.contains(QStringLiteral("record.startFrame")) || error.contains(QStringLiteral("record.endFrame")),
             qPrintable(error));
    // A start alone (no end) at such a rate is refused too: frame 10 of the scene at 60 Hz is
    // not a whole number of the 72 Hz steps. At 30 fps it is fine.
    s.endFrame = 0;
    QVERIFY(!makeRecordPlan(s, 60.0, QSize(640, 480), QStringLiteral("dir"), &plan, &error));
    QVERIFY2(error.contains(QStringLiteral("record.startFrame")) && error.contains(QStringLiteral("72 Hz")),
             qPrintable(error));
    s.fps = 30;
    QVERIFY(makeRecordPlan(s, 60.0, QSize(640, 480), QStringLiteral("dir"), &plan, &error));
    QCOMPARE(plan.stepsPerFrame, 2);
}

void TestRecord::framesAtExactTimes()
{
    // Frame k must show the simulation at t = k / fps for rates that do and do not divide.
    for (int fps : {30, 24, 25, 60}) {
        std::unique_ptr<Document> doc = flagDocument(RecordFormat::ObjSequence, 10);
        QVERIFY(doc);
        Simulation sim = doc->simulation(); // the session steps its own copy here
        const float sceneRate = sim.solver.frameRate;
        RecordSettings s = doc->scene().record;
        s.fps = fps;
        RecordPlan plan;
        QString error;
        QTemporaryDir dir;
        QVERIFY(makeRecordPlan(s, sceneRate, {}, dir.path(), &plan, &error));
        RecordSession session(plan, std::make_unique<ObjSequenceWriter>(dir.path()));
        QVERIFY2(session.open(&sim, &error), qPrintable(error));
        for (int k = 0; k < 10; ++k) {
            QVERIFY2(std::abs(sim.time() - double(k) / fps) < 1e-9,
                     qPrintable(QStringLiteral("fps %1 frame %2: t = %3").arg(fps).arg(k).arg(sim.time(), 0, 'g', 12)));
            QVERIFY2(session.addFrame({}, sim, &error), qPrintable(error));
        }
        QVERIFY(session.isComplete());
        QVERIFY2(session.finish(&sim, &error), qPrintable(error));
        QCOMPARE(sim.solver.frameRate, sceneRate); // restored
        QCOMPARE(filesIn(dir.path()).size(), 10);
    }
}

void TestRecord::recordFormats_data()
{
    QTest::addColumn<int>("format");
    QTest::addColumn<QString>("name");
    QTest::newRow("mp4") << int(RecordFormat::Mp4) << QStringLiteral("clip.mp4");
    QTest::newRow("webm") << int(RecordFormat::WebM) << QStringLiteral("clip.webm");
    QTest::newRow("gif") << int(RecordFormat::Gif) << QStringLiteral("clip.gif");
    QTest::newRow("png") << int(RecordFormat::PngSequence) << QStringLiteral("frames");
}

void TestRecord::recordFormats()
{
    QFETCH(int, format);
    QFETCH(QString, name);
    const auto f = RecordFormat(format);
    if (FfmpegEncoder::isVideoFormat(f) && !haveFfmpeg())
        QSKIP("ffmpeg / ffprobe are not installed");
    std::unique_ptr<Document> doc = flagDocument(f);
    QVERIFY(doc);
    QTemporaryDir dir;
    const QString out = dir.filePath(name);
    QString message;
    QVERIFY2(record(doc.get(), out, &message), qPrintable(message));
    QVERIFY2(message.contains(QStringLiteral("30 frames")), qPrintable(message));

    if (f == RecordFormat::PngSequence) {
        const QStringList files = filesIn(out);
        QCOMPARE(files.size(), 30);
        QImage first(QDir(out).filePath(files.first())), middle(QDir(out).filePath(files.at(15))),
            last(QDir(out).filePath(files.last()));
        QCOMPARE(first.size(), QSize(160, 120));
        QCOMPARE(last.size(), QSize(160, 120));
        QVERIFY(compare(first, middle).maxAbs > 0);
        QVERIFY(compare(middle, last).maxAbs > 0);
        return;
    }
    const Probe probe = ffprobe(out);
    QCOMPARE(probe.frames, 30);
    QCOMPARE(probe.width, 160);
    QCOMPARE(probe.height, 120);
    if (f == RecordFormat::Gif) // centisecond delays: only the total length is exact
        QVERIFY2(std::abs(probe.duration - 1.0) < 0.05, qPrintable(QString::number(probe.duration)));
    else
        QCOMPARE(probe.rate, QStringLiteral("30/1"));
    const QStringList hashes = frameHashes(out);
    QCOMPARE(hashes.size(), 30);
    QVERIFY(hashes.first() != hashes.at(15));
    QVERIFY(hashes.at(15) != hashes.last());
    QCOMPARE(filesIn(dir.path()), QStringList{name}); // no temporary file left
}

void TestRecord::cancelLeavesNoVideo()
{
    if (!haveFfmpeg())
        QSKIP("ffmpeg is not installed");
    std::unique_ptr<Document> doc = flagDocument(RecordFormat::Mp4, 1000);
    QVERIFY(doc);
    m_viewport->setDocument(doc.get());
    QTemporaryDir dir;
    Recorder recorder;
    recorder.setViewport(m_viewport.get());
    QSignalSpy finished(&recorder, &Recorder::finished);
    QString error;
    QVERIFY2(recorder.start(doc.get(), dir.filePath(QStringLiteral("clip.mp4")), true, &error), qPrintable(error));
    QTRY_VERIFY_WITH_TIMEOUT(recorder.framesDone() >= 5, 60000);
    QVERIFY(!filesIn(dir.path()).isEmpty()); // the temporary file exists while recording
    recorder.cancel();
    QCOMPARE(finished.size(), 1);
    QCOMPARE(finished.first().at(0).toBool(), false);
    QVERIFY2(finished.first().at(1).toString().contains(QStringLiteral("No video file was left behind")),
             qPrintable(finished.first().at(1).toString()));
    QCOMPARE(filesIn(dir.path()), QStringList());
    QVERIFY(!recorder.isRecording());
}

void TestRecord::resetCancels()
{
    std::unique_ptr<Document> doc = flagDocument(RecordFormat::PngSequence, 1000);
    QVERIFY(doc);
    m_viewport->setDocument(doc.get());
    QTemporaryDir dir;
    Recorder recorder;
    recorder.setViewport(m_viewport.get());
    QSignalSpy finished(&recorder, &Recorder::finished);
    QString error;
    QVERIFY2(recorder.start(doc.get(), dir.path(), true, &error), qPrintable(error));
    QTRY_VERIFY_WITH_TIMEOUT(recorder.framesDone() >= 3, 60000);
    doc->reset(); // frames would jump back in time
    QCOMPARE(finished.size(), 1);
    QCOMPARE(finished.first().at(0).toBool(), false);
    const QString message = finished.first().at(1).toString();
    QVERIFY2(message.contains(QStringLiteral("reset")) && message.contains(QStringLiteral("stay in")), qPrintable(message));
    // The message says how many PNGs were written before the cancel (a cancel drops the
    // frames still queued for the writer thread), and exactly those stay on disk.
    const QRegularExpressionMatch written = QRegularExpression(QStringLiteral("The (\\d+) files written")).match(message);
    QVERIFY2(written.hasMatch(), qPrintable(message));
    QCOMPARE(int(filesIn(dir.path()).size()), written.captured(1).toInt());
}

// Pressing Record while playing pauses, and the document settles on the frame under the
// playhead (its state changes frame); a settle asked for in the middle, or the state moved to
// another frame, does the same. None changes the cached frames recorded, so the recording
// goes on to the end.
void TestRecord::recordWhilePlayingAndSettling()
{
    const int frames = testing::kSanitizedBuild ? 10 : 24;
    std::unique_ptr<Document> doc = flagDocument(RecordFormat::PngSequence, frames);
    QVERIFY(doc);
    m_viewport->setDocument(doc.get());
    SimulationController controller;
    controller.setDocument(doc.get());
    controller.setPlaying(true);
    QTRY_VERIFY_WITH_TIMEOUT(doc->playhead() >= 6, 60000);
    QVERIFY(controller.isPlaying());
    QSignalSpy stateMoved(doc.get(), &Document::simulationReset);

    QTemporaryDir dir;
    Recorder recorder;
    recorder.setViewport(m_viewport.get());
    recorder.setController(&controller);
    QSignalSpy finished(&recorder, &Recorder::finished);
    QString error;
    QVERIFY2(recorder.start(doc.get(), dir.path(), true, &error), qPrintable(error));
    QVERIFY(!controller.isPlaying());
    QTRY_VERIFY_WITH_TIMEOUT(recorder.framesDone() >= 3 || !finished.isEmpty(), 60000);
    doc->settle(); // on the frame the recorder shows, if it lands before the recorder moves on
    // The state moving for certain, as a settle that lands between two frames does.
    const std::uint64_t moveTo = doc->frame() + 30;
    doc->seek(moveTo);
    QCOMPARE(doc->frame(), moveTo);
    if (finished.isEmpty())
        QVERIFY(finished.wait(180000));
    QCOMPARE(finished.size(), 1);
    QVERIFY2(finished.first().at(0).toBool(), qPrintable(finished.first().at(1).toString()));
    QCOMPARE(int(filesIn(dir.path()).size()), frames);
    QVERIFY(!stateMoved.isEmpty()); // the state did settle meanwhile
    QTRY_VERIFY_WITH_TIMEOUT(controller.isPlaying(), 10000); // playing again, as before
    controller.setPlaying(false);
}

// A rope cut by the take at frame 20, recorded over frames 10 to 50 from a document left at
// frame 0: the frames after the cut cannot be laid over the state at frame 0 (the rope is
// drawn by its constraints, which a cached frame does not hold), so they are drawn from the
// state at that frame, and the rope shows as `drape render` draws it.
void TestRecord::tornRopeFromTheStartMatchesHeadlessRender()
{
    QString error;
    std::optional<Scene> scene = loadPreset(QStringLiteral("flag"), &error);
    QVERIFY2(scene, qPrintable(error));
    scene->record.format = RecordFormat::PngSequence;
    scene->record.fps = 30;
    scene->record.width = 160;
    scene->record.height = 120;
    scene->record.overlays = false;
    scene->record.startFrame = 10;
    scene->record.endFrame = 50;
    ClothDesc rope;
    rope.name = "rope";
    rope.source = ClothSource::Rope;
    rope.rope.count = 16;
    rope.rope.length = 0.9f;
    rope.rope.start = {-0.3f, 2.4f, 0.2f};
    rope.pins = {0};
    scene->cloths.push_back(rope);
    auto doc = std::make_unique<Document>(std::move(*scene));
    doc->step(20);
    const Cloth &cloth = doc->simulation().cloths[1];
    QVERIFY(cloth.triangles.empty());
    std::vector<std::uint32_t> cut;
    for (std::size_t i = 0; i < cloth.constraints.size(); ++i) {
        const DistanceConstraint &c = cloth.constraints[i];
        if (std::min(c.a, c.b) <= 7 && std::max(c.a, c.b) >= 8)
            cut.push_back(std::uint32_t(i));
    }
    QVERIFY(!cut.empty());
    QVERIFY(doc->removeConstraints(1, cut, true, QStringLiteral("Cut")).isEmpty());
    QCOMPARE(doc->take().events.size(), std::size_t(1));
    doc->seek(0);
    QCOMPARE(doc->frame(), std::uint64_t(0));

    QTemporaryDir dir;
    const QString editorFrames = dir.filePath(QStringLiteral("editor"));
    QString message;
    QVERIFY2(record(doc.get(), editorFrames, &message), qPrintable(message));
    checkMatchesHeadless(doc.get(), editorFrames, dir, 21);
}

void TestRecord::missingFfmpeg()
{
    const QByteArray savedPath = qgetenv("PATH");
    QTemporaryDir dir;
    const QString emptyBin = dir.filePath(QStringLiteral("bin"));
    QVERIFY(QDir().mkpath(emptyBin));
    qputenv("PATH", QFile::encodeName(emptyBin));
    std::unique_ptr<Document> doc = flagDocument(RecordFormat::Mp4, 5);
    QString message;
    const bool videoOk = record(doc.get(), dir.filePath(QStringLiteral("clip.mp4")), &message);
    RecordDock dock;
    dock.setDocument(doc.get());
    const bool dockHasFfmpeg = dock.hasFfmpeg();
    changeScene(doc.get(), [](Scene &s) { s.record.format = RecordFormat::PngSequence; });
    QString pngMessage;
    const bool pngOk = record(doc.get(), dir.filePath(QStringLiteral("frames")), &pngMessage);
    qputenv("PATH", savedPath);

    QVERIFY(!videoOk);
    QVERIFY2(message.contains(QStringLiteral("ffmpeg was not found")), qPrintable(message));
    QVERIFY(!QFileInfo::exists(dir.filePath(QStringLiteral("clip.mp4"))));
    QVERIFY(!dockHasFfmpeg);
    QVERIFY2(pngOk, qPrintable(pngMessage));
    QCOMPARE(filesIn(dir.filePath(QStringLiteral("frames"))).size(), 5);
}

void TestRecord::matchesHeadlessRender()
{
    std::unique_ptr<Document> doc = flagDocument(RecordFormat::PngSequence);
    QVERIFY(doc);
    QTemporaryDir dir;
    const QString editorFrames = dir.filePath(QStringLiteral("editor"));
    QString message;
    QVERIFY2(record(doc.get(), editorFrames, &message), qPrintable(message));

    checkMatchesHeadless(doc.get(), editorFrames, dir, 30);
}

// A take with a drag and a cut, recorded over a frame range from the start of the range: the
// editor's frames equal drape render's of the scene saved with the take.
void TestRecord::takeMatchesHeadlessRender()
{
    std::unique_ptr<Document> doc = flagDocument(RecordFormat::PngSequence);
    QVERIFY(doc);
    dragAndCut(doc.get());

    QTemporaryDir dir;
    const QString editorFrames = dir.filePath(QStringLiteral("editor"));
    QString message;
    const std::uint64_t frameBefore = doc->frame();
    QVERIFY2(record(doc.get(), editorFrames, &message), qPrintable(message));
    QCOMPARE(doc->playhead(), std::uint64_t(80)); // the playhead shows the last frame recorded
    QCOMPARE(doc->frame(), frameBefore);           // the document's state did not move
    checkMatchesHeadless(doc.get(), editorFrames, dir, 36);
}

void TestRecord::rangeFromThePlayheadEndsAtItsEnd()
{
    // Recording without a restart starts at the playhead; a range with an end still ends
    // there: frames 20 to 40 of a 60 Hz scene at 30 fps are 11 frames.
    std::unique_ptr<Document> doc = flagDocument(RecordFormat::PngSequence);
    QVERIFY(doc);
    changeScene(doc.get(), [](Scene &s) {
        s.record.startFrame = 10;
        s.record.endFrame = 40;
    });
    doc->step(20);
    QTemporaryDir dir;
    QString message;
    QVERIFY2(record(doc.get(), dir.filePath(QStringLiteral("from20")), &message, false), qPrintable(message));
    QCOMPARE(doc->playhead(), std::uint64_t(40));
    QCOMPARE(doc->frame(), std::uint64_t(20)); // the recording read the cache; the state stayed
    QCOMPARE(filesIn(dir.filePath(QStringLiteral("from20"))).size(), 11);
    // Past the end there is nothing to record from the playhead: refused, nothing written.
    doc->seek(45);
    QVERIFY(!record(doc.get(), dir.filePath(QStringLiteral("past")), &message, false));
    QVERIFY2(message.contains(QStringLiteral("past the end of the recording range")), qPrintable(message));
    QVERIFY(!QFileInfo::exists(dir.filePath(QStringLiteral("past"))));
}

// A range the timeline's worker has filled is recorded without a single solver step, the
// document's state stays where it was, and each recorded frame is what the viewport draws for
// that frame of the cache (its own view of the cached frame, through the recording path).
void TestRecord::recordsTheViewportsCachedFrames()
{
    std::unique_ptr<Document> doc = flagDocument(RecordFormat::PngSequence);
    QVERIFY(doc);
    dragAndCut(doc.get());
    Timeline &timeline = doc->timeline();
    timeline.setPlayhead(10);
    timeline.setEndFrame(80);
    timeline.startWorker();
    timeline.waitIdle();
    for (std::uint64_t f = 10; f <= 80; ++f)
        QVERIFY2(timeline.cachedFrame(f), qPrintable(QString::number(f)));
    const std::uint64_t simulatedBefore = timeline.simulatedFrames();
    const std::uint64_t frameBefore = doc->frame();
    const std::uint64_t hashBefore = doc->simulation().stateHash();

    QTemporaryDir dir;
    const QString frames = dir.filePath(QStringLiteral("frames"));
    QString message;
    QVERIFY2(record(doc.get(), frames, &message), qPrintable(message));
    QCOMPARE(timeline.simulatedFrames(), simulatedBefore); // no solver step, on any thread
    QCOMPARE(doc->frame(), frameBefore);
    QCOMPARE(doc->simulation().stateHash(), hashBefore);
    QCOMPARE(doc->playhead(), std::uint64_t(80));
    const QStringList files = filesIn(frames);
    QCOMPARE(files.size(), 36);

    // The viewport shows cached frame f (as playback does); its drawn state, rendered the
    // way a recording renders, is the recorded frame.
    RecordPlan plan;
    QString error;
    QVERIFY(makeRecordPlan(doc->scene().record, doc->settings().solver.frameRate, {}, frames, &plan, &error));
    RenderOptions options = recordRenderOptions(plan.settings);
    options.constraintKinds = m_viewport->constraintKinds();
    FrameRenderer renderer;
    Difference worst;
    for (int k : {0, 8, 12, 20, 35}) { // before, during and after the drag (20–35), after the cut (45)
        const std::uint64_t f = 10 + 2 * std::uint64_t(k);
        doc->showFrame(f);
        m_viewport->showCachedFrame(timeline.cachedFrame(f));
        QImage shown;
        m_viewport->makeCurrent();
        const bool rendered = renderer.render(*m_viewport->renderer(), doc->scene(), m_viewport->shownSimulation(),
                                              m_viewport->camera(), plan.frameSize, options, &shown, &error);
        renderer.release();
        m_viewport->doneCurrent();
        QVERIFY2(rendered, qPrintable(error));
        worst.include(compare(shown, QImage(QDir(frames).filePath(files.at(k)))));
    }
    checkTolerance("recorded vs viewport", worst);
    // The drag and the cut are in the range: the frames are not all the same.
    QVERIFY(compare(QImage(QDir(frames).filePath(files.at(0))), QImage(QDir(frames).filePath(files.at(35)))).maxAbs > 0);
}

void TestRecord::checkMatchesHeadless(Document *doc, const QString &editorFrames, QTemporaryDir &dir, int frames)
{
    // The same scene, saved with the camera the editor used, rendered with no display.
    doc->setCameraQuietly(m_viewport->camera().desc());
    const QString scenePath = dir.filePath(QStringLiteral("scene.json"));
    std::string error;
    // The scene with its take (empty or not), as File ▸ Save writes it.
    const SaveOptions options{false, &doc->take()};
    QVERIFY2(saveSceneFile(QFile::encodeName(scenePath).toStdString(), doc->scene(), options, &error), error.c_str());
    const QString headlessFrames = dir.filePath(QStringLiteral("headless"));
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(QStringLiteral("DISPLAY"));
    env.remove(QStringLiteral("WAYLAND_DISPLAY"));
    env.remove(QStringLiteral("QT_QPA_PLATFORM"));
    p.setProcessEnvironment(env);
    p.start(QStringLiteral(DRAPE_EXECUTABLE), {QStringLiteral("render"), scenePath, QStringLiteral("-o"), headlessFrames,
                                              QStringLiteral("-q")});
    QVERIFY(p.waitForFinished(180000));
    QVERIFY2(p.exitCode() == 0, p.readAllStandardError().constData());

    const QStringList a = filesIn(editorFrames), b = filesIn(headlessFrames);
    QCOMPARE(a.size(), frames);
    QCOMPARE(b, a);
    Difference worst;
    for (const QString &name : a) {
        const QImage x(QDir(editorFrames).filePath(name)), y(QDir(headlessFrames).filePath(name));
        QCOMPARE(x.size(), y.size());
        worst.include(compare(x, y));
    }
    checkTolerance("editor vs drape render", worst);
}

void TestRecord::transparentPng()
{
    std::unique_ptr<Document> doc = flagDocument(RecordFormat::PngSequence, 2);
    QVERIFY(doc);
    changeScene(doc.get(), [](Scene &s) {
        s.record.transparent = true;
        s.view.showGround = false;
    });
    QTemporaryDir dir;
    QString message;
    QVERIFY2(record(doc.get(), dir.path(), &message), qPrintable(message));
    const QImage frame = QImage(dir.filePath(QStringLiteral("frame_0001.png"))).convertToFormat(QImage::Format_RGBA8888);
    QCOMPARE(frame.size(), QSize(160, 120));
    QVERIFY(frame.hasAlphaChannel());
    int clear = 0, opaque = 0;
    for (int y = 0; y < frame.height(); ++y) {
        for (int x = 0; x < frame.width(); ++x) {
            const int a = frame.constScanLine(y)[x * 4 + 3];
            clear += a == 0;
            opaque += a == 255;
        }
    }
    // Background transparent, cloth and pole opaque.
    QCOMPARE(frame.constScanLine(0)[3], uchar(0));
    QVERIFY(clear > frame.width() * frame.height() / 4);
    QVERIFY(opaque > 100);
}

void TestRecord::sinkErrors()
{
    QTemporaryDir dir;
    Simulation sim;
    QImage frame(32, 32, QImage::Format_RGBA8888);
    frame.fill(Qt::red);
    QString error;

    // A PNG that cannot be written (a folder is in the way) stops the sequence with the path.
    QVERIFY(QDir(dir.path()).mkpath(QStringLiteral("png/frame_0001.png")));
    PngSequenceSettings png;
    png.folder = dir.filePath(QStringLiteral("png"));
    PngSequenceWriter writer(png);
    QVERIFY2(writer.open(&error), qPrintable(error));
    bool ok = true;
    for (int i = 0; i < 6 && ok; ++i)
        ok = writer.writeFrame(i, frame, sim, &error);
    if (ok)
        ok = writer.finish(&error);
    QVERIFY(!ok);
    QVERIFY2(error.contains(QStringLiteral("frame_0001.png")), qPrintable(error));
    QVERIFY(QFileInfo::exists(dir.filePath(QStringLiteral("png/frame_0000.png")))); // written frames stay

    // Bad patterns are refused up front.
    QVERIFY(!PngSequenceWriter::validatePattern(QStringLiteral("frame.png")).isEmpty());
    QVERIFY(!PngSequenceWriter::validatePattern(QStringLiteral("a/%04d.png")).isEmpty());
    QCOMPARE(PngSequenceWriter::fileName(QStringLiteral("f_%04d.png"), 7), QStringLiteral("f_0007.png"));

    // An encoder that fails shows its own message and leaves no file.
    const QString fake = dir.filePath(QStringLiteral("fake-ffmpeg"));
    {
        QFile script(fake);
        QVERIFY(script.open(QIODevice::WriteOnly));
        script.write("#!/bin/sh\necho 'Unknown encoder libx264 (test)' >&2\nexit 1\n");
    }
    QFile::setPermissions(fake, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    VideoSettings video;
    video.path = dir.filePath(QStringLiteral("clip.mp4"));
    video.size = QSize(32, 32);
    video.ffmpegProgram = fake;
    FfmpegEncoder encoder(video);
    QVERIFY2(encoder.open(&error), qPrintable(error));
    ok = true;
    for (int i = 0; i < 50 && ok; ++i)
        ok = encoder.writeFrame(i, frame, sim, &error);
    if (ok)
        ok = encoder.finish(&error);
    QVERIFY(!ok);
    QVERIFY2(error.contains(QStringLiteral("Unknown encoder libx264 (test)")), qPrintable(error));
    QVERIFY2(error.contains(QStringLiteral("clip.mp4")), qPrintable(error));
    QVERIFY(!QFileInfo::exists(video.path));
    QVERIFY(!QFileInfo::exists(encoder.temporaryPath()));

    // Odd sizes are refused by the encoder itself for yuv420p formats.
    video.size = QSize(33, 32);
    video.ffmpegProgram = fake;
    FfmpegEncoder odd(video);
    QVERIFY(!odd.open(&error));
    QVERIFY2(error.contains(QStringLiteral("even")), qPrintable(error));
}

void TestRecord::screenshot()
{
    std::unique_ptr<Document> doc = flagDocument(RecordFormat::Mp4);
    m_viewport->setDocument(doc.get());
    ScreenshotAction action(m_viewport.get(), nullptr);
    QCOMPARE(action.action()->shortcut(), QKeySequence(Qt::Key_F12));
    QTemporaryDir dir;
    QString error;
    const QString path = action.save(dir.path(), &error);
    QVERIFY2(!path.isEmpty(), qPrintable(error));
    QVERIFY(QFileInfo(path).fileName().startsWith(QStringLiteral("drape-")));
    const QImage image(path);
    QCOMPARE(image.size(), (QSizeF(m_viewport->size()) * m_viewport->devicePixelRatioF()).toSize());
    // A second shot in the same second gets its own name.
    const QString second = action.save(dir.path(), &error);
    QVERIFY(!second.isEmpty() && second != path);
    // An unwritable folder is an error naming it.
    const QString blocked = dir.filePath(QStringLiteral("file"));
    QFile(blocked).open(QIODevice::WriteOnly);
    QVERIFY(action.save(blocked + QStringLiteral("/sub"), &error).isEmpty());
    QVERIFY2(error.contains(QStringLiteral("file")), qPrintable(error));
    m_viewport->setDocument(nullptr);
}

void TestRecord::dockEditsAreUndoable()
{
    std::unique_ptr<Document> doc = flagDocument(RecordFormat::Mp4);
    RecordDock dock;
    dock.setDocument(doc.get());
    QVERIFY(dock.outputPath().endsWith(QStringLiteral(".mp4")));
    QVERIFY(!dock.outputPath().startsWith(QDir::currentPath() + QLatin1Char('/')) ||
            QDir::currentPath() == QDir::homePath());
    QSpinBox *fps = nullptr;
    for (QSpinBox *box : dock.findChildren<QSpinBox *>()) {
        if (box->suffix().contains(QStringLiteral("fps")))
            fps = box;
    }
    QVERIFY(fps);
    QCOMPARE(fps->value(), 30);
    fps->setValue(24);
    fps->setValue(25); // merges with the previous edit
    QCOMPARE(doc->scene().record.fps, 25);
    QCOMPARE(doc->undoStack()->count(), 1);
    doc->undoStack()->undo();
    QCOMPARE(doc->scene().record.fps, 30);
    QCOMPARE(fps->value(), 30); // the dock follows the document

    // Switching to GIF scales the 1280×720 default to 640×360 and caps the rate at 25 fps,
    // as one undo step; undo brings the MP4 settings back.
    QComboBox *format = nullptr;
    for (QComboBox *box : dock.findChildren<QComboBox *>()) {
        if (box->findData(int(RecordFormat::Gif)) >= 0)
            format = box;
    }
    QVERIFY(format);
    changeScene(doc.get(), [](Scene &s) {
        s.record.width = 1280;
        s.record.height = 720;
    });
    const int before = doc->undoStack()->index();
    format->setCurrentIndex(format->findData(int(RecordFormat::Gif)));
    QCOMPARE(doc->scene().record.format, RecordFormat::Gif);
    QCOMPARE(doc->scene().record.width, 640);
    QCOMPARE(doc->scene().record.height, 360);
    QCOMPARE(doc->scene().record.fps, 25);
    QCOMPARE(doc->undoStack()->index(), before + 1);
    doc->undoStack()->undo();
    QCOMPARE(doc->scene().record.width, 1280);
    QCOMPARE(doc->scene().record.fps, 30);

    // The frame range: saved in the scene, one undo step for a range typed in a row; an end
    // at or before the start means none (the length decides again).
    auto *start = dock.findChild<QSpinBox *>(QStringLiteral("RecordStartFrame"));
    auto *end = dock.findChild<QSpinBox *>(QStringLiteral("RecordEndFrame"));
    QVERIFY(start && end);
    const int rangeBefore = doc->undoStack()->index();
    start->setValue(10);
    end->setValue(70);
    QCOMPARE(doc->scene().record.startFrame, 10);
    QCOMPARE(doc->scene().record.endFrame, 70);
    QCOMPARE(doc->undoStack()->index(), rangeBefore + 1);
    start->setValue(80);
    QCOMPARE(doc->scene().record.endFrame, 0);
    QCOMPARE(end->value(), 0);
    doc->undoStack()->undo();
    QCOMPARE(doc->scene().record.startFrame, 0);
    QCOMPARE(start->value(), 0);
}

int main(int argc, char **argv)
{
    QSurfaceFormat::setDefaultFormat(Viewport::surfaceFormat());
    QApplication app(argc, argv);
    TestRecord test;
    return QTest::qExec(&test, argc, argv);
}

#include "tst_record.moc"
