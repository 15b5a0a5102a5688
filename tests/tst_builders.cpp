// The shared builders: counts, rest lengths, masses from areal density, orientation and
// triangle winding, and explicit lists.
#include "sim/builders.h"

#include <QTest>

#include <cmath>
#include <set>

using namespace drape;

class TestBuilders : public QObject {
    Q_OBJECT

private slots:
    void gridCounts_data();
    void gridCounts();
    void gridRestLengthsAndMass();
    void gridFacesItsFront_data();
    void gridFacesItsFront();
    void gridOptionalFamilies();
    void ropeIsAChain();
    void explicitEdgesFromTriangles();
    void validateNamesProblems();
};

void TestBuilders::gridCounts_data()
{
    QTest::addColumn<int>("across");
    QTest::addColumn<int>("down");
    QTest::newRow("2x2") << 2 << 2;
    QTest::newRow("5x3") << 5 << 3;
    QTest::newRow("32x17") << 32 << 17;
}

void TestBuilders::gridCounts()
{
    QFETCH(int, across);
    QFETCH(int, down);
    GridSpec g;
    g.across = across;
    g.down = down;
    const Cloth c = makeGrid(g);
    const std::size_t n = std::size_t(across), m = std::size_t(down);
    QCOMPARE(c.particles.size(), n * m);
    QCOMPARE(c.triangles.size(), 2 * (n - 1) * (m - 1));
    std::size_t counts[4] = {};
    for (const DistanceConstraint &k : c.constraints)
        ++counts[int(k.kind)];
    QCOMPARE(counts[int(ConstraintKind::Structural)], (n - 1) * m + n * (m - 1));
    QCOMPARE(counts[int(ConstraintKind::Shear)], 2 * (n - 1) * (m - 1));
    QCOMPARE(counts[int(ConstraintKind::Bend)], (n >= 2 ? (n - 2) * m : 0) + (m >= 2 ? n * (m - 2) : 0));
    QVERIFY(c.validate().empty());
}

void TestBuilders::gridRestLengthsAndMass()
{
    GridSpec g;
    g.across = 5;
    g.down = 3;
    g.width = 2.f;
    g.height = 1.f;
    g.arealDensity = 0.3f;
    g.structuralParams = { 1e-6f, 0.02f, 0.4f };
    const Cloth c = makeGrid(g);
    const float dx = 0.5f, dy = 0.5f;
    for (const DistanceConstraint &k : c.constraints) {
        float expected = 0.f;
        switch (k.kind) {
        case ConstraintKind::Structural:
            expected = (k.b - k.a == 1) ? dx : dy;
            QCOMPARE(k.compliance, 1e-6f);
            QCOMPARE(k.damping, 0.02f);
            QCOMPARE(k.tearStrain, 0.4f);
            break;
        case ConstraintKind::Shear:
            expected = std::sqrt(dx * dx + dy * dy);
            break;
        case ConstraintKind::Bend:
            expected = (k.b - k.a == 2) ? 2.f * dx : 2.f * dy;
            break;
        case ConstraintKind::User:
            QFAIL("no user constraints in a grid");
        }
        QVERIFY(std::fabs(k.restLength - expected) < 1e-6f);
    }
    // Mass: areal density × area in total; an interior particle carries one cell, an edge
    // particle half and a corner a quarter, whichever way the diagonals run.
    QVERIFY(std::fabs(c.totalMass() - 0.3 * 2.0 * 1.0) < 1e-6);
    const float cell = 0.3f * dx * dy;
    QVERIFY(std::fabs(c.particles.mass[std::size_t(gridIndex(g, 2, 1))] - cell) < 1e-7f);
    QVERIFY(std::fabs(c.particles.mass[std::size_t(gridIndex(g, 1, 1))] - cell) < 1e-7f);
    QVERIFY(std::fabs(c.particles.mass[std::size_t(gridIndex(g, 2, 0))] - 0.5f * cell) < 1e-7f);
    QVERIFY(std::fabs(c.particles.mass[std::size_t(gridIndex(g, 4, 2))] - 0.25f * cell) < 1e-7f);
    for (std::size_t i = 0; i < c.particles.size(); ++i)
        QCOMPARE(c.particles.invMass[i], 1.f / c.particles.mass[i]);
}

void TestBuilders::gridFacesItsFront_data()
{
    QTest::addColumn<int>("orientation");
    QTest::addColumn<Vec3>("front");
    QTest::newRow("vertical") << int(GridOrientation::Vertical) << Vec3 { 0.f, 0.f, 1.f };
    QTest::newRow("horizontal") << int(GridOrientation::Horizontal) << Vec3 { 0.f, 1.f, 0.f };
}

