// A GLSL program built from two resource files (:/shaders/...), written against libepoxy so
// it works in any current context (the viewport's Qt context or a headless EGL context).
// The header names no GL types; ids are plain unsigned.
#pragma once

#include <QHash>
#include <QString>

namespace drape {

class GlProgram {
public:
    GlProgram() = default;
    GlProgram(const GlProgram &) = delete;
    GlProgram &operator=(const GlProgram &) = delete;
    ~GlProgram(); // the GL object must already be released (release() with the context current)

    /// Compiles and links; on failure returns false and `error` names the file and holds the
    /// driver's log.
    bool load(const QString &vertexPath, const QString &fragmentPath, QString *error);
    /// Deletes the program; the context must be current.
    void release();

    unsigned id() const { return m_id; }
    void use() const;
    /// Uniform location, cached; -1 when the uniform is absent or optimised away.
    int uniform(const char *name);

private:
    unsigned m_id = 0;
    QHash<QByteArray, int> m_uniforms;
};

} // namespace drape
