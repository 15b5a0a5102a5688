// `drape simulate` and `drape render` over a scene baked to its folder (File ▸ Bake to Folder,
// made here through the core's timeline and DiskCacheWriter as the editor does): with a valid
// bake they simulate no frame and write the same bytes as a run with --no-cache; a stale or
// damaged bake is ignored with a message and changes nothing; a bake that covers part of the
// range gives what a full simulation gives; outputs that need the full state simulate.
#include "scene/presets.h"
#include "scene/scenefile.h"
#include "timeline/diskcache.h"
#include "timeline/takesource.h"
#include "timeline/timeline.h"

#include "../sanitizers.h"
#include "drapeprocess.h"

#include <QDir>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

using namespace drape;

namespace {

// The tearable net's take has a drag from frame 30 that tears it and a cut at 130, so the
// baked frames hold grabbed particles and changing topology.
constexpr int kFrames = testing::kSanitizedBuild ? 60 : 160; // the drape binary runs under the sanitizers too

QByteArray readAll(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return f.readAll();
}

/// Every file in `a` has the same bytes in `b`, and the two hold the same names.
void compareFolders(const QString &a, const QString &b)
{
    const QStringList names = QDir(a).entryList(QDir::Files, QDir::Name);
    QVERIFY(!names.isEmpty());
    QCOMPARE(QDir(b).entryList(QDir::Files, QDir::Name), names);
    for (const QString &name : names)
        QVERIFY2(readAll(QDir(a).filePath(name)) == readAll(QDir(b).filePath(name)), qPrintable(name));
}

/// Frames simulated, from the "N frames simulated" summary (-1 when it is missing).
int simulatedFrames(const QString &text)
{
    const QRegularExpressionMatch m = QRegularExpression(QStringLiteral("(\\d+) frames simulated")).match(text);
    return m.hasMatch() ? m.captured(1).toInt() : -1;
}

QString stateHashLine(const QString &out)
{
    return QRegularExpression(QStringLiteral("state hash [0-9a-f]+ at frame \\d+")).match(out).captured(0);
}

} // namespace

class TestBakedRun : public QObject {
    Q_OBJECT
private slots:
    void init();
    void simulateReadsTheBake();
    void renderDrawsTheBake();
    void staleOrDamagedBakeIsIgnored();
    void bakeFromAnotherBuildIsIgnored();
    void partialBakeEqualsFullSimulation();
    void fullStateOutputsSimulate();
    void helpNamesNoCache();

private:
    /// Writes the tearable net and its take to net.json in m_dir.
    void writeScene();
    /// Bakes frames 0..last of net.json as the editor does (the file read back, its hash);
    /// `alterFirstStep` changes frame 1's state hash, as a build that steps differently would.
    void bake(std::uint64_t last, bool alterFirstStep = false);

    std::unique_ptr<QTemporaryDir> m_dir;
    QString m_scene;
};

void TestBakedRun::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
    m_scene = m_dir->filePath(QStringLiteral("net.json"));
    writeScene();
}

void TestBakedRun::writeScene()
{
    const SceneLoadResult preset = loadPreset("tearable-net");
    QVERIFY2(preset.ok() && !preset.take.empty(), preset.error.c_str());
    std::string error;
    QVERIFY2(saveSceneFile(m_scene.toStdString(), *preset.scene, SaveOptions{false, &preset.take}, &error),
             error.c_str());
}

void TestBakedRun::bake(std::uint64_t last, bool alterFirstStep)
{
    const SceneLoadResult loaded = loadSceneFile(m_scene.toStdString());
    QVERIFY2(loaded.ok(), loaded.error.c_str());
    Timeline timeline(std::make_shared<TakeSource>(std::make_shared<const Scene>(*loaded.scene), loaded.take));
    DiskCacheWriter writer;
    std::string error;
    QVERIFY2(writer.open(diskCacheFolder(m_scene.toStdString()), documentHash(*loaded.scene, loaded.take), &error),
             error.c_str());
    for (std::uint64_t f = 0; f <= last; ++f) {
        CachedFrame frame = *timeline.frame(f);
        if (alterFirstStep && f == 1)
            frame.stateHash ^= 1;
        QVERIFY2(writer.append(frame, &error), error.c_str());
    }
    QVERIFY2(writer.finish(&error), error.c_str());
}

