// Sets one scalar scene parameter (a row of the parameter table, core/scene/params.h) and applies
// it to the running simulation without a rebuild. Consecutive changes of the same parameter
// on the same cloth/collider merge into one undo step until close() is called (the slider
// was released), so one drag is one step.
#pragma once

#include <QUndoCommand>

#include <string>

namespace drape {

class Document;
struct ParamDesc;

class SetParameterCommand : public QUndoCommand {
public:
    static constexpr int kId = 0x5e7a;

    SetParameterCommand(Document *document, const ParamDesc &param, int index, double value,
                        QUndoCommand *parent = nullptr);

    void undo() override;
    void redo() override;
    int id() const override { return kId; }
    bool mergeWith(const QUndoCommand *other) override;

    /// Ends merging: the next change of this parameter starts a new undo step.
    void close() { m_open = false; }
    const std::string &key() const { return m_key; }
    int index() const { return m_index; }

private:
    void apply(double value);

    Document *m_document;
    std::string m_key;
    int m_index;
    double m_oldValue;
    double m_newValue;
    bool m_open = true;
};

} // namespace drape
