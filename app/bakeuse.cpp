#include "bakeuse.h"

#include "modeguards.h"

#include <QDir>
#include <QFile>

#include <cstdio>

namespace drape::app {

namespace {

void say(const QString &mode, const QString &text)
{
    std::fprintf(stderr, "%s: %s\n", qPrintable(mode), terminalSafe(text).toLocal8Bit().constData());
    std::fflush(stderr);
}

QString folderName(const QString &folder) { return QDir::toNativeSeparators(folder) + QDir::separator(); }

} // namespace

QCommandLineOption noCacheOption()
{
    return QCommandLineOption(QStringLiteral("no-cache"),
                              QStringLiteral("Simulate every frame, even those baked beside the scene file "
                                             "(SCENE.drape-cache/, File ▸ Bake to Folder)."));
}

std::vector<std::shared_ptr<const CachedFrame>> bakedFrames(const QString &mode, const QString &sceneArgument,
                                                           const Scene &scene, const Take &take,
                                                           const QString &notUsedBecause, QString *folder)
{
    folder->clear();
    if (sceneArgument.startsWith(QLatin1String("preset:")))
        return {};
    BakeLookup bake = findBake(QFile::encodeName(sceneArgument).toStdString(), scene, take);
    *folder = QFile::decodeName(QByteArray::fromStdString(bake.folder));
    if (!bake.message.empty()) {
        say(mode, QString::fromStdString(bake.message));
        return {};
    }
    if (!bake.frames.empty() && !notUsedBecause.isEmpty()) {
        say(mode, QStringLiteral("the baked cache %1 is not used: %2").arg(folderName(*folder), notUsedBecause));
        return {};
    }
    return std::move(bake.frames);
}

void reportBakeUse(const QString &mode, const QString &folder, const BakedReplay &replay, std::uint64_t first,
                   std::uint64_t last)
{
    if (folder.isEmpty())
        return;
    if (!replay.startMatched()) {
        say(mode, QStringLiteral("the frame cache %1 was baked by a build that simulates differently; it is ignored "
                                 "and the frames are simulated again")
                      .arg(folderName(folder)));
        return;
    }
    const std::uint64_t end = replay.bakedEnd(); // one past the last usable frame
    if (end == replay.startFrame())
        return; // no bake there (a stale or damaged one was reported when read)
    if (first >= end) {
        say(mode, QStringLiteral("the baked cache %1 ends at frame %2, before frame %3: every frame is simulated")
                      .arg(folderName(folder))
                      .arg(end - 1)
                      .arg(first));
        return;
    }
    QString text = QStringLiteral("frames %1–%2 from the baked cache %3")
                       .arg(first)
                       .arg(std::min(last, end - 1))
                       .arg(folderName(folder));
    if (last >= end)
        text += QStringLiteral("; frames %1–%2 are simulated, from the scene's start (a bake holds no solver state)")
                    .arg(end)
                    .arg(last);
    say(mode, text);
}

QString simulatedSummary(const QString &folder, const BakedReplay &replay)
{
    QString text = QStringLiteral("%1 frames simulated").arg(replay.simulatedFrames());
    if (replay.bakedFramesUsed() > 0)
        text += QStringLiteral(", %1 from the baked cache %2").arg(replay.bakedFramesUsed()).arg(folderName(folder));
    return text;
}

} // namespace drape::app
