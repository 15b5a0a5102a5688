#include "commands/setmaterialcommand.h"

#include "document/document.h"
#include "scene/params.h"

#include <QCoreApplication>

namespace drape {

SetMaterialCommand::SetMaterialCommand(Document *document, int cloth, const Material &material, QUndoCommand *parent)
    : QUndoCommand(parent), m_document(document), m_cloth(cloth),
      m_old(document->scene().cloths.at(std::size_t(cloth)).material), m_new(material)
{
    setText(QCoreApplication::translate("SetMaterialCommand", "Material: %1").arg(QString::fromStdString(material.name)));
}

void SetMaterialCommand::apply(const Material &material)
{
    auto &cloths = m_document->sceneForEdit().cloths;
    if (m_cloth < 0 || std::size_t(m_cloth) >= cloths.size())
        return;
    // Go through the parameter table's setters, so explicit cloths (whose constraints carry
    // their own stiffness) are rescaled the same way as a slider edit would rescale them.
    Scene target = m_document->scene();
    target.cloths[std::size_t(m_cloth)].material = material;
    for (const ParamDesc &param : sceneParams()) {
        if (param.group == ParamGroup::Material && param.applies(target, m_cloth))
            param.set(m_document->sceneForEdit(), m_cloth, param.get(target, m_cloth));
    }
    cloths[std::size_t(m_cloth)].material = material; // fields outside the table (the name)
    m_document->applyParameters();
    m_document->notify(Change::Parameters);
}

void SetMaterialCommand::redo() { apply(m_new); }

void SetMaterialCommand::undo() { apply(m_old); }

} // namespace drape
