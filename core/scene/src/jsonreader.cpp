#include "jsonreader.h"

#include "base/printable.h"

#include <cfloat>
#include <cmath>

namespace drape {

void JsonReader::fail(const std::string &path, const std::string &message)
{
    throw JsonReadError { path.empty() ? std::string("/") : path, message };
}

std::string JsonReader::formatNumber(double v)
{
    if (v == std::floor(v) && std::abs(v) < 1e15)
        return std::to_string(static_cast<long long>(v));
    return Json(v).dump();
}

std::string JsonReader::quote(const Json &v)
{
    // Containers are never serialised: a deeply nested value would recurse once per level
    // and a huge one would fill the message.
    if (v.is_object())
        return "{...}";
    if (v.is_array())
        return v.empty() ? "[]" : "[...]";
    if (v.is_string())
        return quotedValue(v.get_ref<const std::string &>());
    return printable(v.dump(), 48);
}

std::string JsonReader::describe(const Json &v)
{
    switch (v.type()) {
    case Json::value_t::object:
        return "an object";
    case Json::value_t::array:
        return v.empty() ? "an empty array" : "an array";
    case Json::value_t::string:
        return "a string " + quote(v);
    case Json::value_t::boolean:
        return "a boolean " + quote(v);
    case Json::value_t::null:
        return "null";
    default:
        return "the number " + quote(v);
    }
}

void JsonReader::expectObject(
    const Json &v, const std::string &path, std::initializer_list<std::string_view> known)
{
    if (!v.is_object())
        fail(path, "expected an object, got " + describe(v));
    for (auto it = v.begin(); it != v.end(); ++it) {
        bool ok = false;
        for (std::string_view k : known)
            ok = ok || k == it.key();
        if (!ok)
            warnings.push_back(path + "/" + printable(it.key(), 64) + ": unknown key, ignored");
    }
}

const JsonReader::Json *JsonReader::find(const Json &obj, std::string_view key)
{
    const auto it = obj.find(key);
    return it == obj.end() ? nullptr : &*it;
}

const JsonReader::Json &JsonReader::require(const Json &obj, const std::string &path, std::string_view key)
{
    const Json *v = find(obj, key);
    if (!v)
        fail(path + "/" + std::string(key), "missing (required)");
    return *v;
}

void JsonReader::expectArray(const Json &v, const std::string &path)
{
    if (!v.is_array())
        fail(path, "expected an array, got " + describe(v));
}

double JsonReader::number(const Json &v, const std::string &path)
{
    if (!v.is_number())
        fail(path, "expected a number, got " + describe(v));
    return v.get<double>();
}

static std::string rangeText(Limits limits)
{
    std::string s
        = "allowed " + JsonReader::formatNumber(limits.min) + ".." + JsonReader::formatNumber(limits.max);
    if (limits.unit && *limits.unit)
        s += std::string(" ") + limits.unit;
    return s;
}

float JsonReader::toFloat(const Json &v, const std::string &path, Limits limits)
{
    const double d = number(v, path);
    if (!std::isfinite(d) || std::abs(d) > double(FLT_MAX))
        fail(path, quote(v) + " is too large for a 32-bit float; " + rangeText(limits));
    if (d < limits.min || d > limits.max)
        fail(path, quote(v) + " is out of range, " + rangeText(limits));
    return float(d);
}

std::int64_t JsonReader::integer(const Json &v, const std::string &path, Limits limits)
{
    if (!v.is_number_integer())
        fail(path, "expected an integer, got " + describe(v));
    double d = 0.0;
    std::int64_t i = 0;
    if (v.is_number_unsigned()) {
        const std::uint64_t u = v.get<std::uint64_t>();
        d = double(u);
        i = u > std::uint64_t(INT64_MAX) ? INT64_MAX : std::int64_t(u);
    } else {
        i = v.get<std::int64_t>();
        d = double(i);
    }
    if (d < limits.min || d > limits.max)
        fail(path, quote(v) + " is out of range, " + rangeText(limits));
    return i;
}

bool JsonReader::boolean(const Json &v, const std::string &path)
{
    if (!v.is_boolean())
        fail(path, "expected true or false, got " + describe(v));
    return v.get<bool>();
}

std::string JsonReader::string(const Json &v, const std::string &path)
{
    if (!v.is_string())
        fail(path, "expected a string, got " + describe(v));
    return v.get<std::string>();
}

std::size_t JsonReader::enumIndex(
    const Json &v, const std::string &path, const std::vector<std::string> &names)
{
    std::string list;
    for (std::size_t i = 0; i < names.size(); ++i)
        list += (i ? ", " : "") + ("\"" + names[i] + "\"");
    if (!v.is_string())
        fail(path, "expected one of " + list + ", got " + describe(v));
    const std::string s = v.get<std::string>();
    for (std::size_t i = 0; i < names.size(); ++i) {
        if (names[i] == s)
            return i;
    }
    fail(path, quotedValue(s) + " is not one of " + list);
}

Vec3 JsonReader::vec3(const Json &v, const std::string &path, Limits limits)
{
    if (!v.is_array() || v.size() != 3)
        fail(path, "expected an array of 3 numbers [x, y, z], got " + describe(v));
    return { toFloat(v[0], path + "/0", limits), toFloat(v[1], path + "/1", limits),
        toFloat(v[2], path + "/2", limits) };
}

const ParamDesc &JsonReader::paramOf(const char *key)
{
    const ParamDesc *p = findParam(key);
    if (!p)
        fail("/", std::string("internal error: no parameter ") + key);
    return *p;
}

void JsonReader::paramVec3(
    const Json &obj, const std::string &path, std::string_view key, const std::string &paramKey, Vec3 &out)
{
    const Json *v = find(obj, key);
    if (!v)
        return;
    const std::string here = path + "/" + std::string(key);
    if (!v->is_array() || v->size() != 3)
        fail(here, "expected an array of 3 numbers [x, y, z], got " + describe(*v));
    const char *axes[3] = { ".x", ".y", ".z" };
    float c[3];
    for (int a = 0; a < 3; ++a) {
        const ParamDesc &p = paramOf((paramKey + axes[a]).c_str());
        c[a]
            = toFloat((*v)[std::size_t(a)], here + "/" + std::to_string(a), { p.min, p.max, p.unit.c_str() });
    }
    out = { c[0], c[1], c[2] };
}

void JsonReader::optFloat(
    const Json &obj, const std::string &path, std::string_view key, Limits limits, float &out)
{
    if (const Json *v = find(obj, key))
        out = toFloat(*v, path + "/" + std::string(key), limits);
}

void JsonReader::optBool(const Json &obj, const std::string &path, std::string_view key, bool &out)
{
    if (const Json *v = find(obj, key))
        out = boolean(*v, path + "/" + std::string(key));
}

void JsonReader::optString(const Json &obj, const std::string &path, std::string_view key, std::string &out)
{
    if (const Json *v = find(obj, key))
        out = string(*v, path + "/" + std::string(key));
}

void JsonReader::optVec3(
    const Json &obj, const std::string &path, std::string_view key, Limits limits, Vec3 &out)
{
    if (const Json *v = find(obj, key))
        out = vec3(*v, path + "/" + std::string(key), limits);
}

} // namespace drape
