#include "timeline/timelinewidget.h"

#include <QContextMenuEvent>
#include <QHelpEvent>
#include <QKeyEvent>
#include <QMenu>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>
#include <cmath>

namespace drape {

namespace {

constexpr int kMargin = 8; // px left and right of the ruler, so frame 0 and the last are reachable
constexpr int kMarkerHeight = 8; // px, the event markers along the top
constexpr int kBarHeight = 6; // px, the cache bar along the bottom
constexpr int kMarkerHalfWidth = 5; // px, hit area of a marker either side of its frame

} // namespace

TimelineWidget::TimelineWidget(QWidget *parent)
    : QWidget(parent)
{
    setFocusPolicy(Qt::StrongFocus);
    setMouseTracking(true);
    setAccessibleName(tr("Timeline"));
}

QSize TimelineWidget::sizeHint() const
{
    return { 600, 44 };
}
QSize TimelineWidget::minimumSizeHint() const
{
    return { 120, 36 };
}

QColor TimelineWidget::cachedColor()
{
    return QColor(70, 140, 210);
}
QColor TimelineWidget::staleColor()
{
    return QColor(200, 140, 60);
}

void TimelineWidget::setSpan(quint64 first, quint64 last)
{
    m_first = first;
    m_last = std::max(last, first + 1);
    update();
}

void TimelineWidget::setPlaybackRange(quint64 start, quint64 end)
{
    m_start = std::min(start, end);
    m_end = std::max(start, end);
    update();
}

void TimelineWidget::setPlayhead(quint64 frame)
{
    if (frame == m_playhead)
        return;
    m_playhead = frame;
    update();
}

void TimelineWidget::setCache(std::vector<FrameRange> cached, FrameRange stale)
{
    m_cached = std::move(cached);
    m_stale = stale;
    update();
}

void TimelineWidget::setMarkers(QVector<TimelineMarker> markers)
{
    m_markers = std::move(markers);
    update();
}

QRect TimelineWidget::rulerRect() const
{
    return rect().adjusted(kMargin, 0, -kMargin, 0);
}

int TimelineWidget::barTop() const
{
    return height() - kBarHeight;
}

quint64 TimelineWidget::frameAt(int x) const
{
    const QRect r = rulerRect();
    const double t = std::clamp(double(x - r.left()) / double(std::max(1, r.width() - 1)), 0.0, 1.0);
    return m_first + quint64(std::llround(t * double(m_last - m_first)));
}

int TimelineWidget::xOf(quint64 frame) const
{
    const QRect r = rulerRect();
    const double t = double(std::clamp(frame, m_first, m_last) - m_first) / double(m_last - m_first);
    return r.left() + int(std::lround(t * double(r.width() - 1)));
}

int TimelineWidget::markerAt(const QPoint &pos) const
{
    if (pos.y() > kMarkerHeight + 2)
        return -1;
    int best = -1, bestDistance = kMarkerHalfWidth + 1;
    for (int i = 0; i < m_markers.size(); ++i) {
        const int d = std::abs(xOf(m_markers[i].frame) - pos.x());
        if (d < bestDistance) {
            best = i;
            bestDistance = d;
        }
    }
    return best;
}

quint64 TimelineWidget::labelStep() const
{
    // The smallest of 1, 2, 5 × 10^n frames that leaves 60 px between labels.
    const double framesPerPixel = double(m_last - m_first) / double(std::max(1, rulerRect().width()));
    for (quint64 scale = 1;; scale *= 10)
        for (quint64 m : { 1, 2, 5 })
            if (double(m * scale) / framesPerPixel >= 60.0)
                return m * scale;
}

void TimelineWidget::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    const QPalette &pal = palette();
    p.fillRect(rect(), pal.color(QPalette::Base).darker(115));
    // The playback range is lighter than the frames outside it.
    p.fillRect(QRect(QPoint(xOf(m_start), 0), QPoint(xOf(m_end), height())), pal.color(QPalette::Base));

    // Cache bar: cached frames, then the outdated ones an edit dropped (until re-simulated).
    auto span = [&](quint64 begin, quint64 end) {
        return QRect(QPoint(xOf(begin), barTop()), QPoint(xOf(end - 1), height() - 1));
    };
    for (const FrameRange &r : m_cached)
        if (r.end > r.begin)
            p.fillRect(span(r.begin, r.end), cachedColor());
    if (m_stale.end > m_stale.begin)
        p.fillRect(span(m_stale.begin, m_stale.end), staleColor());

