// Dihedral bending (sim/bending.h): the hinge angle and its gradient, one hinge per interior
// edge rebuilt with the topology, the rigidity in N·m through scenes and old files, and the
// Euler–Bernoulli cantilever on every solver at three resolutions.
#include "mesh/meshobject.h"
#include "sanitizers.h"
#include "scene/scene.h"
#include "scene/scenefile.h"
#include "scene/take.h"
#include "sim/bending.h"
#include "sim/builders.h"
#include "sim/simulation.h"
#include "uvsquare.h"

// White-box: the bending pass and its eight-lane chunks.
#include "bendingsolve.h"
#include "xpbdkernel.h"

#include <QTest>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <random>
#include <set>

using namespace drape;

namespace {

// A cantilever strip, the numbers of the analytic check: free length L, width W, areal
// density ρ, rigidity per unit width B chosen so that the tip sags about 3 % of L (small
// deflection). Euler–Bernoulli under its own weight q = ρ g W per unit length, with the
// strip's rigidity B W: w_tip = q L⁴ / (8 B W) = ρ g L⁴ / (8 B).
constexpr double kLength = 1.0; // m
constexpr float kWidth = 0.05f; // m
constexpr float kDensity = 0.2f; // kg/m²
constexpr float kGravity = 9.81f; // m/s²
constexpr float kRigidity
    = float(double(kDensity) * kGravity * kLength * kLength * kLength / (8.0 * 0.03)); // N·m

// The clamp: the two pinned rows at x = −h and x = 0 hold the strip at zero slope. A hinge's
// bending reaches half a cell to either side of it (each triangle carries the curvature of
// its edges), so the hinge on the last pinned row bends over the half cell behind it as well:
// the strip is clamped at x = −h/2, midway between the pinned rows, and its free length is
// L + h/2. (Counted from x = 0 instead, the deflection is 1 + 2h/L times the formula's: +13 %
// at 16 segments, +3 % at 64, shrinking with h as the clamp's half cell does.)
double eulerBernoulliTip(int segments)
{
    const double l = kLength + 0.5 * kLength / segments;
    return double(kDensity) * kGravity * l * l * l * l / (8.0 * double(kRigidity));
}

// A horizontal strip of `segments` cells along x over the free length, one cell across, with
// one more column behind x = 0; both columns at x ≤ 0 are pinned. Membrane rigid (compliance
// 0), no legacy bending springs: all the bending comes from the hinges.
Cloth cantilever(int segments)
{
    GridSpec g;
    const float h = float(kLength) / float(segments);
    g.across = segments + 2;
    g.down = 2;
    g.width = float(kLength) + h;
    g.height = kWidth;
    g.orientation = GridOrientation::Horizontal;
    g.origin = { -h, 0.f, 0.f };
    g.bend = false;
    g.structuralParams.compliance = 0.f;
    g.shearParams.compliance = 0.f;
    g.arealDensity = kDensity;
    Cloth c = makeGrid(g);
    for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 2; ++j)
            c.particles.setKind(gridIndex(g, i, j), ParticleKind::Static);
    c.bending.rigidity = kRigidity;
    return c;
}

