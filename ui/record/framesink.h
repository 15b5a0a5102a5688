// Where recorded frames go: a video encoder, a PNG sequence or an OBJ mesh sequence. The
// recorder in the editor and `drape render` drive the same sinks in the same order:
// open() once, writeFrame() for frames 0..N-1 in order, then finish() (success) or cancel().
#pragma once

#include <QImage>
#include <QString>

namespace drape {

class Simulation;

class FrameSink {
public:
    virtual ~FrameSink() = default;

    /// Prepares the output (creates folders, starts the encoder). On failure sets `error`.
    virtual bool open(QString *error) = 0;
    /// Hands over frame `index`: `image` is straight-alpha RGBA8888 at the sink's size (null
    /// when wantsImages() is false), `sim` the simulation at that frame's time. Returns false
    /// on a write error (disk full, encoder died), with `error` naming the path.
    virtual bool writeFrame(int index, const QImage &image, const Simulation &sim, QString *error) = 0;
    /// Flushes and closes. A video is renamed from its temporary file to the target only
    /// here, so a failed or cancelled recording never leaves a half-written video.
    virtual bool finish(QString *error) = 0;
    /// Stops at once and removes partial output (a video's temporary file). Frames of an
    /// image or mesh sequence already written stay on disk.
    virtual void cancel() = 0;

    /// False for sinks that only need the simulation (OBJ meshes): the frame is not rendered.
    virtual bool wantsImages() const { return true; }
    /// Files written so far, for progress and messages.
    virtual int filesWritten() const = 0;
    /// The target as the user named it (a video file, or a folder for sequences).
    virtual QString target() const = 0;
};

} // namespace drape
