// Determinism: the same scene with the same inputs gives bit-identical states, for every
// solver, with tearing, wind gusts, a moving collider and self-collision.
#include "sim/builders.h"
#include "forces.h"
#include "sim/simulation.h"

#include <QTest>

using namespace drape;

namespace {

Simulation busyScene(SolverKind kind)
{
    Simulation sim;
    sim.solver.kind = kind;
    const bool springs = kind == SolverKind::Springs;
    sim.solver.substeps = springs ? 16 : 8;
    sim.solver.selfCollision = true;
    sim.world.wind.speed = 6.f;
    sim.world.wind.direction = { 0.2f, 0.f, -1.f };
    sim.world.wind.gustStrength = 0.6f;
    sim.world.wind.gustFrequency = 1.5f;
    sim.world.wind.seed = 7;
    GridSpec g;
    g.across = 14;
    g.down = 14;
    // Soft enough for the springs solver at 16 substeps (ω dt ≈ 0.5).
    g.structuralParams = { springs ? 1e-2f : 1e-4f, 0.01f, 0.15f };
    g.shearParams = { springs ? 2e-2f : 1e-3f, 0.f, 0.3f };
    g.bendParams = { springs ? 1e-1f : 1e-2f, 0.f, kNeverTear };
    Cloth c = makeGrid(g);
    c.tearMode = TearMode::RemoveConstraint;
    for (int i = 0; i < g.across; i += 3)
        c.particles.setKind(gridIndex(g, i, 0), ParticleKind::Static);
    c.particles.setKind(gridIndex(g, 7, 13), ParticleKind::Kinematic); // dragged by pullDown()
    sim.cloths.push_back(c);
    Collider ball;
    ball.kind = ColliderKind::Sphere;
    ball.baseCenter = ball.center = { 0.f, 1.f, 0.3f };
    ball.radius = 0.2f;
    ball.motion.amplitude = { 0.f, 0.f, -0.6f };
    ball.motion.frequency = 0.7f;
    ball.friction = 0.4f;
    sim.colliders.push_back(ball);
    return sim;
}

// The same outside input on both runs: the grabbed particle is dragged down 5 cm a frame.
void pullDown(Simulation &sim)
{
    sim.cloths[0].particles.position[7 + 13 * 14].y -= 0.05f;
}

} // namespace

class TestDeterminism : public QObject {
    Q_OBJECT

private slots:
    void sameRunSameHash_data();
    void sameRunSameHash();
    void copyContinuesIdentically();
    void movedFromStartsAfresh();
    void hashSeesEveryPart();
    void gustsAreSeededAndBounded();
    void plainFramesMatchTheGeneralPath_data();
    void plainFramesMatchTheGeneralPath();
    void plainFramesRollBackAsTheGeneralPath_data();
    void plainFramesRollBackAsTheGeneralPath();
};

void TestDeterminism::sameRunSameHash_data()
{
    QTest::addColumn<int>("solver");
    QTest::newRow("xpbd") << int(SolverKind::Xpbd);
    QTest::newRow("verlet") << int(SolverKind::Verlet);
    QTest::newRow("springs") << int(SolverKind::Springs);
}

void TestDeterminism::sameRunSameHash()
{
    QFETCH(int, solver);
    Simulation a = busyScene(SolverKind(solver));
    Simulation b = busyScene(SolverKind(solver));
    QCOMPARE(a.stateHash(), b.stateHash());
    const std::uint64_t initial = a.stateHash();
    std::uint32_t torn = 0;
    for (int f = 0; f < 90; ++f) {
        pullDown(a);
        pullDown(b);
        a.step();
        b.step();
        torn += a.lastStepStats().tornConstraints;
        QCOMPARE(a.stateHash(), b.stateHash());
    }
    QVERIFY2(!a.status().blownUp, a.status().message.c_str());
    QVERIFY(a.stateHash() != initial);
    QVERIFY(torn > 0); // the scene does exercise tearing
}

void TestDeterminism::copyContinuesIdentically()
{
    Simulation a = busyScene(SolverKind::Xpbd);
    for (int f = 0; f < 20; ++f) {
        pullDown(a);
        a.step();
    }
    Simulation b = a;
    for (int f = 0; f < 30; ++f) {
        pullDown(a);
        pullDown(b);
        a.step();
        b.step();
    }
    QCOMPARE(a.stateHash(), b.stateHash());
    QCOMPARE(a.frame(), std::uint64_t(50));
}

