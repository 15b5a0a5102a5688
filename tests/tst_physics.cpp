// Physics a designer can check by hand (issue "physics that designers can trust"): constraint
// tension and tearing by it, pin reactions, tethers, Coulomb friction on a slope, thickness at
// rest and collisions between cloths, each against its closed-form answer.
#include "mesh/meshobject.h"
#include "scene/scene.h"
#include "scene/simreport.h"
#include "sim/builders.h"
#include "sim/simulation.h"
#include "sim/tension.h"
#include "sim/tethers.h"
#include "uvsquare.h"

#include <QTest>

#include <algorithm>
#include <cmath>
#include <numbers>

using namespace drape;

namespace {

Simulation makeSim(SolverKind kind, int substeps, int iterations, float g, float airDamping)
{
    Simulation sim;
    sim.world.gravity = { 0.f, -g, 0.f };
    sim.world.airDamping = airDamping;
    sim.solver.kind = kind;
    sim.solver.frameRate = 60.f;
    sim.solver.substeps = substeps;
    sim.solver.iterations = iterations;
    return sim;
}

// 20 particles of 1 kg, particle 0 pinned, links of 0.1 m and stiffness 10⁴ N/m.
Cloth chainOf20()
{
    RopeSpec r;
    r.count = 20;
    r.length = 1.9f;
    r.start = { 0.f, 3.f, 0.f };
    r.linkMass = 1.f;
    r.params.compliance = 1e-4f;
    Cloth c = makeRope(r);
    c.particles.setKind(0, ParticleKind::Static);
    c.tearMode = TearMode::RemoveConstraint;
    return c;
}

// A vertical sheet hanging from its pinned top row; shear and bend constraints are 10 and
// 100 times softer than the structural ones.
Cloth hangingSheet(int n, float arealDensity, float structuralCompliance)
{
    GridSpec g;
    g.across = n;
    g.down = n;
    g.width = 1.f;
    g.height = 1.f;
    g.arealDensity = arealDensity;
    g.structuralParams.compliance = structuralCompliance;
    g.shearParams.compliance = 10.f * structuralCompliance;
    g.bendParams.compliance = 100.f * structuralCompliance;
    Cloth c = makeGrid(g);
    for (int i = 0; i < n; ++i)
        c.particles.setKind(gridIndex(g, i, 0), ParticleKind::Static);
    return c;
}

// A flat n×n sheet of `size` m in the XZ plane centred on `centre`.
Cloth flatSheet(int n, float size, const Vec3 &centre, float thickness)
{
    GridSpec g;
    g.across = n;
    g.down = n;
    g.width = size;
    g.height = size;
    g.orientation = GridOrientation::Horizontal;
    g.origin = centre - Vec3 { 0.5f * size, 0.f, 0.5f * size };
    // Stiff but finite, so the springs solver runs at 40 substeps (ω dt < 2).
    g.arealDensity = 2.f;
    g.structuralParams.compliance = 1e-3f;
    g.shearParams.compliance = 1e-2f;
    g.bendParams.compliance = 1e-1f;
    Cloth c = makeGrid(g);
    c.thickness = thickness;
    return c;
}

Collider plane(const Vec3 &normal, float thickness, float kinetic, float staticMu)
{
    Collider k;
    k.kind = ColliderKind::Plane;
    k.normal = normal;
    k.thickness = thickness;
    k.friction = kinetic;
    k.staticFriction = staticMu;
    return k;
}

// The mean elongation (m) of the threads of `desc`, a 1 m square of n × n particles row by row
// (row 0 at the top, column 0 on the left), hanging from its top row under g along −y
// (down) or from its right column under g along −x; 600 frames with air damping 1/s settle it.
double threadElongation(ClothDesc desc, int n, SolverKind solver, int substeps, float g, bool down)
{
    desc.pins.clear();
    for (int k = 0; k < n; ++k)
        desc.pins.push_back(down ? std::uint32_t(k) : std::uint32_t(k * n + n - 1));
    Simulation sim = makeSim(solver, substeps, 1, g, 1.f);
    sim.world.gravity = down ? Vec3 { 0.f, -g, 0.f } : Vec3 { -g, 0.f, 0.f };
    sim.cloths.push_back(buildCloth(desc));
    sim.run(600);
    if (sim.status().blownUp) {
        qWarning("%s", sim.status().message.c_str());
        return std::nan("");
    }
    const std::vector<Vec3> &x = sim.cloths[0].particles.position;
    double span = 0.0;
    for (int k = 0; k < n; ++k) {
        span += down ? double(x[std::size_t(k)].y - x[std::size_t((n - 1) * n + k)].y)
                     : double(x[std::size_t(k * n + n - 1)].x - x[std::size_t(k * n)].x);
    }
    return span / n - 1.0;
}

double freeWeight(const Cloth &c, double g)
{
    double w = 0.0;
    for (std::size_t i = 0; i < c.particles.size(); ++i)
        w += c.particles.invMass[i] > 0.f ? double(c.particles.mass[i]) * g : 0.0;
    return w;
}

} // namespace

