// Undoable edit of the scene's recording settings (saved with the scene). Consecutive edits
// of the same field merge into one undo step, so dragging a spin box is one step.
#pragma once

#include "scene/scene.h"

#include <QUndoCommand>

namespace drape {

class Document;

class SetRecordSettingsCommand : public QUndoCommand {
public:
    /// `field` names what changed ("fps", "size", ...); edits of the same field merge.
    SetRecordSettingsCommand(Document *document, const RecordSettings &settings, const QString &field);

    void undo() override;
    void redo() override;
    int id() const override { return 0x52454331; } // 'REC1'
    bool mergeWith(const QUndoCommand *other) override;

private:
    void apply(const RecordSettings &settings);

    Document *m_document;
    RecordSettings m_old;
    RecordSettings m_new;
    QString m_field;
};

} // namespace drape
