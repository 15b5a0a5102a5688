// Transform: places the chosen cloth or collider with a gizmo. A click on an object chooses
// it (so does choosing it in the Parameters dock); G, R and S switch between moving (an axis arrow or a plane square), rotating (a ring
// about a world axis) and scaling (uniformly, from the centre square or the circle). Ctrl
// snaps: 0.05 m, 15°, 10 %. The whole drag is one undo step; Escape or a right-click puts
// everything back. A cloth's placement moves its rest geometry and pins (a structural edit,
// so the playhead returns to the start); a collider's centre, rotation and size are
// parameters (at a later frame they are recorded in the take; a moving collider keeps its
// motion about the new centre). The Parameters dock shows the same values as numbers.
#pragma once

#include "scene/scene.h"
#include "tools/gizmo.h"
#include "tools/tool.h"

#include <QPointF>

namespace drape {

class ToolManager;

class TransformTool : public Tool {
    Q_OBJECT
public:
    enum class Target { None, Cloth, Collider };

    static constexpr float kSnapMetres = 0.05f;
    static constexpr float kSnapDegrees = 15.f;
    static constexpr float kSnapScale = 0.1f;

    explicit TransformTool(ToolManager *manager, QObject *parent = nullptr);

    Target target() const { return m_target; }
    int targetIndex() const { return m_index; }
    /// Chooses the object the gizmo places (Target::None hides it).
    void setTarget(Target target, int index);
    GizmoMode mode() const { return m_mode; }
    void setMode(GizmoMode mode);
    bool isDragging() const { return m_handle != GizmoHandle::None; }
    /// m, where the gizmo is: the placed cloth's centre or the collider's rest centre.
    Vec3 gizmoCentre() const;

    void deactivate() override;
    bool mousePress(QMouseEvent *event) override;
    bool mouseMove(QMouseEvent *event) override;
    bool mouseRelease(QMouseEvent *event) override;
    bool keyPress(QKeyEvent *event) override;
    void reset() override;
    void paintOverlay(QPainter &painter) override;
    QCursor cursor() const override;
    QString statusHint() const override;

signals:
    /// The user chose an object by clicking it (the Parameters dock follows).
    void targetChosen(drape::TransformTool::Target target, int index);

private:
    bool targetValid() const;
    void pick(const QPointF &pos);
    /// Applies the drag from the press to `pos` (snapped with Ctrl) to the document.
    void dragTo(const QPointF &pos, bool snap);
    void abort();

    ToolManager *m_manager;
    Target m_target = Target::None;
    int m_index = -1;
    GizmoMode m_mode = GizmoMode::Move;
    GizmoHandle m_hover = GizmoHandle::None;
    GizmoHandle m_handle = GizmoHandle::None; ///< held by the drag
    QPointF m_press;
    Vec3 m_pressCentre;       ///< m, gizmo centre at the press (the drag is measured about it)
    Placement m_startCloth;   ///< the cloth's placement at the press
    Vec3 m_startCentre;       ///< the collider's rest centre at the press
    Vec3 m_startRotation;     ///< the collider's rotation at the press
    float m_appliedScale = 1.f; ///< collider size factor applied so far in this drag
};

} // namespace drape
