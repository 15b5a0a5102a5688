// JSON text → Scene. Parses into a fresh Scene and hands it out only when every value has
// been checked (type, range from the parameter table, indices, counts), so a bad file never
// half-loads. Absent keys keep their in-class defaults, which keeps hand-written files and
// the built-in presets short.
#include "base/atomicfile.h"
#include "base/printable.h"
#include "jsonguard.h"
#include "jsonreader.h"
#include "scene/scenefile.h"
#include "scenemigrate.h"
#include "takejson.h"

#include <algorithm>
#include <cfloat>
#include <unordered_map>

namespace drape {

namespace {

using scenejson::Json;

constexpr Limits kPositionLimits { -1e5, 1e5, "m" };
// Rest shapes and states are whatever the simulator made of an authored scene (a free fall
// can run far past ±1e5 m), so any finite 32-bit float reads back: a state the simulator
// produces must save and reload.
constexpr Limits kStatePositionLimits { -FLT_MAX, FLT_MAX, "m" };
constexpr Limits kVelocityLimits { -1e6, 1e6, "m/s" };
constexpr Limits kColorLimits { 0.0, 1.0, "" };
constexpr Limits kMassLimits { 1e-12, 1e6, "kg" };
constexpr Limits kLengthLimits { 0.0, 1e5, "m" };
constexpr Limits kComplianceLimits { 0.0, 1e6, "m/N" };
constexpr Limits kDampingLimits { 0.0, 1e6, "N·s/m" };
constexpr Limits kTearLimits { 1e-6, 1e6, "" };
constexpr Limits kTearForceLimits { 1e-9, 1e12, "N" };
constexpr Limits kConstraintIndexLimits { 0, 4294967294.0, "" };
constexpr Limits kSpacingLimits { 0.0, 1e5, "m" };
// A scene may ask `drape render` for at most this many frames (half an hour at 60 frames/s);
// the command line's --frames can ask for more.
constexpr double kMaxRecordFrames = 100000;
constexpr double kMaxRangeFrame = 100000000; // a playback range end: 19 days at 60 frames/s

std::string at(const std::string &path, std::size_t i)
{
    return path + "/" + std::to_string(i);
}

// A material key of the files written before bending was dihedral: `legacyKey` in N/m loads
// into `out` in N·m (scenemigrate.h) and marks the material as written in those units, so it
// saves back as it was. A file giving both keys is ambiguous: an error.
void readLegacyBend(const JsonReader::Json &j, const std::string &path, std::string_view legacyKey,
    std::string_view key, float &out, bool &legacy)
{
    const JsonReader::Json *v = JsonReader::find(j, legacyKey);
    if (!v)
        return;
    const std::string here = path + "/" + std::string(legacyKey);
    if (JsonReader::find(j, key))
        JsonReader::fail(here, "give either " + std::string(key) + " (N·m) or the older " + std::string(legacyKey)
                + " (N/m), not both");
    out = float(bendRigidityFromLegacy(JsonReader::toFloat(*v, here, { 1e-5, 1e8, "N/m" })));
    legacy = true;
}

// Thrown when a valid scene is over the size budget (see scenebudget.h).
struct OverBudget {
    SceneTotals totals;
    std::string message;
};

class SceneReader : public JsonReader {
public:
    explicit SceneReader(const SceneBudget &budget)
        : m_budget(budget)
    { }
    Scene read(const Json &doc);
    Material material(const Json &j, const std::string &path)
    {
        Material m;
        readMaterial(j, path, m);
        return m;
    }

private:
    void readWorld(const Json &j, const std::string &path, WorldSettings &w);
    void readSolver(const Json &j, const std::string &path, SolverSettings &s);
    ClothDesc readCloth(const Json &j, const std::string &path);
    void readGrid(const Json &j, const std::string &path, GridDesc &g);
    void readRope(const Json &j, const std::string &path, RopeDesc &r);
    void readMaterial(const Json &j, const std::string &path, Material &m);
    void readExplicit(const Json &j, const std::string &path, ExplicitDesc &e);
    void readPins(
        const Json &j, const std::string &path, std::size_t particles, std::vector<std::uint32_t> &pins);
    Collider readCollider(const Json &j, const std::string &path);
    MeshRef readColliderMesh(const Json &j, const std::string &path);
    void readCamera(const Json &j, const std::string &path, CameraDesc &c);
    void readView(const Json &j, const std::string &path, ViewSettings &v);
    void readRecord(const Json &j, const std::string &path, RecordSettings &r);
    SceneState readState(const Json &j, const std::string &path, const Scene &scene);
    std::vector<Vec3> readVecList(const Json &j, const std::string &path, std::size_t count, Limits limits);
    std::vector<ParticleKind> readKinds(const Json &j, const std::string &path, std::size_t count);

