// Drag: grab the cloth within the brush radius and carry it with the mouse, in the plane that
// faces the camera through the grab point (the spring-mass fabric demo). Letting go hands the
// motion over, so a flick throws the cloth. The push variant does not hold the cloth: it gives
// the particles near the cursor the cursor's motion (the tearable-cloth left drag).
//
// A drag is one undo step from press to release, recorded in the take at the playhead (the
// cursor's target for every frame it lasts; a push, one event per frame it moves), so a
// replay does the same. At frame 0 dragging a pin moves the pin in the scene instead (a
// "Move Pin" scene edit: the hook stays where it was dropped, after Reset too). Escape or a
// right-click during the drag puts everything back as it was before the press.
#pragma once

#include "tools/tool.h"
#include "tools/toolbrush.h"

#include <QPointF>

#include <cstdint>
#include <vector>

namespace drape {

class ToolManager;

class DragTool : public Tool {
    Q_OBJECT
public:
    enum class Mode { Grab, Push };

    DragTool(Mode mode, ToolManager *manager, QObject *parent = nullptr);

    Mode mode() const { return m_mode; }
    bool isDragging() const { return m_dragging; }

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
    bool m_dragging = false;
    int m_cloth = -1;    ///< cloth held by the drag
    Vec3 m_centre;       ///< m, where the grab point is now
    Vec3 m_planePoint;   ///< m, the grab point (plane through it faces the camera)
    Vec3 m_lastPush;     ///< m, previous cursor point on the plane (push)
    QPointF m_cursor;
    SurfaceHit m_hover;
    bool m_hasCursor = false;
};

} // namespace drape
