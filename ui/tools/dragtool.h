// Drag: grab the cloth within the brush radius and carry it with the mouse, in the plane that
// faces the camera through the grab point (the spring-mass fabric demo). Letting go hands the
// motion over, so a flick throws the cloth. The push variant does not hold the cloth: it gives
// the particles near the cursor the cursor's motion (the tearable-cloth left drag).
//
// Dragging free cloth is an interaction with the running simulation, not an edit of the
// scene: it is not an undo step and Reset undoes it. Dragging a pinned particle moves the pin,
// which is an edit (one "Move Pin" undo step). Escape or a right-click during the drag puts
// every grabbed particle back as it was.
#pragma once

#include "edit/grab.h"
#include "tools/tool.h"
#include "tools/toolbrush.h"

#include <QPointF>

namespace drape {

class ToolManager;

class DragTool : public Tool {
    Q_OBJECT
public:
    enum class Mode { Grab, Push };

    DragTool(Mode mode, ToolManager *manager, QObject *parent = nullptr);

    Mode mode() const { return m_mode; }
    bool isDragging() const { return m_dragging; }
    const Grab &grab() const { return m_grab; }

    void deactivate() override;
    bool mousePress(QMouseEvent *event) override;
    bool mouseMove(QMouseEvent *event) override;
    bool mouseRelease(QMouseEvent *event) override;
    bool wheel(QWheelEvent *event) override;
    bool keyPress(QKeyEvent *event) override;
    void reset() override;

    void paintOverlay(QPainter &painter) override;
    QCursor cursor() const override;
    QString statusHint() const override;

private:
    void updateHover(const QPointF &pos);
    void finishGrab();
    void abort();

    Mode m_mode;
    ToolManager *m_manager;
    Grab m_grab;
    bool m_dragging = false;
    Vec3 m_planePoint;   ///< m, the grab point (plane through it faces the camera)
    Vec3 m_lastPush;     ///< m, previous cursor point on the plane (push)
    QPointF m_cursor;
    SurfaceHit m_hover;
    bool m_hasCursor = false;
};

} // namespace drape
