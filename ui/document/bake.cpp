#include "document/bake.h"

#include "document/document.h"
#include "timeline/diskcache.h"

#include <QDir>
#include <QFile>

#include <algorithm>

namespace drape {

namespace {

std::string cacheFolderOf(const Document &document)
{
    return diskCacheFolder(QFile::encodeName(document.filePath()).toStdString());
}

} // namespace

std::uint64_t bakeEnd(Document &document)
{
    const TimelineStatus status = document.timeline().status();
    std::uint64_t last = status.knownEnd > 0 ? status.knownEnd - 1 : 0;
    last = std::max(last, document.take().lastFrame());
    return std::max(last, document.frame());
}

QString bakeToFolder(Document &document, std::uint64_t last,
                     const std::function<bool(std::uint64_t, std::uint64_t)> &progress)
{
    if (document.filePath().isEmpty() || document.isModified())
        return QObject::tr("Save the scene first: the cache is baked for the saved file and read again when it "
                           "is opened.");
    Timeline &timeline = document.timeline();
    const std::uint64_t first = timeline.status().startFrame;
    last = std::max(last, first);
    const std::string folder = cacheFolderOf(document);
    DiskCacheWriter writer;
    std::string error;
    const auto failed = [&error] {
        return QObject::tr("%1\nNothing was baked; an earlier cache, if any, is unchanged.")
            .arg(QString::fromStdString(error));
    };
    if (!writer.open(folder, documentHash(document.scene(), document.take()), &error))
        return failed();
    const std::uint64_t total = last - first + 1;
    for (std::uint64_t f = first; f <= last; ++f) {
        if (!writer.append(*timeline.frame(f), &error))
            return failed();
        if (progress && !progress(f - first + 1, total))
            return QObject::tr("The bake was cancelled; the cache folder is as it was.");
    }
    if (!writer.finish(&error))
        return failed();
    return {};
}

QString seedFromDiskCache(Document &document)
{
    if (document.filePath().isEmpty())
        return {};
    const DiskCacheLoad load = readDiskCache(cacheFolderOf(document), documentHash(document.scene(), document.take()));
    if (load.status == DiskCacheStatus::Missing)
        return {};
    if (load.status != DiskCacheStatus::Loaded)
        return QString::fromStdString(load.message);
    if (document.timeline().seed(load.frames) == 0)
        return QObject::tr("The frame cache %1 was baked by a build that simulates differently; it is ignored "
                           "and the frames are simulated again.")
            .arg(QDir::toNativeSeparators(QString::fromStdString(cacheFolderOf(document))));
    return {};
}

} // namespace drape
