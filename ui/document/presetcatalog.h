// The built-in preset scenes (core/scene/presets.h) with Qt strings, as the editor
// lists them: key ("curtain"), display name, description, and the parsed scene on demand.
#pragma once

#include "scene/scene.h"
#include "scene/take.h"

#include <QString>
#include <QStringList>

#include <optional>
#include <vector>

namespace drape {

struct PresetInfo {
    QString key;         ///< file name without .json, used by `drape --preset KEY`
    QString name;        ///< the scene's name
    QString description; ///< the scene's description
};

/// Every built-in preset that parses, sorted by file name.
const std::vector<PresetInfo> &builtinPresets();
/// The preset's scene (built in, else the user's preset of that name); nullopt with `error`
/// set when `key` is unknown or the file is bad. `warnings` receives what loading said (a
/// user preset shadowed by a built-in one of the same name); `take` the take the preset
/// ships with (empty for most).
std::optional<Scene> loadPreset(
    const QString &key, QString *error, QStringList *warnings = nullptr, Take *take = nullptr);
/// The user's own scene presets (core/scene/userpresets.h), sorted by id.
QStringList userScenePresets();
/// The preset keys, for messages ("known presets: cloth-ball, curtain, ...").
QStringList presetKeys();

} // namespace drape