void TestBuilders::gridFacesItsFront()
{
    QFETCH(int, orientation);
    QFETCH(Vec3, front);
    GridSpec g;
    g.across = 6;
    g.down = 4;
    g.orientation = GridOrientation(orientation);
    g.origin = { 1.f, 2.f, 3.f };
    const Cloth c = makeGrid(g);
    QCOMPARE(c.particles.position[0], g.origin);
    for (const Triangle &t : c.triangles) {
        const Vec3 *x = c.particles.position.data();
        const Vec3 n = normalized(cross(x[t.v[1]] - x[t.v[0]], x[t.v[2]] - x[t.v[0]]));
        QVERIFY(dot(n, front) > 0.999f);
    }
    // Particle (i, j) sits i·dx across and j·dy down (or back).
    const Vec3 last = c.particles.position[gridIndex(g, 5, 3)];
    if (g.orientation == GridOrientation::Vertical)
        QVERIFY(length(last - (g.origin + Vec3 { 1.f, -1.f, 0.f })) < 1e-6f);
    else
        QVERIFY(length(last - (g.origin + Vec3 { 1.f, 0.f, 1.f })) < 1e-6f);
}

void TestBuilders::gridOptionalFamilies()
{
    GridSpec g;
    g.across = 4;
    g.down = 4;
    g.shear = false;
    g.bend = false;
    Cloth c = makeGrid(g);
    QCOMPARE(c.constraints.size(), std::size_t(24));
    g.structural = false;
    c = makeGrid(g);
    QVERIFY(c.constraints.empty());
    QCOMPARE(c.triangles.size(), std::size_t(18));
}

void TestBuilders::ropeIsAChain()
{
    RopeSpec r;
    r.count = 11;
    r.length = 2.f;
    r.start = { 0.f, 3.f, 0.f };
    r.direction = { 3.f, 0.f, 4.f }; // normalised on use
    r.linkMass = 0.05f;
    r.bend = true;
    const Cloth c = makeRope(r);
    QCOMPARE(c.particles.size(), std::size_t(11));
    QCOMPARE(c.constraints.size(), std::size_t(10 + 9));
    QVERIFY(c.triangles.empty());
    QVERIFY(length(c.particles.position[10] - Vec3 { 1.2f, 3.f, 1.6f }) < 1e-5f);
    for (int i = 0; i < 10; ++i) {
        QCOMPARE(c.constraints[std::size_t(i)].a, std::uint32_t(i));
        QVERIFY(std::fabs(c.constraints[std::size_t(i)].restLength - 0.2f) < 1e-6f);
    }
    QVERIFY(std::fabs(c.totalMass() - 0.55) < 1e-6);
}

void TestBuilders::explicitEdgesFromTriangles()
{
    ExplicitSpec spec;
    spec.positions = { { 0.f, 0.f, 0.f }, { 1.f, 0.f, 0.f }, { 1.f, 1.f, 0.f }, { 0.f, 1.f, 0.f } };
    spec.triangles = { { { 0, 1, 2 } }, { { 0, 2, 3 } } };
    spec.arealDensity = 0.6f;
    spec.kinds = { ParticleKind::Static };
    const Cloth c = makeExplicit(spec);
    QCOMPARE(c.constraints.size(), std::size_t(5)); // the shared diagonal once
    std::set<std::pair<std::uint32_t, std::uint32_t>> edges;
    for (const DistanceConstraint &k : c.constraints)
        edges.insert({ k.a, k.b });
    QCOMPARE(edges.size(), std::size_t(5));
    // Each triangle has area ½ and gives 0.1 kg to each corner.
    QVERIFY(std::fabs(c.particles.mass[0] - 0.2f) < 1e-6f);
    QVERIFY(std::fabs(c.particles.mass[1] - 0.1f) < 1e-6f);
    QCOMPARE(c.particles.kind[0], ParticleKind::Static);
    QCOMPARE(c.particles.invMass[0], 0.f);
    QCOMPARE(c.particles.mass[0] > 0.f, true); // kept for unpinning
}

void TestBuilders::validateNamesProblems()
{
    ExplicitSpec spec;
    spec.positions = { { 0.f, 0.f, 0.f }, { 1.f, 0.f, 0.f }, { 1.f, 1.f, 0.f } };
    spec.triangles = { { { 0, 1, 5 } } };
    spec.masses = { 1.f, 1.f, 1.f };
    spec.constraints = { DistanceConstraint { 0, 1, 1.f } };
    const Cloth c = makeExplicit(spec);
    QVERIFY(c.validate().find("triangle 0: particle 5 out of range, cloth has 3") != std::string::npos);
}

QTEST_APPLESS_MAIN(TestBuilders)
#include "tst_builders.moc"
