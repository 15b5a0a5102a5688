// Records the editor's scene: pauses the interactive loop, then, one frame per event-loop
// turn (so the window stays responsive and the viewport shows progress), renders the
// viewport's camera offscreen at the plan's size with the viewport's renderer and context,
// hands the image to the sink, and steps the simulation to the next exact frame time
// (RecordSession). `drape render` runs the same FrameRenderer and RecordSession headless.
#pragma once

#include "record/framerenderer.h"
#include "record/recordplan.h"
#include "record/recordsession.h"

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
    /// `restart` the document first goes to the range's start frame (record.startFrame, 0 by
    /// default), so frame k is at start + k / fps; otherwise frame k is at t0 + k / fps from
    /// the current state. Returns false with
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

signals:
    void started(const drape::RecordPlan &plan);
    /// After each frame: frames done, the total (0 = until stopped), seconds left (-1 unknown).
    void progress(int done, int total, double secondsLeft);
    /// The recording ended: ok, a message for the user (what was written where, or why not).
    void finished(bool ok, const QString &message);

private:
    void recordNext();
    void end(bool keep, const QString &failure);

    QPointer<Viewport> m_viewport;
    QPointer<SimulationController> m_controller;
    QPointer<Document> m_document;
    QString m_ffmpegProgram;
    std::unique_ptr<RecordSession> m_session;
    FrameRenderer m_frames;
    QTimer m_tick;
    QElapsedTimer m_clock;
    bool m_wasPlaying = false;
    bool m_stopRequested = false;
};

} // namespace drape
