#include "actions/helpactions.h"

#include "render/viewport.h"
#include "widgets/icons.h"

#include <QAction>
#include <QApplication>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDockWidget>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QRegularExpression>
#include <QSet>
#include <QTextBrowser>
#include <QVBoxLayout>

#include <nlohmann/json_fwd.hpp> // NLOHMANN_JSON_VERSION_* for About

namespace drape {

namespace {

struct Control {
    const char *input;
    const char *action;
};

// Mouse controls are not actions, so they are listed here; every keyboard control comes from
// the actions themselves (controlsHtml()).
const Control kMouseControls[] = {
    { QT_TRANSLATE_NOOP("HelpActions", "Left button"),
        QT_TRANSLATE_NOOP("HelpActions", "The active tool (drag, push, pin, cut, constraint)") },
    { QT_TRANSLATE_NOOP("HelpActions", "Right drag"),
        QT_TRANSLATE_NOOP("HelpActions", "Cut the cloth (from any tool)") },
    { QT_TRANSLATE_NOOP("HelpActions", "Right click"),
        QT_TRANSLATE_NOOP("HelpActions", "Menu for the object under the cursor") },
    { QT_TRANSLATE_NOOP("HelpActions", "Middle drag / Alt + left drag"),
        QT_TRANSLATE_NOOP("HelpActions", "Orbit the camera") },
    { QT_TRANSLATE_NOOP("HelpActions", "Shift + middle drag / Alt + Shift + left drag"),
        QT_TRANSLATE_NOOP("HelpActions", "Pan") },
    { QT_TRANSLATE_NOOP("HelpActions", "Mouse wheel"),
        QT_TRANSLATE_NOOP("HelpActions", "Zoom toward the cursor") },
    { QT_TRANSLATE_NOOP("HelpActions", "Ctrl + wheel"),
        QT_TRANSLATE_NOOP("HelpActions", "Tool radius (tools with a brush)") },
    { QT_TRANSLATE_NOOP("HelpActions", "Escape"),
        QT_TRANSLATE_NOOP("HelpActions", "Abort the current drag and restore what it changed") },
};

QString row(const QString &input, const QString &action)
{
    return QStringLiteral("<tr><td><b>%1</b></td><td>%2</td></tr>")
        .arg(input.toHtmlEscaped(), action.toHtmlEscaped());
}

QString plainText(const QAction *action)
{
    QString text = action->text();
    text.remove(QRegularExpression(QStringLiteral("&(?!&)")));
    text.remove(QStringLiteral("…"));
    return text.trimmed();
}

QString keysOf(const QAction *action)
{
    QStringList keys;
    for (const QKeySequence &k : action->shortcuts())
        keys << k.toString(QKeySequence::NativeText);
    return keys.join(QStringLiteral(" / "));
}

/// Rows for every action with a shortcut in `menu` and its submenus, named "Menu ▸ Action".
void collect(const QMenu *menu, const QString &path, QSet<const QAction *> &seen, QString &html)
{
    for (const QAction *action : menu->actions()) {
        if (action->menu()) {
            collect(action->menu(), path + plainText(action) + QStringLiteral(" ▸ "), seen, html);
            continue;
        }
        if (action->isSeparator() || action->shortcuts().isEmpty() || seen.contains(action))
            continue;
        seen.insert(action);
        html += row(keysOf(action), path + plainText(action));
    }
}

} // namespace

HelpActions::HelpActions(QWidget *window) : QObject(window), m_window(window) {}

void HelpActions::populate(QMenu *menu)
{
    QAction *controls = menu->addAction(tr("&Controls…"), this, &HelpActions::showControls);
    controls->setShortcuts({ QKeySequence(Qt::Key_F1) });
    menu->addSeparator();
    QAction *about = menu->addAction(tr("&About Drape"), this, &HelpActions::showAbout);
    about->setMenuRole(QAction::AboutRole);
    menu->addAction(tr("About &Qt"), qApp, &QApplication::aboutQt)->setMenuRole(QAction::AboutQtRole);
}

QString HelpActions::controlsHtml() const
{
    QString html = QStringLiteral("<h3>%1</h3><table cellspacing='0' cellpadding='3'>").arg(tr("Mouse"));
    for (const Control &c : kMouseControls)
        html += row(tr(c.input), tr(c.action));
    html += QStringLiteral("</table><h3>%1</h3><table cellspacing='0' cellpadding='3'>").arg(tr("Keyboard"));
    QSet<const QAction *> seen;
    if (auto *main = qobject_cast<QMainWindow *>(m_window)) {
        for (const QAction *top : main->menuBar()->actions()) {
            if (top->menu())
                collect(top->menu(), plainText(top) + QStringLiteral(" ▸ "), seen, html);
        }
    }
    // Shortcuts that live on the window or the viewport without a menu entry.
    QList<QAction *> loose = m_window->actions();
    if (const auto *viewport = m_window->findChild<Viewport *>())
        loose += viewport->actions();
    for (const QAction *action : std::as_const(loose)) {
        if (action->shortcuts().isEmpty() || seen.contains(action))
            continue;
        seen.insert(action);
        html += row(keysOf(action), plainText(action));
    }
    // Shortcuts of a dock's list (the Outliner's Rename, Duplicate, …), named after the dock.
    for (const QDockWidget *dock : m_window->findChildren<QDockWidget *>()) {
        for (const QWidget *w : dock->findChildren<QWidget *>()) {
            for (const QAction *action : w->actions()) {
                if (action->shortcuts().isEmpty() || seen.contains(action))
                    continue;
                seen.insert(action);
                html += row(keysOf(action), dock->windowTitle() + QStringLiteral(": ") + plainText(action));
            }
        }
    }
    return html + QStringLiteral("</table>");
}

void HelpActions::showControls()
{
    QDialog dialog(m_window);
    dialog.setObjectName(QStringLiteral("ControlsDialog"));
    dialog.setWindowTitle(tr("Controls"));
    auto *text = new QTextBrowser(&dialog);
    text->setHtml(controlsHtml());
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, &dialog);
    connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    auto *layout = new QVBoxLayout(&dialog);
    layout->addWidget(text);
    layout->addWidget(buttons);
    dialog.resize(560, 640);
    dialog.exec();
}

