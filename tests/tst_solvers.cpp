// The three solvers against closed-form answers: free fall, the static stretch of a hanging
// chain of springs, a small-angle pendulum, and energy across a solver switch.
#include "sim/builders.h"
#include "sim/energy.h"
#include "sim/simulation.h"

#include <QTest>

#include <cmath>
#include <numbers>

using namespace drape;

namespace {

constexpr double kG = 9.81;

Cloth singleParticle(const Vec3 &x, const Vec3 &v)
{
    ExplicitSpec spec;
    spec.positions = { x };
    spec.masses = { 0.5f };
    Cloth c = makeExplicit(spec);
    c.particles.velocity[0] = v;
    return c;
}

Simulation makeSim(SolverKind kind, int substeps, int iterations = 1)
{
    Simulation sim;
    sim.world.gravity = { 0.f, float(-kG), 0.f };
    sim.world.airDamping = 0.f;
    sim.solver.kind = kind;
    sim.solver.frameRate = 60.f;
    sim.solver.substeps = substeps;
    sim.solver.iterations = iterations;
    return sim;
}

// A horizontal rope of `count` particles of 0.1 kg from the origin along x, `length` m long,
// its first particle kinematic (held).
Cloth ropeHeldAtItsStart(int count, float length)
{
    RopeSpec r;
    r.count = count;
    r.length = length;
    r.start = {};
    r.direction = { 1.f, 0.f, 0.f };
    r.linkMass = 0.1f;
    Cloth c = makeRope(r);
    c.particles.setKind(0, ParticleKind::Kinematic);
    return c;
}

// A vertical chain: particle 0 pinned, `count` particles of `mass`, links of `link` m with
// stiffness k (compliance 1/k) and damping along the links.
Cloth hangingChain(int count, float mass, float link, float k, float damping)
{
    RopeSpec r;
    r.count = count;
    r.length = link * float(count - 1);
    r.start = { 0.f, 2.f, 0.f };
    r.direction = { 0.f, -1.f, 0.f };
    r.linkMass = mass;
    r.params.compliance = 1.f / k;
    r.params.damping = damping;
    Cloth c = makeRope(r);
    c.particles.setKind(0, ParticleKind::Static);
    return c;
}

double energy(const Simulation &sim)
{
    return energyOf(sim).total();
}

} // namespace

class TestSolvers : public QObject {
    Q_OBJECT

private slots:
    void freeFallVerletIsExact();
    void freeFallXpbdAndSprings_data();
    void freeFallXpbdAndSprings();
    void hangingChainStretch_data();
    void hangingChainStretch();
    void xpbdStretchIndependentOfIterations();
    void chainStretchHoldsAtHighSubsteps_data();
    void chainStretchHoldsAtHighSubsteps();
    void xpbdTensionsCarryTheWeightBelow();
    void pendulumPeriod_data();
    void pendulumPeriod();
    void airDampingDecaysExponentially();
    void switchingSolverInjectsNoEnergy_data();
    void switchingSolverInjectsNoEnergy();
    void kinematicParticleFollowsItsMotion();
    void kinematicMotionStartsWhereTheLastFrameLeftIt_data();
    void kinematicMotionStartsWhereTheLastFrameLeftIt();
    void sewnPairClosesWithoutAJump_data();
    void sewnPairClosesWithoutAJump();
};

void TestSolvers::freeFallVerletIsExact()
{
    // Position Verlet is exact for constant acceleration once the history is started to
    // second order: y(t) = y0 + v0 t - ½ g t².
    Simulation sim = makeSim(SolverKind::Verlet, 4);
    const Vec3 v0 { 0.3f, 2.f, 0.f };
    sim.cloths.push_back(singleParticle({ 0.f, 10.f, 0.f }, v0));
    for (int f = 1; f <= 60; ++f) {
        sim.step();
        const double t = f / 60.0;
        const Vec3 x = sim.cloths[0].particles.position[0];
        QVERIFY2(std::fabs(double(x.y) - (10.0 + 2.0 * t - 0.5 * kG * t * t)) < 2e-5,
            qPrintable(QString::number(x.y)));
        QVERIFY(std::fabs(double(x.x) - 0.3 * t) < 1e-5);
    }
    // The velocity Verlet leaves is the mid-substep velocity of the last substep.
    const double h = 1.0 / 240.0;
    QVERIFY(std::fabs(double(sim.cloths[0].particles.velocity[0].y) - (2.0 - kG * (1.0 - 0.5 * h))) < 1e-3);
}

