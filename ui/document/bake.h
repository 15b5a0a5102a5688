// "Bake to Folder" for an editor document: its frames written beside its scene file
// (core/timeline/diskcache.h), and read back into its timeline when the file is opened again,
// so a re-opened document scrubs at once.
#pragma once

#include <QString>

#include <cstdint>
#include <functional>

namespace drape {

class Document;

/// The last frame worth baking: the end of what the timeline has simulated, the take's last
/// event and the playhead, whichever is latest.
std::uint64_t bakeEnd(Document &document);

/// Writes frames [start, last] of a saved, unmodified document to its cache folder, simulating
/// those the timeline does not hold. `progress(done, total)` is called after each frame and
/// cancels by returning false. Returns an error (nothing on disk changed), or empty.
QString bakeToFolder(Document &document, std::uint64_t last,
                     const std::function<bool(std::uint64_t, std::uint64_t)> &progress = {});

/// Seeds the document's timeline from the cache beside its file when it was baked from this
/// document. Returns a message when a cache is there but ignored (stale or damaged), else empty.
QString seedFromDiskCache(Document &document);

} // namespace drape
