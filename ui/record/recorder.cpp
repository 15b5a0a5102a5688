#include "record/recorder.h"

#include "document/document.h"
#include "document/simulationcontroller.h"
#include "render/viewport.h"
#include "timeline/bakedreplay.h"

#include <QDir>

#include <algorithm>
#include <cmath>

namespace drape {

Recorder::Recorder(QObject *parent) : QObject(parent)
{
    // One frame per event-loop turn: input, repaints and the Cancel button stay live.
    m_tick.setInterval(0);
    connect(&m_tick, &QTimer::timeout, this, &Recorder::recordNext);
}

Recorder::~Recorder()
{
    if (m_session)
        end(false, QString());
}

void Recorder::setViewport(Viewport *viewport) { m_viewport = viewport; }

void Recorder::setController(SimulationController *controller) { m_controller = controller; }

bool Recorder::start(Document *document, const QString &output, bool restart, QString *error)
{
    if (m_session) {
        *error = tr("A recording is already running.");
        return false;
    }
    if (!document) {
        *error = tr("No scene is open.");
        return false;
    }
    const RecordSettings &settings = document->scene().record;
    const bool needsGl = settings.format != RecordFormat::ObjSequence;
    if (needsGl && (!m_viewport || !m_viewport->renderer()->isInitialized())) {
        *error = m_viewport && !m_viewport->glError().isEmpty()
                     ? tr("Cannot record: %1").arg(m_viewport->glError())
                     : tr("Cannot record: the 3D view has no OpenGL context yet.");
        return false;
    }
    QSize viewportSize(0, 0);
    if (m_viewport)
        viewportSize = (QSizeF(m_viewport->size()) * m_viewport->devicePixelRatioF()).toSize();

    RecordPlan plan;
    const double frameRate = document->settings().solver.frameRate;
    if (!makeRecordPlan(settings, frameRate, viewportSize, output, &plan, error))
        return false;
    if (!restart && settings.endFrame > 0) {
        // From the playhead, the range still ends at its end frame.
        const std::uint64_t at = document->playhead();
        if (at > std::uint64_t(settings.endFrame)) {
            *error = tr("The playhead (frame %1) is past the end of the recording range (frame %2): record from "
                        "the range's start, or clear its end.")
                         .arg(at)
                         .arg(settings.endFrame);
            return false;
        }
        plan.frames = int((std::uint64_t(settings.endFrame) - at) / std::uint64_t(plan.stepsPerFrame)) + 1;
    }
    std::unique_ptr<FrameSink> sink = makeFrameSink(plan, m_ffmpegProgram);
    if (!sink) {
        *error = tr("No writer for this format.");
        return false;
    }
    if (m_controller) {
        m_wasPlaying = m_controller->isPlaying();
        m_controller->setPlaying(false);
    }
    auto session = std::make_unique<RecordSession>(plan, std::move(sink));
    // The document advances in its own frames (the take is stamped in them): output frame k
    // shows the document's frame nearest its time. The recorder fetches that frame itself.
    m_first = restart ? std::uint64_t(std::max(0, settings.startFrame)) : document->playhead();
    m_framesPerOutput = frameRate / plan.settings.fps;
    session->setFrameAdvance([](int) { });
    if (!session->open(nullptr, error)) {
        if (m_controller && m_wasPlaying)
            m_controller->setPlaying(true);
        return false;
    }
    m_document = document;
    m_session = std::move(session);
    // The worker simulates what the cache lacks, as far as the recording goes.
    Timeline &timeline = document->timeline();
    m_savedEndFrame = timeline.status().endFrame;
    const std::uint64_t last = plan.frames > 0 ? documentFrame(plan.frames - 1) : SimulationController::kNoEnd;
    timeline.setEndFrame(std::max(m_savedEndFrame, last));
    timeline.setPlayhead(m_first);
    timeline.startWorker();
    m_generation = timeline.generation();
    m_view.invalidate();
    // The frames come from the cache, so the document's state moving (a settle taking over the
    // state at the playhead, as pausing for this recording does) changes only what the view
    // lays them over. A Reset pressed in the middle is taken as the user's wish to stop.
    connect(document, &Document::simulationReset, this, [this] { m_view.invalidate(); });
    connect(document, &Document::resetToStart, this,
            [this] { end(false, tr("The simulation was reset during the recording, so it was cancelled.")); });
    m_stopRequested = false;
    m_tick.setInterval(0);
    m_clock.start();
    emit started(m_session->plan());
    m_tick.start();
    return true;
}

void Recorder::stop()
{
    if (m_session)
        m_stopRequested = true;
}

void Recorder::cancel()
{
    if (m_session)
        end(false, QString());
}

std::uint64_t Recorder::documentFrame(int k) const
{
    return m_first + std::uint64_t(std::llround(double(k) * m_framesPerOutput));
}

void Recorder::showRecorded(const std::shared_ptr<const CachedFrame> &frame)
{
    m_document->showFrame(frame->frame);
    if (m_viewport)
        m_viewport->showCachedFrame(frame);
}

void Recorder::recordNext()
{
    if (!m_session)
        return;
    if (!m_document) {
        end(false, tr("The scene was closed during the recording."));
        return;
    }
    if (m_stopRequested) {
        end(true, QString());
        return;
    }
    Timeline &timeline = m_document->timeline();
    if (timeline.generation() != m_generation) {
        end(false, tr("The scene was edited during the recording, so it was cancelled."));
        return;
    }
    // Only the recorder moves the playhead while it records.
    if (m_controller && m_controller->isPlaying())
        m_controller->setPlaying(false);
    const RecordPlan &plan = m_session->plan();
    const int done = m_session->framesDone();
    const std::uint64_t target = documentFrame(done);
    timeline.setPlayhead(target); // the worker fills the cache from here
    const std::shared_ptr<const CachedFrame> frame = timeline.cachedFrame(target);
    if (!frame) {
        // The worker is simulating it: look again shortly. A range edited meanwhile may have
        // moved the worker's end before it.
        if (timeline.status().endFrame < target)
            timeline.setEndFrame(target);
        m_tick.setInterval(kWaitMs);
        return;
    }
    m_tick.setInterval(0);
    if (frame->blownUp) {
        const QString why = frame->blowUpMessage.empty() ? QString()
                                                         : QStringLiteral(" (%1)").arg(QString::fromStdString(frame->blowUpMessage));
        if (done == 0)
            end(false, tr("The simulation had blown up by frame %1%2, where the recording starts, so nothing was "
                          "recorded.").arg(target).arg(why));
        else
            end(true, tr("The simulation blew up after frame %1%2, so the recording stopped there.")
                          .arg(done - 1)
                          .arg(why));
        return;
    }
    // What the viewport draws for a cached frame: the frame laid over the document's state,
    // when that draws like the full state at the frame (drawsLikeState). Where it does not (a
    // rope torn in between, the overlays over a changed topology, a collider's shape changed
    // by the take), the document settles on the frame, its state computed by the timeline's
    // worker (Document::settle), and is drawn as it is: the GUI thread still never steps.
    if (!drawsLikeState(m_document->simulation(), *frame, plan.settings.overlays)
        || colliderChangesBetween(m_document->take(), m_document->frame(), target)) {
        // Edits waiting for the state go first (they queue a playhead move too): ask once
        // they have run, rather than queueing one more move on every poll.
        if (m_document->isQueueing()) {
            m_tick.setInterval(kWaitMs);
            return;
        }
        if (m_document->playhead() != target)
            m_document->showFrame(target);
        m_document->settle();
        m_tick.setInterval(kWaitMs);
        return;
    }
    const Simulation &sim = m_view.show(m_document->simulation(), *frame);
    QString error;
    QImage image;
    if (m_session->wantsImages()) {
        if (!m_viewport) {
            end(false, tr("The 3D view was closed during the recording."));
            return;
        }
        // The same path as `drape render`: offscreen at the plan's size, same samples, same
        // options; only the context differs (the viewport's).
        RenderOptions options = recordRenderOptions(plan.settings);
        if (plan.settings.width <= 0 || plan.settings.height <= 0)
            options.devicePixelRatio = float(m_viewport->devicePixelRatioF());
        options.constraintKinds = m_viewport->constraintKinds();
        options.fabricImage = m_viewport->fabricImage(); // a recording looks like the view
        m_viewport->makeCurrent();
        const bool rendered = m_frames.render(*m_viewport->renderer(), m_document->scene(), sim, m_viewport->camera(),
                                              plan.frameSize, options, &image, &error);
        m_viewport->doneCurrent();
        if (!rendered) {
            end(false, error);
            return;
        }
    }
    if (!m_session->addFrame(image, sim, &error)) {
        end(false, error);
        return;
    }
    const int recorded = m_session->framesDone();
    double left = -1.0;
    if (plan.frames > 0 && recorded > 0)
        left = double(m_clock.elapsed()) / 1000.0 / recorded * (plan.frames - recorded);
    emit progress(recorded, plan.frames, left);
    if (recorded % kRepaintEvery == 0 || m_session->isComplete())
        showRecorded(frame);
    if (m_session->isComplete())
        end(true, QString());
}

void Recorder::end(bool keep, const QString &failure)
{
    m_tick.stop();
    if (!m_session)
        return;
    if (m_document)
        disconnect(m_document, nullptr, this, nullptr);
    std::unique_ptr<RecordSession> session = std::move(m_session);
    if (m_document) {
        m_document->timeline().setEndFrame(m_savedEndFrame);
        // The playhead stays on the last frame recorded.
        if (const int done = session->framesDone(); keep && done > 0)
            if (auto last = m_document->timeline().cachedFrame(documentFrame(done - 1)))
                showRecorded(last);
    }
    m_view = CachedFrameView();
    const QString output = QDir::toNativeSeparators(session->plan().output);
    const bool sequence = recordFormatIsSequence(session->plan().settings.format);
    const int done = session->framesDone();

    bool ok = false;      // everything asked for was written
    bool written = false; // the sink finished (a video is in place)
    QString message;
    QString error;
    if (keep) {
        written = session->finish(nullptr, &error);
        ok = written && failure.isEmpty();
        if (!written)
            message = error;
        else if (!failure.isEmpty()) // stopped by a blow-up: the frames before it are kept
            message = failure + tr(" The %1 frames before it were saved to %2.").arg(done).arg(output);
        else
            message = tr("Recorded %1 frames (%2×%3, %4 fps) to %5.")
                          .arg(done)
                          .arg(session->plan().frameSize.width())
                          .arg(session->plan().frameSize.height())
                          .arg(session->plan().settings.fps)
                          .arg(output);
    } else {
        session->cancel(nullptr);
        message = failure.isEmpty() ? tr("Recording cancelled after %1 frames.").arg(done) : failure;
    }
    if (!written) {
        if (sequence)
            message += tr(" The %1 files written so far stay in %2.").arg(session->sink().filesWritten()).arg(output);
        else
            message += tr(" No video file was left behind.");
    }
    if (m_viewport && m_frames.target().isValid()) {
        m_viewport->makeCurrent();
        m_frames.release();
        m_viewport->doneCurrent();
    }
    if (m_document)
        m_document->notifyStepped();
    if (m_controller && m_wasPlaying)
        m_controller->setPlaying(true);
    m_wasPlaying = false;
    emit finished(ok, message);
}

} // namespace drape
