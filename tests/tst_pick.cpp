// Picking: the particle or constraint under a ray, with distances and depths checked against
// hand-computed geometry; nothing outside the tolerance is ever returned.
#include "sim/builders.h"
#include "edit/pick.h"

#include <QTest>

#include <cmath>

using namespace drape;

namespace {

// A cloth of loose particles at the given places, with optional constraints between them.
Cloth points(const std::vector<Vec3> &positions, const std::vector<std::pair<std::uint32_t, std::uint32_t>> &links = {})
{
    Cloth c;
    for (const Vec3 &p : positions)
        c.particles.add(p, 0.01f);
    for (auto [a, b] : links) {
        DistanceConstraint d;
        d.a = a;
        d.b = b;
        d.restLength = length(positions[a] - positions[b]);
        c.constraints.push_back(d);
    }
    return c;
}

bool fuzzy(float a, float b, float tol = 1e-5f) { return std::fabs(a - b) <= tol; }

} // namespace

class TestPick : public QObject {
    Q_OBJECT

private slots:
    void nearestAlongTheRay()
    {
        Simulation sim;
        // Three particles on the -Z axis seen from z = 5; the one at z = 1 is nearest.
        sim.cloths.push_back(points({{0.f, 0.f, -2.f}, {0.f, 0.f, 1.f}, {0.f, 0.f, 0.f}}));
        const Ray ray{{0.f, 0.f, 5.f}, {0.f, 0.f, -1.f}};
        const ParticleHit hit = pickParticle(sim, ray, {0.02f});
        QVERIFY(hit.error.empty());
        QVERIFY(hit.found);
        QCOMPARE(hit.cloth, 0);
        QCOMPARE(hit.particle, 1u);
        QVERIFY(fuzzy(hit.t, 4.f));
        QVERIFY(hit.point == (Vec3{0.f, 0.f, 1.f}));
        QVERIFY(fuzzy(hit.distance, 0.f));
    }

    void nothingOutsideTheRadius()
    {
        Simulation sim;
        // 0.05 m off the ray, and one on the ray but behind its origin.
        sim.cloths.push_back(points({{0.05f, 0.f, 0.f}, {0.f, 0.f, 6.f}}));
        const Ray ray{{0.f, 0.f, 5.f}, {0.f, 0.f, -1.f}};
        QVERIFY(!pickParticle(sim, ray, {0.04f}).found);
        const ParticleHit wide = pickParticle(sim, ray, {0.06f});
        QVERIFY(wide.found);
        QCOMPARE(wide.particle, 0u);
        QVERIFY(fuzzy(wide.distance, 0.05f));
        // A tolerance growing with distance (a pixel radius under perspective): at t = 5,
        // 0.01 + 0.01 * 5 = 0.06 m covers it, 0.01 + 0.005 * 5 = 0.035 m does not.
        QVERIFY(pickParticle(sim, ray, {0.01f, 0.01f}).found);
        QVERIFY(!pickParticle(sim, ray, {0.01f, 0.005f}).found);
    }

    void underTheCursorWinsWithinTheDepthWindow()
    {
        Simulation sim;
        // Two neighbours on one sheet: one 1.5 cm off the ray and 5 mm nearer the camera,
        // one right on the ray. The one under the cursor is picked; a particle on the ray
        // further back (another sheet behind) is not.
        sim.cloths.push_back(points({{0.015f, 0.f, 0.005f}, {0.f, 0.f, 0.f}, {0.f, 0.f, -1.f}}));
        const ParticleHit hit = pickParticle(sim, Ray{{0.f, 0.f, 5.f}, {0.f, 0.f, -1.f}}, {0.02f});
        QVERIFY(hit.found);
        QCOMPARE(hit.particle, 1u);
    }

    void acrossCloths()
    {
        Simulation sim;
        sim.cloths.push_back(points({{0.f, 1.f, -1.f}}));
        sim.cloths.push_back(points({{0.f, 1.f, 0.5f}, {3.f, 0.f, 0.f}}));
        const ParticleHit hit = pickParticle(sim, Ray{{0.f, 1.f, 4.f}, {0.f, 0.f, -1.f}}, {0.01f});
        QVERIFY(hit.found);
        QCOMPARE(hit.cloth, 1);
        QCOMPARE(hit.particle, 0u);
        QVERIFY(fuzzy(hit.t, 3.5f));
    }