class TestPhysics : public QObject {
    Q_OBJECT

private slots:
    void chainTensionTears_data();
    void chainTensionTears();
    void pinReactionsCarryTheWeight_data();
    void pinReactionsCarryTheWeight();
    void tensionIsMadeOnRequest_data();
    void tensionIsMadeOnRequest();
    void reportTotalsOfAHangingChain();
    void tethersHoldTheStretchLimit_data();
    void tethersHoldTheStretchLimit();
    void frictionOnASlope_data();
    void frictionOnASlope();
    void restsAtItsThickness_data();
    void restsAtItsThickness();
    void stackedSheetsStaySeparate_data();
    void stackedSheetsStaySeparate();
    void wovenFabricStretchesByThread_data();
    void wovenFabricStretchesByThread();
    void threadsFromUvsStretchByTheirStiffness();
};

void TestPhysics::chainTensionTears_data()
{
    QTest::addColumn<int>("solver");
    QTest::newRow("xpbd") << int(SolverKind::Xpbd);
    QTest::newRow("verlet") << int(SolverKind::Verlet);
    QTest::newRow("springs") << int(SolverKind::Springs);
}

// At rest the top link of a chain of 20 particles of 1 kg (g = 10) carries the 19 free
// particles below it: 190 N. A 185 N tear force tears it (and only it: the next link carries
// 180 N), 195 N does not.
void TestPhysics::chainTensionTears()
{
    QFETCH(int, solver);
    for (const float threshold : { 185.f, 195.f }) {
        Simulation sim = makeSim(SolverKind(solver), 20, 1, 10.f, 2.f);
        sim.cloths.push_back(chainOf20());
        sim.run(900); // 15 s: the oscillation decays as exp(-t)
        QVERIFY2(!sim.status().blownUp, sim.status().message.c_str());
        const Cloth &c = sim.cloths[0];
        const std::vector<float> tension = sim.constraintTensions(0);
        QCOMPARE(tension.size(), c.constraints.size());
        QVERIFY2(std::abs(tension[0] - 190.f) < 0.5f, qPrintable(QString::number(tension[0])));
        QVERIFY(std::abs(tension[1] - 180.f) < 0.5f);

        sim.cloths[0].constraints.modifyAll([&](DistanceConstraint &k) { k.tearForce = threshold; });
        sim.cloths[0].touchTopology(); // the cache learns the cloth became tearable
        std::uint32_t torn = 0;
        for (int f = 0; f < 30; ++f) {
            sim.step();
            torn += sim.lastStepStats().tornConstraints;
        }
        if (threshold < 190.f) {
            QCOMPARE(torn, 1u);
            QCOMPARE(sim.cloths[0].constraints.size(), std::size_t(18));
            for (const DistanceConstraint &k : sim.cloths[0].constraints)
                QVERIFY(k.a != 0 && k.b != 0); // the top link went
        } else {
            QCOMPARE(torn, 0u);
            QCOMPARE(sim.cloths[0].constraints.size(), std::size_t(19));
        }
    }
}