void TestBakedRun::simulateReadsTheBake()
{
    bake(kFrames);
    const QString frames = QString::number(kFrames);
    const DrapeRun baked = runDrape({"simulate", m_scene, "--frames", frames, "--obj-sequence", "objA", "--out",
                                     "a.obj", "--pc2", "a.pc2"},
                                    m_dir->path());
    QVERIFY2(baked.exitCode == 0, qPrintable(baked.err));
    QVERIFY2(baked.err.contains(QStringLiteral("frames 0–%1 from the baked cache").arg(kFrames)), qPrintable(baked.err));
    QVERIFY2(baked.err.contains(QStringLiteral("net.drape-cache/")), qPrintable(baked.err));
    QCOMPARE(simulatedFrames(baked.out), 0);

    const DrapeRun simulated = runDrape({"simulate", m_scene, "--frames", frames, "--obj-sequence", "objB", "--out",
                                         "b.obj", "--pc2", "b.pc2", "--no-cache"},
                                        m_dir->path());
    QVERIFY2(simulated.exitCode == 0, qPrintable(simulated.err));
    QVERIFY2(!simulated.err.contains(QStringLiteral("baked cache")), qPrintable(simulated.err));
    QCOMPARE(simulatedFrames(simulated.out), kFrames);

    compareFolders(m_dir->filePath("objA"), m_dir->filePath("objB"));
    QCOMPARE(readAll(m_dir->filePath("a.obj")), readAll(m_dir->filePath("b.obj")));
    const QByteArray pc2 = readAll(m_dir->filePath("a.pc2"));
    QVERIFY(pc2.size() > 32);
    QCOMPARE(pc2, readAll(m_dir->filePath("b.pc2")));
    // The state hash printed is the simulated one: the bake keeps it per frame.
    QVERIFY(!stateHashLine(baked.out).isEmpty());
    QCOMPARE(stateHashLine(baked.out), stateHashLine(simulated.out));
}

void TestBakedRun::renderDrawsTheBake()
{
    bake(kFrames);
    // 30 fps of the 60 Hz scene: every second frame, from 10 (the drag, the tears and, in a
    // full build, the cut are inside the range).
    const QStringList common{"render", m_scene, "--size", "160x120", "--fps", "30", "--start", "10", "--frames",
                             QString::number((kFrames - 10) / 2 + 1)};
    const DrapeRun baked = runDrape(common + QStringList{"-o", "pngA"}, m_dir->path());
    QVERIFY2(baked.exitCode == 0, qPrintable(baked.err));
    QVERIFY2(baked.err.contains(QStringLiteral("frames 10–%1 from the baked cache").arg(kFrames)), qPrintable(baked.err));
    QCOMPARE(simulatedFrames(baked.err), 0);
    const DrapeRun simulated = runDrape(common + QStringList{"-o", "pngB", "--no-cache"}, m_dir->path());
    QVERIFY2(simulated.exitCode == 0, qPrintable(simulated.err));
    QCOMPARE(simulatedFrames(simulated.err), kFrames);
    compareFolders(m_dir->filePath("pngA"), m_dir->filePath("pngB"));
    // OBJ meshes from the renderer's sink, likewise.
    const DrapeRun objBaked = runDrape(common + QStringList{"--obj", "-o", "objA"}, m_dir->path());
    const DrapeRun objSimulated = runDrape(common + QStringList{"--obj", "-o", "objB", "--no-cache"}, m_dir->path());
    QVERIFY2(objBaked.exitCode == 0 && objSimulated.exitCode == 0, qPrintable(objBaked.err + objSimulated.err));
    QCOMPARE(simulatedFrames(objBaked.err), 0);
    compareFolders(m_dir->filePath("objA"), m_dir->filePath("objB"));
}