QString HelpActions::aboutHtml() const
{
    const auto *viewport = m_window->findChild<Viewport *>();
    const QString renderer
        = viewport && !viewport->glRenderer().isEmpty() ? viewport->glRenderer() : tr("not started yet");
    const QString glVersion
        = viewport && !viewport->glVersion().isEmpty() ? viewport->glVersion() : tr("unknown");
    return tr("<h3>Drape %1</h3><p>A cloth simulation editor: design cloth scenes, tune the physics while it "
              "runs, pin, drag, cut, sew and tear cloth by hand, and export video.</p>"
              "<p>Solvers: XPBD (Macklin, Müller &amp; Chentanez 2016), position Verlet with relaxation "
              "(Jakobsen 2001), and mass-spring with explicit integration.</p>"
              "<p><b>OpenGL renderer:</b> %2<br><b>OpenGL version:</b> %3</p>"
              "<p><b>Built with</b><br>"
              "Qt %4 (run time %5), under the GNU LGPL version 3<br>"
              "nlohmann/json %6.%7.%8 by Niels Lohmann, under the MIT licence<br>"
              "libepoxy, under the MIT licence<br>"
              "Asset import through Open Asset Import Library (assimp), under the 3-clause BSD licence, "
              "where built with it</p>"
              "<p><b>Uses when installed</b><br>"
              "FFmpeg, run as an external program for video export; under the GNU LGPL 2.1 or later "
              "(GPL 2 or later for some builds), not linked into Drape</p>")
        .arg(QApplication::applicationVersion(), renderer.toHtmlEscaped(), glVersion.toHtmlEscaped(),
            QStringLiteral(QT_VERSION_STR), QString::fromLatin1(qVersion()))
        .arg(NLOHMANN_JSON_VERSION_MAJOR)
        .arg(NLOHMANN_JSON_VERSION_MINOR)
        .arg(NLOHMANN_JSON_VERSION_PATCH);
}

void HelpActions::showAbout()
{
    QMessageBox box(m_window);
    box.setObjectName(QStringLiteral("AboutDialog"));
    box.setWindowTitle(tr("About Drape"));
    box.setIconPixmap(icon(IconId::App).pixmap(64, 64));
    box.setText(aboutHtml());
    box.exec();
}

} // namespace drape
