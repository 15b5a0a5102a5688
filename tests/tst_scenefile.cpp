// The scene file format: exact number round trips, edited cloths saved as explicit lists,
// saved state resuming bit for bit, atomic saves, and files of format version 1 loading.
#include "scene/presets.h"
#include "scene/scenefile.h"
#include "scenejson.h"

#include <QtTest>

#include <cfloat>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>

using namespace drape;

class TestSceneFile : public QObject {
    Q_OBJECT
private slots:
    void floatsRoundTripExactly();
    void doublesRoundTripExactly();
    void headerAndKeyOrder();
    void editedClothSavesExplicitAndReloadsIdentically();
    void explicitClothBuildsTheSameSimulation();
    void stateResumesBitIdentical_data();
    void stateResumesBitIdentical();
    void withoutStateOptionNoStateIsWritten();
    void saveAndLoadFile();
    void saveFailureNamesPathAndKeepsOldFile();
    void refusesToSaveAnUnreadableScene();
    void version1FilesKeepLoading();
    void playbackRangeIsOptional();
    void version1FilesKeepTheirPhysics();

private:
    static Scene preset(const char *id);
    QTemporaryDir m_dir;
};

Scene TestSceneFile::preset(const char *id)
{
    SceneLoadResult r = loadPreset(id);
    if (!r.ok())
        qFatal("%s", r.error.c_str());
    return *r.scene;
}

static float readBackFloat(float f)
{
    const scenejson::Json j = scenejson::floatToJson(f);
    const scenejson::Json back = scenejson::Json::parse(j.dump());
    return float(back.get<double>());
}

void TestSceneFile::floatsRoundTripExactly()
{
    // Every float, through the text the writer produces, must come back bit for bit.
    std::mt19937 rng(12345);
    std::uniform_int_distribution<std::uint32_t> bits;
    int tested = 0;
    for (int i = 0; i < 50000; ++i) {
        const std::uint32_t b = bits(rng);
        float f;
        std::memcpy(&f, &b, 4);
        if (!std::isfinite(f))
            continue;
        const float g = readBackFloat(f);
        QVERIFY2(std::memcmp(&f, &g, 4) == 0, qPrintable(QString::number(double(f), 'g', 9)));
        ++tested;
    }
    QVERIFY(tested > 45000);
    for (float f : { 0.f, -0.f, 0.1f, 0.15f, 1.f / 3.f, 9.81f, FLT_MIN, FLT_MAX, -FLT_MAX, FLT_TRUE_MIN,
             1e-7f, 16777217.f }) {
        const float g = readBackFloat(f);
        QVERIFY(std::memcmp(&f, &g, 4) == 0);
    }
    // Short decimals stay short (hand-editable files).
    QCOMPARE(scenejson::Json(scenejson::floatToJson(0.15f)).dump(), std::string("0.15"));
    QCOMPARE(scenejson::Json(scenejson::floatToJson(-9.81f)).dump(), std::string("-9.81"));
}

void TestSceneFile::doublesRoundTripExactly()
{
    std::mt19937_64 rng(99);
    std::uniform_real_distribution<double> u(0.0, 1e6);
    for (int i = 0; i < 20000; ++i) {
        const double d = u(rng);
        const double back = scenejson::Json::parse(scenejson::Json(d).dump()).get<double>();
        QCOMPARE(back, d);
    }
}

void TestSceneFile::headerAndKeyOrder()
{
    const std::string text = serializeScene(preset("curtain"));
    QVERIFY(text.starts_with("{\n  \"format\": \"drape-scene\",\n  \"version\": 2,\n"));
    const std::size_t units = text.find("\"units\"");
    const std::size_t world = text.find("\"world\"");
    const std::size_t solver = text.find("\"solver\"");
    const std::size_t cloths = text.find("\"cloths\"");
    QVERIFY(units < world && world < solver && solver < cloths);
    QVERIFY(text.ends_with("}\n"));
    QVERIFY(text.find("\"version\": 2,") != std::string::npos); // an integer, never 2.0
}

