#include "commands/setparametercommand.h"

#include "document/document.h"
#include "scene/params.h"

#include <QCoreApplication>

namespace drape {

namespace {

Change changeFor(const ParamDesc &param)
{
    if (param.group == ParamGroup::Collider)
        return Change::Parameters | Change::Colliders;
    return Change::Parameters;
}

} // namespace

SetParameterCommand::SetParameterCommand(Document *document, const ParamDesc &param, int index, double value,
                                         QUndoCommand *parent)
    : QUndoCommand(parent), m_document(document), m_key(param.key), m_index(index),
      m_oldValue(param.get(document->scene(), index)), m_newValue(value)
{
    QString text = QCoreApplication::translate("SetParameterCommand", "Set %1").arg(QString::fromStdString(param.label));
    if (param.group == ParamGroup::Material || param.group == ParamGroup::Cloth || param.group == ParamGroup::Collider)
        text += QStringLiteral(" (#%1)").arg(index + 1);
    setText(text);
}

void SetParameterCommand::apply(double value)
{
    const ParamDesc *param = findParam(m_key);
    if (!param)
        return;
    param->set(m_document->sceneForEdit(), m_index, value);
    // Grid resolution and the like only take effect on Reset; everything else goes to the
    // running simulation now, keeping positions and velocities (no jolt).
    if (!param->needsRebuild)
        m_document->applyParameters();
    m_document->notify(changeFor(*param));
}

void SetParameterCommand::redo() { apply(m_newValue); }

void SetParameterCommand::undo() { apply(m_oldValue); }

bool SetParameterCommand::mergeWith(const QUndoCommand *other)
{
    const auto *o = static_cast<const SetParameterCommand *>(other);
    if (!m_open || o->m_key != m_key || o->m_index != m_index || o->m_document != m_document)
        return false;
    m_newValue = o->m_newValue;
    m_open = o->m_open;
    // A drag that ends where it began is no step at all.
    if (m_newValue == m_oldValue)
        setObsolete(true);
    return true;
}

} // namespace drape
