// A GLSL program built from two resource files (:/shaders/...), written against libepoxy so
// it works in any current context (the viewport's Qt context or a headless EGL context).
// The header names no GL types; ids are plain unsigned.
#pragma once

#include <QByteArray>
#include <QHash>
#include <QString>

#include <map>
#include <memory>
#include <vector>

namespace drape {

class GlProgram {
public:
    GlProgram() = default;
    GlProgram(const GlProgram &) = delete;
    GlProgram &operator=(const GlProgram &) = delete;
    ~GlProgram(); // the GL object must already be released (release() with the context current)

    /// Compiles and links; on failure returns false and `error` names the file and holds the
    /// driver's log. `defines` ("#define NAME VALUE" lines) go right after each #version line.
    bool load(const QString &vertexPath, const QString &fragmentPath, QString *error,
        const QByteArray &defines = {});
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

/// The programs of one pair of shaders for each combination of compile-time switches, built
/// on first use. A feature that is off is compiled out instead of skipped by a uniform: a
/// software renderer (Mesa llvmpipe) shades pixels in SIMD groups and runs both sides of a
/// branch, so an `if (uShadows)` costs the shadow lookups even when it is false.
class GlProgramVariants {
public:
    struct Switch {
        const char *name;
        int value;
    };

    GlProgramVariants(QString vertexPath, QString fragmentPath);
    ~GlProgramVariants(); // release() first, with the context current

    /// The program with these switches defined, compiled on first use; nullptr (with
    /// `error`) when it does not compile.
    GlProgram *get(const std::vector<Switch> &switches, QString *error = nullptr);
    /// Programs compiled so far (each combination once).
    int count() const { return int(m_programs.size()); }
    void release();

private:
    QString m_vertexPath, m_fragmentPath;
    std::map<QByteArray, std::unique_ptr<GlProgram>> m_programs;
};

} // namespace drape
