// Edit menu: Undo and Redo of the open document's stack (through a QUndoGroup, so the
// actions follow the document when it is replaced).
#pragma once

#include <QObject>

class QAction;
class QMenu;
class QUndoGroup;

namespace drape {

class EditActions : public QObject {
    Q_OBJECT
public:
    EditActions(QUndoGroup *group, QObject *parent);

    void populate(QMenu *menu);
    QAction *undoAction() const { return m_undo; }
    QAction *redoAction() const { return m_redo; }

private:
    QAction *m_undo;
    QAction *m_redo;
};

} // namespace drape
