// The parameter table and the material model: every parameter is well formed, reads back
// what it writes, appears in saved files; materials derive the compliances of the strip
// model; applySceneSettings changes a running simulation without a jolt.
#include "scene/params.h"
#include "scene/presets.h"
#include "scene/scenefile.h"
#include "scenejson.h"

#include <QtTest>

#include <cmath>
#include <set>

using namespace drape;

class TestParams : public QObject {
    Q_OBJECT
private slots:
    void tableIsWellFormed();
    void getSetRoundTrips();
    void setChangesOnlyItsParameter();
    void everyKeyAppearsInASavedFile();
    void materialDerivationSquareCells();
    void materialDerivationRectangularCells();
    void materialPresetsArePlausible();
    void applyKeepsStateAndCopiesSettings();
    void applyRederivesGeneratedCloth();
    void applyExplicitFollowsMaterialKeepingOwn();
    void applyScalesMassWithDensity();
    void applyMovesColliders();

private:
    static Scene sceneForAllParams();
};

// One grid cloth, one rope, and one collider of each kind, so every parameter applies somewhere.
Scene TestParams::sceneForAllParams()
{
    Scene s;
    ClothDesc grid;
    ClothDesc rope;
    rope.source = ClothSource::Rope;
    s.cloths = { grid, rope };
    Collider plane, sphere, box, capsule;
    plane.kind = ColliderKind::Plane;
    sphere.kind = ColliderKind::Sphere;
    box.kind = ColliderKind::Box;
    capsule.kind = ColliderKind::Capsule;
    s.colliders = { plane, sphere, box, capsule };
    return s;
}

static int indexFor(const ParamDesc &p, const Scene &s)
{
    const std::size_t count = p.group == ParamGroup::Collider ? s.colliders.size() : s.cloths.size();
    for (std::size_t i = 0; i < count; ++i) {
        if (p.applies(s, int(i)))
            return int(i);
    }
    return -1;
}

// A value strictly inside the range that differs from the default.
static double probeValue(const ParamDesc &p)
{
    double v = p.logScale ? std::sqrt(p.min * p.max) : p.min + 0.37 * (p.max - p.min);
    if (p.integer)
        v = std::round(v);
    if (v == p.defaultValue)
        v = p.integer ? (v + 1 <= p.max ? v + 1 : v - 1) : (v + p.max) / 2;
    if (p.toggle)
        v = p.defaultValue != 0.0 ? 0.0 : 1.0;
    return v;
}

void TestParams::tableIsWellFormed()
{
    const auto &table = sceneParams();
    QVERIFY(table.size() > 50);
    std::set<std::string> keys;
    for (const ParamDesc &p : table) {
        QVERIFY2(keys.insert(p.key).second, p.key.c_str());
        QVERIFY2(!p.label.empty() && !p.help.empty(), p.key.c_str());
        QVERIFY2(p.min < p.max, p.key.c_str());
        QVERIFY2(p.defaultValue >= p.min && p.defaultValue <= p.max, p.key.c_str());
        QVERIFY2(p.get && p.set, p.key.c_str());
        QVERIFY2(!p.logScale || p.min > 0.0, p.key.c_str());
        if (p.integer) {
            QVERIFY2(p.min == std::round(p.min) && p.max == std::round(p.max)
                    && p.defaultValue == std::round(p.defaultValue),
                p.key.c_str());
        }
        if (!p.enumNames.empty()) {
            QVERIFY2(p.integer && p.min == 0.0 && p.max == double(p.enumNames.size() - 1), p.key.c_str());
        }
        if (p.toggle)
            QVERIFY2(p.integer && p.min == 0.0 && p.max == 1.0, p.key.c_str());
        QCOMPARE(findParam(p.key), &p);
    }
    QCOMPARE(findParam("no.such.key"), nullptr);
    // Stiffnesses slide in log space; solver kind and tear mode are choices.
    QVERIFY(findParam("material.stretchStiffness")->logScale);
    QCOMPARE(findParam("solver.kind")->enumNames, (std::vector<std::string> { "xpbd", "verlet", "springs" }));
    QCOMPARE(findParam("cloth.tearMode")->enumNames,
        (std::vector<std::string> { "none", "remove-constraint", "split-vertex" }));
    // Defaults are the in-class defaults.
    QCOMPARE(findParam("world.gravity.y")->defaultValue, double(WorldSettings {}.gravity.y));
    QCOMPARE(findParam("solver.substeps")->defaultValue, double(SolverSettings {}.substeps));
    QCOMPARE(findParam("material.stretchStiffness")->defaultValue, double(Material {}.stretchStiffness));
}

