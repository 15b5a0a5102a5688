// The interactive simulation loop: a precise QTimer ticks about 60 times a second; each tick
// adds the elapsed wall time (times the speed) to an accumulator and advances the simulation
// in whole fixed frames of 1 / solver.frameRate, at most kMaxStepsPerTick per tick. When the
// solver cannot keep up the accumulator is clamped (no spiral of death) and the real-time
// factor drops below 1 instead ("Fix Your Timestep!", Glenn Fiedler 2004).
#pragma once

#include "document/document.h"
#include <QElapsedTimer>
#include <QObject>
#include <QPointer>
#include <QString>
#include <QTimer>

namespace drape {

class Document;

/// Numbers shown in the status bar.
struct SimulationStats {
    double simTime = 0.0;        ///< s
    quint64 frame = 0;            ///< the playhead, frames since the scene's start
    QString mode;                 ///< what an edit does now: "Editing the scene" / "Recording at frame 183"
    double framesPerSecond = 0.0; ///< display frames rendered per wall-clock second
    double msPerStep = 0.0;       ///< ms of solver time per simulated frame
    double realTimeFactor = 0.0;  ///< simulated seconds per wall second while playing (1 = real time)
    qint64 particles = 0;
    qint64 constraints = 0;
    bool blownUp = false;
    QString blowUpMessage;
};

class SimulationController : public QObject {
    Q_OBJECT
public:
    static constexpr int kTickMs = 16;
    static constexpr int kMaxStepsPerTick = 4;

    explicit SimulationController(QObject *parent = nullptr);

    void setDocument(Document *document);
    Document *document() const { return m_document; }

    bool isPlaying() const { return m_playing; }
    double speed() const { return m_speed; }
    const SimulationStats &stats() const { return m_stats; }

public slots:
    void setPlaying(bool playing);
    void togglePlaying() { setPlaying(!m_playing); }
    /// Advances exactly `n` frames now (also while paused).
    void stepFrames(int n = 1);
    /// Rebuilds the simulation from the scene's authoring data and clears a blow-up.
    void reset();
    /// Simulated seconds per wall second (0.25 = slow motion).
    void setSpeed(double speed);
    /// The viewport reports each rendered frame, for the display frame rate.
    void noteFrameRendered();

signals:
    void playingChanged(bool playing);
    void stepped();
    void statsChanged(const drape::SimulationStats &stats);
    void blownUp(const QString &message);
    void speedChanged(double speed);

private:
    void tick();
    int advance(int frames); ///< steps up to `frames` frames; returns how many ran
    void updateStats();

    QPointer<Document> m_document;
    QTimer m_timer;
    QElapsedTimer m_clock;       ///< wall time since the last tick
    QElapsedTimer m_statsClock;  ///< wall time of the current stats window
    double m_accumulator = 0.0;  ///< s of simulated time owed
    double m_speed = 1.0;
    bool m_playing = false;
    int m_framesRendered = 0;    ///< in the current stats window
    double m_simAdvanced = 0.0;  ///< s simulated in the current stats window
    double m_stepSeconds = 0.0;  ///< solver wall time in the window
    int m_stepsInWindow = 0;
    SimulationStats m_stats;
};

} // namespace drape

Q_DECLARE_METATYPE(drape::SimulationStats)
