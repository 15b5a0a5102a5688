// An OpenGL 3.3 core context without any window system, for `drape render` on machines with
// no display server: Mesa's surfaceless EGL platform (EGL_MESA_platform_surfaceless), else an
// EGL device (EGL_EXT_platform_device), else the default display. No surface is made: the
// context is made current with EGL_NO_SURFACE (EGL_KHR_surfaceless_context) and everything
// renders into framebuffer objects (OffscreenTarget).
#pragma once

#include <QString>

namespace drape {

class EglHeadlessContext {
public:
    EglHeadlessContext() = default;
    ~EglHeadlessContext();
    EglHeadlessContext(const EglHeadlessContext &) = delete;
    EglHeadlessContext &operator=(const EglHeadlessContext &) = delete;

    /// Opens a display, creates the context and makes it current. On failure `error` says
    /// which step failed and what is usually missing (Mesa's EGL driver).
    bool create(QString *error);
    bool makeCurrent();
    void doneCurrent();
    void destroy();

    bool isValid() const { return m_context != nullptr; }
    /// Which EGL platform was used ("surfaceless", "device", "default").
    QString platform() const { return m_platform; }
    /// GL_RENDERER of the current context (e.g. "llvmpipe (LLVM 15.0.6, 256 bits)").
    QString renderer() const;

private:
    bool tryDisplay(void *display, const QString &platform, QString *error);

    void *m_display = nullptr; // EGLDisplay
    void *m_context = nullptr; // EGLContext
    QString m_platform;
};

} // namespace drape
