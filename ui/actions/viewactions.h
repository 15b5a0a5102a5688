// View menu: shading (smooth / flat), the fabric look (none / checker / weave / image, and the
// weave's density), overlays (wireframe, particles, constraints by kind, strain heat map,
// pins, ground), camera views (front / side / top / frame all), full screen and reset layout.
// Shading, fabric look and overlays are view settings saved with the scene, changed through
// undoable commands; the constraint-kind filter, the camera and the fabric image file (kept in
// AppSettings, since a scene never makes Drape read another file) are not edits.
#pragma once

#include "document/document.h"
#include "scene/scene.h"

#include <QObject>
#include <QPointer>

#include <functional>

class QAction;
class QActionGroup;
class QMenu;

namespace drape {

class Document;
class MainWindow;

class ViewActions : public QObject {
    Q_OBJECT
public:
    explicit ViewActions(MainWindow *window);

    void populate(QMenu *menu);

    QAction *wireframeAction() const { return m_wireframe; }
    QAction *strainAction() const { return m_strain; }
    QAction *stressAction() const { return m_stress; }
    QAction *fullScreenAction() const { return m_fullScreen; }
    /// The Fabric Look actions, in the order of FabricLook (None, Checker, Weave, Image…).
    QList<QAction *> fabricActions() const;

    /// Reads `path` as the fabric image and, when it reads, remembers it and switches the
    /// document to the Image look (one undoable step). A missing or unreadable file changes
    /// nothing: returns false with `error` saying why, also shown in the viewport's banner.
    bool useFabricImage(const QString &path, QString *error = nullptr);

private:
    QAction *addToggle(const QString &text, const QKeySequence &key, bool ViewSettings::*field);
    void setDocument(Document *document);
    void refresh();
    void edit(const QString &text, const std::function<void(ViewSettings &)> &change);
    void addFabricLook();
    void chooseFabricImage();
    void askWeaveDensity();
    /// Gives the viewport the remembered image when the document's look needs it (once per file).
    void loadRememberedFabricImage(const ViewSettings &view);

    MainWindow *m_window;
    QPointer<Document> m_document;
    QActionGroup *m_shading;
    QActionGroup *m_fabric;
    QAction *m_weaveDensity = nullptr;
    QString m_fabricImagePath; ///< the file the viewport's image was read from (or tried)
    bool m_fabricImageTried = false;
    QAction *m_wireframe = nullptr;
    QAction *m_particles = nullptr;
    QAction *m_constraints = nullptr;
    QAction *m_strain = nullptr;
    QAction *m_stress = nullptr;
    QAction *m_pins = nullptr;
    QAction *m_ground = nullptr;
    QList<QAction *> m_kindActions;
    QList<QAction *> m_cameraActions;
    QAction *m_fullScreen;
    QAction *m_resetLayout;
    QList<std::pair<QAction *, bool ViewSettings::*>> m_toggles;
};

} // namespace drape
