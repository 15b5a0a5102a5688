#include "tools/cuttool.h"

#include "document/document.h"
#include "edit/cut.h"
#include "render/viewport.h"
#include "tools/toolbrush.h"
#include "tools/toolmanager.h"
#include "widgets/icons.h"

#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QWheelEvent>

#include <cmath>

namespace drape {

CutTool::CutTool(ToolManager *manager, QObject *parent)
    : Tool(tr("Cut"), toolIcon(QStringLiteral("cut")), parent), m_manager(manager)
{
}

CutTool::~CutTool() = default;

void CutTool::deactivate()
{
    // The secondary tool is never activated; only the primary role ends here.
    if (m_button == Qt::LeftButton)
        abort();
    m_hasCursor = false;
    Tool::deactivate();
}

bool CutTool::mousePress(QMouseEvent *event)
{
    Document *doc = m_manager->document();
    if (!doc)
        return false;
    if (isCutting()) {
        // Another button during the stroke aborts it.
        abort();
        return true;
    }
    if (event->button() != Qt::LeftButton && event->button() != Qt::RightButton)
        return false;
    m_button = event->button();
    doc->beginGesture(); // the whole stroke is one undo step
    m_lastRay = m_manager->viewport()->rayAt(event->position());
    m_trail = {event->position()};
    m_cursor = event->position();
    m_hasCursor = true;
    m_removed = 0;
    cutTo(event->position()); // a click cuts what lies under it
    return true;
}

void CutTool::cutTo(const QPointF &pos)
{
    Document *doc = m_manager->document();
    const Ray ray = m_manager->viewport()->rayAt(pos);
    CutSettings settings;
    settings.radius = m_manager->cutRadius();
    const SimulationCut cut = makeCutStroke(doc->simulation(), m_lastRay, ray, settings);
    m_lastRay = ray;
    if (!cut.ok()) {
        m_manager->reportError(QString::fromStdString(cut.error));
        return;
    }
    for (std::size_t i = 0; i < cut.cloths.size(); ++i) {
        std::vector<std::uint32_t> indices;
        for (const IndexedConstraint &c : cut.edits[i].removedConstraints)
            indices.push_back(c.index);
        if (indices.empty())
            continue;
        if (const QString e = doc->removeConstraints(cut.cloths[i], indices, true, tr("Cut")); !e.isEmpty()) {
            m_manager->reportError(e);
            continue;
        }
        m_removed += int(indices.size());
    }
}

bool CutTool::mouseMove(QMouseEvent *event)
{
    m_cursor = event->position();
    m_hasCursor = true;
    if (!isCutting() || !m_manager->document()) {
        emit overlayChanged();
        return false;
    }
    cutTo(event->position());
    m_trail.push_back(event->position());
    if (m_trail.size() > 256)
        m_trail.remove(0, m_trail.size() - 256);
    m_manager->viewport()->requestUpdate();
    emit overlayChanged();
    return true;
}

bool CutTool::mouseRelease(QMouseEvent *event)
{
    if (!isCutting() || event->button() != m_button)
        return false;
    m_button = Qt::NoButton;
    m_trail.clear();
    if (Document *doc = m_manager->document())
        doc->endGesture(m_removed == 1 ? tr("Cut 1 Constraint") : tr("Cut %1 Constraints").arg(m_removed));
    emit overlayChanged();
    return true;
}

void CutTool::abort()
{
    if (isCutting() && m_manager->document())
        m_manager->document()->cancelGesture();
    m_button = Qt::NoButton;
    m_trail.clear();
    emit overlayChanged();
}

void CutTool::reset()
{
    // The document was replaced or reset under the stroke; its gesture ended with it.
    m_button = Qt::NoButton;
    m_trail.clear();
    emit overlayChanged();
}

bool CutTool::wheel(QWheelEvent *event)
{
    if (!(event->modifiers() & Qt::ControlModifier))
        return false;
    const float r = std::max(m_manager->cutRadius(), 0.001f);
    m_manager->setCutRadius(r * std::pow(1.15f, float(event->angleDelta().y()) / 120.f));
    emit overlayChanged();
    return true;
}

bool CutTool::keyPress(QKeyEvent *event)
{
    if (event->key() == Qt::Key_Escape && isCutting()) {
        abort();
        return true;
    }
    return false;
}

void CutTool::paintOverlay(QPainter &painter)
{
    Viewport *vp = m_manager->viewport();
    if (!vp || !m_hasCursor)
        return;
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing);
    if (m_trail.size() > 1) {
        painter.setPen(QPen(QColor(255, 80, 60, 200), 2.0, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin));
        painter.drawPolyline(m_trail.constData(), int(m_trail.size()));
    }
    painter.restore();
    const Vec3 centre = toolbrush::fallbackCentre(*vp, m_cursor);
    const float px = std::max(2.f, toolbrush::pixelRadius(*vp, centre, m_manager->cutRadius()));
    toolbrush::paintCircle(painter, m_cursor, px, QColor(255, 110, 90));
}

QString CutTool::statusHint() const
{
    return tr("Cut: drag across the cloth to cut it (a right drag cuts with any tool). "
              "Ctrl+wheel: cut radius, Esc: undo the stroke before release.");
}

} // namespace drape
