// Opt-in soak (DRAPE_SOAK_TESTS=ON): a 256 × 256 sheet (65,536 particles, 390,658
// constraints) played for 10 minutes at 60 Hz (36,000 frames) through the timeline's cache
// with the default 1 GiB budget, the playhead following the run as in playback. The measured
// use must stay within the budget at every frame, and frames the budget dropped must
// re-simulate from the thinned snapshots to the state hash they had when first simulated.
// XPBD with 1 substep instead of 10 keeps the run to minutes; the cache costs the same.
#include "sim/builders.h"
#include "timeline/timeline.h"

#include <QCoreApplication>
#include <QTest>

using namespace drape;

class TestTimelineSoak : public QObject {
    Q_OBJECT
private slots:
    void tenMinutesOf256SquaredStayWithinTheBudget();
};

void TestTimelineSoak::tenMinutesOf256SquaredStayWithinTheBudget()
{
    constexpr int kN = 256;
    constexpr std::uint64_t kFrames = 36000;
    GridSpec g;
    g.across = kN;
    g.down = kN;
    g.origin = { -0.5f, 1.5f, 0.f };
    Simulation sim;
    sim.solver.kind = SolverKind::Xpbd;
    sim.solver.substeps = 1;
    Cloth cloth = makeGrid(g);
    for (int i = 0; i < kN; ++i)
        cloth.particles.setKind(gridIndex(g, i, 0), ParticleKind::Static);
    sim.cloths.push_back(std::move(cloth));

    Timeline timeline(std::make_shared<PlainSource>(sim));
    const std::size_t budget = timeline.settings().budgetBytes;
    std::vector<std::uint64_t> hashes { timeline.cachedFrame(0)->stateHash };
    std::size_t peak = 0;
    for (std::uint64_t f = 1; f <= kFrames; ++f) {
        timeline.setPlayhead(f);
        hashes.push_back(timeline.frame(f)->stateHash);
        const TimelineStatus s = timeline.status();
        peak = std::max(peak, s.bytes);
        if (s.bytes > budget)
            QFAIL(
                qPrintable(QStringLiteral("frame %1: %2 bytes > budget %3").arg(f).arg(s.bytes).arg(budget)));
        if (f % 1200 == 0)
            qInfo("frame %llu: %zu MiB (%zu MiB snapshots in %zu), %zu frames cached", (unsigned long long)f,
                s.bytes >> 20, s.snapshotBytes >> 20, s.snapshots, s.frames);
    }
    QVERIFY(peak > budget / 2);
    QVERIFY(timeline.status().frames < kFrames); // the whole run does not fit: frames were dropped
    for (std::uint64_t f : { std::uint64_t(7), std::uint64_t(12345), std::uint64_t(30001) }) {
        QVERIFY(!timeline.cachedFrame(f));
        timeline.setPlayhead(f);
        QCOMPARE(timeline.frame(f)->stateHash, hashes[f]);
    }
    qInfo("peak %zu MiB of %zu MiB", peak >> 20, budget >> 20);
}

// QtTest stops a test function after 5 minutes by default; this one runs for many (about 10
// minutes of CPU on an idle machine), so its limit is raised before QtTest reads it.
int main(int argc, char **argv)
{
    qputenv("QTEST_FUNCTION_TIMEOUT", "7200000"); // ms
    QCoreApplication app(argc, argv);
    TestTimelineSoak test;
    return QTest::qExec(&test, argc, argv);
}
#include "tst_timelinesoak.moc"
