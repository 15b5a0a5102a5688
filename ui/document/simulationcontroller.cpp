#include "document/simulationcontroller.h"

#include "document/document.h"
#include "timeline/timelineplayer.h"

#include <algorithm>

namespace drape {

namespace {

/// The last frame before `frame` the cache holds, or the cache's start.
quint64 lastCachedBefore(const TimelineStatus &status, quint64 frame)
{
    quint64 last = status.startFrame;
    for (const FrameRange &r : status.cached)
        if (r.begin < frame)
            last = std::max<quint64>(last, std::min<quint64>(r.end, frame) - 1);
    return last;
}

} // namespace

SimulationController::SimulationController(QObject *parent) : QObject(parent)
{
    qRegisterMetaType<drape::SimulationStats>();
    m_timer.setTimerType(Qt::PreciseTimer);
    m_timer.setInterval(kTickMs);
    connect(&m_timer, &QTimer::timeout, this, &SimulationController::tick);
    m_settleTimer.setSingleShot(true);
    connect(&m_settleTimer, &QTimer::timeout, this, &SimulationController::settleIfResting);
    // Stats keep updating while paused (display fps, counts), at a calmer rate.
    auto *statsTimer = new QTimer(this);
    statsTimer->setInterval(500);
    connect(statsTimer, &QTimer::timeout, this, &SimulationController::updateStats);
    statsTimer->start();
    m_statsClock.start();
}

SimulationController::~SimulationController() = default;

void SimulationController::setDocument(Document *document)
{
    if (m_document)
        disconnect(m_document, nullptr, this, nullptr);
    setPlaying(false);
    m_timer.stop();
    m_settleTimer.stop();
    m_player.reset();
    m_shown.reset();
    m_document = document;
    m_accumulator = 0.0;
    if (m_document) {
        m_player = std::make_unique<TimelinePlayer>(&m_document->timeline());
        m_player->setLoop(m_loop);
        applyRange();
        m_document->timeline().setLookAhead(kLookAhead);
        connect(m_player.get(), &TimelinePlayer::playheadChanged, this, [this](quint64 frame) {
            if (m_document && !m_stepping)
                m_document->showFrame(frame);
        });
        connect(m_player.get(), &TimelinePlayer::frameShown, this, &SimulationController::onFrameShown);
        connect(m_player.get(), &TimelinePlayer::playingChanged, this, [this](int direction) {
            if (direction == 0) // reached the end, or the cache's start playing backwards
                QMetaObject::invokeMethod(this, &SimulationController::onPlayerStopped, Qt::QueuedConnection);
        });
        connect(m_player.get(), &TimelinePlayer::waitingChanged, this, &SimulationController::waitingChanged);
        m_player->seek(m_document->playhead());
        applyFrameRate();
        connect(m_document, &Document::simulationReset, this, [this] {
            m_accumulator = 0.0;
            if (!m_stepping && m_player)
                m_player->seek(m_document->frame());
            updateStats();
        });
        connect(m_document, &Document::changed, this, [this](Change what) {
            applyFrameRate();
            if (what & Change::Record)
                applyRange();
            updateMode();
        });
        connect(m_document, &Document::stepsArrived, this, &SimulationController::onStepsArrived);
        connect(m_document, &Document::busyChanged, this, [this](bool busy) {
            // While edits wait for the state at the playhead, playback holds there, so that
            // they are made at the frame that was on screen; it goes on once they have run.
            if (!m_playing || m_stepping || !m_player)
                return;
            if (busy)
                m_player->pause();
            else
                updateMode();
        });
        connect(m_document, &QObject::destroyed, this, [this] {
            setPlaying(false);
            m_player.reset();
        });
        m_document->timeline().startWorker();
    }
    updateStats();
}

void SimulationController::applyRange()
{
    m_rangeStart = 0;
    m_rangeEnd = kNoEnd;
    if (m_document) {
        const RecordSettings &r = m_document->scene().record;
        m_rangeStart = quint64(std::max(0, r.startFrame));
        if (r.endFrame > 0)
            m_rangeEnd = std::max(m_rangeStart, quint64(r.endFrame));
    }
    if (m_player)
        m_player->setRange(m_rangeStart, m_rangeEnd);
    emit rangeChanged(m_rangeStart, m_rangeEnd);
}

quint64 SimulationController::playhead() const
{
    return m_document ? m_document->playhead() : 0;
}

bool SimulationController::isWaiting() const
{
    return m_player && !m_stepping && m_player->waiting();
}

QString SimulationController::waitText() const
{
    if (m_document && !isWaiting() && m_document->isPreparing())
        return tr("Preparing frame %1 for editing…").arg(m_document->playhead());
    if (!isWaiting() || !m_document)
        return {};
    const quint64 target = m_player->playhead();
    if (m_playing)
        return tr("Waiting for the solver at frame %1").arg(target);
    const TimelineStatus status = m_document->timeline().status();
    const quint64 from = std::min(m_waitFrom, target);
    const quint64 done = std::max(lastCachedBefore(status, target), from) - from;
    return tr("Simulating to frame %1: %2/%3").arg(target).arg(done).arg(target - from);
}

quint64 SimulationController::cachedAhead() const
{
    if (!m_document)
        return 0;
    const quint64 at = playhead();
    for (const FrameRange &r : m_document->timeline().status().cached)
        if (r.begin <= at && at < r.end)
            return r.end - 1 - at;
    return 0;
}

bool SimulationController::blownUpAtPlayhead() const
{
    if (m_document->isSettled())
        return m_document->simulation().status().blownUp;
    const std::shared_ptr<const CachedFrame> frame = m_document->timeline().cachedFrame(m_document->playhead());
    return frame && frame->blownUp;
}

void SimulationController::applyFrameRate()
{
    if (m_player && m_document)
        m_player->setFrameRate(m_document->settings().solver.frameRate * m_speed);
}

void SimulationController::setPlaying(bool playing)
{
    if (playing && m_document && m_document->isQueueing()) {
        // Edits wait for the state at the playhead: play from there once they have run.
        m_document->whenSettled([self = QPointer<SimulationController>(this)] {
            if (self)
                self->setPlaying(true);
        });
        return;
    }
    if (playing && (!m_document || !m_player || blownUpAtPlayhead()))
        playing = false;
    if (playing == m_playing)
        return;
    m_playing = playing;
    m_accumulator = 0.0;
    if (playing) {
        m_settleTimer.stop();
        m_clock.start();
        updateMode();
    } else {
        m_stepping = false;
        m_timer.stop();
        if (m_player)
            m_player->pause();
        if (m_document) {
            m_document->timeline().setLookAhead(kLookAhead);
            m_document->settle(); // the worker prepares the frame on screen for editing
        }
    }
    emit playingChanged(m_playing);
}

void SimulationController::play(int direction)
{
    direction = direction < 0 ? -1 : 1;
    if (m_playing && direction != m_direction && !m_stepping && m_player) {
        m_direction = direction;
        m_player->pause();
        m_player->play(direction);
    }
    m_direction = direction;
    emit directionChanged(direction);
    setPlaying(true);
}

void SimulationController::playBackward()
{
    play(-1);
}

void SimulationController::updateMode()
{
    if (!m_playing || !m_document || !m_player)
        return;
    const bool stepping = m_document->interacting();
    if (stepping && !m_stepping) {
        // A drag records where the hand is every frame: the document steps itself until the
        // release, and the worker waits (what it would make is replaced by the drag).
        m_stepping = true;
        m_player->pause();
        m_document->settle();
        m_document->timeline().setLookAhead(0);
        m_direction = 1;
        m_accumulator = 0.0;
        m_clock.start();
        m_timer.start();
    } else if (!stepping && (m_stepping || !m_player->isPlaying())) {
        m_stepping = false;
        m_timer.stop();
        m_document->timeline().setLookAhead(kLookAhead);
        m_player->setRange(m_rangeStart, m_rangeEnd);
        m_player->seek(m_document->playhead());
        if (!m_document->isBusy()) // else when what waits has run (busyChanged)
            m_player->play(m_direction);
    }
}

void SimulationController::onPlayerStopped()
{
    // Held while edits wait for the state (busyChanged) is not stopped.
    if (m_playing && !m_stepping && m_player && !m_player->isPlaying() && !(m_document && m_document->isBusy()))
        setPlaying(false);
}

void SimulationController::onFrameShown(const std::shared_ptr<const CachedFrame> &frame)
{
    m_shown = frame;
    emit frameShown(frame);
    if (frame && frame->blownUp && m_playing) {
        QMetaObject::invokeMethod(this, [this] {
            if (!m_document)
                return;
            setPlaying(false); // settles: the document will hold the blow-up's message
            m_document->whenSettled([self = QPointer<SimulationController>(this)] {
                if (!self || !self->m_document)
                    return;
                self->updateStats();
                emit self->blownUp(QString::fromStdString(self->m_document->simulation().status().message));
            });
        }, Qt::QueuedConnection);
    }
}

void SimulationController::setLoop(bool loop)
{
    if (loop == m_loop)
        return;
    m_loop = loop;
    if (m_player)
        m_player->setLoop(loop);
    emit loopChanged(loop);
}

void SimulationController::setRange(quint64 start, quint64 end)
{
    editRange([start, end](quint64 &s, quint64 &e, quint64) {
        s = start;
        e = end;
    });
}

void SimulationController::setRangeStartHere()
{
    editRange([](quint64 &s, quint64 &e, quint64 at) {
        s = at;
        e = std::max(at, e);
    });
}

void SimulationController::setRangeEndHere()
{
    editRange([](quint64 &s, quint64 &e, quint64 at) {
        s = std::min(at, s);
        e = at;
    });
}

void SimulationController::editRange(const std::function<void(quint64 &start, quint64 &end, quint64 playhead)> &change)
{
    if (!m_document)
        return;
    // Saved with the scene's recording settings, where the exporters read it; an undo step.
    // Worked out from the scene as it is when the edit runs (edits may be waiting).
    m_document->setPresentation(
        [change, document = m_document.data()](Scene &next) {
            constexpr quint64 kMax = 100000000; // the scene file's limit
            RecordSettings &r = next.record;
            quint64 start = quint64(std::max(0, r.startFrame));
            quint64 end = r.endFrame > 0 ? std::max(start, quint64(r.endFrame)) : kNoEnd;
            change(start, end, document->playhead());
            r.startFrame = int(std::min({ start, end, kMax - 1 }));
            // The file's range ends after its start; 0 is no end.
            r.endFrame = end == kNoEnd ? 0 : int(std::min(std::max(quint64(r.startFrame) + 1, end), kMax));
        },
        tr("Set Playback Range"), {}, Change::Record);
}

void SimulationController::setSpeed(double speed)
{
    speed = std::clamp(speed, 0.01, 4.0);
    if (speed == m_speed)
        return;
    m_speed = speed;
    applyFrameRate();
    emit speedChanged(m_speed);
}

void SimulationController::stepFrames(int n)
{
    if (!m_document || n <= 0)
        return;
    if (m_document->interacting()) {
        // A drag or a stroke records every frame it is held: the document steps itself.
        advance(n);
        updateStats();
        return;
    }
    if (m_document->isQueueing()) {
        m_document->whenSettled([self = QPointer<SimulationController>(this), n] {
            if (self)
                self->stepFrames(n);
        });
        return;
    }
    if (blownUpAtPlayhead()) {
        if (m_document->isSettled())
            emit blownUp(QString::fromStdString(m_document->simulation().status().message));
        return;
    }
    // The frames are the timeline's: shown from the cache (or when the worker has made them)
    // and the document brought there by the worker, never stepped here. A step that blows up
    // says so once the state is there, as a step on the document did: once, for the last of
    // the steps that the same settling answers.
    disconnect(m_stepSettled);
    m_stepSettled = connect(m_document, &Document::settled, this, [this] {
        if (m_document && m_document->simulation().status().blownUp) {
            updateStats();
            emit blownUp(QString::fromStdString(m_document->simulation().status().message));
        }
    }, Qt::SingleShotConnection);
    seekTo(playhead() + quint64(n), true);
    updateStats();
}

void SimulationController::seekTo(quint64 frame, bool settle)
{
    if (!m_document || !m_player)
        return;
    if (m_document->dragging())
        return; // a held drag keeps the playhead: it moves by the frames the drag records
    if (m_document->isQueueing()) {
        // After the edits that wait for the state at the current playhead.
        m_document->whenSettled([self = QPointer<SimulationController>(this), frame, settle] {
            if (self)
                self->seekTo(frame, settle);
        });
        return;
    }
    if (m_playing) {
        m_playing = false; // paused without settling: the document follows the new playhead
        m_stepping = false;
        m_player->pause();
        m_document->timeline().setLookAhead(kLookAhead);
        emit playingChanged(false);
    }
    m_settleTimer.stop();
    // A frame past the playback end is still filled when asked for.
    m_document->timeline().setEndFrame(std::max(m_rangeEnd, frame));
    const quint64 from = lastCachedBefore(m_document->timeline().status(), frame);
    m_player->seek(frame);
    m_document->showFrame(frame);
    if (m_player->waiting()) {
        m_waitFrom = from;
        m_settleOnArrival = !m_scrubbing;
        m_timer.start(); // polls for the frame
    } else if (settle && !m_scrubbing) {
        m_document->settle();
    } else if (!m_scrubbing) {
        scheduleSettle(250);
    }
}

void SimulationController::seekBy(qint64 frames)
{
    const qint64 at = qint64(playhead());
    qint64 target = std::max<qint64>(qint64(m_rangeStart), at + frames);
    if (m_rangeEnd != kNoEnd)
        target = std::min<qint64>(target, qint64(m_rangeEnd));
    seekTo(quint64(target), false);
}

void SimulationController::seekToEnd()
{
    if (!m_document)
        return;
    quint64 end = m_rangeEnd;
    if (end == kNoEnd) { // no end set: the end of the cache ahead of the playhead
        const TimelineStatus status = m_document->timeline().status();
        end = std::max<quint64>(playhead(), status.knownEnd > 0 ? status.knownEnd - 1 : 0);
    }
    seekTo(end, false);
}

void SimulationController::setScrubbing(bool scrubbing)
{
    m_scrubbing = scrubbing;
    if (scrubbing) {
        m_settleTimer.stop();
        return;
    }
    if (isWaiting())
        m_settleOnArrival = true;
    else
        scheduleSettle(0);
}

void SimulationController::scheduleSettle(int ms)
{
    m_settleTimer.start(ms);
}

void SimulationController::settleIfResting()
{
    if (m_document && !m_playing && !m_scrubbing && !isWaiting())
        m_document->settle();
}

void SimulationController::reset()
{
    if (!m_document)
        return;
    m_document->reset(); // also clears a blow-up: the start is replayed
    m_accumulator = 0.0;
    updateStats();
}

void SimulationController::noteFrameRendered() { ++m_framesRendered; }

int SimulationController::advance(int frames)
{
    QElapsedTimer solverClock;
    solverClock.start();
    const int ran = m_document->step(frames);
    // During a drag the worker steps the frames (Document::stepsArrived): counted on arrival.
    if (ran > 0 && !m_document->isStepping())
        onStepsArrived(ran, double(solverClock.nsecsElapsed()) * 1e-9);
    return ran;
}

void SimulationController::onStepsArrived(int frames, double seconds)
{
    if (!m_document)
        return;
    if (frames > 0) {
        m_simAdvanced += frames * m_document->simulation().solver.frameDt();
        m_stepSeconds += seconds;
        m_stepsInWindow += frames;
        emit stepped();
    }
    if (m_document->simulation().status().blownUp) {
        setPlaying(false);
        updateStats();
        emit blownUp(QString::fromStdString(m_document->simulation().status().message));
    }
}

void SimulationController::tick()
{
    if (!m_document || !m_player) {
        m_timer.stop();
        return;
    }
    if (!m_stepping) {
        // Paused on a frame the worker is making: show it when it arrives.
        m_player->poll();
        if (!m_player->waiting()) {
            if (!m_playing)
                m_timer.stop();
            if (m_settleOnArrival) {
                m_settleOnArrival = false;
                scheduleSettle(0);
            }
        }
        return;
    }
    const double wall = double(m_clock.nsecsElapsed()) * 1e-9;
    m_clock.restart();
    const double frameDt = m_document->simulation().solver.frameDt();
    // A stall (a modal dialog, a debugger) must not be paid back as a burst of frames.
    m_accumulator += std::min(wall, 0.25) * m_speed;
    if (m_document->isStepping() || !m_document->isSettled() || m_document->isBusy()) {
        // The worker is still stepping the last frames asked for (or preparing the state a
        // cancelled drag returns to): no more until they are shown. A solver slower than
        // real time shows as a real-time factor below 1.
        m_accumulator = std::min(m_accumulator, kMaxStepsPerTick * frameDt);
        updateMode();
        return;
    }
    const int owed = int(m_accumulator / frameDt);
    const int frames = std::min(owed, kMaxStepsPerTick);
    m_accumulator -= frames * frameDt;
    if (owed > kMaxStepsPerTick)
        m_accumulator = std::min(m_accumulator, frameDt); // falling behind: drop the debt
    if (frames > 0)
        advance(frames);
    updateMode();
}

void SimulationController::updateStats()
{
    const double window = double(m_statsClock.nsecsElapsed()) * 1e-9;
    if (window >= 0.25) {
        m_stats.framesPerSecond = m_framesRendered / window;
        if (!m_playing)
            m_stats.realTimeFactor = 0.0;
        else if (m_stepping)
            m_stats.realTimeFactor = m_simAdvanced / window;
        else if (m_player)
            m_stats.realTimeFactor = m_player->realTimeFactor() * m_speed;
        if (m_stepsInWindow > 0)
            m_stats.msPerStep = 1000.0 * m_stepSeconds / m_stepsInWindow;
        m_framesRendered = 0;
        m_simAdvanced = 0.0;
        m_stepSeconds = 0.0;
        m_stepsInWindow = 0;
        m_statsClock.restart();
    }
    if (m_document) {
        const Simulation &sim = m_document->simulation();
        const bool cached = !m_document->isSettled() && m_shown && m_shown->frame == m_document->playhead();
        m_stats.simTime = cached ? m_shown->time : sim.time();
        m_stats.frame = m_document->playhead();
        m_stats.mode = m_document->modeText();
        qint64 particles = 0, constraints = 0;
        for (const Cloth &c : sim.cloths) {
            particles += qint64(c.particles.size());
            constraints += qint64(c.constraints.size());
        }
        m_stats.particles = particles;
        m_stats.constraints = constraints;
        m_stats.blownUp = sim.status().blownUp;
        m_stats.blowUpMessage = QString::fromStdString(sim.status().message);
    } else {
        m_stats = {};
    }
    emit statsChanged(m_stats);
}

} // namespace drape
