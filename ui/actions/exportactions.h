// File ▸ Bake to Folder and File ▸ Export Point Cache: the document's frames, from its
// timeline's cache where it holds them, written beside the scene (a cache a re-opened document
// scrubs at once, ui/document/bake.h) or as a PC2 point cache for Blender, Maya and 3ds Max.
// A cloth that tears or is cut changes its vertex count, which PC2 cannot hold: the export
// then says so and offers the same frames as an OBJ sequence.
#pragma once

#include "document/frameexport.h"

#include <QObject>

#include <cstdint>

class QAction;
class QMenu;
class QProgressDialog;

namespace drape {

class MainWindow;

class ExportActions : public QObject {
    Q_OBJECT
public:
    explicit ExportActions(MainWindow *window);

    /// Adds the actions to `menu` before `before`.
    void populate(QMenu *menu, QAction *before);

    QAction *bakeAction() const { return m_bake; }
    QAction *pointCacheAction() const { return m_pointCache; }

public slots:
    /// Bakes frames from the start to bakeEnd(); errors in a message box. False on failure.
    bool bake();
    /// Asks for a .pc2 file and writes the record range (docs/timeline.md). False on failure.
    bool exportPointCache();

private:
    QProgressDialog *progressDialog(const QString &text, std::uint64_t total);
    /// Progress that moves `progress` and cancels when its Cancel was pressed.
    static ExportProgress follow(QProgressDialog *progress);
    void updateActions();

    MainWindow *m_window;
    QAction *m_bake = nullptr;
    QAction *m_pointCache = nullptr;
};

} // namespace drape
