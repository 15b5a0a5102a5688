// Events as JSON objects: {"frame": 40, "event": "cut", "cloth": 0, ...}. Floats use the
// same shortest round-trip numbers as the rest of the file, so save → load → save of a
// document with a take is byte-identical.
#include "takejson.h"

#include "scenemigrate.h"

#include <cmath>

namespace drape {

namespace {

using scenejson::floatToJson;
using scenejson::Json;

constexpr std::array<std::string_view, 9> kEventNames = {
    "drag",
    "remove-constraints",
    "pin",
    "move-pins",
    "sew",
    "change-constraints",
    "parameter",
    "material",
    "push",
};
constexpr Limits kPositionLimits { -1e5, 1e5, "m" };
constexpr Limits kFrameLimits { 0, 1e12, "frames" };
constexpr Limits kIndexLimits { 0, 4294967294.0, "" };
constexpr Limits kLengthLimits { -1.0, 1e5, "m" };
constexpr Limits kComplianceLimits { 0.0, 1e6, "m/N" };
constexpr Limits kDampingLimits { 0.0, 1e6, "N·s/m" };
constexpr Limits kTearLimits { 1e-6, 1e6, "" };
constexpr Limits kPushRadiusLimits { 1e-6, 1e5, "m" };
constexpr Limits kPushFactorLimits { 0.0, 1.0, "" };

Json vec(const Vec3 &v)
{
    return Json::array({ floatToJson(v.x), floatToJson(v.y), floatToJson(v.z) });
}

Json vecs(const std::vector<Vec3> &list)
{
    Json j = Json::array();
    for (const Vec3 &v : list)
        j.push_back(vec(v));
    return j;
}

Json refs(const std::vector<ConstraintRef> &list)
{
    Json j = Json::array();
    for (const ConstraintRef &r : list)
        j.push_back(Json::array({ r.index, r.a, r.b }));
    return j;
}

Json tear(float t)
{
    return std::isfinite(t) ? Json(floatToJson(t)) : Json(nullptr); // null: never tears
}

struct Writer {
    Json &j;
    void operator()(const DragEvent &e)
    {
        j["cloth"] = e.cloth;
        j["particles"] = e.particles;
        j["centre"] = vec(e.centre);
        j["targets"] = vecs(e.targets);
    }
    void operator()(const RemoveConstraintsEvent &e)
    {
        j["cloth"] = e.cloth;
        j["constraints"] = refs(e.constraints);
        j["removeTriangles"] = e.removeTriangles;
        j["cut"] = e.cut;
    }
    void operator()(const PinEvent &e)
    {
        j["cloth"] = e.cloth;
        j["particles"] = e.particles;
        j["kind"] = std::string(scenejson::kParticleKindNames[std::size_t(e.kind)]);
    }
    void operator()(const MovePinsEvent &e)
    {
        j["cloth"] = e.cloth;
        j["particles"] = e.particles;
        j["positions"] = vecs(e.positions);
    }
    void operator()(const SewEvent &e)
    {
        j["cloth"] = e.cloth;
        j["a"] = e.a;
        j["b"] = e.b;
        j["restLength"] = floatToJson(e.restLength);
        j["compliance"] = floatToJson(e.compliance);
        j["damping"] = floatToJson(e.damping);
        j["tearStrain"] = tear(e.tearStrain);
        j["kind"] = std::string(scenejson::kConstraintKindNames[std::size_t(e.kind)]);
    }
    void operator()(const ChangeConstraintsEvent &e)
    {
        j["cloth"] = e.cloth;
        j["constraints"] = refs(e.constraints);
        if (e.restLength)
            j["restLength"] = floatToJson(*e.restLength);
        if (e.compliance)
            j["compliance"] = floatToJson(*e.compliance);
        if (e.damping)
            j["damping"] = floatToJson(*e.damping);
        if (e.tearStrain)
            j["tearStrain"] = tear(*e.tearStrain);
    }
    void operator()(const ParameterEvent &e)
    {
        j["key"] = e.key;
        j["index"] = e.index;
        j["value"] = e.value;
    }
    void operator()(const MaterialEvent &e)
    {
        j["cloth"] = e.cloth;
        j["material"] = writeMaterialJson(e.material);
    }
    void operator()(const PushEvent &e)
    {
        j["centre"] = vec(e.centre);
        j["radius"] = floatToJson(e.radius);
        j["delta"] = vec(e.delta);
        j["factor"] = floatToJson(e.factor);
    }
};

std::string at(const std::string &path, std::size_t i)
{
    return path + "/" + std::to_string(i);
}

struct Reader {
    JsonReader &r;
    const Json &j;
    const std::string &path;
    const Scene &scene;
    const std::function<Material(const Json &, const std::string &)> &readMaterial;

