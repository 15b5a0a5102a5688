// Malformed scene files: each class of mistake gives an error naming the file and the place
// (line:column or JSON path) and what is wrong, and never a half-loaded scene or a crash.
// Unknown keys are warnings only.
#include "scene/presets.h"
#include "scene/scenefile.h"

#include <QtTest>

#include <fstream>
#include <random>

using namespace drape;

class TestSceneValidation : public QObject {
    Q_OBJECT
private slots:
    void brokenInput_data();
    void brokenInput();
    void warningsOnly_data();
    void warningsOnly();
    void brokenFiles_data();
    void brokenFiles();
    void truncatedAtEveryPlaceNeverCrashes();
    void corruptedBytesNeverCrash();
};

// A valid header followed by `body` (JSON members, may be empty).
static QByteArray scene(const char *body)
{
    QByteArray s = R"({"format": "drape-scene", "version": 1)";
    if (*body)
        s += QByteArray(", ") + body;
    return s + "}";
}

static const char *kExplicit3
    = R"("cloths": [{"source": "explicit", "explicit": {"rest": [[0,0,0],[1,0,0],[0,1,0]], "mass": [0.1, 0.1, 0.1])";

void TestSceneValidation::brokenInput_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QStringList>("fragments"); // each must appear in the error message

    QTest::newRow("empty file") << QByteArray("") << QStringList { "1:1", "empty" };
    QTest::newRow("whitespace only") << QByteArray("  \n ") << QStringList { "empty" };
    QTest::newRow("missing comma (line:col)")
        << QByteArray("{\n  \"format\": \"drape-scene\",\n  \"version\": 1\n  \"name\": \"x\"\n}")
        << QStringList { "test.json: 4:3:", "syntax error" };
    QTest::newRow("NaN literal") << QByteArray("{\"format\": \"drape-scene\",\n \"version\": NaN}")
                                 << QStringList { "test.json: 2:13:", "syntax error" };
    QTest::newRow("number overflow 1e400")
        << QByteArray("{\"format\": \"drape-scene\", \"version\": 1,\n\"world\": {\"airDamping\": 1e400}}")
        << QStringList { "2:25", "1e400" };
    QTest::newRow("top level not an object")
        << QByteArray("[1, 2]") << QStringList { "expected a JSON object at the top level" };
    QTest::newRow("missing format") << QByteArray(R"({"version": 1})")
                                    << QStringList { "/format", "not a Drape scene" };
    QTest::newRow("other format") << QByteArray(R"({"format": "blender", "version": 1})")
                                  << QStringList { "/format", "\"blender\"" };
    QTest::newRow("missing version") << QByteArray(R"({"format": "drape-scene"})")
                                     << QStringList { "/version", "missing" };
    QTest::newRow("version as string") << QByteArray(R"({"format": "drape-scene", "version": "1"})")
                                       << QStringList { "/version", "expected an integer", "a string \"1\"" };
    QTest::newRow("version as float") << QByteArray(R"({"format": "drape-scene", "version": 1.0})")
                                      << QStringList { "/version", "expected an integer" };
    QTest::newRow("newer version")
        << QByteArray(R"({"format": "drape-scene", "version": 3})")
        << QStringList { "written by a newer Drape (format version 3); this build reads up to version 2" };
    QTest::newRow("version 0") << QByteArray(R"({"format": "drape-scene", "version": 0})")
                               << QStringList { "/version", "out of range" };
    QTest::newRow("units not SI") << scene(R"("units": {"length": "cm"})")
                                  << QStringList { "/units/length", "only \"m\"" };
    QTest::newRow("wrong type: string for integer")
        << scene(R"("solver": {"substeps": "ten"})")
        << QStringList { "/solver/substeps", "expected an integer", "\"ten\"" };
    QTest::newRow("wrong type: number for bool")
        << scene(R"("solver": {"selfCollision": 1})")
        << QStringList { "/solver/selfCollision", "expected true or false" };
    QTest::newRow("wrong type: object for array")
        << scene(R"("cloths": {})") << QStringList { "/cloths", "expected an array, got an object" };
    QTest::newRow("out of range (table)")
        << scene(R"("solver": {"substeps": 0})")
        << QStringList { "/solver/substeps", "0 is out of range, allowed 1..1000" };
    QTest::newRow("out of range with unit")
        << scene(R"("world": {"gravity": [0, 500, 0]})")
        << QStringList { "/world/gravity/1", "500 is out of range, allowed -100..100 m/s²" };
    QTest::newRow("too large for float") << scene(R"("world": {"gravity": [0, 1e39, 0]})")
                                         << QStringList { "/world/gravity/1", "1e+39", "too large" };
    QTest::newRow("vector too short") << scene(R"("world": {"gravity": [0, -9.81]})")
                                      << QStringList { "/world/gravity", "expected an array of 3 numbers" };
    QTest::newRow("vector empty") << scene(R"("world": {"gravity": []})")
                                  << QStringList { "/world/gravity", "an empty array" };
    QTest::newRow("unknown enum") << scene(R"("solver": {"kind": "rk4"})")
                                  << QStringList { "/solver/kind",
                                         "\"rk4\" is not one of \"xpbd\", \"verlet\", \"springs\"" };
    QTest::newRow("negative stiffness")
        << scene(R"("cloths": [{"material": {"stretchStiffness": -5}}])")
        << QStringList { "/cloths/0/material/stretchStiffness", "-5 is out of range", "N/m" };
    QTest::newRow("unknown material name")
        << scene(R"("cloths": [{"material": "tweed"}])")
        << QStringList { "/cloths/0/material", "unknown material \"tweed\"" };
    QTest::newRow("pin out of range")
        << scene(R"("cloths": [{"grid": {"across": 20, "down": 20}, "pins": [0, 1, 2, 900]}])")
        << QStringList { "test.json: /cloths/0/pins/3: particle 900 out of range, cloth has 400" };
    QTest::newRow("negative pin") << scene(R"("cloths": [{"pins": [-1]}])")
                                  << QStringList { "/cloths/0/pins/0", "start at 0" };
    QTest::newRow("pin not an integer")
        << scene(R"("cloths": [{"pins": [1.5]}])") << QStringList { "/cloths/0/pins/0", "an integer" };
    QTest::newRow("duplicate pin") << scene(R"("cloths": [{"pins": [3, 4, 3]}])")
                                   << QStringList { "/cloths/0/pins/2", "pinned twice" };
    QTest::newRow("grid too small") << scene(R"("cloths": [{"grid": {"across": 1}}])")
                                    << QStringList { "/cloths/0/grid/across",
                                           "1 is out of range, allowed 2..1024" };
    QTest::newRow("rope without direction")
        << scene(R"("cloths": [{"source": "rope", "rope": {"direction": [0, 0, 0]}}])")
        << QStringList { "/cloths/0/rope/direction", "must not be [0, 0, 0]" };
    QTest::newRow("explicit missing") << scene(R"("cloths": [{"source": "explicit"}])")
                                      << QStringList { "/cloths/0/explicit", "missing (required)" };
    QTest::newRow("explicit empty rest")
        << scene(R"("cloths": [{"source": "explicit", "explicit": {"rest": [], "mass": []}}])")
        << QStringList { "/cloths/0/explicit/rest", "empty" };
    QTest::newRow("negative mass") << scene(
        R"("cloths": [{"source": "explicit", "explicit": {"rest": [[0,0,0],[1,0,0]], "mass": [0.1, -0.1]}}])")
                                   << QStringList { "/cloths/0/explicit/mass/1", "-0.1", "not positive" };
    QTest::newRow("zero mass") << scene(
        R"("cloths": [{"source": "explicit", "explicit": {"rest": [[0,0,0]], "mass": [0]}}])")
                               << QStringList { "/cloths/0/explicit/mass/0", "not positive" };
    QTest::newRow("mass count") << scene(
        R"("cloths": [{"source": "explicit", "explicit": {"rest": [[0,0,0],[1,0,0],[2,0,0]], "mass": [1, 1]}}])")
                                << QStringList { "/cloths/0/explicit/mass", "2 masses for 3 particles" };
    QTest::newRow("kinds count") << scene((std::string(kExplicit3) + R"(, "kinds": ["static"]}}])").c_str())
                                 << QStringList { "/cloths/0/explicit/kinds", "1 kinds for 3 particles" };
    QTest::newRow("constraint index out of range") << scene(
        (std::string(kExplicit3) + R"(, "constraints": [[0, 5, 1, 0, 0, null, "structural"]]}}])").c_str())
                                                   << QStringList { "/cloths/0/explicit/constraints/0/1",
                                                          "particle 5 out of range, cloth has 3" };
    QTest::newRow("duplicate constraint") << scene((std::string(kExplicit3)
        + R"(, "constraints": [[0, 1, 1, 0, 0, null, "structural"], [1, 2, 1, 0, 0, null, "shear"], [1, 0, 1, 0, 0, null, "user"]]}}])")
                                                       .c_str())
                                          << QStringList { "/cloths/0/explicit/constraints/2",
                                                 "duplicate constraint", "constraint 0" };
    QTest::newRow("constraint to itself") << scene(
        (std::string(kExplicit3) + R"(, "constraints": [[1, 1, 1, 0, 0, null, "structural"]]}}])").c_str())
                                          << QStringList { "/cloths/0/explicit/constraints/0", "to itself" };
    QTest::newRow("constraint record too short")
        << scene((std::string(kExplicit3) + R"(, "constraints": [[0, 1, 1]]}}])").c_str())
        << QStringList { "/cloths/0/explicit/constraints/0", "expected [a, b, restLength" };
    QTest::newRow("negative compliance") << scene(
        (std::string(kExplicit3) + R"(, "constraints": [[0, 1, 1, -1, 0, null, "structural"]]}}])").c_str())
                                         << QStringList { "/cloths/0/explicit/constraints/0/3",
                                                "out of range" };
    QTest::newRow("bad constraint kind")
        << scene((std::string(kExplicit3) + R"(, "constraints": [[0, 1, 1, 0, 0, null, "glue"]]}}])").c_str())
        << QStringList { "/cloths/0/explicit/constraints/0/6", "\"glue\"" };
    QTest::newRow("triangle index out of range")
        << scene((std::string(kExplicit3) + R"(, "triangles": [[0, 1, 3]]}}])").c_str())
        << QStringList { "/cloths/0/explicit/triangles/0/2", "particle 3 out of range, cloth has 3" };
    QTest::newRow("degenerate triangle")
        << scene((std::string(kExplicit3) + R"(, "triangles": [[0, 1, 1]]}}])").c_str())
        << QStringList { "/cloths/0/explicit/triangles/0", "degenerate" };
    QTest::newRow("plane without normal") << scene(R"("colliders": [{"kind": "plane", "normal": [0, 0, 0]}])")
                                          << QStringList { "/colliders/0/normal", "must not be [0, 0, 0]" };
    QTest::newRow("restitution above 1")
        << scene(R"("colliders": [{"restitution": 1.5}])")
        << QStringList { "/colliders/0/restitution", "1.5 is out of range, allowed 0..1" };
    QTest::newRow("camera field of view")
        << scene(R"("camera": {"fovY": 0})") << QStringList { "/camera/fovY", "out of range" };
    QTest::newRow("state for missing cloth")
        << scene(R"("state": {"time": 0.5, "frame": 30, "cloths": [{}], "colliderCenters": []})")
        << QStringList { "/state/cloths", "1 cloth states for 0 cloths" };
    QTest::newRow("state positions count") << scene((std::string(kExplicit3)
        + R"(}}], "state": {"time": 0.5, "frame": 30, "cloths": [{"position": [[0,0,0]], "previous": [], "velocity": [], "kinds": []}], "colliderCenters": []})")
                                                        .c_str())
                                           << QStringList { "/state/cloths/0/position",
                                                  "1 entries for 3 particles" };
    QTest::newRow("state negative time")
        << scene(R"("state": {"time": -1, "frame": 0, "cloths": [], "colliderCenters": []})")
        << QStringList { "/state/time", "out of range" };
}