    SceneBudget m_budget;
};

Scene SceneReader::read(const Json &doc)
{
    expectObject(doc, "",
        { "format", "version", "units", "name", "description", "world", "solver", "cloths", "colliders",
            "camera", "view", "record", "take", "state" });
    Scene scene;
    if (const Json *units = find(doc, "units")) {
        expectObject(*units, "/units", { "length", "mass", "time" });
        const std::pair<const char *, const char *> expected[]
            = { { "length", "m" }, { "mass", "kg" }, { "time", "s" } };
        for (const auto &[key, unit] : expected) {
            const Json *u = find(*units, key);
            if (u && string(*u, "/units/" + std::string(key)) != unit)
                fail("/units/" + std::string(key),
                    "only \"" + std::string(unit) + "\" is supported, got " + quote(*u));
        }
    }
    optString(doc, "", "name", scene.name);
    optString(doc, "", "description", scene.description);
    if (const Json *w = find(doc, "world"))
        readWorld(*w, "/world", scene.world);
    if (const Json *s = find(doc, "solver"))
        readSolver(*s, "/solver", scene.solver);
    if (const Json *cloths = find(doc, "cloths")) {
        expectArray(*cloths, "/cloths");
        for (std::size_t i = 0; i < cloths->size(); ++i)
            scene.cloths.push_back(readCloth((*cloths)[i], at("/cloths", i)));
        // Before anything is built from the descriptions (and before the state's lists).
        const SceneTotals totals = sceneTotals(scene);
        const std::string over = checkBudget(totals, m_budget);
        if (!over.empty())
            throw OverBudget { totals, "/cloths: " + over };
    }
    if (const Json *colliders = find(doc, "colliders")) {
        expectArray(*colliders, "/colliders");
        for (std::size_t i = 0; i < colliders->size(); ++i)
            scene.colliders.push_back(readCollider((*colliders)[i], at("/colliders", i)));
    }
    if (const Json *c = find(doc, "camera"))
        readCamera(*c, "/camera", scene.camera);
    if (const Json *v = find(doc, "view"))
        readView(*v, "/view", scene.view);
    if (const Json *r = find(doc, "record"))
        readRecord(*r, "/record", scene.record);
    if (const Json *s = find(doc, "state"))
        scene.state = readState(*s, "/state", scene);
    return scene;
}

void SceneReader::readWorld(const Json &j, const std::string &path, WorldSettings &w)
{
    expectObject(j, path, { "gravity", "airDamping", "wind" });
    paramVec3(j, path, "gravity", "world.gravity", w.gravity);
    param(j, path, "airDamping", "world.airDamping", w.airDamping);
    if (const Json *wind = find(j, "wind")) {
        const std::string p = path + "/wind";
        expectObject(*wind, p,
            { "direction", "speed", "gustStrength", "gustFrequency", "seed", "airDensity", "dragCoefficient",
                "liftCoefficient" });
        paramVec3(*wind, p, "direction", "world.wind.direction", w.wind.direction);
        param(*wind, p, "speed", "world.wind.speed", w.wind.speed);
        param(*wind, p, "gustStrength", "world.wind.gustStrength", w.wind.gustStrength);
        param(*wind, p, "gustFrequency", "world.wind.gustFrequency", w.wind.gustFrequency);
        param(*wind, p, "seed", "world.wind.seed", w.wind.seed);
        param(*wind, p, "airDensity", "world.wind.airDensity", w.wind.airDensity);
        param(*wind, p, "dragCoefficient", "world.wind.dragCoefficient", w.wind.dragCoefficient);
        param(*wind, p, "liftCoefficient", "world.wind.liftCoefficient", w.wind.liftCoefficient);
    }
}

void SceneReader::readSolver(const Json &j, const std::string &path, SolverSettings &s)
{
    expectObject(j, path,
        { "kind", "frameRate", "substeps", "iterations", "integrator", "maxSplitsPerStep", "selfCollision", "clothCollision",
            "maxSpeed" });
    param(j, path, "kind", "solver.kind", s.kind);
    param(j, path, "frameRate", "solver.frameRate", s.frameRate);
    param(j, path, "substeps", "solver.substeps", s.substeps);
    param(j, path, "iterations", "solver.iterations", s.iterations);
    param(j, path, "integrator", "solver.integrator", s.integrator);
    param(j, path, "maxSplitsPerStep", "solver.maxSplitsPerStep", s.maxSplitsPerStep);
    param(j, path, "selfCollision", "solver.selfCollision", s.selfCollision);
    param(j, path, "clothCollision", "solver.clothCollision", s.clothCollision);
    param(j, path, "maxSpeed", "solver.maxSpeed", s.maxSpeed);
}

ClothDesc SceneReader::readCloth(const Json &j, const std::string &path)
{
    expectObject(j, path,
        { "name", "source", "grid", "rope", "explicit", "material", "pins", "tearMode", "thickness",
            "tetherStretch", "frontColor", "backColor" });
    ClothDesc c;
    optString(j, path, "name", c.name);
    if (const Json *s = find(j, "source"))
        c.source = ClothSource(enumIndex(*s, path + "/source", scenejson::kClothSourceNames));
    else
        c.source = find(j, "explicit") ? ClothSource::Explicit
            : find(j, "rope")          ? ClothSource::Rope
                                       : ClothSource::Grid;
    const std::pair<const char *, ClothSource> blocks[] = { { "grid", ClothSource::Grid },
        { "rope", ClothSource::Rope }, { "explicit", ClothSource::Explicit } };
    for (const auto &[key, source] : blocks) {
        if (find(j, key) && source != c.source) {
            warnings.push_back(path + "/" + key + ": ignored, the cloth's source is \""
                + std::string(scenejson::kClothSourceNames[std::size_t(c.source)]) + "\"");
        }
    }
    switch (c.source) {
    case ClothSource::Grid:
        if (const Json *g = find(j, "grid"))
            readGrid(*g, path + "/grid", c.grid);
        break;
    case ClothSource::Rope:
        if (const Json *r = find(j, "rope"))
            readRope(*r, path + "/rope", c.rope);
        break;
    case ClothSource::Explicit:
        readExplicit(require(j, path, "explicit"), path + "/explicit", c.explicitData);
        break;
    }
    if (const Json *m = find(j, "material"))
        readMaterial(*m, path + "/material", c.material);
    if (const Json *pins = find(j, "pins"))
        readPins(*pins, path + "/pins", particleCount(c), c.pins);
    param(j, path, "tearMode", "cloth.tearMode", c.tearMode);
    param(j, path, "thickness", "cloth.thickness", c.thickness);
    param(j, path, "tetherStretch", "cloth.tetherStretch", c.tetherStretch);
    optVec3(j, path, "frontColor", kColorLimits, c.frontColor);
    optVec3(j, path, "backColor", kColorLimits, c.backColor);
    return c;
}

void SceneReader::readGrid(const Json &j, const std::string &path, GridDesc &g)
{
    expectObject(j, path,
        { "across", "down", "width", "height", "orientation", "origin", "structural", "shear", "bend",
            "bendSprings" });
    param(j, path, "across", "cloth.grid.across", g.across);
    param(j, path, "down", "cloth.grid.down", g.down);
    param(j, path, "width", "cloth.grid.width", g.width);
    param(j, path, "height", "cloth.grid.height", g.height);
    optEnum(j, path, "orientation", scenejson::kOrientationNames, g.orientation);
    optVec3(j, path, "origin", kPositionLimits, g.origin);
    param(j, path, "structural", "cloth.grid.structural", g.structural);
    param(j, path, "shear", "cloth.grid.shear", g.shear);
    param(j, path, "bend", "cloth.grid.bend", g.bend);
    param(j, path, "bendSprings", "cloth.grid.bendSprings", g.bendSprings);
}

void SceneReader::readRope(const Json &j, const std::string &path, RopeDesc &r)
{
    expectObject(j, path, { "count", "length", "start", "direction", "linkMass" });
    param(j, path, "count", "cloth.rope.count", r.count);
    param(j, path, "length", "cloth.rope.length", r.length);
    optVec3(j, path, "start", kPositionLimits, r.start);
    optVec3(j, path, "direction", { -1e3, 1e3, "" }, r.direction);
    if (lengthSquared(r.direction) == 0.f)
        fail(path + "/direction", "must not be [0, 0, 0]");
    param(j, path, "linkMass", "cloth.rope.linkMass", r.linkMass);
}

void SceneReader::readMaterial(const Json &j, const std::string &path, Material &m)
{
    // "material": "denim" names a built-in material; an object starts from the built-in
    // material of its name (if any) and overrides the values it gives.
    const Json *nameValue = j.is_string() ? &j : (j.is_object() ? find(j, "name") : nullptr);
    if (nameValue) {
        const std::string name = string(*nameValue, j.is_string() ? path : path + "/name");
        const auto &presets = materialPresets();
        const auto it
            = std::find_if(presets.begin(), presets.end(), [&](const Material &p) { return p.name == name; });
        if (it != presets.end())
            m = *it;
        else if (j.is_string())
            fail(path,
                "unknown material " + quotedValue(name) + " (built in: cotton, denim, silk, leather, rubber, canvas)");
        m.name = name;
    }
    if (j.is_string())
        return;
    expectObject(j, path,
        { "name", "arealDensity", "stretchStiffness", "shearStiffness", "bendRigidity", "bendStiffness",
            "damping", "tearStrain", "tearTension", "tearBy", "warpStretchStiffness", "warpBendRigidity",
            "warpBendStiffness" });
    param(j, path, "arealDensity", "material.arealDensity", m.arealDensity);
    param(j, path, "stretchStiffness", "material.stretchStiffness", m.stretchStiffness);
    param(j, path, "shearStiffness", "material.shearStiffness", m.shearStiffness);
    readLegacyBend(j, path, "bendStiffness", "bendRigidity", m.bendRigidity, m.legacyBendUnits);
    param(j, path, "bendRigidity", "material.bendRigidity", m.bendRigidity);
    param(j, path, "damping", "material.damping", m.damping);
    param(j, path, "tearStrain", "material.tearStrain", m.tearStrain);
    param(j, path, "tearTension", "material.tearTension", m.tearTension);
    param(j, path, "tearBy", "material.tearBy", m.tearBy);
    param(j, path, "warpStretchStiffness", "material.warpStretchStiffness", m.warpStretchStiffness);
    readLegacyBend(j, path, "warpBendStiffness", "warpBendRigidity", m.warpBendRigidity, m.legacyBendUnits);
    param(j, path, "warpBendRigidity", "material.warpBendRigidity", m.warpBendRigidity);
}

std::uint32_t particleIndex(const Json &v, const std::string &path, std::size_t particles)
{
    if (!v.is_number_integer())
        JsonReader::fail(path, "expected a particle index (an integer), got " + JsonReader::describe(v));
    if (v.is_number_integer() && !v.is_number_unsigned() && v.get<std::int64_t>() < 0)
        JsonReader::fail(path, "particle " + JsonReader::quote(v) + " out of range, indices start at 0");
    const std::uint64_t i = v.get<std::uint64_t>();
    if (i >= particles)
        JsonReader::fail(
            path, "particle " + JsonReader::quote(v) + " out of range, cloth has " + std::to_string(particles));
    return std::uint32_t(i);
}

// [[a, b, c], ...] with indices below n and no corner repeated (a cloth's or a mesh collider's).
std::vector<Triangle> readTriangles(const Json &ts, const std::string &path, std::size_t n)
{
    std::vector<Triangle> out;
    out.reserve(ts.size());
    for (std::size_t i = 0; i < ts.size(); ++i) {
        const Json &r = ts[i];
        const std::string here = at(path, i);
        if (!r.is_array() || r.size() != 3)
            JsonReader::fail(here, "expected [a, b, c] particle indices, got " + JsonReader::describe(r));
        Triangle t;
        for (std::size_t k = 0; k < 3; ++k)
            t.v[k] = particleIndex(r[k], at(here, k), n);
        if (t.v[0] == t.v[1] || t.v[1] == t.v[2] || t.v[0] == t.v[2])
            JsonReader::fail(here, "degenerate triangle: a particle appears twice");
        out.push_back(t);
    }
    return out;
}

void SceneReader::readPins(
    const Json &j, const std::string &path, std::size_t particles, std::vector<std::uint32_t> &pins)
{
    expectArray(j, path);
    pins.clear();
    std::unordered_map<std::uint32_t, std::size_t> seen;
    for (std::size_t i = 0; i < j.size(); ++i) {
        const std::uint32_t p = particleIndex(j[i], at(path, i), particles);
        const auto [it, fresh] = seen.emplace(p, i);
        if (!fresh)
            fail(at(path, i),
                "particle " + std::to_string(p) + " is pinned twice (also at index "
                    + std::to_string(it->second) + ")");
        pins.push_back(p);
    }
    std::sort(pins.begin(), pins.end());
}

void SceneReader::readExplicit(const Json &j, const std::string &path, ExplicitDesc &e)
{
    expectObject(j, path, { "rest", "mass", "kinds", "constraints", "triangles", "uv", "own", "spacing", "warp", "bending" });
    optBool(j, path, "bending", e.bending);
    const Json &rest = require(j, path, "rest");
    expectArray(rest, path + "/rest");
    if (rest.empty())
        fail(path + "/rest", "empty; an explicit cloth needs at least one particle");
    const std::size_t n = rest.size();
    e.rest = readVecList(rest, path + "/rest", n, kStatePositionLimits);

    const Json &mass = require(j, path, "mass");
    expectArray(mass, path + "/mass");
    if (mass.size() != n)
        fail(path + "/mass", std::to_string(mass.size()) + " masses for " + std::to_string(n) + " particles");
    e.mass.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
        const double m = number(mass[i], at(path + "/mass", i));
        if (!(m > 0.0))
            fail(at(path + "/mass", i), "mass " + quote(mass[i]) + " kg is not positive");
        e.mass[i] = toFloat(mass[i], at(path + "/mass", i), kMassLimits);
    }
    e.kind.assign(n, ParticleKind::Dynamic);
    if (const Json *kinds = find(j, "kinds"))
        e.kind = readKinds(*kinds, path + "/kinds", n);