// Steady tip deflection (m, positive down) after 0.4 s with air damping 40/s, which takes the
// first mode (ω₁ = 1.875² √(B / (ρ L⁴)) ≈ 22 rad/s) and every faster one down by e⁻⁸.
// Substeps of 10 µs keep the springs solver under its stability limit at 64 segments. XPBD
// reaches the equilibrium of its implicit steps with 4 iterations per substep (its patches
// are stiff against α̃ at 64 segments, where one iteration stops 13 % short of it). Verlet
// relaxes without multipliers, so more passes would stiffen it; it gets the equilibrium from
// substeps short enough for the patches to be compliant against α̃ (2.5 µs at 64 segments).
double tipDeflection(SolverKind kind, int segments)
{
    Simulation sim;
    sim.world.gravity = { 0.f, -kGravity, 0.f };
    sim.world.airDamping = 40.f;
    sim.solver.kind = kind;
    sim.solver.frameRate = kind == SolverKind::Verlet && segments > 32 ? 400.f : 100.f;
    sim.solver.substeps = 1000;
    sim.solver.iterations = kind == SolverKind::Xpbd ? 4 : 1;
    sim.cloths.push_back(cantilever(segments));
    sim.run(int(0.4f * sim.solver.frameRate));
    if (sim.status().blownUp) {
        qWarning("%s", sim.status().message.c_str());
        return std::nan("");
    }
    const Cloth &c = sim.cloths.front();
    const std::size_t across = std::size_t(segments) + 2;
    const double tipY
        = 0.5 * (double(c.particles.position[across - 1].y) + double(c.particles.position[2 * across - 1].y));
    return -tipY;
}

} // namespace

class TestBending : public QObject {
    Q_OBJECT
private slots:
    void gradientMatchesFiniteDifferences();
    void angleIsSignedAndRestAngleKept();
    void oneHingePerInteriorEdge();
    void warpRigidityFollowsHingeDirection();
    void warpFromUvsTurnsTheBending();
    void hingesFollowTears();
    void cantileverMatchesEulerBernoulli_data();
    void cantileverMatchesEulerBernoulli();
    void gridsBendWithTheMaterialRigidity();
    void oldBendStiffnessLoadsAsRigidity();
    void oldTakeEventsReplayAsRigidity();
    void bendModelOnlyWhileTheClothBends();
    void chunkedPassKeepsTheOneByOneBits();
};

void TestBending::gradientMatchesFiniteDifferences()
{
    // A folded, skewed hinge: the analytic gradient against central differences.
    const Vec3 base[4]
        = { { 0.1f, -0.2f, 0.05f }, { 1.1f, 0.1f, -0.1f }, { 0.4f, 0.9f, 0.3f }, { 0.7f, -0.8f, 0.45f } };
    float angle = 0.f;
    Vec3 grad[4];
    QVERIFY(bendAngle(base[0], base[1], base[2], base[3], angle, grad));
    QVERIFY(std::fabs(angle) > 0.3f); // really folded
    const float eps = 1e-3f;
    for (int j = 0; j < 4; ++j) {
        for (int axis = 0; axis < 3; ++axis) {
            Vec3 plus[4], minus[4];
            for (int k = 0; k < 4; ++k)
                plus[k] = minus[k] = base[k];
            float *p = axis == 0 ? &plus[j].x : axis == 1 ? &plus[j].y : &plus[j].z;
            float *m = axis == 0 ? &minus[j].x : axis == 1 ? &minus[j].y : &minus[j].z;
            *p += eps;
            *m -= eps;
            float ap = 0.f, am = 0.f;
            Vec3 unused[4];
            QVERIFY(bendAngle(plus[0], plus[1], plus[2], plus[3], ap, unused));
            QVERIFY(bendAngle(minus[0], minus[1], minus[2], minus[3], am, unused));
            const float numeric = (ap - am) / (2.f * eps);
            QVERIFY2(std::fabs(numeric - grad[j][axis]) < 2e-3f * (1.f + std::fabs(numeric)),
                qPrintable(QStringLiteral("corner %1 axis %2: analytic %3, numeric %4")
                               .arg(j)
                               .arg(axis)
                               .arg(grad[j][axis])
                               .arg(numeric)));
        }
    }
}

