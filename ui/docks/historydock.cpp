#include "docks/historydock.h"

#include <QMenu>
#include <QMouseEvent>
#include <QUndoGroup>
#include <QUndoStack>
#include <QUndoView>

namespace drape {

HistoryDock::HistoryDock(QUndoGroup *group, QWidget *parent)
    : QDockWidget(tr("History"), parent), m_group(group), m_view(new QUndoView(group, this))
{
    setObjectName(QStringLiteral("HistoryDock"));
    m_view->setEmptyLabel(tr("<scene opened>"));
    m_view->setAlternatingRowColors(true);
    m_view->setContextMenuPolicy(Qt::CustomContextMenu);
    m_view->viewport()->installEventFilter(this);
    connect(m_view, &QUndoView::customContextMenuRequested, this, [this](const QPoint &pos) {
        QMenu *menu = menuAt(pos);
        menu->setAttribute(Qt::WA_DeleteOnClose);
        menu->popup(m_view->viewport()->mapToGlobal(pos));
    });
    setWidget(m_view);
}

bool HistoryDock::eventFilter(QObject *watched, QEvent *event)
{
    // A right click opens the menu; it must not already move through the history (a plain
    // press on a row selects it, and QUndoView goes to the selected step).
    if (watched == m_view->viewport()
        && (event->type() == QEvent::MouseButtonPress || event->type() == QEvent::MouseButtonDblClick)
        && static_cast<QMouseEvent *>(event)->button() == Qt::RightButton)
        return true;
    return QDockWidget::eventFilter(watched, event);
}

QMenu *HistoryDock::menuAt(const QPoint &pos)
{
    auto *menu = new QMenu(m_view);
    menu->setObjectName(QStringLiteral("HistoryMenu"));
    QUndoStack *stack = m_group->activeStack();
    // Row 0 is the opened scene, row i the state after step i: going to row i sets index i.
    const QModelIndex at = m_view->indexAt(pos);
    if (stack && at.isValid()) {
        const int row = at.row();
        QAction *go = menu->addAction(row < stack->index() ? tr("Undo to Here") : tr("Redo to Here"),
            stack, [stack, row] { stack->setIndex(row); });
        go->setEnabled(row != stack->index());
    }
    QAction *start = menu->addAction(tr("Undo Everything (Back to the Opened Scene)"), this, [this] {
        if (QUndoStack *s = m_group->activeStack())
            s->setIndex(0);
    });
    start->setEnabled(stack && stack->index() > 0);
    menu->addSeparator();
    menu->addAction(m_group->createUndoAction(menu));
    menu->addAction(m_group->createRedoAction(menu));
    return menu;
}

} // namespace drape
