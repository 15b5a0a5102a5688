// Validating access to a parsed JSON document for the scene reader: every read names the
// JSON path of the value, checks its type and range, and throws JsonReadError with a message
// a user can act on ("/solver/substeps: 0 is out of range, allowed 1..1000"). Unknown keys
// are collected as warnings.
#pragma once

#include "scene/params.h"
#include "scenejson.h"

#include <array>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace drape {

struct JsonReadError {
    std::string path; ///< JSON pointer of the offending value ("/cloths/0/pins/3")
    std::string message; ///< what is wrong with it
};

/// An allowed range of a value that has no entry in the parameter table.
struct Limits {
    double min;
    double max;
    const char *unit = "";
};

class JsonReader {
public:
    using Json = scenejson::Json;

    std::vector<std::string> warnings; ///< "/world/foo: unknown key, ignored"

    [[noreturn]] static void fail(const std::string &path, const std::string &message);
    /// "a string \"abc\"", "a number 3.5", "an array", ... for messages.
    static std::string describe(const Json &v);
    /// A value as quoted in a message: scalars as a short escaped prefix of their JSON text,
    /// containers as {...} or [...] (never serialised whole).
    static std::string quote(const Json &v);
    static std::string formatNumber(double v);

    /// Requires an object; warns about keys not in `known`.
    void expectObject(const Json &v, const std::string &path, std::initializer_list<std::string_view> known);
    static const Json *find(const Json &obj, std::string_view key);
    static const Json &require(const Json &obj, const std::string &path, std::string_view key);
    static void expectArray(const Json &v, const std::string &path);

    static double number(const Json &v, const std::string &path);
    static float toFloat(const Json &v, const std::string &path, Limits limits);
    static std::int64_t integer(const Json &v, const std::string &path, Limits limits);
    static bool boolean(const Json &v, const std::string &path);
    static std::string string(const Json &v, const std::string &path);
    template <std::size_t N>
    static std::size_t enumIndex(
        const Json &v, const std::string &path, const std::array<std::string_view, N> &names)
    {
        return enumIndex(v, path, std::vector<std::string>(names.begin(), names.end()));
    }
    static std::size_t enumIndex(
        const Json &v, const std::string &path, const std::vector<std::string> &names);
    static Vec3 vec3(const Json &v, const std::string &path, Limits limits);

    /// Reads an optional member with the range, type and enum names of parameter `paramKey`
    /// (float, integer, bool or enum field); absent members keep their value.
    template <typename T>
    void param(const Json &obj, const std::string &path, std::string_view key, const char *paramKey, T &out);
    /// Reads an optional [x, y, z] member whose components are parameters `paramKey`.x/.y/.z.
    void paramVec3(const Json &obj, const std::string &path, std::string_view key,
        const std::string &paramKey, Vec3 &out);

    void optFloat(const Json &obj, const std::string &path, std::string_view key, Limits limits, float &out);
    template <typename I>
    void optInteger(const Json &obj, const std::string &path, std::string_view key, Limits limits, I &out)
    {
        if (const Json *v = find(obj, key))
            out = I(integer(*v, path + "/" + std::string(key), limits));
    }
    void optBool(const Json &obj, const std::string &path, std::string_view key, bool &out);
    void optString(const Json &obj, const std::string &path, std::string_view key, std::string &out);
    void optVec3(const Json &obj, const std::string &path, std::string_view key, Limits limits, Vec3 &out);
    template <typename E, std::size_t N>
    void optEnum(const Json &obj, const std::string &path, std::string_view key,
        const std::array<std::string_view, N> &names, E &out)
    {
        if (const Json *v = find(obj, key))
            out = E(enumIndex(*v, path + "/" + std::string(key), names));
    }

private:
    static const ParamDesc &paramOf(const char *key);
};

template <typename T>
void JsonReader::param(
    const Json &obj, const std::string &path, std::string_view key, const char *paramKey, T &out)
{
    const Json *v = find(obj, key);
    if (!v)
        return;
    const ParamDesc &p = paramOf(paramKey);
    const std::string here = path + "/" + std::string(key);
    if constexpr (std::is_enum_v<T>)
        out = T(enumIndex(*v, here, p.enumNames));
    else if constexpr (std::is_same_v<T, bool>)
        out = boolean(*v, here);
    else if constexpr (std::is_integral_v<T>)
        out = T(integer(*v, here, { p.min, p.max, p.unit.c_str() }));
    else
        out = toFloat(*v, here, { p.min, p.max, p.unit.c_str() });
}

} // namespace drape
