#include "commands/editstepcommand.h"

#include "document/document.h"

namespace drape {

EditStepCommand::EditStepCommand(Document *document, const QString &text, QString mergeKey)
    : QUndoCommand(text), m_document(document), m_mergeKey(std::move(mergeKey))
{
}

bool EditStepCommand::mergeWith(const QUndoCommand *other)
{
    const auto *next = static_cast<const EditStepCommand *>(other);
    if (next->m_mergeKey != m_mergeKey || next->m_document != m_document)
        return false;
    return m_document->m_edit.mergeLast(next->text().toStdString());
}

void EditStepCommand::undo()
{
    // Undo returns to the frame the step was made at (the worker simulates it when needed); a
    // state being prepared for the frame on screen is no longer wanted.
    m_document->moveHistory(true);
}

void EditStepCommand::redo()
{
    if (m_first) {
        m_first = false;
        return;
    }
    m_document->moveHistory(false);
}

} // namespace drape