void TestSolvers::freeFallXpbdAndSprings_data()
{
    QTest::addColumn<int>("solver");
    QTest::addColumn<int>("integrator");
    QTest::addColumn<double>("sign"); // of the known first-order error ½ g h t
    QTest::newRow("xpbd") << int(SolverKind::Xpbd) << 0 << 1.0;
    QTest::newRow("springs semi-implicit")
        << int(SolverKind::Springs) << int(SpringIntegrator::SemiImplicitEuler) << 1.0;
    QTest::newRow("springs explicit")
        << int(SolverKind::Springs) << int(SpringIntegrator::ExplicitEuler) << -1.0;
}

void TestSolvers::freeFallXpbdAndSprings()
{
    // Semi-implicit Euler from rest gives y_n = -g h² n(n+1)/2 = -½ g t² - ½ g h t (it falls
    // a little ahead); explicit Euler gives -½ g t² + ½ g h t. Both converge at first order.
    QFETCH(int, solver);
    QFETCH(int, integrator);
    QFETCH(double, sign);
    Simulation sim = makeSim(SolverKind(solver), 5);
    sim.solver.integrator = SpringIntegrator(integrator);
    sim.cloths.push_back(singleParticle({ 0.f, 10.f, 0.f }, {}));
    const double h = 1.0 / 300.0;
    sim.run(90);
    const double t = 1.5;
    const double y = double(sim.cloths[0].particles.position[0].y) - 10.0;
    const double expected = -0.5 * kG * t * t - sign * 0.5 * kG * h * t;
    QVERIFY2(std::fabs(y - expected) < 1e-4, qPrintable(QString("y %1 expected %2").arg(y).arg(expected)));
    QVERIFY(std::fabs(double(sim.cloths[0].particles.velocity[0].y) + kG * t) < 1e-3);
}

void TestSolvers::hangingChainStretch_data()
{
    QTest::addColumn<int>("solver");
    QTest::newRow("springs") << int(SolverKind::Springs);
    QTest::newRow("xpbd") << int(SolverKind::Xpbd);
}

void TestSolvers::hangingChainStretch()
{
    // At rest every link carries the weight below it: link i stretches by (N-1-i) m g / k.
    // The springs solver's equilibrium is exact. XPBD's is exact in the limit; with finite
    // substeps its Gauss-Seidel pass leaves an O((ω dt)²) bias and float positions an error of
    // about ε|x| α/(w dt²), together well under 1% at these settings.
    QFETCH(int, solver);
    const int count = 6;
    const float mass = 0.05f, link = 0.5f, k = 50.f;
    Simulation sim = makeSim(SolverKind(solver), 10, solver == int(SolverKind::Xpbd) ? 5 : 1);
    sim.world.airDamping = 1.f;
    sim.cloths.push_back(hangingChain(count, mass, link, k, 0.2f));
    sim.run(900);
    QVERIFY2(!sim.status().blownUp, sim.status().message.c_str());
    const Particles &p = sim.cloths[0].particles;
    const double tol = solver == int(SolverKind::Springs) ? 1e-3 : 1e-2;
    for (int i = 0; i + 1 < count; ++i) {
        const double stretch = double(length(p.position[i] - p.position[i + 1])) - link;
        const double expected = double(count - 1 - i) * mass * kG / k;
        QVERIFY2(std::fabs(stretch - expected) < tol * expected,
            qPrintable(QString("link %1: stretch %2 expected %3").arg(i).arg(stretch).arg(expected)));
    }
}

