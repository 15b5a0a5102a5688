// `drape import` end to end: the real executable, run with QProcess. A mesh becomes a cloth or
// a collider in a new scene or in a given one; what it prints matches what it wrote; the
// written scene loads, simulates, and embeds the mesh; bad meshes and options are refused.
#include "scene/presets.h"
#include "scene/scenefile.h"

#include "drapeprocess.h"

#include <QtTest>

using namespace drape;

class TestImport : public QObject {
    Q_OBJECT
private slots:
    void gridAsClothIntoNewScene();
    void sphereAsColliderIntoPreset();
    void zUpInCentimetres();
    void helpIsDocumented();
    void repairedMeshWarnsWithCounts();
    void badInput_data();
    void badInput();

private:
    using Run = DrapeRun;
    Run run(const QStringList &args);
    QTemporaryDir m_dir;
};

namespace {

QString mesh(const char *name)
{
    return QStringLiteral(DRAPE_TEST_DATA "/meshes/") + QLatin1String(name);
}

} // namespace

TestImport::Run TestImport::run(const QStringList &args)
{
    return runDrape(args, m_dir.path());
}

void TestImport::gridAsClothIntoNewScene()
{
    const QString out = m_dir.filePath("grid.json");
    const Run r = run({ "import", mesh("grid_uv.obj"), "--as", "cloth", "-o", out });
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QVERIFY2(r.out.contains(
                 "cloth \"grid_uv\": 25 particles, 32 triangles, 56 edge constraints, 40 bending hinges"),
        qPrintable(r.out));
    QVERIFY2(r.out.contains("bounds [-0.5, 0, -0.5] .. [0.5, 0, 0.5] m"), qPrintable(r.out));
    QVERIFY(r.err.isEmpty());
    const SceneLoadResult loaded = loadSceneFile(out.toStdString());
    QVERIFY2(loaded.ok(), loaded.error.c_str());
    const Scene &s = *loaded.scene;
    QCOMPARE(s.cloths.size(), std::size_t(1));
    QCOMPARE(s.colliders.size(), std::size_t(1)); // the ground of a new scene
    QCOMPARE(s.colliders[0].kind, ColliderKind::Plane);
    QCOMPARE(s.cloths[0].source, ClothSource::Explicit);
    QCOMPARE(s.cloths[0].explicitData.rest.size(), std::size_t(25));
    QCOMPARE(s.cloths[0].explicitData.uv.size(), std::size_t(25));
    QCOMPARE(s.cloths[0].explicitData.constraints.size(), std::size_t(56)); // one per edge
    Simulation sim = buildSimulation(s);
    sim.run(10);
    QVERIFY(!sim.status().blownUp);
}

void TestImport::sphereAsColliderIntoPreset()
{
    const QString out = m_dir.filePath("ball.json");
    const Run r = run({ "import", mesh("uv_sphere.glb"), "--as", "collider", "--into", "preset:curtain", "-o",
        out, "--name", "ball" });
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QVERIFY2(r.out.contains("collider \"ball\": 114 vertices, 224 triangles"), qPrintable(r.out));
    const Scene preset = *loadPreset("curtain").scene;
    const SceneLoadResult loaded = loadSceneFile(out.toStdString());
    QVERIFY2(loaded.ok(), loaded.error.c_str());
    const Scene &s = *loaded.scene;
    QCOMPARE(s.cloths.size(), preset.cloths.size());
    QCOMPARE(s.colliders.size(), preset.colliders.size() + 1);
    const Collider &c = s.colliders.back();
    QCOMPARE(c.kind, ColliderKind::Mesh);
    QVERIFY(c.mesh);
    QCOMPARE(c.mesh->triangles().size(), std::size_t(224));
    // The file is self-contained: the mesh is in it, not referred to.
    QFile f(out);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QByteArray text = f.readAll();
    QVERIFY(!text.contains("uv_sphere"));
    QVERIFY(text.contains("\"vertices\""));
}

