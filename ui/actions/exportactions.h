// File ▸ Bake to Folder and File ▸ Export Point Cache: the document's frames, from its
// timeline's cache where it holds them, written beside the scene (a cache a re-opened document
// scrubs at once, ui/document/bake.h) or as a PC2 point cache for Blender, Maya and 3ds Max.
// A cloth that tears or is cut changes its vertex count, which PC2 cannot hold: the export
// then says so and offers the same frames as an OBJ sequence.
#pragma once

#include <QObject>

#include <cstdint>

class QAction;
class QMenu;
class QProgressDialog;

namespace drape {

class Document;
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
    /// The document frames a point cache or OBJ sequence covers: the record range when set.
    void exportRange(Document &document, std::uint64_t *first, std::uint64_t *last) const;
    bool writePointCache(Document &document, const QString &path, std::uint64_t first, std::uint64_t last);
    bool writeObjSequence(Document &document, const QString &folder, std::uint64_t first, std::uint64_t last);
    QProgressDialog *progressDialog(const QString &text, std::uint64_t total);
    void updateActions();

    MainWindow *m_window;
    QAction *m_bake = nullptr;
    QAction *m_pointCache = nullptr;
};

} // namespace drape