void TestPhysics::pinReactionsCarryTheWeight_data()
{
    chainTensionTears_data();
}

void TestPhysics::tensionIsMadeOnRequest_data()
{
    chainTensionTears_data();
}

// A cloth that can tear has its tension written per constraint every substep (tearing reads
// it); one that cannot leaves the last substep's multipliers in the solver's streams and has
// it made when asked. Both must read the same, bit for bit, on the plain frame and on one
// with a collider; an edit of the topology leaves it unknown until a step.
void TestPhysics::tensionIsMadeOnRequest()
{
    QFETCH(int, solver);
    for (const bool collider : { false, true }) {
        Simulation onRequest = makeSim(SolverKind(solver), 40, 1, 9.81f, 1.f);
        onRequest.cloths.push_back(hangingSheet(12, 1.f, 1e-3f));
        // A finite tear strain tears nothing while the tear mode is None (a new editor
        // cloth's defaults): no record is kept for it.
        onRequest.cloths[0].constraints.modifyAll([&](DistanceConstraint &k) { k.tearStrain = 0.5f; });
        QCOMPARE(onRequest.cloths[0].tearMode, TearMode::None);
        if (collider) { // a ball pressing into the middle of the sheet: the frames are not plain
            Collider ball;
            ball.kind = ColliderKind::Sphere;
            ball.baseCenter = ball.center = { 0.f, 1.f, 0.08f };
            ball.radius = 0.1f;
            onRequest.colliders.push_back(ball);
        }
        Simulation written = onRequest;
        written.cloths[0].tearMode = TearMode::RemoveConstraint;
        written.cloths[0].constraints.modifyAll([](DistanceConstraint &k) {
            k.tearForce = 1e30f; // never reached (nor is the tear strain), but the cloth can tear
        });
        QVERIFY(onRequest.constraintTensions(0)
            == std::vector<float>(onRequest.cloths[0].constraints.size(), 0.f));
        for (int f = 0; f < 20; ++f) {
            for (Simulation *sim : { &onRequest, &written }) {
                sim->cloths[0].particles.position[0].z += 0.002f; // a pinned corner moved: the sheet swings
                sim->step();
                QVERIFY2(!sim->status().blownUp, sim->status().message.c_str());
            }
            QCOMPARE(onRequest.stateHash(), written.stateHash());
            const std::vector<float> asked = onRequest.constraintTensions(0);
            QCOMPARE(asked, written.constraintTensions(0)); // the same bits
            QVERIFY2(std::any_of(asked.begin(), asked.end(), [](float t) { return t > 0.01f; }),
                qPrintable(QString("frame %1: no tension").arg(f)));
            QVERIFY(Simulation(onRequest).constraintTensions(0) == asked); // a copy carries it
        }
        // Kept per constraint only by the cloth that can tear (and by the springs solver,
        // whose force pass makes it anyway).
        if (SolverKind(solver) != SolverKind::Springs)
            QCOMPARE(onRequest.stateBytesByPart(0).tension, std::size_t(0));
        QVERIFY(written.stateBytesByPart(0).tension >= written.cloths[0].constraints.size() * sizeof(float));

        // A constraint removed between frames: unknown (all zero) for the constraints now there,
        // whichever way it was kept, and known again after the next step.
        for (Simulation *sim : { &onRequest, &written }) {
            Cloth &cloth = sim->cloths[0];
            cloth.constraints.erase(cloth.constraints.begin());
            cloth.touchTopology();
            QVERIFY(sim->constraintTensions(0) == std::vector<float>(cloth.constraints.size(), 0.f));
            sim->step();
            const std::vector<float> t = sim->constraintTensions(0);
            QCOMPARE(t.size(), cloth.constraints.size());
            QVERIFY(std::any_of(t.begin(), t.end(), [](float v) { return v > 0.01f; }));
        }
        QVERIFY(onRequest.constraintTensions(0) == written.constraintTensions(0));
    }
}

