// Help menu: Controls (F1), a list of every keyboard shortcut read from the window's own actions
// (so it cannot drift from them) plus the mouse controls; About with the version, the OpenGL
// renderer in use and the licences.
#pragma once

#include <QObject>

class QMenu;
class QWidget;

namespace drape {

class HelpActions : public QObject {
    Q_OBJECT
public:
    explicit HelpActions(QWidget *window);

    void populate(QMenu *menu);
    /// The controls as an HTML table: the mouse controls, then every action of the window's
    /// menus (and of the window itself) that has a shortcut, under its menu's name.
    QString controlsHtml() const;
    /// The About text: version, OpenGL renderer and version, licences.
    QString aboutHtml() const;

public slots:
    void showControls();
    void showAbout();

private:
    QWidget *m_window;
};

} // namespace drape
