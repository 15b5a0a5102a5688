// Scene format migrations.
//
// Version history:
//   1  first format.
//   2  the take: events after the scene's start under the optional key "take" (this build).
//      A version 1 file is a scene with an empty take, so the step changes nothing.
//      Within version 2, bending became dihedral: materials have "bendRigidity" /
//      "warpBendRigidity" in N·m, and the older "bendStiffness" / "warpBendStiffness" (N/m)
//      still load, converted by bendRigidityFromLegacy() (an optional key, so no version step).
//
// To introduce version N+1: bump kSceneFormatVersion, add `std::string migrateNToN1(Json &)`
// that rewrites a version-N document into version N+1 (rename keys, convert units, fill new
// required fields), append it to kSteps, document the change in docs/scene-format.md, and keep
// a file written by version N in tests/data/vN/ so the test proves it still loads.
#include "scenemigrate.h"

#include "scene/scene.h"
#include "scene/scenefile.h"

#include <array>

namespace drape {

namespace {

using scenejson::Json;
using MigrationStep = std::string (*)(Json &doc);

std::string migrate1To2(Json &)
{
    return {}; // no "take" key: an empty take
}

// kSteps[i] upgrades a version i+1 document to version i+2.
constexpr std::array<MigrationStep, kSceneFormatVersion - 1> kSteps = { migrate1To2 };

} // namespace

std::string bendRigidityKeyFor(std::string_view legacyKey)
{
    if (legacyKey == "bendStiffness")
        return "bendRigidity";
    if (legacyKey == "warpBendStiffness")
        return "warpBendRigidity";
    if (legacyKey == "material.bendStiffness")
        return "material.bendRigidity";
    if (legacyKey == "material.warpBendStiffness")
        return "material.warpBendRigidity";
    return {};
}

double bendRigidityFromLegacy(double stiffnessNPerM)
{
    return stiffnessNPerM * double(kLegacyBendArea);
}

std::string migrateScene(Json &doc, int fromVersion)
{
    for (int v = fromVersion; v < kSceneFormatVersion; ++v) {
        const std::string error = kSteps[std::size_t(v - 1)](doc);
        if (!error.empty())
            return "upgrading from format version " + std::to_string(v) + ": " + error;
        doc["version"] = v + 1;
    }
    return {};
}

} // namespace drape