// At rest the pins of a hanging sheet hold exactly the weight of its free particles:
// Σ R = -g Σ m_free, within 0.5 %, and nothing sideways.
void TestPhysics::pinReactionsCarryTheWeight()
{
    QFETCH(int, solver);
    constexpr float g = 9.81f;
    // The springs solver needs ω dt < 2 for its stiffest mode: 40 substeps.
    Simulation sim = makeSim(SolverKind(solver), 40, 1, g, 1.f);
    sim.cloths.push_back(hangingSheet(12, 1.f, 1e-3f));
    sim.run(600);
    QVERIFY2(!sim.status().blownUp, sim.status().message.c_str());
    const std::vector<PinReaction> reactions = pinReactions(sim.cloths[0], sim.constraintTensions(0));
    QCOMPARE(reactions.size(), std::size_t(12));
    Vec3 sum;
    for (const PinReaction &r : reactions) {
        QVERIFY(sim.cloths[0].particles.invMass[r.particle] == 0.f);
        sum += r.force;
    }
    const double weight = freeWeight(sim.cloths[0], g);
    QVERIFY2(std::abs(double(sum.y) / weight - 1.0) < 0.005,
        qPrintable(QString("sum %1 N, weight %2 N").arg(sum.y).arg(weight)));
    QVERIFY(std::abs(double(sum.x)) < 0.005 * weight);
    QVERIFY(std::abs(double(sum.z)) < 0.005 * weight);
}

// The --report totals of the 20 × 1 kg chain at rest: the pin holds 190 N up, the top link
// is the most stressed (190 N over the 0.1 m link spacing of a rope = 1900 N/m), nothing tore.
void TestPhysics::reportTotalsOfAHangingChain()
{
    Scene scene;
    ClothDesc desc;
    desc.source = ClothSource::Rope;
    desc.rope.count = 20;
    desc.rope.length = 1.9f;
    desc.rope.linkMass = 1.f;
    desc.material.stretchStiffness = 1e4f; // k = K for a rope link of one spacing
    desc.material.damping = 0.f;
    desc.pins = { 0 };
    scene.cloths.push_back(desc);
    scene.world.gravity = { 0.f, -10.f, 0.f };
    scene.world.airDamping = 2.f;
    scene.solver.substeps = 20;
    Simulation sim = buildSimulation(scene);
    sim.run(900);
    const FrameTotals t = frameTotals(scene, sim);
    QCOMPARE(t.frame, std::uint64_t(900));
    QCOMPARE(t.pins, 1u);
    QVERIFY2(std::abs(t.pinReaction.y - 190.f) < 0.5f, qPrintable(QString::number(t.pinReaction.y)));
    QVERIFY(std::abs(t.maxStress / 1900.0 - 1.0) < 0.005);
    // 190 N / k over L = 0.1 m; one-iteration XPBD stretches by (α + w Δt²) T, 0.7 % more.
    QVERIFY2(
        std::abs(t.maxStrain / (190.0 / 1e4 / 0.1) - 1.0) < 0.01, qPrintable(QString::number(t.maxStrain)));
    QVERIFY(t.kineticEnergy < 1e-6);
    QCOMPARE(t.torn, 0u);
    const std::string json = reportJson({ t, t });
    QVERIFY(json.starts_with("{\n  \"format\": \"drape-report\""));
    QVERIFY(json.find("\"frame\": 900") != std::string::npos);
    QVERIFY(json.find("\"pinReaction\": [") != std::string::npos);
}

