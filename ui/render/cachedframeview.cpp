#include "render/cachedframeview.h"

namespace drape {

const Simulation &CachedFrameView::show(const Simulation &document, const CachedFrame &frame)
{
    if (!m_valid || m_sim.cloths.size() != frame.cloths.size()) {
        m_sim = document;
        m_valid = true;
    }
    for (std::size_t c = 0; c < frame.cloths.size() && c < m_sim.cloths.size(); ++c)
        applyCloth(m_sim.cloths[c], frame.cloths[c]);
    if (frame.colliderCenters.size() == m_sim.colliders.size())
        for (std::size_t k = 0; k < m_sim.colliders.size(); ++k)
            m_sim.colliders[k].center = frame.colliderCenters[k];
    return m_sim;
}

void CachedFrameView::applyCloth(Cloth &cloth, const ClothFrame &frame)
{
    const ClothTopology *topology = frame.topology.get();
    if (!topology || topology->particleCount != frame.position.size())
        return; // not a frame the cache makes; leave the cloth as it was
    if (cloth.topologyRevision != topology->revision || cloth.particles.size() != topology->particleCount) {
        cloth.particles.resize(topology->particleCount);
        cloth.particles.rest = topology->rest;
        cloth.triangles = topology->triangles;
        cloth.constraints.clear();
        cloth.tension.clear();
        if (cloth.uv.size() != topology->particleCount)
            cloth.uv.clear();
        cloth.topologyRevision = topology->revision;
    }
    cloth.particles.position = frame.position;
}

} // namespace drape