    // Ruler ticks and labels.
    p.setPen(pal.color(QPalette::Text));
    const quint64 step = labelStep();
    const quint64 minor = std::max<quint64>(1, step / 5);
    for (quint64 f = (m_first + minor - 1) / minor * minor; f <= m_last; f += minor) {
        const int x = xOf(f);
        const bool major = f % step == 0;
        p.drawLine(x, barTop() - (major ? 10 : 4), x, barTop() - 1);
        if (major)
            p.drawText(QRect(x + 2, kMarkerHeight, 60, barTop() - kMarkerHeight - 2),
                Qt::AlignLeft | Qt::AlignVCenter, QString::number(f));
    }

    // Event markers: small downward triangles along the top.
    p.setRenderHint(QPainter::Antialiasing);
    p.setPen(Qt::NoPen);
    p.setBrush(pal.color(QPalette::Highlight).lighter(130));
    for (const TimelineMarker &m : m_markers) {
        const int x = xOf(m.frame);
        const QPointF tri[3] = { { x - 4.0, 0.0 }, { x + 4.0, 0.0 }, { double(x), double(kMarkerHeight) } };
        p.drawPolygon(tri, 3);
    }

    // Playhead.
    p.setRenderHint(QPainter::Antialiasing, false);
    const int x = xOf(m_playhead);
    p.setPen(QPen(QColor(230, 60, 50), 2));
    p.drawLine(x, 0, x, height());
    if (hasFocus()) {
        p.setPen(QPen(pal.color(QPalette::Highlight), 1, Qt::DotLine));
        p.setBrush(Qt::NoBrush);
        p.drawRect(rect().adjusted(0, 0, -1, -1));
    }
}

void TimelineWidget::request(qint64 frame)
{
    const quint64 f = quint64(std::clamp<qint64>(frame, qint64(m_first), qint64(m_last)));
    emit playheadRequested(f);
}

void TimelineWidget::mousePressEvent(QMouseEvent *event)
{
    if (event->button() != Qt::LeftButton)
        return QWidget::mousePressEvent(event);
    const int marker = markerAt(event->position().toPoint());
    if (marker >= 0) {
        emit markerActivated(marker);
        request(qint64(m_markers[marker].frame));
        return;
    }
    m_scrubbing = true;
    emit scrubbingChanged(true);
    request(qint64(frameAt(event->position().toPoint().x())));
}

void TimelineWidget::mouseMoveEvent(QMouseEvent *event)
{
    if (m_scrubbing && (event->buttons() & Qt::LeftButton))
        request(qint64(frameAt(event->position().toPoint().x())));
}

void TimelineWidget::mouseReleaseEvent(QMouseEvent *event)
{
    if (event->button() == Qt::LeftButton && m_scrubbing) {
        m_scrubbing = false;
        emit scrubbingChanged(false);
    }
}

void TimelineWidget::keyPressEvent(QKeyEvent *event)
{
    const qint64 second = std::max<qint64>(1, qint64(std::lround(m_fps)));
    const qint64 stepBy = (event->modifiers() & Qt::ShiftModifier) ? second : 1;
    switch (event->key()) {
    case Qt::Key_Home:
        request(qint64(m_start));
        break;
    case Qt::Key_End:
        request(qint64(m_end));
        break;
    case Qt::Key_Left:
        request(qint64(m_playhead) - stepBy);
        break;
    case Qt::Key_Right:
        request(qint64(m_playhead) + stepBy);
        break;
    default:
        QWidget::keyPressEvent(event);
    }
}

QMenu *TimelineWidget::markerMenu(int index)
{
    auto *menu = new QMenu(this);
    const TimelineMarker &m = m_markers.at(index);
    menu->addAction(tr("Go to frame %1").arg(m.frame), this, [this, index] {
        if (index < m_markers.size())
            request(qint64(m_markers[index].frame));
    });
    menu->addAction(
        tr("Delete event (%1)").arg(m.text), this, [this, index] { emit markerDeleteRequested(index); });
    return menu;
}

void TimelineWidget::contextMenuEvent(QContextMenuEvent *event)
{
    const int marker = markerAt(event->pos());
    if (marker < 0)
        return;
    QMenu *menu = markerMenu(marker);
    menu->setAttribute(Qt::WA_DeleteOnClose);
    menu->popup(event->globalPos());
}

bool TimelineWidget::event(QEvent *event)
{
    if (event->type() == QEvent::ToolTip) {
        auto *help = static_cast<QHelpEvent *>(event);
        const int marker = markerAt(help->pos());
        if (marker >= 0)
            QToolTip::showText(help->globalPos(),
                tr("Frame %1: %2").arg(m_markers[marker].frame).arg(m_markers[marker].text), this);
        else
            QToolTip::showText(help->globalPos(), tr("Frame %1").arg(frameAt(help->pos().x())), this);
        return true;
    }
    return QWidget::event(event);
}

} // namespace drape
