// Upgrades of older scene files, one function per version step, kept apart from the reader
// so the reader only ever sees the current format.
#pragma once

#include "scenejson.h"

#include <string>
#include <string_view>

namespace drape {

/// Rewrites `doc` (a parsed scene file of format version `fromVersion`) in place into the
/// current format (kSceneFormatVersion), one step at a time. Returns an empty string, or a
/// message saying which step failed and why.
std::string migrateScene(scenejson::Json &doc, int fromVersion);

/// Keys written before bending was dihedral (material "bendStiffness" and
/// "warpBendStiffness" in N/m, take parameter events "material.bendStiffness" and
/// "material.warpBendStiffness") and the current key each maps to; empty when `key` is none.
std::string bendRigidityKeyFor(std::string_view legacyKey);
/// The bend rigidity (N·m) an old bending-spring stiffness (N/m) loads as: K · kLegacyBendArea.
double bendRigidityFromLegacy(double stiffnessNPerM);

} // namespace drape
