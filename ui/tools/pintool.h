// Pin: a click toggles the pin of the particle under the cursor; Shift+drag pins every
// particle inside a rectangle; a drag started off a pin pins the particles the brush passes
// over; Ctrl makes the rectangle and the brush unpin. Dragging a pinned particle moves the
// pin, also while the simulation runs (curtain hooks). Each gesture is one undo step; Escape
// or a right-click during it undoes what it did so far.
#pragma once

#include "tools/tool.h"
#include "tools/toolbrush.h"

#include <QPointF>

#include <memory>

namespace drape {

class ToolManager;

class PinTool : public Tool {
    Q_OBJECT
public:
    explicit PinTool(ToolManager *manager, QObject *parent = nullptr);
    ~PinTool() override;

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

    static constexpr float kClickPixels = 10.f; ///< px, how near a particle a click must be
    static constexpr float kDragPixels = 4.f;   ///< px the mouse must move before a click becomes a drag

private:
    enum class State { Idle, Pressed, Box, Brush, MovePin };

    void brushAt(const QPointF &pos);
    /// The pin whose dot is nearest `pos` on screen, within kClickPixels.
    SurfaceHit pinDotAt(const QPointF &pos) const;
    void abort();

    ToolManager *m_manager;
    State m_state = State::Idle;
    bool m_unpin = false;        // Ctrl held at press
    QPointF m_pressPos;
    QPointF m_cursor;
    bool m_hasCursor = false;
    SurfaceHit m_pressHit;
    SurfaceHit m_hover;
    bool m_hoverPinned = false;
    Vec3 m_planePoint;
};

} // namespace drape
