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

GLuint compile(GLenum type, const QString &path, const QByteArray &defines, QString *error)
{
    const QString source = expandIncludes(readResource(path, error), path, error);
    if (source.isEmpty()) {
        if (error->isEmpty())
            *error = QStringLiteral("%1: empty shader").arg(path);
        return 0;
    }
    QByteArray utf8 = source.toUtf8();
    if (!defines.isEmpty()) {
        // #version must stay the first line: the switches go after it.
        const qsizetype version = utf8.indexOf("#version");
        const qsizetype endOfLine = version < 0 ? -1 : utf8.indexOf('\n', version);
        utf8.insert(endOfLine < 0 ? 0 : endOfLine + 1, defines);
    }
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

bool GlProgram::load(const QString &vertexPath, const QString &fragmentPath, QString *error, const QByteArray &defines)
{
    release();
    QString localError;
    QString *err = error ? error : &localError;
    const GLuint vs = compile(GL_VERTEX_SHADER, vertexPath, defines, err);
    if (!vs)
        return false;
    const GLuint fs = compile(GL_FRAGMENT_SHADER, fragmentPath, defines, err);
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

GlProgramVariants::GlProgramVariants(QString vertexPath, QString fragmentPath)
    : m_vertexPath(std::move(vertexPath))
    , m_fragmentPath(std::move(fragmentPath))
{
}

GlProgramVariants::~GlProgramVariants() = default;

GlProgram *GlProgramVariants::get(const std::vector<Switch> &switches, QString *error)
{
    QByteArray defines;
    for (const Switch &s : switches)
        defines += "#define " + QByteArray(s.name) + ' ' + QByteArray::number(s.value) + '\n';
    std::unique_ptr<GlProgram> &program = m_programs[defines];
    if (!program) {
        auto made = std::make_unique<GlProgram>();
        QString localError;
        QString *err = error ? error : &localError;
        if (!made->load(m_vertexPath, m_fragmentPath, err, defines)) {
            *err += QStringLiteral("\n(compiled with:\n%1)").arg(QString::fromUtf8(defines).trimmed());
            m_programs.erase(defines);
            return nullptr;
        }
        program = std::move(made);
    }
    return program.get();
}

void GlProgramVariants::release()
{
    for (auto &[defines, program] : m_programs)
        program->release();
    m_programs.clear();
}

} // namespace drape
