// The take in a scene file (format version 2, key "take"): one JSON object per event, in
// the order they apply. See docs/scene-format.md.
#pragma once

#include "jsonreader.h"
#include "scene/take.h"

#include <functional>
#include <string>

namespace drape {

/// The "take" array; empty takes are not written.
scenejson::Json writeTake(const Take &take);
/// The material object as the cloths write it (shared with material events).
scenejson::Json writeMaterialJson(const Material &m);

/// Reads the "take" array. Checks types, ranges, that frames never decrease and that cloth
/// indices exist; particle and constraint indices depend on the earlier events and are
/// checked when the take is replayed (core/edit/player.h).
Take readTake(JsonReader &reader, const scenejson::Json &j, const std::string &path, const Scene &scene,
    const std::function<Material(const scenejson::Json &, const std::string &)> &readMaterial);

} // namespace drape
