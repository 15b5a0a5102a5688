// Bad input and blow-ups: settings errors name the field, value and range; invalid cloths
// and settings are refused without stepping; a springs setup past its stability limit is
// reported before it runs; a runaway state is caught, rolled back and frozen.
#include "refusededit.h"
#include "sim/builders.h"
#include "sim/simulation.h"

#include <QTest>

#include <cmath>
#include <functional>
#include <limits>

using namespace drape;

namespace {

bool anyContains(const std::vector<SettingsError> &errors, const char *field, const char *text = "")
{
    for (const SettingsError &e : errors) {
        if (e.field == field && e.message.find(field) != std::string::npos
            && e.message.find(text) != std::string::npos)
            return true;
    }
    return false;
}

bool anyContains(const std::vector<std::string> &messages, const char *text)
{
    for (const std::string &m : messages) {
        if (m.find(text) != std::string::npos)
            return true;
    }
    return false;
}

Cloth hangingChain(float compliance)
{
    RopeSpec r;
    r.count = 4;
    r.length = 0.3f;
    r.linkMass = 0.01f;
    r.params.compliance = compliance;
    Cloth c = makeRope(r);
    c.particles.setKind(0, ParticleKind::Static);
    return c;
}

bool allFinite(const Simulation &sim)
{
    for (const Cloth &c : sim.cloths) {
        for (std::size_t i = 0; i < c.particles.size(); ++i) {
            if (!isFinite(c.particles.position[i]) || !isFinite(c.particles.velocity[i])
                || !isFinite(c.particles.previous[i]))
                return false;
        }
    }
    return true;
}

} // namespace

class TestValidation : public QObject {
    Q_OBJECT

private slots:
    void defaultsAreValid();
    void solverSettingsNameTheField();
    void worldSettingsNameTheField();
    void clothProblemsNameTheIndex();
    void invalidSettingsAreNotStepped();
    void invalidClothIsNotStepped();
    void constraintEditedAfterSteppingIsRefused_data();
    void constraintEditedAfterSteppingIsRefused();
    void springsPastStabilityLimitAreReported();
    void particleEditedAfterSteppingIsRefused();
    void runawayIsRolledBackAndFrozen();
    void runawayIsFoundWhereverItIs();
    void explicitEulerBlowUpLeavesFiniteState();
};

void TestValidation::defaultsAreValid()
{
    QVERIFY(validate(SolverSettings {}).empty());
    QVERIFY(validate(WorldSettings {}).empty());
    Simulation sim;
    sim.cloths.push_back(makeGrid(GridSpec {}));
    QVERIFY(sim.validate().empty());
}

void TestValidation::solverSettingsNameTheField()
{
    SolverSettings s;
    s.substeps = 0;
    QVERIFY(anyContains(validate(s), "solver.substeps", "0 is out of range, allowed 1..1000"));
    s = {};
    s.frameRate = 0.f;
    QVERIFY(anyContains(validate(s), "solver.frameRate", "0"));
    s.frameRate = -30.f;
    QVERIFY(anyContains(validate(s), "solver.frameRate", "-30"));
    s.frameRate = std::numeric_limits<float>::quiet_NaN();
    QVERIFY(anyContains(validate(s), "solver.frameRate", "nan"));
    s = {};
    s.iterations = -2;
    QVERIFY(anyContains(validate(s), "solver.iterations", "-2"));
    s = {};
    s.maxSpeed = 0.f;
    QVERIFY(anyContains(validate(s), "solver.maxSpeed"));
    s = {};
    s.kind = SolverKind(9);
    QVERIFY(anyContains(validate(s), "solver.kind", "9"));
    s = {};
    s.maxSplitsPerStep = -1;
    QVERIFY(anyContains(validate(s), "solver.maxSplitsPerStep", "-1"));
}

