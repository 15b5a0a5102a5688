// libepoxy only: no Qt OpenGL header may be included in this file (they clash).
#include "record/eglheadlesscontext.h"

#include <epoxy/egl.h>
#include <epoxy/gl.h>

#include <QStringList>

#include <algorithm>
#include <vector>

#ifndef EGL_PLATFORM_SURFACELESS_MESA
#define EGL_PLATFORM_SURFACELESS_MESA 0x31DD
#endif

namespace drape {

namespace {

QString eglErrorText(EGLint code)
{
    switch (code) {
    case EGL_NOT_INITIALIZED: return QStringLiteral("EGL_NOT_INITIALIZED");
    case EGL_BAD_ALLOC: return QStringLiteral("EGL_BAD_ALLOC");
    case EGL_BAD_ATTRIBUTE: return QStringLiteral("EGL_BAD_ATTRIBUTE");
    case EGL_BAD_CONFIG: return QStringLiteral("EGL_BAD_CONFIG");
    case EGL_BAD_CONTEXT: return QStringLiteral("EGL_BAD_CONTEXT");
    case EGL_BAD_DISPLAY: return QStringLiteral("EGL_BAD_DISPLAY");
    case EGL_BAD_MATCH: return QStringLiteral("EGL_BAD_MATCH");
    case EGL_BAD_PARAMETER: return QStringLiteral("EGL_BAD_PARAMETER");
    default: return QStringLiteral("EGL error 0x%1").arg(code, 0, 16);
    }
}

bool hasClientExtension(const char *name) { return epoxy_has_egl_extension(EGL_NO_DISPLAY, name); }

} // namespace

EglHeadlessContext::~EglHeadlessContext() { destroy(); }

bool EglHeadlessContext::create(QString *error)
{
    destroy();
    QStringList failures;
    QString why;
    if (hasClientExtension("EGL_EXT_platform_base") || hasClientExtension("EGL_KHR_platform_base") ||
        epoxy_egl_version(EGL_NO_DISPLAY) >= 15) {
        if (hasClientExtension("EGL_MESA_platform_surfaceless")) {
            EGLDisplay display = eglGetPlatformDisplayEXT(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr);
            if (tryDisplay(display, QStringLiteral("surfaceless"), &why))
                return true;
            failures << QStringLiteral("surfaceless: ") + why;
        }
        if (hasClientExtension("EGL_EXT_device_enumeration") && hasClientExtension("EGL_EXT_platform_device")) {
            EGLint count = 0;
            eglQueryDevicesEXT(0, nullptr, &count);
            std::vector<EGLDeviceEXT> devices(std::size_t(std::max(count, 0)));
            if (count > 0 && eglQueryDevicesEXT(count, devices.data(), &count)) {
                for (EGLint i = 0; i < count; ++i) {
                    EGLDisplay display = eglGetPlatformDisplayEXT(EGL_PLATFORM_DEVICE_EXT, devices[std::size_t(i)], nullptr);
                    if (tryDisplay(display, QStringLiteral("device %1").arg(i), &why))
                        return true;
                    failures << QStringLiteral("device %1: ").arg(i) + why;
                }
            }
        }
    }
    if (tryDisplay(eglGetDisplay(EGL_DEFAULT_DISPLAY), QStringLiteral("default"), &why))
        return true;
    failures << QStringLiteral("default display: ") + why;
    *error = QStringLiteral("Cannot create a headless OpenGL 3.3 context with EGL (%1). Rendering without a "
                            "display needs Mesa's EGL driver and a GL driver (Debian: apt-get install "
                            "libegl-mesa0 libgl1-mesa-dri).")
                 .arg(failures.join(QStringLiteral("; ")));
    return false;
}

bool EglHeadlessContext::tryDisplay(void *displayHandle, const QString &platform, QString *error)
{
    EGLDisplay display = EGLDisplay(displayHandle);
    if (display == EGL_NO_DISPLAY) {
        *error = QStringLiteral("no display (%1)").arg(eglErrorText(eglGetError()));
        return false;
    }
    EGLint major = 0, minor = 0;
    if (!eglInitialize(display, &major, &minor)) {
        *error = QStringLiteral("eglInitialize failed (%1)").arg(eglErrorText(eglGetError()));
        return false;
    }
    auto fail = [&](const QString &what) {
        *error = QStringLiteral("%1 (%2)").arg(what, eglErrorText(eglGetError()));
        eglTerminate(display);
        return false;
    };
    if (!epoxy_has_egl_extension(display, "EGL_KHR_surfaceless_context"))
        return fail(QStringLiteral("EGL_KHR_surfaceless_context is not supported"));
    if (!eglBindAPI(EGL_OPENGL_API))
        return fail(QStringLiteral("desktop OpenGL is not available through EGL"));

    // No surface is ever created, so any config able to render desktop GL will do; with
    // EGL_KHR_no_config_context none is needed at all.
    EGLConfig config = nullptr;
    const EGLint configAttribs[] = {EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_RED_SIZE, 8, EGL_GREEN_SIZE, 8,
                                    EGL_BLUE_SIZE, 8, EGL_ALPHA_SIZE, 8, EGL_SURFACE_TYPE, 0, EGL_NONE};
    EGLint configCount = 0;
    if (!eglChooseConfig(display, configAttribs, &config, 1, &configCount) || configCount < 1) {
        if (!epoxy_has_egl_extension(display, "EGL_KHR_no_config_context"))
            return fail(QStringLiteral("no EGL config renders desktop OpenGL"));
        config = EGL_NO_CONFIG_KHR;
    }
    const EGLint contextAttribs[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 3,
                                     EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE};
    EGLContext context = eglCreateContext(display, config, EGL_NO_CONTEXT, contextAttribs);
    if (context == EGL_NO_CONTEXT)
        return fail(QStringLiteral("cannot create an OpenGL 3.3 core context"));
    if (!eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, context)) {
        eglDestroyContext(display, context);
        return fail(QStringLiteral("cannot make the context current without a surface"));
    }
    m_display = display;
    m_context = context;
    m_platform = platform;
    return true;
}

bool EglHeadlessContext::makeCurrent()
{
    return m_context && eglMakeCurrent(EGLDisplay(m_display), EGL_NO_SURFACE, EGL_NO_SURFACE, EGLContext(m_context));
}

void EglHeadlessContext::doneCurrent()
{
    if (m_display)
        eglMakeCurrent(EGLDisplay(m_display), EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
}

void EglHeadlessContext::destroy()
{
    if (!m_display)
        return;
    doneCurrent();
    if (m_context)
        eglDestroyContext(EGLDisplay(m_display), EGLContext(m_context));
    eglTerminate(EGLDisplay(m_display));
    m_display = nullptr;
    m_context = nullptr;
    m_platform.clear();
}

QString EglHeadlessContext::renderer() const
{
    if (!m_context)
        return {};
    const GLubyte *text = glGetString(GL_RENDERER);
    return text ? QString::fromLatin1(reinterpret_cast<const char *>(text)) : QString();
}

} // namespace drape
