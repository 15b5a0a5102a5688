#include "timeline/timelineplayer.h"

#include <algorithm>
#include <cmath>

namespace drape {

TimelinePlayer::TimelinePlayer(Timeline *timeline, QObject *parent)
    : QObject(parent)
    , m_timeline(timeline)
{
    m_timer.setTimerType(Qt::PreciseTimer);
    m_timer.setInterval(kTickMs);
    connect(&m_timer, &QTimer::timeout, this, &TimelinePlayer::tick);
}

void TimelinePlayer::setFrameRate(double fps)
{
    m_fps = std::max(1e-3, fps);
}

void TimelinePlayer::setRange(quint64 start, quint64 end)
{
    m_start = std::min(start, end);
    m_end = std::max(start, end);
    m_timeline->setEndFrame(m_end);
}

void TimelinePlayer::setWaiting(bool waiting)
{
    if (waiting == m_waiting)
        return;
    m_waiting = waiting;
    emit waitingChanged(waiting);
}

bool TimelinePlayer::show(quint64 frame)
{
    std::shared_ptr<const CachedFrame> f = m_timeline->cachedFrame(frame);
    if (!f)
        return false;
    if (frame != m_shown || f != m_shownFrame) {
        m_shown = frame;
        m_shownFrame = f;
        emit frameShown(std::move(f));
    }
    return true;
}

void TimelinePlayer::seek(quint64 frame)
{
    if (frame != m_playhead) {
        m_playhead = frame;
        m_timeline->setPlayhead(frame);
        emit playheadChanged(frame);
    }
    setWaiting(!show(frame));
}

void TimelinePlayer::poll()
{
    // Also when the frame waited for is the one shown last: an edit dropped it from the cache
    // since, and it is shown again once it is made again.
    if (m_waiting || m_shown != m_playhead)
        setWaiting(!show(m_playhead));
}

void TimelinePlayer::play(int direction)
{
    direction = direction < 0 ? -1 : 1;
    if (direction == m_direction)
        return;
    // Outside the range, play from its start; backwards from its end only when the end is a
    // frame (with no end set, `m_end` is a bound, not a frame to go to).
    if (m_playhead < m_start)
        seek(m_start);
    else if (m_playhead > m_end)
        seek(direction > 0 ? m_start : m_end);
    m_direction = direction;
    m_owed = 0.0;
    m_windowWall = 0.0;
    m_windowFrames = 0;
    m_clock.start();
    m_timer.start();
    emit playingChanged(m_direction);
}

void TimelinePlayer::pause()
{
    if (m_direction == 0)
        return;
    m_direction = 0;
    m_timer.stop();
    m_realTimeFactor = 0.0;
    emit playingChanged(0);
}

void TimelinePlayer::tick()
{
    const double wall = double(m_clock.nsecsElapsed()) * 1e-9;
    m_clock.restart();
    // A stall (a modal dialog, a debugger) is not paid back as a burst of frames.
    advanceWall(std::min(wall, 0.25));
}

void TimelinePlayer::advanceWall(double seconds)
{
    if (m_direction == 0)
        return;
    m_owed += seconds * m_fps;
    int shown = 0;
    while (m_owed >= 1.0 && m_direction != 0) {
        quint64 next = m_playhead;
        if (m_direction > 0) {
            if (m_playhead >= m_end) {
                if (!m_loop) {
                    pause();
                    break;
                }
                next = m_start;
            } else {
                next = m_playhead + 1;
            }
        } else {
            if (m_playhead <= m_start) {
                if (!m_loop) {
                    pause();
                    break;
                }
                next = m_end;
            } else {
                next = m_playhead - 1;
            }
        }
        if (!m_timeline->cachedFrame(next)) {
            if (m_direction < 0) {
                pause(); // backward playback runs over the cache only
                break;
            }
            // The solver is behind: wait for the frame instead of skipping or stretching time.
            m_timeline->setPlayhead(m_playhead);
            setWaiting(true);
            m_owed = 0.0;
            break;
        }
        m_owed -= 1.0;
        m_playhead = next;
        m_timeline->setPlayhead(next);
        show(next);
        ++shown;
        setWaiting(false);
    }
    if (shown > 0)
        emit playheadChanged(m_playhead);
    m_windowWall += seconds;
    m_windowFrames += shown;
    if (m_windowWall >= 1.0) {
        m_realTimeFactor = double(m_windowFrames) / (m_windowWall * m_fps);
        m_windowWall = 0.0;
        m_windowFrames = 0;
    }
}

} // namespace drape