void TestBending::angleIsSignedAndRestAngleKept()
{
    // Both wings lifted by ε over a hinge along x: a valley of θ = 2 atan(ε) seen from +z.
    const float e = 0.1f;
    float angle = 0.f;
    Vec3 grad[4];
    QVERIFY(bendAngle({ 0, 0, 0 }, { 1, 0, 0 }, { 0.5f, 1, e }, { 0.5f, -1, e }, angle, grad));
    QVERIFY(std::fabs(angle - 2.f * std::atan(e)) < 1e-6f);
    QVERIFY(bendAngle({ 0, 0, 0 }, { 1, 0, 0 }, { 0.5f, 1, -e }, { 0.5f, -1, -e }, angle, grad));
    QVERIFY(std::fabs(angle + 2.f * std::atan(e)) < 1e-6f);
    // Flat: zero, and the gradient of a lifted tip is 1/h along the normal.
    QVERIFY(bendAngle({ 0, 0, 0 }, { 1, 0, 0 }, { 0.5f, 2, 0 }, { 0.3f, -1, 0 }, angle, grad));
    QCOMPARE(angle, 0.f);
    QVERIFY(std::fabs(grad[2].z - 0.5f) < 1e-6f && std::fabs(grad[3].z - 1.f) < 1e-6f);

    // A cloth authored folded keeps its fold as the rest angle.
    ExplicitSpec s;
    s.positions = { { 0, 0, 0 }, { 1, 0, 0 }, { 0.5f, 1, e }, { 0.5f, -1, e } };
    s.triangles = { { { 0, 1, 2 } }, { { 1, 0, 3 } } };
    Cloth c = makeExplicit(s);
    c.bending.rigidity = 1e-3f;
    BendModel model;
    buildBendModel(c, model);
    QCOMPARE(model.hinges.size(), std::size_t(1));
    QCOMPARE(model.patches.size(), std::size_t(2));
    QVERIFY(std::fabs(model.hinges[0].restAngle - 2.f * std::atan(e)) < 1e-6f);
    QCOMPARE(bendingEnergy(c, model, c.particles.rest), 0.0);
    // Flattened, it stores energy; folded further the other way, more.
    std::vector<Vec3> flat = c.particles.rest;
    flat[2].z = flat[3].z = 0.f;
    std::vector<Vec3> back = flat;
    back[2].z = back[3].z = -e;
    QVERIFY(bendingEnergy(c, model, flat) > 0.0);
    QVERIFY(bendingEnergy(c, model, back) > 3.5 * bendingEnergy(c, model, flat));
}

void TestBending::oneHingePerInteriorEdge()
{
    for (const auto &[a, d] : { std::pair { 2, 2 }, std::pair { 5, 3 }, std::pair { 9, 9 } }) {
        GridSpec g;
        g.across = a;
        g.down = d;
        const Cloth c = makeGrid(g);
        BendModel model;
        buildBendModel(c, model);
        // Edges: (a−1)d + a(d−1) sides + one diagonal per cell; the border has 2(a−1) + 2(d−1).
        const int cells = (a - 1) * (d - 1);
        const int interior = (a - 1) * d + a * (d - 1) + cells - 2 * (a - 1) - 2 * (d - 1);
        QCOMPARE(int(model.hinges.size()), interior);
        QCOMPARE(model.patches.size(), c.triangles.size()); // every triangle has an interior edge
        std::set<std::pair<std::uint32_t, std::uint32_t>> seen;
        for (const BendHinge &h : model.hinges) {
            QVERIFY(seen.insert({ h.v[0], h.v[1] }).second);
            QCOMPARE(h.restAngle, 0.f); // a flat sheet
        }
    }
}

// The energy of a vertical grid (warp along Y) bent to a cylinder of curvature κ about X or Y:
// an Euler–Bernoulli plate stores ½ B κ² per unit area, B of the threads that bend.
double cylinderEnergy(const Cloth &c, const BendModel &model, float kappa, bool alongWarp)
{
    std::vector<Vec3> x = c.particles.rest;
    for (Vec3 &p : x) {
        const float s = alongWarp ? p.y - 1.f : p.x; // curvature along the warp bends the warp threads
        p.z = 0.5f * kappa * s * s;
    }
    return bendingEnergy(c, model, x);
}