void TestParams::getSetRoundTrips()
{
    for (const ParamDesc &p : sceneParams()) {
        Scene s = sceneForAllParams();
        const int index = indexFor(p, s);
        QVERIFY2(index >= 0, p.key.c_str());
        if (p.key != "collider.kind") // the scene has one collider of each kind
            QCOMPARE(p.get(s, index), p.defaultValue);
        const double v = probeValue(p);
        p.set(s, index, v);
        QVERIFY2(std::abs(p.get(s, index) - double(float(v))) <= 1e-7 * std::abs(v), p.key.c_str());
        // Out-of-range values are clamped to the range.
        p.set(s, index, p.max + (p.max - p.min));
        QVERIFY2(p.get(s, index) <= p.max, p.key.c_str());
    }
}

void TestParams::setChangesOnlyItsParameter()
{
    for (const ParamDesc &p : sceneParams()) {
        Scene s = sceneForAllParams();
        const int index = indexFor(p, s);
        const Scene before = s;
        p.set(s, index, probeValue(p));
        QVERIFY2(!(s == before), p.key.c_str());
        for (const ParamDesc &q : sceneParams()) {
            if (&q == &p)
                continue;
            for (int i = 0; i < 3; ++i)
                QVERIFY2(q.get(s, i) == q.get(before, i), (p.key + " changed " + q.key).c_str());
        }
    }
}

// "world.gravity.y" → "/world/gravity/1"; cloth and collider keys below "/cloths/<i>" etc.
static std::string jsonPointer(const std::string &key, int index)
{
    std::string out;
    std::size_t start = 0;
    bool first = true;
    while (start <= key.size()) {
        const std::size_t dot = std::min(key.find('.', start), key.size());
        std::string part = key.substr(start, dot - start);
        if (first && part == "material")
            out += "/cloths/" + std::to_string(index) + "/material";
        else if (first && part == "cloth")
            out += "/cloths/" + std::to_string(index);
        else if (first && part == "collider")
            out += "/colliders/" + std::to_string(index);
        else if (!first && (part == "x" || part == "y" || part == "z"))
            out += "/" + std::to_string(part[0] - 'x');
        else
            out += "/" + part;
        first = false;
        start = dot + 1;
    }
    return out;
}

void TestParams::everyKeyAppearsInASavedFile()
{
    Scene s = sceneForAllParams();
    // Non-default values everywhere, so a value read from the wrong field would show.
    for (const ParamDesc &p : sceneParams()) {
        if (p.key != "collider.kind") // keep one collider of each kind
            p.set(s, indexFor(p, s), probeValue(p));
    }
    const std::string text = serializeScene(s);
    const scenejson::Json doc = scenejson::Json::parse(text);
    for (const ParamDesc &p : sceneParams()) {
        const int index = indexFor(p, s);
        const scenejson::Json::json_pointer ptr(jsonPointer(p.key, index));
        QVERIFY2(doc.contains(ptr), (p.key + " at " + ptr.to_string()).c_str());
        const scenejson::Json &v = doc.at(ptr);
        const double expected = p.get(s, index);
        if (!p.enumNames.empty())
            QCOMPARE(v.get<std::string>(), p.enumNames[std::size_t(expected)]);
        else if (p.toggle)
            QCOMPARE(v.get<bool>(), expected != 0.0);
        else
            QVERIFY2(float(v.get<double>()) == float(expected), p.key.c_str());
    }
    // And the file reads back to the same scene.
    const SceneLoadResult r = parseScene(text, "all.json");
    QVERIFY2(r.ok(), r.error.c_str());
    QVERIFY(*r.scene == s);
}