// A curtain cut (constraints removed), pinned at one more particle and sewn (a user
// constraint), as the editor leaves it in the running simulation.
static Simulation editedCurtain(const Scene &scene)
{
    Simulation sim = buildSimulation(scene);
    Cloth &c = sim.cloths[0];
    c.constraints.erase(c.constraints.begin() + 100, c.constraints.begin() + 140);
    c.particles.setKind(500, ParticleKind::Static);
    DistanceConstraint sewn;
    sewn.a = 10;
    sewn.b = 700;
    sewn.restLength = 0.05f;
    sewn.compliance = 1e-4f;
    sewn.damping = 0.01f;
    sewn.kind = ConstraintKind::User;
    c.constraints.push_back(sewn);
    c.touchTopology();
    return sim;
}

void TestSceneFile::editedClothSavesExplicitAndReloadsIdentically()
{
    const Scene scene = preset("curtain");
    const Simulation sim = editedCurtain(scene);
    const Scene edited = snapshotScene(scene, sim, false);
    const ClothDesc &desc = edited.cloths[0];
    QCOMPARE(desc.source, ClothSource::Explicit);
    QCOMPARE(desc.explicitData.constraints.size(), sim.cloths[0].constraints.size());
    QVERIFY(std::binary_search(desc.pins.begin(), desc.pins.end(), 500u));
    // Tear strain "never" (infinity) must survive too.
    Scene withNever = edited;
    withNever.cloths[0].explicitData.constraints[3].tearStrain = kNeverTear;

    for (const Scene &s : { edited, withNever }) {
        const std::string text1 = serializeScene(s);
        const SceneLoadResult r = parseScene(text1, "edited.json");
        QVERIFY2(r.ok(), r.error.c_str());
        QVERIFY(r.warnings.empty());
        QVERIFY(*r.scene == s);
        QCOMPARE(serializeScene(*r.scene), text1);
    }
}

void TestSceneFile::explicitClothBuildsTheSameSimulation()
{
    const Scene scene = preset("curtain");
    const Simulation sim = editedCurtain(scene);
    const SceneLoadResult r = parseScene(serializeScene(snapshotScene(scene, sim, false)), "edited.json");
    QVERIFY2(r.ok(), r.error.c_str());
    const Simulation rebuilt = buildSimulation(*r.scene);
    const Cloth &a = sim.cloths[0];
    const Cloth &b = rebuilt.cloths[0];
    QVERIFY(a.constraints == b.constraints);
    QVERIFY(a.triangles == b.triangles);
    QVERIFY(a.particles.rest == b.particles.rest);
    QVERIFY(a.particles.position == b.particles.position);
    QVERIFY(a.particles.mass == b.particles.mass);
    QVERIFY(a.particles.invMass == b.particles.invMass);
    QVERIFY(a.particles.kind == b.particles.kind);
    // And both evolve identically.
    Simulation x = sim, y = rebuilt;
    x.run(10);
    y.run(10);
    QCOMPARE(x.stateHash(), y.stateHash());
}

void TestSceneFile::stateResumesBitIdentical_data()
{
    QTest::addColumn<QString>("id");
    QTest::addColumn<int>("framesBefore");
    QTest::addColumn<int>("framesAfter");
    QTest::newRow("curtain (xpbd, gusts)") << "curtain" << 10 << 10;
    QTest::newRow("three.js (verlet, moving ball)") << "threejs-cloth" << 12 << 10;
    QTest::newRow("spring fabric (springs)") << "spring-fabric" << 8 << 8;
    QTest::newRow("tablecloth (collisions)") << "tablecloth" << 15 << 6; // lands on the ball after ~14 frames
    QTest::newRow("tearable net (verlet, tearing)") << "tearable-net" << 5 << 5;
}

void TestSceneFile::stateResumesBitIdentical()
{
    QFETCH(QString, id);
    QFETCH(int, framesBefore);
    QFETCH(int, framesAfter);
    const Scene scene = preset(id.toUtf8().constData());
    Simulation uninterrupted = buildSimulation(scene);
    uninterrupted.run(framesBefore);

    const Scene saved = snapshotScene(scene, uninterrupted, true);
    const std::string text = serializeScene(saved, SaveOptions { true });
    const SceneLoadResult r = parseScene(text, "paused.json");
    QVERIFY2(r.ok(), r.error.c_str());
    QVERIFY(r.scene->state.has_value());
    QVERIFY(*r.scene == saved);
    QCOMPARE(serializeScene(*r.scene, SaveOptions { true }), text);
    QCOMPARE(r.scene->state->frame, std::uint64_t(framesBefore));

    Simulation resumed = buildSimulation(*r.scene);
    QCOMPARE(resumed.time(), uninterrupted.time());
    QCOMPARE(resumed.stateHash(), uninterrupted.stateHash());
    uninterrupted.run(framesAfter);
    resumed.run(framesAfter);
    QVERIFY(!uninterrupted.status().blownUp);
    for (std::size_t c = 0; c < resumed.cloths.size(); ++c) {
        QVERIFY(resumed.cloths[c].particles.position == uninterrupted.cloths[c].particles.position);
        QVERIFY(resumed.cloths[c].particles.velocity == uninterrupted.cloths[c].particles.velocity);
    }
    QCOMPARE(resumed.stateHash(), uninterrupted.stateHash());
}

