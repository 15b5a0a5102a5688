// Atomic file writes for the core (which has no QSaveFile): the data goes to a temporary
// file in the target's directory, is flushed to disk, and is renamed over the target, so
// readers see either the old file or the complete new one, never a partial write.
#pragma once

#include <string>
#include <string_view>

namespace drape {

/// Writes `data` to `path` atomically. Keeps the permissions of an existing file. On failure
/// removes the temporary file, leaves `path` untouched, sets `error` to a message naming the
/// path and the OS reason ("cannot write /x/y.json: Permission denied") and returns false.
bool writeFileAtomically(const std::string &path, std::string_view data, std::string *error);

/// Reads a whole file. On failure sets `error` ("cannot read /x/y.json: No such file or
/// directory") and returns false.
bool readWholeFile(const std::string &path, std::string *data, std::string *error);

} // namespace drape
