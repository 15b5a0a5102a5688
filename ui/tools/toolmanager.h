// Owns the viewport tools (drag, push, pin, cut, constraint, transform), the exclusive action group and
// toolbar that choose between them, the settings they share (brush radius, cut radius, push
// strength, visible constraint kinds), the editing selection, and the pin actions. It sets
// the active tool on the viewport and makes the cut tool the secondary tool, so a right
// drag cuts whatever tool is active.
#pragma once

#include "tools/screenpick.h"

#include <QObject>
#include <QPointer>

#include <memory>
#include <vector>

class QAction;
class QActionGroup;
class QToolBar;
class QWidget;

namespace drape {

class ConstraintTool;
class CutTool;
class Document;
class DragTool;
class PinTool;
class Selection;
class Tool;
class TransformTool;
class Viewport;

class ToolManager : public QObject {
    Q_OBJECT
public:
    explicit ToolManager(Viewport *viewport, QObject *parent = nullptr);
    ~ToolManager() override;

    Viewport *viewport() const { return m_viewport; }
    Document *document() const; ///< the viewport's document (may be null)
    Selection *selection() const { return m_selection; }

    const std::vector<Tool *> &tools() const { return m_tools; }
    Tool *activeTool() const { return m_active; }
    void setActiveTool(Tool *tool);
    QAction *actionFor(Tool *tool) const;
    QActionGroup *actionGroup() const { return m_group; }
    /// A toolbar with the tools and the pin actions (owned by `parent`).
    QToolBar *createToolBar(QWidget *parent);

    DragTool *dragTool() const { return m_drag; }
    DragTool *pushTool() const { return m_push; }
    PinTool *pinTool() const { return m_pin; }
    CutTool *cutTool() const { return m_cut; }
    ConstraintTool *constraintTool() const { return m_constraint; }
    TransformTool *transformTool() const { return m_transform; }

    // Shared settings
    float radius() const { return m_radius; }           ///< m, brush radius of drag / push / pin
    void setRadius(float metres);
    float cutRadius() const { return m_cutRadius; }     ///< m, extra width of the knife
    void setCutRadius(float metres);
    float pushStrength() const { return m_pushStrength; } ///< 0..4, multiplies the push motion
    void setPushStrength(float factor);
    ConstraintKindMask visibleKinds() const { return m_visibleKinds; } ///< kinds the constraint tool shows and picks
    void setVisibleKinds(ConstraintKindMask kinds);

    static constexpr float kMinRadius = 0.005f; ///< m
    static constexpr float kMaxRadius = 2.f;    ///< m

    // Pin actions (one undo step each, over every cloth)
    QAction *pinTopEdgeAction() const { return m_pinTopEdge; }
    QAction *pinCornersAction() const { return m_pinCorners; }
    QAction *unpinAllAction() const { return m_unpinAll; }
    QAction *deleteConstraintsAction() const { return m_deleteConstraints; }
    void pinTopEdge();
    void pinCorners();
    void unpinAll();

    /// Pushes `command` on the document's undo stack (no-op for null or without a document).

    /// Reports a refused edit in the status bar.
    void reportError(const QString &message);
    /// Re-applies the active tool's cursor to the viewport (tools call it on hover changes).
    void updateCursor();

public slots:
    /// The main window replaced the document (New / Open / Revert): drop gestures and selection.
    void setDocument(drape::Document *document);

signals:
    void activeToolChanged(drape::Tool *tool);
    void radiusChanged(float metres);
    void cutRadiusChanged(float metres);
    void pushStrengthChanged(float factor);
    void visibleKindsChanged(unsigned kinds);
    /// A hint or an error for the status bar (timeout in ms, 0 = until replaced).
    void statusMessage(const QString &text, int timeoutMs);
    /// A cloth tore by itself while the simulation ran (the selection was re-resolved).
    void clothsTornWhileRunning();

private:
    void addTool(Tool *tool, const QString &shortcut, const QString &tip);
    void onDocumentChanged(unsigned what);
    void onStepped();
    void resetTools();

    Viewport *m_viewport;
    QPointer<Document> m_document;
    Selection *m_selection;
    std::vector<Tool *> m_tools;
    std::vector<QAction *> m_actions; // parallel to m_tools
    Tool *m_active = nullptr;
    QActionGroup *m_group;
    DragTool *m_drag = nullptr;
    DragTool *m_push = nullptr;
    PinTool *m_pin = nullptr;
    CutTool *m_cut = nullptr;
    ConstraintTool *m_constraint = nullptr;
    TransformTool *m_transform = nullptr;
    QAction *m_pinTopEdge = nullptr;
    QAction *m_pinCorners = nullptr;
    QAction *m_unpinAll = nullptr;
    QAction *m_deleteConstraints = nullptr;
    float m_radius = 0.08f;
    float m_cutRadius = 0.01f;
    float m_pushStrength = 1.f;
    ConstraintKindMask m_visibleKinds = kAllConstraintKinds;
    std::vector<QMetaObject::Connection> m_documentConnections;
    std::vector<std::uint64_t> m_revisions; // topology revision of each running cloth after the last step
};

} // namespace drape
