// Hostile and broken scene files (issue "no crash, no runaway, no injection, nothing left
// behind"): each test below reproduces one way a shared scene file could crash Drape, make it
// allocate without bound, inject text into an export or the terminal, or leave files behind,
// and checks the guarded behaviour.
#include "base/atomicfile.h"
#include "base/outputcheck.h"
#include "base/printable.h"
#include "scene/objexport.h"
#include "scene/presets.h"
#include "scene/scenebudget.h"
#include "scene/scenefile.h"

#include <QtTest>

#include <filesystem>
#include <fstream>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>
#include <utime.h>

using namespace drape;
namespace fs = std::filesystem;

class TestHostileInput : public QObject {
    Q_OBJECT
private slots:
    void deepNestingIsRefusedWithPosition_data();
    void deepNestingIsRefusedWithPosition();
    void sceneBudgetRefusesMemoryBombs();
    void sceneBudgetCanBeRaised();
    void objNameCannotInjectStatements();
    void messagesEscapeControlCharacters();
    void longValuesAreQuotedShort();
    void simulatedFarFallSavesAndReloads();
    void staleTemporariesAreRemovedOnNextSave();
    void outputChecksBeforeRunning();
    void nulBytesAreRefused();
    void duplicateKeys();
    void springAdviceStaysInRange();
    void nonRegularAndHugeFilesAreRefused();
    void notJsonSaysSoInWords();
    void sceneCapsRecordFrames();
};

// A valid header followed by `body` (JSON members, may be empty).
static std::string scene(const std::string &body)
{
    std::string s = R"({"format": "drape-scene", "version": 1)";
    if (!body.empty())
        s += ", " + body;
    return s + "}";
}

static bool hasControl(const std::string &s)
{
    for (unsigned char c : s) {
        if (c < 0x20 || c == 0x7f)
            return true;
    }
    return s.find("\xc2\x9b") != std::string::npos; // C1 CSI
}

void TestHostileInput::deepNestingIsRefusedWithPosition_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QString>("where");
    const std::string deep(80000, '[');
    QTest::newRow("top level") << QByteArray::fromStdString(deep) << "1:33:";
    // A deep value where a string is expected: the message used to serialise it whole.
    QTest::newRow("as a name") << QByteArray::fromStdString(
        scene("\"name\": " + deep + std::string(80000, ']')))
                               << "1:";
    QTest::newRow("30 levels is still read")
        << QByteArray::fromStdString(scene("\"name\": " + std::string(30, '[') + std::string(30, ']')))
        << "/name";
}

void TestHostileInput::deepNestingIsRefusedWithPosition()
{
    QFETCH(QByteArray, text);
    QFETCH(QString, where);
    const SceneLoadResult r = parseScene(text.toStdString(), "deep.json");
    QVERIFY(!r.ok());
    QVERIFY2(r.error.starts_with("deep.json: "), r.error.c_str());
    QVERIFY2(QString::fromStdString(r.error).contains(where), r.error.c_str());
    QVERIFY2(r.error.size() < 300, r.error.c_str());
}

void TestHostileInput::sceneBudgetRefusesMemoryBombs()
{
    // 100 cloths of 1024 × 1024: every grid is in range, the whole is 104 M particles.
    std::string cloths;
    for (int i = 0; i < 100; ++i)
        cloths += std::string(i ? "," : "") + R"({"grid": {"across": 1024, "down": 1024}})";
    const std::string text = scene("\"cloths\": [" + cloths + "]");
    QVERIFY(text.size() < 5000);
    const SceneLoadResult r = parseScene(text, "bomb.json");
    QVERIFY(!r.ok());
    QVERIFY(r.overBudget.has_value());
    QCOMPARE(r.overBudget->particles, std::uint64_t(100) * 1024 * 1024);
    for (const char *part : { "bomb.json: /cloths:", "104,857,600 particles", "budget is 262,144 particles",
             "constraints", "triangles", "GB" })
        QVERIFY2(r.error.find(part) != std::string::npos, r.error.c_str());
    // The totals match what the builders make.
    const Scene one = *parseScene(scene(R"("cloths": [{"grid": {"across": 7, "down": 5}}])"), "").scene;
    const Cloth built = buildCloth(one.cloths[0]);
    const SceneTotals t = clothTotals(one.cloths[0]);
    QCOMPARE(t.particles, std::uint64_t(built.particles.size()));
    QVERIFY(t.constraints >= built.constraints.size());
    QCOMPARE(t.triangles, std::uint64_t(built.triangles.size()));
    // Every built-in preset is well inside the default budget.
    for (const PresetDesc &p : presetList())
        QVERIFY(checkBudget(sceneTotals(*loadPreset(p.id).scene), SceneBudget {}).empty());
}

