#include "tools/toolmanager.h"

#include "document/document.h"
#include "document/selection.h"
#include "render/viewport.h"
#include "tools/constrainttool.h"
#include "tools/cuttool.h"
#include "tools/dragtool.h"
#include "tools/pinpresets.h"
#include "tools/pintool.h"
#include "tools/transformtool.h"
#include "widgets/icons.h"

#include <QAction>
#include <QActionGroup>
#include <QToolBar>

#include <algorithm>

namespace drape {

ToolManager::ToolManager(Viewport *viewport, QObject *parent)
    : QObject(parent), m_viewport(viewport), m_selection(new Selection(this)), m_group(new QActionGroup(this))
{
    m_group->setExclusive(true);
    m_drag = new DragTool(DragTool::Mode::Grab, this, this);
    m_push = new DragTool(DragTool::Mode::Push, this, this);
    m_pin = new PinTool(this, this);
    m_cut = new CutTool(this, this);
    m_constraint = new ConstraintTool(this, this);
    m_transform = new TransformTool(this, this);
    addTool(m_drag, QStringLiteral("D"), tr("Drag the cloth with the mouse"));
    addTool(m_push, QStringLiteral("U"), tr("Push the cloth with the mouse's motion"));
    addTool(m_pin, QStringLiteral("P"), tr("Pin and unpin particles, move pins"));
    addTool(m_cut, QStringLiteral("X"), tr("Cut the cloth along a stroke (right drag cuts with any tool)"));
    addTool(m_constraint, QStringLiteral("C"), tr("Select, remove and sew constraints"));
    addTool(m_transform, QStringLiteral("T"), tr("Move, rotate and scale a cloth or a collider"));

    m_pinTopEdge = new QAction(toolIcon(QStringLiteral("pin-top")), tr("Pin Top Edge"), this);
    m_pinTopEdge->setToolTip(tr("Pin the top edge of every cloth"));
    connect(m_pinTopEdge, &QAction::triggered, this, &ToolManager::pinTopEdge);
    m_pinCorners = new QAction(toolIcon(QStringLiteral("pin-corners")), tr("Pin Corners"), this);
    m_pinCorners->setToolTip(tr("Pin the corners of every cloth"));
    connect(m_pinCorners, &QAction::triggered, this, &ToolManager::pinCorners);
    m_unpinAll = new QAction(toolIcon(QStringLiteral("unpin-all")), tr("Unpin All"), this);
    m_unpinAll->setToolTip(tr("Unpin every particle"));
    connect(m_unpinAll, &QAction::triggered, this, &ToolManager::unpinAll);
    // Delete is an action (so Help ▸ Controls lists it) bound to the viewport: in a dock's field
    // the key keeps deleting text.
    m_deleteConstraints = new QAction(tr("Delete Selected Constraints"), this);
    m_deleteConstraints->setShortcuts({ QKeySequence(Qt::Key_Delete), QKeySequence(Qt::Key_Backspace) });
    m_deleteConstraints->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    connect(m_deleteConstraints, &QAction::triggered, this, [this] { m_constraint->removeSelected(); });
    if (m_viewport)
        m_viewport->addAction(m_deleteConstraints);

    if (m_viewport)
        m_viewport->setSecondaryTool(m_cut);
    setActiveTool(m_drag);
    setDocument(m_viewport ? m_viewport->document() : nullptr);
}

ToolManager::~ToolManager()
{
    if (m_viewport) {
        if (m_viewport->tool() && std::find(m_tools.begin(), m_tools.end(), m_viewport->tool()) != m_tools.end())
            m_viewport->setTool(nullptr);
        if (m_viewport->secondaryTool() == m_cut)
            m_viewport->setSecondaryTool(nullptr);
    }
}

Document *ToolManager::document() const
{
    return m_viewport ? m_viewport->document() : nullptr;
}

void ToolManager::addTool(Tool *tool, const QString &shortcut, const QString &tip)
{
    auto *action = new QAction(tool->icon(), tool->name(), m_group);
    action->setCheckable(true);
    action->setShortcut(QKeySequence(shortcut));
    action->setToolTip(QStringLiteral("%1 (%2)").arg(tip, shortcut));
    action->setStatusTip(tool->statusHint());
    connect(action, &QAction::triggered, this, [this, tool] { setActiveTool(tool); });
    connect(tool, &Tool::overlayChanged, this, [this] {
        if (m_viewport)
            m_viewport->requestUpdate();
    });
    connect(tool, &Tool::statusHintChanged, this, [this](const QString &hint) { emit statusMessage(hint, 0); });
    m_tools.push_back(tool);
    m_actions.push_back(action);
}

QAction *ToolManager::actionFor(Tool *tool) const
{
    for (std::size_t i = 0; i < m_tools.size(); ++i)
        if (m_tools[i] == tool)
            return m_actions[i];
    return nullptr;
}

void ToolManager::setActiveTool(Tool *tool)
{
    if (tool == m_active)
        return;
    m_active = tool;
    if (QAction *a = actionFor(tool))
        a->setChecked(true);
    if (m_viewport) {
        m_viewport->setTool(tool);
        updateCursor();
    }
    if (tool)
        emit statusMessage(tool->statusHint(), 0);
    emit activeToolChanged(tool);
}

QToolBar *ToolManager::createToolBar(QWidget *parent)
{
    auto *bar = new QToolBar(tr("Tools"), parent);
    bar->setObjectName(QStringLiteral("toolsToolBar"));
    bar->addActions(m_group->actions());
    bar->addSeparator();
    bar->addAction(m_pinTopEdge);
    bar->addAction(m_pinCorners);
    bar->addAction(m_unpinAll);
    return bar;
}

void ToolManager::setRadius(float metres)
{
    metres = std::clamp(metres, kMinRadius, kMaxRadius);
    if (metres == m_radius)
        return;
    m_radius = metres;
    emit radiusChanged(metres);
    if (m_viewport)
        m_viewport->requestUpdate();
}

void ToolManager::setCutRadius(float metres)
{
    metres = std::clamp(metres, 0.f, kMaxRadius);
    if (metres == m_cutRadius)
        return;
    m_cutRadius = metres;
    emit cutRadiusChanged(metres);
    if (m_viewport)
        m_viewport->requestUpdate();
}

void ToolManager::setPushStrength(float factor)
{
    factor = std::clamp(factor, 0.f, 4.f);
    if (factor == m_pushStrength)
        return;
    m_pushStrength = factor;
    emit pushStrengthChanged(factor);
}

void ToolManager::setVisibleKinds(ConstraintKindMask kinds)
{
    kinds &= kAllConstraintKinds;
    if (kinds == m_visibleKinds)
        return;
    m_visibleKinds = kinds;
    if (m_viewport)
        m_viewport->setConstraintKinds(kinds);
    emit visibleKindsChanged(kinds);
}

void ToolManager::pinTopEdge()
{
    Document *doc = document();
    if (!doc)
        return;
    std::vector<std::vector<std::uint32_t>> perCloth;
    for (std::size_t c = 0; c < doc->simulation().cloths.size() && c < doc->scene().cloths.size(); ++c)
        perCloth.push_back(topEdgeParticles(doc->scene().cloths[c], doc->simulation().cloths[c]));
    reportError(doc->setKinds(perCloth, true, tr("Pin Top Edge")));
}

void ToolManager::pinCorners()
{
    Document *doc = document();
    if (!doc)
        return;
    std::vector<std::vector<std::uint32_t>> perCloth;
    for (std::size_t c = 0; c < doc->simulation().cloths.size() && c < doc->scene().cloths.size(); ++c)
        perCloth.push_back(cornerParticles(doc->scene().cloths[c], doc->simulation().cloths[c]));
    reportError(doc->setKinds(perCloth, true, tr("Pin Corners")));
}

void ToolManager::unpinAll()
{
    Document *doc = document();
    if (!doc)
        return;
    std::vector<std::vector<std::uint32_t>> perCloth;
    for (const Cloth &cloth : doc->simulation().cloths) {
        std::vector<std::uint32_t> pinned;
        for (std::uint32_t i = 0; i < cloth.particles.size(); ++i)
            if (cloth.particles.kind[i] == ParticleKind::Static)
                pinned.push_back(i);
        perCloth.push_back(std::move(pinned));
    }
    reportError(doc->setKinds(perCloth, false, tr("Unpin All")));
}

void ToolManager::reportError(const QString &message)
{
    if (!message.isEmpty())
        emit statusMessage(message, 6000);
}

void ToolManager::updateCursor()
{
    if (m_viewport && m_active && m_viewport->tool() == m_active)
        m_viewport->setCursor(m_active->cursor());
}

void ToolManager::setDocument(Document *document)
{
    for (const QMetaObject::Connection &c : m_documentConnections)
        disconnect(c);
    m_documentConnections.clear();
    resetTools();
    m_selection->clear();
    m_document = document;
    if (!document)
        return;
    m_documentConnections.push_back(
        connect(document, &Document::changed, this, [this](Change what) { onDocumentChanged(unsigned(what)); }));
    m_documentConnections.push_back(connect(document, &Document::simulationStepped, this, &ToolManager::onStepped));
    m_documentConnections.push_back(connect(document, &Document::gridChanged, m_selection, &Selection::remapGrid));
    m_documentConnections.push_back(connect(document, &Document::simulationReset, this, [this] {
        resetTools();
        if (m_document)
            m_selection->revalidate(m_document->simulation().cloths);
    }));
}

void ToolManager::onDocumentChanged(unsigned what)
{
    if (!m_document)
        return;
    const Change w = Change(what);
    if (w & (Change::Topology | Change::Cloths))
        m_selection->revalidate(m_document->simulation().cloths);
}

void ToolManager::onStepped()
{
    if (!m_document)
        return;
    const std::vector<Cloth> &cloths = m_document->simulation().cloths;
    bool changed = cloths.size() != m_revisions.size();
    m_revisions.resize(cloths.size());
    for (std::size_t i = 0; i < cloths.size(); ++i) {
        changed = changed || m_revisions[i] != cloths[i].topologyRevision;
        m_revisions[i] = cloths[i].topologyRevision;
    }
    if (!changed)
        return;
    m_selection->revalidate(cloths);
    emit clothsTornWhileRunning();
}

void ToolManager::resetTools()
{
    for (Tool *t : m_tools)
        t->reset();
}

} // namespace drape
