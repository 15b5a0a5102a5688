#include "widgets/wheelguard.h"

#include <QCoreApplication>
#include <QEvent>
#include <QWidget>

namespace drape {

WheelGuard *WheelGuard::instance()
{
    // Parented to the application so it lives as long as any widget it watches.
    static WheelGuard *guard = new WheelGuard(QCoreApplication::instance());
    return guard;
}

void WheelGuard::install(QWidget *control)
{
    if (!control)
        return;
    control->setFocusPolicy(Qt::StrongFocus);
    control->installEventFilter(instance());
}

bool WheelGuard::eventFilter(QObject *watched, QEvent *event)
{
    if (event->type() == QEvent::Wheel) {
        auto *control = qobject_cast<QWidget *>(watched);
        if (control && !control->hasFocus()) {
            // Swallowed here but left unaccepted: QApplication then offers it to the parent
            // widgets, so the scroll area around the control scrolls.
            event->ignore();
            return true;
        }
    }
    return QObject::eventFilter(watched, event);
}

} // namespace drape