static bool near(float a, float b)
{
    return std::abs(a - b) <= 1e-5f * std::abs(b);
}

void TestParams::materialDerivationSquareCells()
{
    // 11 × 11 particles over 1 m: spacing h = 0.1 m. Strip model k = K·h/L:
    // structural (L = h) k = E; shear (L = √2 h) k = G/√2; bend (L = 2h) k = B/2.
    ClothDesc d;
    d.grid.across = 11;
    d.grid.down = 11;
    d.grid.width = 1.f;
    d.grid.height = 1.f;
    // Bend constraints are the legacy springs now (bending is dihedral, in N·m): asked for,
    // with the rigidity that converts to 4 N/m.
    d.grid.bendSprings = true;
    d.material = Material { "test", 0.2f, 1000.f, 100.f, 4.f * kLegacyBendArea, 0.03f, 0.7f };
    const Cloth c = buildCloth(d);
    int counted[3] = { 0, 0, 0 };
    for (const DistanceConstraint &k : c.constraints) {
        float expected = 0.f;
        switch (k.kind) {
        case ConstraintKind::Structural:
            expected = 1.f / 1000.f;
            break;
        case ConstraintKind::Shear:
            expected = std::sqrt(2.f) / 100.f;
            break;
        case ConstraintKind::Bend:
            expected = 2.f / 4.f;
            break;
        default:
            QFAIL("unexpected kind");
        }
        QVERIFY2(near(k.compliance, expected), qPrintable(QString::number(double(k.compliance))));
        QCOMPARE(k.damping, 0.03f);
        QCOMPARE(k.tearStrain, 0.7f);
        ++counted[int(k.kind)];
    }
    QVERIFY(counted[0] > 0 && counted[1] > 0 && counted[2] > 0);
    // Mass: areal density × area.
    QVERIFY(std::abs(c.totalMass() - 0.2) < 1e-5);
}

void TestParams::materialDerivationRectangularCells()
{
    // Cells of 0.1 m × 0.2 m: strip width √(0.1·0.2); a horizontal edge (L = 0.1) gets
    // k = E·√0.02/0.1, a vertical one (L = 0.2) k = E·√0.02/0.2.
    ClothDesc d;
    d.grid.across = 11;
    d.grid.down = 6;
    d.grid.width = 1.f;
    d.grid.height = 1.f;
    d.grid.shear = false;
    d.grid.bend = false;
    d.material.stretchStiffness = 500.f;
    const Cloth c = buildCloth(d);
    const float s = std::sqrt(0.1f * 0.2f);
    for (const DistanceConstraint &k : c.constraints) {
        const float k_expected = 500.f * s / k.restLength;
        QVERIFY(near(k.restLength, 0.1f) || near(k.restLength, 0.2f));
        QVERIFY2(near(k.compliance, 1.f / k_expected), qPrintable(QString::number(double(k.compliance))));
    }
    // The direct function: a rope link of 5 cm in a 5 cm spaced rope has k = E.
    QVERIFY(near(materialParams(Material {}, ConstraintKind::Structural, 0.05f, 0.05f).compliance,
        1.f / Material {}.stretchStiffness));
}