// Tethers at 1.05 on a heavy soft sheet, 1 substep × 1 iteration: no particle is ever farther
// than 1.05 × its rest distance along the cloth from the pin above it; without tethers the
// same sheet stretches well past that.
void TestPhysics::tethersHoldTheStretchLimit_data()
{
    QTest::addColumn<int>("solver");
    QTest::addColumn<int>("substeps");
    QTest::addColumn<float>("compliance"); // m/N, structural; shear and bend 10× and 100× softer
    // One substep of one iteration leaves the position-based solvers far softer than their
    // constraints. The springs are explicit: 4 substeps keep ω dt < 2 for springs 10× softer,
    // which stretch the sheet as much under its weight.
    QTest::newRow("xpbd") << int(SolverKind::Xpbd) << 1 << 1e-3f;
    QTest::newRow("verlet") << int(SolverKind::Verlet) << 1 << 1e-3f;
    QTest::newRow("springs") << int(SolverKind::Springs) << 4 << 1e-2f;
}

void TestPhysics::tethersHoldTheStretchLimit()
{
    QFETCH(int, solver);
    QFETCH(int, substeps);
    QFETCH(float, compliance);
    constexpr int n = 16;
    const float h = 1.f / float(n - 1);
    // Strain of every attachment path: distance to the pin straight above over the rest
    // length of the path (the sum of the float rest lengths of its edges, which differ from
    // j·h by float rounding of the grid positions, ~1e-6 relative).
    const Tethers paths = computeTethers(hangingSheet(n, 5.f, compliance));
    const auto maxStrain = [&](const Cloth &c) {
        double worst = 0.0;
        for (std::size_t k = 0; k < paths.particle.size(); ++k) {
            const Vec3 d = c.particles.position[paths.particle[k]] - c.particles.position[paths.anchor[k]];
            worst = std::max(worst, double(length(d)) / double(paths.restDistance[k]) - 1.0);
        }
        return worst;
    };
    for (const float stretch : { 0.f, 1.05f }) {
        Simulation sim = makeSim(SolverKind(solver), substeps, 1, 9.81f, 0.f);
        sim.cloths.push_back(hangingSheet(n, 5.f, compliance));
        sim.cloths[0].tetherStretch = stretch;
        if (stretch > 0.f) {
            const Tethers t = computeTethers(sim.cloths[0]);
            QCOMPARE(t.particle.size(), std::size_t(n * (n - 1)));
            for (std::size_t k = 0; k < t.particle.size(); ++k) {
                QCOMPARE(t.anchor[k], t.particle[k] % std::uint32_t(n)); // the pin straight above
                QVERIFY(std::abs(t.restDistance[k] - float(t.particle[k] / n) * h) < 1e-5f);
            }
        }
        double worst = 0.0;
        for (int f = 0; f < 180; ++f) {
            sim.step();
            QVERIFY2(!sim.status().blownUp, sim.status().message.c_str());
            worst = std::max(worst, maxStrain(sim.cloths[0]));
        }
        if (stretch > 0.f)
            QVERIFY2(worst <= 0.05 + 1e-6, qPrintable(QString::number(worst)));
        else
            QVERIFY2(worst > 0.2, qPrintable(QString::number(worst)));
    }
}

void TestPhysics::frictionOnASlope_data()
{
    QTest::addColumn<int>("solver");
    QTest::addColumn<float>("staticMu");
    QTest::addColumn<float>("kineticMu");
    QTest::addColumn<double>("degrees");
    QTest::addColumn<bool>("holds");
    const double critical = std::atan(0.5) * 180.0 / std::numbers::pi; // 26.57°
    for (const int s : { 0, 1, 2 }) {
        const char *name = s == 0 ? "xpbd" : s == 1 ? "verlet" : "springs";
        QTest::addRow("%s, 1° below atan μ", name) << s << 0.5f << 0.5f << critical - 1.0 << true;
        QTest::addRow("%s, 1° above atan μ", name) << s << 0.5f << 0.5f << critical + 1.0 << false;
        // 26° lies between atan 0.4 = 21.8° and atan 0.6 = 31.0°: static friction holds it,
        // kinetic friction alone would not.
        QTest::addRow("%s, static 0.6 kinetic 0.4", name) << s << 0.6f << 0.4f << 26.0 << true;
        QTest::addRow("%s, static 0.4 kinetic 0.4", name) << s << 0.4f << 0.4f << 26.0 << false;
    }
}

