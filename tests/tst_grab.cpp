// Pins, grabs and pushes on the real Simulation: a pin does not move, grabbed particles
// follow the hand, release gives back their kind and mass exactly and throws them with the
// hand's velocity (checked against x = x0 + v t on every solver), cancel undoes the grab.
#include "sim/builders.h"
#include "edit/clothedit.h"
#include "edit/grab.h"
#include "edit/pick.h"
#include "sim/simulation.h"

#include <QTest>

#include <cmath>
#include <cstring>

using namespace drape;

Q_DECLARE_METATYPE(drape::SolverKind)

namespace {

GridSpec smallGrid()
{
    GridSpec g;
    g.across = 9;
    g.down = 9;
    g.width = 0.8f;
    g.height = 0.8f;
    g.origin = {-0.4f, 2.f, 0.f};
    return g;
}

Simulation gridSimulation(SolverKind kind, bool pinTopRow)
{
    Simulation sim;
    sim.solver.kind = kind;
    if (kind == SolverKind::Springs) {
        sim.solver.substeps = 40; // explicit springs need small steps at this stiffness
    }
    const GridSpec g = smallGrid();
    Cloth c = makeGrid(g);
    if (kind == SolverKind::Springs)
        c.constraints.modifyAll([&](DistanceConstraint &d) { d.compliance = std::max(d.compliance, 1e-3f); });
    if (pinTopRow)
        for (int i = 0; i < g.across; ++i)
            c.particles.setKind(gridIndex(g, i, 0), ParticleKind::Static);
    sim.cloths.push_back(std::move(c));
    return sim;
}

bool bitEqual(const Vec3 &a, const Vec3 &b) { return std::memcmp(&a, &b, sizeof(Vec3)) == 0; }

ParticleRecord recordOf(const Particles &p, std::uint32_t i)
{
    return {p.position[i], p.previous[i], p.velocity[i], p.mass[i], p.invMass[i], p.kind[i]};
}

} // namespace

class TestGrab : public QObject {
    Q_OBJECT

private slots:
    void pinThenStep()
    {
        Simulation sim = gridSimulation(SolverKind::Xpbd, false);
        const GridSpec g = smallGrid();
        Cloth &cloth = sim.cloths[0];
        // One corner pinned: the cloth swings down around it.
        const std::uint32_t pins[] = {gridIndex(g, 0, 0)};
        const ClothEditResult pin = makeSetKind(cloth, pins, ParticleKind::Static);
        QVERIFY(pin.ok());
        QCOMPARE(apply(cloth, pin.edit), std::string());
        const Vec3 pinned = cloth.particles.position[pins[0]];
        const std::uint32_t corner = gridIndex(g, g.across - 1, 0);
        const Vec3 cornerStart = cloth.particles.position[corner];
        sim.run(60);
        QVERIFY(!sim.status().blownUp);
        QVERIFY(bitEqual(cloth.particles.position[pins[0]], pinned));
        // The free top corner, 0.8 m from the pin, swung down by a good part of that.
        QVERIFY(cloth.particles.position[corner].y < cornerStart.y - 0.3f);

        // Unpinned, the corner falls with the rest: nothing holds the cloth any more, so after
        // 0.5 s more it has dropped about ½ g t² = 1.2 m (more than 1 m at least).
        const ClothEditResult unpin = makeSetKind(cloth, pins, ParticleKind::Dynamic);
        QCOMPARE(apply(cloth, unpin.edit), std::string());
        sim.run(30);
        QVERIFY(cloth.particles.position[pins[0]].y < pinned.y - 1.f);
    }

    void grabFollowsAndReleaseRestoresExactly_data()
    {
        QTest::addColumn<SolverKind>("solver");
        QTest::newRow("xpbd") << SolverKind::Xpbd;
        QTest::newRow("verlet") << SolverKind::Verlet;
        QTest::newRow("springs") << SolverKind::Springs;
    }

