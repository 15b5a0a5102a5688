#include "tools/pintool.h"

#include "commands/editcommands.h"
#include "document/document.h"
#include "edit/pick.h"
#include "render/viewport.h"
#include "tools/screenpick.h"
#include "tools/toolmanager.h"
#include "widgets/icons.h"

#include <QKeyEvent>
#include <QLineF>
#include <QMouseEvent>
#include <QPainter>
#include <QWheelEvent>

#include <cmath>

namespace drape {

PinTool::PinTool(ToolManager *manager, QObject *parent)
    : Tool(tr("Pin"), toolIcon(QStringLiteral("pin")), parent), m_manager(manager)
{
}

PinTool::~PinTool() = default;

void PinTool::deactivate()
{
    abort();
    m_hasCursor = false;
    Tool::deactivate();
}

bool PinTool::mousePress(QMouseEvent *event)
{
    Document *doc = m_manager->document();
    if (!doc)
        return false;
    if (m_state != State::Idle) {
        if (event->button() == Qt::RightButton) {
            abort();
            return true;
        }
        return false;
    }
    if (event->button() != Qt::LeftButton)
        return false;
    m_pressPos = m_cursor = event->position();
    m_hasCursor = true;
    m_unpin = event->modifiers() & Qt::ControlModifier;
    if (event->modifiers() & Qt::ShiftModifier) {
        m_state = State::Box;
        emit overlayChanged();
        return true;
    }
    m_pressHit = toolbrush::surfaceAt(*m_manager->viewport(), event->position(), kClickPixels);
    m_state = State::Pressed;
    return true;
}

bool PinTool::mouseMove(QMouseEvent *event)
{
    Document *doc = m_manager->document();
    m_cursor = event->position();
    m_hasCursor = true;
    if (!doc)
        return false;
    Viewport *vp = m_manager->viewport();
    switch (m_state) {
    case State::Idle: {
        m_hover = toolbrush::surfaceAt(*vp, m_cursor, kClickPixels);
        const auto &cloths = doc->simulation().cloths;
        m_hoverPinned = m_hover.found
                        && cloths[std::size_t(m_hover.cloth)].particles.kind[m_hover.particle] == ParticleKind::Static;
        m_manager->updateCursor();
        emit overlayChanged();
        return false;
    }
    case State::Pressed: {
        if (QLineF(m_pressPos, m_cursor).length() < kDragPixels)
            return true;
        const auto &cloths = doc->simulation().cloths;
        const bool onPin = m_pressHit.found
                           && cloths[std::size_t(m_pressHit.cloth)].particles.kind[m_pressHit.particle]
                                  == ParticleKind::Static;
        if (onPin && !m_unpin) {
            const std::string e = m_grab.beginParticles(doc->simulation(), m_pressHit.cloth, {m_pressHit.particle},
                                                        m_pressHit.point);
            if (!e.empty()) {
                m_manager->reportError(QString::fromStdString(e));
                m_state = State::Idle;
                return true;
            }
            m_planePoint = m_pressHit.point;
            m_state = State::MovePin;
            m_manager->updateCursor();
        } else {
            m_brush = std::make_unique<ClothEditCommand>(doc, m_unpin ? tr("Unpin (Brush)") : tr("Pin (Brush)"));
            m_state = State::Brush;
            brushAt(m_pressPos);
        }
        [[fallthrough]];
    }
    case State::MovePin:
    case State::Brush:
        if (m_state == State::MovePin) {
            Vec3 target;
            if (toolbrush::pointOnViewPlane(*vp, m_cursor, m_planePoint, &target))
                m_grab.moveTo(doc->simulation(), target);
        } else if (m_state == State::Brush) {
            brushAt(m_cursor);
        }
        vp->requestUpdate();
        emit overlayChanged();
        return true;
    case State::Box:
        emit overlayChanged();
        return true;
    }
    return false;
}

void PinTool::brushAt(const QPointF &pos)
{
    Document *doc = m_manager->document();
    const SurfaceHit hit = toolbrush::surfaceAt(*m_manager->viewport(), pos,
                                                std::max(kClickPixels, toolbrush::pixelRadius(
                                                    *m_manager->viewport(), m_hover.point, m_manager->radius())));
    m_hover = hit;
    if (!hit.found || !m_brush)
        return;
    const Cloth &cloth = doc->simulation().cloths[std::size_t(hit.cloth)];
    const std::vector<std::uint32_t> near = particlesWithin(cloth, hit.point, m_manager->radius());
    ClothEditResult r = makeSetKind(cloth, near, m_unpin ? ParticleKind::Dynamic : ParticleKind::Static);
    if (r.ok() && !r.edit.empty())
        r.error = m_brush->applyEdit(hit.cloth, r.edit);
    if (!r.ok())
        m_manager->reportError(QString::fromStdString(r.error));
    doc->notify(Change::Pins);
}

bool PinTool::mouseRelease(QMouseEvent *event)
{
    Document *doc = m_manager->document();
    if (event->button() != Qt::LeftButton || m_state == State::Idle)
        return false;
    const State state = m_state;
    m_state = State::Idle;
    if (!doc)
        return true;
    QString error;
    switch (state) {
    case State::Idle:
        break;
    case State::Pressed:
        if (m_pressHit.found) {
            const bool pinned = doc->simulation().cloths[std::size_t(m_pressHit.cloth)].particles.kind[m_pressHit.particle]
                                == ParticleKind::Static;
            const std::uint32_t p = m_pressHit.particle;
            auto command = makePinCommand(doc, m_pressHit.cloth, std::span(&p, 1), !pinned, &error);
            m_manager->push(std::move(command));
        }
        break;
    case State::Box: {
        const ScreenProjection projection(*m_manager->viewport(), doc->simulation());
        std::vector<std::vector<std::uint32_t>> perCloth(doc->simulation().cloths.size());
        for (const PickHit &h : projection.particlesIn(QRectF(m_pressPos, event->position())))
            perCloth[std::size_t(h.cloth)].push_back(h.index);
        auto command = makePinCommand(doc, perCloth, !m_unpin, m_unpin ? tr("Unpin Box") : tr("Pin Box"), &error);
        m_manager->push(std::move(command));
        break;
    }
    case State::Brush:
        if (m_brush && !m_brush->isEmpty()) {
            m_brush->finish();
            m_manager->push(std::move(m_brush));
        }
        m_brush.reset();
        break;
    case State::MovePin: {
        const int cloth = m_grab.cloth();
        const ClothEdit moved = m_grab.release(doc->simulation());
        if (!moved.empty()) {
            auto command = std::make_unique<ClothEditCommand>(doc, tr("Move Pin"));
            command->recordApplied(cloth, moved);
            for (const ParticleChange &c : moved.particles)
                if (c.after.kind == ParticleKind::Static)
                    command->setRest(cloth, c.index, c.after.position);
            command->finish();
            m_manager->push(std::move(command));
        }
        break;
    }
    }
    if (!error.isEmpty())
        m_manager->reportError(error);
    m_manager->updateCursor();
    emit overlayChanged();
    return true;
}

void PinTool::abort()
{
    Document *doc = m_manager->document();
    if (doc && m_state == State::Brush && m_brush)
        m_brush->revertAll();
    if (doc && m_state == State::MovePin && m_grab.active()) {
        m_grab.cancel(doc->simulation());
        doc->notify(Change::Pins);
    }
    m_brush.reset();
    m_state = State::Idle;
    m_manager->updateCursor();
    emit overlayChanged();
}

void PinTool::reset()
{
    m_grab = Grab();
    m_brush.reset(); // its edits belonged to the simulation that was replaced
    m_state = State::Idle;
    m_hover = {};
    emit overlayChanged();
}

bool PinTool::wheel(QWheelEvent *event)
{
    if (!(event->modifiers() & Qt::ControlModifier))
        return false;
    m_manager->setRadius(m_manager->radius() * std::pow(1.15f, float(event->angleDelta().y()) / 120.f));
    emit overlayChanged();
    return true;
}

bool PinTool::keyPress(QKeyEvent *event)
{
    if (event->key() == Qt::Key_Escape && m_state != State::Idle) {
        abort();
        return true;
    }
    return false;
}

void PinTool::paintOverlay(QPainter &painter)
{
    Viewport *vp = m_manager->viewport();
    if (!vp || !m_hasCursor)
        return;
    const QColor pinColour(90, 220, 120);
    const QColor unpinColour(240, 90, 80);
    if (m_state == State::Box) {
        toolbrush::paintBox(painter, m_pressPos, m_cursor, m_unpin ? unpinColour : pinColour);
        return;
    }
    if (m_state == State::MovePin)
        return;
    if (m_hover.found && m_state == State::Idle) {
        QPointF at;
        if (vp->project(m_hover.point, &at)) {
            painter.save();
            painter.setRenderHint(QPainter::Antialiasing);
            painter.setPen(QPen(m_hoverPinned ? unpinColour : pinColour, 2.0));
            painter.setBrush(Qt::NoBrush);
            painter.drawEllipse(at, 6.0, 6.0);
            painter.restore();
        }
    }
    const Vec3 centre = m_hover.found ? m_hover.point : toolbrush::fallbackCentre(*vp, m_cursor);
    toolbrush::paintCircle(painter, m_cursor, toolbrush::pixelRadius(*vp, centre, m_manager->radius()),
                           m_unpin ? unpinColour : pinColour.darker(130));
}

QCursor PinTool::cursor() const
{
    if (m_state == State::MovePin)
        return Qt::ClosedHandCursor;
    if (m_state == State::Idle && m_hoverPinned)
        return Qt::OpenHandCursor;
    return Qt::PointingHandCursor;
}

QString PinTool::statusHint() const
{
    return tr("Pin: click toggles a pin. Drag a pin to move it. Drag elsewhere to brush pins on, "
              "Shift+drag for a box; hold Ctrl to unpin. Ctrl+wheel: radius, Esc: cancel.");
}

} // namespace drape