void TestParams::materialPresetsArePlausible()
{
    const auto &m = materialPresets();
    auto get = [&](const char *name) {
        const auto it = std::find_if(m.begin(), m.end(), [&](const Material &x) { return x.name == name; });
        if (it == m.end())
            qFatal("material %s missing", name);
        return *it;
    };
    const Material cotton = get("cotton"), denim = get("denim"), silk = get("silk"), leather = get("leather"),
                   rubber = get("rubber");
    QCOMPARE(cotton, Material {}); // the default material is cotton
    for (const Material &x : m)
        QVERIFY(silk.arealDensity <= x.arealDensity); // silk is the lightest
    QVERIFY(rubber.arealDensity > cotton.arealDensity
        && rubber.stretchStiffness < cotton.stretchStiffness); // heavy, stretchy
    QVERIFY(rubber.tearStrain > 1.f);
    QVERIFY(denim.arealDensity > cotton.arealDensity && denim.stretchStiffness > cotton.stretchStiffness);
    QVERIFY(leather.bendRigidity > denim.bendRigidity && leather.stretchStiffness > denim.stretchStiffness);
    // Every preset value is inside the table's ranges.
    for (const Material &x : m) {
        Scene s;
        s.cloths.push_back(ClothDesc {});
        s.cloths[0].material = x;
        for (const ParamDesc &p : sceneParams()) {
            if (p.group == ParamGroup::Material)
                QVERIFY2(p.get(s, 0) >= p.min && p.get(s, 0) <= p.max, (x.name + " " + p.key).c_str());
        }
    }
}

void TestParams::applyKeepsStateAndCopiesSettings()
{
    Scene s = *loadPreset("curtain").scene;
    Simulation sim = buildSimulation(s);
    sim.run(5);
    const std::vector<Vec3> x = sim.cloths[0].particles.position;
    const std::vector<Vec3> v = sim.cloths[0].particles.velocity;
    findParam("world.gravity.y")->set(s, 0, -3.0);
    findParam("solver.substeps")->set(s, 0, 17);
    findParam("solver.kind")->set(s, 0, 1);
    findParam("world.wind.speed")->set(s, 0, 4.0);
    applySceneSettings(s, sim);
    QCOMPARE(sim.world, s.world);
    QCOMPARE(sim.solver, s.solver);
    QCOMPARE(sim.solver.kind, SolverKind::Verlet);
    QVERIFY(sim.cloths[0].particles.position == x);
    QVERIFY(sim.cloths[0].particles.velocity == v);
    QCOMPARE(sim.time(), 5.0 / 60.0);
}

namespace {

// The cloth an explicit description lists, with the numbers of its records.
Cloth buildExplicitForTest(const ExplicitDesc &e)
{
    ClothDesc d;
    d.source = ClothSource::Explicit;
    d.explicitData = e;
    d.explicitData.own.reset(); // every record as written
    return buildCloth(d);
}

} // namespace

void TestParams::applyRederivesGeneratedCloth()
{
    Scene s = *loadPreset("hammock").scene;
    Simulation sim = buildSimulation(s);
    sim.run(3);
    findParam("material.stretchStiffness")->set(s, 0, 123.0);
    findParam("material.damping")->set(s, 0, 0.5);
    findParam("material.tearStrain")->set(s, 0, 0.25);
    findParam("cloth.tearMode")->set(s, 0, 1);
    applySceneSettings(s, sim);
    const Cloth fresh = buildCloth(s.cloths[0]);
    QCOMPARE(sim.cloths[0].constraints, fresh.constraints);
    QCOMPARE(sim.cloths[0].tearMode, TearMode::RemoveConstraint);
}