void TestSolvers::xpbdStretchIndependentOfIterations()
{
    // XPBD's multipliers make the converged stretch a material property, not a function of
    // the iteration count (with PBD stiffness, 5 iterations would be far stiffer than 1).
    double stretch[2] = {};
    const int iterations[2] = { 1, 5 };
    for (int r = 0; r < 2; ++r) {
        Simulation sim = makeSim(SolverKind::Xpbd, 10, iterations[r]);
        sim.world.airDamping = 1.f;
        sim.cloths.push_back(hangingChain(6, 0.05f, 0.5f, 50.f, 0.2f));
        sim.run(900);
        const Particles &p = sim.cloths[0].particles;
        stretch[r] = double(length(p.position[0] - p.position[5])) - 2.5;
    }
    const double expected = 0.05 * kG / 50.0 * (5 + 4 + 3 + 2 + 1);
    QVERIFY2(std::fabs(stretch[0] - stretch[1]) < 0.01 * expected,
        qPrintable(QString("%1 vs %2").arg(stretch[0]).arg(stretch[1])));
    QVERIFY(std::fabs(stretch[0] - expected) < 0.01 * expected);
    QVERIFY(std::fabs(stretch[1] - expected) < 0.01 * expected);
}

void TestSolvers::chainStretchHoldsAtHighSubsteps_data()
{
    QTest::addColumn<int>("solver");
    QTest::addColumn<int>("substeps");
    for (int substeps : { 100, 400, 1000 }) {
        QTest::addRow("xpbd %d", substeps) << int(SolverKind::Xpbd) << substeps;
        QTest::addRow("verlet %d", substeps) << int(SolverKind::Verlet) << substeps;
    }
}

void TestSolvers::chainStretchHoldsAtHighSubsteps()
{
    // Five 1 kg particles on 1000 N/m links hung from a pin 2 m above the ground, started at
    // the analytic rest (link i stretched by (4-i) m g / k) and stepped for two seconds. At
    // 1000 substeps a substep's fall under gravity, g dt² ≈ 2.7e-9 m, is a hundredth of the
    // float spacing of a position near 2 m (2.4e-7 m); the stretch must still hold to 0.1 %.
    // The discretisation bias of one iteration, about k dt²/m, is below 3e-5 here.
    QFETCH(int, solver);
    QFETCH(int, substeps);
    const int count = 5;
    const float mass = 1.f, link = 0.25f, k = 1000.f;
    Simulation sim = makeSim(SolverKind(solver), substeps);
    sim.world.airDamping = 0.5f;
    Cloth chain = hangingChain(count, mass, link, k, 0.f);
    float y = 2.f;
    for (int i = 1; i < count; ++i) {
        y -= link + float(count - i) * mass * float(kG) / k;
        chain.particles.position[std::size_t(i)].y = y;
        chain.particles.previous[std::size_t(i)].y = y;
    }
    sim.cloths.push_back(chain);
    Collider ground;
    ground.kind = ColliderKind::Plane;
    sim.colliders.push_back(ground);
    sim.run(120);
    QVERIFY2(!sim.status().blownUp, sim.status().message.c_str());
    const Particles &p = sim.cloths[0].particles;
    for (int i = 0; i + 1 < count; ++i) {
        const double stretch = double(p.position[i].y) - double(p.position[i + 1].y) - link;
        const double expected = double(count - 1 - i) * mass * kG / k;
        QVERIFY2(std::fabs(stretch - expected) < 1e-3 * expected,
            qPrintable(QString("link %1: stretch %2 expected %3 (error %4 %)")
                           .arg(i)
                           .arg(stretch)
                           .arg(expected)
                           .arg(100.0 * (stretch - expected) / expected)));
    }
}

void TestSolvers::xpbdTensionsCarryTheWeightBelow()
{
    // XPBD reports -λ/dt² of the last substep as the tension: at rest, link i of a chain
    // carries the weight below it, (N-1-i) m g. One iteration leaves a bias of about
    // k (w_a + w_b) dt² ≈ 6e-5 at 100 substeps.
    const int count = 5;
    const float mass = 1.f, link = 0.25f, k = 1000.f;
    Simulation sim = makeSim(SolverKind::Xpbd, 100);
    sim.world.airDamping = 2.f;
    sim.cloths.push_back(hangingChain(count, mass, link, k, 5.f));
    QCOMPARE(sim.constraintTensions(0), std::vector<float>(count - 1, 0.f)); // nothing stepped yet: unknown
    sim.run(600);
    const Cloth &chain = sim.cloths[0];
    const std::vector<float> tension = sim.constraintTensions(0);
    QCOMPARE(tension.size(), std::size_t(count - 1));
    for (std::size_t c = 0; c < chain.constraints.size(); ++c) {
        const int below = count - 1 - int(std::min(chain.constraints[c].a, chain.constraints[c].b));
        const double expected = double(below) * mass * kG;
        QVERIFY2(std::fabs(double(tension[c]) - expected) < 1e-3 * expected,
            qPrintable(QString("link %1: %2 N expected %3 N").arg(c).arg(tension[c]).arg(expected)));
    }
}