void TestValidation::worldSettingsNameTheField()
{
    WorldSettings w;
    w.gravity.y = std::numeric_limits<float>::infinity();
    QVERIFY(anyContains(validate(w), "world.gravity.y", "inf"));
    w = {};
    w.airDamping = -1.f;
    QVERIFY(anyContains(validate(w), "world.airDamping", "-1"));
    w = {};
    w.wind.gustStrength = 1.5f;
    QVERIFY(anyContains(validate(w), "world.wind.gustStrength", "1.5"));
    w = {};
    w.wind.speed = 3.f;
    w.wind.direction = {};
    QVERIFY(anyContains(validate(w), "world.wind.direction"));
    w = {};
    w.wind.airDensity = -0.1f;
    QVERIFY(anyContains(validate(w), "world.wind.airDensity"));
}

void TestValidation::clothProblemsNameTheIndex()
{
    Simulation sim;
    sim.cloths.push_back(hangingChain(0.f));
    sim.cloths[0].particles.setMass(2, 0.f);
    QVERIFY(anyContains(sim.validate(), "particle 2: mass 0"));

    sim.cloths[0] = hangingChain(0.f);
    sim.cloths[0].particles.setMass(1, -0.5f);
    QVERIFY(anyContains(sim.validate(), "particle 1: mass -0.5"));

    sim.cloths[0] = hangingChain(0.f);
    sim.cloths[0].constraints.modify(1, [&](DistanceConstraint &r) { r.b = 900; });
    QVERIFY(anyContains(sim.validate(), "constraint 1: particle 900 out of range, cloth has 4"));

    sim.cloths[0] = hangingChain(-1.f);
    QVERIFY(anyContains(sim.validate(), "compliance -1"));

    sim.cloths[0] = hangingChain(0.f);
    sim.cloths[0].particles.position[3].x = std::numeric_limits<float>::quiet_NaN();
    QVERIFY(anyContains(sim.validate(), "particle 3: position"));

    sim.cloths[0] = hangingChain(0.f);
    sim.solver.substeps = 0;
    QVERIFY(anyContains(sim.validate(), "solver.substeps"));

    sim.solver = {};
    Collider ball;
    ball.radius = -1.f;
    sim.colliders.push_back(ball);
    QVERIFY(anyContains(sim.validate(), "collider 0"));
}

void TestValidation::invalidSettingsAreNotStepped()
{
    Simulation sim;
    sim.cloths.push_back(hangingChain(0.f));
    sim.solver.substeps = 0;
    const std::uint64_t before = sim.stateHash();
    sim.step();
    QVERIFY(sim.status().blownUp);
    QVERIFY(sim.status().message.find("solver.substeps") != std::string::npos);
    QCOMPARE(sim.stateHash(), before);
    QCOMPARE(sim.frame(), std::uint64_t(0));
    // Fixed and cleared, it steps again.
    sim.solver.substeps = 4;
    sim.clearBlowUp();
    sim.step();
    QVERIFY(!sim.status().blownUp);
    QCOMPARE(sim.frame(), std::uint64_t(1));
}

void TestValidation::invalidClothIsNotStepped()
{
    Simulation sim;
    sim.cloths.push_back(hangingChain(0.f));
    sim.cloths[0].constraints.modify(0, [&](DistanceConstraint &r) { r.a = 77; });
    sim.step(); // must not index out of range
    QVERIFY(sim.status().blownUp);
    QVERIFY(sim.status().message.find("constraint 0") != std::string::npos);
}

void TestValidation::constraintEditedAfterSteppingIsRefused_data()
{
    QTest::addColumn<int>("kind");
    QTest::newRow("xpbd") << int(SolverKind::Xpbd);
    QTest::newRow("verlet") << int(SolverKind::Verlet);
    QTest::newRow("springs") << int(SolverKind::Springs);
}

