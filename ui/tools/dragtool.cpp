#include "tools/dragtool.h"

#include "edit/pick.h"
#include "document/document.h"
#include "render/viewport.h"
#include "tools/toolmanager.h"
#include "widgets/icons.h"

#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace drape {

namespace {
constexpr float kHoverPixels = 10.f; // px, how close to a particle the cursor must be to grab
}

DragTool::DragTool(Mode mode, ToolManager *manager, QObject *parent)
    : Tool(mode == Mode::Grab ? tr("Drag") : tr("Push"),
           toolIcon(mode == Mode::Grab ? QStringLiteral("drag") : QStringLiteral("push")),
           parent),
      m_mode(mode), m_manager(manager)
{
}

void DragTool::deactivate()
{
    abort();
    m_hasCursor = false;
    Tool::deactivate();
}

void DragTool::updateHover(const QPointF &pos)
{
    m_cursor = pos;
    m_hasCursor = true;
    const Viewport *vp = m_manager->viewport();
    m_hover = toolbrush::surfaceAt(*vp, pos, kHoverPixels);
    emit overlayChanged();
}

bool DragTool::mousePress(QMouseEvent *event)
{
    Document *doc = m_manager->document();
    if (!doc)
        return false;
    if (m_dragging && event->button() == Qt::RightButton) {
        abort();
        return true;
    }
    if (event->button() != Qt::LeftButton || m_dragging)
        return false;
    const Viewport *vp = m_manager->viewport();
    updateHover(event->position());
    if (m_mode == Mode::Push) {
        // The plane goes through the cloth under the cursor; the push follows the cursor on it.
        m_planePoint = m_hover.found ? m_hover.point : toolbrush::fallbackCentre(*vp, event->position());
        m_lastPush = m_planePoint;
        toolbrush::pointOnViewPlane(*vp, event->position(), m_planePoint, &m_lastPush);
        doc->beginGesture(); // the whole stroke is one undo step
        m_dragging = true;
        return true;
    }
    if (!m_hover.found)
        return false;
    const float radius = m_manager->radius();
    const std::vector<std::uint32_t> held
        = particlesWithin(doc->simulation().cloths[std::size_t(m_hover.cloth)], m_hover.point, radius);
    if (held.empty()) {
        m_manager->reportError(tr("No particle within %1 m of the cursor.").arg(double(radius)));
        return true;
    }
    if (const QString error = doc->beginDrag(m_hover.cloth, held, m_hover.point); !error.isEmpty()) {
        m_manager->reportError(error);
        return true;
    }
    m_cloth = m_hover.cloth;
    m_centre = m_hover.point;
    m_planePoint = m_hover.point;
    m_dragging = true;
    m_manager->updateCursor();
    return true;
}

bool DragTool::mouseMove(QMouseEvent *event)
{
    Document *doc = m_manager->document();
    const Viewport *vp = m_manager->viewport();
    if (!m_dragging) {
        if (doc)
            updateHover(event->position());
        return false;
    }
    m_cursor = event->position();
    Vec3 target;
    if (!doc || !toolbrush::pointOnViewPlane(*vp, event->position(), m_planePoint, &target))
        return true;
    if (m_mode == Mode::Grab) {
        if (doc->dragging()) {
            doc->dragTo(target);
            m_centre = target;
        }
    } else {
        if (const QString error = doc->push(target, m_manager->radius(), target - m_lastPush, m_manager->pushStrength());
            !error.isEmpty())
            m_manager->reportError(error);
        m_lastPush = target;
    }
    m_manager->viewport()->requestUpdate();
    emit overlayChanged();
    return true;
}

bool DragTool::mouseRelease(QMouseEvent *event)
{
    if (!m_dragging || event->button() != Qt::LeftButton)
        return false;
    finishGrab();
    updateHover(event->position());
    return true;
}

void DragTool::finishGrab()
{
    m_dragging = false;
    Document *doc = m_manager->document();
    if (m_mode == Mode::Push) {
        if (doc)
            doc->endGesture(tr("Push"));
        m_manager->updateCursor();
        return;
    }
    if (!doc || !doc->dragging()) {
        m_manager->updateCursor();
        return;
    }
    m_manager->updateCursor();
    doc->endDrag(tr("Drag"));
}

void DragTool::abort()
{
    if (!m_dragging)
        return;
    m_dragging = false;
    Document *doc = m_manager->document();
    if (doc && m_mode == Mode::Grab)
        doc->cancelDrag();
    else if (doc)
        doc->endGesture(tr("Push"));
    m_manager->updateCursor();
    emit overlayChanged();
}

void DragTool::reset()
{
    // The simulation the drag refers to is gone: forget it without touching anything.
    m_dragging = false;
    m_cloth = -1;
    m_hover = {};
    emit overlayChanged();
}

bool DragTool::wheel(QWheelEvent *event)
{
    if (!(event->modifiers() & Qt::ControlModifier))
        return false;
    const float steps = float(event->angleDelta().y()) / 120.f;
    m_manager->setRadius(m_manager->radius() * std::pow(1.15f, steps));
    emit overlayChanged();
    return true;
}

bool DragTool::keyPress(QKeyEvent *event)
{
    if (event->key() == Qt::Key_Escape && m_dragging) {
        abort();
        return true;
    }
    return false;
}

void DragTool::paintOverlay(QPainter &painter)
{
    const Viewport *vp = m_manager->viewport();
    if (!vp || !m_hasCursor)
        return;
    const Vec3 centre = m_dragging ? (m_mode == Mode::Grab ? m_centre : m_lastPush)
                                   : (m_hover.found ? m_hover.point : toolbrush::fallbackCentre(*vp, m_cursor));
    QPointF at = m_cursor;
    if (m_dragging || m_hover.found)
        vp->project(centre, &at);
    const float px = toolbrush::pixelRadius(*vp, centre, m_manager->radius());
    const QColor colour = m_mode == Mode::Push ? QColor(120, 200, 255) : QColor(255, 220, 90);
    toolbrush::paintCircle(painter, at, px, (m_hover.found || m_dragging) ? colour : colour.darker(160));
}

QCursor DragTool::cursor() const
{
    if (m_mode == Mode::Push)
        return Qt::CrossCursor;
    return m_dragging ? Qt::ClosedHandCursor : Qt::OpenHandCursor;
}

QString DragTool::statusHint() const
{
    if (m_mode == Mode::Push)
        return tr("Push: drag across the cloth to give it the mouse's motion. Ctrl+wheel: radius. "
                  "Recorded in the take; the stroke is one undo step.");
    return tr("Drag: grab the cloth under the cursor and carry it; release to let go (a flick throws it). "
              "Ctrl+wheel: radius, Esc/right-click: put back. Each drag is one undo step; at frame 0 a "
              "dragged pin moves in the scene.");
}

} // namespace drape
