// Files compiled into the core library (the built-in presets), generated at build time by
// cmake/EmbedFiles.cmake from resources/presets/.
#pragma once

#include <string>
#include <vector>

namespace drape {

struct EmbeddedFile {
    std::string name; ///< file name, e.g. "curtain.json"
    std::string data; ///< file contents
};

/// The built-in preset scene files (resources/presets/*.json), sorted by name.
const std::vector<EmbeddedFile> &embeddedPresetFiles();

} // namespace drape