    void grabFollowsAndReleaseRestoresExactly()
    {
        QFETCH(SolverKind, solver);
        Simulation sim = gridSimulation(solver, true);
        const GridSpec g = smallGrid();
        Cloth &cloth = sim.cloths[0];
        sim.run(5);
        // Grab around the bottom-right corner.
        const Vec3 centre = cloth.particles.position[gridIndex(g, g.across - 1, g.down - 1)];
        const std::vector<std::uint32_t> expected = particlesWithin(cloth, centre, 0.15f);
        std::vector<ParticleRecord> before;
        for (std::uint32_t i : expected)
            before.push_back(recordOf(cloth.particles, i));

        Grab grab;
        QCOMPARE(grab.begin(sim, 0, centre, 0.15f), std::string());
        QCOMPARE(grab.particles(), expected);
        for (std::uint32_t i : expected) {
            QCOMPARE(cloth.particles.kind[i], ParticleKind::Kinematic);
            QCOMPARE(cloth.particles.invMass[i], 0.f);
        }

        // Move the hand at a steady 0.6 m/s to the right and 0.3 m/s up, one step per frame.
        const Vec3 v{0.6f, 0.3f, 0.f};
        const float dt = float(sim.solver.frameDt());
        Vec3 target = centre;
        for (int f = 0; f < 10; ++f) {
            target += v * dt;
            QCOMPARE(grab.moveTo(sim, target), std::string());
            sim.step();
            QVERIFY(!sim.status().blownUp);
            // Each held particle sits at the target plus its offset from the grab centre.
            for (std::size_t k = 0; k < expected.size(); ++k) {
                const Vec3 want = target + (before[k].position - centre);
                QVERIFY2(length(cloth.particles.position[expected[k]] - want) < 1e-5f,
                         qPrintable(QString("particle %1 off target by %2 m").arg(expected[k])
                                        .arg(length(cloth.particles.position[expected[k]] - want))));
            }
        }
        QVERIFY(length(grab.releaseVelocity() - v) < 1e-3f * length(v));

        const ClothEdit moved = grab.release(sim);
        QVERIFY(!grab.active());
        QVERIFY(moved.empty()); // only dynamic particles were held
        for (std::size_t k = 0; k < expected.size(); ++k) {
            const std::uint32_t i = expected[k];
            QCOMPARE(cloth.particles.kind[i], before[k].kind);
            QCOMPARE(std::memcmp(&cloth.particles.invMass[i], &before[k].invMass, sizeof(float)), 0);
            QCOMPARE(std::memcmp(&cloth.particles.mass[i], &before[k].mass, sizeof(float)), 0);
            QVERIFY(length(cloth.particles.velocity[i] - v) < 1e-3f * length(v));
        }
        sim.run(3);
        QVERIFY(!sim.status().blownUp);
    }

    void releaseThrowsWithTheHandsVelocity_data() { grabFollowsAndReleaseRestoresExactly_data(); }

    void releaseThrowsWithTheHandsVelocity()
    {
        // One free particle, no gravity, no drag: after release it must move at exactly the
        // hand's velocity, x(t) = x0 + v t, whatever the solver.
        QFETCH(SolverKind, solver);
        Simulation sim;
        sim.solver.kind = solver;
        sim.world.gravity = {};
        sim.world.airDamping = 0.f;
        Cloth c;
        c.particles.add({0.f, 1.f, 0.f}, 0.1f);
        sim.cloths.push_back(c);
        sim.run(2);

        Grab grab;
        QCOMPARE(grab.begin(sim, 0, {0.f, 1.f, 0.f}, 0.01f), std::string());
        const Vec3 v{-1.2f, 0.5f, 2.f};
        const float dt = float(sim.solver.frameDt());
        Vec3 target{0.f, 1.f, 0.f};
        for (int f = 0; f < 4; ++f) {
            target += v * dt;
            grab.moveTo(sim, target);
            sim.step();
        }
        grab.release(sim);
        const Vec3 x0 = sim.cloths[0].particles.position[0];
        QVERIFY(length(x0 - target) < 1e-5f);
        const int frames = 6;
        sim.run(frames);
        const Vec3 expect = x0 + v * (dt * float(frames));
        const Vec3 got = sim.cloths[0].particles.position[0];
        QVERIFY2(length(got - expect) < 1e-3f * length(v * (dt * float(frames))),
                 qPrintable(QString("at (%1, %2, %3), expected (%4, %5, %6)")
                                .arg(got.x).arg(got.y).arg(got.z).arg(expect.x).arg(expect.y).arg(expect.z)));
    }

    void cancelRestoresEverything()
    {
        Simulation sim = gridSimulation(SolverKind::Xpbd, true);
        const GridSpec g = smallGrid();
        sim.run(3);
        const Cloth original = sim.cloths[0];
        Grab grab;
        const Vec3 centre = original.particles.position[gridIndex(g, 4, 6)];
        QCOMPARE(grab.begin(sim, 0, centre, 0.25f), std::string());
        const std::vector<std::uint32_t> held = grab.particles();
        QVERIFY(held.size() > 5);
        grab.moveTo(sim, centre + Vec3{0.3f, 0.2f, 0.4f});
        sim.step();
        grab.moveTo(sim, centre + Vec3{0.5f, 0.1f, 0.2f});
        grab.cancel(sim);
        QVERIFY(!grab.active());
        for (std::uint32_t i : held) {
            QVERIFY(recordOf(sim.cloths[0].particles, i) == recordOf(original.particles, i));
            QVERIFY(bitEqual(sim.cloths[0].particles.position[i], original.particles.position[i]));
        }
    }

