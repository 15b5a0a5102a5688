#include "render/glprogram.h"

#include <epoxy/gl.h>

#include <QFile>
#include <QStringList>

#include <cassert>

namespace drape {

namespace {

QString readResource(const QString &path, QString *error)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("%1: cannot open shader (%2)").arg(path, file.errorString());
        return {};
    }
    return QString::fromUtf8(file.readAll());
}

/// GLSL has no #include: a line `#include "NAME"` is replaced by the resource :/shaders/NAME,
/// so shaders share code (lighting.glsl) instead of repeating it.
QString expandIncludes(const QString &source, const QString &path, QString *error)
{
    QStringList lines = source.split(QLatin1Char('\n'));
    for (QString &line : lines) {
        const QString trimmed = line.trimmed();
        if (!trimmed.startsWith(QLatin1String("#include")))
            continue;
        const qsizetype open = trimmed.indexOf(QLatin1Char('"'));
        const qsizetype close = trimmed.lastIndexOf(QLatin1Char('"'));
        if (open < 0 || close <= open) {
            *error = QStringLiteral("%1: malformed #include: %2").arg(path, trimmed);
            return {};
        }
        const QString included = QStringLiteral(":/shaders/") + trimmed.mid(open + 1, close - open - 1);
        line = readResource(included, error);
        if (line.isEmpty())
            return {};
    }
    return lines.join(QLatin1Char('\n'));
}

GLuint compile(GLenum type, const QString &path, QString *error)
{
    const QString source = expandIncludes(readResource(path, error), path, error);
    if (source.isEmpty()) {
        if (error->isEmpty())
            *error = QStringLiteral("%1: empty shader").arg(path);
        return 0;
    }
    const QByteArray utf8 = source.toUtf8();
    const char *text = utf8.constData();
    GLuint shader = glCreateShader(type);
    glShaderSource(shader, 1, &text, nullptr);
    glCompileShader(shader);
    GLint ok = GL_FALSE;
    glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
    if (ok != GL_TRUE) {
        GLint length = 0;
        glGetShaderiv(shader, GL_INFO_LOG_LENGTH, &length);
        QByteArray log(qMax(length, 1), '\0');
        glGetShaderInfoLog(shader, length, nullptr, log.data());
        *error = QStringLiteral("%1: compile error:\n%2").arg(path, QString::fromUtf8(log).trimmed());
        glDeleteShader(shader);
        return 0;
    }
    return shader;
}

} // namespace

GlProgram::~GlProgram() { assert(m_id == 0 && "GlProgram destroyed without release() in a current context"); }

bool GlProgram::load(const QString &vertexPath, const QString &fragmentPath, QString *error)
{
    release();
    QString localError;
    QString *err = error ? error : &localError;
    const GLuint vs = compile(GL_VERTEX_SHADER, vertexPath, err);
    if (!vs)
        return false;
    const GLuint fs = compile(GL_FRAGMENT_SHADER, fragmentPath, err);
    if (!fs) {
        glDeleteShader(vs);
        return false;
    }
    const GLuint program = glCreateProgram();
    glAttachShader(program, vs);
    glAttachShader(program, fs);
    glLinkProgram(program);
    glDeleteShader(vs);
    glDeleteShader(fs);
    GLint ok = GL_FALSE;
    glGetProgramiv(program, GL_LINK_STATUS, &ok);
    if (ok != GL_TRUE) {
        GLint length = 0;
        glGetProgramiv(program, GL_INFO_LOG_LENGTH, &length);
        QByteArray log(qMax(length, 1), '\0');
        glGetProgramInfoLog(program, length, nullptr, log.data());
        *err = QStringLiteral("%1 + %2: link error:\n%3").arg(vertexPath, fragmentPath, QString::fromUtf8(log).trimmed());
        glDeleteProgram(program);
        return false;
    }
    m_id = program;
    m_uniforms.clear();
    return true;
}

void GlProgram::release()
{
    if (m_id)
        glDeleteProgram(m_id);
    m_id = 0;
    m_uniforms.clear();
}

void GlProgram::use() const { glUseProgram(m_id); }

int GlProgram::uniform(const char *name)
{
    const QByteArray key(name);
    auto it = m_uniforms.constFind(key);
    if (it != m_uniforms.constEnd())
        return *it;
    const int location = glGetUniformLocation(m_id, name);
    m_uniforms.insert(key, location);
    return location;
}

} // namespace drape
