// Records the editor's scene from the document's timeline cache: pauses the interactive loop,
// then, one frame per event-loop turn (so the window stays responsive), takes output frame
// k's document frame from the cache, lays it over the document's state the way the viewport
// shows a cached frame (CachedFrameView), renders it offscreen at the plan's size with the
// viewport's renderer and context, and hands the image to the sink (RecordSession). A frame
// not cached yet is asked of the timeline's worker (the timeline's playhead follows the
// recording) and picked up on a later turn: the GUI thread never steps the solver, and the
// document's own state stays where it was; the playhead shows the frame recorded. A frame that
// laid over the document's state would not draw like the full state (drawsLikeState: a rope
// torn in between, the overlays over another topology, a collider's shape changed by the
// take) is drawn from the document settled on that frame instead, which the worker computes.
// An edit during the recording (the cache's frames change) or a Reset cancels it; the state
// settling meanwhile does not. `drape render` runs the same FrameRenderer and RecordSession
// headless.
#pragma once

#include "record/framerenderer.h"
#include "record/recordplan.h"
#include "record/recordsession.h"
#include "render/cachedframeview.h"

#include <QElapsedTimer>
#include <QObject>
#include <QPointer>
#include <QTimer>

#include <memory>

namespace drape {

class Document;
class SimulationController;
class Viewport;

class Recorder : public QObject {
    Q_OBJECT
public:
    explicit Recorder(QObject *parent = nullptr);
    ~Recorder() override;

    void setViewport(Viewport *viewport);
    /// Optional: the interactive loop to pause while recording (and resume afterwards).
    void setController(SimulationController *controller);
    /// Overrides the ffmpeg executable (empty: found on PATH).
    void setFfmpegProgram(const QString &program) { m_ffmpegProgram = program; }

    /// Starts recording `document` with its scene's record settings into `output`. With
    /// `restart` frame k is the document's frame at start + k / fps from the range's start
    /// frame (record.startFrame, 0 by default); otherwise from the playhead. Returns false with
    /// `error` when it cannot start (no GL, bad settings, ffmpeg missing, unwritable folder).
    bool start(Document *document, const QString &output, bool restart, QString *error);
    /// Ends the recording after the current frame and keeps what was recorded (a video is
    /// finished and moved into place): the Stop of an "until stopped" recording.
    void stop();
    /// Abandons the recording: no video file is left; frames of a sequence stay.
    void cancel();

    bool isRecording() const { return m_session != nullptr; }
    int framesDone() const { return m_session ? m_session->framesDone() : 0; }
    /// 0 while recording until stopped.
    int frameCount() const { return m_session ? m_session->plan().frames : 0; }
    const RecordPlan *plan() const { return m_session ? &m_session->plan() : nullptr; }

    /// The viewport repaints every this many recorded frames.
    static constexpr int kRepaintEvery = 3;
    /// ms between looks at the cache while the worker simulates the next frame.
    static constexpr int kWaitMs = 5;

signals:
    void started(const drape::RecordPlan &plan);
    /// After each frame: frames done, the total (0 = until stopped), seconds left (-1 unknown).
    void progress(int done, int total, double secondsLeft);
    /// The recording ended: ok, a message for the user (what was written where, or why not).
    void finished(bool ok, const QString &message);

private:
    void recordNext();
    void end(bool keep, const QString &failure);
    /// The document frame output frame k shows.
    std::uint64_t documentFrame(int k) const;
    /// Moves the document's playhead (and the viewport) to the frame just recorded.
    void showRecorded(const std::shared_ptr<const CachedFrame> &frame);

    QPointer<Viewport> m_viewport;
    QPointer<SimulationController> m_controller;
    QPointer<Document> m_document;
    QString m_ffmpegProgram;
    std::unique_ptr<RecordSession> m_session;
    FrameRenderer m_frames;
    CachedFrameView m_view; ///< the recorded frame laid over the document's state (rebuilt when it moves)
    std::uint64_t m_first = 0; ///< document frame of output frame 0
    double m_framesPerOutput = 1.0; ///< document frames per output frame
    std::uint64_t m_generation = 0; ///< the timeline's when the recording started
    std::uint64_t m_savedEndFrame = 0; ///< the timeline's fill end, restored at the end
    QTimer m_tick;
    QElapsedTimer m_clock;
    bool m_wasPlaying = false;
    bool m_stopRequested = false;
};

} // namespace drape
