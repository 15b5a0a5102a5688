#include "commands/clotheditcommand.h"

#include "document/document.h"

#include <algorithm>
#include <cstring>

namespace drape {

namespace {

struct Fnv {
    std::uint64_t h = 1469598103934665603ull;
    void bytes(const void *p, std::size_t n)
    {
        const auto *b = static_cast<const unsigned char *>(p);
        for (std::size_t i = 0; i < n; ++i) {
            h ^= b[i];
            h *= 1099511628211ull;
        }
    }
    template <typename T> void value(const T &v) { bytes(&v, sizeof v); }
};

} // namespace

std::uint64_t topologyFingerprint(const Cloth &cloth)
{
    Fnv f;
    f.value(std::uint64_t(cloth.particles.size()));
    f.value(std::uint64_t(cloth.constraints.size()));
    for (const DistanceConstraint &c : cloth.constraints) {
        f.value(c.a);
        f.value(c.b);
        f.value(c.restLength);
        f.value(c.compliance);
        f.value(c.damping);
        f.value(c.tearStrain);
        f.value(c.kind);
    }
    f.value(std::uint64_t(cloth.triangles.size()));
    for (const Triangle &t : cloth.triangles)
        f.bytes(t.v, sizeof t.v);
    return f.h;
}

std::size_t descParticleCount(const ClothDesc &desc)
{
    switch (desc.source) {
    case ClothSource::Grid:
        return std::size_t(std::max(desc.grid.across, 0)) * std::size_t(std::max(desc.grid.down, 0));
    case ClothSource::Rope:
        return std::size_t(std::max(desc.rope.count, 0));
    case ClothSource::Explicit:
        return desc.explicitData.rest.size();
    }
    return 0;
}

ClothDesc snapshotDesc(const ClothDesc &previous, const Cloth &cloth)
{
    // The same convention as snapshotScene() (core/scene/src/scene.cpp), so that saving an edited scene
    // leaves the description as it is: explicit kinds as authored (a grab's kinematic hold is
    // not authored), and the static particles also listed as `pins`.
    ClothDesc d = previous;
    d.source = ClothSource::Explicit;
    d.grid = GridDesc{};
    d.rope = RopeDesc{};
    d.explicitData = explicitFromCloth(cloth);
    d.pins.clear();
    for (std::uint32_t i = 0; i < d.explicitData.kind.size(); ++i) {
        ParticleKind &k = d.explicitData.kind[i];
        if (k == ParticleKind::Kinematic)
            k = ParticleKind::Dynamic;
        if (k == ParticleKind::Static)
            d.pins.push_back(i);
    }
    d.tearMode = cloth.tearMode;
    d.thickness = cloth.thickness;
    return d;
}

void rebuildKeepingMotion(Cloth &cloth, const ClothDesc &desc)
{
    Cloth fresh = buildCloth(desc);
    const std::size_t n = std::min(fresh.particles.size(), cloth.particles.size());
    for (std::size_t i = 0; i < n; ++i) {
        if (fresh.particles.kind[i] == ParticleKind::Static)
            continue; // a pin stays where it is authored
        fresh.particles.position[i] = cloth.particles.position[i];
        fresh.particles.previous[i] = cloth.particles.previous[i];
        fresh.particles.velocity[i] = cloth.particles.velocity[i];
    }
    fresh.topologyRevision = cloth.topologyRevision + 1; // renderers must rebuild their indices
    cloth = std::move(fresh);
}

ClothEditCommand::ClothEditCommand(Document *document, const QString &text, QUndoCommand *parent)
    : QUndoCommand(text, parent), m_document(document)
{
}

ClothEditCommand::~ClothEditCommand() = default;

ClothEditCommand::ClothRecord &ClothEditCommand::recordFor(int cloth)
{
    for (ClothRecord &r : m_records)
        if (r.cloth == cloth)
            return r;
    ClothRecord r;
    r.cloth = cloth;
    r.descBefore = std::make_shared<const ClothDesc>(m_document->scene().cloths[std::size_t(cloth)]);
    r.fingerprintBefore = topologyFingerprint(m_document->simulation().cloths[std::size_t(cloth)]);
    m_records.push_back(std::move(r));
    return m_records.back();
}

std::string ClothEditCommand::applyEdit(int cloth, const ClothEdit &edit)
{
    Q_ASSERT(!m_finished);
    Simulation &sim = m_document->simulation();
    if (cloth < 0 || cloth >= int(sim.cloths.size()) || cloth >= int(m_document->scene().cloths.size()))
        return "cloth " + std::to_string(cloth) + " does not exist";
    if (edit.empty())
        return {};
    ClothRecord &r = recordFor(cloth);
    std::string error = apply(sim.cloths[std::size_t(cloth)], edit);
    if (!error.empty())
        return error;
    r.edits.push_back(edit);
    r.topology = r.topology || edit.changesTopology();
    return {};
}

void ClothEditCommand::recordApplied(int cloth, const ClothEdit &edit)
{
    Q_ASSERT(!m_finished && !edit.changesTopology());
    if (edit.empty() || cloth < 0 || cloth >= int(m_document->scene().cloths.size()))
        return;
    recordFor(cloth).edits.push_back(edit);
}

void ClothEditCommand::setRest(int cloth, std::uint32_t index, const Vec3 &rest)
{
    Q_ASSERT(!m_finished);
    Cloth &c = m_document->simulation().cloths[std::size_t(cloth)];
    if (index >= c.particles.rest.size())
        return;
    ClothRecord &r = recordFor(cloth);
    auto it = std::find_if(r.rests.begin(), r.rests.end(), [&](const RestChange &x) { return x.index == index; });
    if (it == r.rests.end())
        r.rests.push_back({index, c.particles.rest[index], rest});
    else
        it->after = rest;
    c.particles.rest[index] = rest;
}

void ClothEditCommand::revertAll()
{
    Q_ASSERT(!m_finished);
    for (auto it = m_records.rbegin(); it != m_records.rend(); ++it)
        revertRecord(*it, false);
    m_records.clear();
    m_document->notify(Change::Pins | Change::Topology);
}

bool ClothEditCommand::isEmpty() const
{
    for (const ClothRecord &r : m_records)
        if (!r.edits.empty() || !r.rests.empty())
            return false;
    return true;
}

void ClothEditCommand::finish()
{
    Q_ASSERT(!m_finished);
    m_finished = true;
    const Simulation &sim = m_document->simulation();
    for (ClothRecord &r : m_records) {
        const Cloth &cloth = sim.cloths[std::size_t(r.cloth)];
        r.fingerprintAfter = topologyFingerprint(cloth);
        bool pinsOnly = !r.topology && r.rests.empty() && descParticleCount(*r.descBefore) == cloth.particles.size();
        for (const ClothEdit &e : r.edits)
            pinsOnly = pinsOnly && e.changedConstraints.empty();
        if (pinsOnly && r.descBefore->source != ClothSource::Explicit) {
            ClothDesc d = *r.descBefore;
            d.pins.clear();
            for (std::uint32_t i = 0; i < cloth.particles.size(); ++i)
                if (cloth.particles.kind[i] == ParticleKind::Static)
                    d.pins.push_back(i);
            r.descAfter = std::make_shared<const ClothDesc>(std::move(d));
        } else {
            r.descAfter = std::make_shared<const ClothDesc>(snapshotDesc(*r.descBefore, cloth));
        }
    }
}

void ClothEditCommand::revertRecord(ClothRecord &r, bool checkFingerprint)
{
    Cloth &cloth = m_document->simulation().cloths[std::size_t(r.cloth)];
    if (!checkFingerprint || topologyFingerprint(cloth) == r.fingerprintAfter) {
        bool ok = true;
        for (auto it = r.edits.rbegin(); it != r.edits.rend() && ok; ++it)
            ok = revert(cloth, *it).empty();
        if (ok) {
            for (const RestChange &c : r.rests)
                cloth.particles.rest[c.index] = c.before;
            return;
        }
    }
    // The cloth changed under the command (it tore by itself): rebuild from the description.
    if (r.descBefore)
        rebuildKeepingMotion(cloth, *r.descBefore);
}

void ClothEditCommand::applyRecord(ClothRecord &r)
{
    Cloth &cloth = m_document->simulation().cloths[std::size_t(r.cloth)];
    if (topologyFingerprint(cloth) == r.fingerprintBefore) {
        bool ok = true;
        std::size_t applied = 0;
        for (; applied < r.edits.size() && ok; ++applied)
            ok = apply(cloth, r.edits[applied]).empty();
        if (ok) {
            for (const RestChange &c : r.rests)
                cloth.particles.rest[c.index] = c.after;
            return;
        }
        // Leave nothing half-applied before rebuilding.
        for (std::size_t i = applied - 1; i-- > 0;)
            revert(cloth, r.edits[i]);
    }
    rebuildKeepingMotion(cloth, *r.descAfter);
}

void ClothEditCommand::undo()
{
    Scene &scene = m_document->sceneForEdit();
    for (auto it = m_records.rbegin(); it != m_records.rend(); ++it) {
        if (it->cloth >= int(scene.cloths.size()) || it->cloth >= int(m_document->simulation().cloths.size()))
            continue;
        revertRecord(*it, true);
        scene.cloths[std::size_t(it->cloth)] = *it->descBefore;
    }
    notifyDocument();
}

void ClothEditCommand::redo()
{
    if (!m_finished)
        finish();
    Scene &scene = m_document->sceneForEdit();
    for (ClothRecord &r : m_records) {
        if (r.cloth >= int(scene.cloths.size()) || r.cloth >= int(m_document->simulation().cloths.size()))
            continue;
        if (!m_skipFirstRedo)
            applyRecord(r);
        scene.cloths[std::size_t(r.cloth)] = *r.descAfter;
    }
    m_skipFirstRedo = false;
    notifyDocument();
}

bool ClothEditCommand::absorb(const ClothEditCommand &next)
{
    if (!m_finished || !next.m_finished || next.m_records.size() != m_records.size())
        return false;
    for (std::size_t i = 0; i < m_records.size(); ++i)
        if (m_records[i].cloth != next.m_records[i].cloth || !m_records[i].rests.empty() || !next.m_records[i].rests.empty())
            return false;
    for (std::size_t i = 0; i < m_records.size(); ++i) {
        ClothRecord &r = m_records[i];
        const ClothRecord &n = next.m_records[i];
        r.edits.insert(r.edits.end(), n.edits.begin(), n.edits.end());
        r.descAfter = n.descAfter;
        r.fingerprintAfter = n.fingerprintAfter;
        r.topology = r.topology || n.topology;
    }
    return true;
}

std::vector<ClothEdit> ClothEditCommand::editsOf(int cloth) const
{
    for (const ClothRecord &r : m_records)
        if (r.cloth == cloth)
            return r.edits;
    return {};
}

void ClothEditCommand::notifyDocument()
{
    Change what = Change::Pins;
    for (const ClothRecord &r : m_records)
        if (r.topology || r.fingerprintBefore != r.fingerprintAfter)
            what = what | Change::Topology;
    for (const ClothRecord &r : m_records)
        for (const ClothEdit &e : r.edits)
            if (!e.changedConstraints.empty())
                what = what | Change::Parameters;
    m_document->notify(what);
}

} // namespace drape
