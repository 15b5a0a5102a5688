#include "record/ffmpegencoder.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QStandardPaths>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>

namespace drape {

namespace {

// Frames allowed to wait in the pipe before writeFrame() blocks until ffmpeg catches up:
// enough to keep the encoder busy while the next frame renders, small enough to bound memory.
constexpr int kPendingFrames = 3;
// Longest wait for ffmpeg to finish after its input is closed (x264's lookahead, the GIF
// palette pass over every frame).
constexpr int kFinishTimeoutMs = 10 * 60 * 1000;

QString formatName(RecordFormat format)
{
    switch (format) {
    case RecordFormat::Mp4: return QStringLiteral("mp4");
    case RecordFormat::WebM: return QStringLiteral("webm");
    case RecordFormat::Gif: return QStringLiteral("gif");
    default: return {};
    }
}

} // namespace

FfmpegEncoder::FfmpegEncoder(VideoSettings settings) : m_settings(std::move(settings)) {}

FfmpegEncoder::~FfmpegEncoder()
{
    if (m_process)
        cancel();
}

QString FfmpegEncoder::findFfmpeg() { return QStandardPaths::findExecutable(QStringLiteral("ffmpeg")); }

bool FfmpegEncoder::isVideoFormat(RecordFormat format)
{
    return format == RecordFormat::Mp4 || format == RecordFormat::WebM || format == RecordFormat::Gif;
}

QSize FfmpegEncoder::encodableSize(RecordFormat format, QSize requested)
{
    if (format != RecordFormat::Mp4 && format != RecordFormat::WebM)
        return requested;
    return QSize(std::max(2, requested.width() & ~1), std::max(2, requested.height() & ~1));
}

int FfmpegEncoder::crfFor(RecordFormat format, int quality)
{
    const double q = std::clamp(quality, 0, 100) / 100.0;
    // x264: CRF 18 is visually lossless for most content, 23 its default, 35+ visibly blocky.
    // Quality 100 → 12, 80 → 19, 50 → 27, 0 → 40.
    if (format == RecordFormat::Mp4)
        return int(std::lround(40.0 - 28.0 * q));
    // VP9's scale is 0..63 with 31 the usual web default. Quality 100 → 15, 80 → 22, 0 → 50.
    return int(std::lround(50.0 - 35.0 * q));
}

QStringList FfmpegEncoder::arguments(const VideoSettings &s, const QString &outputPath)
{
    QStringList args{QStringLiteral("-hide_banner"), QStringLiteral("-loglevel"),
                     QStringLiteral("error"), QStringLiteral("-y"), QStringLiteral("-f"), QStringLiteral("rawvideo"),
                     QStringLiteral("-pix_fmt"), QStringLiteral("rgba"), QStringLiteral("-s"),
                     QStringLiteral("%1x%2").arg(s.size.width()).arg(s.size.height()), QStringLiteral("-r"),
                     QString::number(s.fps), QStringLiteral("-i"), QStringLiteral("-")};
    const QString crf = QString::number(crfFor(s.format, s.quality));
    switch (s.format) {
    case RecordFormat::Mp4:
        args << QStringLiteral("-c:v") << QStringLiteral("libx264") << QStringLiteral("-preset")
             << QStringLiteral("medium") << QStringLiteral("-crf") << crf << QStringLiteral("-pix_fmt")
             << QStringLiteral("yuv420p") << QStringLiteral("-movflags") << QStringLiteral("+faststart");
        break;
    case RecordFormat::WebM:
        // Constant quality mode of libvpx-vp9 needs -b:v 0 next to -crf.
        args << QStringLiteral("-c:v") << QStringLiteral("libvpx-vp9") << QStringLiteral("-crf") << crf
             << QStringLiteral("-b:v") << QStringLiteral("0") << QStringLiteral("-pix_fmt") << QStringLiteral("yuv420p")
             << QStringLiteral("-row-mt") << QStringLiteral("1") << QStringLiteral("-deadline")
             << QStringLiteral("good") << QStringLiteral("-cpu-used") << QStringLiteral("4");
        break;
    case RecordFormat::Gif: {
        // One pass, two branches: palettegen builds a palette from the whole clip (only the
        // pixels that change, stats_mode=diff, so the moving cloth gets the colours) and
        // paletteuse maps every frame to it, redrawing only the changed rectangle, which
        // keeps files small. Ordered (Bayer) dithering does not shimmer between frames.
        const int colors = std::clamp(32 + (224 * std::clamp(s.quality, 0, 100)) / 100, 32, 256);
        args << QStringLiteral("-filter_complex")
             << QStringLiteral("[0:v]split[a][b];[a]palettegen=max_colors=%1:stats_mode=diff[p];"
                               "[b][p]paletteuse=dither=bayer:bayer_scale=4:diff_mode=rectangle")
                    .arg(colors)
             << QStringLiteral("-loop") << QStringLiteral("0");
        break;
    }
    default:
        break;
    }
    args << QStringLiteral("-f") << formatName(s.format) << outputPath;
    return args;
}

bool FfmpegEncoder::open(QString *error)
{
    if (!isVideoFormat(m_settings.format)) {
        *error = QStringLiteral("Not a video format.");
        return false;
    }
    const QString program = m_settings.ffmpegProgram.isEmpty() ? findFfmpeg() : m_settings.ffmpegProgram;
    if (program.isEmpty()) {
        *error = QStringLiteral("ffmpeg was not found on PATH, so MP4, WebM and GIF cannot be written. Install it "
                                "(Debian: apt-get install ffmpeg) or record a PNG or OBJ sequence instead.");
        return false;
    }
    if (encodableSize(m_settings.format, m_settings.size) != m_settings.size || m_settings.size.isEmpty()) {
        *error = QStringLiteral("%1 cannot be encoded at %2×%3: the size must be even and non-empty.")
                     .arg(formatName(m_settings.format).toUpper())
                     .arg(m_settings.size.width())
                     .arg(m_settings.size.height());
        return false;
    }
    const QFileInfo info(m_settings.path);
    if (!QDir().mkpath(info.absolutePath())) {
        *error = QStringLiteral("Cannot create the folder %1.").arg(QDir::toNativeSeparators(info.absolutePath()));
        return false;
    }
    // Found now rather than after the whole clip was encoded.
    if (info.isDir()) {
        *error = QStringLiteral("Cannot write the video %1: a folder of that name is in the way.")
                     .arg(QDir::toNativeSeparators(info.absoluteFilePath()));
        return false;
    }
    // Hidden, next to the target (same file system, so the final rename is atomic).
    m_tempPath = info.absoluteDir().filePath(QStringLiteral(".%1.part").arg(info.fileName()));
    QFile::remove(m_tempPath);

    m_process = std::make_unique<QProcess>();
    m_process->setProcessChannelMode(QProcess::SeparateChannels);
    m_process->start(program, arguments(m_settings, m_tempPath));
    if (!m_process->waitForStarted(10000)) {
        *error = QStringLiteral("Cannot start %1: %2").arg(program, m_process->errorString());
        discard();
        return false;
    }
    m_framesWritten = 0;
    return true;
}

QString FfmpegEncoder::failure(const QString &what) const
{
    // ffmpeg's own words are the most useful part: its last stderr lines.
    QString tail = QString::fromLocal8Bit(m_stderr).trimmed();
    QStringList lines = tail.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    if (lines.size() > 6)
        lines = lines.mid(lines.size() - 6);
    tail = lines.join(QLatin1Char('\n'));
    QString message = QStringLiteral("%1 (writing %2)").arg(what, QDir::toNativeSeparators(m_settings.path));
    if (!tail.isEmpty())
        message += QStringLiteral(":\n") + tail;
    return message;
}

bool FfmpegEncoder::pump(qint64 maxPending, QString *error)
{
    while (m_process->bytesToWrite() > maxPending) {
        m_stderr += m_process->readAllStandardError();
        if (m_process->state() != QProcess::Running) {
            m_stderr += m_process->readAllStandardError();
            *error = failure(QStringLiteral("ffmpeg stopped early"));
            return false;
        }
        m_process->waitForBytesWritten(1000);
    }
    m_stderr += m_process->readAllStandardError();
    if (m_stderr.size() > 64 * 1024)
        m_stderr = m_stderr.right(16 * 1024);
    return true;
}

bool FfmpegEncoder::writeFrame(int, const QImage &image, const Simulation &, QString *error)
{
    if (!m_process) {
        *error = QStringLiteral("The encoder is not open.");
        return false;
    }
    if (image.size() != m_settings.size) {
        *error = QStringLiteral("Frame %1 is %2×%3, the video is %4×%5.")
                     .arg(m_framesWritten)
                     .arg(image.width())
                     .arg(image.height())
                     .arg(m_settings.size.width())
                     .arg(m_settings.size.height());
        return false;
    }
    if (m_process->state() != QProcess::Running) {
        m_stderr += m_process->readAllStandardError();
        *error = failure(QStringLiteral("ffmpeg stopped early"));
        return false;
    }
    const QImage rgba = image.format() == QImage::Format_RGBA8888 ? image : image.convertToFormat(QImage::Format_RGBA8888);
    const qint64 rowBytes = qint64(rgba.width()) * 4;
    const qint64 frameBytes = rowBytes * rgba.height();
    if (rgba.bytesPerLine() == rowBytes) {
        if (m_process->write(reinterpret_cast<const char *>(rgba.constBits()), frameBytes) != frameBytes) {
            *error = failure(QStringLiteral("Cannot send frame %1 to ffmpeg").arg(m_framesWritten));
            return false;
        }
    } else {
        for (int y = 0; y < rgba.height(); ++y) {
            if (m_process->write(reinterpret_cast<const char *>(rgba.constScanLine(y)), rowBytes) != rowBytes) {
                *error = failure(QStringLiteral("Cannot send frame %1 to ffmpeg").arg(m_framesWritten));
                return false;
            }
        }
    }
    ++m_framesWritten;
    return pump(frameBytes * kPendingFrames, error);
}

bool FfmpegEncoder::finish(QString *error)
{
    if (!m_process) {
        *error = QStringLiteral("The encoder is not open.");
        return false;
    }
    if (!pump(0, error)) {
        discard();
        return false;
    }
    m_process->closeWriteChannel();
    const bool finished = m_process->waitForFinished(kFinishTimeoutMs);
    m_stderr += m_process->readAllStandardError();
    if (!finished || m_process->exitStatus() != QProcess::NormalExit || m_process->exitCode() != 0) {
        *error = failure(finished ? QStringLiteral("ffmpeg failed with exit code %1").arg(m_process->exitCode())
                                  : QStringLiteral("ffmpeg did not finish"));
        discard();
        return false;
    }
    m_process.reset();
    if (m_framesWritten == 0) {
        *error = QStringLiteral("No frames were recorded; %1 was not written.").arg(QDir::toNativeSeparators(m_settings.path));
        QFile::remove(m_tempPath);
        return false;
    }
    // rename(2) replaces an existing target atomically; QFile::rename refuses to overwrite.
    if (std::rename(QFile::encodeName(m_tempPath).constData(), QFile::encodeName(m_settings.path).constData()) != 0) {
        *error = QStringLiteral("Cannot move the finished video to %1: %2")
                     .arg(QDir::toNativeSeparators(m_settings.path), QString::fromLocal8Bit(std::strerror(errno)));
        QFile::remove(m_tempPath);
        return false;
    }
    return true;
}

void FfmpegEncoder::cancel() { discard(); }

void FfmpegEncoder::discard()
{
    if (m_process) {
        m_process->closeWriteChannel();
        if (m_process->state() != QProcess::NotRunning) {
            m_process->kill();
            m_process->waitForFinished(5000);
        }
        m_process.reset();
    }
    if (!m_tempPath.isEmpty())
        QFile::remove(m_tempPath);
}

} // namespace drape