void TestSolvers::pendulumPeriod_data()
{
    QTest::addColumn<int>("solver");
    QTest::newRow("xpbd") << int(SolverKind::Xpbd);
    QTest::newRow("verlet") << int(SolverKind::Verlet);
}

void TestSolvers::pendulumPeriod()
{
    // A rigid 1 m pendulum released at 0.05 rad: T = 2π √(L/g) (1 + θ0²/16 + ...).
    QFETCH(int, solver);
    const double L = 1.0, theta0 = 0.05;
    Simulation sim = makeSim(SolverKind(solver), 20);
    RopeSpec r;
    r.count = 2;
    r.length = float(L);
    r.start = { 0.f, 2.f, 0.f };
    r.direction = { float(std::sin(theta0)), float(-std::cos(theta0)), 0.f };
    r.linkMass = 0.1f;
    Cloth c = makeRope(r);
    c.particles.setKind(0, ParticleKind::Static);
    sim.cloths.push_back(c);

    std::vector<double> crossings; // times x changes sign from + to -
    double prevX = double(sim.cloths[0].particles.position[1].x), prevT = 0.0;
    for (int f = 1; f <= 600; ++f) {
        sim.step();
        const double x = double(sim.cloths[0].particles.position[1].x);
        const double t = f / 60.0;
        if (prevX > 0.0 && x <= 0.0)
            crossings.push_back(prevT + (t - prevT) * prevX / (prevX - x));
        prevX = x;
        prevT = t;
    }
    QVERIFY(crossings.size() >= 4);
    const double period = (crossings.back() - crossings.front()) / double(crossings.size() - 1);
    const double expected = 2.0 * std::numbers::pi * std::sqrt(L / kG) * (1.0 + theta0 * theta0 / 16.0);
    QVERIFY2(std::fabs(period - expected) < 0.002 * expected,
        qPrintable(QString("period %1 expected %2").arg(period).arg(expected)));
}

void TestSolvers::airDampingDecaysExponentially()
{
    // dv/dt = -c v: v(t) = v0 e^{-ct}, independent of the substep count, for every solver.
    for (int kind = 0; kind < 3; ++kind) {
        for (int substeps : { 1, 7 }) {
            Simulation sim = makeSim(SolverKind(kind), substeps);
            sim.world.gravity = {};
            sim.world.airDamping = 0.8f;
            sim.cloths.push_back(singleParticle({}, { 3.f, 0.f, 0.f }));
            sim.run(60);
            const double v = double(sim.cloths[0].particles.velocity[0].x);
            const double expected = 3.0 * std::exp(-0.8);
            // The springs solver applies the drag as an explicit force: first-order error c² h t / 2.
            const double tol
                = kind == int(SolverKind::Springs) ? 3.0 * 0.64 * (1.0 / 60 / substeps) / 2 + 1e-4 : 1e-4;
            QVERIFY2(std::fabs(v - expected) < tol,
                qPrintable(
                    QString("solver %1 substeps %2: %3 vs %4").arg(kind).arg(substeps).arg(v).arg(expected)));
        }
    }
}

void TestSolvers::switchingSolverInjectsNoEnergy_data()
{
    QTest::addColumn<int>("from");
    QTest::addColumn<int>("to");
    QTest::newRow("xpbd→springs") << int(SolverKind::Xpbd) << int(SolverKind::Springs);
    QTest::newRow("springs→xpbd") << int(SolverKind::Springs) << int(SolverKind::Xpbd);
    QTest::newRow("xpbd→verlet") << int(SolverKind::Xpbd) << int(SolverKind::Verlet);
    QTest::newRow("verlet→xpbd") << int(SolverKind::Verlet) << int(SolverKind::Xpbd);
    QTest::newRow("verlet→springs") << int(SolverKind::Verlet) << int(SolverKind::Springs);
}

