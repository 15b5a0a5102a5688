// Point-cache export in the PC2 format that Blender (Mesh Cache modifier), Maya and 3ds Max
// (Point Cache modifier) read: the positions of every vertex for every frame of a range.
//
// Layout (little-endian): a 32-byte header — the 12-byte signature "POINTCACHE2\0", int32
// version 1, int32 point count, float start frame, float sample rate (frames per sample, 1
// here), int32 sample count — then, per sample, one float x, y, z triplet per point. The
// points are the particles of every cloth in order, the same order as the vertices of the
// OBJ export, so the cache drives a mesh imported from `drape simulate --out x.obj`.
//
// PC2 holds a fixed point count. A cloth that tears or is cut changes its vertex count; the
// writer then refuses with a message that names the frame and points to the OBJ sequence,
// which stores the topology per frame. The file is written beside the target and renamed
// over it only when complete, so a refused or failed export never leaves a partial file.
#pragma once

#include "base/partfile.h"
#include "timeline/cachedframe.h"

#include <cstdint>
#include <string>

namespace drape {

class Pc2Writer {
public:
    /// Starts `path` for frames from `startFrame` on. False with `error` set on failure.
    bool open(const std::string &path, std::uint64_t startFrame, std::string *error);
    /// Appends one frame; the first fixes the point count, a later different count is refused.
    bool append(const CachedFrame &frame, std::string *error);
    /// Writes the sample count and renames the file into place.
    bool finish(std::string *error);

    std::uint32_t pointCount() const { return m_points; }
    std::uint32_t sampleCount() const { return m_samples; }

private:
    PartFile m_file; ///< an unfinished file is removed when the writer goes
    std::uint64_t m_startFrame = 0;
    std::uint32_t m_points = 0;
    std::uint32_t m_samples = 0;
};

/// Total particle count of a frame (the PC2 point count).
std::size_t pointCount(const CachedFrame &frame);

} // namespace drape
