// A new user's first hour: the icons read on light and dark themes, Help ▸ Controls lists every
// shortcut from the actions, About names the version, the OpenGL renderer and the licences, the
// blow-up advice goes into a banner that Reset clears, playback keys work from a dock's spin
// box, status hints are not cut off at 1600 px, and the first-run layout leaves the viewport
// at least 60 % of the width. Right-click menus in the docks, and View ▸ Fabric Look with a
// clear message for a picture that cannot be read.
#include "actions/helpactions.h"
#include "actions/shortcutfilter.h"
#include "actions/simulationactions.h"
#include "actions/viewactions.h"
#include "appsettings.h"
#include "docks/constraintdock.h"
#include "docks/historydock.h"
#include "docks/parametersdock.h"
#include "docks/paramrow.h"
#include "docks/recorddock.h"
#include "docks/toolsdock.h"
#include "document/selection.h"
#include "document/document.h"
#include "document/presetcatalog.h"
#include "document/simulationcontroller.h"
#include "mainwindow.h"
#include "presetdocument.h"
#include "render/resources.h"
#include "render/viewport.h"
#include "scene/params.h"
#include "tools/cuttool.h"
#include "tools/toolmanager.h"
#include "tools/viewportmenu.h"
#include "widgets/icons.h"
#include "widgets/messagebanner.h"
#include "widgets/preferencesdialog.h"
#include "widgets/statuswidgets.h"

#include <QAbstractButton>
#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QDesktopServices>
#include <QDir>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMenu>
#include <QMessageBox>
#include <QRegularExpression>
#include <QScrollBar>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QStandardPaths>
#include <QStatusBar>
#include <QSurfaceFormat>
#include <QTest>
#include <QTemporaryDir>
#include <QTimer>
#include <QUndoStack>
#include <QUndoView>

using namespace drape;

namespace {

std::unique_ptr<Document> preset(const QString &key)
{
    return presetDocument(key);
}

double luminance(QColor c)
{
    return 0.2126 * c.redF() + 0.7152 * c.greenF() + 0.0722 * c.blueF();
}

/// The largest luminance difference between an opaque pixel of `image` and `background`.
double bestContrast(const QImage &image, QColor background)
{
    double best = 0.0;
    for (int y = 0; y < image.height(); ++y) {
        for (int x = 0; x < image.width(); ++x) {
            const QColor c = image.pixelColor(x, y);
            if (c.alphaF() > 0.9)
                best = std::max(best, std::abs(luminance(c) - luminance(background)));
        }
    }
    return best;
}

/// A key press on `target` while its window is the active one (another test's window on the
/// same X server may have taken the activation since).
void keyClickActive(QWidget *target, Qt::Key key, Qt::KeyboardModifiers modifiers = Qt::NoModifier)
{
    QApplication::setActiveWindow(target->window());
    QTest::keyClick(target, key, modifiers);
}

void activate(QWidget &window)
{
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    window.activateWindow();
    QApplication::setActiveWindow(&window);
    QVERIFY(QTest::qWaitForWindowActive(&window));
}

/// Takes the place of the desktop's file manager: remembers the URLs it was asked to open.
class UrlCatcher : public QObject {
    Q_OBJECT
public:
    QList<QUrl> urls;
public slots:
    void open(const QUrl &url) { urls << url; }
};

QAction *actionNamed(const QList<QAction *> &actions, const QString &prefix)
{
    for (QAction *a : actions) {
        if (a->text().startsWith(prefix) || a->objectName() == prefix)
            return a;
    }
    return nullptr;
}

} // namespace