// Coulomb friction: a sheet laid on a slope of angle θ stays put while tanθ < μ_s and slides
// with a = g (sinθ - μ_k cosθ) above; tested 1° either side of tanθ = μ.
void TestPhysics::frictionOnASlope()
{
    QFETCH(int, solver);
    QFETCH(float, staticMu);
    QFETCH(float, kineticMu);
    QFETCH(double, degrees);
    QFETCH(bool, holds);
    constexpr float g = 9.81f, thickness = 0.005f;
    const double theta = degrees * std::numbers::pi / 180.0;
    const float c = float(std::cos(theta)), s = float(std::sin(theta));
    const Vec3 normal { -s, c, 0.f }, uphill { c, s, 0.f };
    Simulation sim = makeSim(SolverKind(solver), 40, 1, g, 0.f);
    sim.colliders.push_back(plane(normal, 0.f, kineticMu, staticMu));
    Cloth sheet = flatSheet(6, 0.2f, {}, thickness);
    for (Vec3 &x : sheet.particles.position) // onto the slope, resting at its thickness
        x = Vec3 { x.x * c - x.y * s, x.x * s + x.y * c, x.z } + normal * thickness;
    sheet.particles.previous = sheet.particles.position;
    sim.cloths.push_back(sheet);
    const auto along = [&] {
        double sum = 0.0;
        for (const Vec3 &x : sim.cloths[0].particles.position)
            sum += double(dot(x, uphill));
        return sum / double(sim.cloths[0].particles.size());
    };
    const double start = along();
    constexpr double seconds = 2.0;
    sim.run(int(seconds * 60.0));
    QVERIFY2(!sim.status().blownUp, sim.status().message.c_str());
    const double moved = along() - start; // negative = down the slope
    const double sliding = 0.5 * g * (std::sin(theta) - kineticMu * std::cos(theta)) * seconds * seconds;
    if (holds)
        QVERIFY2(std::abs(moved) < 1e-3, qPrintable(QString("moved %1 m").arg(moved)));
    else
        QVERIFY2(-moved > 0.9 * sliding && -moved < 1.1 * sliding,
            qPrintable(QString("moved %1 m, expected %2 m down").arg(moved).arg(-sliding)));
}

void TestPhysics::restsAtItsThickness_data()
{
    QTest::addColumn<int>("solver");
    QTest::newRow("xpbd") << int(SolverKind::Xpbd);
    QTest::newRow("verlet") << int(SolverKind::Verlet);
    QTest::newRow("springs") << int(SolverKind::Springs);
}

// A sheet dropped on the ground rests at the cloth's thickness plus the ground's margin
// (±10 %), and at rest nothing jitters: every particle slower than 1 mm/s.
void TestPhysics::restsAtItsThickness()
{
    QFETCH(int, solver);
    constexpr float clothThickness = 0.01f, groundMargin = 0.005f;
    Simulation sim = makeSim(SolverKind(solver), 40, 1, 9.81f, 0.05f);
    sim.colliders.push_back(plane({ 0.f, 1.f, 0.f }, groundMargin, 0.3f, -1.f));
    sim.cloths.push_back(flatSheet(11, 0.5f, { 0.f, 0.2f, 0.f }, clothThickness));
    sim.run(180);
    const float rest = clothThickness + groundMargin;
    for (int f = 0; f < 60; ++f) {
        sim.step();
        QVERIFY2(!sim.status().blownUp, sim.status().message.c_str());
        const Particles &p = sim.cloths[0].particles;
        for (std::size_t i = 0; i < p.size(); ++i) {
            QVERIFY2(std::abs(p.position[i].y - rest) <= 0.1f * rest,
                qPrintable(QString("particle %1 at %2 m").arg(i).arg(p.position[i].y)));
            QVERIFY2(length(p.velocity[i]) < 1e-3f,
                qPrintable(QString("particle %1 moves at %2 m/s").arg(i).arg(length(p.velocity[i]))));
        }
    }
}

