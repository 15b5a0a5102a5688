// `drape simulate` end to end: the real executable, run with QProcess.
#include "scene/presets.h"
#include "scene/scenefile.h"
#include "sim/energy.h"

#include <QtTest>

#include <algorithm>

using namespace drape;

class TestSimulate : public QObject {
    Q_OBJECT
private slots:
    void curtainThirtyFramesToJson();
    void objOutputAndSequence();
    void helpListsOptionsAndPresets();
    void withoutOutputSaysNothingWasWritten();
    void summaryEnergyIsTheFinalState();
    void badInput_data();
    void badInput();

private:
    struct Run {
        int exitCode = -1;
        QString out;
        QString err;
    };
    Run run(const QStringList &args);
    QTemporaryDir m_dir;
};

TestSimulate::Run TestSimulate::run(const QStringList &args)
{
    QProcess p;
    p.setWorkingDirectory(m_dir.path());
    p.start(QStringLiteral(DRAPE_EXECUTABLE), QStringList { "simulate" } + args);
    if (!p.waitForFinished(300000))
        qFatal("drape simulate did not finish");
    Run r;
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = QString::fromUtf8(p.readAllStandardOutput());
    r.err = QString::fromUtf8(p.readAllStandardError());
    return r;
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

void TestSimulate::helpListsOptionsAndPresets()
{
    const Run r = run({ "--help" });
    QCOMPARE(r.exitCode, 0);
    for (const char *s :
        { "--frames", "--out", "--obj-sequence", "preset:", "curtain", "tearable-net", "Exit codes" })
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
