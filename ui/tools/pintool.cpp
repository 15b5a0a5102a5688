#include "tools/pintool.h"

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

SurfaceHit PinTool::pinDotAt(const QPointF &pos) const
{
    // A pin is drawn as a dot: a click on the dot means that pin, even where the surface under
    // the cursor is nearer to another particle (the nearest pin on screen wins).
    SurfaceHit best;
    Document *doc = m_manager->document();
    const Viewport *vp = m_manager->viewport();
    if (!doc || !vp)
        return best;
    const ScreenProjection projection(*vp, doc->simulation());
    const QRectF around(pos - QPointF(kClickPixels, kClickPixels), QSizeF(2 * kClickPixels, 2 * kClickPixels));
    float bestDistance = kClickPixels;
    for (const PickHit &h : projection.particlesIn(around)) {
        const Particles &p = doc->simulation().cloths[std::size_t(h.cloth)].particles;
        if (p.kind[h.index] != ParticleKind::Static)
            continue;
        QPointF at;
        if (!vp->project(p.position[h.index], &at))
            continue;
        const float d = float(QLineF(at, pos).length());
        if (d <= bestDistance) {
            bestDistance = d;
            best = {true, h.cloth, h.index, p.position[h.index]};
        }
    }
    return best;
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
    m_pressHit = pinDotAt(event->position());
    if (!m_pressHit.found)
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
            if (const QString e = doc->beginDrag(m_pressHit.cloth, {m_pressHit.particle}, m_pressHit.point);
                !e.isEmpty()) {
                m_manager->reportError(e);
                m_state = State::Idle;
                return true;
            }
            m_planePoint = m_pressHit.point;
            m_state = State::MovePin;
            m_manager->updateCursor();
        } else {
            doc->beginGesture(); // the whole stroke is one undo step
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
                doc->dragTo(target);
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
    if (!hit.found || m_state != State::Brush)
        return;
    const Cloth &cloth = doc->simulation().cloths[std::size_t(hit.cloth)];
    const std::vector<std::uint32_t> near = particlesWithin(cloth, hit.point, m_manager->radius());
    if (const QString e = doc->setKind(hit.cloth, near, !m_unpin); !e.isEmpty())
        m_manager->reportError(e);
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
            error = doc->setKind(m_pressHit.cloth, {m_pressHit.particle}, !pinned,
                                 pinned ? tr("Unpin Particle") : tr("Pin Particle"));
        }
        break;
    case State::Box: {
        const ScreenProjection projection(*m_manager->viewport(), doc->simulation());
        std::vector<std::vector<std::uint32_t>> perCloth(doc->simulation().cloths.size());
        for (const PickHit &h : projection.particlesIn(QRectF(m_pressPos, event->position())))
            perCloth[std::size_t(h.cloth)].push_back(h.index);
        error = doc->setKinds(perCloth, !m_unpin, m_unpin ? tr("Unpin Box") : tr("Pin Box"));
        break;
    }
    case State::Brush:
        doc->endGesture(m_unpin ? tr("Unpin (Brush)") : tr("Pin (Brush)"));
        break;
    case State::MovePin:
        doc->endDrag(tr("Move Pin"));
        break;
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
    if (doc && m_state == State::Brush)
        doc->cancelGesture();
    if (doc && m_state == State::MovePin)
        doc->cancelDrag();
    m_state = State::Idle;
    m_manager->updateCursor();
    emit overlayChanged();
}

void PinTool::reset()
{
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
