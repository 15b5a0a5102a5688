#include "mainwindow.h"

#include "actions/addactions.h"
#include "actions/editactions.h"
#include "actions/fileactions.h"
#include "actions/helpactions.h"
#include "actions/presetactions.h"
#include "actions/playbackactions.h"
#include "actions/shortcutfilter.h"
#include "actions/simulationactions.h"
#include "actions/viewactions.h"
#include "appsettings.h"
#include "docks/constraintdock.h"
#include "docks/historydock.h"
#include "docks/outlinerdock.h"
#include "docks/parametersdock.h"
#include "docks/recorddock.h"
#include "docks/scenedock.h"
#include "docks/toolsdock.h"
#include "document/document.h"
#include "document/simulationcontroller.h"
#include "render/screenshot.h"
#include "render/viewport.h"
#include "timeline/timelinebar.h"
#include "tools/tool.h"
#include "tools/toolmanager.h"
#include "tools/transformtool.h"
#include "tools/viewportmenu.h"
#include "widgets/icons.h"
#include "widgets/messagebanner.h"
#include "widgets/preferencesdialog.h"
#include "widgets/statuswidgets.h"

#include <QActionGroup>
#include <QCloseEvent>
#include <QDockWidget>
#include <QLayout>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QPointer>
#include <QScreen>
#include <QStatusBar>
#include <QTimer>
#include <QToolBar>
#include <QToolButton>
#include <QUndoGroup>
#include <QUndoStack>
#include <QVBoxLayout>

