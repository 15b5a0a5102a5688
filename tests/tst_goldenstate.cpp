// Golden state hashes: every built-in preset, simulated for 300 frames, must end in exactly
// the state pinned below (Simulation::stateHash over positions, velocities, topology and
// time), as Box2D pins its determinism test. Any change to results then shows up here and
// is deliberate and reviewed. Each vector kernel path the CPU runs (xpbdkernel.h: AVX-512,
// AVX2) must end in the same state, so a machine with AVX-512 checks the AVX2 path's bits
// too; the portable path runs here where it is the CPU's own (three times the time of a
// vector path; tst_xpbdbatch checks it against the others frame by frame).
//
// After a deliberate change to the physics or to a preset, print the new table with
//     DRAPE_PRINT_GOLDEN=1 ./build/tests/tst_goldenstate
// and paste it over kGolden below (the test then passes without checking).
#include "sanitizers.h"
#include "scene/presets.h"
#include "scene/scenefile.h"
#include "xpbdkernel.h"

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
    { "banner-tear", 0xada0d78d6833abe3ull }, { "curtain", 0x1ee18383ee595e89ull },
    { "flag", 0xafa4fbc56aede2a0ull }, { "hammock", 0xe0e54889ebff9f71ull },
    { "spring-fabric", 0x314ddce351d738c6ull }, { "tablecloth", 0x440c6218aaa0b4caull },
    { "tearable-net", 0x7744fd7b1d5d1e7dull }, { "threejs-cloth", 0xff332fae20f934f1ull },
    // GOLDEN TABLE END
};

} // namespace

class TestGoldenState : public QObject {
    Q_OBJECT
private slots:
    void everyPresetAfter300Frames_data();
    void everyPresetAfter300Frames();
};

void TestGoldenState::everyPresetAfter300Frames_data()
{
    QTest::addColumn<int>("isa");
    QTest::newRow("avx512") << int(detail::KernelIsa::Avx512);
    QTest::newRow("avx2") << int(detail::KernelIsa::Avx2);
    QTest::newRow("portable") << int(detail::KernelIsa::Portable);
}

void TestGoldenState::everyPresetAfter300Frames()
{
    QFETCH(int, isa);
    const int best = int(detail::xpbdKernelIsaOfCpu());
    if (isa > best)
        QSKIP("this CPU does not run these kernels");
    if (isa == int(detail::KernelIsa::Portable) && isa != best)
        QSKIP("the portable kernels are checked here only where they are the CPU's own");
    // The sanitizer builds run the CPU's own path only (their time goes to the memory checks).
    if (kSanitized && isa != best)
        QSKIP("the sanitizer builds check the CPU's own kernels only");
    struct KernelLimit {
        explicit KernelLimit(int isa) { detail::setXpbdKernelLimit(detail::KernelIsa(isa)); }
        ~KernelLimit() { detail::setXpbdKernelLimit(detail::KernelIsa::Avx512); }
    } limit(isa);
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