void TestDeterminism::movedFromStartsAfresh()
{
    // A simulation moved from, by construction or by assignment, keeps no solver cache of
    // what it held (as a moved-from vector holds nothing): given cloths again, it steps them
    // as a new simulation does.
    const auto stepped = [] {
        Simulation s = busyScene(SolverKind::Xpbd);
        for (int f = 0; f < 5; ++f)
            s.step();
        return s;
    };
    const auto fresh = [] {
        Simulation s = busyScene(SolverKind::Xpbd);
        s.step();
        return s.stateHash();
    };
    Simulation source = stepped();
    Simulation built(std::move(source));
    Simulation target = stepped();
    target = std::move(built);
    QCOMPARE(target.frame(), std::uint64_t(5));
    for (Simulation *moved : { &source, &built }) {
        Simulation again = busyScene(SolverKind::Xpbd);
        moved->cloths = again.cloths;
        moved->colliders = again.colliders;
        moved->setTime(0.0, 0); // its clock is a value, moved as it was
        // Nothing cached until it steps, and then the new simulation's first frame.
        QCOMPARE(moved->stateBytesByPart(0).solver(), std::size_t(0));
        moved->step();
        QCOMPARE(moved->stateHash(), fresh());
    }
}

void TestDeterminism::hashSeesEveryPart()
{
    Simulation base = busyScene(SolverKind::Xpbd);
    const std::uint64_t h = base.stateHash();
    Simulation s = base;
    s.cloths[0].particles.position[5].x = std::nextafter(s.cloths[0].particles.position[5].x, 10.f);
    QVERIFY(s.stateHash() != h);
    s = base;
    s.cloths[0].particles.velocity[3].y = 1e-30f;
    QVERIFY(s.stateHash() != h);
    s = base;
    s.cloths[0].particles.setKind(20, ParticleKind::Kinematic);
    QVERIFY(s.stateHash() != h);
    s = base;
    s.cloths[0].constraints.pop_back();
    QVERIFY(s.stateHash() != h);
    s = base;
    s.cloths[0].triangles.pop_back();
    QVERIFY(s.stateHash() != h);
}

void TestDeterminism::gustsAreSeededAndBounded()
{
    WindSettings w;
    w.speed = 10.f;
    w.gustStrength = 0.5f;
    w.gustFrequency = 2.f;
    w.seed = 3;
    WindSettings other = w;
    other.seed = 4;
    bool differs = false;
    for (int i = 0; i < 200; ++i) {
        const double t = i * 0.037;
        const Vec3 v = windVelocity(w, t);
        QCOMPARE(v, windVelocity(w, t));
        const float speed = length(v);
        QVERIFY(speed >= 10.f * (1.f - 0.5f) - 1e-4f && speed <= 10.f * (1.f + 0.5f) + 1e-4f);
        QVERIFY(dot(v, w.direction) > 0.f);
        differs = differs || !(windVelocity(other, t) == v);
    }
    QVERIFY(differs);
    // Without gusts the wind is steady.
    w.gustStrength = 0.f;
    QCOMPARE(windVelocity(w, 0.3), (Vec3 { 10.f, 0.f, 0.f }));
}

void TestDeterminism::plainFramesMatchTheGeneralPath_data()
{
    QTest::addColumn<int>("kind");
    QTest::newRow("xpbd") << int(SolverKind::Xpbd);
    QTest::newRow("verlet") << int(SolverKind::Verlet);
}

namespace {

// A frame with nothing but the constraint passes (no contacts, wind, tethers or tearing) takes
// the fused particle pass and writes positions once (solvercommon.cpp, plainFrame); a ground
// plane far below the cloth, never touched, sends the same frames down the general path, one
// pass per stage and positions every substep. The two simulations of a grid for both: with a
// grabbed particle, damping, several substeps and iterations, a mass of its own for every
// particle and gravity along all three axes (so that a vector lane given another particle's
// mass or component shows).
struct PlainAndGeneral {
    Simulation plain, general;
    std::uint32_t grabbed = 0;
    GridSpec grid;
};

PlainAndGeneral plainAndGeneral(SolverKind kind)
{
    PlainAndGeneral both;
    GridSpec &g = both.grid;
    g.across = 17; // an odd count, so that groups of four particles straddle the rows
    g.down = 13;
    g.structuralParams = { 1e-4f, 0.02f, kNeverTear };
    g.shearParams = { 1e-3f, 0.01f, kNeverTear };
    Cloth c = makeGrid(g);
    for (int i = 0; i < g.across; i += 4)
        c.particles.setKind(gridIndex(g, i, 0), ParticleKind::Static);
    both.grabbed = gridIndex(g, 8, g.down - 1);
    c.particles.setKind(both.grabbed, ParticleKind::Kinematic);
    for (std::uint32_t i = 0; i < c.particles.size(); ++i)
        if (c.particles.invMass[i] != 0.f)
            c.particles.setMass(i, 0.001f * float(1 + (i * 7919u) % 13u));
    Simulation &plain = both.plain;
    plain.world.gravity = { 1.3f, -9.81f, -0.7f };
    plain.solver.kind = kind;
    plain.solver.substeps = 7;
    plain.solver.iterations = 2;
    plain.world.airDamping = 0.4f;
    plain.cloths.push_back(c);
    both.general = plain;
    Collider ground;
    ground.kind = ColliderKind::Plane;
    ground.baseCenter = ground.center = { 0.f, -100.f, 0.f };
    both.general.colliders.push_back(ground);
    return both;
}

} // namespace