void TestImport::zUpInCentimetres()
{
    const QString out = m_dir.filePath("box.json");
    const Run r
        = run({ "import", mesh("zup_box.stl"), "--as", "collider", "--up", "z", "--units", "cm", "-o", out });
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    // 0.2 × 0.2 × 1 file units standing along Z become 2 mm × 1 cm × 2 mm standing along Y.
    QVERIFY2(r.out.contains("(size 0.002 × 0.01 × 0.002 m)"), qPrintable(r.out));
}

void TestImport::helpIsDocumented()
{
    const Run top = run({ "--help" });
    QCOMPARE(top.exitCode, 0);
    QVERIFY(top.out.contains(
        "drape import MESH --as cloth|collider [--into SCENE] -o OUT.json [--scale S] [--up y|z]"));
    const Run help = run({ "import", "--help" });
    QCOMPARE(help.exitCode, 0);
    for (const char *option :
        { "--as", "--into", "--out", "--scale", "--units", "--up", "--fabric", "--name" })
        QVERIFY2(help.out.contains(QLatin1String(option)), option);
}

void TestImport::repairedMeshWarnsWithCounts()
{
    const Run r = run({ "import", mesh("degenerate.obj"), "--as", "cloth", "-o", m_dir.filePath("d.json") });
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QVERIFY2(r.err.contains("warning: ") && r.err.contains("2 degenerate triangles"), qPrintable(r.err));
    QVERIFY(r.err.contains("1 duplicate triangles removed"));
    QVERIFY(r.out.contains("4 particles, 2 triangles"));
    const Run fin
        = run({ "import", mesh("nonmanifold.obj"), "--as", "collider", "-o", m_dir.filePath("n.json") });
    QVERIFY2(fin.exitCode == 0, qPrintable(fin.err));
    QVERIFY(fin.err.contains("1 non-manifold edges"));
}

void TestImport::badInput_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QString>("message");
    const QString out = QStringLiteral("x.json");
    QTest::newRow("empty file") << QStringList { mesh("empty.obj"), "--as", "cloth", "-o", out } << 1
                                << "empty.obj: the file is empty";
    QTest::newRow("missing file") << QStringList { mesh("nope.obj"), "--as", "cloth", "-o", out } << 1
                                  << "nope.obj: cannot read the file";
    QTest::newRow("no --as") << QStringList { mesh("grid_uv.obj"), "-o", out } << 2
                             << "--as cloth or --as collider is required";
    QTest::newRow("bad --as") << QStringList { mesh("grid_uv.obj"), "--as", "hat", "-o", out } << 2
                              << "--as hat: expected cloth or collider";
    QTest::newRow("no -o") << QStringList { mesh("grid_uv.obj"), "--as", "cloth" } << 2
                           << "-o OUT.json is required";
    QTest::newRow("bad --up") << QStringList { mesh("grid_uv.obj"), "--as", "cloth", "--up", "x", "-o", out }
                              << 2 << "--up x: expected y or z";
    QTest::newRow("bad --scale") << QStringList { mesh("grid_uv.obj"), "--as", "cloth", "--scale", "-1", "-o",
        out } << 2 << "--scale -1: expected a number > 0";
    QTest::newRow("bad --into") << QStringList { mesh("grid_uv.obj"), "--as", "cloth", "--into",
        "preset:nope", "-o", out }
                                << 1 << "preset:nope: no such built-in preset";
    QTest::newRow("over the scene budget") << QStringList { mesh("grid_uv.obj"), "--as", "cloth",
        "--max-particles", "10", "-o", out } << 1 << "the scene is too large: it needs";
    QTest::newRow("bad --max-particles") << QStringList { mesh("grid_uv.obj"), "--as", "cloth",
        "--max-particles", "0", "-o", out } << 2 << "--max-particles: expected a whole number >= 1";
}

void TestImport::badInput()
{
    QFETCH(QStringList, args);
    QFETCH(int, exitCode);
    QFETCH(QString, message);
    const Run r = run(QStringList { "import" } + args);
    QCOMPARE(r.exitCode, exitCode);
    QVERIFY2(r.err.contains(message), qPrintable(r.err));
    QVERIFY(!QFile::exists(m_dir.filePath("x.json")));
}

QTEST_GUILESS_MAIN(TestImport)
#include "tst_import.moc"
