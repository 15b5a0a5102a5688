#include "tools/dragtool.h"

#include "commands/clotheditcommand.h"
#include "document/document.h"
#include "render/viewport.h"
#include "tools/toolmanager.h"
#include "widgets/icons.h"

#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QWheelEvent>

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
        m_dragging = true;
        return true;
    }
    if (!m_hover.found)
        return false;
    const std::string error = m_grab.begin(doc->simulation(), m_hover.cloth, m_hover.point, m_manager->radius());
    if (!error.empty()) {
        m_manager->reportError(QString::fromStdString(error));
        return true;
    }
    m_planePoint = m_hover.point;
    m_dragging = true;
    m_manager->updateCursor();
    doc->notify(Change::Pins);
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
        if (const std::string e = m_grab.moveTo(doc->simulation(), target); !e.empty())
            m_manager->reportError(QString::fromStdString(e));
    } else {
        std::string error;
        push(doc->simulation(), target, m_manager->radius(), target - m_lastPush, m_manager->pushStrength(), &error);
        if (!error.empty())
            m_manager->reportError(QString::fromStdString(error));
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
    if (!doc || !m_grab.active()) {
        m_manager->updateCursor();
        return;
    }
    const int cloth = m_grab.cloth();
    const ClothEdit moved = m_grab.release(doc->simulation());
    m_manager->updateCursor();
    if (moved.empty()) {
        doc->notify(Change::Pins);
        return;
    }
    // Moved pins are an edit: the hook stays where it was dropped, after Reset too.
    auto command = std::make_unique<ClothEditCommand>(doc, tr("Move Pin"));
    command->recordApplied(cloth, moved);
    for (const ParticleChange &c : moved.particles) {
        if (c.after.kind == ParticleKind::Static)
            command->setRest(cloth, c.index, c.after.position);
    }
    command->finish();
    m_manager->push(std::move(command));
}

void DragTool::abort()
{
    if (!m_dragging)
        return;
    m_dragging = false;
    Document *doc = m_manager->document();
    if (doc && m_grab.active()) {
        m_grab.cancel(doc->simulation());
        doc->notify(Change::Pins);
    }
    m_manager->updateCursor();
    emit overlayChanged();
}

void DragTool::reset()
{
    // The simulation the grab refers to is gone: forget it without touching anything.
    m_grab = Grab();
    m_dragging = false;
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
    const Vec3 centre = m_dragging ? (m_mode == Mode::Grab ? m_grab.centre() : m_lastPush)
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
                  "An interaction, not an undo step.");
    return tr("Drag: grab the cloth under the cursor and carry it; release to let go (a flick throws it). "
              "Ctrl+wheel: radius, Esc/right-click: put back. Moving a pin is undoable; dragging free "
              "cloth is not (Reset restores it).");
}

} // namespace drape