    e.constraints.clear();
    if (const Json *cs = find(j, "constraints")) {
        const std::string cp = path + "/constraints";
        expectArray(*cs, cp);
        e.constraints.reserve(cs->size());
        std::unordered_map<std::uint64_t, std::size_t> pairs;
        for (std::size_t i = 0; i < cs->size(); ++i) {
            const Json &r = (*cs)[i];
            const std::string here = at(cp, i);
            if (!r.is_array() || (r.size() != 7 && r.size() != 8))
                fail(here,
                    "expected [a, b, restLength, compliance, damping, tearStrain or null, kind, "
                    "optional tearForce or null], got "
                        + describe(r));
            DistanceConstraint c;
            c.a = particleIndex(r[0], here + "/0", n);
            c.b = particleIndex(r[1], here + "/1", n);
            if (c.a == c.b)
                fail(here, "joins particle " + std::to_string(c.a) + " to itself");
            c.restLength = toFloat(r[2], here + "/2", kLengthLimits);
            c.compliance = toFloat(r[3], here + "/3", kComplianceLimits);
            c.damping = toFloat(r[4], here + "/4", kDampingLimits);
            c.tearStrain = r[5].is_null() ? kNeverTear : toFloat(r[5], here + "/5", kTearLimits);
            c.kind = ConstraintKind(enumIndex(r[6], here + "/6", scenejson::kConstraintKindNames));
            if (r.size() == 8 && !r[7].is_null())
                c.tearForce = toFloat(r[7], here + "/7", kTearForceLimits);
            const std::uint64_t key = (std::uint64_t(std::min(c.a, c.b)) << 32) | std::max(c.a, c.b);
            const auto [it, fresh] = pairs.emplace(key, i);
            if (!fresh) {
                fail(here,
                    "duplicate constraint: particles " + std::to_string(c.a) + " and " + std::to_string(c.b)
                        + " are already joined by constraint " + std::to_string(it->second));
            }
            e.constraints.push_back(c);
        }
    }

