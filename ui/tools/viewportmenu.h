// The viewport's right-click menu for the object under the cursor: pin or unpin the particle,
// make the cloth (or the collider under the cursor) the one the Outliner and the Parameters
// dock show, frame the cloth; frame everything, and the Add menu.
// A right click is a right press and release that did not move (a right drag cuts). A left
// click that no tool took selects the object under the cursor the same way.
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
    /// The Add menu, offered at the end of the menu (new objects go to the focus point).
    void setAddMenu(QMenu *menu) { m_addMenu = menu; }
    /// The visible collider under `pos` (a ray test), or -1.
    int colliderAt(const QPointF &pos) const;

signals:
    /// "Select Cloth": the docks should edit this cloth.
    void clothChosen(int cloth);
    /// "Select Collider": the docks should edit this collider.
    void colliderChosen(int collider);

private:
    ToolManager *m_tools;
    QMenu *m_addMenu = nullptr;
};

} // namespace drape
