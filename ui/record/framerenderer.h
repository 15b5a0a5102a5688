// Renders recording frames: SceneRenderer into an OffscreenTarget at the plan's size with
// OffscreenTarget::kRecordingSamples, read back as straight-alpha RGBA. The editor's recorder
// (in the viewport's context, with the viewport's renderer) and `drape render` (in a headless
// EGL context, with its own renderer) both go through this class, so the same scene and
// settings give the same pixels.
#pragma once

#include "record/offscreentarget.h"
#include "render/scenerenderer.h"

#include <QImage>
#include <QSize>
#include <QString>

namespace drape {

class FrameRenderer {
public:
    /// The GL context that owns the target must be current; call release() before it goes.
    bool render(SceneRenderer &renderer, const Scene &scene, const Simulation &sim, const Camera &camera,
                QSize sizePx, const RenderOptions &options, QImage *image, QString *error);
    void release() { m_target.release(); }
    const OffscreenTarget &target() const { return m_target; }

private:
    OffscreenTarget m_target;
};

} // namespace drape