void TestBending::warpRigidityFollowsHingeDirection()
{
    GridSpec g;
    g.across = 33;
    g.down = 33;
    g.width = 1.f;
    g.height = 1.f;
    Cloth c = makeGrid(g);
    c.bending = { 1e-5f, 4e-5f, { 0.f, 1.f, 0.f } };
    BendModel model;
    buildBendModel(c, model);
    const float kappa = 0.05f; // 1/m, a gentle curve: θ ≪ 1 per hinge
    const double weft = cylinderEnergy(c, model, kappa, false);
    const double warp = cylinderEnergy(c, model, kappa, true);
    // Within a cell of the border (the triangles there miss one hinge): 1 − 2/32.
    const double plate = 0.5 * 1e-5 * double(kappa) * double(kappa);
    QVERIFY2(weft < plate && weft > plate * (1.0 - 2.0 / 32.0), qPrintable(QString::number(weft / plate)));
    QVERIFY2(std::fabs(warp / weft - 4.0) < 1e-3, qPrintable(QString::number(warp / weft)));
}

// An imported square whose warp comes from its UVs bends 4× stiffer along the warp; turning
// its UVs a quarter turns which way is stiff. The mesh is moved to lie where the grid above
// does (y from 0 to 1), so cylinderEnergy's "along the warp" (curvature along Y) bends the
// unturned copy's warp.
void TestBending::warpFromUvsTurnsTheBending()
{
    Material fabric;
    fabric.bendRigidity = 1e-5f;
    fabric.warpBendRigidity = 4e-5f;
    const float kappa = 0.05f; // 1/m
    const double plate = 0.5 * 1e-5 * double(kappa) * double(kappa);
    for (const bool turned : { false, true }) {
        MeshGeometry square = testing::uvSquare(33, 1.f, turned);
        for (Vec3 &p : square.positions)
            p.y += 1.f;
        const Cloth c = buildCloth(meshToCloth(square, fabric, "square"));
        BendModel model;
        buildBendModel(c, model);
        const double alongY = cylinderEnergy(c, model, kappa, true);
        const double alongX = cylinderEnergy(c, model, kappa, false);
        const double soft = turned ? alongY : alongX;
        const double ratio = turned ? alongX / alongY : alongY / alongX;
        QVERIFY2(soft < plate && soft > plate * (1.0 - 2.0 / 32.0), qPrintable(QString::number(soft / plate)));
        QVERIFY2(std::fabs(ratio - 4.0) < 1e-3, qPrintable(QString::number(ratio)));
    }
}

void TestBending::hingesFollowTears()
{
    // Tear a grid along a row, by removing constraints (and their triangles) or by splitting
    // particles: the hinges are rebuilt from the triangles there are, none refers to a removed
    // triangle or joins the two sides, and the simulation keeps stepping on every solver.
    for (TearMode mode : { TearMode::RemoveConstraint, TearMode::SplitVertex })
        for (SolverKind kind : { SolverKind::Xpbd, SolverKind::Verlet, SolverKind::Springs }) {
            GridSpec g;
            g.across = 8;
            g.down = 8;
            g.bend = false;
            g.structuralParams.compliance = 1e-4f;
            g.shearParams.compliance = 1e-3f;
            Cloth c = makeGrid(g);
            c.bending.rigidity = 1e-4f;
            for (int i = 0; i < 8; ++i)
                c.particles.setKind(gridIndex(g, i, 0), ParticleKind::Static);
            BendModel before;
            buildBendModel(c, before);
            c.tearMode = mode;
            c.constraints.modifyAll([](DistanceConstraint &k) { // the vertical edges between rows 3 and 4
                if (k.kind == ConstraintKind::Structural && k.a / 8 == 3 && k.b / 8 == 4)
                    k.tearStrain = 1e-4f;
            });
            Simulation sim;
            sim.solver.kind = kind;
            sim.solver.substeps = 80;
            sim.cloths.push_back(std::move(c));
            sim.run(20);
            QVERIFY2(!sim.status().blownUp, sim.status().message.c_str());
            const Cloth &torn = sim.cloths.front();
            if (mode == TearMode::RemoveConstraint)
                QVERIFY(torn.triangles.size() < 2u * 49u);
            else
                QVERIFY(torn.particles.size() > 64u && torn.triangles.size() == 2u * 49u);
            BendModel after;
            buildBendModel(torn, after);
            QVERIFY(after.hinges.size() < before.hinges.size());
            std::set<std::array<std::uint32_t, 3>> faces;
            for (const Triangle &t : torn.triangles) {
                std::array<std::uint32_t, 3> f { t.v[0], t.v[1], t.v[2] };
                std::sort(f.begin(), f.end());
                faces.insert(f);
            }
            for (const BendHinge &h : after.hinges) {
                for (int side = 2; side < 4; ++side) {
                    std::array<std::uint32_t, 3> f { h.v[0], h.v[1], h.v[side] };
                    std::sort(f.begin(), f.end());
                    QVERIFY(faces.count(f) == 1);
                }
            }
        }
}