// Once the solver has laid out a cloth, its constraints are checked while the solver's streams
// are refreshed (solvercommon.cpp, checkFrame) rather than by Cloth::validate(): an edit made
// in place between frames must still be refused, before anything moves, with the message
// that names it, and stepping resumes once it is undone.
void TestValidation::constraintEditedAfterSteppingIsRefused()
{
    QFETCH(int, kind);
    Simulation sim;
    sim.solver.kind = SolverKind(kind);
    sim.solver.substeps = 20; // within the springs solver's stability limit
    sim.cloths.push_back(hangingChain(1e-3f));
    sim.step();
    QVERIFY2(!sim.status().blownUp, sim.status().message.c_str());

    const struct {
        void (*edit)(DistanceConstraint &);
        const char *message;
    } edits[] = {
        { [](DistanceConstraint &k) { k.compliance = -1.f; }, "constraint 1: compliance -1" },
        { [](DistanceConstraint &k) { k.damping = std::numeric_limits<float>::infinity(); },
            "constraint 1: damping inf" },
        { [](DistanceConstraint &k) { k.restLength = std::numeric_limits<float>::quiet_NaN(); },
            "constraint 1: rest length" },
        { [](DistanceConstraint &k) { k.b = 77; }, "constraint 1: particle 77 out of range, cloth has 4" },
        { [](DistanceConstraint &k) { k.tearStrain = 0.f; }, "constraint 1: tear strain 0" },
    };
    for (const auto &e : edits) {
        const DistanceConstraint kept = sim.cloths[0].constraints[1];
        sim.cloths[0].constraints.modify(1, e.edit);
        const std::uint64_t before = sim.stateHash();
        const std::uint64_t frame = sim.frame();
        sim.step();
        QVERIFY(sim.status().blownUp);
        QVERIFY2(sim.status().message.find(e.message) != std::string::npos, sim.status().message.c_str());
        QCOMPARE(sim.frame(), frame);
        QCOMPARE(sim.stateHash(), before);

        sim.cloths[0].constraints.set(1, kept);
        sim.clearBlowUp();
        sim.step();
        QVERIFY2(!sim.status().blownUp, sim.status().message.c_str());
        QCOMPARE(sim.frame(), frame + 1);
    }
}

void TestValidation::springsPastStabilityLimitAreReported()
{
    // k = 1e5 N/m between a pinned particle and 10 g: ω = √(k/m) ≈ 3162 rad/s, so the
    // semi-implicit Euler limit is dt < 2/ω ≈ 6.3e-4 s; 60 Hz × 4 substeps is 4.2e-3 s.
    Simulation sim;
    sim.solver.kind = SolverKind::Springs;
    sim.solver.substeps = 4;
    sim.cloths.push_back(hangingChain(1e-5f));
    const std::uint64_t before = sim.stateHash();
    sim.step();
    QVERIFY(sim.status().blownUp);
    QVERIFY2(sim.status().message.find("solver.substeps") != std::string::npos, sim.status().message.c_str());
    QVERIFY(sim.status().message.find("stability") != std::string::npos);
    QCOMPARE(sim.stateHash(), before);
    QVERIFY(allFinite(sim));
    // The substeps it asks for are enough: ω dt < 2 needs more than 60·... ≈ 27 substeps.
    const std::string &m = sim.status().message;
    const int needed = std::stoi(m.substr(m.find("at least ") + 9));
    QVERIFY(needed >= 27);
    sim.solver.substeps = needed;
    sim.clearBlowUp();
    sim.run(60);
    QVERIFY2(!sim.status().blownUp, sim.status().message.c_str());
    QVERIFY(allFinite(sim));
}

