#include "docks/historydock.h"

#include <QUndoGroup>
#include <QUndoView>

namespace drape {

HistoryDock::HistoryDock(QUndoGroup *group, QWidget *parent)
    : QDockWidget(tr("History"), parent), m_view(new QUndoView(group, this))
{
    setObjectName(QStringLiteral("HistoryDock"));
    m_view->setEmptyLabel(tr("<scene opened>"));
    m_view->setAlternatingRowColors(true);
    setWidget(m_view);
}

} // namespace drape
