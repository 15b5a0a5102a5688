// Tearing by stretch: a chain whose tear strain is below its static strain breaks and one
// above it holds; triangles that lose an edge go with it; the counters and the topology
// revision report it.
#include "sim/builders.h"
#include "sim/simulation.h"
#include "sim/tearing.h"

#include <QTest>

#include <algorithm>
#include <cmath>
#include <set>
#include <utility>

using namespace drape;

namespace {

constexpr double kG = 9.81;

// A vertical chain of 3 particles (top pinned) with links of rest length L and stiffness k,
// placed at its static equilibrium: the top link carries 2 m g and stretches by 2 m g / k,
// the lower one by m g / k. Starting there means no dynamic overshoot.
Cloth chainAtEquilibrium(float tearStrain, float m, float L, float k)
{
    RopeSpec r;
    r.count = 3;
    r.length = 2.f * L;
    r.start = { 0.f, 1.f, 0.f };
    r.linkMass = m;
    r.params.compliance = 1.f / k;
    r.params.damping = 0.05f;
    r.params.tearStrain = tearStrain;
    Cloth c = makeRope(r);
    c.particles.setKind(0, ParticleKind::Static);
    c.tearMode = TearMode::RemoveConstraint;
    const float s0 = float(2.0 * m * kG / k), s1 = float(m * kG / k);
    c.particles.position[1] = { 0.f, 1.f - L - s0, 0.f };
    c.particles.position[2] = { 0.f, 1.f - 2.f * L - s0 - s1, 0.f };
    c.particles.previous = c.particles.position;
    return c;
}

std::set<std::pair<std::uint32_t, std::uint32_t>> edgeSet(const Cloth &c)
{
    std::set<std::pair<std::uint32_t, std::uint32_t>> s;
    for (const DistanceConstraint &k : c.constraints)
        s.insert({ std::min(k.a, k.b), std::max(k.a, k.b) });
    return s;
}

} // namespace

class TestTearing : public QObject {
    Q_OBJECT

private slots:
    void chainBreaksOnlyPastItsTearStrain_data();
    void chainBreaksOnlyPastItsTearStrain();
    void tearOverstretchedRemovesTrianglesOfTornEdges();
    void pulledClothTearsAndLeavesNoTriangleAcrossTheTear_data();
    void pulledClothTearsAndLeavesNoTriangleAcrossTheTear();
    void noTearModeNeverTears();
    void splitModeSplitsThroughTheSolver();
};

void TestTearing::chainBreaksOnlyPastItsTearStrain_data()
{
    QTest::addColumn<int>("solver");
    QTest::addColumn<double>("factor"); // tear strain / static strain of the top link
    QTest::addColumn<bool>("breaks");
    QTest::newRow("xpbd below") << int(SolverKind::Xpbd) << 0.9 << true;
    QTest::newRow("xpbd above") << int(SolverKind::Xpbd) << 1.1 << false;
    QTest::newRow("springs below") << int(SolverKind::Springs) << 0.9 << true;
    QTest::newRow("springs above") << int(SolverKind::Springs) << 1.1 << false;
}

void TestTearing::chainBreaksOnlyPastItsTearStrain()
{
    QFETCH(int, solver);
    QFETCH(double, factor);
    QFETCH(bool, breaks);
    const float m = 0.1f, L = 0.1f, k = 100.f;
    const double staticStrain = 2.0 * m * kG / k / L; // top link: 0.196
    Simulation sim;
    sim.world.airDamping = 0.5f;
    sim.solver.kind = SolverKind(solver);
    sim.solver.substeps = 10;
    sim.solver.iterations = 4;
    sim.cloths.push_back(chainAtEquilibrium(float(staticStrain * factor), m, L, k));
    std::uint32_t torn = 0;
    for (int f = 0; f < 120; ++f) {
        sim.step();
        torn += sim.lastStepStats().tornConstraints;
    }
    const Cloth &c = sim.cloths[0];
    if (breaks) {
        QCOMPARE(torn, 1u);
        QCOMPARE(
            c.constraints.size(), std::size_t(1)); // the top link went; the lower one (half the strain) held
        QCOMPARE(c.constraints[0].a, 1u);
        QVERIFY(c.particles.position[2].y < 0.f); // the loose end fell
    } else {
        QCOMPARE(torn, 0u);
        QCOMPARE(c.constraints.size(), std::size_t(2));
        QVERIFY(c.particles.position[2].y > 0.7f);
    }
}

void TestTearing::tearOverstretchedRemovesTrianglesOfTornEdges()
{
    // Two triangles sharing the diagonal 0-2 of a unit square; stretch the square along the
    // diagonal 1-3 so only the edges touching particle 3 tear.
    ExplicitSpec spec;
    spec.positions = { { 0.f, 0.f, 0.f }, { 1.f, 0.f, 0.f }, { 1.f, 1.f, 0.f }, { 0.f, 1.f, 0.f } };
    spec.triangles = { { { 0, 1, 2 } }, { { 0, 2, 3 } } };
    spec.edgeParams.tearStrain = 0.2f;
    Cloth c = makeExplicit(spec);
    QCOMPARE(c.constraints.size(), std::size_t(5));
    const std::uint64_t revision = c.topologyRevision;
    c.particles.position[3] = { -0.5f, 1.5f, 0.f }; // edges 2-3 and 0-3 become √2·… > 1.2 L
    std::vector<std::uint64_t> scratch;
    QCOMPARE(tearOverstretched(c, scratch), 2u);
    QCOMPARE(c.constraints.size(), std::size_t(3));
    QCOMPARE(c.triangles.size(), std::size_t(1));
    QCOMPARE(c.triangles[0], (Triangle { { 0, 1, 2 } }));
    QVERIFY(c.topologyRevision > revision);
    // Nothing more to tear: a second call changes nothing.
    const std::uint64_t after = c.topologyRevision;
    QCOMPARE(tearOverstretched(c, scratch), 0u);
    QCOMPARE(c.topologyRevision, after);
}

