// A fixed-size render target independent of any window: a multisampled framebuffer the scene
// renders into, a single-sampled one it is resolved into, and a read-back into a QImage.
// Written against libepoxy so it runs in the viewport's Qt context and in the headless EGL
// context alike; the editor's recorder and `drape render` use it with the same sample count,
// which is what makes their frames match.
#pragma once

#include <QImage>
#include <QSize>
#include <QString>

namespace drape {

class OffscreenTarget {
public:
    /// MSAA samples used by every recording path (editor and headless), so they match.
    static constexpr int kRecordingSamples = 4;

    OffscreenTarget() = default;
    ~OffscreenTarget(); // does not touch GL: call release() with the context current
    OffscreenTarget(const OffscreenTarget &) = delete;
    OffscreenTarget &operator=(const OffscreenTarget &) = delete;

    /// (Re)creates the buffers; the GL context must be current. The sample count is clamped
    /// to GL_MAX_SAMPLES. Returns false with `error` when the framebuffer is incomplete.
    bool create(QSize sizePx, int samples, QString *error);
    /// Frees the GL objects; the context that created them must be current.
    void release();

    bool isValid() const { return m_fbo != 0; }
    QSize size() const { return m_size; }
    int samples() const { return m_samples; }
    /// The framebuffer to render into.
    unsigned framebuffer() const { return m_fbo; }

    /// Resolves the multisampled buffer and reads it back, top row first, as straight-alpha
    /// RGBA8888 (OpenGL's rows run bottom-up and blending leaves premultiplied colour; both
    /// are undone here). Restores the framebuffer binding it found.
    QImage read() const;

private:
    QSize m_size;
    int m_samples = 0;
    unsigned m_fbo = 0;        // multisampled (or the only one when samples == 0)
    unsigned m_color = 0;      // renderbuffer
    unsigned m_depth = 0;      // renderbuffer, depth 24 + stencil 8
    unsigned m_resolveFbo = 0; // single-sampled
    unsigned m_resolveColor = 0;
};

} // namespace drape
