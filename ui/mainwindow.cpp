#include "mainwindow.h"

#include "actions/editactions.h"
#include "actions/fileactions.h"
#include "actions/helpactions.h"
#include "actions/simulationactions.h"
#include "actions/viewactions.h"
#include "appsettings.h"
#include "document/document.h"
#include "docks/historydock.h"
#include "widgets/icons.h"
#include "docks/parametersdock.h"
#include "docks/recorddock.h"
#include "docks/scenedock.h"
#include "render/screenshot.h"
#include "document/simulationcontroller.h"
#include "widgets/statuswidgets.h"
#include "tools/tool.h"
#include "docks/constraintdock.h"
#include "tools/toolmanager.h"
#include "docks/toolsdock.h"
#include "render/viewport.h"

#include <QActionGroup>
#include <QCloseEvent>
#include <QLayout>
#include <QPointer>
#include <QDockWidget>
#include <QScreen>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QStatusBar>
#include <QToolBar>
#include <QUndoGroup>

namespace drape {

MainWindow::MainWindow(QWidget *parent) : QMainWindow(parent)
{
    setWindowIcon(icon(IconId::App));
    setAcceptDrops(true);
    setDockNestingEnabled(true);

    m_viewport = new Viewport(this);
    setCentralWidget(m_viewport);
    m_controller = new SimulationController(this);
    m_undoGroup = new QUndoGroup(this);

    m_fileActions = new FileActions(this);
    m_editActions = new EditActions(m_undoGroup, this);
    m_simulationActions = new SimulationActions(m_controller, this);
    m_viewActions = new ViewActions(this);
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
    connect(m_controller, &SimulationController::blownUp, this, [this](const QString &message) {
        statusBar()->showMessage(tr("Simulation stopped — %1. Reset, or lower the stiffness / raise the substeps.").arg(message));
    });
    connect(m_status, &StatusWidgets::resetRequested, m_controller, &SimulationController::reset);

    createComponents();
    for (QDockWidget *dock : findChildren<QDockWidget *>())
        m_defaultAreas.insert(dock, dockWidgetArea(dock));

    // A first run fills most of the screen, never more than it.
    const QRect available = screen() ? screen()->availableGeometry() : QRect(0, 0, 1600, 1000);
    resize(std::min(1500, available.width() * 9 / 10), std::min(950, available.height() * 9 / 10));
    resetLayout();
    AppSettings::restoreWindow(this);
    m_viewport->setFocus();
}

MainWindow::~MainWindow()
{
    // Components hold raw pointers into the document: unbind them before it goes.
    emit documentChanged(nullptr);
    m_viewport->setDocument(nullptr);
    m_controller->setDocument(nullptr);
    // Components made after the viewport (tools, recorder, docks) may talk to it while they
    // are destroyed: delete them newest first, and the viewport last, instead of Qt's
    // oldest-first order of children.
    QList<QPointer<QObject>> components;
    for (QObject *child : children()) {
        if (child != m_viewport && !qobject_cast<QLayout *>(child))
            components.append(child);
    }
    for (auto it = components.crbegin(); it != components.crend(); ++it)
        delete it->data();
    delete m_viewport;
}

void MainWindow::createMenus()
{
    m_fileMenu = menuBar()->addMenu(tr("&File"));
    m_fileActions->populate(m_fileMenu);
    m_editMenu = menuBar()->addMenu(tr("&Edit"));
    m_editActions->populate(m_editMenu);
    m_simulationMenu = menuBar()->addMenu(tr("&Simulation"));
    m_simulationActions->populate(m_simulationMenu);
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
}

void MainWindow::createDocks()
{
    m_sceneDock = new SceneDock(this);
    m_parametersDock = new ParametersDock(this);
    m_historyDock = new HistoryDock(m_undoGroup, this);
    m_toolsMenu->setEnabled(true);
    QMenu *panels = m_viewMenu->addMenu(tr("&Panels"));
    for (QDockWidget *dock : {static_cast<QDockWidget *>(m_sceneDock), static_cast<QDockWidget *>(m_parametersDock),
                              static_cast<QDockWidget *>(m_historyDock)})
        panels->addAction(dock->toggleViewAction());
    connect(this, &MainWindow::documentChanged, m_parametersDock, &ParametersDock::setDocument);
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
    auto *toolsDock = new ToolsDock(tools, this);
    auto *constraintDock = new ConstraintDock(tools, this);
    addDockWidget(Qt::LeftDockWidgetArea, toolsDock);
    addDockWidget(Qt::LeftDockWidgetArea, constraintDock);
    connect(this, &MainWindow::documentChanged, tools, &ToolManager::setDocument);
    connect(this, &MainWindow::documentChanged, toolsDock, &ToolsDock::setDocument);
    connect(this, &MainWindow::documentChanged, constraintDock, &ConstraintDock::setDocument);
    connect(tools, &ToolManager::statusMessage, statusBar(), &QStatusBar::showMessage);

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

void MainWindow::resetLayout()
{
    // Every dock goes back to the area it was created in, tabbed behind the scene dock (left)
    // or the parameters dock (right), so the window fits on a laptop screen.
    const QList<QDockWidget *> docks = findChildren<QDockWidget *>();
    for (QDockWidget *dock : docks) {
        if (!m_defaultAreas.contains(dock))
            m_defaultAreas.insert(dock, dock == m_sceneDock ? Qt::LeftDockWidgetArea : Qt::RightDockWidgetArea);
        removeDockWidget(dock);
    }
    addDockWidget(Qt::LeftDockWidgetArea, m_sceneDock);
    addDockWidget(Qt::RightDockWidgetArea, m_parametersDock);
    QDockWidget *lastLeft = nullptr;
    for (QDockWidget *dock : docks) {
        if (dock == m_sceneDock || dock == m_parametersDock)
            continue;
        if (m_defaultAreas.value(dock) == Qt::LeftDockWidgetArea) {
            tabifyDockWidget(lastLeft ? lastLeft : m_sceneDock, dock);
            lastLeft = dock;
        } else {
            addDockWidget(Qt::RightDockWidgetArea, dock);
            tabifyDockWidget(m_parametersDock, dock);
        }
    }
    for (QDockWidget *dock : docks) {
        dock->setFloating(false);
        dock->show();
    }
    m_parametersDock->raise();
    m_sceneDock->raise();
    resizeDocks({m_sceneDock, m_parametersDock}, {280, 400}, Qt::Horizontal);
    for (QToolBar *bar : findChildren<QToolBar *>())
        bar->show();
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
        connect(doc, &Document::filePathChanged, this, &MainWindow::updateTitle);
    }
    m_viewport->setDocument(doc);
    m_controller->setDocument(doc);
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
