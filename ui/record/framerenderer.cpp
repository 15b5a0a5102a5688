#include "record/framerenderer.h"

namespace drape {

bool FrameRenderer::render(SceneRenderer &renderer, const Scene &scene, const Simulation &sim, const Camera &camera,
                           QSize sizePx, const RenderOptions &options, QImage *image, QString *error)
{
    if (!renderer.isInitialized()) {
        *error = QStringLiteral("The renderer is not initialised (no OpenGL context).");
        return false;
    }
    if (!m_target.isValid() || m_target.size() != sizePx) {
        if (!m_target.create(sizePx, OffscreenTarget::kRecordingSamples, error))
            return false;
    }
    renderer.render(scene, sim, camera, m_target.framebuffer(), sizePx.width(), sizePx.height(), options);
    *image = m_target.read();
    if (image->isNull()) {
        *error = QStringLiteral("Cannot read back the rendered frame (%1×%2).").arg(sizePx.width()).arg(sizePx.height());
        return false;
    }
    return true;
}

} // namespace drape
