// The tools' undo commands. Each is a ClothEditCommand made from core operations
// (core/edit/clothedit.h, cut.h): the factories validate the request against the running
// cloth, apply it, and return the command ready to push, or null with `error` naming what
// was wrong. Gestures that apply edits live (a cut stroke, a brush of pins) build one
// ClothEditCommand themselves and push it on release.
#pragma once

#include "commands/clotheditcommand.h"

#include <QString>

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

namespace drape {

class Document;

/// Pins (`pin`) or unpins the particles of `cloth`. Null when nothing would change.
std::unique_ptr<ClothEditCommand> makePinCommand(Document *document, int cloth,
                                                 std::span<const std::uint32_t> particles, bool pin,
                                                 QString *error = nullptr);
/// Pins / unpins particles of several cloths as one step (pin actions, box selections).
/// `particles[c]` lists the particles of cloth c.
std::unique_ptr<ClothEditCommand> makePinCommand(Document *document,
                                                 const std::vector<std::vector<std::uint32_t>> &particles,
                                                 bool pin, const QString &text, QString *error = nullptr);
/// Sews particles a and b of `cloth` with a User constraint whose rest length is their
/// current distance, or 0 when `together` (the stitch pulls them onto each other).
std::unique_ptr<ClothEditCommand> makeAddConstraintCommand(Document *document, int cloth, std::uint32_t a,
                                                           std::uint32_t b, bool together,
                                                           QString *error = nullptr);
/// Removes constraints (and the triangles that lose an edge with them).
std::unique_ptr<ClothEditCommand> makeRemoveConstraintsCommand(Document *document, int cloth,
                                                               std::span<const std::uint32_t> constraints,
                                                               QString *error = nullptr);

/// The constraint dock's edits of the selection's rest length, compliance, damping or tear
/// strain. Consecutive changes of the same property of the same constraints merge into one
/// undo step (a spin box scrubbed with the mouse).
class SetConstraintPropsCommand : public ClothEditCommand {
public:
    enum class Property { RestLength = 0, Compliance = 1, Damping = 2, TearStrain = 3 };

    /// Null (with `error`) when the value is out of range or the selection is empty.
    static std::unique_ptr<SetConstraintPropsCommand> create(Document *document, int cloth,
                                                             std::vector<std::uint32_t> constraints,
                                                             Property property, double value,
                                                             QString *error = nullptr);
    int id() const override { return 0x44524150; }
    bool mergeWith(const QUndoCommand *other) override;

private:
    SetConstraintPropsCommand(Document *document, const QString &text);

    int m_cloth = -1;
    std::vector<std::uint32_t> m_constraints;
    Property m_property = Property::RestLength;
};

} // namespace drape