void TestParams::applyExplicitFollowsMaterialKeepingOwn()
{
    // An explicit cloth (a grid cut at the start) whose constraints follow the material, one
    // of them edited by hand and so its own: a stiffer material reaches every other stretch
    // constraint, the edited one keeps its value exactly, and nothing in the description is
    // rescaled or inferred.
    Scene s;
    ClothDesc d;
    d.grid.across = 5;
    d.grid.down = 5;
    s.cloths.push_back(d);
    Simulation sim = buildSimulation(s);
    s.cloths[0].explicitData = explicitFor(s.cloths[0], sim.cloths[0]);
    s.cloths[0].source = ClothSource::Explicit;
    ExplicitDesc &e = s.cloths[0].explicitData;
    QVERIFY(e.own && e.own->empty()); // a fresh grid: everything follows the material
    QCOMPARE(buildCloth(s.cloths[0]).constraints, sim.cloths[0].constraints);
    std::uint32_t edited = 0;
    while (e.constraints[edited].kind != ConstraintKind::Structural)
        ++edited;
    e.constraints[edited].compliance *= 10.f;
    e.own = constraintsWithOwnProperties(buildExplicitForTest(e), s.cloths[0].material, e.spacing, e.warp);
    QCOMPARE(*e.own, std::vector<std::uint32_t> { edited });
    const ExplicitDesc before = e;
    sim = buildSimulation(s);

    findParam("material.stretchStiffness")->set(s, 0, double(Material {}.stretchStiffness) * 4.0);
    QVERIFY(e == before); // the description is not rewritten
    const Cloth built = buildCloth(s.cloths[0]);
    for (std::uint32_t i = 0; i < built.constraints.size(); ++i) {
        const DistanceConstraint &was = before.constraints[i], &now = built.constraints[i];
        if (i == edited) {
            QCOMPARE(now.compliance, was.compliance); // its own value, exactly
            continue;
        }
        const bool stretch = was.kind == ConstraintKind::Structural;
        QVERIFY(near(now.compliance, stretch ? was.compliance / 4.f : was.compliance));
    }
    applySceneSettings(s, sim);
    QCOMPARE(sim.cloths[0].constraints, built.constraints);
    // Back to the old material: every value as it was.
    findParam("material.stretchStiffness")->set(s, 0, double(Material {}.stretchStiffness));
    QCOMPARE(buildCloth(s.cloths[0]).constraints, before.constraints);

    // A file from before per-constraint ownership: every constraint keeps its numbers.
    e.own.reset();
    findParam("material.stretchStiffness")->set(s, 0, double(Material {}.stretchStiffness) * 4.0);
    QCOMPARE(buildCloth(s.cloths[0]).constraints, before.constraints);
}

void TestParams::applyScalesMassWithDensity()
{
    Scene s = *loadPreset("hammock").scene;
    Simulation sim = buildSimulation(s);
    const double m0 = sim.cloths[0].totalMass();
    findParam("material.arealDensity")->set(s, 0, double(s.cloths[0].material.arealDensity) * 2.0);
    applySceneSettings(s, sim);
    QVERIFY(std::abs(sim.cloths[0].totalMass() / m0 - 2.0) < 1e-5);
    for (std::uint32_t p : s.cloths[0].pins)
        QCOMPARE(sim.cloths[0].particles.invMass[p], 0.f);
    const double area = double(s.cloths[0].grid.width) * double(s.cloths[0].grid.height);
    QVERIFY(std::abs(sim.cloths[0].totalMass() - double(s.cloths[0].material.arealDensity) * area) < 1e-5);
}

void TestParams::applyMovesColliders()
{
    Scene s = *loadPreset("threejs-cloth").scene;
    Simulation sim = buildSimulation(s);
    sim.run(10);
    std::size_t ball = 0;
    while (s.colliders[ball].kind != ColliderKind::Sphere)
        ++ball;
    findParam("collider.radius")->set(s, int(ball), 0.33);
    findParam("collider.center.x")->set(s, int(ball), 0.5);
    applySceneSettings(s, sim);
    QCOMPARE(sim.colliders[ball].radius, 0.33f);
    // A moving collider is placed where its motion puts it at the current time.
    const Collider &c = s.colliders[ball];
    const float phase = float(2.0 * M_PI * double(c.motion.frequency) * sim.time() + double(c.motion.phase));
    const Vec3 expected
        = Vec3 { 0.5f, c.baseCenter.y, c.baseCenter.z } + c.motion.amplitude * std::sin(phase);
    QVERIFY(length(sim.colliders[ball].center - expected) < 1e-5f);
}

QTEST_GUILESS_MAIN(TestParams)
#include "tst_params.moc"