void TestPhysics::stackedSheetsStaySeparate_data()
{
    QTest::addColumn<int>("solver");
    QTest::addColumn<int>("substeps");
    QTest::newRow("xpbd") << int(SolverKind::Xpbd) << 10;
    QTest::newRow("verlet") << int(SolverKind::Verlet) << 10;
    QTest::newRow("springs") << int(SolverKind::Springs) << 40; // ω dt < 2 for flatSheet()
}

// A small sheet dropped onto a larger one lying on the ground stays on top of it, one
// thickness of each apart, with solver.clothCollision; without it, it falls through.
void TestPhysics::stackedSheetsStaySeparate()
{
    QFETCH(int, solver);
    QFETCH(int, substeps);
    constexpr float t = 0.01f;
    for (const bool enabled : { true, false }) {
        Simulation sim = makeSim(SolverKind(solver), substeps, 1, 9.81f, 0.05f);
        sim.solver.clothCollision = enabled;
        sim.colliders.push_back(plane({ 0.f, 1.f, 0.f }, 0.f, 0.3f, -1.f));
        sim.cloths.push_back(flatSheet(9, 0.4f, { 0.f, t, 0.f }, t));
        // Offset by half a cell so its particles fall between the lower sheet's particles.
        sim.cloths.push_back(flatSheet(7, 0.3f, { -0.025f, 0.08f, -0.025f }, t));
        sim.run(120);
        QVERIFY2(!sim.status().blownUp, sim.status().message.c_str());
        float lowest = 1.f;
        for (const Vec3 &x : sim.cloths[1].particles.position)
            lowest = std::min(lowest, x.y);
        float highest = -1.f;
        for (const Vec3 &x : sim.cloths[0].particles.position)
            highest = std::max(highest, x.y);
        if (enabled) {
            QVERIFY2(std::abs(highest - t) < 0.1f * t, qPrintable(QString::number(highest)));
            QVERIFY2(
                lowest >= t + 0.9f * 2.f * t, qPrintable(QString("upper sheet down to %1 m").arg(lowest)));
        } else {
            QVERIFY2(lowest < t + t, qPrintable(QString::number(lowest)));
        }
    }
}

void TestPhysics::wovenFabricStretchesByThread_data()
{
    QTest::addColumn<int>("solver");
    QTest::addColumn<int>("substeps");
    // XPBD with one iteration adds a compliance of about (w_a + w_b) Δt² to every constraint
    // (Macklin et al. 2016, §5), a bias that shrinks with Δt²: 100 substeps keep it below 0.5 %.
    QTest::newRow("xpbd") << int(SolverKind::Xpbd) << 100;
    QTest::newRow("springs") << int(SolverKind::Springs) << 20;
    // Verlet's one relaxation pass per substep is XPBD's first iteration (solververlet.cpp),
    // so it honours each constraint's compliance, and the threads', the same way.
    QTest::newRow("verlet") << int(SolverKind::Verlet) << 100;
}

// Woven fabric: a square sheet with warp 10× stiffer than weft, hanging once along its warp
// and once along its weft under the same load, stretches 10× more along the weft (±5 %).
void TestPhysics::wovenFabricStretchesByThread()
{
    QFETCH(int, solver);
    QFETCH(int, substeps);
    constexpr int n = 11;
    constexpr float g = 9.81f;
    ClothDesc desc;
    desc.grid.across = n;
    desc.grid.down = n;
    desc.grid.width = 1.f;
    desc.grid.height = 1.f;
    desc.grid.shear = false; // structural edges only: each thread carries its own load
    desc.grid.bend = false;
    desc.material.arealDensity = 0.5f;
    desc.material.stretchStiffness = 100.f; // weft
    desc.material.warpStretchStiffness = 1000.f;
    double elongation[2] = {}; // along the warp (down), along the weft (across)
    for (int along = 0; along < 2; ++along) // top row pinned for the warp, right column for the weft
        elongation[along] = threadElongation(desc, n, SolverKind(solver), substeps, g, along == 0);
    // A column stretches by Σ over its links of the weight below, over k = K: g Σ_i m_i i / K,
    // Σ_i m_i i = 0.25 kg for an inner column, 0.125 kg for the two edge columns (half mass).
    const double expected = 2.5 / double(n) * g / 1000.0;
    QVERIFY2(std::abs(elongation[0] / expected - 1.0) < 0.05, qPrintable(QString::number(elongation[0])));
    const double ratio = elongation[1] / elongation[0];
    QVERIFY2(std::abs(ratio / 10.0 - 1.0) < 0.05,
        qPrintable(
            QString("weft %1 m, warp %2 m, ratio %3").arg(elongation[1]).arg(elongation[0]).arg(ratio)));
}