void TestTearing::pulledClothTearsAndLeavesNoTriangleAcrossTheTear_data()
{
    QTest::addColumn<int>("solver");
    QTest::newRow("xpbd") << int(SolverKind::Xpbd);
    QTest::newRow("verlet") << int(SolverKind::Verlet);
}

void TestTearing::pulledClothTearsAndLeavesNoTriangleAcrossTheTear()
{
    // The tearable-cloth demo: top row pinned, one bottom particle dragged far down.
    QFETCH(int, solver);
    GridSpec g;
    g.across = 10;
    g.down = 10;
    g.bend = false;
    g.structuralParams.tearStrain = 0.5f;
    g.shearParams = { 1e-5f, 0.f, 0.5f };
    Cloth cloth = makeGrid(g);
    cloth.tearMode = TearMode::RemoveConstraint;
    for (int i = 0; i < g.across; ++i)
        cloth.particles.setKind(gridIndex(g, i, 0), ParticleKind::Static);
    const std::uint32_t grabbed = gridIndex(g, 5, 9);
    cloth.particles.setKind(grabbed, ParticleKind::Kinematic);
    const std::size_t constraintsBefore = cloth.constraints.size();
    const std::size_t trianglesBefore = cloth.triangles.size();

    Simulation sim;
    sim.solver.kind = SolverKind(solver);
    sim.solver.substeps = 10;
    sim.cloths.push_back(cloth);
    std::uint32_t torn = 0;
    for (int f = 0; f < 60; ++f) {
        sim.cloths[0].particles.position[grabbed].y -= 0.05f; // 3 m/s downwards
        sim.step();
        QVERIFY2(!sim.status().blownUp, sim.status().message.c_str());
        torn += sim.lastStepStats().tornConstraints;
    }
    const Cloth &c = sim.cloths[0];
    QVERIFY(torn > 0);
    QCOMPARE(constraintsBefore - c.constraints.size(), std::size_t(torn));
    QVERIFY(c.triangles.size() < trianglesBefore);
    // Every surviving triangle still has all three edges as constraints: nothing renders
    // across a tear.
    const auto edges = edgeSet(c);
    for (const Triangle &t : c.triangles) {
        for (int e = 0; e < 3; ++e) {
            const std::uint32_t a = t.v[e], b = t.v[(e + 1) % 3];
            QVERIFY(edges.count({ std::min(a, b), std::max(a, b) }) == 1);
        }
    }
    // No surviving constraint is stretched past its tear strain.
    for (const DistanceConstraint &k : c.constraints)
        QVERIFY(constraintStrain(c, k) <= k.tearStrain);
}

void TestTearing::noTearModeNeverTears()
{
    GridSpec g;
    g.across = 6;
    g.down = 6;
    g.structuralParams.tearStrain = 1e-6f; // would tear at once if the mode allowed it
    Cloth cloth = makeGrid(g);
    for (int i = 0; i < g.across; ++i)
        cloth.particles.setKind(gridIndex(g, i, 0), ParticleKind::Static);
    Simulation sim;
    sim.cloths.push_back(cloth);
    const std::size_t before = sim.cloths[0].constraints.size();
    sim.run(30);
    QCOMPARE(sim.cloths[0].constraints.size(), before);
}

void TestTearing::splitModeSplitsThroughTheSolver()
{
    // SplitVertex hands overstretched constraints to splitOverstretched(); the solver must
    // carry on with the grown particle arrays (finite, counted, topology revision bumped).
    GridSpec g;
    g.across = 8;
    g.down = 8;
    g.bend = false;
    g.structuralParams.tearStrain = 0.3f;
    g.shearParams = { 1e-5f, 0.f, 0.3f };
    Cloth cloth = makeGrid(g);
    cloth.tearMode = TearMode::SplitVertex;
    for (int i = 0; i < g.across; ++i)
        cloth.particles.setKind(gridIndex(g, i, 0), ParticleKind::Static);
    const std::uint32_t grabbed = gridIndex(g, 4, 7);
    cloth.particles.setKind(grabbed, ParticleKind::Kinematic);
    Simulation sim;
    sim.solver.maxSplitsPerStep = 4;
    sim.cloths.push_back(cloth);
    const std::size_t before = sim.cloths[0].particles.size();
    const std::uint64_t revision = sim.cloths[0].topologyRevision;
    std::uint32_t splits = 0;
    for (int f = 0; f < 60; ++f) {
        sim.cloths[0].particles.position[grabbed].y -= 0.05f;
        sim.step();
        QVERIFY2(!sim.status().blownUp, sim.status().message.c_str());
        splits += sim.lastStepStats().splitParticles;
    }
    const Cloth &c = sim.cloths[0];
    QVERIFY(splits > 0);
    QCOMPARE(c.particles.size(), before + splits);
    QVERIFY(c.topologyRevision > revision);
    QVERIFY(c.validate().empty());
}

QTEST_APPLESS_MAIN(TestTearing)
#include "tst_tearing.moc"
