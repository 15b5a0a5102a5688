// Replaces a cloth's material (choosing a fabric preset) and re-derives the running cloth's
// constraint stiffness from it without a rebuild.
#pragma once

#include "scene/scene.h"

#include <QUndoCommand>

namespace drape {

class Document;

class SetMaterialCommand : public QUndoCommand {
public:
    SetMaterialCommand(Document *document, int cloth, const Material &material, QUndoCommand *parent = nullptr);
    void undo() override;
    void redo() override;

private:
    void apply(const Material &material);

    Document *m_document;
    int m_cloth;
    Material m_old;
    Material m_new;
};

} // namespace drape
