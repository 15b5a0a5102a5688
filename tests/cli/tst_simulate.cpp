// `drape simulate` end to end: the real executable, run with QProcess.
#include "edit/editdocument.h"
#include "scene/presets.h"
#include "scene/scenefile.h"
#include "sim/energy.h"

#include "drapeprocess.h"

#include <QtTest>

#include <algorithm>
#include <cstring>

using namespace drape;

class TestSimulate : public QObject {
    Q_OBJECT
private slots:
    void curtainThirtyFramesToJson();
    void objOutputAndSequence();
    void replaysTheTakeToTheHashTheEditorShowed();
    void presetReplaysTheTakeItShipsWith();
    void startReplaysToThatFrameFirst();
    void reportHasPerFrameTotals();
    void helpListsOptionsAndPresets();
    void withoutOutputSaysNothingWasWritten();
    void summaryEnergyIsTheFinalState();
    void badInput_data();
    void badInput();

private:
    using Run = DrapeRun;
    Run run(const QStringList &args);
    QTemporaryDir m_dir;
};

TestSimulate::Run TestSimulate::run(const QStringList &args)
{
    return runDrape(QStringList { "simulate" } + args, m_dir.path());
}

void TestSimulate::replaysTheTakeToTheHashTheEditorShowed()
{
    // A session edited while playing: a pin, a cut, a drag and a gravity change, each an
    // event of the take. Saved, `drape simulate` replays it to the state the editor showed.
    EditDocument doc(*loadPreset("tablecloth").scene);
    doc.run(12);
    QVERIFY(doc.setKind(0, { 5, 6 }, ParticleKind::Static).empty());
    doc.run(8);
    QVERIFY(doc.removeConstraints(0, { 30, 31, 32, 33 }, true).empty());
    doc.run(5);
    const Vec3 centre = doc.simulation().cloths[0].particles.position[200];
    QVERIFY(doc.beginDrag(0, { 200, 201 }, centre).empty());
    for (int i = 0; i < 10; ++i) {
        doc.dragTo(centre + Vec3 { 0.f, 0.03f * float(i), 0.f });
        doc.step();
    }
    doc.endDrag();
    QVERIFY(doc.setParameter("world.gravity.y", 0, -4.0).empty());
    doc.run(15);
    QCOMPARE(doc.playhead(), std::uint64_t(50));
    QVERIFY(doc.take().events.size() >= 4);
    const QString path = m_dir.filePath("take.json");
    std::string error;
    QVERIFY2(saveSceneFile(path.toStdString(), doc.scene(), SaveOptions { true, &doc.take() }, &error), error.c_str());

    const Run r = run({ path, "--frames", "50" });
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    const QString expected = QStringLiteral("state hash %1 at frame 50")
                                 .arg(qulonglong(doc.simulation().stateHash()), 16, 16, QLatin1Char('0'));
    QVERIFY2(r.out.contains(expected), qPrintable(r.out + "\nexpected: " + expected));
    QVERIFY2(!r.err.contains("warning"), qPrintable(r.err));
}

// The tearable net ships with a take: `drape simulate preset:tearable-net` replays it, and
// the hash it prints is the replay's with the take, not the scene's alone.
void TestSimulate::presetReplaysTheTakeItShipsWith()
{
    const SceneLoadResult preset = loadPreset("tearable-net");
    QVERIFY2(preset.ok(), preset.error.c_str());
    QVERIFY(!preset.take.empty());
    constexpr std::uint64_t kFrames = 180; // past the drag and the cut
    const auto hashText = [](const Simulation &sim) {
        return QStringLiteral("state hash %1 at frame %2")
            .arg(qulonglong(sim.stateHash()), 16, 16, QLatin1Char('0'))
            .arg(kFrames);
    };
    const QString withTake = hashText(replay(*preset.scene, preset.take, kFrames));
    QVERIFY(withTake != hashText(replay(*preset.scene, Take {}, kFrames)));

    const Run r = run({ "preset:tearable-net", "--frames", QString::number(kFrames) });
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QVERIFY2(r.out.contains(withTake), qPrintable(r.out + "\nexpected: " + withTake));
}

// --start N replays the take to frame N silently; --frames counts from there and the point
// cache's first sample is frame N.
void TestSimulate::startReplaysToThatFrameFirst()
{
    const SceneLoadResult preset = loadPreset("tearable-net");
    QVERIFY2(preset.ok(), preset.error.c_str());
    const QString pc2 = m_dir.filePath("net.pc2");
    const Run r = run({ "preset:tearable-net", "--start", "100", "--frames", "20", "--pc2", pc2 });
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    const QString expected = QStringLiteral("state hash %1 at frame 120")
                                 .arg(qulonglong(replay(*preset.scene, preset.take, 120).stateHash()), 16, 16,
                                     QLatin1Char('0'));
    QVERIFY2(r.out.contains(expected), qPrintable(r.out + "\nexpected: " + expected));
    QVERIFY2(r.out.contains("20 frames (100..120)"), qPrintable(r.out));
    QFile file(pc2);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray header = file.read(32);
    float startFrame = 0.f;
    std::int32_t samples = 0;
    std::memcpy(&startFrame, header.constData() + 20, 4);
    std::memcpy(&samples, header.constData() + 28, 4);
    QCOMPARE(startFrame, 100.f);
    QCOMPARE(samples, 21);
}

