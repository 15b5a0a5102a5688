// Video output through the ffmpeg program: raw RGBA frames are piped to its stdin
// (-f rawvideo -pix_fmt rgba -s WxH -r FPS -i -) and it writes MP4 (H.264), WebM (VP9) or an
// optimised-palette GIF. The video is written to a temporary file next to the target and
// renamed onto it only when ffmpeg exits cleanly, so a cancelled or failed recording never
// leaves a half-written video behind.
#pragma once

#include "record/framesink.h"

#include "scene/scene.h"

#include <QByteArray>
#include <QProcess>
#include <QSize>
#include <QString>
#include <QStringList>

#include <memory>

namespace drape {

struct VideoSettings {
    RecordFormat format = RecordFormat::Mp4; ///< Mp4, WebM or Gif
    QString path;                            ///< target file
    QSize size{1280, 720};                   ///< px, frame size (even for Mp4 / WebM)
    int fps = 30;                            ///< frames per second
    int quality = 80;                        ///< 0..100, mapped to CRF (video) or palette size (GIF)
    QString ffmpegProgram;                   ///< empty: looked up on PATH
};

class FfmpegEncoder final : public FrameSink {
public:
    explicit FfmpegEncoder(VideoSettings settings);
    ~FfmpegEncoder() override;

    /// The ffmpeg executable on PATH, or empty when it is not installed.
    static QString findFfmpeg();
    /// Whether `format` is a video format this class encodes.
    static bool isVideoFormat(RecordFormat format);
    /// H.264 and VP9 in yuv420p subsample chroma 2×2, so MP4 and WebM need even sizes: an odd
    /// width or height is rounded down to the next even number (321×241 → 320×240). GIF keeps
    /// the size as it is.
    static QSize encodableSize(RecordFormat format, QSize requested);
    /// libx264 / libvpx-vp9 constant-rate factor for a 0..100 quality (higher = better).
    static int crfFor(RecordFormat format, int quality);
    /// The complete ffmpeg argument list for `settings`, writing to `outputPath`.
    static QStringList arguments(const VideoSettings &settings, const QString &outputPath);

    bool open(QString *error) override;
    bool writeFrame(int index, const QImage &image, const Simulation &sim, QString *error) override;
    bool finish(QString *error) override;
    void cancel() override;
    int filesWritten() const override { return m_framesWritten; }
    QString target() const override { return m_settings.path; }

    /// The temporary file ffmpeg writes to until finish() renames it.
    QString temporaryPath() const { return m_tempPath; }

private:
    bool pump(qint64 maxPending, QString *error);
    QString failure(const QString &what) const;
    void discard();

    VideoSettings m_settings;
    std::unique_ptr<QProcess> m_process;
    QString m_tempPath;
    QByteArray m_stderr;
    int m_framesWritten = 0;
};

} // namespace drape
