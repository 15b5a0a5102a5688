// Keeps the mouse wheel from editing values while the user scrolls a panel. Sliders, spin
// boxes and combo boxes take wheel events by default, so scrolling a long list of parameters
// changed whichever row passed under the cursor (frame rate, fabric, ...) and pushed an undo
// step for each. A guarded control takes the wheel only when it has keyboard focus (a click
// or Tab gives it); otherwise the wheel goes on to the enclosing scroll area.
#pragma once

#include <QObject>

class QWidget;

namespace drape {

class WheelGuard : public QObject {
    Q_OBJECT
public:
    /// Guards `control`: its focus policy becomes Qt::StrongFocus (the wheel no longer focuses
    /// it) and unfocused wheel events pass to its parent. One guard object serves every control.
    static void install(QWidget *control);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    using QObject::QObject;
    static WheelGuard *instance();
};

} // namespace drape