void TestSimulate::withoutOutputSaysNothingWasWritten()
{
    QTemporaryDir dir;
    QProcess p;
    p.setWorkingDirectory(dir.path());
    p.start(QStringLiteral(DRAPE_EXECUTABLE), { "simulate", "preset:flag", "--frames", "12" });
    QVERIFY(p.waitForFinished(300000));
    const QString out = QString::fromUtf8(p.readAllStandardOutput());
    QCOMPARE(p.exitCode(), 0);
    QVERIFY2(out.contains("12 frames"), qPrintable(out));
    QVERIFY2(out.contains(QRegularExpression(" s simulated in [0-9.]+ s wall")), qPrintable(out));
    QVERIFY2(out.contains(QRegularExpression("final energy -?[0-9.e+-]+ J")), qPrintable(out));
    QVERIFY2(out.contains(QRegularExpression("[0-9]+ torn")), qPrintable(out));
    QVERIFY2(out.contains("nothing was written"), qPrintable(out));
    QVERIFY(QDir(dir.path()).entryList(QDir::NoDotAndDotDot | QDir::AllEntries).isEmpty());
}

void TestSimulate::summaryEnergyIsTheFinalState()
{
    const QString outPath = m_dir.filePath("energy.json");
    const Run r = run({ "preset:flag", "--frames", "20", "--out", outPath });
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QVERIFY(!r.out.contains("nothing was written"));
    const QRegularExpressionMatch m = QRegularExpression("final energy (-?[0-9.e+-]+) J").match(r.out);
    QVERIFY2(m.hasMatch(), qPrintable(r.out));
    const SceneLoadResult loaded = loadSceneFile(outPath.toStdString());
    QVERIFY2(loaded.ok(), loaded.error.c_str());
    const double expected = energyOf(buildSimulation(*loaded.scene)).total();
    const double printed = m.captured(1).toDouble();
    QVERIFY2(qAbs(printed - expected) <= 1e-5 * qMax(1.0, qAbs(expected)),
        qPrintable(QStringLiteral("printed %1 J, the saved state holds %2 J").arg(printed).arg(expected)));
}

void TestSimulate::curtainThirtyFramesToJson()
{
    QVERIFY(m_dir.isValid());
    const QString outPath = m_dir.filePath("a.json");
    const Run r = run({ "preset:curtain", "--frames", "30", "--out", outPath });
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QVERIFY(r.out.contains("30 frames"));

    const SceneLoadResult loaded = loadSceneFile(outPath.toStdString());
    QVERIFY2(loaded.ok(), loaded.error.c_str());
    const Scene &s = *loaded.scene;
    QVERIFY(s.state.has_value());
    QCOMPARE(s.state->frame, std::uint64_t(30));
    QVERIFY(std::abs(s.state->time - 30.0 / double(s.solver.frameRate)) < 1e-9);

    const Scene start = *loadPreset("curtain").scene;
    const ClothDesc &desc = start.cloths[0];
    const ClothState &cs = s.state->cloths[0];
    const Cloth initial = buildCloth(desc);
    QCOMPARE(cs.position.size(), initial.particles.size());
    // Pinned particles have not moved.
    for (std::uint32_t p : desc.pins)
        QCOMPARE(cs.position[p], initial.particles.position[p]);
    // The hanging cloth sags: its lowest point is below where it started.
    auto lowest = [](const std::vector<Vec3> &xs) {
        return std::min_element(xs.begin(), xs.end(), [](const Vec3 &a, const Vec3 &b) {
            return a.y < b.y;
        })->y;
    };
    QVERIFY(lowest(cs.position) < lowest(initial.particles.position));
    // Resuming the saved file continues from it.
    Simulation resumed = buildSimulation(s);
    QCOMPARE(resumed.frame(), std::uint64_t(30));
}