void TestBending::cantileverMatchesEulerBernoulli_data()
{
    QTest::addColumn<int>("solver");
    QTest::addColumn<int>("segments");
    for (const auto &[name, kind] : { std::pair { "xpbd", SolverKind::Xpbd },
             std::pair { "verlet", SolverKind::Verlet }, std::pair { "springs", SolverKind::Springs } })
        for (int n : { 16, 32, 64 })
            if (n < 64 || !testing::kSanitizedBuild) // 64 segments: a minute per solver there
                QTest::addRow("%s/%d", name, n) << int(kind) << n;
}

void TestBending::cantileverMatchesEulerBernoulli()
{
    QFETCH(int, solver);
    QFETCH(int, segments);
    const double w = tipDeflection(SolverKind(solver), segments);
    const double expected = eulerBernoulliTip(segments);
    const double error = (w - expected) / expected;
    qInfo("tip deflection %.6f m, Euler-Bernoulli %.6f m, error %+.2f %%", w, expected, 100.0 * error);
    QVERIFY2(std::isfinite(w), "the run blew up");
    QVERIFY2(std::fabs(error) < 0.05,
        qPrintable(QStringLiteral("tip deflection %1 m, expected %2 m").arg(w).arg(expected)));
}

void TestBending::gridsBendWithTheMaterialRigidity()
{
    // A grid description bends with its material's N·m through the hinges, without the old
    // skip-one springs unless the legacy option asks for them.
    ClothDesc d;
    d.grid.across = 6;
    d.grid.down = 5;
    d.material = materialPresets().front();
    Cloth c = buildCloth(d);
    QCOMPARE(c.bending.rigidity, d.material.bendRigidity);
    QVERIFY(c.bending.rigidity > 0.f);
    for (const DistanceConstraint &k : c.constraints)
        QVERIFY(k.kind != ConstraintKind::Bend);
    d.grid.bendSprings = true;
    c = buildCloth(d);
    int springs = 0;
    for (const DistanceConstraint &k : c.constraints)
        springs += k.kind == ConstraintKind::Bend;
    QCOMPARE(springs, 4 * 5 + 6 * 3); // (across − 2) down + across (down − 2)
    d.grid.bend = false;
    QCOMPARE(buildCloth(d).bending.rigidity, 0.f);

    // Saved as explicit lists (after a cut or tear), a grid without bending stays limp.
    Scene scene;
    scene.cloths = { d };
    Simulation sim = buildSimulation(scene);
    sim.cloths[0].triangles.pop_back(); // any topology change makes the save explicit
    sim.cloths[0].touchTopology();
    const Scene saved = *parseScene(serializeScene(snapshotScene(scene, sim, false)), "limp").scene;
    QCOMPARE(saved.cloths[0].source, ClothSource::Explicit);
    QVERIFY(!saved.cloths[0].explicitData.bending);
    QCOMPARE(buildCloth(saved.cloths[0]).bending.rigidity, 0.f);
    d.grid.bend = true;
    scene.cloths = { d };
    sim = buildSimulation(scene);
    sim.cloths[0].triangles.pop_back();
    sim.cloths[0].touchTopology();
    const Scene bent = *parseScene(serializeScene(snapshotScene(scene, sim, false)), "bent").scene;
    QCOMPARE(buildCloth(bent.cloths[0]).bending.rigidity, d.material.bendRigidity);
}

