// Upgrades of older scene files, one function per version step, kept apart from the reader
// so the reader only ever sees the current format.
#pragma once

#include "scenejson.h"

#include <string>

namespace drape {

/// Rewrites `doc` (a parsed scene file of format version `fromVersion`) in place into the
/// current format (kSceneFormatVersion), one step at a time. Returns an empty string, or a
/// message saying which step failed and why.
std::string migrateScene(scenejson::Json &doc, int fromVersion);

} // namespace drape
