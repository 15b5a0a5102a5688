// Cut: drag a stroke across the cloth; every constraint the stroke passes through (within
// the cut radius) is removed as the mouse moves, with the triangles that lose an edge (the
// tearable-cloth right drag; core/edit/cut.h does the geometry). The whole stroke is one undo
// step; Escape undoes it before release. It is also the viewport's secondary tool, so a
// right drag cuts whatever tool is active.
#pragma once

#include "base/ray.h"
#include "tools/tool.h"

#include <QPointF>
#include <QVector>

#include <memory>

namespace drape {

class ToolManager;

class CutTool : public Tool {
    Q_OBJECT
public:
    explicit CutTool(ToolManager *manager, QObject *parent = nullptr);
    ~CutTool() override;

    bool isCutting() const { return m_button != Qt::NoButton; }

    void deactivate() override;
    bool mousePress(QMouseEvent *event) override;
    bool mouseMove(QMouseEvent *event) override;
    bool mouseRelease(QMouseEvent *event) override;
    bool wheel(QWheelEvent *event) override;
    bool keyPress(QKeyEvent *event) override;
    void reset() override;

    void paintOverlay(QPainter &painter) override;
    QCursor cursor() const override { return Qt::CrossCursor; }
    QString statusHint() const override;

private:
    void cutTo(const QPointF &pos);
    void abort();

    ToolManager *m_manager;
    Qt::MouseButton m_button = Qt::NoButton; // the button that started the stroke
    Ray m_lastRay;
    QVector<QPointF> m_trail; // the stroke on screen, for the overlay
    QPointF m_cursor;
    bool m_hasCursor = false;
    int m_removed = 0; // constraints cut by the stroke so far
};

} // namespace drape