void TestSolvers::switchingSolverInjectsNoEnergy()
{
    // A swinging, hanging cloth: total energy (kinetic + gravity + elastic) must not rise
    // at the frame the solver changes. Damping is on, so it may only fall.
    QFETCH(int, from);
    QFETCH(int, to);
    Simulation sim = makeSim(SolverKind(from), 40);
    sim.world.airDamping = 0.1f;
    GridSpec g;
    g.across = 8;
    g.down = 8;
    g.width = 0.7f;
    g.height = 0.7f;
    g.bend = false;
    g.structuralParams = { 2e-3f, 0.01f, kNeverTear };
    g.shearParams = { 2e-3f, 0.01f, kNeverTear };
    Cloth c = makeGrid(g);
    for (int i = 0; i < g.across; ++i)
        c.particles.setKind(gridIndex(g, i, 0), ParticleKind::Static);
    for (std::size_t i = 0; i < c.particles.size(); ++i)
        c.particles.velocity[i] = { 0.f, 0.f, 0.6f }; // swing out of plane
    sim.cloths.push_back(c);
    sim.run(30);
    double scale = 0.0; // J: energy of the cloth's weight over its height
    for (float m : sim.cloths[0].particles.mass)
        scale += double(m) * kG * 0.7;
    double before = energy(sim);
    for (int f = 0; f < 20; ++f) {
        if (f == 10)
            sim.solver.kind = SolverKind(to);
        sim.step();
        QVERIFY2(!sim.status().blownUp, sim.status().message.c_str());
        const double after = energy(sim);
        QVERIFY2(after < before + 2e-3 * scale,
            qPrintable(
                QString("frame %1: energy %2 → %3 (scale %4)").arg(f).arg(before).arg(after).arg(scale)));
        before = after;
    }
}

void TestSolvers::kinematicParticleFollowsItsMotion()
{
    // A kinematic particle moved between frames ends exactly where it was put, with the
    // velocity of that motion, and its neighbours follow through the constraint.
    Simulation sim = makeSim(SolverKind::Xpbd, 10);
    sim.world.gravity = {};
    sim.cloths.push_back(ropeHeldAtItsStart(2, 0.5f));
    sim.step();
    Particles &p = sim.cloths[0].particles;
    const Vec3 target = p.position[0] + Vec3 { 0.1f, 0.f, 0.f };
    p.position[0] = target;
    sim.step();
    QCOMPARE(p.position[0], target);
    QVERIFY(std::fabs(double(p.velocity[0].x) - 0.1 * 60.0) < 1e-3);
    QVERIFY2(
        p.position[1].x > 0.58f, qPrintable(QString::number(p.position[1].x))); // pulled along (rest 0.5)
}

void TestSolvers::kinematicMotionStartsWhereTheLastFrameLeftIt_data()
{
    QTest::addColumn<int>("solver");
    QTest::addRow("xpbd") << int(SolverKind::Xpbd);
    QTest::addRow("verlet") << int(SolverKind::Verlet);
    QTest::addRow("springs") << int(SolverKind::Springs);
}