    e.triangles.clear();
    if (const Json *ts = find(j, "triangles")) {
        const std::string tp = path + "/triangles";
        expectArray(*ts, tp);
        e.triangles = readTriangles(*ts, tp, n);
    }

    e.own.reset();
    if (const Json *own = find(j, "own")) {
        const std::string op = path + "/own";
        expectArray(*own, op);
        std::vector<std::uint32_t> list;
        for (std::size_t i = 0; i < own->size(); ++i) {
            const std::uint32_t k = std::uint32_t(integer((*own)[i], at(op, i), kConstraintIndexLimits));
            if (k >= e.constraints.size())
                fail(at(op, i),
                    "constraint " + std::to_string(k) + " out of range, the cloth has "
                        + std::to_string(e.constraints.size()));
            if (!list.empty() && k <= list.back())
                fail(at(op, i), "indices must ascend");
            list.push_back(k);
        }
        e.own = std::move(list);
    }
    e.spacing = 0.f;
    if (const Json *spacing = find(j, "spacing"))
        e.spacing = toFloat(*spacing, path + "/spacing", kSpacingLimits);
    e.warp = { 0.f, 1.f, 0.f };
    if (const Json *warp = find(j, "warp"))
        e.warp = vec3(*warp, path + "/warp", { -1.0, 1.0, "" });

