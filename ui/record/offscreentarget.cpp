// libepoxy only: no Qt OpenGL header may be included in this file (they clash).
#include "record/offscreentarget.h"

#include <epoxy/gl.h>

#include <algorithm>

namespace drape {

namespace {

QString framebufferStatusText(GLenum status)
{
    switch (status) {
    case GL_FRAMEBUFFER_INCOMPLETE_ATTACHMENT: return QStringLiteral("incomplete attachment");
    case GL_FRAMEBUFFER_INCOMPLETE_MISSING_ATTACHMENT: return QStringLiteral("missing attachment");
    case GL_FRAMEBUFFER_UNSUPPORTED: return QStringLiteral("unsupported format combination");
    case GL_FRAMEBUFFER_INCOMPLETE_MULTISAMPLE: return QStringLiteral("inconsistent sample counts");
    default: return QStringLiteral("status 0x%1").arg(status, 0, 16);
    }
}

} // namespace

OffscreenTarget::~OffscreenTarget() = default;

bool OffscreenTarget::create(QSize sizePx, int samples, QString *error)
{
    release();
    GLint maxSize = 0;
    glGetIntegerv(GL_MAX_RENDERBUFFER_SIZE, &maxSize);
    if (sizePx.width() < 1 || sizePx.height() < 1 || sizePx.width() > maxSize || sizePx.height() > maxSize) {
        *error = QStringLiteral("Cannot render at %1×%2 px: the size must be between 1 and %3 px.")
                     .arg(sizePx.width())
                     .arg(sizePx.height())
                     .arg(maxSize);
        return false;
    }
    GLint maxSamples = 0;
    glGetIntegerv(GL_MAX_SAMPLES, &maxSamples);
    m_samples = std::clamp(samples, 0, int(maxSamples));
    m_size = sizePx;

    GLint previous = 0;
    glGetIntegerv(GL_FRAMEBUFFER_BINDING, &previous);

    auto makeStorage = [&](GLenum format) {
        GLuint rb = 0;
        glGenRenderbuffers(1, &rb);
        glBindRenderbuffer(GL_RENDERBUFFER, rb);
        if (m_samples > 0)
            glRenderbufferStorageMultisample(GL_RENDERBUFFER, m_samples, format, sizePx.width(), sizePx.height());
        else
            glRenderbufferStorage(GL_RENDERBUFFER, format, sizePx.width(), sizePx.height());
        return rb;
    };
    m_color = makeStorage(GL_RGBA8);
    m_depth = makeStorage(GL_DEPTH24_STENCIL8);
    glGenFramebuffers(1, &m_fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, m_fbo);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, m_color);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_STENCIL_ATTACHMENT, GL_RENDERBUFFER, m_depth);
    GLenum status = glCheckFramebufferStatus(GL_FRAMEBUFFER);

    if (status == GL_FRAMEBUFFER_COMPLETE && m_samples > 0) {
        glGenRenderbuffers(1, &m_resolveColor);
        glBindRenderbuffer(GL_RENDERBUFFER, m_resolveColor);
        glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, sizePx.width(), sizePx.height());
        glGenFramebuffers(1, &m_resolveFbo);
        glBindFramebuffer(GL_FRAMEBUFFER, m_resolveFbo);
        glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, m_resolveColor);
        status = glCheckFramebufferStatus(GL_FRAMEBUFFER);
    }
    glBindRenderbuffer(GL_RENDERBUFFER, 0);
    glBindFramebuffer(GL_FRAMEBUFFER, GLuint(previous));
    if (status != GL_FRAMEBUFFER_COMPLETE) {
        *error = QStringLiteral("Cannot create a %1×%2 offscreen framebuffer with %3 samples: %4.")
                     .arg(sizePx.width())
                     .arg(sizePx.height())
                     .arg(m_samples)
                     .arg(framebufferStatusText(status));
        release();
        return false;
    }
    return true;
}

void OffscreenTarget::release()
{
    const GLuint fbos[] = {m_fbo, m_resolveFbo};
    const GLuint rbs[] = {m_color, m_depth, m_resolveColor};
    if (m_fbo || m_resolveFbo)
        glDeleteFramebuffers(2, fbos);
    if (m_color || m_depth || m_resolveColor)
        glDeleteRenderbuffers(3, rbs);
    m_fbo = m_color = m_depth = m_resolveFbo = m_resolveColor = 0;
    m_size = {};
    m_samples = 0;
}

QImage OffscreenTarget::read() const
{
    if (!m_fbo)
        return {};
    GLint previousRead = 0, previousDraw = 0, previousPack = 4;
    glGetIntegerv(GL_READ_FRAMEBUFFER_BINDING, &previousRead);
    glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &previousDraw);
    glGetIntegerv(GL_PACK_ALIGNMENT, &previousPack);

    const int w = m_size.width(), h = m_size.height();
    GLuint source = m_fbo;
    if (m_resolveFbo) {
        glBindFramebuffer(GL_READ_FRAMEBUFFER, m_fbo);
        glBindFramebuffer(GL_DRAW_FRAMEBUFFER, m_resolveFbo);
        glBlitFramebuffer(0, 0, w, h, 0, 0, w, h, GL_COLOR_BUFFER_BIT, GL_NEAREST);
        source = m_resolveFbo;
    }
    QImage image(w, h, QImage::Format_RGBA8888_Premultiplied);
    glBindFramebuffer(GL_READ_FRAMEBUFFER, source);
    glPixelStorei(GL_PACK_ALIGNMENT, 4); // rows of w*4 bytes: always 4-aligned, as QImage's are
    glReadPixels(0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, image.bits());

    glPixelStorei(GL_PACK_ALIGNMENT, previousPack);
    glBindFramebuffer(GL_READ_FRAMEBUFFER, GLuint(previousRead));
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, GLuint(previousDraw));
    // OpenGL's first row is the bottom one.
    return image.mirrored(false, true).convertToFormat(QImage::Format_RGBA8888);
}

} // namespace drape
