// The Add menu: new cloths (a hanging or a lying grid, a rope) and colliders (plane, sphere,
// box, capsule), each placed at the viewport's focus point with a size a designer can start
// from, as one undoable structural edit of the document (the playhead returns to the start).
#pragma once

#include <QObject>

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
    enum class Object { VerticalGrid, HorizontalGrid, Rope, Plane, Sphere, Box, Capsule };
    /// Adds `what` to the open document; false (with statusMessage) when it could not.
    bool add(Object what);

signals:
    void statusMessage(const QString &text);

private:
    Viewport *m_viewport;
    std::function<Document *()> m_document;
};

} // namespace drape