void TestSceneFile::withoutStateOptionNoStateIsWritten()
{
    const Scene scene = preset("hammock");
    Simulation sim = buildSimulation(scene);
    sim.run(3);
    const Scene saved = snapshotScene(scene, sim, true);
    QVERIFY(serializeScene(saved, SaveOptions { false }).find("\"state\"") == std::string::npos);
    QVERIFY(serializeScene(saved, SaveOptions { true }).find("\"state\"") != std::string::npos);
}

void TestSceneFile::saveAndLoadFile()
{
    QVERIFY(m_dir.isValid());
    const std::string path = (m_dir.path() + "/hammock.json").toStdString();
    const Scene scene = preset("hammock");
    std::string error;
    QVERIFY2(saveSceneFile(path, scene, {}, &error), error.c_str());
    const SceneLoadResult r = loadSceneFile(path);
    QVERIFY2(r.ok(), r.error.c_str());
    QVERIFY(*r.scene == scene);
    // Saving over an existing file replaces it and leaves no temporary files behind.
    QVERIFY2(saveSceneFile(path, scene, {}, &error), error.c_str());
    int files = 0;
    for (const auto &e : std::filesystem::directory_iterator(m_dir.path().toStdString())) {
        Q_UNUSED(e);
        ++files;
    }
    QCOMPARE(files, 1);
}

void TestSceneFile::playbackRangeIsOptional()
{
    // A scene without a range writes no range keys, so older files save as they were.
    Scene scene = preset("flag");
    const std::string plain = serializeScene(scene);
    QVERIFY(plain.find("startFrame") == std::string::npos);
    QVERIFY(plain.find("endFrame") == std::string::npos);
    const SceneLoadResult noRange = parseScene(plain, "plain");
    QVERIFY2(noRange.ok(), noRange.error.c_str());
    QCOMPARE(noRange.scene->record.startFrame, 0);
    QCOMPARE(noRange.scene->record.endFrame, -1);

    scene.record.startFrame = 12;
    scene.record.endFrame = 345;
    const std::string text = serializeScene(scene);
    const SceneLoadResult ranged = parseScene(text, "ranged");
    QVERIFY2(ranged.ok(), ranged.error.c_str());
    QCOMPARE(ranged.scene->record.startFrame, 12);
    QCOMPARE(ranged.scene->record.endFrame, 345);
    QCOMPARE(serializeScene(*ranged.scene), text);

    // An end before the start is refused, naming the key and both frames.
    std::string bad = text;
    bad.replace(bad.find("345", bad.find("endFrame")), 3, "5");
    const SceneLoadResult refused = parseScene(bad, "bad");
    QVERIFY(!refused.ok());
    QVERIFY2(refused.error.find("/record/endFrame") != std::string::npos, refused.error.c_str());
    QVERIFY2(refused.error.find("before startFrame 12") != std::string::npos, refused.error.c_str());
}

void TestSceneFile::saveFailureNamesPathAndKeepsOldFile()
{
    const Scene scene = preset("flag");
    std::string error;
    const std::string missingDir = (m_dir.path() + "/no/such/dir/flag.json").toStdString();
    QVERIFY(!saveSceneFile(missingDir, scene, {}, &error));
    QVERIFY2(error.find(missingDir) != std::string::npos, error.c_str());
    QVERIFY2(error.find("No such file or directory") != std::string::npos, error.c_str());

    // A "directory" that is a regular file.
    const std::string file = (m_dir.path() + "/plain.txt").toStdString();
    std::ofstream(file) << "x";
    const std::string underFile = file + "/flag.json";
    QVERIFY(!saveSceneFile(underFile, scene, {}, &error));
    QVERIFY2(error.find(underFile) != std::string::npos && error.find("Not a directory") != std::string::npos,
        error.c_str());

    // Unreadable file: the load error names the path and the reason.
    const SceneLoadResult r = loadSceneFile(missingDir);
    QVERIFY(!r.ok());
    QVERIFY2(
        r.error.find(missingDir) != std::string::npos && r.error.find("No such file") != std::string::npos,
        r.error.c_str());
}

