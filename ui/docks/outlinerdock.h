// The Outliner: every cloth and collider of the scene with its kind and size. Select one to
// edit it in the Parameters dock (its Properties), rename it in place (F2 or a double click),
// hide it from the viewport (its check box), duplicate, reorder (drag it, or Alt+Up / Down) or
// delete it; several selected
// objects are hidden, duplicated or deleted together, as one undo step.
#pragma once

#include "document/document.h"

#include <QDockWidget>
#include <QPointer>

#include <vector>

class QAction;
class QMenu;
class QTreeWidget;
class QTreeWidgetItem;

namespace drape {

class OutlinerDock : public QDockWidget {
    Q_OBJECT
public:
    explicit OutlinerDock(QWidget *parent = nullptr);

    void setDocument(Document *document);
    QTreeWidget *tree() const { return m_tree; }
    /// The Add menu, offered in the list's context menu.
    void setAddMenu(QMenu *menu) { m_addMenu = menu; }

    /// The selected objects, in scene order.
    std::vector<SceneObject> selectedObjects() const;
    /// Makes `objects` the selection (the first one current): a click in the viewport, an added object.
    void select(const std::vector<SceneObject> &objects);
    /// The item of `object`, or null.
    QTreeWidgetItem *itemOf(const SceneObject &object) const;

    QAction *renameAction() const { return m_rename; }
    QAction *duplicateAction() const { return m_duplicate; }
    QAction *hideAction() const { return m_hide; }
    QAction *moveUpAction() const { return m_moveUp; }
    QAction *moveDownAction() const { return m_moveDown; }
    QAction *deleteAction() const { return m_delete; }

protected:
    /// Drops in the list: an object dragged onto another of its kind moves to its place.
    bool eventFilter(QObject *watched, QEvent *event) override;

signals:
    /// The current object changed: the Parameters dock shows its properties.
    void objectChosen(const drape::SceneObject &object);
    void statusMessage(const QString &text);

private:
    void createActions();
    void refresh();
    void updateActions();
    void onItemChanged(QTreeWidgetItem *item, int column);
    void deleteSelected();
    void duplicateSelected();
    void toggleHidden();
    void moveCurrent(int delta);
    void report(const QString &error);
    void showMenu(const QPoint &pos);

    QPointer<Document> m_document;
    QTreeWidget *m_tree;
    QTreeWidgetItem *m_clothGroup = nullptr;
    QTreeWidgetItem *m_colliderGroup = nullptr;
    QMenu *m_addMenu = nullptr;
    QAction *m_rename = nullptr;
    QAction *m_duplicate = nullptr;
    QAction *m_hide = nullptr;
    QAction *m_moveUp = nullptr;
    QAction *m_moveDown = nullptr;
    QAction *m_delete = nullptr;
    bool m_refreshing = false;
    /// The lists' lengths at the last refresh of the same document: objects appended since
    /// (added from the Add menu, imported, restored) become the selection.
    std::size_t m_cloths = 0;
    std::size_t m_colliders = 0;
};

} // namespace drape
