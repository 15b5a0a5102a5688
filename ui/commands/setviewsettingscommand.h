// Changes the view settings (shading, overlays, ground). They are saved with the scene, so
// a change is an undo step like any other edit.
#pragma once

#include "scene/scene.h"

#include <QUndoCommand>

namespace drape {

class Document;

class SetViewSettingsCommand : public QUndoCommand {
public:
    SetViewSettingsCommand(Document *document, const ViewSettings &settings, const QString &text,
                           QUndoCommand *parent = nullptr);
    void undo() override;
    void redo() override;

private:
    Document *m_document;
    ViewSettings m_old;
    ViewSettings m_new;
};

} // namespace drape
