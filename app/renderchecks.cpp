#include "renderchecks.h"

#include "modeguards.h"

#include "base/outputcheck.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

namespace drape::app {

QString unknownVideoSuffix(const QString &output)
{
    const QFileInfo info(output);
    if (info.isDir() || info.suffix().isEmpty())
        return {};
    return QStringLiteral(
        "-o %1: unknown video format \".%2\"; Drape writes .mp4, .webm and .gif videos, or PNG "
        "frames into a folder (a name without an extension, or an existing folder)")
        .arg(QDir::toNativeSeparators(output), info.suffix());
}

OutputEstimate estimateOutput(const RecordPlan &plan, std::uint64_t particles)
{
    OutputEstimate e;
    const int frames = std::max(plan.frames, 0);
    e.bytes = std::uint64_t(frames)
        * estimatedFrameBytes(
            plan.settings.format, plan.frameSize.width(), plan.frameSize.height(), particles);
    e.summary = QStringLiteral("planned %1 frames, %2×%3 at %4 fps (%5), about %6 on disk")
                    .arg(frames)
                    .arg(plan.frameSize.width())
                    .arg(plan.frameSize.height())
                    .arg(plan.settings.fps)
                    .arg(recordFormatName(plan.settings.format))
                    .arg(QString::fromStdString(formatBytes(double(e.bytes))));
    return e;
}

QString checkRenderOutput(const RecordPlan &plan, const OutputEstimate &estimate, bool force)
{
    const std::string path = QFile::encodeName(plan.output).toStdString();
    const std::uint64_t bytes = force ? 0 : estimate.bytes;
    std::string problem;
    if (recordFormatIsSequence(plan.settings.format))
        problem = checkOutputFolder(path, bytes);
    else if (!QFileInfo(plan.output).isDir()) // the encoder names a folder in the way itself
        problem = checkOutputFile(path, bytes);
    if (problem.empty())
        return {};
    QString message = QString::fromStdString(problem);
    if (!force && message.contains(QLatin1String("is free")))
        message += QStringLiteral(" (give --force to render anyway, or fewer frames or a smaller --size)");
    return message;
}

} // namespace drape::app