void TestSceneValidation::brokenInput()
{
    QFETCH(QByteArray, text);
    QFETCH(QStringList, fragments);
    const SceneLoadResult r
        = parseScene(std::string_view(text.constData(), std::size_t(text.size())), "test.json");
    QVERIFY2(!r.ok(), "a broken file loaded");
    QVERIFY(!r.scene.has_value());
    const QString error = QString::fromStdString(r.error);
    QVERIFY2(error.startsWith("test.json: "), qPrintable(error));
    for (const QString &f : fragments)
        QVERIFY2(error.contains(f), qPrintable(QString("expected \"%1\" in: %2").arg(f, error)));
}

void TestSceneValidation::warningsOnly_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QStringList>("warnings");
    QTest::newRow("unknown top-level key")
        << scene(R"("author": "me")") << QStringList { "/author: unknown key, ignored" };
    QTest::newRow("misspelt nested key")
        << scene(R"("world": {"wind": {"speeed": 3}})") << QStringList { "/world/wind/speeed: unknown key" };
    QTest::newRow("block of another source")
        << scene(R"("cloths": [{"source": "grid", "rope": {"count": 5}}])")
        << QStringList { "/cloths/0/rope: ignored, the cloth's source is \"grid\"" };
    QTest::newRow("split-vertex tearing is valid")
        << scene(R"("cloths": [{"tearMode": "split-vertex"}])") << QStringList {};
}

