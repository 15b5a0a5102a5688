// Real-time playback over the timeline's cache (ui side of core/timeline).
//
// A precise QTimer ticks about 60 times a second; each tick owes the elapsed wall time ×
// frame rate in frames and moves the playhead by whole frames, forward or backward, showing
// only frames the cache holds: the solver runs on the timeline's worker thread, never here.
// When the next frame is not cached yet (the solver is slower than real time), the playhead
// waits for it instead of playing in slow motion unannounced: waiting() is true and the
// real-time factor (frames shown per wall second ÷ frame rate) drops below 1 for the status
// bar. Backward playback runs over the cache and stops where it ends. With loop on,
// playback wraps from the end frame to the start frame (and back, playing backwards).
#pragma once

#include "timeline/timeline.h"

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>

#include <memory>

namespace drape {

class TimelinePlayer : public QObject {
    Q_OBJECT
public:
    static constexpr int kTickMs = 16;

    explicit TimelinePlayer(Timeline *timeline, QObject *parent = nullptr);

    void setFrameRate(double fps);
    double frameRate() const { return m_fps; }
    /// Playback range, inclusive; the playhead is clamped into it when playing.
    void setRange(quint64 start, quint64 end);
    quint64 start() const { return m_start; }
    quint64 end() const { return m_end; }
    void setLoop(bool loop) { m_loop = loop; }
    bool loop() const { return m_loop; }

    bool isPlaying() const { return m_direction != 0; }
    int direction() const { return m_direction; } ///< +1 forward, -1 backward, 0 paused
    bool waiting() const { return m_waiting; }
    quint64 playhead() const { return m_playhead; }
    /// Frames shown per wall-clock second over the last second of playback ÷ frame rate.
    double realTimeFactor() const { return m_realTimeFactor; }

    /// Moves the playhead (scrub, keys): shows the frame if it is cached, otherwise the
    /// worker is asked for it and frameShown follows when it arrives (poll()).
    void seek(quint64 frame);
    /// Advances playback by `seconds` of wall time (the timer calls it; tests call it).
    void advanceWall(double seconds);
    /// Shows the playhead's frame if it arrived since it was asked for.
    void poll();

public slots:
    void play(int direction = 1);
    void pause();
    void togglePlay() { isPlaying() ? pause() : play(1); }

signals:
    void frameShown(std::shared_ptr<const drape::CachedFrame> frame);
    void playheadChanged(quint64 frame);
    void playingChanged(int direction);
    void waitingChanged(bool waiting);

private:
    void tick();
    void setWaiting(bool waiting);
    bool show(quint64 frame);

    Timeline *m_timeline;
    QTimer m_timer;
    QElapsedTimer m_clock;
    double m_fps = 60.0;
    quint64 m_start = 0;
    quint64 m_end = 250;
    quint64 m_playhead = 0;
    quint64 m_shown = ~quint64(0); ///< frame last emitted by frameShown
    std::shared_ptr<const CachedFrame> m_shownFrame; ///< what it emitted (an edit may replace the frame)
    bool m_loop = false;
    int m_direction = 0;
    bool m_waiting = false;
    double m_owed = 0.0; ///< frames of wall time not yet played
    double m_windowWall = 0.0; ///< s of playback in the current factor window
    int m_windowFrames = 0; ///< frames shown in it
    double m_realTimeFactor = 0.0;
};

} // namespace drape
