#include "actions/editactions.h"

#include <QAction>
#include <QMenu>
#include <QUndoGroup>

namespace drape {

EditActions::EditActions(QUndoGroup *group, QObject *parent)
    : QObject(parent), m_undo(group->createUndoAction(this, tr("&Undo"))), m_redo(group->createRedoAction(this, tr("&Redo")))
{
    m_undo->setShortcuts(QKeySequence::Undo);
    QList<QKeySequence> redoKeys = QKeySequence::keyBindings(QKeySequence::Redo);
    // Both common redo bindings, whatever the desktop's standard one is.
    for (const QKeySequence &k : {QKeySequence(QStringLiteral("Ctrl+Shift+Z")), QKeySequence(QStringLiteral("Ctrl+Y"))}) {
        if (!redoKeys.contains(k))
            redoKeys << k;
    }
    m_redo->setShortcuts(redoKeys);
}

void EditActions::populate(QMenu *menu)
{
    menu->addAction(m_undo);
    menu->addAction(m_redo);
}

} // namespace drape
