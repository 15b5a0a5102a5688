#include "record/objsequencewriter.h"

#include "scene/objexport.h"
#include "record/pngsequencewriter.h"
#include "sim/simulation.h"

#include <QDir>
#include <QSaveFile>

#include <cstdio>
#include <string>

namespace drape {

namespace {

// The frame's OBJ text: a header naming the output frame and its time, then the core's mesh
// export (the same text `drape simulate --obj-sequence` writes).
std::string objText(const Simulation &sim, int frame, double time)
{
    char header[128];
    std::snprintf(header, sizeof header, "# Drape frame %d, t = %.6f s\n", frame, time);
    return header + objFromSimulation(sim);
}

} // namespace

ObjSequenceWriter::ObjSequenceWriter(QString folder, QString pattern)
    : m_folder(std::move(folder)), m_pattern(std::move(pattern))
{
}

QString ObjSequenceWriter::filePath(int index) const
{
    return QDir(m_folder).filePath(PngSequenceWriter::fileName(m_pattern, index));
}

bool ObjSequenceWriter::open(QString *error)
{
    const QString patternError = PngSequenceWriter::validatePattern(m_pattern);
    if (!patternError.isEmpty()) {
        *error = patternError;
        return false;
    }
    if (!QDir().mkpath(m_folder)) {
        *error = QStringLiteral("Cannot create the folder %1.").arg(QDir::toNativeSeparators(m_folder));
        return false;
    }
    m_written = 0;
    return true;
}

bool ObjSequenceWriter::writeFrame(int index, const QImage &, const Simulation &sim, QString *error)
{
    const QString path = filePath(index);
    const std::string text = objText(sim, index, sim.time());
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(text.data(), qint64(text.size())) != qint64(text.size()) ||
        !file.commit()) {
        *error = QStringLiteral("Cannot write %1: %2").arg(QDir::toNativeSeparators(path), file.errorString());
        return false;
    }
    ++m_written;
    return true;
}

bool ObjSequenceWriter::finish(QString *) { return true; }

} // namespace drape
