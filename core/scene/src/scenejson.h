// Internals shared by the scene reader and writer: the format constants, the names under
// which enums are written, and the exact float ↔ JSON number conversion.
#pragma once

#include "scene/scene.h"

#include <nlohmann/json.hpp>

#include <array>
#include <charconv>
#include <cstdlib>
#include <string_view>

namespace drape::scenejson {

using Json = nlohmann::ordered_json;

inline constexpr std::string_view kFormatName = "drape-scene";

// Enum value i is written as names[i]. Solver kind, integrator, tear mode and collider kind
// take their names from the parameter table (ParamDesc::enumNames) so the dock and the file
// agree; the rest are listed here.
inline constexpr std::array<std::string_view, 3> kClothSourceNames = { "grid", "rope", "explicit" };
inline constexpr std::array<std::string_view, 2> kOrientationNames = { "vertical", "horizontal" };
inline constexpr std::array<std::string_view, 3> kParticleKindNames = { "dynamic", "kinematic", "static" };
inline constexpr std::array<std::string_view, 4> kConstraintKindNames
    = { "structural", "shear", "bend", "user" };
inline constexpr std::array<std::string_view, 3> kShadingNames = { "smooth", "flat", "checker" };
inline constexpr std::array<std::string_view, 4> kFabricLookNames = { "none", "checker", "weave", "image" };
inline constexpr std::array<std::string_view, 5> kRecordFormatNames
    = { "mp4", "webm", "gif", "png-sequence", "obj-sequence" };

/// The JSON number that writes as the float's shortest round-trip decimal ("0.15", not
/// "0.15000000596046448") and reads back as exactly `f`. The shortest decimal that rounds
/// to `f` is computed with std::to_chars; if reading it as a double and narrowing to float
/// could ever land elsewhere (double rounding), the exact double value of `f` is used.
inline double floatToJson(float f)
{
    char buf[32];
    const auto r = std::to_chars(buf, buf + sizeof buf, f);
    *r.ptr = '\0';
    const double d = std::strtod(buf, nullptr);
    return float(d) == f ? d : double(f);
}

} // namespace drape::scenejson