    e.uv.clear();
    if (const Json *uv = find(j, "uv")) {
        const std::string up = path + "/uv";
        expectArray(*uv, up);
        if (uv->size() != n)
            fail(up,
                std::to_string(uv->size()) + " texture coordinates for " + std::to_string(n) + " particles");
        e.uv.resize(n);
        for (std::size_t i = 0; i < n; ++i) {
            const Json &r = (*uv)[i];
            if (!r.is_array() || r.size() != 2)
                fail(at(up, i), "expected [u, v], got " + describe(r));
            for (std::size_t k = 0; k < 2; ++k)
                e.uv[i][k] = toFloat(r[k], at(at(up, i), k), { -1e6, 1e6, "" });
        }
    }
}

Collider SceneReader::readCollider(const Json &j, const std::string &path)
{
    expectObject(j, path,
        { "name", "kind", "center", "normal", "radius", "halfExtents", "keepInside", "axis", "halfLength",
            "mesh", "thickness", "friction", "staticFriction", "restitution", "motion" });
    Collider c;
    optString(j, path, "name", c.name);
    param(j, path, "kind", "collider.kind", c.kind);
    paramVec3(j, path, "center", "collider.center", c.baseCenter);
    c.center = c.baseCenter;
    paramVec3(j, path, "normal", "collider.normal", c.normal);
    if (c.kind == ColliderKind::Plane && lengthSquared(c.normal) == 0.f)
        fail(path + "/normal", "must not be [0, 0, 0]");
    param(j, path, "radius", "collider.radius", c.radius);
    paramVec3(j, path, "halfExtents", "collider.halfExtents", c.halfExtents);
    param(j, path, "keepInside", "collider.keepInside", c.keepInside);
    param(j, path, "halfLength", "collider.halfLength", c.halfLength);
    paramVec3(j, path, "axis", "collider.axis", c.axis);
    if (c.kind == ColliderKind::Capsule && lengthSquared(c.axis) == 0.f)
        fail(path + "/axis", "must not be [0, 0, 0]");
    if (const Json *m = find(j, "mesh"))
        c.mesh = readColliderMesh(*m, path + "/mesh");
    else if (c.kind == ColliderKind::Mesh)
        fail(path, "a mesh collider needs \"mesh\": {\"vertices\": [...], \"triangles\": [...]}");
    param(j, path, "thickness", "collider.thickness", c.thickness);
    param(j, path, "friction", "collider.friction", c.friction);
    param(j, path, "staticFriction", "collider.staticFriction", c.staticFriction);
    param(j, path, "restitution", "collider.restitution", c.restitution);
    if (const Json *m = find(j, "motion")) {
        const std::string mp = path + "/motion";
        expectObject(*m, mp, { "amplitude", "frequency", "phase" });
        paramVec3(*m, mp, "amplitude", "collider.motion.amplitude", c.motion.amplitude);
        param(*m, mp, "frequency", "collider.motion.frequency", c.motion.frequency);
        param(*m, mp, "phase", "collider.motion.phase", c.motion.phase);
    }
    return c;
}

MeshRef SceneReader::readColliderMesh(const Json &j, const std::string &path)
{
    expectObject(j, path, { "vertices", "triangles" });
    const Json &vs = require(j, path, "vertices");
    expectArray(vs, path + "/vertices");
    const std::size_t n = vs.size();
    std::vector<Vec3> vertices = readVecList(vs, path + "/vertices", n, kPositionLimits);
    const Json &ts = require(j, path, "triangles");
    const std::string tp = path + "/triangles";
    expectArray(ts, tp);
    if (ts.empty())
        fail(tp, "a mesh collider needs at least one triangle");
    return makeMeshRef(std::move(vertices), readTriangles(ts, tp, n));
}

void SceneReader::readCamera(const Json &j, const std::string &path, CameraDesc &c)
{
    expectObject(j, path, { "target", "yaw", "pitch", "distance", "fovY", "orthographic", "orthoHeight" });
    optVec3(j, path, "target", kPositionLimits, c.target);
    optFloat(j, path, "yaw", { -360, 360, "°" }, c.yaw);
    optFloat(j, path, "pitch", { -90, 90, "°" }, c.pitch);
    optFloat(j, path, "distance", { 0.001, 1e5, "m" }, c.distance);
    optFloat(j, path, "fovY", { 1, 179, "°" }, c.fovY);
    optBool(j, path, "orthographic", c.orthographic);
    optFloat(j, path, "orthoHeight", { 0.001, 1e5, "m" }, c.orthoHeight);
}

void SceneReader::readView(const Json &j, const std::string &path, ViewSettings &v)
{
    expectObject(j, path,
        { "shading", "wireframe", "showParticles", "showConstraints", "showStrain", "showPins", "showGround",
            "background" });
    optEnum(j, path, "shading", scenejson::kShadingNames, v.shading);
    optBool(j, path, "wireframe", v.wireframe);
    optBool(j, path, "showParticles", v.showParticles);
    optBool(j, path, "showConstraints", v.showConstraints);
    optBool(j, path, "showStrain", v.showStrain);
    optBool(j, path, "showPins", v.showPins);
    optBool(j, path, "showGround", v.showGround);
    optVec3(j, path, "background", kColorLimits, v.background);
}

void SceneReader::readRecord(const Json &j, const std::string &path, RecordSettings &r)
{
    expectObject(
        j, path,
        { "format", "fps", "width", "height", "quality", "frames", "overlays", "transparent", "startFrame",
            "endFrame" });
    optEnum(j, path, "format", scenejson::kRecordFormatNames, r.format);
    optInteger(j, path, "fps", { 1, 240, "frames/s" }, r.fps);
    optInteger(j, path, "width", { 0, 16384, "px" }, r.width);
    optInteger(j, path, "height", { 0, 16384, "px" }, r.height);
    optInteger(j, path, "quality", { 0, 100, "" }, r.quality);
    optInteger(j, path, "frames", { 0, kMaxRecordFrames, "" }, r.frames);
    optBool(j, path, "overlays", r.overlays);
    optBool(j, path, "transparent", r.transparent);
    optInteger(j, path, "startFrame", { 0, kMaxRangeFrame, "" }, r.startFrame);
    optInteger(j, path, "endFrame", { -1, kMaxRangeFrame, "" }, r.endFrame);
    if (r.endFrame >= 0 && r.endFrame < r.startFrame)
        fail(path + "/endFrame",
            std::to_string(r.endFrame) + " is before startFrame " + std::to_string(r.startFrame)
                + " (use -1 for no end)");
}

std::vector<Vec3> SceneReader::readVecList(
    const Json &j, const std::string &path, std::size_t count, Limits limits)
{
    expectArray(j, path);
    if (j.size() != count)
        fail(path, std::to_string(j.size()) + " entries for " + std::to_string(count) + " particles");
    std::vector<Vec3> out;
    out.reserve(count);
    for (std::size_t i = 0; i < count; ++i)
        out.push_back(vec3(j[i], at(path, i), limits));
    return out;
}

std::vector<ParticleKind> SceneReader::readKinds(const Json &j, const std::string &path, std::size_t count)
{
    expectArray(j, path);
    if (j.size() != count)
        fail(path, std::to_string(j.size()) + " kinds for " + std::to_string(count) + " particles");
    std::vector<ParticleKind> out(count);
    for (std::size_t i = 0; i < count; ++i)
        out[i] = ParticleKind(enumIndex(j[i], at(path, i), scenejson::kParticleKindNames));
    return out;
}

SceneState SceneReader::readState(const Json &j, const std::string &path, const Scene &scene)
{
    expectObject(j, path, { "time", "frame", "cloths", "colliderCenters" });
    SceneState s;
    const Json &time = require(j, path, "time");
    s.time = number(time, path + "/time");
    if (!(s.time >= 0.0) || s.time > 1e9)
        fail(path + "/time", quote(time) + " is out of range, allowed 0..1e9 s");
    s.frame = std::uint64_t(integer(require(j, path, "frame"), path + "/frame", { 0, 9e15, "" }));
    const Json &cloths = require(j, path, "cloths");
    expectArray(cloths, path + "/cloths");
    if (cloths.size() != scene.cloths.size())
        fail(path + "/cloths",
            std::to_string(cloths.size()) + " cloth states for " + std::to_string(scene.cloths.size())
                + " cloths");
    for (std::size_t i = 0; i < cloths.size(); ++i) {
        const std::string cp = at(path + "/cloths", i);
        const Json &c = cloths[i];
        expectObject(c, cp, { "position", "previous", "velocity", "kinds" });
        const std::size_t n = particleCount(scene.cloths[i]);
        ClothState cs;
        cs.position = readVecList(require(c, cp, "position"), cp + "/position", n, kStatePositionLimits);
        cs.previous = readVecList(require(c, cp, "previous"), cp + "/previous", n, kStatePositionLimits);
        cs.velocity = readVecList(require(c, cp, "velocity"), cp + "/velocity", n, kVelocityLimits);
        cs.kind = readKinds(require(c, cp, "kinds"), cp + "/kinds", n);
        s.cloths.push_back(std::move(cs));
    }
    const Json &centers = require(j, path, "colliderCenters");
    expectArray(centers, path + "/colliderCenters");
    if (centers.size() != scene.colliders.size())
        fail(path + "/colliderCenters",
            std::to_string(centers.size()) + " centres for " + std::to_string(scene.colliders.size())
                + " colliders");
    for (std::size_t i = 0; i < centers.size(); ++i)
        s.colliderCenters.push_back(vec3(centers[i], at(path + "/colliderCenters", i), kStatePositionLimits));
    return s;
}

// nlohmann's message without its "[json.exception.parse_error.101] parse error at line 1,
// column 7: " prefix (we give our own position).
std::string stripPrefix(const std::string &what)
{
    std::size_t p = what.find("] ");
    std::string s = p == std::string::npos ? what : what.substr(p + 2);
    p = s.find(": ");
    if (s.starts_with("parse error") && p != std::string::npos)
        s = s.substr(p + 2);
    return s;
}

std::string prefixed(const std::string &source, const std::string &message)
{
    return source.empty() ? message : source + ": " + message;
}

} // namespace