void TestHostileInput::sceneBudgetCanBeRaised()
{
    const std::string text = scene(R"("cloths": [{"grid": {"across": 600, "down": 600}}])");
    QVERIFY(!parseScene(text, "big.json").ok());
    QVERIFY(parseScene(text, "big.json", SceneBudget::forParticles(400000)).ok());
    QVERIFY(parseScene(text, "big.json", SceneBudget::unlimited()).ok());
}

void TestHostileInput::objNameCannotInjectStatements()
{
    Scene s = *parseScene(scene(R"("cloths": [{"name": "a\nmtllib ../../etc/evil.mtl\nv 9 9 9\r\no b",
        "grid": {"across": 3, "down": 3}}])"),
        "")
                   .scene;
    const Simulation sim = buildSimulation(s);
    const std::string obj = objFromSimulation(sim);
    int vertices = 0;
    std::istringstream lines(obj);
    for (std::string line; std::getline(lines, line);) {
        QVERIFY2(!line.starts_with("mtllib"), obj.c_str());
        QVERIFY(line.find('\r') == std::string::npos);
        vertices += line.starts_with("v ");
    }
    QCOMPARE(vertices, 9);
    QVERIFY(obj.find("o a_mtllib ../../etc/evil.mtl_v 9 9 9__o b\n") != std::string::npos);
}

