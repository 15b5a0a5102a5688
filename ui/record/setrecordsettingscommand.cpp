#include "record/setrecordsettingscommand.h"

#include "document/document.h"

namespace drape {

SetRecordSettingsCommand::SetRecordSettingsCommand(Document *document, const RecordSettings &settings,
                                                   const QString &field)
    : m_document(document), m_old(document->scene().record), m_new(settings), m_field(field)
{
    setText(QObject::tr("Change recording %1").arg(field));
}

void SetRecordSettingsCommand::undo() { apply(m_old); }

void SetRecordSettingsCommand::redo() { apply(m_new); }

bool SetRecordSettingsCommand::mergeWith(const QUndoCommand *other)
{
    const auto *o = static_cast<const SetRecordSettingsCommand *>(other);
    if (o->m_document != m_document || o->m_field != m_field)
        return false;
    m_new = o->m_new;
    return true;
}

void SetRecordSettingsCommand::apply(const RecordSettings &settings)
{
    m_document->sceneForEdit().record = settings;
    m_document->notify(Change::Record);
}

} // namespace drape