    void constraintUnderTheRay()
    {
        Simulation sim;
        // A constraint along X at y = 0.03, z = 0 and the ray straight down -Z through the
        // origin: closest approach at (0, 0.03, 0), t = 2, distance 0.03.
        sim.cloths.push_back(points({{-1.f, 0.03f, 0.f}, {1.f, 0.03f, 0.f}, {-1.f, 0.5f, 0.f}, {1.f, 0.5f, 0.f}},
                                    {{0, 1}, {2, 3}}));
        const Ray ray{{0.f, 0.f, 2.f}, {0.f, 0.f, -1.f}};
        const ConstraintHit hit = pickConstraint(sim, ray, {0.05f});
        QVERIFY(hit.error.empty());
        QVERIFY(hit.found);
        QCOMPARE(hit.constraint, 0u);
        QVERIFY(fuzzy(hit.t, 2.f));
        QVERIFY(fuzzy(hit.distance, 0.03f));
        QVERIFY(fuzzy(hit.point.x, 0.f) && fuzzy(hit.point.y, 0.03f) && fuzzy(hit.point.z, 0.f));
        QVERIFY(!pickConstraint(sim, ray, {0.02f}).found);
        // The ray passing beyond the end of a segment measures to its end point:
        // from (1.5, 0.03, z) the nearest point of constraint 0 is (1, 0.03, 0), 0.5 m away.
        QVERIFY(!pickConstraint(sim, Ray{{1.5f, 0.03f, 2.f}, {0.f, 0.f, -1.f}}, {0.45f}).found);
        QVERIFY(pickConstraint(sim, Ray{{1.5f, 0.03f, 2.f}, {0.f, 0.f, -1.f}}, {0.55f}).found);
    }

    void withinRadiusAndPredicate()
    {
        GridSpec g;
        g.across = 11;
        g.down = 11;
        g.width = 1.f;
        g.height = 1.f;
        g.origin = {0.f, 1.f, 0.f};
        Simulation sim;
        sim.cloths.push_back(makeGrid(g));
        // Spacing 0.1 m: within 0.15 m of particle (5, 5) lie (5,5), its 4 edge neighbours
        // (0.1 m) and 4 diagonal ones (0.141 m): 9 particles.
        const Vec3 centre = sim.cloths[0].particles.position[gridIndex(g, 5, 5)];
        const std::vector<std::uint32_t> near = particlesWithin(sim.cloths[0], centre, 0.15f);
        QCOMPARE(near.size(), std::size_t(9));
        for (std::uint32_t i : near)
            QVERIFY(length(sim.cloths[0].particles.position[i] - centre) <= 0.15f);
        QCOMPARE(particlesWithin(sim, centre, 0.15f).size(), std::size_t(9));
        QVERIFY(particlesWithin(sim.cloths[0], centre, 0.f).empty());
        QVERIFY(particlesWithin(sim.cloths[0], centre, -1.f).empty());

        // Left half of the grid: columns 0..4 of 11 rows.
        const auto left = particlesWhere(sim, [](const Vec3 &p) { return p.x < 0.45f; });
        QCOMPARE(left.size(), std::size_t(55));
        for (const ParticleRef &r : left)
            QVERIFY(sim.cloths[0].particles.position[r.particle].x < 0.45f);
    }

    void refusesBadRequests()
    {
        Simulation sim;
        sim.cloths.push_back(points({{0.f, 0.f, 0.f}}));
        const Ray ray{{0.f, 0.f, 1.f}, {0.f, 0.f, -1.f}};
        ParticleHit hit = pickParticle(sim, ray, {0.f});
        QVERIFY(!hit.found);
        QVERIFY(QString::fromStdString(hit.error).contains("radius"));
        QVERIFY(!pickParticle(sim, ray, {-1.f}).error.empty());
        QVERIFY(!pickParticle(sim, Ray{{std::nanf(""), 0.f, 0.f}, {0.f, 0.f, -1.f}}, {0.1f}).error.empty());
        QVERIFY(!pickParticle(sim, Ray{{0.f, 0.f, 0.f}, {0.f, 0.f, 0.f}}, {0.1f}).error.empty());
        QVERIFY(!pickConstraint(sim, ray, {0.f}).error.empty());
        // An empty scene is not an error, just no hit.
        Simulation empty;
        hit = pickParticle(empty, ray, {0.1f});
        QVERIFY(hit.error.empty());
        QVERIFY(!hit.found);
    }
};

QTEST_APPLESS_MAIN(TestPick)
#include "tst_pick.moc"
