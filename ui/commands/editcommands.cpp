#include "commands/editcommands.h"

#include "document/document.h"

#include <QObject>

#include <cmath>

namespace drape {

namespace {

bool clothExists(Document *document, int cloth, QString *error)
{
    const int n = int(document->simulation().cloths.size());
    if (cloth >= 0 && cloth < n && cloth < int(document->scene().cloths.size()))
        return true;
    if (error)
        *error = QObject::tr("Cloth %1 does not exist (the scene has %2).").arg(cloth).arg(n);
    return false;
}

void setError(QString *error, const std::string &message)
{
    if (error)
        *error = QString::fromStdString(message);
}

} // namespace

std::unique_ptr<ClothEditCommand> makePinCommand(Document *document, int cloth,
                                                 std::span<const std::uint32_t> particles, bool pin,
                                                 QString *error)
{
    std::vector<std::vector<std::uint32_t>> perCloth(std::size_t(std::max(cloth + 1, 0)));
    if (cloth >= 0)
        perCloth[std::size_t(cloth)].assign(particles.begin(), particles.end());
    const QString text = particles.size() == 1 ? (pin ? QObject::tr("Pin Particle") : QObject::tr("Unpin Particle"))
                                               : (pin ? QObject::tr("Pin %1 Particles").arg(particles.size())
                                                      : QObject::tr("Unpin %1 Particles").arg(particles.size()));
    if (!clothExists(document, cloth, error))
        return nullptr;
    return makePinCommand(document, perCloth, pin, text, error);
}

std::unique_ptr<ClothEditCommand> makePinCommand(Document *document,
                                                 const std::vector<std::vector<std::uint32_t>> &particles,
                                                 bool pin, const QString &text, QString *error)
{
    auto command = std::make_unique<ClothEditCommand>(document, text);
    for (std::size_t c = 0; c < particles.size(); ++c) {
        if (particles[c].empty())
            continue;
        if (!clothExists(document, int(c), error))
            return nullptr;
        ClothEditResult r = makeSetKind(document->simulation().cloths[c], particles[c],
                                        pin ? ParticleKind::Static : ParticleKind::Dynamic);
        if (r.ok())
            r.error = command->applyEdit(int(c), r.edit);
        if (!r.ok()) {
            command->revertAll();
            setError(error, r.error);
            return nullptr;
        }
    }
    if (command->isEmpty())
        return nullptr;
    command->finish();
    return command;
}

std::unique_ptr<ClothEditCommand> makeAddConstraintCommand(Document *document, int cloth, std::uint32_t a,
                                                           std::uint32_t b, bool together, QString *error)
{
    if (!clothExists(document, cloth, error))
        return nullptr;
    const Cloth &c = document->simulation().cloths[std::size_t(cloth)];
    const ClothDesc &desc = document->scene().cloths[std::size_t(cloth)];
    NewConstraintDef def;
    def.restLength = together ? 0.f : -1.f;
    // A stitch is as stiff as the fabric's weave and tears like it.
    const float restLength = together ? 0.f
                                      : (a < c.particles.size() && b < c.particles.size()
                                             ? length(c.particles.position[a] - c.particles.position[b])
                                             : 0.f);
    float spacing = 0.f;
    for (const DistanceConstraint &k : c.constraints)
        if (k.kind == ConstraintKind::Structural) {
            spacing = k.restLength;
            break;
        }
    const ConstraintParams p = materialParams(desc.material, ConstraintKind::Structural,
                                              std::max(restLength, spacing > 0.f ? spacing : 0.01f),
                                              spacing > 0.f ? spacing : 0.01f);
    def.compliance = p.compliance;
    def.damping = p.damping;
    def.tearStrain = p.tearStrain;
    def.kind = ConstraintKind::User;
    ClothEditResult r = makeAddConstraint(c, a, b, def);
    if (!r.ok()) {
        setError(error, r.error);
        return nullptr;
    }
    auto command = std::make_unique<ClothEditCommand>(
        document, together ? QObject::tr("Sew Particles Together") : QObject::tr("Add Constraint"));
    if (std::string e = command->applyEdit(cloth, r.edit); !e.empty()) {
        setError(error, e);
        return nullptr;
    }
    command->finish();
    return command;
}

std::unique_ptr<ClothEditCommand> makeRemoveConstraintsCommand(Document *document, int cloth,
                                                               std::span<const std::uint32_t> constraints,
                                                               QString *error)
{
    if (!clothExists(document, cloth, error))
        return nullptr;
    ClothEditResult r = makeRemoveConstraints(document->simulation().cloths[std::size_t(cloth)], constraints, true);
    if (!r.ok()) {
        setError(error, r.error);
        return nullptr;
    }
    if (r.edit.empty())
        return nullptr;
    const QString text = r.edit.removedConstraints.size() == 1
                             ? QObject::tr("Remove Constraint")
                             : QObject::tr("Remove %1 Constraints").arg(r.edit.removedConstraints.size());
    auto command = std::make_unique<ClothEditCommand>(document, text);
    if (std::string e = command->applyEdit(cloth, r.edit); !e.empty()) {
        setError(error, e);
        return nullptr;
    }
    command->finish();
    return command;
}

// ---- SetConstraintPropsCommand -----------------------------------------------------------

SetConstraintPropsCommand::SetConstraintPropsCommand(Document *document, const QString &text)
    : ClothEditCommand(document, text)
{
}

std::unique_ptr<SetConstraintPropsCommand> SetConstraintPropsCommand::create(Document *document, int cloth,
                                                                             std::vector<std::uint32_t> constraints,
                                                                             Property property, double value,
                                                                             QString *error)
{
    if (!clothExists(document, cloth, error))
        return nullptr;
    if (constraints.empty()) {
        if (error)
            *error = QObject::tr("No constraints are selected.");
        return nullptr;
    }
    const float v = float(value);
    ConstraintProps props;
    QString text;
    switch (property) {
    case Property::RestLength:
        props.restLength = v;
        text = QObject::tr("Set Rest Length");
        break;
    case Property::Compliance:
        props.compliance = v;
        text = QObject::tr("Set Compliance");
        break;
    case Property::Damping:
        props.damping = v;
        text = QObject::tr("Set Damping");
        break;
    case Property::TearStrain:
        props.tearStrain = v;
        text = QObject::tr("Set Tear Strain");
        break;
    }
    ClothEditResult r = makeChangeConstraints(document->simulation().cloths[std::size_t(cloth)], constraints, props);
    if (!r.ok()) {
        setError(error, r.error);
        return nullptr;
    }
    if (r.edit.empty())
        return nullptr;
    std::unique_ptr<SetConstraintPropsCommand> command(new SetConstraintPropsCommand(document, text));
    if (std::string e = command->applyEdit(cloth, r.edit); !e.empty()) {
        setError(error, e);
        return nullptr;
    }
    command->m_cloth = cloth;
    command->m_constraints = std::move(constraints);
    command->m_property = property;
    command->finish();
    return command;
}

bool SetConstraintPropsCommand::mergeWith(const QUndoCommand *other)
{
    const auto *next = dynamic_cast<const SetConstraintPropsCommand *>(other);
    if (!next || next->m_cloth != m_cloth || next->m_property != m_property || next->m_constraints != m_constraints)
        return false;
    return absorb(*next);
}

} // namespace drape