// Both paths must give the same bits.
void TestDeterminism::plainFramesMatchTheGeneralPath()
{
    QFETCH(int, kind);
    PlainAndGeneral both = plainAndGeneral(SolverKind(kind));
    Simulation &plain = both.plain, &general = both.general;
    const GridSpec &g = both.grid;
    const std::uint32_t grabbed = both.grabbed;
    for (int f = 0; f < 40; ++f) {
        for (Simulation *sim : { &plain, &general })
            sim->cloths[0].particles.position[grabbed].z += 0.01f;
        plain.step();
        general.step();
        QVERIFY2(!plain.status().blownUp, plain.status().message.c_str());
        QVERIFY2(!general.status().blownUp, general.status().message.c_str());
    }
    // The cloth moved (the comparison is not of two sheets at rest)...
    QVERIFY(std::abs(plain.cloths[0].particles.position[gridIndex(g, 3, g.down - 1)].z) > 1e-3f);
    // ...and both paths left the same positions, velocities and tensions.
    QCOMPARE(plain.stateHash(), general.stateHash());
    QCOMPARE(plain.cloths[0].particles.previous, general.cloths[0].particles.previous);
    QCOMPARE(plain.constraintTensions(0), general.constraintTensions(0));
}

void TestDeterminism::plainFramesRollBackAsTheGeneralPath_data()
{
    plainFramesMatchTheGeneralPath_data();
}

// A plain frame on the vector kernels is held in planes until it has passed the blow-up check,
// and takes no copies for the rollback (PlainPlanes, solver.h): a frame that blows up must
// leave the particles exactly as the general path's rollback does, as they were before the
// step (the grabbed particle where it was put), and name the same particle. Once for a
// dynamic particle over a lowered speed limit, once for a grab faster than the limit.
void TestDeterminism::plainFramesRollBackAsTheGeneralPath()
{
    QFETCH(int, kind);
    for (const bool grabTooFast : { false, true }) {
        PlainAndGeneral both = plainAndGeneral(SolverKind(kind));
        for (int f = 0; f < 12; ++f) {
            for (Simulation *sim : { &both.plain, &both.general }) {
                sim->cloths[0].particles.position[both.grabbed].z += 0.01f;
                sim->step();
                QVERIFY2(!sim->status().blownUp, sim->status().message.c_str());
            }
        }
        QCOMPARE(both.plain.stateHash(), both.general.stateHash());
        const Particles before = both.plain.cloths[0].particles;
        float fastest = 0.f; // m/s, of the dynamic particles
        for (std::uint32_t i = 0; i < before.size(); ++i)
            if (before.invMass[i] != 0.f)
                fastest = std::max(fastest, length(before.velocity[i]));
        QVERIFY(fastest > 0.f);
        for (Simulation *sim : { &both.plain, &both.general }) {
            Particles &p = sim->cloths[0].particles;
            if (grabTooFast) {
                p.position[both.grabbed].z += 2.f; // 120 m/s over the frame
                sim->solver.maxSpeed = 110.f; // under the grab's speed, over the cloth's
            } else {
                p.position[both.grabbed].z += 0.01f;
                sim->solver.maxSpeed = 0.5f * fastest;
            }
        }
        const Particles put = both.plain.cloths[0].particles; // the grab moved, nothing else
        for (Simulation *sim : { &both.plain, &both.general }) {
            sim->step();
            QVERIFY(sim->status().blownUp);
            QCOMPARE(sim->frame(), std::uint64_t(12));
            const Particles &p = sim->cloths[0].particles;
            QCOMPARE(p.position, put.position);
            QCOMPARE(p.previous, before.previous);
            QCOMPARE(p.velocity, before.velocity);
        }
        QCOMPARE(both.plain.status().message, both.general.status().message);
        const std::string grabbedSpeed = "particle " + std::to_string(both.grabbed) + ": speed";
        QCOMPARE(both.plain.status().message.find(grabbedSpeed) != std::string::npos, grabTooFast);
        QCOMPARE(both.plain.stateHash(), both.general.stateHash());
    }
}

QTEST_APPLESS_MAIN(TestDeterminism)
#include "tst_determinism.moc"
