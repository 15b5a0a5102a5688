#include "modeguards.h"

#include "base/printable.h"

#include <QCommandLineOption>
#include <QCommandLineParser>

namespace drape::app {

QCommandLineOption maxParticlesOption()
{
    return QCommandLineOption(QStringLiteral("max-particles"),
        QStringLiteral("Scene budget: refuse scenes of more than N particles in all (default %1; "
                       "constraints, triangles and memory scale with it).")
            .arg(QString::fromStdString(groupDigits(SceneBudget {}.maxParticles))),
        QStringLiteral("N"));
}

bool budgetFromOptions(const QCommandLineParser &parser, SceneBudget *budget, QString *error)
{
    *budget = SceneBudget {};
    if (!parser.isSet(QStringLiteral("max-particles")))
        return true;
    bool ok = false;
    const QString text = parser.value(QStringLiteral("max-particles"));
    const qulonglong n = text.toULongLong(&ok);
    if (!ok || n < 1) {
        *error = QStringLiteral("--max-particles: expected a whole number >= 1, got \"%1\"")
                     .arg(terminalSafe(text));
        return false;
    }
    *budget = SceneBudget::forParticles(n);
    return true;
}

QString budgetHint()
{
    return QStringLiteral(" (give --max-particles N to allow a larger scene if this machine has the memory)");
}

QString terminalSafe(const QString &text)
{
    return QString::fromStdString(printable(text.toStdString(), 8192));
}

std::uint64_t estimatedFrameBytes(RecordFormat format, int width, int height, std::uint64_t particles)
{
    const double pixels = double(std::max(width, 0)) * double(std::max(height, 0));
    switch (format) {
    case RecordFormat::PngSequence:
        return std::uint64_t(pixels * 1.5);
    case RecordFormat::Gif:
        return std::uint64_t(pixels * 0.5);
    case RecordFormat::Mp4:
    case RecordFormat::WebM:
        return std::uint64_t(pixels * 0.05);
    case RecordFormat::ObjSequence:
        return 120 * particles;
    }
    return 0;
}

} // namespace drape::app
