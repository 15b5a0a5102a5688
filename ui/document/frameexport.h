// Exports of a document's frames over a range, read from its timeline (cached frames at once,
// the others simulated): a PC2 point cache, or an OBJ sequence when the cloth tears or is cut
// inside the range (PC2 holds a fixed vertex count). File ▸ Export Point Cache drives them.
#pragma once

#include <QString>

#include <cstdint>
#include <functional>
#include <limits>

namespace drape {

class Document;

/// Called after each frame with (done, total); returning false cancels.
using ExportProgress = std::function<bool(std::uint64_t, std::uint64_t)>;

/// The frames an export covers: the record range (record.startFrame to record.endFrame),
/// without an end to the last frame worth baking (bakeEnd).
void exportRange(Document &document, std::uint64_t *first, std::uint64_t *last);

struct PointCacheExport {
    QString error; ///< empty on success (and when cancelled)
    bool cancelled = false;
    /// The frame at which the vertex count changed (a tear or a cut), when that refused it.
    std::uint64_t topologyChangedAt = std::numeric_limits<std::uint64_t>::max();
    std::uint32_t points = 0;
};

/// Writes frames [first, last] as PC2 to `path`; nothing is left at `path` unless it succeeds.
PointCacheExport exportPointCache(Document &document, const QString &path, std::uint64_t first,
                                  std::uint64_t last, const ExportProgress &progress = {});

/// Writes frames [first, last] as FOLDER/frame_NNNN.obj (numbered by document frame).
/// Returns an error naming the file and how many meshes were written before it, or empty.
QString exportObjSequence(Document &document, const QString &folder, std::uint64_t first, std::uint64_t last,
                          const ExportProgress &progress = {});

} // namespace drape