// Woven fabric from an imported mesh: the warp runs along the UVs' v. A square whose warp is
// 10× stiffer than its weft stretches 10× less along the warp (±5 %); with its UVs turned a
// quarter, the other axis is the stiff one.
void TestPhysics::threadsFromUvsStretchByTheirStiffness()
{
    constexpr int n = 11;
    constexpr float g = 9.81f, weft = 100.f, warp = 1000.f; // N/m
    Material fabric;
    fabric.arealDensity = 0.5f;
    fabric.stretchStiffness = weft;
    fabric.warpStretchStiffness = warp;
    for (const bool turned : { false, true }) {
        ClothDesc desc = meshToCloth(testing::uvSquare(n, 1.f, turned), fabric, "square");
        // The threads only, as the grid test has them: the cells' diagonals, which would share
        // the load between the threads, are dropped, and the sheet is limp.
        std::vector<DistanceConstraint> &k = desc.explicitData.constraints;
        const std::vector<Vec3> &rest = desc.explicitData.rest;
        k.erase(std::remove_if(k.begin(), k.end(),
                    [&](const DistanceConstraint &c) {
                        const Vec3 d = rest[c.b] - rest[c.a];
                        return std::abs(d.x) > 1e-6f && std::abs(d.y) > 1e-6f;
                    }),
            k.end());
        QCOMPARE(k.size(), std::size_t(2 * n * (n - 1)));
        desc.explicitData.bending = false;
        const std::vector<float> &mass = buildCloth(desc).particles.mass;
        double elongation[2] = {}; // down the square, across it
        for (int along = 0; along < 2; ++along) {
            const bool down = along == 0;
            elongation[along] = threadElongation(desc, n, SolverKind::Springs, 20, g, down);
            // A thread's links stand for a strip as wide as the mesh's mean edge length (which
            // counts the diagonals), so k = K · spacing / h; each link carries the weight
            // beyond it: the thread stretches by g Σ_j m_j d_j / k, d_j the links between
            // particle j and the pin, and the mean over the n threads is taken.
            const bool alongWarp = down != turned;
            const double h = 1.0 / (n - 1);
            const double stiffness = (alongWarp ? warp : weft) * desc.explicitData.spacing / h;
            double moment = 0.0;
            for (int row = 0; row < n; ++row)
                for (int col = 0; col < n; ++col)
                    moment += double(mass[std::size_t(row * n + col)]) * (down ? row : n - 1 - col);
            const double expected = g * moment / (n * stiffness);
            QVERIFY2(std::abs(elongation[along] / expected - 1.0) < 0.05,
                qPrintable(QString("turned %1, %2: %3 m, expected %4 m")
                        .arg(turned)
                        .arg(down ? "down" : "across")
                        .arg(elongation[along])
                        .arg(expected)));
        }
        const double ratio = turned ? elongation[0] / elongation[1] : elongation[1] / elongation[0];
        QVERIFY2(std::abs(ratio / 10.0 - 1.0) < 0.05, qPrintable(QString("turned %1: ratio %2").arg(turned).arg(ratio)));
    }
}

QTEST_GUILESS_MAIN(TestPhysics)
#include "tst_physics.moc"
