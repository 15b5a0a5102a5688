// View menu: shading (smooth / flat / checker), overlays (wireframe, particles, constraints
// by kind, strain heat map, pins, ground), camera views (front / side / top / frame all),
// full screen and reset layout. Shading and overlays are view settings saved with the scene,
// changed through undoable commands; the constraint-kind filter and the camera are not edits.
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

private:
    QAction *addToggle(const QString &text, const QKeySequence &key, bool ViewSettings::*field);
    void setDocument(Document *document);
    void refresh();
    void edit(const QString &text, const std::function<void(ViewSettings &)> &change);

    MainWindow *m_window;
    QPointer<Document> m_document;
    QActionGroup *m_shading;
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