void TestSceneFile::refusesToSaveAnUnreadableScene()
{
    const std::string path = (m_dir.path() + "/keep.json").toStdString();
    Scene scene = preset("flag");
    std::string error;
    QVERIFY2(saveSceneFile(path, scene, {}, &error), error.c_str());
    std::ifstream in(path);
    const std::string before((std::istreambuf_iterator<char>(in)), {});

    scene.world.gravity.y = std::nanf("");
    QVERIFY(!saveSceneFile(path, scene, {}, &error));
    QVERIFY2(error.find(path) != std::string::npos && error.find("/world/gravity/1") != std::string::npos,
        error.c_str());
    std::ifstream again(path);
    const std::string after((std::istreambuf_iterator<char>(again)), {});
    QCOMPARE(after, before);
}

void TestSceneFile::version1FilesKeepLoading()
{
    // Files written by format version 1; they must load in every later build, as a scene with
    // an empty take. Saving them again with this build gives the same bytes but the version.
    const QDir dir(QStringLiteral(DRAPE_TEST_DATA "/v1"));
    const QStringList files = dir.entryList({ "*.json" }, QDir::Files);
    QVERIFY(files.size() >= 2);
    for (const QString &f : files) {
        const std::string path = dir.filePath(f).toStdString();
        const SceneLoadResult r = loadSceneFile(path);
        QVERIFY2(r.ok(), r.error.c_str());
        QVERIFY2(r.warnings.empty(), path.c_str());
        std::ifstream in(path);
        const std::string text((std::istreambuf_iterator<char>(in)), {});
        QVERIFY(r.take.empty());
        std::string expected = text;
        const std::size_t version = expected.find("\"version\": 1,");
        QVERIFY(version != std::string::npos);
        expected.replace(version, 13, "\"version\": 2,");
        QCOMPARE(serializeScene(*r.scene, SaveOptions { true }), expected);
        Simulation sim = buildSimulation(*r.scene);
        sim.run(2);
        QVERIFY(!sim.status().blownUp);
    }
}

// Keys added later (tear tension, warp stiffness, tethers, static friction, cloth collision)
// are optional: a version 1 file without them gets exactly the physics it had, every
// constraint tearing by strain only with the isotropic stiffness of materialParams().
void TestSceneFile::version1FilesKeepTheirPhysics()
{
    const QDir dir(QStringLiteral(DRAPE_TEST_DATA "/v1"));
    for (const QString &f : dir.entryList({ "*.json" }, QDir::Files)) {
        const SceneLoadResult r = loadSceneFile(dir.filePath(f).toStdString());
        QVERIFY2(r.ok(), r.error.c_str());
        const Scene &scene = *r.scene;
        QVERIFY(!scene.solver.clothCollision);
        for (const Collider &k : scene.colliders)
            QVERIFY(k.staticFriction < 0.f); // the same as friction
        const Simulation sim = buildSimulation(scene);
        for (std::size_t c = 0; c < scene.cloths.size(); ++c) {
            const ClothDesc &desc = scene.cloths[c];
            QCOMPARE(desc.material.tearBy, TearCriterion::Strain);
            QCOMPARE(desc.material.warpStretchStiffness, 0.f);
            QCOMPARE(desc.material.warpBendRigidity, 0.f);
            QCOMPARE(desc.tetherStretch, 0.f);
            QCOMPARE(sim.cloths[c].tetherStretch, 0.f);
            for (const DistanceConstraint &k : sim.cloths[c].constraints) {
                QCOMPARE(k.tearForce, kNeverTear);
                if (desc.source == ClothSource::Explicit)
                    continue; // per-constraint values come from the file
                const ConstraintParams p = materialParams(desc.material, k.kind, k.restLength, clothSpacing(desc));
                QCOMPARE(k.compliance, p.compliance);
                QCOMPARE(k.tearStrain, p.tearStrain);
            }
        }
    }
}

QTEST_GUILESS_MAIN(TestSceneFile)
#include "tst_scenefile.moc"
