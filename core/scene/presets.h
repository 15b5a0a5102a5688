// The built-in preset scenes (resources/presets/*.json, compiled into the core library).
// They load through the same parser as files, so a preset is just a scene file that ships
// with the program.
#pragma once

#include "scene/scenefile.h"

#include <string>
#include <vector>

namespace drape {

/// A built-in preset as listed in menus and `drape simulate --help`. (The editor keeps its
/// own Qt-string PresetInfo list in ui/presetcatalog.h.)
struct PresetDesc {
    std::string id; ///< file base name, used as `preset:<id>` ("curtain")
    std::string displayName; ///< the scene's name ("Curtain")
    std::string description; ///< the scene's description (one or two sentences)
};

/// Every built-in preset that loads, sorted by id.
const std::vector<PresetDesc> &presetList();
/// Loads preset `id` ("curtain"): a built-in one, else the user's preset of that name
/// (scene/userpresets.h); an unknown id is an error listing the known ones. A user preset
/// that has a built-in's name is never loaded by it: the built-in is, with a warning.
SceneLoadResult loadPreset(const std::string &id);
/// Loads a scene given as a file path or as `preset:<id>`.
SceneLoadResult loadSceneOrPreset(const std::string &nameOrPath, const SceneBudget &budget = {});

} // namespace drape
