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
    // Undo replays to the frame the step was made at; a state being prepared for the frame on
    // screen is no longer wanted.
    const std::uint64_t frame = m_document->beforeHistoryMove();
    m_document->m_edit.undo();
    m_document->afterHistoryMove(frame);
}

void EditStepCommand::redo()
{
    if (m_first) {
        m_first = false;
        return;
    }
    const std::uint64_t frame = m_document->beforeHistoryMove();
    m_document->m_edit.redo();
    m_document->afterHistoryMove(frame);
}

} // namespace drape
