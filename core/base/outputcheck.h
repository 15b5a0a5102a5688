// Checks of an output path made before a long simulation or render, so that a read-only
// folder, a missing directory or a full disk is reported at once instead of after every
// frame was computed. The check creates and removes a probe file, which is the only test
// that covers permissions, ACLs, read-only mounts and running as root alike.
#pragma once

#include <cstdint>
#include <string>

namespace drape {

/// Free bytes for an unprivileged user on the file system holding `path` (or its nearest
/// existing parent), or -1 when unknown.
std::int64_t freeBytesAt(const std::string &path);

/// "12.3 MB", "4.0 GB": a byte count for messages.
std::string formatBytes(double bytes);

/// Checks that the file `path` can be written: its folder exists and takes a new file,
/// `path` is not a folder, and (when `expectedBytes` > 0 and the free space is known) the
/// disk has room for it. Returns "" or a message naming the path and the reason.
std::string checkOutputFile(const std::string &path, std::uint64_t expectedBytes = 0);

/// The same for a folder that will receive many files: it exists as a folder or its parent
/// can create it, it takes a new file, and the disk has room for `expectedBytes`.
std::string checkOutputFolder(const std::string &path, std::uint64_t expectedBytes = 0);

} // namespace drape
