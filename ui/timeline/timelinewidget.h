// The frame ruler under the viewport: the playhead, the cached range shaded, the range an
// edit made outdated shaded differently, the playback start and end, and a marker per event
// of the take (hover: what it is; click: jump to its frame; context menu: delete it).
//
// A view: it shows what it is given (setCache, setMarkers, setPlayhead) and asks for changes
// by signals (playheadRequested, markerDeleteRequested); the owner decides. Keys: Home / End
// go to the playback start / end, Left / Right step a frame, Shift+Left / Shift+Right a
// second.
#pragma once

#include "timeline/framecache.h"

#include <QString>
#include <QVector>
#include <QWidget>

#include <vector>

class QMenu;

namespace drape {

struct TimelineMarker {
    quint64 frame = 0;
    QString text; ///< what happened ("Cut, 12 constraints"), shown on hover
};

class TimelineWidget : public QWidget {
    Q_OBJECT
public:
    explicit TimelineWidget(QWidget *parent = nullptr);

    /// The frames the ruler shows, first to last inclusive.
    void setSpan(quint64 first, quint64 last);
    quint64 spanFirst() const { return m_first; }
    quint64 spanLast() const { return m_last; }
    /// Playback and export range (inclusive), drawn as the bright part of the ruler.
    void setPlaybackRange(quint64 start, quint64 end);
    quint64 playbackStart() const { return m_start; }
    quint64 playbackEnd() const { return m_end; }
    /// Frames per second, for the Shift+arrow steps of one second.
    void setFrameRate(double fps) { m_fps = fps; }

    void setPlayhead(quint64 frame);
    quint64 playhead() const { return m_playhead; }
    void setCache(std::vector<FrameRange> cached, FrameRange stale);
    void setMarkers(QVector<TimelineMarker> markers);
    const QVector<TimelineMarker> &markers() const { return m_markers; }

    /// Geometry of the ruler (for the tests and the owner's tool tips).
    quint64 frameAt(int x) const;
    int xOf(quint64 frame) const;
    /// Index of the marker under `pos`, or -1.
    int markerAt(const QPoint &pos) const;
    /// The context menu of marker `index` (the caller owns it).
    QMenu *markerMenu(int index);

    /// Colours of the shading, for the tests.
    static QColor cachedColor();
    static QColor staleColor();

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

signals:
    /// The user asked to show `frame` (scrub, click, key, marker).
    void playheadRequested(quint64 frame);
    void scrubbingChanged(bool scrubbing);
    void markerActivated(int index);
    void markerDeleteRequested(int index);

protected:
    void paintEvent(QPaintEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;
    void mouseReleaseEvent(QMouseEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;
    void contextMenuEvent(QContextMenuEvent *event) override;
    bool event(QEvent *event) override;

private:
    QRect rulerRect() const;
    int barTop() const;
    void request(qint64 frame);
    quint64 labelStep() const;

    quint64 m_first = 0;
    quint64 m_last = 250;
    quint64 m_start = 0;
    quint64 m_end = 250;
    quint64 m_playhead = 0;
    double m_fps = 60.0;
    std::vector<FrameRange> m_cached;
    FrameRange m_stale;
    QVector<TimelineMarker> m_markers;
    bool m_scrubbing = false;
};

} // namespace drape