void TestSolvers::kinematicMotionStartsWhereTheLastFrameLeftIt()
{
    // A particle grabbed between frames (made kinematic and moved) moves over the next frame
    // from where the last frame left it to where it was put: its velocity is that motion
    // over one frame. So does one already kinematic, and a copy of the simulation taken
    // between the frames moves both the same way, bit for bit. After a particle count
    // change there is no end to start from: it starts where it was put.
    QFETCH(int, solver);
    Simulation sim = makeSim(SolverKind(solver), 10);
    sim.cloths.push_back(ropeHeldAtItsStart(4, 0.6f));
    sim.step();
    sim.step();
    Simulation copy = sim;
    const Vec3 moveHeld { 0.1f, 0.f, 0.f }, moveGrabbed { 0.f, 0.05f, 0.f };
    const Vec3 grabbedEnd = sim.cloths[0].particles.position[3];
    QVERIFY(grabbedEnd.y < 0.f); // it fell: the frame moved it
    for (Simulation *s : { &sim, &copy }) {
        Particles &p = s->cloths[0].particles;
        p.position[0] = p.position[0] + moveHeld;
        p.setKind(3, ParticleKind::Kinematic);
        p.position[3] = grabbedEnd + moveGrabbed;
        s->step();
    }
    const Particles &p = sim.cloths[0].particles;
    QCOMPARE(p.position[3], grabbedEnd + moveGrabbed);
    QVERIFY2(
        std::fabs(double(p.velocity[0].x) - 0.1 * 60.0) < 1e-3, qPrintable(QString::number(p.velocity[0].x)));
    QVERIFY2(std::fabs(double(p.velocity[3].y) - 0.05 * 60.0) < 1e-3,
        qPrintable(QString::number(p.velocity[3].y)));
    QCOMPARE(copy.stateHash(), sim.stateHash());
    QCOMPARE(copy.cloths[0].particles.velocity, p.velocity);

    // One more particle: the next frame has no end positions for this count.
    sim.cloths[0].particles.add(Vec3 { 0.f, 1.f, 0.f }, 0.1f);
    sim.cloths[0].particles.position[3] = sim.cloths[0].particles.position[3] + moveGrabbed;
    sim.step();
    QCOMPARE(sim.cloths[0].particles.velocity[3], Vec3 {});
}

void TestSolvers::sewnPairClosesWithoutAJump_data()
{
    QTest::addColumn<int>("solver");
    QTest::addColumn<int>("substeps");
    QTest::addColumn<float>("gap");
    for (const float gap : { 0.05f, 0.49f }) {
        for (const int substeps : { 10, 40 }) {
            QTest::addRow("xpbd, %d substeps, %.2f m", substeps, double(gap)) << int(SolverKind::Xpbd) << substeps << gap;
            QTest::addRow("verlet, %d substeps, %.2f m", substeps, double(gap))
                << int(SolverKind::Verlet) << substeps << gap;
        }
    }
}

void TestSolvers::sewnPairClosesWithoutAJump()
{
    // A particle sewn to a pinned one (rest length 0, rigid), starting `gap` away: the first
    // frame closes the gap, and after it the pair stays together and at rest. (The error of a
    // link this far from its rest length is |d| - L, not the small-term form that serves
    // links near theirs, which would divide a rounding of the gap's square by |d| + L -> 0.)
    QFETCH(int, solver);
    QFETCH(int, substeps);
    QFETCH(float, gap);
    Simulation sim = makeSim(SolverKind(solver), substeps, 4);
    ExplicitSpec spec;
    const Vec3 pinned { 0.3f, 1.7f, 0.2f };
    spec.positions = { pinned, pinned + Vec3 { 0.31f, -0.27f, 0.27f } * (gap / 0.49f) };
    spec.masses = { 0.5f, 0.5f };
    DistanceConstraint sew;
    sew.a = 0;
    sew.b = 1;
    sew.restLength = 0.f;
    sew.kind = ConstraintKind::User;
    spec.constraints = { sew };
    sim.cloths.push_back(makeExplicit(spec));
    sim.cloths[0].particles.setKind(0, ParticleKind::Static);
    for (int frame = 0; frame < 30; ++frame) {
        sim.step();
        QVERIFY2(!sim.status().blownUp, sim.status().message.c_str());
        if (frame == 0)
            continue;
        const Particles &p = sim.cloths[0].particles;
        const double distance = double(length(p.position[1] - p.position[0]));
        const double speed = double(length(p.velocity[1]));
        QVERIFY2(distance < 1e-4, qPrintable(QString("frame %1: %2 m apart").arg(frame).arg(distance)));
        QVERIFY2(speed < 1e-2, qPrintable(QString("frame %1: %2 m/s").arg(frame).arg(speed)));
    }
}

QTEST_APPLESS_MAIN(TestSolvers)
#include "tst_solvers.moc"
