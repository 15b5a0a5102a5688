#include "timeline/cachedframe.h"

namespace drape {

std::size_t ClothTopology::bytes() const
{
    return sizeof(ClothTopology) + triangles.capacity() * sizeof(Triangle) + rest.capacity() * sizeof(Vec3);
}

std::size_t CachedFrame::ownBytes() const
{
    std::size_t total = sizeof(CachedFrame) + colliderCenters.capacity() * sizeof(Vec3)
        + cloths.capacity() * sizeof(ClothFrame);
    for (const ClothFrame &c : cloths)
        total += c.position.capacity() * sizeof(Vec3);
    return total;
}

std::shared_ptr<const CachedFrame> captureFrame(
    const Simulation &sim, std::uint64_t frame, const CachedFrame *previous)
{
    auto out = std::make_shared<CachedFrame>();
    out->frame = frame;
    out->time = sim.time();
    out->simFrame = sim.frame();
    out->stateHash = sim.stateHash();
    out->blownUp = sim.status().blownUp;
    if (out->blownUp)
        out->blowUpMessage = sim.status().message;
    out->cloths.resize(sim.cloths.size());
    for (std::size_t c = 0; c < sim.cloths.size(); ++c) {
        const Cloth &cloth = sim.cloths[c];
        ClothFrame &f = out->cloths[c];
        f.position = cloth.particles.position;
        if (previous && c < previous->cloths.size()) {
            const auto &prior = previous->cloths[c].topology;
            if (prior && prior->revision == cloth.topologyRevision
                && prior->particleCount == cloth.particles.size())
                f.topology = prior;
            const auto &priorKind = previous->cloths[c].kind;
            if (priorKind && *priorKind == cloth.particles.kind)
                f.kind = priorKind;
        }
        if (!f.topology) {
            auto t = std::make_shared<ClothTopology>();
            t->revision = cloth.topologyRevision;
            t->particleCount = cloth.particles.size();
            t->triangles = cloth.triangles;
            t->rest = cloth.particles.rest;
            f.topology = std::move(t);
        }
        if (!f.kind)
            f.kind = std::make_shared<const std::vector<ParticleKind>>(cloth.particles.kind);
    }
    out->colliderCenters.reserve(sim.colliders.size());
    for (const Collider &k : sim.colliders)
        out->colliderCenters.push_back(k.center);
    return out;
}

void layFrameOver(Simulation &sim, const CachedFrame &frame)
{
    for (std::size_t c = 0; c < frame.cloths.size() && c < sim.cloths.size(); ++c) {
        Cloth &cloth = sim.cloths[c];
        const ClothFrame &f = frame.cloths[c];
        const ClothTopology *topology = f.topology.get();
        if (!topology || topology->particleCount != f.position.size())
            continue; // not a frame captureFrame() makes; leave the cloth as it was
        if (cloth.topologyRevision != topology->revision || cloth.particles.size() != topology->particleCount) {
            cloth.particles.resize(topology->particleCount);
            cloth.particles.rest = topology->rest;
            cloth.triangles = topology->triangles;
            cloth.constraints.clear();
            if (cloth.uv.size() != topology->particleCount)
                cloth.uv.clear();
            cloth.topologyRevision = topology->revision;
        }
        if (f.kind && f.kind->size() == topology->particleCount)
            cloth.particles.kind = *f.kind;
        cloth.particles.position = f.position;
    }
    if (frame.colliderCenters.size() == sim.colliders.size())
        for (std::size_t k = 0; k < sim.colliders.size(); ++k)
            sim.colliders[k].center = frame.colliderCenters[k];
    sim.setTime(frame.time, frame.simFrame);
    if (!frame.blownUp && sim.status().blownUp)
        sim.clearBlowUp();
}

bool drawsLikeState(const Simulation &sim, const CachedFrame &frame, bool constraintsDrawn)
{
    if (frame.cloths.size() != sim.cloths.size() || frame.colliderCenters.size() != sim.colliders.size())
        return false;
    for (std::size_t c = 0; c < frame.cloths.size(); ++c) {
        const Cloth &cloth = sim.cloths[c];
        const ClothTopology *topology = frame.cloths[c].topology.get();
        if (!topology || !(cloth.uv.empty() || cloth.uv.size() == topology->particleCount))
            return false;
        // The constraints are not in the frame: layFrameOver drops them where the topology
        // differs, which leaves a rope (drawn and exported by its constraints) invisible.
        if (topology->revision != cloth.topologyRevision && (constraintsDrawn || topology->triangles.empty()))
            return false;
    }
    return true;
}

} // namespace drape