namespace {

// The message for text the JSON parser refused at byte `offset`.
std::string syntaxMessage(std::string_view text, std::size_t offset, const std::string &what,
    const std::string &sourceName)
{
    // A file whose first token is already wrong is not JSON at all (an image, a text file):
    // say so in words rather than with the parser's message.
    const std::size_t first = text.find_first_not_of(" \t\r\n");
    if (first != std::string_view::npos && offset <= first && text[first] != '{' && text[first] != '[') {
        const std::string where = lineColumn(text, first);
        const std::size_t colon = where.find(':');
        return "not a Drape scene (not JSON): " + (sourceName.empty() ? std::string() : sourceName + ", ")
            + "line " + where.substr(0, colon) + ", column " + where.substr(colon + 1);
    }
    // An unexpected string is reported at its closing quote; point at its start instead.
    if (offset < text.size() && text[offset] == '"' && offset > 0) {
        std::size_t open = offset - 1;
        while (open > 0 && (text[open] != '"' || text[open - 1] == '\\') && text[open] != '\n')
            --open;
        if (text[open] == '"')
            offset = open;
    }
    const std::string where = text.empty() ? std::string("1:1") : lineColumn(text, offset);
    const std::string reason
        = first == std::string_view::npos ? "the file is empty" : stripPrefix(what);
    return prefixed(sourceName, where + ": " + reason);
}

// Parses `text` with the guards of jsonguard.h; throws JsonReadError or returns the message
// of a syntax error in `error`.
Json parseGuarded(std::string_view text, const std::string &sourceName, std::vector<std::string> *warnings,
    std::string *error)
{
    const JsonScanError scan = scanJsonText(text, kMaxJsonDepth);
    if (!scan.message.empty()) {
        *error = prefixed(sourceName, lineColumn(text, scan.offset) + ": " + scan.message);
        return {};
    }
    DuplicateKeys duplicates({ "format", "version" });
    Json doc;
    try {
        doc = Json::parse(text.begin(), text.end(), std::ref(duplicates));
    } catch (const nlohmann::json::parse_error &e) {
        *error = syntaxMessage(text, e.byte > 0 ? e.byte - 1 : 0, e.what(), sourceName);
        return {};
    } catch (const nlohmann::json::exception &e) {
        // Number overflow ("1e400") has no byte offset: find the number named in the message,
        // and quote only its start (it may have 100,000 digits).
        std::string where;
        const std::string what = e.what();
        const std::size_t q1 = what.find('\''), q2 = what.rfind('\'');
        std::string number;
        if (q1 != std::string::npos && q2 > q1) {
            number = what.substr(q1 + 1, q2 - q1 - 1);
            const std::size_t pos = text.find(number);
            if (pos != std::string_view::npos)
                where = lineColumn(text, pos) + ": ";
        }
        *error = prefixed(sourceName,
            where
                + (number.empty() ? stripPrefix(what)
                                  : "the number " + quotedValue(number, 32) + " is too large for a 64-bit float"));
        return {};
    }
    for (std::string &w : duplicates.warnings)
        warnings->push_back(prefixed(sourceName, w));
    return doc;
}

// Every message leaves the reader safe to print: control characters escaped, length capped.
SceneLoadResult printableResult(SceneLoadResult result)
{
    result.error = printable(result.error, 2000);
    for (std::string &w : result.warnings)
        w = printable(w, 2000);
    return result;
}

} // namespace

