#include "record/pngsequencewriter.h"

#include <QDir>
#include <QImageWriter>
#include <QRegularExpression>

namespace drape {

namespace {

const QRegularExpression &numberField()
{
    static const QRegularExpression re(QStringLiteral("%(0?[1-9])?d"));
    return re;
}

} // namespace

PngSequenceWriter::PngSequenceWriter(PngSequenceSettings settings) : m_settings(std::move(settings)) {}

PngSequenceWriter::~PngSequenceWriter() { stopWorker(true); }

QString PngSequenceWriter::validatePattern(const QString &pattern)
{
    if (pattern.contains(QLatin1Char('/')) || pattern.contains(QLatin1Char('\\')))
        return QStringLiteral("The file name pattern \"%1\" must not contain a folder separator.").arg(pattern);
    const int fields = int(pattern.count(QLatin1Char('%')));
    if (fields != 1 || !numberField().match(pattern).hasMatch())
        return QStringLiteral("The file name pattern \"%1\" needs exactly one frame number field such as %04d.")
            .arg(pattern);
    if (pattern.endsWith(QLatin1Char('%')))
        return QStringLiteral("The file name pattern \"%1\" ends with a lone %.").arg(pattern);
    return {};
}

QString PngSequenceWriter::fileName(const QString &pattern, int number)
{
    const QRegularExpressionMatch m = numberField().match(pattern);
    if (!m.hasMatch())
        return pattern;
    const QString widthText = m.captured(1);
    const int width = widthText.isEmpty() ? 0 : widthText.right(1).toInt();
    const QChar fill = widthText.startsWith(QLatin1Char('0')) ? QLatin1Char('0') : QLatin1Char(' ');
    QString name = pattern;
    name.replace(m.capturedStart(), m.capturedLength(), QStringLiteral("%1").arg(number, width, 10, fill));
    return name;
}

QString PngSequenceWriter::filePath(int index) const
{
    return QDir(m_settings.folder).filePath(fileName(m_settings.pattern, m_settings.firstNumber + index));
}

bool PngSequenceWriter::open(QString *error)
{
    const QString patternError = validatePattern(m_settings.pattern);
    if (!patternError.isEmpty()) {
        *error = patternError;
        return false;
    }
    if (!QDir().mkpath(m_settings.folder)) {
        *error = QStringLiteral("Cannot create the folder %1.").arg(QDir::toNativeSeparators(m_settings.folder));
        return false;
    }
    stopWorker(true);
    m_stop = false;
    m_written = 0;
    m_error.clear();
    m_worker = std::thread([this] { run(); });
    return true;
}

bool PngSequenceWriter::writeFrame(int index, const QImage &image, const Simulation &, QString *error)
{
    std::unique_lock lock(m_mutex);
    m_progress.wait(lock, [this] { return int(m_queue.size()) < m_settings.queueLength || !m_error.isEmpty(); });
    if (!m_error.isEmpty()) {
        *error = m_error;
        return false;
    }
    m_queue.push_back({filePath(index), image});
    m_wake.notify_one();
    return true;
}

bool PngSequenceWriter::finish(QString *error)
{
    {
        std::unique_lock lock(m_mutex);
        m_progress.wait(lock, [this] { return (m_queue.empty() && !m_busy) || !m_error.isEmpty(); });
    }
    stopWorker(true);
    if (!m_error.isEmpty()) {
        *error = m_error;
        return false;
    }
    return true;
}

void PngSequenceWriter::cancel() { stopWorker(true); }

int PngSequenceWriter::filesWritten() const
{
    std::lock_guard lock(m_mutex);
    return m_written;
}

void PngSequenceWriter::stopWorker(bool dropQueued)
{
    {
        std::lock_guard lock(m_mutex);
        if (dropQueued)
            m_queue.clear();
        m_stop = true;
    }
    m_wake.notify_all();
    if (m_worker.joinable())
        m_worker.join();
}

void PngSequenceWriter::run()
{
    for (;;) {
        Job job;
        {
            std::unique_lock lock(m_mutex);
            m_wake.wait(lock, [this] { return m_stop || !m_queue.empty(); });
            if (m_queue.empty())
                return;
            job = std::move(m_queue.front());
            m_queue.pop_front();
            m_busy = true;
        }
        QImageWriter writer(job.path, "png");
        const bool ok = writer.write(job.image);
        {
            std::lock_guard lock(m_mutex);
            m_busy = false;
            if (ok) {
                ++m_written;
            } else if (m_error.isEmpty()) {
                m_error = QStringLiteral("Cannot write %1: %2")
                              .arg(QDir::toNativeSeparators(job.path), writer.errorString());
                m_queue.clear();
            }
        }
        m_progress.notify_all();
    }
}

} // namespace drape