namespace drape {

MainWindow::MainWindow(QWidget *parent) : QMainWindow(parent)
{
    setWindowIcon(icon(IconId::App));
    setAcceptDrops(true);
    setDockNestingEnabled(true);

    m_viewport = new Viewport(this);
    m_controller = new SimulationController(this);
    m_timelineBar = new TimelineBar(m_controller, this);
    auto *central = new QWidget(this);
    auto *column = new QVBoxLayout(central);
    column->setContentsMargins(0, 0, 0, 0);
    column->setSpacing(0);
    column->addWidget(m_viewport, 1);
    column->addWidget(m_timelineBar);
    setCentralWidget(central);
    m_banner = new MessageBanner(m_viewport);
    m_undoGroup = new QUndoGroup(this);

    m_fileActions = new FileActions(this);
    m_presetActions = new PresetActions(this);
    m_editActions = new EditActions(m_undoGroup, this);
    m_simulationActions = new SimulationActions(m_controller, this);
    m_playbackActions = new PlaybackActions(m_controller, this);
    m_viewActions = new ViewActions(this);
    m_addActions = new AddActions(m_viewport, [this] { return m_document.get(); }, this);
    m_helpActions = new HelpActions(this);
    m_status = new StatusWidgets(statusBar());

    createMenus();
    createDocks();

    connect(m_viewport, &Viewport::frameRendered, m_controller, &SimulationController::noteFrameRendered);
    connect(m_viewport, &Viewport::glErrorOccurred, this, [this](const QString &message) {
        statusBar()->showMessage(tr("OpenGL error: %1").arg(message.section(QLatin1Char('\n'), 0, 0)));
        QMessageBox::critical(this, tr("OpenGL"), tr("The 3D view cannot draw.\n\n%1").arg(message));
    });
    connect(m_controller, &SimulationController::statsChanged, m_status, &StatusWidgets::setStats);
    connect(m_controller, &SimulationController::frameShown, m_viewport, &Viewport::showCachedFrame);
    // The advice is long (which particle, which limit, how many substeps): it goes into the
    // banner, which wraps, rather than the one-line status bar.
    connect(m_controller, &SimulationController::blownUp, this, [this](const QString &message) {
        m_banner->showMessage(
            tr("Simulation stopped: %1\nReset (Ctrl+R), or lower the stiffness or raise the substeps.")
                .arg(message));
    });
    connect(m_status, &StatusWidgets::resetRequested, m_simulationActions->resetAction(), &QAction::trigger);
    connect(m_addActions, &AddActions::statusMessage, m_status, [this](const QString &text) { m_status->showMessage(text); });
    connect(m_timelineBar, &TimelineBar::statusMessage, m_status, [this](const QString &text) { m_status->showMessage(text); });
    connect(m_simulationActions, &SimulationActions::statusMessage, m_status,
            [this](const QString &text) { m_status->showMessage(text); });
    // After a reset the stopped simulation's messages are stale.
    connect(m_simulationActions->resetAction(), &QAction::triggered, this, [this] {
        m_banner->hide();
        m_status->clearMessage();
    });
    new ShortcutFilter(this, { QKeySequence(Qt::Key_Space), QKeySequence(QStringLiteral("Shift+Space")),
                               QKeySequence(QStringLiteral("Ctrl+R")) });

    createComponents();
    for (QDockWidget *dock : findChildren<QDockWidget *>())
        m_defaultAreas.insert(dock, dockWidgetArea(dock));

    // A first run fills most of a large screen and all of a small one (a laptop's 1280 × 720
    // leaves no room for a window frame around a useful viewport).
    const QRect available = screen() ? screen()->availableGeometry() : QRect(0, 0, 1600, 1000);
    resize(std::min(1500, available.width() * 9 / 10), std::min(950, available.height() * 9 / 10));
    resetLayout();
    m_followWidth = !AppSettings::restoreWindow(this);
    if (m_followWidth && isSmallScreen(available.size()))
        setWindowState(windowState() | Qt::WindowMaximized);
    m_viewport->setFocus();
}

MainWindow::~MainWindow()
{
    // Components hold raw pointers into the document: unbind them before it goes.
    emit documentChanged(nullptr);
    m_viewport->setDocument(nullptr);
    m_controller->setDocument(nullptr);
    m_timelineBar->setDocument(nullptr);
    // Components made after the viewport (tools, recorder, docks) may talk to it while they
    // are destroyed: delete them newest first, and the viewport last, instead of Qt's
    // oldest-first order of children.
    QWidget *central = centralWidget(); // holds the viewport and the timeline
    QList<QPointer<QObject>> components;
    for (QObject *child : children()) {
        if (child != central && !qobject_cast<QLayout *>(child))
            components.append(child);
    }
    for (auto it = components.crbegin(); it != components.crend(); ++it)
        delete it->data();
    delete m_viewport;
    delete central;
}

void MainWindow::createMenus()
{
    m_fileMenu = menuBar()->addMenu(tr("&File"));
    m_fileActions->populate(m_fileMenu);
    m_fileMenu->insertAction(m_fileActions->quitAction(), m_presetActions->saveAsPresetAction());
    m_fileMenu->insertSeparator(m_fileActions->quitAction());
    m_editMenu = menuBar()->addMenu(tr("&Edit"));
    m_editActions->populate(m_editMenu);
    m_editMenu->addSeparator();
    QAction *preferences = m_editMenu->addAction(tr("&Preferences…"), this, [this] {
        PreferencesDialog dialog(this);
        if (dialog.exec() == QDialog::Accepted)
            m_timelineBar->applyPreferences();
    });
    const QList<QKeySequence> preferenceKeys = QKeySequence::keyBindings(QKeySequence::Preferences);
    preferences->setShortcuts(preferenceKeys.isEmpty()
            ? QList<QKeySequence> { QKeySequence(QStringLiteral("Ctrl+,")) }
            : preferenceKeys);
    preferences->setMenuRole(QAction::PreferencesRole);
    m_addMenu = menuBar()->addMenu(tr("&Add"));
    m_addMenu->setObjectName(QStringLiteral("AddMenu"));
    m_addActions->populate(m_addMenu);
    connect(m_addActions, &AddActions::importMeshRequested, m_fileActions, &FileActions::importMesh);
    m_simulationMenu = menuBar()->addMenu(tr("&Simulation"));
    m_simulationActions->populate(m_simulationMenu);
    m_simulationMenu->addSeparator();
    m_playbackActions->populate(m_simulationMenu);
    m_toolsMenu = menuBar()->addMenu(tr("&Tools"));
    m_viewMenu = menuBar()->addMenu(tr("&View"));
    m_viewActions->populate(m_viewMenu);
    m_helpMenu = menuBar()->addMenu(tr("&Help"));
    m_helpActions->populate(m_helpMenu);

    m_toolBar = addToolBar(tr("Main"));
    m_toolBar->setObjectName(QStringLiteral("MainToolBar"));
    m_toolBar->setIconSize(QSize(20, 20));
    m_simulationActions->populate(m_toolBar);
    m_toolBar->addSeparator();
    // The Add menu on the toolbar too: the first thing a new scene needs.
    auto *add = new QToolButton(m_toolBar);
    add->setObjectName(QStringLiteral("AddButton"));
    add->setText(tr("Add"));
    add->setToolTip(tr("Add a cloth or a collider at the focus point"));
    add->setMenu(m_addMenu);
    add->setPopupMode(QToolButton::InstantPopup);
    add->setToolButtonStyle(Qt::ToolButtonTextOnly);
    m_toolBar->addWidget(add);
    m_toolBar->addSeparator();
}

void MainWindow::createDocks()
{
    m_sceneDock = new SceneDock(this);
    connect(m_sceneDock, &SceneDock::statusMessage, this, [this](const QString &text) { m_status->showMessage(text); });
    m_parametersDock = new ParametersDock(this);
    m_historyDock = new HistoryDock(m_undoGroup, this);
    m_outlinerDock = new OutlinerDock(this);
    m_outlinerDock->setAddMenu(m_addMenu);
    m_toolsMenu->setEnabled(true);
    QMenu *panels = m_viewMenu->addMenu(tr("&Panels"));
    for (QDockWidget *dock : {static_cast<QDockWidget *>(m_sceneDock), static_cast<QDockWidget *>(m_outlinerDock),
                              static_cast<QDockWidget *>(m_parametersDock), static_cast<QDockWidget *>(m_historyDock)})
        panels->addAction(dock->toggleViewAction());
    connect(this, &MainWindow::documentChanged, m_parametersDock, &ParametersDock::setDocument);
    connect(this, &MainWindow::documentChanged, m_outlinerDock, &OutlinerDock::setDocument);
    // The object chosen in the Outliner is the one the Parameters dock's Properties rows edit.
    connect(m_outlinerDock, &OutlinerDock::objectChosen, m_parametersDock, [this](const SceneObject &o) {
        if (o.kind == SceneObject::Kind::Cloth)
            m_parametersDock->setCurrentCloth(o.index);
        else
            m_parametersDock->setCurrentCollider(o.index);
    });
    connect(m_outlinerDock, &OutlinerDock::statusMessage, this, [this](const QString &text) { m_status->showMessage(text); });
    connect(m_presetActions, &PresetActions::presetsChanged, m_parametersDock, &ParametersDock::reloadFabrics);
    connect(m_parametersDock, &ParametersDock::editRefused, statusBar(),
            [this](const QString &text) { statusBar()->showMessage(text, 15000); });
}

void MainWindow::createComponents()
{
    // ---- Components: tools, recorder and other docks/toolbars register here. ----
    // Each is its own class; add it with a few lines (create, add its dock/toolbar/actions,
    // connect documentChanged to rebind).

    // Viewport tools: toolbar, Tools menu, Tools dock and the pin & constraint dock.
    auto *tools = new ToolManager(m_viewport, this);
    addToolBar(tools->createToolBar(this));
    m_toolsMenu->addActions(tools->actionGroup()->actions());
    m_toolsMenu->addSeparator();
    m_toolsMenu->addActions({tools->pinTopEdgeAction(), tools->pinCornersAction(), tools->unpinAllAction()});
    m_toolsMenu->addSeparator();
    m_toolsMenu->addAction(tools->deleteConstraintsAction());
    // Right click in the viewport: pin/unpin, select or frame the cloth under the cursor.
    auto *viewportMenu = new ViewportMenu(tools, this);
    viewportMenu->setAddMenu(m_addMenu);
    auto selectInOutliner = [this](SceneObject object) {
        m_outlinerDock->select({ object }); // the Parameters dock follows
        m_parametersDock->show();
        m_parametersDock->raise();
    };
    connect(viewportMenu, &ViewportMenu::clothChosen, this,
            [selectInOutliner](int cloth) { selectInOutliner({ SceneObject::Kind::Cloth, cloth }); });
    connect(viewportMenu, &ViewportMenu::colliderChosen, this,
            [selectInOutliner](int collider) { selectInOutliner({ SceneObject::Kind::Collider, collider }); });
    const auto chooseCloth = [selectInOutliner](int cloth) { selectInOutliner({ SceneObject::Kind::Cloth, cloth }); };
    // The object the transform gizmo places is the one the Outliner and the Parameters dock show.
    connect(tools->transformTool(), &TransformTool::targetChosen, this, [this](TransformTool::Target target, int index) {
        m_outlinerDock->select({ { target == TransformTool::Target::Cloth ? SceneObject::Kind::Cloth
                                                                         : SceneObject::Kind::Collider,
                                   index } });
    });
    connect(m_parametersDock, &ParametersDock::clothChosen, tools->transformTool(),
            [tools](int index) { tools->transformTool()->setTarget(TransformTool::Target::Cloth, index); });
    connect(m_parametersDock, &ParametersDock::colliderChosen, tools->transformTool(),
            [tools](int index) { tools->transformTool()->setTarget(TransformTool::Target::Collider, index); });
    auto *toolsDock = new ToolsDock(tools, this);
    auto *constraintDock = new ConstraintDock(tools, this);
    connect(constraintDock, &ConstraintDock::clothChosen, this, chooseCloth);
    addDockWidget(Qt::LeftDockWidgetArea, toolsDock);
    addDockWidget(Qt::LeftDockWidgetArea, constraintDock);
    connect(this, &MainWindow::documentChanged, tools, &ToolManager::setDocument);
    connect(this, &MainWindow::documentChanged, toolsDock, &ToolsDock::setDocument);
    connect(this, &MainWindow::documentChanged, constraintDock, &ConstraintDock::setDocument);
    // A message without timeout is the tool's standing hint; one with a timeout is transient.
    connect(tools, &ToolManager::statusMessage, m_status, [this](const QString &text, int timeoutMs) {
        if (timeoutMs <= 0)
            m_status->setHint(text);
        else
            m_status->showMessage(text, timeoutMs);
    });
    m_status->setHint(tools->activeTool() ? tools->activeTool()->statusHint() : QString());

    // Recording: the Record dock (video, PNG and OBJ sequences) and F12 screenshots.
    auto *recordDock = new RecordDock(this);
    recordDock->setViewport(m_viewport);
    recordDock->setController(m_controller);
    recordDock->setDocument(m_document.get());
    addDockWidget(Qt::RightDockWidgetArea, recordDock);
    connect(this, &MainWindow::documentChanged, recordDock, &RecordDock::setDocument);
    connect(recordDock, &RecordDock::message, statusBar(), [this](const QString &text) { statusBar()->showMessage(text, 10000); });
    auto *screenshot = new ScreenshotAction(m_viewport, statusBar(), this);
    m_viewMenu->addSeparator();
    m_viewMenu->addAction(screenshot->action());
    m_viewMenu->addAction(recordDock->toggleViewAction());
    addAction(screenshot->action());

    // ---- end of components ----
}

bool MainWindow::isSmallScreen(const QSize &available)
{
    return available.width() < 1600 || available.height() < 1000;
}

int MainWindow::defaultDockWidth(int windowWidth)
{
    // One column of docks at the right takes at most a third of the window, so the viewport
    // keeps two thirds (at least 60 % with the splitter's handle and margins).
    return std::clamp(windowWidth / 3, 300, 460);
}

void MainWindow::resetLayout()
{
    // One column at the right holding every dock as a tab, the scene (presets) in front: on a
    // 1280 × 720 screen two stacked groups would not fit (the scene and tools docks need about
    // 600 and 440 px of height), and a left column would take the viewport's width.
    const QList<QDockWidget *> docks = findChildren<QDockWidget *>();
    for (QDockWidget *dock : docks)
        removeDockWidget(dock);
    addDockWidget(Qt::RightDockWidgetArea, m_sceneDock);
    // The tools first, so they sit right after the scene instead of at the end of the tabs.
    QList<QDockWidget *> order;
    for (QDockWidget *dock : docks) {
        if (dock != m_sceneDock && m_defaultAreas.value(dock) == Qt::LeftDockWidgetArea)
            order.append(dock);
    }
    order.prepend(m_outlinerDock); // what the scene holds, next to where it came from
    order.append(m_parametersDock);
    for (QDockWidget *dock : docks) {
        if (dock != m_sceneDock && !order.contains(dock))
            order.append(dock);
    }
    for (QDockWidget *dock : std::as_const(order))
        tabifyDockWidget(m_sceneDock, dock);
    for (QDockWidget *dock : docks) {
        dock->setFloating(false);
        dock->show();
    }
    m_sceneDock->raise();
    resizeDocks({ m_sceneDock }, { defaultDockWidth(width()) }, Qt::Horizontal);
    for (QToolBar *bar : findChildren<QToolBar *>())
        bar->show();
}

void MainWindow::showSceneError(const QString &message)
{
    m_banner->showMessage(message, MessageBanner::Kind::Error);
}

void MainWindow::resizeEvent(QResizeEvent *event)
{
    QMainWindow::resizeEvent(event);
    // On a first run (or after Reset Layout) the dock column follows the window: maximising on
    // a small screen happens after construction. Once the window is on screen it is the user's.
    if (m_followWidth)
        resizeDocks({ m_sceneDock }, { defaultDockWidth(width()) }, Qt::Horizontal);
}

void MainWindow::showEvent(QShowEvent *event)
{
    QMainWindow::showEvent(event);
    // The window manager may still resize (maximise) right after the first show.
    QTimer::singleShot(500, this, [this] { m_followWidth = false; });
}

void MainWindow::setDocument(std::unique_ptr<Document> document)
{
    m_controller->setPlaying(false);
    std::unique_ptr<Document> old = std::move(m_document);
    m_document = std::move(document);
    Document *doc = m_document.get();
    if (doc) {
        m_undoGroup->addStack(doc->undoStack());
        m_undoGroup->setActiveStack(doc->undoStack());
        connect(doc, &Document::modifiedChanged, this, &MainWindow::updateTitle);
        // Undo and redo replay the document to the frame they return to: undoing the change
        // that blew the simulation up shows the running state from before it, without a Reset.
        connect(doc->undoStack(), &QUndoStack::indexChanged, this, [this] {
            if (!m_document || m_document->simulation().status().blownUp)
                return;
            m_banner->hide();
            m_status->clearMessage();
        });
        connect(doc, &Document::takeMessage, this, [this](const QString &message) {
            m_status->showMessage(message, 8000);
        });
        // The worker prepares the frame under a resting playhead for editing; an edit made
        // meanwhile waits for it (the viewport shows a busy cursor).
        connect(doc, &Document::preparingChanged, this, [this](bool preparing, quint64 frame) {
            const QString text = tr("Preparing frame %1 for editing…").arg(frame);
            if (preparing)
                m_status->showMessage(text, 60000);
            else
                m_status->clearMessageIf(text);
        });
        connect(doc, &Document::editFailed, this, [this](const QString &message) { m_status->showMessage(message); });
        // Undo and redo move through the history the waiting edits are not in yet: they wait
        // until those have run. The stack enables the actions itself whenever it changes (a
        // waiting edit that ran while others still wait), so that is undone here each time.
        const auto updateHistory = [this] {
            QUndoStack *stack = m_document ? m_document->undoStack() : nullptr;
            // A held drag is one step in the making: undo comes after its release.
            const bool busy = m_document && (m_document->isBusy() || m_document->dragging());
            m_editActions->undoAction()->setEnabled(!busy && stack && stack->canUndo());
            m_editActions->redoAction()->setEnabled(!busy && stack && stack->canRedo());
            m_historyDock->widget()->setEnabled(!busy);
        };
        connect(doc, &Document::busyChanged, this, updateHistory);
        connect(doc, &Document::changed, this, updateHistory); // a drag begun or ended
        connect(doc->undoStack(), &QUndoStack::canUndoChanged, this, updateHistory);
        connect(doc->undoStack(), &QUndoStack::canRedoChanged, this, updateHistory);
        connect(doc, &Document::filePathChanged, this, &MainWindow::updateTitle);
    }
    m_viewport->setDocument(doc);
    m_controller->setDocument(doc);
    m_timelineBar->setDocument(doc);
    emit documentChanged(doc);
    // Everything is rebound: the old document can go (its stack leaves the group by itself).
    old.reset();
    updateTitle();
    if (doc && !doc->scene().state)
        m_viewport->update();
}

void MainWindow::updateTitle()
{
    if (!m_document) {
        setWindowTitle(QStringLiteral("Drape"));
        setWindowModified(false);
        return;
    }
    setWindowTitle(tr("%1[*] — Drape").arg(m_document->displayName()));
    setWindowModified(m_document->isModified());
    setWindowFilePath(m_document->filePath());
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    m_controller->setPlaying(false);
    if (!m_fileActions->maybeSave()) {
        event->ignore();
        return;
    }
    AppSettings::saveWindow(this);
    event->accept();
}

void MainWindow::dragEnterEvent(QDragEnterEvent *event)
{
    const QList<QUrl> urls = event->mimeData()->urls();
    if (urls.size() == 1 && urls.first().isLocalFile())
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent *event)
{
    const QList<QUrl> urls = event->mimeData()->urls();
    if (urls.size() != 1 || !urls.first().isLocalFile())
        return;
    event->acceptProposedAction();
    const QString path = urls.first().toLocalFile();
    // Opened after the drop returns: a modal prompt inside a drop handler blocks the source.
    QMetaObject::invokeMethod(this, [this, path] { m_fileActions->openFile(path); }, Qt::QueuedConnection);
}

} // namespace drape
