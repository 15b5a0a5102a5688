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
/// The temporary file is named `.NAME.drape-PID-XXXXXX`; a write killed midway (kill -9,
/// power loss) leaves it behind, so every write first removes the stale temporaries of that
/// naming in the same folder (removeStaleTemporaries).
bool writeFileAtomically(const std::string &path, std::string_view data, std::string *error);

/// Removes from `dir` the temporary files that writeFileAtomically made and that no write
/// will finish any more: regular files named `.NAME.drape-PID-XXXXXX` whose process PID is
/// gone and that were not modified for `quietSeconds`, or that were not modified for an
/// hour whatever the PID says (a PID can be reused). Files of any other naming are never
/// touched. Returns how many were removed.
int removeStaleTemporaries(const std::string &dir, double quietSeconds = 2.0);

/// Largest file readWholeFile accepts by default (64 MiB): a scene of the largest budget
/// with its state is well below; parsing JSON takes roughly ten times the file's size.
constexpr std::size_t kMaxReadBytes = std::size_t(64) << 20;

/// Reads a whole regular file of at most `maxBytes`. On failure sets `error` ("cannot read
/// /x/y.json: No such file or directory", "cannot read /dev/zero: not a regular file",
/// "cannot read big.json: 80 MB is over the 64 MB limit") and returns false.
bool readWholeFile(
    const std::string &path, std::string *data, std::string *error, std::size_t maxBytes = kMaxReadBytes);

} // namespace drape