void TestSceneValidation::warningsOnly()
{
    QFETCH(QByteArray, text);
    QFETCH(QStringList, warnings);
    const SceneLoadResult r
        = parseScene(std::string_view(text.constData(), std::size_t(text.size())), "test.json");
    QVERIFY2(r.ok(), r.error.c_str());
    QCOMPARE(r.warnings.size(), std::size_t(warnings.size()));
    for (std::size_t i = 0; i < r.warnings.size(); ++i) {
        const QString w = QString::fromStdString(r.warnings[i]);
        QVERIFY2(w.startsWith("test.json: ") && w.contains(warnings[int(i)]), qPrintable(w));
    }
}

void TestSceneValidation::brokenFiles_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QStringList>("fragments");
    QTest::newRow("truncated") << "truncated.json" << QStringList { "end of input" };
    QTest::newRow("trailing comma") << "trailing-comma.json" << QStringList { "7:3:", "syntax error" };
    QTest::newRow("pin out of range")
        << "pin-out-of-range.json"
        << QStringList { "/cloths/0/pins/3: particle 900 out of range, cloth has 400" };
}

void TestSceneValidation::brokenFiles()
{
    QFETCH(QString, file);
    QFETCH(QStringList, fragments);
    const std::string path = (QStringLiteral(DRAPE_TEST_DATA "/broken/") + file).toStdString();
    const SceneLoadResult r = loadSceneFile(path);
    QVERIFY(!r.ok());
    const QString error = QString::fromStdString(r.error);
    QVERIFY2(error.startsWith(QString::fromStdString(path) + ": "), qPrintable(error));
    for (const QString &f : fragments)
        QVERIFY2(error.contains(f), qPrintable(QString("expected \"%1\" in: %2").arg(f, error)));
    if (file == "truncated.json") {
        // The error is at the very end of the file: its last line, one past its last column.
        std::ifstream in(path);
        const std::string text((std::istreambuf_iterator<char>(in)), {});
        const int line = int(std::count(text.begin(), text.end(), '\n')) + 1;
        const int column = int(text.size() - text.rfind('\n'));
        QVERIFY2(error.contains(QString(": %1:%2:").arg(line).arg(column)), qPrintable(error));
    }
}