void TestSimulate::objOutputAndSequence()
{
    const QString objPath = m_dir.filePath("net.obj");
    const QString seqDir = m_dir.filePath("seq");
    const Run r = run({ "preset:tearable-net", "--frames", "3", "--out", objPath, "--obj-sequence", seqDir });
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    const QStringList frames = QDir(seqDir).entryList({ "*.obj" }, QDir::Files, QDir::Name);
    QCOMPARE(frames, (QStringList { "frame_0001.obj", "frame_0002.obj", "frame_0003.obj" }));

    QFile f(objPath);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QStringList lines = QString::fromUtf8(f.readAll()).split('\n');
    const Cloth net = buildCloth(loadPreset("tearable-net").scene->cloths[0]);
    int v = 0, vt = 0, vn = 0, faces = 0;
    for (const QString &l : lines) {
        v += l.startsWith("v ");
        vt += l.startsWith("vt ");
        vn += l.startsWith("vn ");
        if (l.startsWith("f ")) {
            ++faces;
            for (const QString &corner : l.mid(2).split(' ')) {
                const int index = corner.split('/').front().toInt();
                QVERIFY(index >= 1 && index <= int(net.particles.size()));
            }
        }
    }
    QCOMPARE(v, int(net.particles.size()));
    QCOMPARE(vt, v);
    QCOMPARE(vn, v);
    QCOMPARE(faces, int(net.triangles.size()));
    // The last sequence frame is the final state.
    QFile last(QDir(seqDir).filePath("frame_0003.obj"));
    QVERIFY(last.open(QIODevice::ReadOnly));
    QCOMPARE(QString::fromUtf8(last.readAll()).split('\n'), lines);
}

// --report: one record for the start and one per frame, with energy, strain, stress, the pin
// reactions and tears; the curtain's pins hold it up.
void TestSimulate::reportHasPerFrameTotals()
{
    QVERIFY(m_dir.isValid());
    const QString path = m_dir.filePath("report.json");
    const Run r = run({ "preset:curtain", "--frames", "20", "--report", path });
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QVERIFY(r.out.contains("wrote " + path));
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(file.readAll(), &error);
    QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(error.errorString()));
    QCOMPARE(doc.object().value("format").toString(), QString("drape-report"));
    const QJsonArray frames = doc.object().value("frames").toArray();
    QCOMPARE(frames.size(), 21);
    for (int i = 0; i < frames.size(); ++i) {
        const QJsonObject f = frames[i].toObject();
        QCOMPARE(f.value("frame").toInt(), i);
        for (const char *key : { "time", "kineticEnergy", "potentialEnergy", "elasticEnergy", "maxStrain", "maxStress",
                 "pinReaction", "pins", "torn", "splits" })
            QVERIFY2(f.contains(key), key);
    }
    const QJsonObject last = frames.last().toObject();
    QVERIFY(last.value("pins").toInt() > 0);
    QVERIFY(last.value("pinReaction").toArray().at(1).toDouble() > 0.0); // holding the curtain up
    QVERIFY(last.value("maxStress").toDouble() > 0.0);
    QVERIFY(last.value("kineticEnergy").toDouble() > 0.0);
}

void TestSimulate::helpListsOptionsAndPresets()
{
    const Run r = run({ "--help" });
    QCOMPARE(r.exitCode, 0);
    for (const char *s :
        { "--frames", "--out", "--obj-sequence", "--report", "preset:", "curtain", "tearable-net", "Exit codes" })
        QVERIFY2(r.out.contains(s), s);
}

void TestSimulate::badInput_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QString>("fragment");
    QTest::newRow("missing file") << QStringList { "missing-scene.json" } << 1
                                  << "missing-scene.json: No such file or directory";
    QTest::newRow("malformed scene") << QStringList {
        QStringLiteral(DRAPE_TEST_DATA "/broken/pin-out-of-range.json")
    } << 1 << "pin-out-of-range.json: /cloths/0/pins/3: particle 900 out of range";
    QTest::newRow("unknown preset") << QStringList { "preset:nope" } << 1
                                    << "preset:nope: no such built-in preset";
    QTest::newRow("bad --frames") << QStringList { "preset:curtain", "--frames", "ten" } << 2 << "--frames";
    QTest::newRow("negative --frames")
        << QStringList { "preset:curtain", "--frames", "-4" } << 2 << "--frames";
    QTest::newRow("no scene") << QStringList {} << 2 << "no scene given";
    QTest::newRow("unwritable output") << QStringList { "preset:curtain", "--frames", "1", "--out",
        "/no/such/dir/out.json" } << 1 << "/no/such/dir/out.json";
    QTest::newRow("unwritable report") << QStringList { "preset:curtain", "--frames", "1", "--report",
        "/no/such/dir/report.json" } << 1 << "/no/such/dir/report.json";
    QTest::newRow("unknown output type")
        << QStringList { "preset:curtain", "--out", "x.txt" } << 2 << "unknown file type";
    QTest::newRow("unknown option") << QStringList { "preset:curtain", "--fast" } << 2 << "fast";
}

void TestSimulate::badInput()
{
    QFETCH(QStringList, args);
    QFETCH(int, exitCode);
    QFETCH(QString, fragment);
    const Run r = run(args);
    QCOMPARE(r.exitCode, exitCode);
    QVERIFY2(r.err.contains(fragment), qPrintable(r.err));
    QVERIFY2(r.err.startsWith("drape simulate: "), qPrintable(r.err));
}

QTEST_GUILESS_MAIN(TestSimulate)
#include "tst_simulate.moc"