void TestBending::oldBendStiffnessLoadsAsRigidity()
{
    // tests/data/v1/all-kinds.json was written with bend stiffnesses of 8 and 2 N/m.
    const SceneLoadResult r = loadSceneFile(DRAPE_TEST_DATA "/v1/all-kinds.json");
    QVERIFY2(r.ok(), r.error.c_str());
    QCOMPARE(r.scene->cloths.size(), std::size_t(2));
    QCOMPARE(r.scene->cloths[0].material.bendRigidity, 8.f * kLegacyBendArea);
    QCOMPARE(r.scene->cloths[1].material.bendRigidity, 2.f * kLegacyBendArea);
    QVERIFY(r.scene->cloths[0].material.legacyBendUnits);
    // Saved again, it keeps its units and bytes (tst_scenefile checks the bytes) and reads back
    // the same; a material set in N·m is written under its own key.
    const Scene again = *parseScene(serializeScene(*r.scene), "again").scene;
    QCOMPARE(again.cloths[0].material.bendRigidity, r.scene->cloths[0].material.bendRigidity);
    Scene fresh = *r.scene;
    for (ClothDesc &c : fresh.cloths)
        c.material.legacyBendUnits = false;
    const std::string text = serializeScene(fresh);
    QVERIFY(text.find("\"bendStiffness\"") == std::string::npos);
    const Scene reread = *parseScene(text, "fresh").scene;
    QCOMPARE(reread.cloths[1].material.bendRigidity, 2.f * kLegacyBendArea);
    QVERIFY(!reread.cloths[1].material.legacyBendUnits);

    // Both keys at once are ambiguous: an error naming the old one.
    std::string mixed = text;
    const std::size_t at = mixed.find("\"bendRigidity\"");
    QVERIFY(at != std::string::npos);
    mixed.insert(at, "\"bendStiffness\": 3, ");
    const SceneLoadResult both = parseScene(mixed, "both");
    QVERIFY(!both.ok());
    QVERIFY2(both.error.find("bendStiffness") != std::string::npos, both.error.c_str());
}

void TestBending::oldTakeEventsReplayAsRigidity()
{
    // A take recorded before bending was dihedral set the bend stiffness in N/m; it replays
    // as the rigidity that converts to.
    Scene scene;
    scene.cloths.emplace_back();
    Take take;
    take.add({ 3, ParameterEvent { "material.bendRigidity", 0, 2.0 } });
    std::string text = serializeScene(scene, SaveOptions { false, &take });
    const std::size_t at = text.find("material.bendRigidity");
    QVERIFY(at != std::string::npos);
    text.replace(at, std::string("material.bendRigidity").size(), "material.bendStiffness");
    const SceneLoadResult r = parseScene(text, "old take");
    QVERIFY2(r.ok(), r.error.c_str());
    QCOMPARE(r.take.events.size(), std::size_t(1));
    const auto *e = std::get_if<ParameterEvent>(&r.take.events.front().data);
    QVERIFY(e);
    QCOMPARE(e->key, std::string("material.bendRigidity"));
    QVERIFY(std::fabs(e->value - 2.0 * double(kLegacyBendArea)) < 1e-15);
}