void TestSceneValidation::truncatedAtEveryPlaceNeverCrashes()
{
    const std::string text = serializeScene(*loadPreset("hammock").scene);
    int failures = 0;
    for (std::size_t cut = 0; cut < text.size(); cut += 7) {
        const SceneLoadResult r = parseScene(std::string_view(text).substr(0, cut), "cut.json");
        QVERIFY(r.ok() != !r.error.empty());
        failures += r.ok() ? 0 : 1;
    }
    QCOMPARE(failures, int((text.size() + 6) / 7)); // every proper prefix is incomplete JSON
}

void TestSceneValidation::corruptedBytesNeverCrash()
{
    const std::string text = serializeScene(*loadPreset("tearable-net").scene);
    std::mt19937 rng(7);
    std::uniform_int_distribution<std::size_t> where(0, text.size() - 1);
    std::uniform_int_distribution<int> byte(32, 126);
    for (int i = 0; i < 300; ++i) {
        std::string bad = text;
        for (int k = 0; k < 3; ++k)
            bad[where(rng)] = char(byte(rng));
        const SceneLoadResult r = parseScene(bad, "noise.json");
        // Either it still is a valid scene, or it is rejected with a message; never both.
        QVERIFY(r.ok() == r.error.empty());
        if (r.ok()) {
            const Simulation sim = buildSimulation(*r.scene); // a validated scene always builds
            QCOMPARE(sim.cloths.size(), r.scene->cloths.size());
        }
    }
}

QTEST_GUILESS_MAIN(TestSceneValidation)
#include "tst_scenevalidation.moc"
