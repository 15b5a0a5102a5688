#include "tools/constrainttool.h"

#include "document/document.h"
#include "document/selection.h"
#include "render/viewport.h"
#include "tools/toolbrush.h"
#include "tools/toolmanager.h"
#include "widgets/icons.h"

#include <QKeyEvent>
#include <QLineF>
#include <QMouseEvent>
#include <QPainter>

#include <algorithm>

namespace drape {

ConstraintTool::ConstraintTool(ToolManager *manager, QObject *parent)
    : Tool(tr("Constraint"), toolIcon(QStringLiteral("constraint")), parent), m_manager(manager)
{
}

void ConstraintTool::deactivate()
{
    m_state = State::Idle;
    m_first = {};
    m_hasCursor = false;
    Tool::deactivate();
}

bool ConstraintTool::mousePress(QMouseEvent *event)
{
    if (!m_manager->document())
        return false;
    if (m_state != State::Idle) {
        if (event->button() == Qt::RightButton) {
            m_state = State::Idle;
            emit overlayChanged();
            return true;
        }
        return false;
    }
    if (event->button() != Qt::LeftButton)
        return false;
    m_state = State::Pressed;
    m_pressPos = m_cursor = event->position();
    m_pressModifiers = event->modifiers();
    return true;
}

bool ConstraintTool::mouseMove(QMouseEvent *event)
{
    Document *doc = m_manager->document();
    m_cursor = event->position();
    m_hasCursor = true;
    if (!doc)
        return false;
    if (m_state == State::Pressed && QLineF(m_pressPos, m_cursor).length() >= kDragPixels)
        m_state = State::Box;
    if (m_state == State::Idle) {
        const ScreenProjection projection(*m_manager->viewport(), doc->simulation());
        m_hoverParticle = projection.nearestParticle(m_cursor, kParticlePixels);
        m_hoverConstraint = m_hoverParticle.valid()
                                ? PickHit{}
                                : projection.nearestConstraint(m_cursor, kConstraintPixels, m_manager->visibleKinds());
    }
    emit overlayChanged();
    return m_state != State::Idle;
}

bool ConstraintTool::mouseRelease(QMouseEvent *event)
{
    Document *doc = m_manager->document();
    if (event->button() != Qt::LeftButton || m_state == State::Idle)
        return false;
    const State state = m_state;
    m_state = State::Idle;
    if (!doc)
        return true;
    if (state == State::Pressed) {
        clickAt(m_pressPos, m_pressModifiers);
    } else {
        const ScreenProjection projection(*m_manager->viewport(), doc->simulation());
        const int cloth = (m_pressModifiers & Qt::ShiftModifier) ? m_manager->selection()->cloth() : -1;
        std::vector<PickHit> hits = projection.constraintsIn(QRectF(m_pressPos, event->position()),
                                                             m_manager->visibleKinds(), cloth);
        // A selection belongs to one cloth: the one with the most constraints in the box.
        std::vector<std::size_t> counts(doc->simulation().cloths.size(), 0);
        for (const PickHit &h : hits)
            ++counts[std::size_t(h.cloth)];
        const int best = counts.empty() ? -1 : int(std::max_element(counts.begin(), counts.end()) - counts.begin());
        std::vector<std::uint32_t> indices;
        for (const PickHit &h : hits)
            if (h.cloth == best)
                indices.push_back(h.index);
        Selection *sel = m_manager->selection();
        if (indices.empty() && !(m_pressModifiers & Qt::ShiftModifier))
            sel->clear();
        else if (!indices.empty()) {
            const Cloth &c = doc->simulation().cloths[std::size_t(best)];
            if (m_pressModifiers & Qt::ShiftModifier)
                sel->addConstraints(c, best, indices);
            else
                sel->setConstraints(c, best, indices);
        }
    }
    emit overlayChanged();
    return true;
}

NewConstraintDef ConstraintTool::stitchDef(const Document &doc, int cloth, std::uint32_t a, std::uint32_t b,
                                           bool together)
{
    // A stitch is as stiff as the fabric's weave and tears like it.
    const Cloth &c = doc.simulation().cloths[std::size_t(cloth)];
    const ClothDesc &desc = doc.settings().cloths[std::size_t(cloth)];
    NewConstraintDef def;
    def.restLength = together ? 0.f : -1.f;
    const float restLength = together ? 0.f
                                      : (a < c.particles.size() && b < c.particles.size()
                                             ? length(c.particles.position[a] - c.particles.position[b])
                                             : 0.f);
    float spacing = 0.f;
    for (const DistanceConstraint &k : c.constraints)
        if (k.kind == ConstraintKind::Structural) {
            spacing = k.restLength;
            break;
        }
    if (!(spacing > 0.f))
        spacing = 0.01f;
    const ConstraintParams p = materialParams(desc.material, ConstraintKind::Structural, std::max(restLength, spacing),
                                              spacing);
    def.compliance = p.compliance;
    def.damping = p.damping;
    def.tearStrain = p.tearStrain;
    def.kind = ConstraintKind::User;
    return def;
}

void ConstraintTool::clickAt(const QPointF &pos, Qt::KeyboardModifiers modifiers)
{
    const bool stitching = m_first.valid();
    clickAtImpl(pos, modifiers);
    if (m_first.valid() != stitching)
        emit statusHintChanged(statusHint());
}

void ConstraintTool::clickAtImpl(const QPointF &pos, Qt::KeyboardModifiers modifiers)
{
    Document *doc = m_manager->document();
    Selection *sel = m_manager->selection();
    const ScreenProjection projection(*m_manager->viewport(), doc->simulation());
    PickHit particle = projection.nearestParticle(pos, kParticlePixels);
    if (!particle.valid() && m_first.valid()) {
        // The second click of a stitch always means a particle: the nearer end of the
        // constraint under the cursor when no particle is close enough.
        const PickHit under = projection.nearestConstraint(pos, kConstraintPixels, kAllConstraintKinds);
        if (under.valid() && under.cloth == m_first.cloth) {
            const Cloth &c = doc->simulation().cloths[std::size_t(under.cloth)];
            const DistanceConstraint &k = c.constraints[under.index];
            QPointF a, b;
            m_manager->viewport()->project(c.particles.position[k.a], &a);
            m_manager->viewport()->project(c.particles.position[k.b], &b);
            particle = under;
            particle.index = QLineF(a, pos).length() <= QLineF(b, pos).length() ? k.a : k.b;
        }
    }
    if (particle.valid()) {
        if (!m_first.valid() || m_first.cloth >= int(doc->simulation().cloths.size())) {
            m_first = particle;
            sel->setParticles(particle.cloth, {particle.index});
            return;
        }
        if (particle.cloth != m_first.cloth) {
            m_manager->reportError(tr("A stitch joins particles of one cloth; this particle belongs to cloth %1, "
                                      "the first to cloth %2.").arg(particle.cloth).arg(m_first.cloth));
            return;
        }
        if (particle.index == m_first.index) {
            m_first = {};
            sel->setParticles(particle.cloth, {});
            return;
        }
        const bool together = modifiers & (Qt::AltModifier | Qt::ControlModifier);
        const int cloth = particle.cloth;
        const QString error = doc->sew(cloth, m_first.index, particle.index,
                                       stitchDef(*doc, cloth, m_first.index, particle.index, together),
                                       together ? tr("Sew Particles Together") : tr("Add Constraint"));
        if (!error.isEmpty()) {
            m_manager->reportError(error);
            return;
        }
        m_first = {};
        // Select the new stitch so the dock shows it.
        const Cloth &c = doc->simulation().cloths[std::size_t(cloth)];
        sel->setConstraints(c, cloth, {std::uint32_t(c.constraints.size() - 1)});
        sel->setParticles(cloth, {});
        return;
    }
    const PickHit constraint = projection.nearestConstraint(pos, kConstraintPixels, m_manager->visibleKinds());
    if (constraint.valid()) {
        const Cloth &c = doc->simulation().cloths[std::size_t(constraint.cloth)];
        if (modifiers & Qt::ShiftModifier)
            sel->addConstraints(c, constraint.cloth, {constraint.index}, true);
        else
            sel->setConstraints(c, constraint.cloth, {constraint.index});
        return;
    }
    m_first = {};
    if (!(modifiers & Qt::ShiftModifier))
        sel->clear();
}

bool ConstraintTool::removeSelected()
{
    Document *doc = m_manager->document();
    Selection *sel = m_manager->selection();
    if (!doc || sel->cloth() < 0 || sel->constraints().empty())
        return false;
    const int cloth = sel->cloth();
    const std::vector<std::uint32_t> indices = sel->constraints();
    const std::size_t oldCount = doc->simulation().cloths[std::size_t(cloth)].constraints.size();
    const QString error = doc->removeConstraints(cloth, indices, false,
                                                 indices.size() == 1 ? tr("Remove Constraint")
                                                                     : tr("Remove %1 Constraints").arg(indices.size()));
    if (!error.isEmpty()) {
        m_manager->reportError(error);
        return false;
    }
    // Removal is a stable compaction: the survivors keep their order (edit/clothedit.h).
    std::vector<std::uint32_t> map(oldCount, Selection::kRemoved);
    std::uint32_t next = 0;
    for (std::uint32_t i = 0; i < oldCount; ++i)
        if (!std::binary_search(indices.begin(), indices.end(), i))
            map[i] = next++;
    sel->remapConstraints(cloth, map);
    return true;
}

bool ConstraintTool::keyPress(QKeyEvent *event)
{
    if (event->key() == Qt::Key_Delete || event->key() == Qt::Key_Backspace)
        return removeSelected();
    if (event->key() == Qt::Key_Escape) {
        const bool busy = m_state != State::Idle || m_first.valid();
        m_state = State::Idle;
        if (m_first.valid())
            m_manager->selection()->setParticles(m_first.cloth, {});
        m_first = {};
        emit overlayChanged();
        return busy;
    }
    return false;
}

void ConstraintTool::reset()
{
    m_state = State::Idle;
    m_first = {};
    m_hoverParticle = {};
    m_hoverConstraint = {};
    emit overlayChanged();
}

void ConstraintTool::paintOverlay(QPainter &painter)
{
    Viewport *vp = m_manager->viewport();
    Document *doc = m_manager->document();
    if (!vp || !doc)
        return;
    const Simulation &sim = doc->simulation();
    const Selection *sel = m_manager->selection();
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing);
    auto drawConstraint = [&](int cloth, std::uint32_t k, const QPen &pen) {
        if (cloth < 0 || cloth >= int(sim.cloths.size()) || k >= sim.cloths[std::size_t(cloth)].constraints.size())
            return;
        const Cloth &c = sim.cloths[std::size_t(cloth)];
        const DistanceConstraint &dc = c.constraints[k];
        QPointF a;
        QPointF b;
        if (vp->project(c.particles.position[dc.a], &a) && vp->project(c.particles.position[dc.b], &b)) {
            painter.setPen(pen);
            painter.drawLine(a, b);
        }
    };
    const QPen selected(QColor(255, 150, 40), 3.0, Qt::SolidLine, Qt::RoundCap);
    for (std::uint32_t k : sel->constraints())
        drawConstraint(sel->cloth(), k, selected);
    if (m_state == State::Idle && m_hoverConstraint.valid())
        drawConstraint(m_hoverConstraint.cloth, m_hoverConstraint.index, QPen(QColor(255, 240, 120), 2.0));
    auto ring = [&](const PickHit &h, const QColor &colour) {
        if (!h.valid() || h.cloth >= int(sim.cloths.size()) || h.index >= sim.cloths[std::size_t(h.cloth)].particles.size())
            return QPointF();
        QPointF at;
        if (vp->project(sim.cloths[std::size_t(h.cloth)].particles.position[h.index], &at)) {
            painter.setPen(QPen(colour, 2.0));
            painter.setBrush(Qt::NoBrush);
            painter.drawEllipse(at, 5.0, 5.0);
        }
        return at;
    };
    if (m_first.valid()) {
        const QPointF from = ring(m_first, QColor(120, 220, 255));
        if (m_hasCursor) {
            painter.setPen(QPen(QColor(120, 220, 255), 1.5, Qt::DashLine));
            painter.drawLine(from, m_cursor);
        }
    }
    if (m_state == State::Idle)
        ring(m_hoverParticle, QColor(200, 240, 255));
    painter.restore();
    if (m_state == State::Box && m_hasCursor)
        toolbrush::paintBox(painter, m_pressPos, m_cursor, QColor(255, 170, 60));
}

QString ConstraintTool::statusHint() const
{
    if (m_first.valid())
        return tr("Click a second particle to sew (Ctrl+click: sew together, rest length 0). Esc: cancel.");
    return tr("Constraint: click a constraint to select it (Shift toggles), drag a box to select, Delete removes. "
              "Click two particles to add a constraint between them.");
}

} // namespace drape