void TestBending::bendModelOnlyWhileTheClothBends()
{
    // The solver keeps hinges and patches only for a cloth that bends: a limp sheet does not
    // carry them, and bending switched on between frames builds them before the next step,
    // which then goes exactly as for a sheet that bent from the start.
    ClothDesc d;
    d.grid.across = 20;
    d.grid.down = 16;
    d.material = materialPresets().front();
    QVERIFY(d.material.bendRigidity > 0.f);
    Scene scene;
    scene.cloths = { d };
    Simulation bent = buildSimulation(scene);
    Simulation limp = buildSimulation(scene);
    limp.cloths[0].bending.rigidity = 0.f;
    limp.cloths[0].bending.warpRigidity = 0.f;
    limp.step();
    bent.step();
    // Both caches are built now; the bending model is about 250 bytes per particle.
    const double perParticle = double(bent.stateBytes(0) - limp.stateBytes(0)) / double(bent.cloths[0].particles.size());
    QVERIFY2(perParticle > 100.0, qPrintable(QString::number(perParticle)));

    Simulation late = buildSimulation(scene);
    const BendingParams params = late.cloths[0].bending;
    late.cloths[0].bending = BendingParams {};
    late.run(0); // nothing stepped yet; the cache is built at the first step
    late.cloths[0].bending = params;
    Simulation early = buildSimulation(scene);
    for (int frame = 0; frame < 20; ++frame) {
        early.step();
        late.step();
    }
    QCOMPARE(late.stateHash(), early.stateHash());

    // Switched on after frames without it, the model is built and the motion changes.
    Simulation turned = buildSimulation(scene);
    turned.cloths[0].bending = BendingParams {};
    for (int frame = 0; frame < 5; ++frame)
        turned.step();
    turned.cloths[0].particles.position[d.grid.across * d.grid.down / 2].z += 0.05f; // a dent to bend
    Simulation stayedLimp = turned;
    turned.cloths[0].bending = params;
    for (int frame = 0; frame < 20; ++frame) {
        turned.step();
        stayedLimp.step();
    }
    QVERIFY(turned.stateHash() != stayedLimp.stateHash());
    QVERIFY(turned.stateBytes(0) > stayedLimp.stateBytes(0));
}

