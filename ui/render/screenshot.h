// The "Save Screenshot" action (F12): saves the 3D view as it is shown (scene, overlays and
// tool highlights) as a PNG in the user's Pictures folder, named with a timestamp, and
// reports the path (or why it failed) in the status bar.
#pragma once

#include <QObject>
#include <QPointer>
#include <QString>

class QAction;
class QStatusBar;

namespace drape {

class Viewport;

class ScreenshotAction : public QObject {
    Q_OBJECT
public:
    ScreenshotAction(Viewport *viewport, QStatusBar *statusBar, QObject *parent = nullptr);

    QAction *action() const { return m_action; }
    /// Where screenshots go: the Pictures folder (the home folder when there is none).
    static QString folder();
    /// Saves the view into `folder` as drape-YYYYMMDD-HHMMSS.png (with -2, -3... when the
    /// name exists). Returns the path, or empty with `error` naming the path and the reason.
    QString save(const QString &folder, QString *error);

private:
    void trigger();

    QPointer<Viewport> m_viewport;
    QPointer<QStatusBar> m_statusBar;
    QAction *m_action = nullptr;
};

} // namespace drape
