// File menu: New (empty or from a preset), New from Preset, Open, Open Recent, Save, Save As,
// Save with State, Revert, the exports of ExportActions (Bake to Folder, Export Point Cache), Quit. Owns the
// "unsaved changes" prompt (Save / Discard / Cancel) used before anything replaces the
// document, and shows load/save errors (which name the file and the place) in a message box.
#pragma once

#include <QObject>

class QAction;
class QMenu;

namespace drape {

class ExportActions;
class MainWindow;

class FileActions : public QObject {
    Q_OBJECT
public:
    explicit FileActions(MainWindow *window);

    /// Fills the File menu.
    void populate(QMenu *menu);

    QAction *newAction() const { return m_new; }
    QAction *openAction() const { return m_open; }
    QAction *saveAction() const { return m_save; }
    QAction *saveAsAction() const { return m_saveAs; }
    QAction *revertAction() const { return m_revert; }
    QAction *quitAction() const { return m_quit; }
    /// Bake to Folder and Export Point Cache.
    ExportActions *exportActions() const { return m_export; }

    /// True when the current document may be replaced (saved, discarded, or unmodified).
    bool maybeSave();

public slots:
    /// File ▸ New (Ctrl+N): asks what to start from (NewSceneDialog), then startNew().
    void newScene();
    /// A new, unsaved document: the empty scene (an empty `choice`) or preset `choice`.
    bool startNew(const QString &choice);
    /// Opens a preset (built in or the user's) as a new, unsaved document; what loading
    /// warned of shows in the banner. False when unknown / cancelled.
    bool newFromPreset(const QString &key);
    void open();
    /// Opens a scene file (after the unsaved-changes prompt); errors are shown and the
    /// current document stays. False when it failed or was cancelled.
    bool openFile(const QString &path);
    bool save();
    bool saveAs();
    /// Saves a copy that includes the simulation state (positions, velocities, time), so the
    /// scene reopens exactly where it is now instead of at its start.
    bool saveWithState();
    void revert();
    /// File ▸ Import Mesh: asks for a file, then what to make of it (ImportMeshDialog).
    void importMesh();

signals:
    void recentFilesChanged();

private:
    void updateRecentMenu();
    void updateActions();
    bool saveTo(const QString &path, bool withState = false);
    QString askSavePath(const QString &title);

    MainWindow *m_window;
    QAction *m_new = nullptr;
    ExportActions *m_export;
    QAction *m_open = nullptr;
    QAction *m_save = nullptr;
    QAction *m_saveAs = nullptr;
    QAction *m_saveWithState = nullptr;
    QAction *m_revert = nullptr;
    QAction *m_importMesh = nullptr;
    QAction *m_quit = nullptr;
    QMenu *m_recentMenu = nullptr;
    QMenu *m_presetMenu = nullptr;
};

} // namespace drape