void TestHostileInput::messagesEscapeControlCharacters()
{
    // An unknown key (warning) and a material name (error) with terminal escape sequences.
    const SceneLoadResult w = parseScene(scene("\"\\u001b]0;owned\\u0007\\u001b[2J\": 1"), "esc.json");
    QVERIFY(w.ok());
    QCOMPARE(w.warnings.size(), std::size_t(1));
    QVERIFY2(!hasControl(w.warnings[0]), w.warnings[0].c_str());
    QVERIFY2(w.warnings[0].find("\\x1b]0;owned\\x07") != std::string::npos, w.warnings[0].c_str());
    const SceneLoadResult e
        = parseScene(scene(R"("cloths": [{"material": "\u001b[31mfake error\u009b\r\nok"}])"), "esc.json");
    QVERIFY(!e.ok());
    QVERIFY2(!hasControl(e.error), e.error.c_str());
    QVERIFY2(e.error.find("unknown material \"\\x1b[31mfake error\\u009b\\r\\nok\"") != std::string::npos,
        e.error.c_str());
    QCOMPARE(printable("caf\xc3\xa9 \xff"), std::string("caf\xc3\xa9 \\xff"));
    QCOMPARE(singleLine("a\nb\tc\xc2\x9b"), std::string("a_b_c_"));
}

void TestHostileInput::longValuesAreQuotedShort()
{
    const std::string digits(100000, '7');
    for (const std::string &text : { scene("\"world\": {\"airDamping\": " + digits + "}"),
             scene("\"world\": {\"airDamping\": 0." + digits + "e9}"), scene("\"name\": " + digits),
             scene("\"cloths\": [{\"material\": \"" + digits + "\"}]"), scene("\"" + digits + "\": 1") }) {
        const SceneLoadResult r = parseScene(text, "long.json");
        const std::string &message = r.ok() ? r.warnings.at(0) : r.error;
        QVERIFY2(message.size() < 400, message.substr(0, 400).c_str());
        QVERIFY2(message.starts_with("long.json: "), message.substr(0, 400).c_str());
    }
}

void TestHostileInput::simulatedFarFallSavesAndReloads()
{
    // Free fall at the strongest gravity and the lowest frame rate: far past ±1e5 m.
    Scene s = *parseScene(
        scene(R"("world": {"gravity": [0, -100, 0]}, "solver": {"frameRate": 1, "maxSpeed": 1e6},
        "cloths": [{"grid": {"across": 3, "down": 3}}])"),
        "")
                   .scene;
    Simulation sim = buildSimulation(s);
    sim.run(240);
    QVERIFY(!sim.status().blownUp);
    QVERIFY2(sim.cloths[0].particles.position[4].y < -1e5f,
        std::to_string(sim.cloths[0].particles.position[4].y).c_str());
    const Scene saved = snapshotScene(s, sim, true);
    const std::string text = serializeScene(saved, SaveOptions { true });
    const SceneLoadResult r = parseScene(text, "fall.json");
    QVERIFY2(r.ok(), r.error.c_str());
    QCOMPARE(r.scene->state->cloths[0].position, saved.state->cloths[0].position);
    QCOMPARE(serializeScene(*r.scene, SaveOptions { true }), text);
    // And through the checked, atomic save.
    QTemporaryDir dir;
    std::string error;
    QVERIFY2(saveSceneFile(dir.filePath("fall.json").toStdString(), saved, SaveOptions { true }, &error),
        error.c_str());
}

void TestHostileInput::staleTemporariesAreRemovedOnNextSave()
{
    QTemporaryDir dir;
    const fs::path d = dir.path().toStdString();
    // A temporary of a killed save: its process is gone (a child that already exited).
    const pid_t child = ::fork();
    if (child == 0)
        ::_exit(0);
    ::waitpid(child, nullptr, 0);
    const fs::path dead = d / (".scene.json.drape-" + std::to_string(child) + "-a1B2c3");
    const fs::path live = d / (".scene.json.drape-" + std::to_string(::getpid()) + "-x9Y8z7");
    const fs::path foreign = d / ".scene.json.Qx81aZ"; // someone else's (rsync names like this)
    const fs::path ancient = d / (".other.obj.drape-" + std::to_string(::getpid()) + "-zzzzzz");
    for (const fs::path &p : { dead, live, foreign, ancient })
        std::ofstream(p) << "partial";
    const auto age = [](const fs::path &p, long seconds) {
        struct utimbuf t { };
        t.actime = t.modtime = ::time(nullptr) - seconds;
        ::utime(p.c_str(), &t);
    };
    age(dead, 10);
    age(foreign, 100000);
    age(ancient, 7200); // an hour without a write: stale even though the PID runs (reused)
    std::string error;
    QVERIFY2(writeFileAtomically((d / "scene.json").string(), "{}", &error), error.c_str());
    QVERIFY(!fs::exists(dead));
    QVERIFY(!fs::exists(ancient));
    QVERIFY(fs::exists(live)); // a save of a running process
    QVERIFY(fs::exists(foreign));
    QVERIFY(fs::exists(d / "scene.json"));
    int entries = 0;
    for ([[maybe_unused]] const auto &e : fs::directory_iterator(d))
        ++entries;
    QCOMPARE(entries, 3);
}

void TestHostileInput::outputChecksBeforeRunning()
{
    QTemporaryDir dir;
    const std::string d = dir.path().toStdString();
    QCOMPARE(checkOutputFile(d + "/a.json"), std::string());
    QCOMPARE(checkOutputFolder(d + "/frames/more"), std::string());
    QVERIFY(!fs::exists(d + "/frames")); // checking creates nothing
    const std::string missing = checkOutputFile(d + "/nope/a.json");
    QVERIFY2(missing.find("does not exist") != std::string::npos, missing.c_str());
    QVERIFY(checkOutputFile(d).find("is a folder") != std::string::npos || !checkOutputFile(d).empty());
    // A folder no one can create files in (proc refuses even root, unlike chmod 0555).
    const std::string proc = checkOutputFile("/proc/drape-out.json");
    QVERIFY2(proc.find("cannot create files in /proc") != std::string::npos, proc.c_str());
    QVERIFY(!checkOutputFolder("/proc/drape-frames").empty());
    // More than the disk holds.
    const std::string full = checkOutputFile(d + "/a.json", std::uint64_t(1) << 62);
    QVERIFY2(full.find("needs about 4.6 EB but only") != std::string::npos, full.c_str());
    QVERIFY(!checkOutputFolder(d + "/frames", std::uint64_t(1) << 62).empty());
    QVERIFY(freeBytesAt(d) > 0);
}

void TestHostileInput::nulBytesAreRefused()
{
    std::string text = scene("\"name\": \"a\"");
    text += std::string("\0{\"garbage\": true}", 18);
    const SceneLoadResult r = parseScene(text, "nul.json");
    QVERIFY(!r.ok());
    QVERIFY2(r.error.find("nul.json: 1:") != std::string::npos && r.error.find("NUL") != std::string::npos,
        r.error.c_str());
    // Trailing content without a NUL was already refused; it stays so.
    QVERIFY(!parseScene(scene("") + " {}", "t.json").ok());
}

void TestHostileInput::duplicateKeys()
{
    const SceneLoadResult v
        = parseScene(R"({"format": "drape-scene", "version": 2, "version": 1})", "d.json");
    QVERIFY(!v.ok());
    QVERIFY2(v.error.find("d.json: /version: given twice") != std::string::npos, v.error.c_str());
    const SceneLoadResult f
        = parseScene(R"({"format": "drape-scene", "version": 1, "format": "drape-scene"})", "d.json");
    QVERIFY2(f.error.find("/format: given twice") != std::string::npos, f.error.c_str());
    // Escapes decode before comparing: "\u0076ersion" is "version".
    QVERIFY(!parseScene(R"({"format": "drape-scene", "version": 1, "\u0076ersion": 1})", "d.json").ok());
    const SceneLoadResult w = parseScene(
        scene(
            R"("cloths": [{}, {"grid": {"across": 4, "across": 5}}], "world": {"airDamping": 1, "airDamping": 2})"),
        "d.json");
    QVERIFY2(w.ok(), w.error.c_str());
    QCOMPARE(w.scene->cloths[1].grid.across, 5);
    QCOMPARE(w.warnings.size(), std::size_t(2));
    QCOMPARE(
        w.warnings[0], std::string("d.json: /cloths/1/grid/across: duplicate key, the last value is used"));
    QCOMPARE(w.warnings[1], std::string("d.json: /world/airDamping: duplicate key, the last value is used"));
}

void TestHostileInput::springAdviceStaysInRange()
{
    // A stiff spring between two very light particles: ω·dt ≈ 10¹⁶ times the limit.
    const std::string cloth = R"("cloths": [{"source": "explicit", "explicit": {"rest": [[0,0,0],[1,0,0]],
        "mass": [1e-12, 1e-12], "constraints": [[0, 1, 1, 1e-30, 0, null, "structural"]]}}])";
    Scene s = *parseScene(scene(R"("solver": {"kind": "springs"}, )" + cloth), "").scene;
    Simulation sim = buildSimulation(s);
    sim.step();
    QVERIFY(sim.status().blownUp);
    const std::string &m = sim.status().message;
    QVERIFY2(m.find("-2147483648") == std::string::npos, m.c_str());
    QVERIFY2(m.find("no solver.substeps up to 1000 can make it stable") != std::string::npos, m.c_str());
    // A moderately stiff scene gets a reachable number.
    Scene t = *parseScene(scene(R"("solver": {"kind": "springs", "substeps": 1}, "cloths": [{"material":
        {"stretchStiffness": 100000}, "grid": {"across": 8, "down": 8}}])"),
        "")
                   .scene;
    Simulation tsim = buildSimulation(t);
    tsim.step();
    QVERIFY(tsim.status().blownUp);
    const std::string &tm = tsim.status().message;
    const std::size_t at = tm.find("raise solver.substeps to at least ");
    QVERIFY2(at != std::string::npos, tm.c_str());
    const int needed = std::stoi(tm.substr(at + 34));
    QVERIFY(needed > 1 && needed <= 1000);
}

