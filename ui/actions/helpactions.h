// Help menu: a dialog listing every mouse and keyboard control, and About.
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
    /// The controls as an HTML table (also used by `drape --help` in plain form).
    static QString controlsHtml();

public slots:
    void showControls();
    void showAbout();

private:
    QWidget *m_window;
};

} // namespace drape
