// Lets the window's playback shortcuts (Space: play/pause, Ctrl+R: reset) work wherever the
// keyboard focus is — a spin box, a slider, a list in a dock — except in a field where the user
// types free text, where Space must stay a space.
//
// How: before a key press becomes a shortcut, Qt sends a ShortcutOverride event to the focus
// widget, and widgets that want the key (a spin box wants Space) accept it, which suppresses the
// shortcut. This filter answers that event for them with "not wanted" for the listed keys.
#pragma once

#include <QKeySequence>
#include <QList>
#include <QObject>

class QWidget;

namespace drape {

class ShortcutFilter : public QObject {
    Q_OBJECT
public:
    /// Watches the application's ShortcutOverride events for widgets inside `window`.
    ShortcutFilter(QWidget *window, QList<QKeySequence> keys);

    /// True for widgets the user types free text into (a line edit that is not part of a spin box,
    /// text and plain-text editors).
    static bool isTextField(const QObject *widget);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    QWidget *m_window;
    QList<QKeySequence> m_keys;
};

} // namespace drape
