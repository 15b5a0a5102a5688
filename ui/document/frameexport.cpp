#include "document/frameexport.h"

#include "document/bake.h"
#include "document/document.h"
#include "scene/objexport.h"
#include "timeline/pc2writer.h"

#include <QDir>
#include <QFile>

#include <algorithm>

namespace drape {

void exportRange(Document &document, std::uint64_t *first, std::uint64_t *last)
{
    const RecordSettings &r = document.scene().record;
    *first = std::uint64_t(std::max(0, r.startFrame));
    *last = r.endFrame > r.startFrame ? std::uint64_t(r.endFrame) : std::max(*first, bakeEnd(document));
}

PointCacheExport exportPointCache(Document &document, const QString &path, std::uint64_t first,
                                  std::uint64_t last, const ExportProgress &progress)
{
    PointCacheExport result;
    Timeline &timeline = document.timeline();
    Pc2Writer writer;
    std::string error;
    bool ok = writer.open(QFile::encodeName(path).toStdString(), first, &error);
    for (std::uint64_t f = first; ok && f <= last; ++f) {
        const auto frame = timeline.frame(f);
        if (f > first && pointCount(*frame) != writer.pointCount())
            result.topologyChangedAt = f;
        ok = writer.append(*frame, &error);
        if (ok && progress && !progress(f - first + 1, last - first + 1)) {
            result.cancelled = true;
            return result; // the writer removes its partial file
        }
    }
    if (ok && writer.finish(&error)) {
        result.points = writer.pointCount();
        return result;
    }
    result.error = QString::fromStdString(error);
    return result;
}

QString exportObjSequence(Document &document, const QString &folder, std::uint64_t first, std::uint64_t last,
                          const ExportProgress &progress)
{
    if (!QDir().mkpath(folder))
        return QObject::tr("Cannot create the folder %1.").arg(QDir::toNativeSeparators(folder));
    std::string error;
    for (std::uint64_t f = first; f <= last; ++f) {
        const QString name = QDir(folder).filePath(QStringLiteral("frame_%1.obj").arg(f, 4, 10, QLatin1Char('0')));
        // Consecutive frames continue the timeline's own replay: one pass over the range.
        if (!writeObjFile(QFile::encodeName(name).toStdString(), document.timeline().simulationAt(f), &error))
            return QObject::tr("%1\nThe %2 meshes written before it stay in %3.")
                .arg(QString::fromStdString(error))
                .arg(f - first)
                .arg(QDir::toNativeSeparators(folder));
        if (progress && !progress(f - first + 1, last - first + 1))
            break;
    }
    return {};
}

} // namespace drape
