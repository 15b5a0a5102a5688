// What a recording will do, worked out once from the scene's RecordSettings before the first
// frame, identically in the editor and in `drape render`:
//
// Size. The requested size (or the viewport's when width is 0) is the render size, except
// that MP4 and WebM need even sizes (yuv420p): an odd width or height is rounded down to the
// next even number, and `notes` says so. Every frame is rendered offscreen at exactly this
// size, whatever the window size.
//
// Time. Frame k shows the simulation at exactly t0 + k / fps, where t0 is the time when the
// recording starts (0 after a reset). The simulation advances in whole steps of
// 1 / solver.frameRate, so each output frame must span a whole number of steps:
//   - when solver.frameRate / fps is a whole number n, each frame steps n times (60 Hz at
//     30 fps: 2 steps per frame);
//   - otherwise the simulation runs at n · fps for the recording, n = ⌈frameRate / fps⌉, so
//     steps never get longer than the scene's (60 Hz at 24 fps: 72 Hz, 3 steps per frame), and
//     `notes` says so. The scene's own rate is restored afterwards.
// No frame is ever dropped or repeated, whatever the display does meanwhile.
//
// Range. settings.startFrame is the document frame shown first (a recording that restarts
// goes there, through the timeline's cache); with settings.endFrame set, the recording ends
// at that document frame and the length follows from it (frames = (end − start) / steps + 1),
// which needs the scene's own rate (fps dividing it).
#pragma once

#include "record/framesink.h"
#include "scene/scene.h"
#include "render/scenerenderer.h"

#include <QSize>
#include <QString>
#include <QStringList>

#include <memory>

namespace drape {

struct RecordPlan {
    RecordSettings settings;   ///< as requested
    QString output;            ///< video file, or the folder of a PNG / OBJ sequence
    QString pngPattern = QStringLiteral("frame_%04d.png"); ///< PNG sequence file names
    QString objPattern = QStringLiteral("frame_%04d.obj"); ///< OBJ sequence file names
    QSize frameSize;           ///< px, what is rendered and written
    int frames = 0;            ///< frames to record, 0 = until stopped
    double simFrameRate = 60;  ///< Hz, solver.frameRate while recording
    int stepsPerFrame = 1;     ///< simulation steps between two output frames
    QStringList notes;         ///< adjustments made (size rounded, simulation rate changed)

    /// Seconds of simulated time between two frames (= 1 / fps).
    double frameInterval() const { return 1.0 / settings.fps; }
};

/// Builds the plan. `requestedSize` is used when settings.width or height is 0 (the viewport's
/// size in device pixels). Returns false with `error` for settings that cannot be recorded
/// (fps out of 1..240, a size out of 16..8192, an empty output).
bool makeRecordPlan(const RecordSettings &settings, double sceneFrameRate, QSize requestedSize,
                    const QString &output, RecordPlan *plan, QString *error);

/// The sink that writes the plan's format. `ffmpegProgram` empty: ffmpeg from PATH.
std::unique_ptr<FrameSink> makeFrameSink(const RecordPlan &plan, const QString &ffmpegProgram = {});

/// What the recorder draws: shading, ground, colliders and pins, plus the view's overlays
/// only when settings.overlays; a transparent background only for PNG with transparent set.
RenderOptions recordRenderOptions(const RecordSettings &settings, float devicePixelRatio = 1.f);

/// "MP4 (H.264)", "PNG sequence", ...
QString recordFormatName(RecordFormat format);
/// ".mp4", ".webm", ".gif"; empty for the sequence formats (their output is a folder).
QString recordFormatSuffix(RecordFormat format);
/// Whether the output is a folder (PNG and OBJ sequences) rather than one file.
bool recordFormatIsSequence(RecordFormat format);
/// Where a recording goes by default: the user's Videos folder for videos, Pictures for PNG
/// and OBJ sequences (never the working directory), named after the scene and unique.
QString defaultRecordOutput(RecordFormat format, const QString &sceneName);

} // namespace drape