class TestPolish : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        initResources();
    }

    void iconsReadOnLightAndDarkThemes_data()
    {
        QTest::addColumn<QString>("name");
        const QStringList files = QDir(QStringLiteral(":/icons")).entryList({ QStringLiteral("*.svg") });
        QVERIFY(files.size() >= 13);
        for (const QString &f : files) {
            if (f != QLatin1String("drape.svg"))
                QTest::newRow(qPrintable(f)) << f.chopped(4);
        }
    }

    void iconsReadOnLightAndDarkThemes()
    {
        QFETCH(QString, name);
        const QPalette original = QGuiApplication::palette();
        for (const bool dark : { false, true }) {
            QPalette palette;
            const QColor window = dark ? QColor(0x23, 0x26, 0x2b) : QColor(0xf6, 0xf6, 0xf6);
            palette.setColor(QPalette::Window, window);
            palette.setColor(
                QPalette::WindowText, dark ? QColor(0xee, 0xee, 0xee) : QColor(0x11, 0x11, 0x11));
            QGuiApplication::setPalette(palette);
            // The same QIcon follows the palette: made once, drawn in each theme.
            const QImage image = icon(name).pixmap(32, 32).toImage();
            const double contrast = bestContrast(image, window);
            QVERIFY2(contrast > 0.6,
                qPrintable(QStringLiteral("%1 on the %2 theme: best luminance contrast %3")
                               .arg(name, dark ? "dark" : "light")
                               .arg(contrast)));
        }
        QGuiApplication::setPalette(original);
    }

    void controlsListEveryShortcut()
    {
        MainWindow window;
        window.setDocument(preset(QStringLiteral("curtain")));
        auto *help = window.findChild<HelpActions *>();
        QVERIFY(help);
        const QString html = help->controlsHtml();
        // The README's keys, each with what it does, read from the actions.
        for (const char *key :
            { "<b>D</b>", "<b>U</b>", "<b>P</b>", "<b>X</b>", "<b>C</b>", "<b>Del / Backspace</b>",
                "<b>F12</b>", "<b>Ctrl+Q</b>", "<b>Space</b>", "<b>Ctrl+R</b>", "<b>F1</b>", "<b>F</b>" })
            QVERIFY2(html.contains(QLatin1String(key)), key);
        // Every action of the window with a shortcut is in the list: nothing can drift.
        for (const QAction *action : window.findChildren<QAction *>()) {
            for (const QKeySequence &k : action->shortcuts()) {
                // The key inside a bold keys cell (an action with several keys lists them with " / ").
                const QString key
                    = QRegularExpression::escape(k.toString(QKeySequence::NativeText).toHtmlEscaped());
                const QRegularExpression cell(QStringLiteral("<b>([^<]* / )?%1( / [^<]*)?</b>").arg(key));
                QVERIFY2(html.contains(cell), qPrintable(action->text() + QStringLiteral(": ") + key));
            }
        }
    }

    void aboutNamesVersionRendererAndLicences()
    {
        QApplication::setApplicationVersion(QStringLiteral("9.8.7"));
        MainWindow window;
        window.setDocument(preset(QStringLiteral("curtain")));
        window.resize(800, 600);
        activate(window);
        QTRY_VERIFY(!window.viewport()->glRenderer().isEmpty());
        const QString about = window.findChild<HelpActions *>()->aboutHtml();
        QVERIFY(about.contains(QLatin1String("Drape 9.8.7")));
        QVERIFY2(about.contains(window.viewport()->glRenderer().toHtmlEscaped()), qPrintable(about));
        QVERIFY(about.contains(window.viewport()->glVersion().toHtmlEscaped()));
        for (const char *name : { "Qt", "nlohmann/json", "assimp", "FFmpeg", "LGPL", "MIT" })
            QVERIFY2(about.contains(QLatin1String(name)), name);
    }

    void blowUpAdviceInBannerClearedByReset()
    {
        MainWindow window;
        Scene scene = preset(QStringLiteral("curtain"))->scene();
        scene.solver.kind = SolverKind::Springs;
        scene.solver.substeps = 1;
        scene.cloths[0].material.stretchStiffness = 1e8f;
        scene.cloths[0].material.shearStiffness = 1e8f;
        window.setDocument(std::make_unique<Document>(scene));
        window.resize(1600, 1000);
        activate(window);
        window.controller()->setPlaying(true);
        QTRY_VERIFY_WITH_TIMEOUT(window.document()->simulation().status().blownUp, 10000);
        MessageBanner *banner = window.banner();
        QTRY_VERIFY(banner->isVisible());
        // The full advice, wrapped, not cut: the whole core message is in the banner and the
        // banner lies inside the viewport.
        const QString message = QString::fromStdString(window.document()->simulation().status().message);
        QVERIFY(banner->text().contains(message));
        QVERIFY(banner->text().contains(QLatin1String("substeps")));
        QVERIFY(window.viewport()->rect().contains(banner->geometry()));
        auto *label = banner->findChild<QLabel *>();
        QVERIFY(label->heightForWidth(label->width()) <= label->height());
        // Reset clears the banner and any message (the keys themselves are tested below).
        window.simulationActions()->resetAction()->trigger();
        QVERIFY(!window.document()->simulation().status().blownUp);
        QVERIFY(!banner->isVisible());
        QVERIFY(!window.statusWidgets()->shownText().contains(QLatin1String("stopped")));
        // The banner can be dismissed by hand.
        banner->showMessage(QStringLiteral("test"));
        QTest::mouseClick(banner->findChild<QWidget *>(QStringLiteral("MessageBannerClose")), Qt::LeftButton);
        QVERIFY(!banner->isVisible());
    }

    void playbackKeysWorkFromASpinBoxButNotFromText()
    {
        MainWindow window;
        window.setDocument(preset(QStringLiteral("curtain")));
        window.resize(1280, 720);
        activate(window);
        QSpinBox *spin = nullptr;
        for (QSpinBox *s : window.findChildren<QSpinBox *>()) {
            if (s->isVisibleTo(&window) && s->isEnabled())
                spin = s;
        }
        QVERIFY2(spin, "no spin box in the docks");
        spin->window()->activateWindow();
        spin->setFocus();
        QTRY_VERIFY(spin->hasFocus());
        const QString before = spin->text();
        keyClickActive(spin, Qt::Key_Space);
        QVERIFY(window.controller()->isPlaying());
        QCOMPARE(spin->text(), before);
        keyClickActive(spin, Qt::Key_Space);
        QVERIFY(!window.controller()->isPlaying());
        window.controller()->stepFrames(3);
        QTRY_VERIFY(window.document()->simulation().frame() > 0); // the worker prepares the state
        keyClickActive(spin, Qt::Key_R, Qt::ControlModifier);
        QCOMPARE(window.document()->simulation().frame(), std::uint64_t(0));

        // A free-text field keeps its space.
        auto *text = new QLineEdit(window.statusBar());
        window.statusBar()->addWidget(text);
        text->show();
        text->setFocus();
        QTRY_VERIFY(text->hasFocus());
        QVERIFY(ShortcutFilter::isTextField(text));
        keyClickActive(text, Qt::Key_Space);
        QCOMPARE(text->text(), QStringLiteral(" "));
        QVERIFY(!window.controller()->isPlaying());
    }

    void statusHintsAreNotCutOff()
    {
        MainWindow window;
        window.setDocument(preset(QStringLiteral("curtain")));
        window.resize(1600, 1000);
        activate(window);
        QLabel *hint = window.statusWidgets()->hintLabel();
        const QString longHint
            = QStringLiteral("Pin: click toggles a pin · Shift+drag: box · drag: brush · Ctrl: unpin · "
                             "drag a pin to move it · Ctrl+wheel: radius · Escape: abort the drag "
                             "and restore what it changed");
        for (const QString &text : { longHint, longHint + longHint }) {
            window.statusWidgets()->setHint(text);
            QTRY_COMPARE(hint->text(), text);
            QApplication::processEvents();
            // Wrapped where it must be: the label is tall enough for its width.
            QTRY_VERIFY2(hint->heightForWidth(hint->width()) <= hint->height() + 1,
                qPrintable(QStringLiteral("needs %1 px, has %2 at width %3")
                               .arg(hint->heightForWidth(hint->width()))
                               .arg(hint->height())
                               .arg(hint->width())));
            QVERIFY(hint->width() > 400);
        }
        // A transient status-bar message also goes to the wrapping label, then the hint returns.
        window.statusBar()->showMessage(QStringLiteral("saved"), 50);
        QCOMPARE(window.statusWidgets()->shownText(), QStringLiteral("saved"));
        window.statusWidgets()->clearMessage();
        QCOMPARE(window.statusWidgets()->shownText(), longHint + longHint);
    }

    void parameterRowsSayWhatTheyDo()
    {
        MainWindow window;
        window.setDocument(preset(QStringLiteral("curtain")));
        window.resize(1280, 720);
        activate(window);
        ParametersDock *dock = window.parametersDock();
        // A rebuild parameter says so in its row.
        ParamRow *across = dock->row("cloth.grid.across");
        QVERIFY(across);
        QVERIFY(across->label()->text().contains(QLatin1String("restarts from frame 0")));
        QVERIFY(!dock->row("solver.substeps")
            || !dock->row("solver.substeps")->label()->text().contains(QLatin1String("restarts")));
        // The spring integrator shows only for the springs solver; iterations only for the others.
        ParamRow *integrator = dock->row("solver.integrator");
        ParamRow *iterations = dock->row("solver.iterations");
        QVERIFY(integrator && iterations);
        QVERIFY(integrator->comboBox()->isHidden());
        QVERIFY(!iterations->spinBox()->isHidden());
        QVERIFY(window.document()->setParameter("solver.kind", 0, double(SolverKind::Springs)).isEmpty());
        QVERIFY(!integrator->comboBox()->isHidden());
        QVERIFY(iterations->spinBox()->isHidden());
        window.document()->undoStack()->undo();
        QVERIFY(integrator->comboBox()->isHidden());
    }

    void springsSwitchWarnsFirst()
    {
        MainWindow window;
        window.setDocument(preset(QStringLiteral("curtain")));
        window.resize(1280, 720);
        activate(window);
        QComboBox *solver = window.parametersDock()->row("solver.kind")->comboBox();
        const int steps = window.document()->undoStack()->count();
        for (const bool cancel : { true, false }) {
            QString shown;
            // The warning is modal: answer it from the event loop it runs.
            QTimer::singleShot(0, this, [&shown, cancel] {
                QTRY_VERIFY(qobject_cast<QMessageBox *>(QApplication::activeModalWidget()));
                auto *box = qobject_cast<QMessageBox *>(QApplication::activeModalWidget());
                shown = box->informativeText();
                for (QAbstractButton *b : box->buttons()) {
                    if ((box->buttonRole(b) == QMessageBox::RejectRole) == cancel)
                        b->click();
                }
            });
            solver->setCurrentIndex(int(SolverKind::Springs));
            emit solver->activated(int(SolverKind::Springs));
            QVERIFY2(shown.contains(QLatin1String("raise solver.substeps to at least")), qPrintable(shown));
            if (cancel) {
                QCOMPARE(window.document()->scene().solver.kind, SolverKind::Xpbd);
                QCOMPARE(solver->currentIndex(), int(SolverKind::Xpbd));
                QCOMPARE(window.document()->undoStack()->count(), steps);
            } else {
                QCOMPARE(window.document()->scene().solver.kind, SolverKind::Springs);
            }
        }
    }

    void undoAfterBlowUpRestoresARunningState()
    {
        MainWindow window;
        window.setDocument(preset(QStringLiteral("curtain")));
        window.resize(1280, 720);
        activate(window);
        // Past the springs bound (the warning is skipped: the command is pushed directly).
        QVERIFY(window.document()->setParameter("solver.kind", 0, double(SolverKind::Springs)).isEmpty());
        window.controller()->stepFrames(1);
        QTRY_VERIFY(window.document()->simulation().status().blownUp); // the worker prepares the state
        window.controller()->setPlaying(true);
        QVERIFY(!window.controller()->isPlaying()); // refused while blown up
        QTRY_VERIFY(window.banner()->isVisible());
        window.document()->undoStack()->undo();
        QCOMPARE(window.document()->scene().solver.kind, SolverKind::Xpbd);
        QVERIFY(!window.document()->simulation().status().blownUp);
        QVERIFY(!window.banner()->isVisible());
        const std::uint64_t frame = window.document()->simulation().frame();
        window.controller()->setPlaying(true);
        QVERIFY(window.controller()->isPlaying());
        QTRY_VERIFY(window.document()->playhead() > frame + 2); // playing from the cache
        window.controller()->setPlaying(false);
        QVERIFY(!window.document()->simulation().status().blownUp);
    }

    void fabricComboShowsCustomAsAnEntry()
    {
        MainWindow window;
        window.setDocument(preset(QStringLiteral("curtain")));
        ParametersDock *dock = window.parametersDock();
        QComboBox *fabric = dock->fabricSelector();
        QVERIFY(window.document()->setParameter("material.stretchStiffness", 0, 1234.5).isEmpty());
        QVERIFY(fabric->isEnabled());
        QCOMPARE(fabric->currentText(), QStringLiteral("Custom"));
        QVERIFY(fabric->currentIndex() >= 0); // an item, not the greyed placeholder
        QVERIFY(fabric->placeholderText().isEmpty());
        auto *model = qobject_cast<QStandardItemModel *>(fabric->model());
        QVERIFY(model);
        QVERIFY(!(model->item(fabric->currentIndex())->flags() & Qt::ItemIsSelectable)); // not a choice
    }

    void preferencesPersistAndApply()
    {
        QSettings().clear();
        {
            PreferencesDialog dialog;
            QCOMPARE(dialog.cacheBudget()->value(), AppSettings::cacheBudgetMiB());
            dialog.cacheBudget()->setValue(2048);
            dialog.exportFolder()->setText(QDir::tempPath());
            dialog.units()->setCurrentIndex(int(AppSettings::Units::CentimetreGram));
            dialog.softwareQuality()->setCurrentIndex(int(AppSettings::SoftwareQuality::Fast));
            dialog.save();
        }
        QSettings().sync();
        QCOMPARE(AppSettings::cacheBudgetMiB(), 2048);
        QCOMPARE(AppSettings::exportFolder(), QDir::tempPath());
        QCOMPARE(AppSettings::units(), AppSettings::Units::CentimetreGram);
        QCOMPARE(AppSettings::softwareQuality(), AppSettings::SoftwareQuality::Fast);
        // A new dialog reads them back.
        PreferencesDialog again;
        QCOMPARE(again.cacheBudget()->value(), 2048);
        QCOMPARE(again.units()->currentIndex(), int(AppSettings::Units::CentimetreGram));
        // Units: the grid width (stored in metres) shows in centimetres, and typed centimetres
        // are stored as metres.
        {
            ParametersDock dock;
            std::unique_ptr<Document> doc = preset(QStringLiteral("curtain"));
            dock.setDocument(doc.get());
            QDoubleSpinBox *width = dock.row("cloth.grid.width")->spinBox();
            const double metres = doc->scene().cloths[0].grid.width;
            QCOMPARE(width->suffix(), QStringLiteral(" cm"));
            QCOMPARE(width->text(), QString::number(metres * 100.0, 'g', 4) + QStringLiteral(" cm"));
            QCOMPARE(width->valueFromText(QStringLiteral("150 cm")), 1.5);
            dock.setDocument(nullptr);
        }
        QSettings().clear();
    }

    void contextMenus()
    {
        MainWindow window;
        window.setDocument(preset(QStringLiteral("curtain")));
        window.resize(1280, 720);
        activate(window);
        Viewport *viewport = window.viewport();
        auto *menus = window.findChild<ViewportMenu *>();
        QVERIFY(menus);
        // A free particle in the middle of the curtain, where the user sees it.
        const Cloth &cloth = window.document()->simulation().cloths[0];
        std::uint32_t particle = std::uint32_t(cloth.particles.size() / 2);
        while (cloth.particles.kind[particle] != ParticleKind::Dynamic)
            ++particle;
        QPointF at;
        QVERIFY(viewport->project(cloth.particles.position[particle], &at));
        const auto actionNamed = [](QMenu *menu, const QString &prefix) -> QAction * {
            for (QAction *a : menu->actions()) {
                if (a->text().startsWith(prefix))
                    return a;
            }
            return nullptr;
        };
        std::unique_ptr<QMenu> menu(menus->menuAt(at));
        QAction *pin = actionNamed(menu.get(), QStringLiteral("Pin Particle"));
        QVERIFY(pin && actionNamed(menu.get(), QStringLiteral("Select Cloth"))
            && actionNamed(menu.get(), QStringLiteral("Frame Cloth")));
        // The action pins the particle nearest the click (the one under the cursor), one undo step.
        const int steps = window.document()->undoStack()->count();
        pin->trigger();
        QCOMPARE(window.document()->undoStack()->count(), steps + 1);
        int pinnedNear = 0;
        for (std::size_t i = 0; i < cloth.particles.size(); ++i) {
            QPointF p;
            if (cloth.particles.kind[i] == ParticleKind::Static
                && viewport->project(cloth.particles.position[i], &p) && QLineF(p, at).length() < 14.0)
                ++pinnedNear;
        }
        QCOMPARE(pinnedNear, 1);
        menu.reset(menus->menuAt(at));
        QVERIFY(actionNamed(menu.get(), QStringLiteral("Unpin Particle")));
        QSignalSpy camera(viewport, &Viewport::cameraMoved);
        actionNamed(menu.get(), QStringLiteral("Frame Cloth"))->trigger();
        QCOMPARE(camera.count(), 1);
        // Away from the cloth only Frame All is offered.
        menu.reset(menus->menuAt(QPointF(3, 3)));
        QVERIFY(!actionNamed(menu.get(), QStringLiteral("Pin"))
            && actionNamed(menu.get(), QStringLiteral("Frame All")));

        // A real right click asks for the menu and cuts nothing.
        QSignalSpy requested(viewport, &Viewport::contextMenuRequested);
        std::size_t constraints = cloth.constraints.size();
        QTest::mouseClick(viewport, Qt::RightButton, Qt::NoModifier, at.toPoint());
        QCOMPARE(requested.count(), 1);
        QCOMPARE(window.document()->simulation().cloths[0].constraints.size(), constraints);
        if (QWidget *popup = QApplication::activePopupWidget())
            popup->close();

        // Docks: the preset list offers "New Scene from This Preset" on right click. (A fresh,
        // unmodified document: starting a new scene would otherwise ask to save the pin.)
        window.setDocument(preset(QStringLiteral("curtain")));
        auto *presets = window.findChild<QListWidget *>(QStringLiteral("presetList"));
        QVERIFY(presets);
        QCOMPARE(presets->contextMenuPolicy(), Qt::ActionsContextMenu);
        QCOMPARE(presets->actions().size(), 1);
        for (int i = 0; i < presets->count(); ++i) {
            if (presets->item(i)->data(Qt::UserRole).toString() == QLatin1String("flag"))
                presets->setCurrentRow(i);
        }
        presets->actions().first()->trigger();
        QTRY_COMPARE(
            QString::fromStdString(window.document()->scene().name).toLower().contains(QLatin1String("flag")),
            true);
        auto *recent = window.findChild<QListWidget *>(QStringLiteral("recentList"));
        QVERIFY(recent && recent->actions().size() == 2);
    }

    void contextMenusInDocks()
    {
        MainWindow window;
        window.setDocument(preset(QStringLiteral("curtain")));
        window.resize(1280, 720);
        activate(window);
        Document *doc = window.document();
        QUndoStack *undo = doc->undoStack();

        // Parameters: a row's label offers Reset to Default (one undo step) and Copy Value.
        ParamRow *gravity = window.parametersDock()->row("world.gravity.y");
        QVERIFY(gravity);
        QCOMPARE(gravity->label()->contextMenuPolicy(), Qt::ActionsContextMenu);
        QAction *reset = actionNamed(gravity->label()->actions(), QStringLiteral("ResetToDefault"));
        QAction *copy = actionNamed(gravity->label()->actions(), QStringLiteral("CopyValue"));
        QVERIFY(reset && copy);
        QVERIFY(gravity->slider() && gravity->slider()->actions().contains(reset));
        QVERIFY(doc->setParameter("world.gravity.y", 0, -3.5).isEmpty());
        doc->closeMerging();
        copy->trigger();
        QCOMPARE(QGuiApplication::clipboard()->text(), QStringLiteral("-3.5 m/s²"));
        const int steps = undo->count();
        reset->trigger();
        QCOMPARE(undo->count(), steps + 1);
        QCOMPARE(double(doc->scene().world.gravity.y), gravity->param().defaultValue);
        QCOMPARE(gravity->value(), gravity->param().defaultValue);

        // Pins and Constraints: unpin the selected pins, select and frame their cloth.
        auto *pinsDock = window.findChild<ConstraintDock *>();
        auto *tools = window.findChild<ToolManager *>();
        QVERIFY(pinsDock && tools);
        QCOMPARE(pinsDock->widget()->contextMenuPolicy(), Qt::ActionsContextMenu);
        QVERIFY(!pinsDock->unpinSelectedAction()->isEnabled()); // nothing selected
        const Cloth &cloth = doc->simulation().cloths[0];
        std::vector<std::uint32_t> pins;
        std::uint32_t free = 0;
        for (std::uint32_t i = 0; i < cloth.particles.size(); ++i) {
            if (cloth.particles.kind[i] == ParticleKind::Static)
                pins.push_back(i);
            else
                free = i;
        }
        QVERIFY(pins.size() >= 3);
        std::vector<std::uint32_t> chosen = { pins[0], pins[1], free };
        std::sort(chosen.begin(), chosen.end());
        tools->selection()->setParticles(0, chosen);
        QVERIFY(pinsDock->unpinSelectedAction()->isEnabled());
        QVERIFY2(pinsDock->unpinSelectedAction()->text().contains(QLatin1String("2")),
            qPrintable(pinsDock->unpinSelectedAction()->text()));
        const int before = undo->count();
        pinsDock->unpinSelectedAction()->trigger();
        QCOMPARE(undo->count(), before + 1);
        const auto &kinds = doc->simulation().cloths[0].particles.kind;
        QCOMPARE(kinds[pins[0]], ParticleKind::Dynamic);
        QCOMPARE(kinds[pins[1]], ParticleKind::Dynamic);
        QCOMPARE(kinds[pins[2]], ParticleKind::Static); // not selected
        QSignalSpy chosenCloth(pinsDock, &ConstraintDock::clothChosen);
        pinsDock->selectClothAction()->trigger();
        QCOMPARE(chosenCloth.count(), 1);
        QCOMPARE(chosenCloth.first().first().toInt(), 0);
        QVERIFY(window.parametersDock()->isVisible());
        QSignalSpy camera(window.viewport(), &Viewport::cameraMoved);
        pinsDock->frameClothAction()->trigger();
        QCOMPARE(camera.count(), 1);

        // Tools: the tool choice from a right click anywhere in the dock.
        auto *toolsDock = window.findChild<ToolsDock *>();
        QVERIFY(toolsDock);
        QCOMPARE(toolsDock->widget()->contextMenuPolicy(), Qt::ActionsContextMenu);
        QAction *cut = tools->actionFor(tools->cutTool());
        QVERIFY(toolsDock->widget()->actions().contains(cut));
        QVERIFY(toolsDock->widget()->actions().contains(tools->unpinAllAction()));
        cut->trigger();
        QCOMPARE(tools->activeTool(), static_cast<Tool *>(tools->cutTool()));

        // History: a right click does not move through the history; its menu undoes to the row.
        HistoryDock *history = window.historyDock();
        history->show();
        QUndoView *view = history->view();
        QTRY_VERIFY(view->model()->rowCount() == undo->count() + 1);
        const int index = undo->index();
        QVERIFY(index >= 2);
        const QRect first = view->visualRect(view->model()->index(1, 0));
        QTest::mouseClick(view->viewport(), Qt::RightButton, Qt::NoModifier, first.center());
        if (QWidget *popup = QApplication::activePopupWidget())
            popup->close();
        QCOMPARE(undo->index(), index);
        std::unique_ptr<QMenu> menu(history->menuAt(first.center()));
        QAction *toHere = actionNamed(menu->actions(), QStringLiteral("Undo to Here"));
        QVERIFY(toHere && toHere->isEnabled());
        toHere->trigger();
        QCOMPARE(undo->index(), 1);
        menu.reset(history->menuAt(first.center()));
        QVERIFY(!actionNamed(menu->actions(), QStringLiteral("Undo to Here"))
            && !actionNamed(menu->actions(), QStringLiteral("Redo to Here"))->isEnabled());
        actionNamed(menu->actions(), QStringLiteral("Undo Everything"))->trigger();
        QCOMPARE(undo->index(), 0);

        // Record: Open Output Folder hands the folder to the desktop; a folder not made yet is
        // said so instead.
        auto *record = window.findChild<RecordDock *>();
        QVERIFY(record);
        QTemporaryDir dir;
        UrlCatcher catcher;
        QDesktopServices::setUrlHandler(QStringLiteral("file"), &catcher, "open");
        record->setOutputPath(dir.filePath(QStringLiteral("clip.mp4")));
        QAction *open = actionNamed(record->widget()->actions(), QStringLiteral("OpenOutputFolder"));
        QVERIFY(open);
        QCOMPARE(record->widget()->contextMenuPolicy(), Qt::ActionsContextMenu);
        open->trigger();
        QCOMPARE(catcher.urls.size(), 1);
        QCOMPARE(QDir(catcher.urls.first().toLocalFile()), QDir(dir.path()));
        QSignalSpy said(record, &RecordDock::message);
        record->setOutputPath(dir.filePath(QStringLiteral("later/clip.mp4")));
        QVERIFY(!record->openOutputFolder());
        QCOMPARE(catcher.urls.size(), 1);
        QCOMPARE(said.count(), 1);
        QVERIFY(said.first().first().toString().contains(QLatin1String("later")));
        QDesktopServices::unsetUrlHandler(QStringLiteral("file"));
    }

    void fabricLookMenu()
    {
        QSettings().remove(QStringLiteral("view/fabricImage"));
        QTemporaryDir dir;
        MainWindow window;
        window.setDocument(preset(QStringLiteral("curtain")));
        window.resize(1280, 720);
        activate(window);
        Document *doc = window.document();
        ViewActions *view = window.viewActions();
        const QList<QAction *> looks = view->fabricActions();
        QCOMPARE(looks.size(), 4);
        QVERIFY(looks[int(FabricLook::None)]->isChecked());
        const int steps = doc->undoStack()->count();
        looks[int(FabricLook::Weave)]->trigger();
        QCOMPARE(doc->scene().view.fabric, FabricLook::Weave);
        QCOMPARE(doc->undoStack()->count(), steps + 1);
        QVERIFY(looks[int(FabricLook::Weave)]->isChecked());

        // A picture that is not there: the message names it, and nothing changes.
        const QString missing = dir.filePath(QStringLiteral("gone.png"));
        QString error;
        QVERIFY(!view->useFabricImage(missing, &error));
        QVERIFY(error.contains(missing));
        QVERIFY(window.banner()->isVisible());
        QVERIFY(window.banner()->text().contains(missing));
        QCOMPARE(doc->scene().view.fabric, FabricLook::Weave);
        QVERIFY(looks[int(FabricLook::Weave)]->isChecked());
        QVERIFY(AppSettings::fabricImage().isEmpty());

        // A picture that reads: remembered by the editor, the look saved in the scene.
        const QString path = dir.filePath(QStringLiteral("fabric.png"));
        QImage picture(8, 8, QImage::Format_RGB32);
        picture.fill(Qt::blue);
        QVERIFY(picture.save(path));
        QVERIFY(view->useFabricImage(path));
        QCOMPARE(doc->scene().view.fabric, FabricLook::Image);
        QCOMPARE(AppSettings::fabricImage(), path);
        QVERIFY(!window.viewport()->fabricImage().isNull());
        QVERIFY(looks[int(FabricLook::Image)]->isChecked());

        // Another window opening a scene with the image look reads the remembered picture; when
        // the file has gone it says so once and draws the plain cloth.
        Scene scene = doc->scene();
        {
            MainWindow other;
            other.setDocument(std::make_unique<Document>(scene));
            QVERIFY(!other.viewport()->fabricImage().isNull());
        }
        QVERIFY(QFile::remove(path));
        MainWindow other;
        other.setDocument(std::make_unique<Document>(scene));
        other.show();
        QVERIFY(QTest::qWaitForWindowExposed(&other));
        QVERIFY(other.viewport()->fabricImage().isNull());
        QVERIFY(other.banner()->text().contains(path));
        QVERIFY(other.banner()->text().contains(QLatin1String("no such file")));
        QSettings().remove(QStringLiteral("view/fabricImage"));
    }

    void firstRunLayoutGivesTheViewportSixtyPercent_data()
    {
        QTest::addColumn<QSize>("size");
        QTest::newRow("1280x720") << QSize(1280, 720);
        QTest::newRow("1600x1000") << QSize(1600, 1000);
    }

    void firstRunLayoutGivesTheViewportSixtyPercent()
    {
        QFETCH(QSize, size);
        MainWindow window;
        window.setDocument(preset(QStringLiteral("tablecloth")));
        window.resize(size);
        window.resetLayout();
        activate(window);
        QTRY_COMPARE(window.width(), size.width());
        QTRY_VERIFY2(window.viewport()->width() >= 0.6 * window.width(),
            qPrintable(
                QStringLiteral("viewport %1 of %2").arg(window.viewport()->width()).arg(window.width())));
        // The status bar stays one or two lines tall, not the height a wrapped label needs at
        // its narrowest.
        QVERIFY2(window.statusBar()->height() <= 3 * window.statusBar()->fontMetrics().lineSpacing() + 12,
            qPrintable(QString::number(window.statusBar()->height())));
        QCOMPARE(window.height(), size.height());
        // One tab group at the right with the scene in front and every other dock a tab.
        auto *scene = window.findChild<QDockWidget *>(QStringLiteral("SceneDock"));
        QVERIFY(scene);
        QCOMPARE(window.dockWidgetArea(scene), Qt::RightDockWidgetArea);
        QCOMPARE(window.tabifiedDockWidgets(scene).size(), window.findChildren<QDockWidget *>().size() - 1);
        QTRY_VERIFY(!scene->visibleRegion().isEmpty());
        // Every dock is in the window, none floating, each reachable (visible or a tab).
        for (QDockWidget *dock : window.findChildren<QDockWidget *>()) {
            QVERIFY(!dock->isFloating());
            QVERIFY(!dock->isHidden());
        }
        // The eight presets show without a scroll bar.
        auto *presets = window.findChild<QListWidget *>(QStringLiteral("presetList"));
        QVERIFY(presets && presets->count() == 8);
        QVERIFY(!presets->verticalScrollBar()->isVisible());
        // The scene's saved camera was framed for another aspect: the tablecloth is in view.
        QTRY_VERIFY(window.viewport()->isSceneInView());
        // For looking at the layout by eye: DRAPE_SCREENSHOT_DIR=/some/dir saves the window.
        if (const QString dir = qEnvironmentVariable("DRAPE_SCREENSHOT_DIR"); !dir.isEmpty())
            window.grab().save(QDir(dir).filePath(
                QStringLiteral("first-run-%1x%2.png").arg(size.width()).arg(size.height())));
        QVERIFY(MainWindow::isSmallScreen(QSize(1280, 720)));
        QVERIFY(!MainWindow::isSmallScreen(QSize(1920, 1080)));
    }
};

int main(int argc, char **argv)
{
    QSurfaceFormat::setDefaultFormat(Viewport::surfaceFormat());
    QApplication app(argc, argv);
    TestPolish test;
    return QTest::qExec(&test, argc, argv);
}

#include "tst_polish.moc"