void TestHostileInput::nonRegularAndHugeFilesAreRefused()
{
    const SceneLoadResult z = loadSceneFile("/dev/zero");
    QVERIFY(!z.ok());
    QCOMPARE(z.error, std::string("cannot read /dev/zero: not a regular file"));
    QVERIFY(loadSceneFile("/tmp").error.find("not a regular file") != std::string::npos
        || loadSceneFile("/tmp").error.find("Is a directory") != std::string::npos);
    QTemporaryDir dir;
    const std::string big = dir.filePath("big.json").toStdString();
    {
        std::ofstream(big) << scene("");
    }
    fs::resize_file(big, kMaxReadBytes + 1); // sparse: costs no disk
    const SceneLoadResult b = loadSceneFile(big);
    QVERIFY2(b.error.find("larger than the limit of 64 MB") != std::string::npos, b.error.c_str());
}

void TestHostileInput::notJsonSaysSoInWords()
{
    const SceneLoadResult r = parseScene("\n  \x89PNG\r\n\x1a\n", "picture.png");
    QCOMPARE(r.error, std::string("not a Drape scene (not JSON): picture.png, line 2, column 3"));
    const SceneLoadResult t = parseScene("hello world", "notes.txt");
    QCOMPARE(t.error, std::string("not a Drape scene (not JSON): notes.txt, line 1, column 1"));
}

void TestHostileInput::sceneCapsRecordFrames()
{
    const SceneLoadResult r = parseScene(scene(R"("record": {"frames": 10000000})"), "r.json");
    QVERIFY(!r.ok());
    QVERIFY2(r.error.find("/record/frames: 10000000 is out of range, allowed 0..100000") != std::string::npos,
        r.error.c_str());
    QVERIFY(parseScene(scene(R"("record": {"frames": 100000})"), "r.json").ok());
}

QTEST_APPLESS_MAIN(TestHostileInput)
#include "tst_hostileinput.moc"
