// The Add menu: new cloths (a hanging or a lying grid, a rope, a disc or a hexagonal panel
// triangulated at a chosen edge length, a mesh file) and colliders (plane, sphere, box,
// capsule, a mesh file), each placed at the viewport's focus point with a size a designer can start
// from, as one undoable structural edit of the document (the playhead returns to the start).
#pragma once

#include <QObject>

#include "base/vec3.h"

#include <QString>

#include <functional>

class QMenu;

namespace drape {

class Document;
class Viewport;

class AddActions : public QObject {
    Q_OBJECT
public:
    AddActions(Viewport *viewport, std::function<Document *()> document, QObject *parent = nullptr);

    void populate(QMenu *menu);

    // The objects the menu adds, at `focus` (m); names are numbered after what the scene has.
    enum class Object { VerticalGrid, HorizontalGrid, Rope, Disc, Polygon, Plane, Sphere, Box, Capsule };
    /// Adds `what` to the open document; false (with statusMessage) when it could not.
    bool add(Object what);
    /// m, the target edge length of the next disc or polygon panel's triangles.
    void setPanelEdgeLength(double metres) { m_edgeLength = metres; }
    double panelEdgeLength() const { return m_edgeLength; }

signals:
    void statusMessage(const QString &text);
    /// "From Mesh File…": the File ▸ Import Mesh dialog (FileActions::importMesh).
    void importMeshRequested();

private:
    /// A flat panel of outline `corners` (radius 0.5 m) lying at the focus, named `base` N.
    QString addPanel(Document &doc, int corners, const QString &base, const Vec3 &focus);

    Viewport *m_viewport;
    std::function<Document *()> m_document;
    double m_edgeLength = 0.04;
};

} // namespace drape