SceneLoadResult parseScene(std::string_view text, const std::string &sourceName, const SceneBudget &budget)
{
    SceneLoadResult result;
    try {
        std::string syntaxError;
        Json doc = parseGuarded(text, sourceName, &result.warnings, &syntaxError);
        if (!syntaxError.empty()) {
            result.error = syntaxError;
            return printableResult(std::move(result));
        }
        if (!doc.is_object())
            JsonReader::fail("", "expected a JSON object at the top level, got " + JsonReader::describe(doc));
        const Json *format = JsonReader::find(doc, "format");
        if (!format)
            JsonReader::fail("/format", "missing: not a Drape scene (expected \"format\": \"drape-scene\")");
        if (JsonReader::string(*format, "/format") != scenejson::kFormatName)
            JsonReader::fail(
                "/format", "not a Drape scene: format is " + JsonReader::quote(*format) + ", expected \"drape-scene\"");
        const Json &versionValue = JsonReader::require(doc, "", "version");
        const std::int64_t version = JsonReader::integer(versionValue, "/version", { 1, 1e9, "" });
        if (version > kSceneFormatVersion) {
            JsonReader::fail("/version",
                "written by a newer Drape (format version " + std::to_string(version)
                    + "); this build reads up to version " + std::to_string(kSceneFormatVersion));
        }
        const std::string migrationError = migrateScene(doc, int(version));
        if (!migrationError.empty())
            JsonReader::fail("/version", migrationError);
        SceneReader reader(budget);
        Scene scene = reader.read(doc);
        if (const Json *take = JsonReader::find(doc, "take"))
            result.take = readTake(reader, *take, "/take", scene,
                [&reader](const Json &j, const std::string &path) { return reader.material(j, path); });
        for (std::string &w : reader.warnings)
            result.warnings.push_back(prefixed(sourceName, w));
        result.scene = std::move(scene);
    } catch (const JsonReadError &e) {
        result.error = prefixed(sourceName, e.path + ": " + e.message);
    } catch (const OverBudget &e) {
        result.error = prefixed(sourceName, e.message);
        result.overBudget = e.totals;
    } catch (const std::exception &e) {
        result.error = prefixed(sourceName, std::string("unexpected error: ") + e.what());
    }
    return printableResult(std::move(result));
}

SceneLoadResult loadSceneFile(const std::string &path, const SceneBudget &budget)
{
    std::string text, error;
    if (!readWholeFile(path, &text, &error)) {
        SceneLoadResult result;
        result.error = printable(error, 2000);
        return result;
    }
    return parseScene(text, path, budget);
}

} // namespace drape