void TestBending::chunkedPassKeepsTheOneByOneBits()
{
    // The AVX2 pass (solveBendChunkAvx2, eight patches at a time in the schedule's order)
    // against the one-by-one pass, bit for bit: on a crumpled, pinned sheet with a hole (its
    // border patches lack a hinge or two in their lanes, and a few patches whose neighbours
    // share a far corner run one by one between the chunks), some hinges degenerate (a
    // zero-length edge), folds past a right angle, and every mix of the three rigidities.
    if (detail::xpbdKernelIsaOfCpu() < detail::KernelIsa::Avx2)
        QSKIP("the CPU has no AVX2: the pass always runs one by one");
    GridSpec g;
    g.across = 23;
    g.down = 19;
    g.bend = false;
    Cloth c = makeGrid(g);
    // A hole: the triangles touching two particles in the middle go.
    const std::uint32_t holeA = gridIndex(g, 11, 9), holeB = gridIndex(g, 12, 9);
    std::erase_if(c.triangles, [&](const Triangle &t) {
        return std::find(std::begin(t.v), std::end(t.v), holeA) != std::end(t.v)
            || std::find(std::begin(t.v), std::end(t.v), holeB) != std::end(t.v);
    });
    // A curved rest shape (rest angles away from zero) and a warp axis.
    std::mt19937 random(7);
    std::uniform_real_distribution<float> noise(-1.f, 1.f);
    for (Vec3 &r : c.particles.rest)
        r.z += 0.02f * std::sin(7.f * r.x) + 0.005f * noise(random);
    c.bending.warpAxis = normalized(Vec3 { 1.f, 2.f, 0.3f });
    for (int i = 0; i < g.across; ++i) // three pinned rows: the patches between them are all fixed
        for (int j = 0; j < 3; ++j)
            c.particles.setKind(gridIndex(g, i, j), ParticleKind::Static);
    c.particles.setKind(gridIndex(g, 5, 12), ParticleKind::Kinematic);

    // Positions: the rest shape crumpled, with a few sharp folds and zero-length edges.
    std::vector<Vec3> origin = c.particles.rest;
    std::vector<Vec3> offset(origin.size());
    for (std::size_t i = 0; i < origin.size(); ++i) {
        origin[i] += Vec3 { 0.01f * noise(random), 0.01f * noise(random), 0.03f * noise(random) };
        offset[i] = Vec3 { 1e-4f * noise(random), 1e-4f * noise(random), 1e-4f * noise(random) };
    }
    for (int i = 0; i < g.across; ++i) // a fold past a right angle along row 14
        for (int j = 15; j < g.down; ++j)
            origin[gridIndex(g, i, j)].z += 0.08f * float(j - 14);
    for (int i : { 3, 8, 17 }) { // zero-length edges: a particle on its right-hand neighbour, both
                                 // held there (a pass would move them apart)
        origin[gridIndex(g, i, 7)] = origin[gridIndex(g, i + 1, 7)];
        offset[gridIndex(g, i, 7)] = offset[gridIndex(g, i + 1, 7)];
        c.particles.setKind(gridIndex(g, i, 7), ParticleKind::Static);
        c.particles.setKind(gridIndex(g, i + 1, 7), ParticleKind::Static);
    }

    BendModel model;
    buildBendModel(c, model);
    detail::BendSchedule schedule;
    detail::buildBendSchedule(model, c.particles.size(), schedule);
    QVERIFY(!schedule.chunks.empty());
    const auto oneByOne = std::count_if(schedule.steps.begin(), schedule.steps.end(),
        [](std::uint32_t step) { return !(step & detail::BendSchedule::kChunk); });
    QVERIFY(oneByOne > 0);
    QVERIFY(std::size_t(oneByOne) < model.patches.size() / 4);

    struct Rigidity {
        float weft, warp;
    };
    for (const Rigidity r : { Rigidity { 2e-4f, 0.f }, Rigidity { 1e-4f, 5e-3f }, Rigidity { 0.f, 3e-4f },
             Rigidity { 4e-3f, 2e-6f } }) {
        BendingParams params = c.bending;
        params.rigidity = r.weft;
        params.warpRigidity = r.warp;
        for (const bool multipliers : { true, false }) {
            // The same passes on both paths: four with the XPBD multipliers (kept from pass
            // to pass), or two without (Verlet).
            std::vector<Vec3> moved[2];
            std::vector<float> lambda[2];
            for (int path = 0; path < 2; ++path) {
                detail::setXpbdKernelLimit(path == 0 ? detail::KernelIsa::Portable : detail::KernelIsa::Avx2);
                moved[path] = offset;
                lambda[path].assign(3 * model.patches.size(), 0.f);
                for (int pass = 0; pass < (multipliers ? 4 : 2); ++pass)
                    detail::solveBending(model, schedule, params, c.particles.invMass.data(), origin.data(),
                        moved[path].data(), 1.f / 600.f, multipliers ? lambda[path].data() : nullptr);
            }
            detail::setXpbdKernelLimit(detail::KernelIsa::Avx512);
            QVERIFY(moved[0] != offset); // the pass did move the sheet
            QVERIFY(std::memcmp(moved[0].data(), moved[1].data(), moved[0].size() * sizeof(Vec3)) == 0);
            QVERIFY(std::memcmp(lambda[0].data(), lambda[1].data(), lambda[0].size() * sizeof(float)) == 0);
            if (multipliers)
                QVERIFY(std::any_of(lambda[0].begin(), lambda[0].end(), [](float l) { return l != 0.f; }));
        }
    }
}

QTEST_GUILESS_MAIN(TestBending)
#include "tst_bending.moc"
