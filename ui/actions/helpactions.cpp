#include "actions/helpactions.h"

#include "widgets/icons.h"

#include <QApplication>
#include <QDialog>
#include <QDialogButtonBox>
#include <QMenu>
#include <QMessageBox>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace drape {

namespace {

struct Control {
    const char *input;
    const char *action;
};

const Control kControls[] = {
    {QT_TRANSLATE_NOOP("HelpActions", "Middle drag / Alt + left drag"), QT_TRANSLATE_NOOP("HelpActions", "Orbit the camera")},
    {QT_TRANSLATE_NOOP("HelpActions", "Shift + middle drag / Alt + Shift + left drag"), QT_TRANSLATE_NOOP("HelpActions", "Pan")},
    {QT_TRANSLATE_NOOP("HelpActions", "Mouse wheel"), QT_TRANSLATE_NOOP("HelpActions", "Zoom toward the cursor")},
    {QT_TRANSLATE_NOOP("HelpActions", "F"), QT_TRANSLATE_NOOP("HelpActions", "Frame everything")},
    {QT_TRANSLATE_NOOP("HelpActions", "Ctrl+1 / Ctrl+3 / Ctrl+7"), QT_TRANSLATE_NOOP("HelpActions", "Front / side / top view")},
    {QT_TRANSLATE_NOOP("HelpActions", "Left button"), QT_TRANSLATE_NOOP("HelpActions", "The active tool (drag, pin, cut, sew…)")},
    {QT_TRANSLATE_NOOP("HelpActions", "Right drag"), QT_TRANSLATE_NOOP("HelpActions", "Cut the cloth (from any tool)")},
    {QT_TRANSLATE_NOOP("HelpActions", "Ctrl + wheel"), QT_TRANSLATE_NOOP("HelpActions", "Tool radius (tools with a brush)")},
    {QT_TRANSLATE_NOOP("HelpActions", "Escape"), QT_TRANSLATE_NOOP("HelpActions", "Abort the current drag")},
    {QT_TRANSLATE_NOOP("HelpActions", "Space"), QT_TRANSLATE_NOOP("HelpActions", "Play / pause")},
    {QT_TRANSLATE_NOOP("HelpActions", "."), QT_TRANSLATE_NOOP("HelpActions", "Step one frame")},
    {QT_TRANSLATE_NOOP("HelpActions", "Ctrl+R"), QT_TRANSLATE_NOOP("HelpActions", "Reset the simulation to the scene's start")},
    {QT_TRANSLATE_NOOP("HelpActions", "1 / 2 / 3"), QT_TRANSLATE_NOOP("HelpActions", "Smooth / flat / checker shading")},
    {QT_TRANSLATE_NOOP("HelpActions", "W, H, Shift+H"), QT_TRANSLATE_NOOP("HelpActions", "Wireframe, strain heat map, stress heat map (N/m)")},
    {QT_TRANSLATE_NOOP("HelpActions", "Shift+P, Shift+C"), QT_TRANSLATE_NOOP("HelpActions", "Particles, constraints")},
    {QT_TRANSLATE_NOOP("HelpActions", "Ctrl+Z / Ctrl+Shift+Z"), QT_TRANSLATE_NOOP("HelpActions", "Undo / redo")},
    {QT_TRANSLATE_NOOP("HelpActions", "Ctrl+S / Ctrl+Shift+S"), QT_TRANSLATE_NOOP("HelpActions", "Save / save as")},
    {QT_TRANSLATE_NOOP("HelpActions", "F11"), QT_TRANSLATE_NOOP("HelpActions", "Full screen")},
};

} // namespace

HelpActions::HelpActions(QWidget *window) : QObject(window), m_window(window) {}

void HelpActions::populate(QMenu *menu)
{
    QAction *controls = menu->addAction(tr("&Controls…"), this, &HelpActions::showControls);
    controls->setShortcut(QKeySequence::HelpContents);
    menu->addSeparator();
    QAction *about = menu->addAction(tr("&About Drape"), this, &HelpActions::showAbout);
    about->setMenuRole(QAction::AboutRole);
    menu->addAction(tr("About &Qt"), qApp, &QApplication::aboutQt)->setMenuRole(QAction::AboutQtRole);
}

QString HelpActions::controlsHtml()
{
    QString html = QStringLiteral("<table cellspacing='0' cellpadding='4'>");
    for (const Control &c : kControls) {
        html += QStringLiteral("<tr><td><b>%1</b></td><td>%2</td></tr>")
                    .arg(tr(c.input).toHtmlEscaped(), tr(c.action).toHtmlEscaped());
    }
    return html + QStringLiteral("</table>");
}

void HelpActions::showControls()
{
    QDialog dialog(m_window);
    dialog.setWindowTitle(tr("Controls"));
    auto *text = new QTextBrowser(&dialog);
    text->setHtml(controlsHtml());
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, &dialog);
    connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    auto *layout = new QVBoxLayout(&dialog);
    layout->addWidget(text);
    layout->addWidget(buttons);
    dialog.resize(520, 520);
    dialog.exec();
}

void HelpActions::showAbout()
{
    QMessageBox box(m_window);
    box.setWindowTitle(tr("About Drape"));
    box.setIconPixmap(icon(IconId::App).pixmap(64, 64));
    box.setText(tr("<h3>Drape %1</h3><p>A cloth simulation editor: design cloth scenes, tune the physics "
                   "while it runs, pin, drag, cut, sew and tear cloth by hand, and export video.</p>"
                   "<p>Solvers: XPBD (Macklin, Müller &amp; Chentanez 2016), position Verlet with relaxation "
                   "(Jakobsen 2001), and mass-spring with explicit integration.</p>")
                    .arg(QApplication::applicationVersion()));
    box.exec();
}

} // namespace drape
