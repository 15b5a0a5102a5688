// Constraint: select and sew. A click on a constraint selects it (Shift toggles it in the
// selection), a drag on empty space selects the constraints inside the rectangle, Delete
// removes the selection. A click on a particle starts a stitch and a click on a second
// particle of the same cloth adds a constraint between them: rest length = their current
// distance, or 0 with Ctrl to sew them together (the viewport keeps Alt+left for orbiting,
// so Alt cannot be the modifier here). The constraint dock edits the
// selection's properties.
#pragma once

#include "edit/clothedit.h"

#include "tools/screenpick.h"
#include "tools/tool.h"

#include <QPointF>

namespace drape {

class Document;

class ToolManager;

class ConstraintTool : public Tool {
    Q_OBJECT
public:
    explicit ConstraintTool(ToolManager *manager, QObject *parent = nullptr);

    static constexpr float kParticlePixels = 6.f;   ///< px, a click this near a particle picks it
    static constexpr float kConstraintPixels = 5.f; ///< px, a click this near a constraint picks it
    static constexpr float kDragPixels = 4.f;

    /// The first particle of a stitch in progress (cloth -1 when none).
    PickHit stitchStart() const { return m_first; }
    /// Removes the selected constraints (one undo step). False when nothing is selected.
    bool removeSelected();

    void deactivate() override;
    bool mousePress(QMouseEvent *event) override;
    bool mouseMove(QMouseEvent *event) override;
    bool mouseRelease(QMouseEvent *event) override;
    bool keyPress(QKeyEvent *event) override;
    void reset() override;

    void paintOverlay(QPainter &painter) override;
    QCursor cursor() const override { return Qt::CrossCursor; }
    QString statusHint() const override;

private:
    enum class State { Idle, Pressed, Box };
    void clickAt(const QPointF &pos, Qt::KeyboardModifiers modifiers);
    void clickAtImpl(const QPointF &pos, Qt::KeyboardModifiers modifiers);
    /// A stitch between particles a and b: the fabric's stiffness and tearing, rest length
    /// their distance, or 0 when `together` pulls them onto each other.
    static NewConstraintDef stitchDef(const Document &doc, int cloth, std::uint32_t a, std::uint32_t b, bool together);

    ToolManager *m_manager;
    State m_state = State::Idle;
    QPointF m_pressPos;
    QPointF m_cursor;
    bool m_hasCursor = false;
    Qt::KeyboardModifiers m_pressModifiers;
    PickHit m_first;            // stitch start
    PickHit m_hoverParticle;
    PickHit m_hoverConstraint;
};

} // namespace drape
