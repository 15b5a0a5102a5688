// Reading and writing scene files (JSON, see docs/scene-format.md).
//
// Loading parses into a fresh Scene and returns it only when the whole file validated, so a
// bad file never half-loads. Errors name the file and the place: line:column for syntax
// errors, the JSON path and the offending value for everything else
// ("curtain.json: /cloths/0/pins/3: particle 900 out of range, cloth has 400"). Unknown keys
// are warnings. Saving writes a fixed key order and floats as their shortest round-trip
// decimals, so save → load → save gives the same bytes, and writes atomically.
#pragma once

#include "scene/scene.h"
#include "scene/take.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace drape {

/// The format version this build writes and the newest it reads.
constexpr int kSceneFormatVersion = 2;

struct SceneLoadResult {
    std::optional<Scene> scene; ///< set only when the file loaded completely
    Take take; ///< what happened after the scene's start (format 2 "take"; empty for version 1 files)
    std::string error; ///< empty on success
    std::vector<std::string> warnings; ///< e.g. unknown keys (the scene still loads)

    bool ok() const { return scene.has_value(); }
};

struct SaveOptions {
    /// Also write scene.state (positions, velocities, time, collider centres) when present,
    /// so a paused scene resumes exactly where it was. Fill it with snapshotScene().
    bool withState = false;
    /// The take to write under "take" (not written when null or empty).
    const Take *take = nullptr;
};

/// Parses scene text; `sourceName` (a file name) prefixes every message.
SceneLoadResult parseScene(std::string_view text, const std::string &sourceName);
/// Reads and parses a file; an unreadable file is an error naming the path and the reason.
SceneLoadResult loadSceneFile(const std::string &path);

/// The file contents for `scene` (UTF-8 JSON, trailing newline).
std::string serializeScene(const Scene &scene, const SaveOptions &options = {});
/// Serialises, checks that the text reads back, and writes it atomically (temp file in the
/// same directory, flushed, renamed over `path`). On failure the old file is untouched,
/// `error` names the path and the reason, and false is returned.
bool saveSceneFile(
    const std::string &path, const Scene &scene, const SaveOptions &options, std::string *error);

} // namespace drape
