// The editor window. It only wires things: the viewport, the simulation loop, the docks,
// the action groups and the status bar are each their own class; tools and the recorder add
// themselves in createComponents().
#pragma once

#include <QHash>
#include <QMainWindow>

#include <memory>

class QUndoGroup;

namespace drape {

class Document;
class AddActions;
class EditActions;
class FileActions;
class HelpActions;
class HistoryDock;
class MessageBanner;
class OutlinerDock;
class ParametersDock;
class PresetActions;
class SceneDock;
class TimelineBar;
class SimulationActions;
class PlaybackActions;
class SimulationController;
class StatusWidgets;
class ViewActions;
class Viewport;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget *parent = nullptr);
    ~MainWindow() override;

    Viewport *viewport() const { return m_viewport; }
    TimelineBar *timelineBar() const { return m_timelineBar; }
    AddActions *objectActions() const { return m_addActions; }
    Document *document() const { return m_document.get(); }
    SimulationController *controller() const { return m_controller; }

    FileActions *fileActions() const { return m_fileActions; }
    PresetActions *presetActions() const { return m_presetActions; }
    OutlinerDock *outlinerDock() const { return m_outlinerDock; }
    QMenu *addMenu() const { return m_addMenu; }
    EditActions *editActions() const { return m_editActions; }
    SimulationActions *simulationActions() const { return m_simulationActions; }
    PlaybackActions *playbackActions() const { return m_playbackActions; }
    ViewActions *viewActions() const { return m_viewActions; }
    ParametersDock *parametersDock() const { return m_parametersDock; }
    SceneDock *sceneDock() const { return m_sceneDock; }
    HistoryDock *historyDock() const { return m_historyDock; }
    StatusWidgets *statusWidgets() const { return m_status; }
    QUndoGroup *undoGroup() const { return m_undoGroup; }

    QMenu *fileMenu() const { return m_fileMenu; }
    QMenu *editMenu() const { return m_editMenu; }
    QMenu *simulationMenu() const { return m_simulationMenu; }
    QMenu *toolsMenu() const { return m_toolsMenu; }
    QMenu *viewMenu() const { return m_viewMenu; }
    QMenu *helpMenu() const { return m_helpMenu; }
    QToolBar *mainToolBar() const { return m_toolBar; }
    /// The dismissable message over the viewport (blow-up advice, a scene that failed to open).
    MessageBanner *banner() const { return m_banner; }
    /// Shows why a scene could not be opened, over the viewport.
    void showSceneError(const QString &message);

    /// Screens where the editor opens maximised on a first run.
    static bool isSmallScreen(const QSize &available);
    /// Width of the dock column on a first run for a window `windowWidth` pixels wide.
    static int defaultDockWidth(int windowWidth);

    /// Replaces the open document (New, Open, Revert); the old one is deleted after every
    /// component has been rebound through documentChanged().
    void setDocument(std::unique_ptr<Document> document);

    /// Puts the docks back where they start on a first run.
    void resetLayout();

signals:
    void documentChanged(drape::Document *document);

protected:
    void closeEvent(QCloseEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;
    void showEvent(QShowEvent *event) override;
    void dragEnterEvent(QDragEnterEvent *event) override;
    void dropEvent(QDropEvent *event) override;

private:
    void createMenus();
    void createDocks();
    /// Tools, recorder and other components add their docks, toolbars and actions here.
    void createComponents();
    void updateTitle();

    std::unique_ptr<Document> m_document;
    Viewport *m_viewport = nullptr;
    TimelineBar *m_timelineBar = nullptr;
    SimulationController *m_controller = nullptr;
    QUndoGroup *m_undoGroup = nullptr;
    FileActions *m_fileActions = nullptr;
    PresetActions *m_presetActions = nullptr;
    OutlinerDock *m_outlinerDock = nullptr;
    EditActions *m_editActions = nullptr;
    SimulationActions *m_simulationActions = nullptr;
    PlaybackActions *m_playbackActions = nullptr;
    ViewActions *m_viewActions = nullptr;
    AddActions *m_addActions = nullptr;
    HelpActions *m_helpActions = nullptr;
    ParametersDock *m_parametersDock = nullptr;
    SceneDock *m_sceneDock = nullptr;
    HistoryDock *m_historyDock = nullptr;
    StatusWidgets *m_status = nullptr;
    QMenu *m_fileMenu = nullptr;
    QMenu *m_editMenu = nullptr;
    QMenu *m_simulationMenu = nullptr;
    QMenu *m_toolsMenu = nullptr;
    QMenu *m_viewMenu = nullptr;
    QMenu *m_addMenu = nullptr;
    QMenu *m_helpMenu = nullptr;
    QToolBar *m_toolBar = nullptr;
    MessageBanner *m_banner = nullptr;
    bool m_followWidth = true; ///< the dock column follows the window's width (first run only)
    QHash<QDockWidget *, Qt::DockWidgetArea> m_defaultAreas; ///< where each dock was created (Reset Layout)
};

} // namespace drape