    const Json &need(std::string_view key) const { return JsonReader::require(j, path, key); }
    std::string here(std::string_view key) const { return path + "/" + std::string(key); }

    int cloth() const
    {
        const std::int64_t c = JsonReader::integer(need("cloth"), here("cloth"), kIndexLimits);
        if (std::size_t(c) >= scene.cloths.size())
            JsonReader::fail(here("cloth"),
                "cloth " + std::to_string(c) + " out of range, the scene has "
                    + std::to_string(scene.cloths.size()));
        return int(c);
    }
    std::uint32_t index(const Json &v, const std::string &p) const
    {
        return std::uint32_t(JsonReader::integer(v, p, kIndexLimits));
    }
    std::vector<std::uint32_t> indices(std::string_view key) const
    {
        const Json &list = need(key);
        JsonReader::expectArray(list, here(key));
        std::vector<std::uint32_t> out;
        for (std::size_t i = 0; i < list.size(); ++i)
            out.push_back(index(list[i], at(here(key), i)));
        return out;
    }
    std::vector<Vec3> points(std::string_view key) const
    {
        const Json &list = need(key);
        JsonReader::expectArray(list, here(key));
        std::vector<Vec3> out;
        for (std::size_t i = 0; i < list.size(); ++i)
            out.push_back(JsonReader::vec3(list[i], at(here(key), i), kPositionLimits));
        return out;
    }
    std::vector<ConstraintRef> constraints() const
    {
        const Json &list = need("constraints");
        JsonReader::expectArray(list, here("constraints"));
        std::vector<ConstraintRef> out;
        for (std::size_t i = 0; i < list.size(); ++i) {
            const Json &c = list[i];
            const std::string p = at(here("constraints"), i);
            if (!c.is_array() || c.size() != 3)
                JsonReader::fail(p, "expected [index, a, b], got " + JsonReader::describe(c));
            out.push_back({ index(c[0], p + "/0"), index(c[1], p + "/1"), index(c[2], p + "/2") });
        }
        return out;
    }
    float tearStrain(const Json &v, const std::string &p) const
    {
        return v.is_null() ? kNeverTear : JsonReader::toFloat(v, p, kTearLimits);
    }
    template <typename T> void optional(std::string_view key, Limits limits, std::optional<T> &out) const
    {
        if (const Json *v = JsonReader::find(j, key))
            out = key == "tearStrain" ? tearStrain(*v, here(key))
                                      : JsonReader::toFloat(*v, here(key), limits);
    }

