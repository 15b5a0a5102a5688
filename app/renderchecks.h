// What `drape render` checks before the first frame: that the output name is a format it
// writes, what the render will put on the disk, and that it fits.
#pragma once

#include "record/recordplan.h"

#include <QString>

#include <cstdint>

namespace drape::app {

/// "" when `output` (an absolute path) names a video format or a folder; otherwise the
/// refusal listing the formats (`-o x.avi` used to become a folder of PNGs named x.avi).
QString unknownVideoSuffix(const QString &output);

struct OutputEstimate {
    std::uint64_t bytes = 0; ///< estimated bytes the render writes
    QString summary; ///< "planned 300 frames, 1280×720 at 30 fps (mp4), about 14 MB on disk"
};

/// The planned frame count, size and estimated disk use of `plan`.
OutputEstimate estimateOutput(const RecordPlan &plan, std::uint64_t particles);

/// "" or why the render must not start: the output cannot be written, or (unless `force`)
/// the disk cannot hold the estimate.
QString checkRenderOutput(const RecordPlan &plan, const OutputEstimate &estimate, bool force);

} // namespace drape::app