void TestBakedRun::staleOrDamagedBakeIsIgnored()
{
    bake(kFrames);
    // An edit after the bake: stronger gravity changes every frame.
    QByteArray text = readAll(m_scene);
    const qsizetype at = text.indexOf("\"gravity\"");
    QVERIFY(at >= 0);
    const qsizetype close = text.indexOf(']', at);
    text.replace(at, close - at + 1, "\"gravity\": [0, -14, 0]");
    {
        QFile f(m_scene);
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(text);
    }
    const QString frames = QString::number(kFrames);
    const DrapeRun stale = runDrape({"simulate", m_scene, "--frames", frames, "--obj-sequence", "objA"}, m_dir->path());
    QVERIFY2(stale.exitCode == 0, qPrintable(stale.err));
    QVERIFY2(stale.err.contains(QStringLiteral("was baked from another version of this scene")), qPrintable(stale.err));
    QCOMPARE(simulatedFrames(stale.out), kFrames);
    const DrapeRun fresh = runDrape({"simulate", m_scene, "--frames", frames, "--obj-sequence", "objB", "--no-cache"},
                                    m_dir->path());
    QVERIFY2(fresh.exitCode == 0, qPrintable(fresh.err));
    compareFolders(m_dir->filePath("objA"), m_dir->filePath("objB"));
    QCOMPARE(stateHashLine(stale.out), stateHashLine(fresh.out));

    // A bake cut short (a damaged file) is ignored too.
    writeScene();
    bake(kFrames);
    const QString bin = QDir(QString::fromStdString(diskCacheFolder(m_scene.toStdString()))).filePath("frames.bin");
    QFile f(bin);
    QVERIFY(f.open(QIODevice::ReadWrite));
    QVERIFY(f.resize(f.size() / 2));
    f.close();
    const DrapeRun damaged = runDrape({"simulate", m_scene, "--frames", frames, "--obj-sequence", "objC"}, m_dir->path());
    QVERIFY2(damaged.exitCode == 0, qPrintable(damaged.err));
    QVERIFY2(damaged.err.contains(QStringLiteral("is damaged")), qPrintable(damaged.err));
    QCOMPARE(simulatedFrames(damaged.out), kFrames);
}

// Frame 0 is built, not simulated, so it matches across builds that step differently; frame
// 1 is the first step: a bake whose frame 1 is not this build's is ignored, with a message
// naming its folder, and the run is what a run without it gives.
void TestBakedRun::bakeFromAnotherBuildIsIgnored()
{
    bake(kFrames, true);
    const QString frames = QString::number(kFrames);
    const DrapeRun other = runDrape({"simulate", m_scene, "--frames", frames, "--obj-sequence", "objA"}, m_dir->path());
    QVERIFY2(other.exitCode == 0, qPrintable(other.err));
    QVERIFY2(other.err.contains(QStringLiteral("was baked by a build that simulates differently")), qPrintable(other.err));
    QVERIFY2(other.err.contains(QStringLiteral("net.drape-cache/")), qPrintable(other.err));
    QVERIFY2(!other.err.contains(QStringLiteral("from the baked cache")), qPrintable(other.err));
    QCOMPARE(simulatedFrames(other.out), kFrames);
    const DrapeRun fresh = runDrape({"simulate", m_scene, "--frames", frames, "--obj-sequence", "objB", "--no-cache"},
                                    m_dir->path());
    QVERIFY2(fresh.exitCode == 0, qPrintable(fresh.err));
    compareFolders(m_dir->filePath("objA"), m_dir->filePath("objB"));
    QCOMPARE(stateHashLine(other.out), stateHashLine(fresh.out));
}

