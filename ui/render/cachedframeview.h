// What the viewport draws while the playhead shows a frame of the timeline's cache instead of
// the document's state (playing or scrubbing over the cache): a Simulation built once from the
// document's and then given each cached frame (layFrameOver, core/timeline/cachedframe.h), so
// the renderer draws it like any other state without a solver step. The editor's recorder
// draws its frames through the same view, so a recording shows what the viewport showed.
//
// A cloth that tore or was cut in between takes the cached triangles and rest positions; its
// constraints are not in the cache, so the constraint overlay and the strain and stress maps
// show nothing for it until the document is brought to that frame.
#pragma once

#include "sim/simulation.h"
#include "timeline/cachedframe.h"

#include <memory>

namespace drape {

class CachedFrameView {
public:
    /// The document's state changed in what the view copied (topology, pins, parameters):
    /// the next show() copies it again.
    void invalidate() { m_valid = false; }
    bool isValid() const { return m_valid; }
    /// Lays `frame` over (a copy of) `document` and returns the result.
    const Simulation &show(const Simulation &document, const CachedFrame &frame);
    /// The last result (valid after show()).
    const Simulation &simulation() const { return m_sim; }

private:
    Simulation m_sim;
    bool m_valid = false;
};

} // namespace drape