// The per-frame check of the particles and triangles (Cloth::validExceptConstraints, sixteen
// particles at a time) must catch an edit made in place between frames at any index: in a
// vector body, in the scalar tail, at either end. 19 x 19 = 361 particles: 22 blocks of 16
// and 9 over; the grid's 648 triangles less one, 1941 indices: 485 blocks of 4 and one over.
void TestValidation::particleEditedAfterSteppingIsRefused()
{
    GridSpec g;
    g.across = 19;
    g.down = 19;
    Simulation sim;
    sim.cloths.push_back(makeGrid(g));
    sim.cloths[0].triangles.pop_back();
    sim.step();
    QVERIFY2(!sim.status().blownUp, sim.status().message.c_str());
    QCOMPARE(sim.cloths[0].particles.size(), std::size_t(361));
    QCOMPARE(sim.cloths[0].triangles.size(), std::size_t(647));

    constexpr float nan = std::numeric_limits<float>::quiet_NaN();
    constexpr float inf = std::numeric_limits<float>::infinity();
    const auto setMass = [](float m) { return [m](Cloth &c, std::uint32_t i) { c.particles.mass[i] = m; }; };
    const auto setKind = [](Cloth &c, std::uint32_t i) { c.particles.kind[i] = ParticleKind(3); };
    const auto setPrevious = [](Cloth &c, std::uint32_t i) { c.particles.previous[i].z = inf; };
    const auto setCorner
        = [](int corner) { return [corner](Cloth &c, std::uint32_t t) { c.triangles[t].v[corner] = 361; }; };
    const struct {
        std::function<void(Cloth &, std::uint32_t)> edit;
        std::uint32_t index;
        std::string message;
    } edits[] = {
        { setMass(0.f), 0, "particle 0: mass 0" },
        { setMass(-2.f), 200, "particle 200: mass -2" },
        { setMass(nan), 359, "particle 359: mass" },
        { setMass(inf), 33, "particle 33: mass" },
        { setMass(inf), 360, "particle 360: mass" },
        { setKind, 17, "particle 17: kind 3 is unknown" },
        { setKind, 360, "particle 360: kind 3 is unknown" },
        { setPrevious, 101, "particle 101" },
        { setPrevious, 360, "particle 360" },
        { setCorner(0), 0, "triangle 0: particle 361" },
        { setCorner(1), 400, "triangle 400: particle 361" },
        { setCorner(1), 646, "triangle 646: particle 361" },
        { setCorner(2), 646, "triangle 646: particle 361" },
    };
    for (const auto &e : edits) {
        test::checkEditRefused(
            sim, [&](Cloth &c) { e.edit(c, e.index); }, e.message);
        if (QTest::currentTestFailed())
            return;
    }
}

void TestValidation::runawayIsRolledBackAndFrozen()
{
    // A free-falling particle passes maxSpeed = 1 m/s after 0.102 s, in frame 7 at 60 Hz.
    Simulation sim;
    sim.world.airDamping = 0.f;
    sim.solver.maxSpeed = 1.f;
    ExplicitSpec spec;
    spec.positions = { { 0.f, 0.f, 0.f } };
    spec.masses = { 1.f };
    sim.cloths.push_back(makeExplicit(spec));
    Vec3 lastGood;
    int frames = 0;
    while (!sim.status().blownUp && frames < 100) {
        lastGood = sim.cloths[0].particles.position[0];
        sim.step();
        ++frames;
    }
    QCOMPARE(frames, 7);
    QVERIFY(sim.status().message.find("cloth 0, particle 0: speed") != std::string::npos);
    QCOMPARE(sim.cloths[0].particles.position[0], lastGood);
    QCOMPARE(sim.frame(), std::uint64_t(6));
    const std::uint64_t frozen = sim.stateHash();
    sim.run(10);
    QCOMPARE(sim.stateHash(), frozen);
    QCOMPARE(sim.frame(), std::uint64_t(6));
}

