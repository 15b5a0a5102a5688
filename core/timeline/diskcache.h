// "Bake to folder": a document's frames written next to its scene file, so that the document
// re-opened later scrubs at once instead of simulating again.
//
// The scene file names no cache: the folder sits beside it under a fixed name
// ("flag.json" → "flag.drape-cache/"), and the cache says which document it was made from by
// a hash of the scene and take as the scene file writes them (presentation left out: a moved
// camera does not make the frames stale). A cache of another document, or of this one before
// an edit, is detected by that hash and ignored with a message; a damaged one likewise.
//
// One file, frames.bin, little-endian: the 12-byte signature "DRAPECACHE1\0", uint32 format
// version 2, uint64 document hash, uint64 first frame, uint64 frame count; then per frame:
// uint64 frame, float64 time (s), uint64 state hash, uint8 blown up, uint32 cloth count, and
// per cloth uint32 particle count, uint8 "topology follows" (1 for the first frame and after
// a tear or cut, else 0: the previous frame's is shared) with, when it does, uint64 revision,
// uint32 triangle count, the triangles (3 × uint32) and the rest positions (3 × float32 per
// particle); then uint8 "kinds follow" (1 for the first frame and after a pin or a grab
// changed, else 0) with, when it does, the particle kinds (uint8 each: 0 dynamic, 1 grabbed,
// 2 pinned); then the positions (3 × float32 per particle); last uint32 collider count and
// the collider centres (3 × float32). It is written as frames.bin.part and renamed when
// complete, so a failed bake (disk full) leaves the previous cache as it was.
#pragma once

#include "base/partfile.h"
#include "scene/scene.h"
#include "scene/take.h"
#include "timeline/cachedframe.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace drape {

/// The cache folder of the scene file at `scenePath`: beside it, its name without the
/// extension plus ".drape-cache".
std::string diskCacheFolder(const std::string &scenePath);
/// The document a cache belongs to: a 64-bit FNV-1a hash of the scene file text for `scene`
/// (without presentation, with its saved state if any) and `take`.
std::uint64_t documentHash(const Scene &scene, const Take &take);

class DiskCacheWriter {
public:
    /// Creates `folder` if needed and starts the file. False with `error` set on failure.
    bool open(const std::string &folder, std::uint64_t documentHash, std::string *error);
    /// Appends the next frame; frames must follow each other (f, f + 1, ...).
    bool append(const CachedFrame &frame, std::string *error);
    /// Writes the frame count and renames the file into place.
    bool finish(std::string *error);

    std::uint64_t framesWritten() const { return m_count; }

private:
    PartFile m_file; ///< an unfinished bake is removed when the writer goes
    std::uint64_t m_first = 0;
    std::uint64_t m_count = 0;
    /// The previous frame's topology per cloth: a topology is written only when it changed.
    std::vector<std::shared_ptr<const ClothTopology>> m_previous;
    std::vector<std::shared_ptr<const std::vector<ParticleKind>>> m_previousKinds; ///< likewise the kinds
};

enum class DiskCacheStatus {
    Missing, ///< no cache beside the scene (nothing to say)
    Loaded,
    Stale, ///< made from another document, or this one before an edit: ignored
    Damaged, ///< unreadable or inconsistent: ignored
};

struct DiskCacheLoad {
    DiskCacheStatus status = DiskCacheStatus::Missing;
    std::string message; ///< why it was ignored (names the folder)
    std::uint64_t firstFrame = 0;
    std::vector<std::shared_ptr<const CachedFrame>> frames; ///< consecutive, from firstFrame
};

/// Reads the cache in `folder` if it was made for the document with hash `documentHash`.
DiskCacheLoad readDiskCache(const std::string &folder, std::uint64_t documentHash);

} // namespace drape
