#include "render/cachedframeview.h"

namespace drape {

const Simulation &CachedFrameView::show(const Simulation &document, const CachedFrame &frame)
{
    if (!m_valid || m_sim.cloths.size() != frame.cloths.size()) {
        m_sim = document;
        m_valid = true;
    }
    layFrameOver(m_sim, frame);
    return m_sim;
}

} // namespace drape
