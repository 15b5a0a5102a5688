// The user's own presets: whole scenes, or only a fabric (a Material in physical units), kept
// as files in the user's data folder so the editor, `drape --preset NAME` and `preset:NAME` on
// the command line all find them. Built-in presets always win a name: saving a user preset
// under a built-in name is refused, and a user file that has one anyway is listed as shadowed
// and reported whenever the name is resolved.
#pragma once

#include "scene/scenefile.h"

#include <string>
#include <vector>

namespace drape {

/// The editor's QStandardPaths::AppDataLocation, resolved without Qt the way Qt does on Linux
/// for organisation "Drape" and application "Drape": $XDG_DATA_HOME/Drape/Drape, with
/// XDG_DATA_HOME defaulting to $HOME/.local/share. Empty when neither variable is set.
std::string userDataDirectory();
/// userDataDirectory() + "/presets" (scenes) and + "/presets/fabrics" (fabrics).
std::string userPresetDirectory();
std::string userFabricDirectory();

enum class UserPresetKind : std::uint8_t { Scene = 0, Fabric = 1 };

struct UserPreset {
    std::string id; ///< file base name, used as `preset:<id>`
    UserPresetKind kind = UserPresetKind::Scene;
    std::string path; ///< the file
    bool shadowed = false; ///< a built-in preset has the same id (the built-in one is used)
};

/// Every user scene preset, then every fabric, each sorted by id.
std::vector<UserPreset> userPresetList();

/// Empty when `id` can name a user preset (1–64 letters, digits, spaces, '-', '_', '.', not
/// starting with '.' or a space, and not a built-in preset's id); otherwise why not.
std::string checkUserPresetId(const std::string &id, UserPresetKind kind);

/// Writes `scene` (without state) as user preset `id`; false with `error` naming the problem.
/// An existing user preset of that id is replaced only when `replace` is true.
bool saveUserPreset(const std::string &id, const Scene &scene, bool replace, std::string *error);
/// Writes `fabric` as fabric preset `id` ({"format": "drape-fabric", "version": 1, "material": {…}}).
bool saveFabricPreset(const std::string &id, const Material &fabric, bool replace, std::string *error);
bool renameUserPreset(
    UserPresetKind kind, const std::string &from, const std::string &to, std::string *error);
bool deleteUserPreset(UserPresetKind kind, const std::string &id, std::string *error);

/// Loads user scene preset `id` (error when there is none).
SceneLoadResult loadUserPreset(const std::string &id);
/// Loads fabric preset `id` into `out`; false with `error` naming the file and the problem.
bool loadFabricPreset(const std::string &id, Material &out, std::string *error);

} // namespace drape
