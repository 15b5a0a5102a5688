#include "document/simulationcontroller.h"

#include "document/document.h"

#include <algorithm>

namespace drape {

SimulationController::SimulationController(QObject *parent) : QObject(parent)
{
    qRegisterMetaType<drape::SimulationStats>();
    m_timer.setTimerType(Qt::PreciseTimer);
    m_timer.setInterval(kTickMs);
    connect(&m_timer, &QTimer::timeout, this, &SimulationController::tick);
    // Stats keep updating while paused (display fps, counts), at a calmer rate.
    auto *statsTimer = new QTimer(this);
    statsTimer->setInterval(500);
    connect(statsTimer, &QTimer::timeout, this, &SimulationController::updateStats);
    statsTimer->start();
    m_statsClock.start();
}

void SimulationController::setDocument(Document *document)
{
    if (m_document)
        disconnect(m_document, nullptr, this, nullptr);
    setPlaying(false);
    m_document = document;
    m_accumulator = 0.0;
    if (m_document)
        connect(m_document, &Document::simulationReset, this, [this] { m_accumulator = 0.0; updateStats(); });
    updateStats();
}

void SimulationController::setPlaying(bool playing)
{
    if (playing && (!m_document || m_document->simulation().status().blownUp))
        playing = false;
    if (playing == m_playing)
        return;
    m_playing = playing;
    m_accumulator = 0.0;
    if (playing) {
        m_clock.start();
        m_timer.start();
    } else {
        m_timer.stop();
    }
    emit playingChanged(m_playing);
}

void SimulationController::setSpeed(double speed)
{
    speed = std::clamp(speed, 0.01, 4.0);
    if (speed == m_speed)
        return;
    m_speed = speed;
    emit speedChanged(m_speed);
}

void SimulationController::stepFrames(int n)
{
    if (!m_document || n <= 0)
        return;
    advance(n);
    updateStats();
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
    if (ran > 0) {
        m_simAdvanced += ran * m_document->simulation().solver.frameDt();
        m_stepSeconds += double(solverClock.nsecsElapsed()) * 1e-9;
        m_stepsInWindow += ran;
        emit stepped();
    }
    if (m_document->simulation().status().blownUp) {
        setPlaying(false);
        updateStats();
        emit blownUp(QString::fromStdString(m_document->simulation().status().message));
    }
    return ran;
}

void SimulationController::tick()
{
    if (!m_document) {
        setPlaying(false);
        return;
    }
    const double wall = double(m_clock.nsecsElapsed()) * 1e-9;
    m_clock.restart();
    const double frameDt = m_document->simulation().solver.frameDt();
    // A stall (a modal dialog, a debugger) must not be paid back as a burst of frames.
    m_accumulator += std::min(wall, 0.25) * m_speed;
    const int owed = int(m_accumulator / frameDt);
    const int frames = std::min(owed, kMaxStepsPerTick);
    m_accumulator -= frames * frameDt;
    if (owed > kMaxStepsPerTick)
        m_accumulator = std::min(m_accumulator, frameDt); // falling behind: drop the debt
    if (frames > 0)
        advance(frames);
}

void SimulationController::updateStats()
{
    const double window = double(m_statsClock.nsecsElapsed()) * 1e-9;
    if (window >= 0.25) {
        m_stats.framesPerSecond = m_framesRendered / window;
        m_stats.realTimeFactor = m_playing ? m_simAdvanced / window : 0.0;
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
        m_stats.simTime = sim.time();
        m_stats.frame = m_document->frame();
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
