#include "actions/shortcutfilter.h"

#include <QAbstractSpinBox>
#include <QApplication>
#include <QComboBox>
#include <QKeyEvent>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QTextEdit>

namespace drape {

ShortcutFilter::ShortcutFilter(QWidget *window, QList<QKeySequence> keys)
    : QObject(window)
    , m_window(window)
    , m_keys(std::move(keys))
{
    qApp->installEventFilter(this);
}

bool ShortcutFilter::isTextField(const QObject *widget)
{
    if (const auto *edit = qobject_cast<const QLineEdit *>(widget)) {
        // A spin box's or an editable combo's line edit takes numbers or picks an entry, not text.
        const QObject *owner = edit->parent();
        if (qobject_cast<const QAbstractSpinBox *>(owner) || qobject_cast<const QComboBox *>(owner))
            return false;
        return !edit->isReadOnly();
    }
    if (const auto *text = qobject_cast<const QTextEdit *>(widget))
        return !text->isReadOnly();
    if (const auto *plain = qobject_cast<const QPlainTextEdit *>(widget))
        return !plain->isReadOnly();
    return false;
}

bool ShortcutFilter::eventFilter(QObject *watched, QEvent *event)
{
    if (event->type() != QEvent::ShortcutOverride)
        return QObject::eventFilter(watched, event);
    auto *widget = qobject_cast<QWidget *>(watched);
    if (!widget || widget->window() != m_window || isTextField(widget))
        return QObject::eventFilter(watched, event);
    const auto *key = static_cast<QKeyEvent *>(event);
    const QKeySequence pressed(key->keyCombination());
    if (!m_keys.contains(pressed))
        return QObject::eventFilter(watched, event);
    // Left unaccepted, the event lets the shortcut map trigger the window's action.
    event->ignore();
    return true;
}

} // namespace drape