void TestBakedRun::partialBakeEqualsFullSimulation()
{
    const int half = kFrames / 2;
    bake(std::uint64_t(half));
    const QString frames = QString::number(kFrames);
    const DrapeRun partial = runDrape({"simulate", m_scene, "--frames", frames, "--obj-sequence", "objA", "--pc2",
                                       "a.pc2"},
                                      m_dir->path());
    QVERIFY2(partial.exitCode == 0, qPrintable(partial.err));
    QVERIFY2(partial.err.contains(QStringLiteral("frames 0–%1 from the baked cache").arg(half)), qPrintable(partial.err));
    QVERIFY2(partial.err.contains(QStringLiteral("frames %1–%2 are simulated").arg(half + 1).arg(kFrames)),
             qPrintable(partial.err));
    // Past the bake the replay starts from the scene's start: every frame to the last.
    QCOMPARE(simulatedFrames(partial.out), kFrames);
    const DrapeRun full = runDrape({"simulate", m_scene, "--frames", frames, "--obj-sequence", "objB", "--pc2", "b.pc2",
                                    "--no-cache"},
                                   m_dir->path());
    QVERIFY2(full.exitCode == 0, qPrintable(full.err));
    compareFolders(m_dir->filePath("objA"), m_dir->filePath("objB"));
    QCOMPARE(readAll(m_dir->filePath("a.pc2")), readAll(m_dir->filePath("b.pc2")));
    QCOMPARE(stateHashLine(partial.out), stateHashLine(full.out));
    // The energy of the last frame is known again: it was simulated.
    QVERIFY2(partial.out.contains(QStringLiteral("final energy ")) && !partial.out.contains(QStringLiteral("final energy not known")),
             qPrintable(partial.out));

    // A render whose range starts past the bake simulates all of it, and says so.
    const DrapeRun render = runDrape({"render", m_scene, "--size", "80x60", "--fps", "30", "--start",
                                      QString::number(half + 2), "--frames", "2", "--obj", "-o", "late"},
                                     m_dir->path());
    QVERIFY2(render.exitCode == 0, qPrintable(render.err));
    QVERIFY2(render.err.contains(QStringLiteral("ends at frame %1").arg(half)), qPrintable(render.err));
    QCOMPARE(simulatedFrames(render.err), half + 4);
}

void TestBakedRun::fullStateOutputsSimulate()
{
    bake(kFrames);
    const QString frames = QString::number(kFrames);
    const DrapeRun baked = runDrape({"simulate", m_scene, "--frames", frames, "--out", "a.json"}, m_dir->path());
    QVERIFY2(baked.exitCode == 0, qPrintable(baked.err));
    QVERIFY2(baked.err.contains(QStringLiteral("is not used: --out a.json needs the solver's full state")),
             qPrintable(baked.err));
    QCOMPARE(simulatedFrames(baked.out), kFrames);
    const DrapeRun simulated = runDrape({"simulate", m_scene, "--frames", frames, "--out", "b.json", "--no-cache"},
                                        m_dir->path());
    QVERIFY2(simulated.exitCode == 0, qPrintable(simulated.err));
    QCOMPARE(readAll(m_dir->filePath("a.json")), readAll(m_dir->filePath("b.json")));
    const DrapeRun report = runDrape({"simulate", m_scene, "--frames", "5", "--report", "r.json"}, m_dir->path());
    QVERIFY2(report.err.contains(QStringLiteral("--report needs the solver's full state")), qPrintable(report.err));
    QCOMPARE(simulatedFrames(report.out), 5);
}

void TestBakedRun::helpNamesNoCache()
{
    // The man pages are made from these texts (help2man): the option on a line of its own.
    for (const QString &mode : {QStringLiteral("render"), QStringLiteral("simulate")}) {
        const DrapeRun help = runDrape({mode, "--help"}, m_dir->path());
        QCOMPARE(help.exitCode, 0);
        QVERIFY2(help.out.contains(QRegularExpression(QStringLiteral("\\n\\s+--no-cache\\s+Simulate every frame"))),
                 qPrintable(help.out));
    }
    const DrapeRun overview = runDrape({"--help"}, m_dir->path());
    QVERIFY2(overview.out.contains(QStringLiteral("--no-cache")), qPrintable(overview.out));
}

QTEST_GUILESS_MAIN(TestBakedRun)
#include "tst_bakedrun.moc"