// The end-of-frame check (Simulation::detectBlowUp) clears blocks of particles at once when
// every velocity component is well under the limit, and looks at each particle otherwise: a
// particle over the limit is found at any index, though no component of its velocity is
// (0.6 or 0.58 maxSpeed in each: |v| = 1.04 or 1.005 maxSpeed), and one just under it whose block the quick
// test cannot clear (0.576 maxSpeed in each, squared 0.332 maxSpeed²: |v| = 0.998 maxSpeed)
// is not flagged. Free particles without gravity or drag keep their velocities; 301 of them,
// so that the last is in the scalar tail. A subnormal maxSpeed² leaves everything to the
// per-particle test.
void TestValidation::runawayIsFoundWhereverItIs()
{
    const float maxSpeed = 10.f; // m/s
    const auto run = [&](std::uint32_t particle, float component) {
        Simulation sim;
        sim.world.gravity = {};
        sim.world.airDamping = 0.f;
        sim.solver.maxSpeed = maxSpeed;
        ExplicitSpec spec;
        for (int i = 0; i < 301; ++i) {
            spec.positions.push_back({ float(i), 0.f, 0.f });
            spec.masses.push_back(1.f);
        }
        sim.cloths.push_back(makeExplicit(spec));
        for (Vec3 &v : sim.cloths[0].particles.velocity)
            v = { 0.3f * maxSpeed, -0.3f * maxSpeed, 0.3f * maxSpeed };
        sim.cloths[0].particles.velocity[particle] = Vec3 { component, -component, component } * maxSpeed;
        sim.step();
        return sim.status();
    };
    for (const std::uint32_t particle : { 0u, 150u, 299u, 300u }) {
        const std::string where = "particle " + std::to_string(particle) + ": speed";
        for (const float component : { 0.6f, 0.58f }) {
            const SimStatus over = run(particle, component);
            QVERIFY2(
                over.blownUp, qPrintable(QString("particle %1, %2 maxSpeed").arg(particle).arg(component)));
            QVERIFY2(over.message.find(where) != std::string::npos, over.message.c_str());
        }
        const SimStatus under = run(particle, 0.576f);
        QVERIFY2(!under.blownUp, under.message.c_str());
    }
    // maxSpeed² = 2 of the smallest subnormals: 0.33 of it rounds to 1, which a velocity of
    // 3e-23 m/s per component squares to, though |v| = 5.2e-23 m/s is over the limit.
    Simulation tiny;
    tiny.world.gravity = {};
    tiny.world.airDamping = 0.f;
    tiny.solver.maxSpeed = 5e-23f;
    ExplicitSpec spec;
    for (int i = 0; i < 16; ++i) {
        spec.positions.push_back({ float(i), 0.f, 0.f });
        spec.masses.push_back(1.f);
    }
    tiny.cloths.push_back(makeExplicit(spec));
    tiny.cloths[0].particles.velocity[5] = { 3e-23f, 3e-23f, 3e-23f };
    tiny.step();
    QVERIFY(tiny.status().blownUp);
    QVERIFY2(
        tiny.status().message.find("particle 5: speed") != std::string::npos, tiny.status().message.c_str());
}

void TestValidation::explicitEulerBlowUpLeavesFiniteState()
{
    // Explicit Euler amplifies an undamped oscillation by √(1 + ω²dt²) per step: within the
    // up-front limit it still grows until the runaway check stops it.
    Simulation sim;
    sim.solver.kind = SolverKind::Springs;
    sim.solver.integrator = SpringIntegrator::ExplicitEuler;
    sim.solver.substeps = 10;
    sim.solver.maxSpeed = 50.f;
    sim.world.airDamping = 0.f;
    sim.cloths.push_back(hangingChain(1.f / 2000.f)); // ω dt ≈ 0.75
    sim.run(2000);
    QVERIFY(sim.status().blownUp);
    QVERIFY(sim.status().message.find("exceeds solver.maxSpeed") != std::string::npos);
    QVERIFY(allFinite(sim));
    for (const Vec3 &v : sim.cloths[0].particles.velocity)
        QVERIFY(length(v) <= 50.f);
}

QTEST_APPLESS_MAIN(TestValidation)
#include "tst_validation.moc"