    void draggingAPinMovesIt()
    {
        Simulation sim = gridSimulation(SolverKind::Xpbd, true);
        const GridSpec g = smallGrid();
        Cloth &cloth = sim.cloths[0];
        const std::uint32_t hook = gridIndex(g, 0, 0);
        const Vec3 start = cloth.particles.position[hook];
        const Vec3 end = start + Vec3{-0.2f, 0.1f, 0.f};
        Grab grab;
        QCOMPARE(grab.beginParticles(sim, 0, {hook}, start), std::string());
        for (int f = 1; f <= 5; ++f) {
            grab.moveTo(sim, lerp(start, end, float(f) / 5.f));
            sim.step();
        }
        const ClothEdit moved = grab.release(sim);
        QCOMPARE(cloth.particles.kind[hook], ParticleKind::Static);
        QCOMPARE(cloth.particles.invMass[hook], 0.f);
        QVERIFY(length(cloth.particles.position[hook] - end) < 1e-6f);
        QCOMPARE(moved.particles.size(), std::size_t(1));
        QCOMPARE(moved.particles[0].index, hook);
        QVERIFY(moved.particles[0].before.position == start);
        sim.run(20);
        QVERIFY(length(cloth.particles.position[hook] - end) < 1e-6f); // stays where dropped

        // The move is an undo step: revert puts the hook back, and it stays there.
        QCOMPARE(revert(cloth, moved), std::string());
        QVERIFY(bitEqual(cloth.particles.position[hook], start));
        sim.run(5);
        QVERIFY(bitEqual(cloth.particles.position[hook], start));
    }

    void pushImpartsVelocity()
    {
        const GridSpec g = smallGrid();
        const Vec3 delta{0.01f, -0.005f, 0.002f};
        for (SolverKind kind : {SolverKind::Xpbd, SolverKind::Springs, SolverKind::Verlet}) {
            Simulation sim = gridSimulation(kind, true);
            Cloth &cloth = sim.cloths[0];
            const Vec3 centre = cloth.particles.position[gridIndex(g, 4, 0)]; // top row: pins nearby
            const Cloth before = cloth;
            std::string error;
            const int n = push(sim, centre, 0.15f, delta, 2.f, &error);
            QVERIFY(error.empty());
            int expected = 0;
            for (std::uint32_t i : particlesWithin(before, centre, 0.15f)) {
                if (before.particles.kind[i] != ParticleKind::Dynamic) {
                    QVERIFY(cloth.particles.velocity[i] == before.particles.velocity[i]);
                    QVERIFY(cloth.particles.previous[i] == before.particles.previous[i]);
                    continue;
                }
                ++expected;
                if (kind == SolverKind::Verlet) {
                    QVERIFY(cloth.particles.previous[i] == cloth.particles.position[i] - delta * 2.f);
                } else {
                    const Vec3 dv = cloth.particles.velocity[i] - before.particles.velocity[i];
                    QVERIFY(length(dv - delta * (2.f * sim.solver.frameRate)) < 1e-5f);
                }
            }
            QCOMPARE(n, expected);
            QVERIFY(n > 0);
            // Particles beyond the radius are untouched.
            const std::uint32_t far = gridIndex(g, 4, g.down - 1);
            QVERIFY(cloth.particles.velocity[far] == before.particles.velocity[far]);
            // Pushed in the middle, where nothing pins it, the cloth moves along the push
            // in the next frame (gravity acts along -Y only).
            Simulation free = gridSimulation(kind, true);
            const std::uint32_t mid = gridIndex(g, 4, 5);
            const Vec3 p0 = free.cloths[0].particles.position[mid];
            QVERIFY(push(free, p0, 0.15f, Vec3{0.01f, 0.f, 0.f}, 1.f) > 0);
            free.step();
            QVERIFY2(free.cloths[0].particles.position[mid].x > p0.x + 1e-4f, qPrintable(QString("solver %1: x %2 -> %3").arg(int(kind)).arg(p0.x).arg(free.cloths[0].particles.position[mid].x)));
        }
    }

    void refusesBadInput()
    {
        Simulation sim = gridSimulation(SolverKind::Xpbd, true);
        Grab grab;
        QVERIFY(!grab.begin(sim, 1, {}, 0.1f).empty());
        QVERIFY(!grab.begin(sim, -1, {}, 0.1f).empty());
        QVERIFY(!grab.begin(sim, 0, {std::nanf(""), 0.f, 0.f}, 0.1f).empty());
        QVERIFY(!grab.begin(sim, 0, {0.f, 2.f, 0.f}, 0.f).empty());
        QVERIFY(!grab.begin(sim, 0, {50.f, 50.f, 50.f}, 0.1f).empty()); // nothing there
        QVERIFY(!grab.beginParticles(sim, 0, {100000}, {}).empty());
        QVERIFY(!grab.active());
        QVERIFY(!grab.moveTo(sim, {}).empty()); // nothing held
        QCOMPARE(grab.begin(sim, 0, {0.f, 2.f, 0.f}, 0.15f), std::string());
        QVERIFY(!grab.moveTo(sim, {0.f, std::nanf(""), 0.f}).empty());
        QVERIFY(!grab.begin(sim, 0, {0.f, 2.f, 0.f}, 0.15f).empty()); // already holding
        grab.cancel(sim);
        std::string error;
        QCOMPARE(push(sim, {}, 0.f, {}, 1.f, &error), -1);
        QVERIFY(!error.empty());
        QCOMPARE(push(sim, {}, 1.f, {std::nanf(""), 0.f, 0.f}, 1.f, &error), -1);
    }
};

QTEST_APPLESS_MAIN(TestGrab)
#include "tst_grab.moc"
