// The undo history: every edit of the open scene, newest at the bottom; clicking an entry
// goes back (or forward) to it.
#pragma once

#include <QDockWidget>

class QUndoGroup;
class QUndoView;

namespace drape {

class HistoryDock : public QDockWidget {
    Q_OBJECT
public:
    /// Shows the active stack of `group` (the open document's).
    explicit HistoryDock(QUndoGroup *group, QWidget *parent = nullptr);

    QUndoView *view() const { return m_view; }

private:
    QUndoView *m_view;
};

} // namespace drape
