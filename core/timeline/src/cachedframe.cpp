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
    out->stateHash = sim.stateHash();
    out->blownUp = sim.status().blownUp;
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
        }
        if (!f.topology) {
            auto t = std::make_shared<ClothTopology>();
            t->revision = cloth.topologyRevision;
            t->particleCount = cloth.particles.size();
            t->triangles = cloth.triangles;
            t->rest = cloth.particles.rest;
            f.topology = std::move(t);
        }
    }
    out->colliderCenters.reserve(sim.colliders.size());
    for (const Collider &k : sim.colliders)
        out->colliderCenters.push_back(k.center);
    return out;
}

} // namespace drape
