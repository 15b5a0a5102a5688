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
#include "scene/scenebudget.h"
#include "scene/take.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace drape {

/// The format version this build writes and the newest it reads.
constexpr int kSceneFormatVersion = 2;

/// Deepest nesting of arrays and objects a scene file may have (a scene needs 6; the limit
/// keeps hostile files from exhausting the stack anywhere JSON is walked recursively).
constexpr int kMaxJsonDepth = 32;

struct SceneLoadResult {
    std::optional<Scene> scene; ///< set only when the file loaded completely
    Take take; ///< what happened after the scene's start (format 2 "take"; empty for version 1 files)
    std::string error; ///< empty on success
    std::vector<std::string> warnings; ///< e.g. unknown keys (the scene still loads)
    /// Set when the file is valid but over the size budget: what it would need. A caller
    /// that can afford it (the editor, after asking) may load it again with a larger budget.
    std::optional<SceneTotals> overBudget;

    bool ok() const { return scene.has_value(); }
};

struct SaveOptions {
    /// Also write scene.state (positions, velocities, time, collider centres) when present,
    /// so a paused scene resumes exactly where it was. Fill it with snapshotScene().
    bool withState = false;
    /// The take to write under "take" (not written when null or empty).
    const Take *take = nullptr;
};

/// Parses scene text; `sourceName` (a file name) prefixes every message. Every message has
/// its control characters escaped and its quoted values cut short (base/printable.h), so it
/// is safe to print. Text with NUL bytes, nesting deeper than kMaxJsonDepth, a repeated
/// "format" or "version", or a scene over `budget` is refused; other repeated keys are
/// warnings (the last value is used).
SceneLoadResult parseScene(std::string_view text, const std::string &sourceName, const SceneBudget &budget = {});
/// Reads and parses a file; an unreadable file, a file that is not a regular file (a device,
/// a pipe) or one larger than kMaxReadBytes is an error naming the path and the reason.
SceneLoadResult loadSceneFile(const std::string &path, const SceneBudget &budget = {});

/// The file contents for `scene` (UTF-8 JSON, trailing newline).
std::string serializeScene(const Scene &scene, const SaveOptions &options = {});
/// Serialises, checks that the text reads back, and writes it atomically (temp file in the
/// same directory, flushed, renamed over `path`). On failure the old file is untouched,
/// `error` names the path and the reason, and false is returned.
bool saveSceneFile(
    const std::string &path, const Scene &scene, const SaveOptions &options, std::string *error);

} // namespace drape
