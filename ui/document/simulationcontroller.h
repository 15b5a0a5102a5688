// Playback of the open document. Play shows the frames of the document's timeline cache in
// real time (TimelinePlayer): the solver runs on the timeline's worker thread, which fills the
// cache ahead of the playhead, and the document's own state stays where it was (the playhead
// moves with Document::showFrame) until the playhead rests (a pause, a scrub released, a key,
// a step) and the worker prepares the state there (Document::settle, asynchronous). When the
// playhead catches up with the cache the player waits for the worker and the real-time factor
// in the status bar drops below 1 instead of showing slow motion unannounced. While edits wait
// for the state (Document::isBusy) playback holds at the frame they were made at, and moves of
// the playhead queue behind them. The GUI thread never steps the solver. While a drag or a
// stroke is in progress the document advances on a timer, as every frame of a drag is
// recorded in the take (the "Fix Your Timestep!" accumulator, Glenn Fiedler 2004, at most
// kMaxStepsPerTick frames per tick): each tick records the frames it owes and the timeline's
// worker steps them (Document::step); the next frames are asked for once they are shown.
//
// Scrubbing and the playhead keys (seekTo) show cached frames at once; a frame past the cache
// is asked of the worker and shown when it arrives, with its progress (waitText()), as is a
// Step (stepFrames), whose state the worker makes from the document's.
#pragma once

#include "document/document.h"
#include "timeline/cachedframe.h"

#include <QElapsedTimer>
#include <QObject>
#include <QPointer>
#include <QString>
#include <QTimer>

#include <functional>
#include <limits>
#include <memory>

namespace drape {

class Document;
class TimelinePlayer;

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
    static constexpr quint64 kLookAhead = 600; ///< frames the worker keeps ready past the playhead
    static constexpr quint64 kNoEnd = std::numeric_limits<quint64>::max() / 4; ///< open playback end

    explicit SimulationController(QObject *parent = nullptr);
    ~SimulationController() override;

    void setDocument(Document *document);
    Document *document() const { return m_document; }

    bool isPlaying() const { return m_playing; }
    int direction() const { return m_playing ? m_direction : 0; }
    double speed() const { return m_speed; }
    bool loop() const { return m_loop; }
    /// Playback range, inclusive (the scene's record.startFrame / endFrame); kNoEnd: no end.
    quint64 rangeStart() const { return m_rangeStart; }
    quint64 rangeEnd() const { return m_rangeEnd; }
    /// The frame on screen (the document's playhead).
    quint64 playhead() const;
    /// The playhead waits for the worker (playing faster than it, or a seek past the cache).
    bool isWaiting() const;
    /// "Simulating to frame 420: 130/300" while waiting, else empty.
    QString waitText() const;
    /// Frames the cache holds past the playhead, in sequence (how far ahead it is).
    quint64 cachedAhead() const;
    const SimulationStats &stats() const { return m_stats; }
    TimelinePlayer *player() const { return m_player.get(); }

public slots:
    void setPlaying(bool playing);
    void togglePlaying() { setPlaying(!m_playing); }
    /// Plays backwards over the cache (stops where the cache or the range starts, or loops).
    void playBackward();
    void setLoop(bool loop);
    /// Sets the playback (and export) range, inclusive, in the scene's recording settings: an
    /// undo step, saved with the scene. The playhead keeps its place.
    void setRange(quint64 start, quint64 end);
    /// The range starts / ends at the playhead (where it is when the edit runs, after what
    /// waits for the state), its other end moved along if it would cross it.
    void setRangeStartHere();
    void setRangeEndHere();
    /// Moves the playhead `n` frames on and settles there (the worker steps; also while
    /// paused). During a drag or a stroke the document itself steps `n` frames.
    void stepFrames(int n = 1);
    /// Shows `frame`: the cached frame at once, else the worker's when it arrives. The
    /// document follows at once when `settle`, else when it rests (see setScrubbing()).
    void seekTo(quint64 frame, bool settle = true);
    /// Moves the playhead by `frames` (keys: ±1 frame, ± one second), clamped to the range.
    void seekBy(qint64 frames);
    void seekToStart() { seekTo(m_rangeStart, false); }
    void seekToEnd();
    /// The ruler is being dragged: the document is brought to the playhead on release.
    void setScrubbing(bool scrubbing);
    /// Rebuilds the simulation from the scene's authoring data and clears a blow-up.
    void reset();
    /// Simulated seconds per wall second (0.25 = slow motion).
    void setSpeed(double speed);
    /// The viewport reports each rendered frame, for the display frame rate.
    void noteFrameRendered();

signals:
    void playingChanged(bool playing);
    void directionChanged(int direction);
    void loopChanged(bool loop);
    void rangeChanged(quint64 start, quint64 end);
    void stepped();
    void statsChanged(const drape::SimulationStats &stats);
    void blownUp(const QString &message);
    void speedChanged(double speed);
    /// A cached frame to draw (Viewport::showCachedFrame).
    void frameShown(std::shared_ptr<const drape::CachedFrame> frame);
    void waitingChanged(bool waiting);

private:
    void play(int direction);
    void tick();
    int advance(int frames); ///< steps the document up to `frames` frames; returns how many ran
    /// Frames stepped (here, or by the worker during a drag): the stats and a blow-up.
    void onStepsArrived(int frames, double seconds);
    void updateStats();
    void updateMode(); ///< from the cache, or the document itself while it is interacting
    void onFrameShown(const std::shared_ptr<const CachedFrame> &frame);
    void onPlayerStopped();
    void scheduleSettle(int ms);
    void settleIfResting();
    void applyFrameRate();
    void applyRange(); ///< from the scene's recording settings
    /// Sets the range to what `change` makes of the scene's (start, end) when the edit runs.
    void editRange(const std::function<void(quint64 &start, quint64 &end, quint64 playhead)> &change);
    bool blownUpAtPlayhead() const;

    QPointer<Document> m_document;
    QMetaObject::Connection m_stepSettled; ///< a Step's blow-up check when the state arrives (one at a time)
    std::unique_ptr<TimelinePlayer> m_player;
    QTimer m_timer;              ///< document steps (interacting) and waiting polls
    QTimer m_settleTimer;        ///< brings the document to a resting playhead
    QElapsedTimer m_clock;       ///< wall time since the last tick
    QElapsedTimer m_statsClock;  ///< wall time of the current stats window
    double m_accumulator = 0.0;  ///< s of simulated time owed (document steps)
    double m_speed = 1.0;
    bool m_playing = false;
    int m_direction = 1;
    bool m_stepping = false;     ///< playing by stepping the document (a drag in progress)
    bool m_loop = false;
    bool m_scrubbing = false;
    bool m_settleOnArrival = false; ///< settle when the awaited frame arrives
    quint64 m_rangeStart = 0;
    quint64 m_rangeEnd = kNoEnd;
    quint64 m_waitFrom = 0;      ///< last frame cached before the awaited one, for the progress
    std::shared_ptr<const CachedFrame> m_shown; ///< last cached frame drawn
    int m_framesRendered = 0;    ///< in the current stats window
    double m_simAdvanced = 0.0;  ///< s simulated in the current stats window (document steps)
    double m_stepSeconds = 0.0;  ///< solver wall time in the window
    int m_stepsInWindow = 0;
    SimulationStats m_stats;
};

} // namespace drape

Q_DECLARE_METATYPE(drape::SimulationStats)