    EventData read(std::size_t kind) const
    {
        switch (kind) {
        case 0: {
            r.expectObject(j, path, { "frame", "event", "cloth", "particles", "centre", "targets" });
            DragEvent e { cloth(), indices("particles"),
                JsonReader::vec3(need("centre"), here("centre"), kPositionLimits), points("targets"), false };
            if (e.targets.empty())
                JsonReader::fail(here("targets"), "empty; a drag lasts at least one frame");
            return e;
        }
        case 1: {
            r.expectObject(j, path, { "frame", "event", "cloth", "constraints", "removeTriangles", "cut" });
            RemoveConstraintsEvent e { cloth(), constraints(), true, false };
            r.optBool(j, path, "removeTriangles", e.removeTriangles);
            r.optBool(j, path, "cut", e.cut);
            return e;
        }
        case 2: {
            r.expectObject(j, path, { "frame", "event", "cloth", "particles", "kind" });
            PinEvent e { cloth(), indices("particles"), ParticleKind::Static };
            r.optEnum(j, path, "kind", scenejson::kParticleKindNames, e.kind);
            return e;
        }
        case 3: {
            r.expectObject(j, path, { "frame", "event", "cloth", "particles", "positions" });
            MovePinsEvent e { cloth(), indices("particles"), points("positions") };
            if (e.positions.size() != e.particles.size())
                JsonReader::fail(here("positions"),
                    std::to_string(e.positions.size()) + " positions for "
                        + std::to_string(e.particles.size()) + " particles");
            return e;
        }
        case 4: {
            r.expectObject(j, path,
                { "frame", "event", "cloth", "a", "b", "restLength", "compliance", "damping", "tearStrain",
                    "kind" });
            SewEvent e { cloth(), index(need("a"), here("a")), index(need("b"), here("b")) };
            r.optFloat(j, path, "restLength", kLengthLimits, e.restLength);
            r.optFloat(j, path, "compliance", kComplianceLimits, e.compliance);
            r.optFloat(j, path, "damping", kDampingLimits, e.damping);
            if (const Json *t = JsonReader::find(j, "tearStrain"))
                e.tearStrain = tearStrain(*t, here("tearStrain"));
            r.optEnum(j, path, "kind", scenejson::kConstraintKindNames, e.kind);
            return e;
        }
        case 5: {
            r.expectObject(j, path,
                { "frame", "event", "cloth", "constraints", "restLength", "compliance", "damping",
                    "tearStrain" });
            ChangeConstraintsEvent e { cloth(), constraints() };
            optional("restLength", { 0.0, 1e5, "m" }, e.restLength);
            optional("compliance", kComplianceLimits, e.compliance);
            optional("damping", kDampingLimits, e.damping);
            optional("tearStrain", kTearLimits, e.tearStrain);
            return e;
        }
        case 6: {
            r.expectObject(j, path, { "frame", "event", "key", "index", "value" });
            ParameterEvent e { JsonReader::string(need("key"), here("key")), 0, 0.0 };
            // A bend stiffness in N/m recorded before bending was dihedral replays as the
            // bend rigidity it converts to (scenemigrate.h).
            const std::string renamed = bendRigidityKeyFor(e.key);
            if (!findParam(renamed.empty() ? e.key : renamed))
                JsonReader::fail(here("key"), "unknown parameter \"" + e.key + "\"");
            r.optInteger(j, path, "index", kIndexLimits, e.index);
            e.value = JsonReader::number(need("value"), here("value"));
            if (!renamed.empty()) {
                e.key = renamed;
                e.value = bendRigidityFromLegacy(e.value);
            }
            return e;
        }
        case 7: {
            r.expectObject(j, path, { "frame", "event", "cloth", "material" });
            return MaterialEvent { cloth(), readMaterial(need("material"), here("material")) };
        }
        default: {
            r.expectObject(j, path, { "frame", "event", "centre", "radius", "delta", "factor" });
            PushEvent e { JsonReader::vec3(need("centre"), here("centre"), kPositionLimits),
                JsonReader::toFloat(need("radius"), here("radius"), kPushRadiusLimits),
                JsonReader::vec3(need("delta"), here("delta"), kPositionLimits), 1.f };
            r.optFloat(j, path, "factor", kPushFactorLimits, e.factor);
            return e;
        }
        }
    }
};

} // namespace

Json writeTake(const Take &take)
{
    Json list = Json::array();
    for (const Event &e : take.events) {
        Json j;
        j["frame"] = e.frame;
        j["event"] = std::string(kEventNames[e.data.index()]);
        std::visit(Writer { j }, e.data);
        list.push_back(std::move(j));
    }
    return list;
}

Take readTake(JsonReader &reader, const Json &j, const std::string &path, const Scene &scene,
    const std::function<Material(const Json &, const std::string &)> &readMaterial)
{
    JsonReader::expectArray(j, path);
    Take take;
    for (std::size_t i = 0; i < j.size(); ++i) {
        const std::string here = at(path, i);
        const Json &e = j[i];
        if (!e.is_object())
            JsonReader::fail(here, "expected an event object, got " + JsonReader::describe(e));
        const std::uint64_t frame = std::uint64_t(
            JsonReader::integer(JsonReader::require(e, here, "frame"), here + "/frame", kFrameLimits));
        if (!take.events.empty() && frame < take.events.back().frame)
            JsonReader::fail(here + "/frame",
                "frame " + std::to_string(frame) + " comes before frame "
                    + std::to_string(take.events.back().frame)
                    + " of the event before it; events are listed in order");
        const std::size_t kind
            = JsonReader::enumIndex(JsonReader::require(e, here, "event"), here + "/event", kEventNames);
        take.events.push_back({ frame, Reader { reader, e, here, scene, readMaterial }.read(kind) });
    }
    return take;
}

} // namespace drape
