// Golden state hashes: every built-in preset, simulated for 300 frames, must end in exactly
// the state pinned below (Simulation::stateHash over positions, velocities, topology and
// time), as Box2D pins its determinism test. Any change to results then shows up here and
// is deliberate and reviewed.
//
// After a deliberate change to the physics or to a preset, print the new table with
//     DRAPE_PRINT_GOLDEN=1 ./build/tests/tst_goldenstate
// and paste it over kGolden below (the test then passes without checking).
#include "sanitizers.h"
#include "scene/presets.h"
#include "scene/scenefile.h"

#include <QtTest>

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <map>
#include <string>

using namespace drape;

namespace {

constexpr int kFrames = 300;

// The sanitizer builds look for memory and threading errors, not for changed results (the
// normal build checks every preset): one preset per solver keeps the run within QtTest's
// five-minute limit now that the bending presets cost several times a frame without it.
constexpr bool kSanitized = testing::kSanitizedBuild;
const char *const kSanitizerPresets[] = { "flag", "spring-fabric", "tearable-net" };

const std::map<std::string, std::uint64_t> kGolden = {
    // GOLDEN TABLE BEGIN
    { "banner-tear", 0x6c0f1f8fc9ba4edbull }, { "curtain", 0xd652b35722bc83e9ull },
    { "flag", 0xfed8b98ce5bfbcc1ull }, { "hammock", 0x7fb2f57ebc5fbc13ull },
    { "spring-fabric", 0x314ddce351d738c6ull }, { "tablecloth", 0xaeefe8adb2a7d727ull },
    { "tearable-net", 0x59e014066ac0a0e7ull }, { "threejs-cloth", 0xfe2e22c05f723b34ull },
    // GOLDEN TABLE END
};

} // namespace

class TestGoldenState : public QObject {
    Q_OBJECT
private slots:
    void everyPresetAfter300Frames();
};

void TestGoldenState::everyPresetAfter300Frames()
{
    const bool print = qEnvironmentVariableIsSet("DRAPE_PRINT_GOLDEN");
    std::string table;
    for (const PresetDesc &p : presetList()) {
        if (kSanitized && !print
            && std::find(std::begin(kSanitizerPresets), std::end(kSanitizerPresets), p.id)
                == std::end(kSanitizerPresets))
            continue;
        const SceneLoadResult loaded = loadPreset(p.id);
        QVERIFY2(loaded.ok(), loaded.error.c_str());
        Simulation sim = buildSimulation(*loaded.scene);
        sim.run(kFrames);
        const std::uint64_t hash = sim.stateHash();
        char line[160];
        std::snprintf(line, sizeof line, "    { \"%s\", 0x%016" PRIx64 "ull },%s\n", p.id.c_str(), hash,
            sim.status().blownUp ? " // blew up" : "");
        table += line;
        if (print)
            continue;
        const auto it = kGolden.find(p.id);
        QVERIFY2(it != kGolden.end(),
            qPrintable(QStringLiteral("no golden hash for preset %1; regenerate the table "
                                      "(see the top of this file)")
                           .arg(QString::fromStdString(p.id))));
        QVERIFY2(it->second == hash,
            qPrintable(QStringLiteral("preset %1 after %2 frames: state hash %3, pinned %4; if the change is "
                                      "deliberate, regenerate the table (see the top of this file)")
                           .arg(QString::fromStdString(p.id))
                           .arg(kFrames)
                           .arg(hash, 16, 16, QChar('0'))
                           .arg(it->second, 16, 16, QChar('0'))));
    }
    if (print)
        std::printf("%s", table.c_str());
    QCOMPARE(kGolden.size() == 0 && !print, false);
}

QTEST_APPLESS_MAIN(TestGoldenState)
#include "tst_goldenstate.moc"
