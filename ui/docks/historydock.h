// The undo history: every edit of the open scene, newest at the bottom; clicking an entry
// goes back (or forward) to it. Right click: undo or redo to the entry under the cursor, or
// back to the scene as it was opened (every step stays in the list, so redo returns).
#pragma once

#include <QDockWidget>

class QMenu;
class QUndoGroup;
class QUndoView;

namespace drape {

class HistoryDock : public QDockWidget {
    Q_OBJECT
public:
    /// Shows the active stack of `group` (the open document's).
    explicit HistoryDock(QUndoGroup *group, QWidget *parent = nullptr);

    QUndoView *view() const { return m_view; }
    /// The right-click menu for the point `pos` of the list (viewport coordinates); the caller owns it.
    QMenu *menuAt(const QPoint &pos);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    QUndoGroup *m_group;
    QUndoView *m_view;
};

} // namespace drape
