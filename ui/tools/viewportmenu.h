// The viewport's right-click menu for the object under the cursor: pin or unpin the particle,
// make the cloth the one the Parameters dock edits, frame the cloth; and frame everything.
// A right click is a right press and release that did not move (a right drag cuts).
#pragma once

#include <QObject>
#include <QPointF>

class QMenu;

namespace drape {

class ToolManager;

class ViewportMenu : public QObject {
    Q_OBJECT
public:
    explicit ViewportMenu(ToolManager *tools, QObject *parent = nullptr);

    /// The menu for a click at `pos` (viewport logical pixels); the caller owns it.
    QMenu *menuAt(const QPointF &pos);

signals:
    /// "Select Cloth": the docks should edit this cloth.
    void clothChosen(int cloth);

private:
    ToolManager *m_tools;
};

} // namespace drape
