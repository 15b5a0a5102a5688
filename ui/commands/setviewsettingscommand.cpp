#include "commands/setviewsettingscommand.h"

#include "document/document.h"

namespace drape {

SetViewSettingsCommand::SetViewSettingsCommand(Document *document, const ViewSettings &settings, const QString &text,
                                               QUndoCommand *parent)
    : QUndoCommand(text, parent), m_document(document), m_old(document->scene().view), m_new(settings)
{
}

void SetViewSettingsCommand::redo()
{
    m_document->sceneForEdit().view = m_new;
    m_document->notify(Change::View);
}

void SetViewSettingsCommand::undo()
{
    m_document->sceneForEdit().view = m_old;
    m_document->notify(Change::View);
}

} // namespace drape
