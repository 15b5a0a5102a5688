// Scene → JSON text. Keys in a fixed order, every value written (so a file documents the
// complete scene and save → load → save is byte-identical), floats as shortest round-trip
// decimals, and small arrays (vectors, constraint records) on one line so explicit cloths
// stay readable and diffable.
#include "base/atomicfile.h"
#include "scene/params.h"
#include "scene/scenefile.h"
#include "scenejson.h"
#include "takejson.h"

#include <cmath>

namespace drape {

using scenejson::floatToJson;
using scenejson::Json;

namespace {

Json num(float f)
{
    return floatToJson(f);
}
Json vec(const Vec3 &v)
{
    return Json::array({ num(v.x), num(v.y), num(v.z) });
}

template <typename E, std::size_t N> Json name(const std::array<std::string_view, N> &names, E value)
{
    const std::size_t i = std::size_t(value);
    return i < N ? Json(std::string(names[i])) : Json(int(i));
}

Json enumParam(const char *key, int value)
{
    const ParamDesc *p = findParam(key);
    if (p && value >= 0 && std::size_t(value) < p->enumNames.size())
        return p->enumNames[std::size_t(value)];
    return value;
}

Json tearStrainJson(float t)
{
    return std::isfinite(t) ? num(t) : Json(nullptr);
} // null: never tears

Json writeWorld(const WorldSettings &w)
{
    Json wind;
    wind["direction"] = vec(w.wind.direction);
    wind["speed"] = num(w.wind.speed);
    wind["gustStrength"] = num(w.wind.gustStrength);
    wind["gustFrequency"] = num(w.wind.gustFrequency);
    wind["seed"] = w.wind.seed;
    wind["airDensity"] = num(w.wind.airDensity);
    wind["dragCoefficient"] = num(w.wind.dragCoefficient);
    wind["liftCoefficient"] = num(w.wind.liftCoefficient);
    Json j;
    j["gravity"] = vec(w.gravity);
    j["airDamping"] = num(w.airDamping);
    j["wind"] = std::move(wind);
    return j;
}

Json writeSolver(const SolverSettings &s)
{
    Json j;
    j["kind"] = enumParam("solver.kind", int(s.kind));
    j["frameRate"] = num(s.frameRate);
    j["substeps"] = s.substeps;
    j["iterations"] = s.iterations;
    j["integrator"] = enumParam("solver.integrator", int(s.integrator));
    j["maxSplitsPerStep"] = s.maxSplitsPerStep;
    j["selfCollision"] = s.selfCollision;
    if (s.clothCollision) // optional key, see writeMaterial
        j["clothCollision"] = s.clothCollision;
    j["maxSpeed"] = num(s.maxSpeed);
    return j;
}

} // namespace

Json writeMaterialJson(const Material &m)
{
    Json j;
    j["name"] = m.name;
    j["arealDensity"] = num(m.arealDensity);
    j["stretchStiffness"] = num(m.stretchStiffness);
    j["shearStiffness"] = num(m.shearStiffness);
    // A material read from a file in the old N/m units saves back in them (scenemigrate.h), so
    // such a file keeps its bytes; everything else is written in N·m.
    const auto legacy = [](float rigidity) { return float(double(rigidity) / double(kLegacyBendArea)); };
    if (m.legacyBendUnits)
        j["bendStiffness"] = num(legacy(m.bendRigidity));
    else
        j["bendRigidity"] = num(m.bendRigidity);
    j["damping"] = num(m.damping);
    j["tearStrain"] = num(m.tearStrain);
    // Keys added after the first files were written are left out at their defaults, so a
    // scene that does not use them saves byte for byte as it did.
    const Material plain;
    if (m.tearTension != plain.tearTension)
        j["tearTension"] = num(m.tearTension);
    if (m.tearBy != plain.tearBy)
        j["tearBy"] = enumParam("material.tearBy", int(m.tearBy));
    if (m.warpStretchStiffness != plain.warpStretchStiffness)
        j["warpStretchStiffness"] = num(m.warpStretchStiffness);
    if (m.warpBendRigidity != plain.warpBendRigidity)
        j[m.legacyBendUnits ? "warpBendStiffness" : "warpBendRigidity"]
            = num(m.legacyBendUnits ? legacy(m.warpBendRigidity) : m.warpBendRigidity);
    return j;
}

namespace {

Json writeExplicit(const ExplicitDesc &e)
{
    Json rest = Json::array();
    for (const Vec3 &p : e.rest)
        rest.push_back(vec(p));
    Json mass = Json::array();
    for (float m : e.mass)
        mass.push_back(num(m));
    Json kinds = Json::array();
    for (ParticleKind k : e.kind)
        kinds.push_back(name(scenejson::kParticleKindNames, k));
    Json constraints = Json::array();
    for (const DistanceConstraint &c : e.constraints) {
        Json record = Json::array({ c.a, c.b, num(c.restLength), num(c.compliance), num(c.damping),
            tearStrainJson(c.tearStrain), name(scenejson::kConstraintKindNames, c.kind) });
        if (c.tearForce < kNeverTear)
            record.push_back(num(c.tearForce)); // optional 8th entry, N
        constraints.push_back(std::move(record));
    }
    Json triangles = Json::array();
    for (const Triangle &t : e.triangles)
        triangles.push_back(Json::array({ t.v[0], t.v[1], t.v[2] }));
    Json j;
    j["rest"] = std::move(rest);
    j["mass"] = std::move(mass);
    j["kinds"] = std::move(kinds);
    j["constraints"] = std::move(constraints);
    j["triangles"] = std::move(triangles);
    if (e.own) { // which constraints keep their own properties (the others follow the material)
        j["own"] = *e.own;
        j["spacing"] = num(e.spacing);
        j["warp"] = vec(e.warp);
    }
    if (!e.uv.empty()) { // optional: only imported meshes carry their own texture coordinates
        Json uv = Json::array();
        for (const auto &t : e.uv)
            uv.push_back(Json::array({ num(t[0]), num(t[1]) }));
        j["uv"] = std::move(uv);
    }
    if (!e.bending)
        j["bending"] = false; // optional key, written only when off
    return j;
}

Json writeCloth(const ClothDesc &c)
{
    Json j;
    j["name"] = c.name;
    j["source"] = name(scenejson::kClothSourceNames, c.source);
    switch (c.source) {
    case ClothSource::Grid: {
        Json g;
        g["across"] = c.grid.across;
        g["down"] = c.grid.down;
        g["width"] = num(c.grid.width);
        g["height"] = num(c.grid.height);
        g["orientation"] = name(scenejson::kOrientationNames, c.grid.orientation);
        g["origin"] = vec(c.grid.origin);
        g["structural"] = c.grid.structural;
        g["shear"] = c.grid.shear;
        g["bend"] = c.grid.bend;
        if (c.grid.bendSprings)
            g["bendSprings"] = true; // optional key, written only when set
        j["grid"] = std::move(g);
        break;
    }
    case ClothSource::Rope: {
        Json r;
        r["count"] = c.rope.count;
        r["length"] = num(c.rope.length);
        r["start"] = vec(c.rope.start);
        r["direction"] = vec(c.rope.direction);
        r["linkMass"] = num(c.rope.linkMass);
        j["rope"] = std::move(r);
        break;
    }
    case ClothSource::Explicit:
        j["explicit"] = writeExplicit(c.explicitData);
        break;
    }
    j["material"] = writeMaterialJson(c.material);
    j["pins"] = c.pins;
    j["tearMode"] = enumParam("cloth.tearMode", int(c.tearMode));
    j["thickness"] = num(c.thickness);
    if (c.tetherStretch != 0.f) // optional key, see writeMaterial
        j["tetherStretch"] = num(c.tetherStretch);
    j["frontColor"] = vec(c.frontColor);
    j["backColor"] = vec(c.backColor);
    return j;
}

Json writeCollider(const Collider &c)
{
    Json j;
    j["name"] = c.name;
    j["kind"] = enumParam("collider.kind", int(c.kind));
    j["center"] = vec(c.baseCenter);
    switch (c.kind) {
    case ColliderKind::Plane:
        j["normal"] = vec(c.normal);
        break;
    case ColliderKind::Sphere:
        j["radius"] = num(c.radius);
        break;
    case ColliderKind::Box:
        j["halfExtents"] = vec(c.halfExtents);
        j["keepInside"] = c.keepInside;
        break;
    case ColliderKind::Capsule:
        j["radius"] = num(c.radius);
        j["axis"] = vec(c.axis);
        j["halfLength"] = num(c.halfLength);
        break;
    case ColliderKind::Mesh:
        if (c.mesh) {
            Json vertices = Json::array();
            for (const Vec3 &v : c.mesh->vertices())
                vertices.push_back(vec(v));
            Json triangles = Json::array();
            for (const Triangle &t : c.mesh->triangles())
                triangles.push_back(Json::array({ t.v[0], t.v[1], t.v[2] }));
            Json m;
            m["vertices"] = std::move(vertices);
            m["triangles"] = std::move(triangles);
            j["mesh"] = std::move(m);
        }
        break;
    }
    j["thickness"] = num(c.thickness);
    j["friction"] = num(c.friction);
    if (c.staticFriction >= 0.f) // optional key (absent: the same as friction), see writeMaterial
        j["staticFriction"] = num(c.staticFriction);
    j["restitution"] = num(c.restitution);
    Json m;
    m["amplitude"] = vec(c.motion.amplitude);
    m["frequency"] = num(c.motion.frequency);
    m["phase"] = num(c.motion.phase);
    j["motion"] = std::move(m);
    return j;
}

Json writeCamera(const CameraDesc &c)
{
    Json j;
    j["target"] = vec(c.target);
    j["yaw"] = num(c.yaw);
    j["pitch"] = num(c.pitch);
    j["distance"] = num(c.distance);
    j["fovY"] = num(c.fovY);
    j["orthographic"] = c.orthographic;
    j["orthoHeight"] = num(c.orthoHeight);
    return j;
}

Json writeView(const ViewSettings &v)
{
    Json j;
    j["shading"] = name(scenejson::kShadingNames, v.shading);
    j["wireframe"] = v.wireframe;
    j["showParticles"] = v.showParticles;
    j["showConstraints"] = v.showConstraints;
    j["showStrain"] = v.showStrain;
    j["showPins"] = v.showPins;
    j["showGround"] = v.showGround;
    j["background"] = vec(v.background);
    return j;
}

Json writeRecord(const RecordSettings &r)
{
    Json j;
    j["format"] = name(scenejson::kRecordFormatNames, r.format);
    j["fps"] = r.fps;
    j["width"] = r.width;
    j["height"] = r.height;
    j["quality"] = r.quality;
    j["frames"] = r.frames;
    j["overlays"] = r.overlays;
    j["transparent"] = r.transparent;
    // Optional keys (version 2 files written before them have none): the default range is
    // not written, so such files save byte-identically.
    if (r.startFrame != 0)
        j["startFrame"] = r.startFrame;
    if (r.endFrame >= 0)
        j["endFrame"] = r.endFrame;
    return j;
}

Json vecList(const std::vector<Vec3> &v)
{
    Json j = Json::array();
    for (const Vec3 &p : v)
        j.push_back(vec(p));
    return j;
}

Json writeState(const SceneState &s)
{
    Json cloths = Json::array();
    for (const ClothState &c : s.cloths) {
        Json kinds = Json::array();
        for (ParticleKind k : c.kind)
            kinds.push_back(name(scenejson::kParticleKindNames, k));
        Json j;
        j["position"] = vecList(c.position);
        j["previous"] = vecList(c.previous);
        j["velocity"] = vecList(c.velocity);
        j["kinds"] = std::move(kinds);
        cloths.push_back(std::move(j));
    }
    Json j;
    j["time"] = s.time;
    j["frame"] = s.frame;
    j["cloths"] = std::move(cloths);
    j["colliderCenters"] = vecList(s.colliderCenters);
    return j;
}

Json writeDocument(const Scene &scene, const SaveOptions &options)
{
    Json j;
    j["format"] = std::string(scenejson::kFormatName);
    j["version"] = kSceneFormatVersion;
    j["units"] = Json { { "length", "m" }, { "mass", "kg" }, { "time", "s" } };
    j["name"] = scene.name;
    j["description"] = scene.description;
    j["world"] = writeWorld(scene.world);
    j["solver"] = writeSolver(scene.solver);
    Json cloths = Json::array();
    for (const ClothDesc &c : scene.cloths)
        cloths.push_back(writeCloth(c));
    j["cloths"] = std::move(cloths);
    Json colliders = Json::array();
    for (const Collider &c : scene.colliders)
        colliders.push_back(writeCollider(c));
    j["colliders"] = std::move(colliders);
    j["camera"] = writeCamera(scene.camera);
    j["view"] = writeView(scene.view);
    j["record"] = writeRecord(scene.record);
    if (options.take && !options.take->empty())
        j["take"] = writeTake(*options.take);
    if (options.withState && scene.state)
        j["state"] = writeState(*scene.state);
    return j;
}

// Pretty printer: objects one key per line; arrays of scalars on one line (wrapped when
// long); arrays of small arrays one element per line.
bool isScalar(const Json &j)
{
    return !j.is_object() && !j.is_array();
}
bool isFlat(const Json &j)
{
    if (!j.is_array())
        return false;
    for (const Json &e : j) {
        if (!isScalar(e))
            return false;
    }
    return true;
}

constexpr std::size_t kLineWidth = 100;

void print(std::string &out, const Json &j, int indent)
{
    const std::string pad(std::size_t(indent + 2), ' ');
    if (j.is_object()) {
        if (j.empty()) {
            out += "{}";
            return;
        }
        out += "{\n";
        bool first = true;
        for (auto it = j.begin(); it != j.end(); ++it) {
            if (!first)
                out += ",\n";
            first = false;
            out += pad;
            out += Json(it.key()).dump();
            out += ": ";
            print(out, it.value(), indent + 2);
        }
        out += "\n" + std::string(std::size_t(indent), ' ') + "}";
        return;
    }
    if (j.is_array()) {
        if (j.empty()) {
            out += "[]";
            return;
        }
        if (isFlat(j)) {
            std::string line = "[";
            for (std::size_t i = 0; i < j.size(); ++i)
                line += (i ? ", " : "") + j[i].dump();
            line += "]";
            if (line.size() + std::size_t(indent) <= kLineWidth) {
                out += line;
                return;
            }
            // Long list of numbers: wrapped, several per line.
            out += "[\n" + pad;
            std::size_t column = pad.size();
            for (std::size_t i = 0; i < j.size(); ++i) {
                const std::string item = j[i].dump() + (i + 1 < j.size() ? "," : "");
                if (column > pad.size() && column + 1 + item.size() > kLineWidth) {
                    out += "\n" + pad;
                    column = pad.size();
                } else if (column > pad.size()) {
                    out += " ";
                    ++column;
                }
                out += item;
                column += item.size();
            }
            out += "\n" + std::string(std::size_t(indent), ' ') + "]";
            return;
        }
        out += "[\n";
        for (std::size_t i = 0; i < j.size(); ++i) {
            out += pad;
            print(out, j[i], indent + 2);
            out += i + 1 < j.size() ? ",\n" : "\n";
        }
        out += std::string(std::size_t(indent), ' ') + "]";
        return;
    }
    out += j.dump();
}

} // namespace

std::string serializeScene(const Scene &scene, const SaveOptions &options)
{
    std::string out;
    print(out, writeDocument(scene, options), 0);
    out += "\n";
    return out;
}

bool saveSceneFile(
    const std::string &path, const Scene &scene, const SaveOptions &options, std::string *error)
{
    const std::string text = serializeScene(scene, options);
    // Never write a file this build could not read back (e.g. a non-finite value).
    const SceneLoadResult check = parseScene(text, path);
    if (!check.ok()) {
        if (error)
            *error = "cannot save " + path + ": the scene is invalid: " + check.error;
        return false;
    }
    return writeFileAtomically(path, text, error);
}

} // namespace drape
