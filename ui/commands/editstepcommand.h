// The one kind of undo command of the editor: a step of the core's history
// (core/edit/editdocument.h). The edit is already made when the command is pushed, so its
// first redo() does nothing; later ones call the core's redo, and undo() its undo. Merging (a
// value scrubbed with the mouse) joins the core's last two steps too, so both histories
// always have the same length.
#pragma once

#include <QString>
#include <QUndoCommand>

namespace drape {

class Document;

class EditStepCommand : public QUndoCommand {
public:
    static constexpr int kMergeId = 0x44524150;

    /// `mergeKey`: consecutive steps with the same non-empty key merge into one.
    EditStepCommand(Document *document, const QString &text, QString mergeKey);

    int id() const override { return m_mergeKey.isEmpty() ? -1 : kMergeId; }
    bool mergeWith(const QUndoCommand *other) override;
    void undo() override;
    void redo() override;

private:
    Document *m_document;
    QString m_mergeKey;
    bool m_first = true;
};

} // namespace drape
