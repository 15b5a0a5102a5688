#include "render/backdropcache.h"

#include <epoxy/gl.h>

#include <utility>

namespace drape {

namespace {

GLint attachmentParameter(GLenum attachment, GLenum name)
{
    GLint value = 0;
    glGetFramebufferAttachmentParameteriv(GL_FRAMEBUFFER, attachment, name, &value);
    return value;
}

/// The internal format of the bound framebuffer's depth (and stencil) attachment, 0 when the
/// cache cannot mirror it. A depth copy needs the same format on both sides.
GLenum targetDepthFormat()
{
    if (attachmentParameter(GL_DEPTH_ATTACHMENT, GL_FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE) == GL_NONE)
        return 0;
    const GLint depth = attachmentParameter(GL_DEPTH_ATTACHMENT, GL_FRAMEBUFFER_ATTACHMENT_DEPTH_SIZE);
    const bool real = attachmentParameter(GL_DEPTH_ATTACHMENT, GL_FRAMEBUFFER_ATTACHMENT_COMPONENT_TYPE) == GL_FLOAT;
    const bool stencil = attachmentParameter(GL_STENCIL_ATTACHMENT, GL_FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE) != GL_NONE
        && attachmentParameter(GL_STENCIL_ATTACHMENT, GL_FRAMEBUFFER_ATTACHMENT_STENCIL_SIZE) == 8;
    if (depth == 24 && !real)
        return stencil ? GL_DEPTH24_STENCIL8 : GL_DEPTH_COMPONENT24;
    if (depth == 32 && real)
        return stencil ? GL_DEPTH32F_STENCIL8 : GL_DEPTH_COMPONENT32F;
    return 0;
}

} // namespace

bool BackdropCache::begin(unsigned framebuffer, int widthPx, int heightPx)
{
    m_valid = false;
    if (m_unusable || framebuffer == 0)
        return false;
    GLint samples = 0;
    glGetIntegerv(GL_SAMPLES, &samples);
    const GLenum depthFormat = samples == 0 ? targetDepthFormat() : 0;
    if (depthFormat == 0)
        return false;
    if (!m_framebuffer) {
        glGenFramebuffers(1, &m_framebuffer);
        glGenTextures(1, &m_color);
        glGenRenderbuffers(1, &m_depth);
    }
    if (widthPx != m_width || heightPx != m_height || GLint(depthFormat) != m_depthFormat) {
        glBindTexture(GL_TEXTURE_2D, m_color);
        glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, widthPx, heightPx, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
        glBindTexture(GL_TEXTURE_2D, 0);
        glBindRenderbuffer(GL_RENDERBUFFER, m_depth);
        glRenderbufferStorage(GL_RENDERBUFFER, depthFormat, widthPx, heightPx);
        glBindRenderbuffer(GL_RENDERBUFFER, 0);
        glBindFramebuffer(GL_FRAMEBUFFER, m_framebuffer);
        glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, m_color, 0);
        m_stencil = depthFormat == GL_DEPTH24_STENCIL8 || depthFormat == GL_DEPTH32F_STENCIL8;
        glFramebufferRenderbuffer(
            GL_FRAMEBUFFER, m_stencil ? GL_DEPTH_STENCIL_ATTACHMENT : GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, m_depth);
        m_width = widthPx;
        m_height = heightPx;
        m_depthFormat = GLint(depthFormat);
        if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) {
            m_unusable = true;
            glBindFramebuffer(GL_FRAMEBUFFER, framebuffer);
            return false;
        }
    }
    glBindFramebuffer(GL_FRAMEBUFFER, m_framebuffer);
    return true;
}

void BackdropCache::end(std::vector<float> key)
{
    m_key = std::move(key);
    m_valid = true;
}

bool BackdropCache::copyTo(unsigned framebuffer)
{
    while (glGetError() != GL_NO_ERROR) {
        // Errors of earlier calls are not the copy's.
    }
    glBindFramebuffer(GL_READ_FRAMEBUFFER, m_framebuffer);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, framebuffer);
    // Depth and stencil together: a copy of the whole format, not a depth-only blit.
    const GLbitfield mask = GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT | (m_stencil ? GL_STENCIL_BUFFER_BIT : 0);
    glBlitFramebuffer(0, 0, m_width, m_height, 0, 0, m_width, m_height, mask, GL_NEAREST);
    glBindFramebuffer(GL_FRAMEBUFFER, framebuffer);
    if (glGetError() != GL_NO_ERROR) {
        m_unusable = true;
        m_valid = false;
        return false;
    }
    return true;
}

void BackdropCache::release()
{
    if (m_framebuffer) {
        glDeleteFramebuffers(1, &m_framebuffer);
        glDeleteTextures(1, &m_color);
        glDeleteRenderbuffers(1, &m_depth);
    }
    m_framebuffer = m_color = m_depth = 0;
    m_width = m_height = m_depthFormat = 0;
    m_valid = false;
    m_unusable = false;
    m_key.clear();
}

} // namespace drape
