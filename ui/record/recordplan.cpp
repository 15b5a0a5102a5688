#include "record/recordplan.h"

#include "appsettings.h"

#include "record/ffmpegencoder.h"
#include "record/objsequencewriter.h"
#include "record/pngsequencewriter.h"

#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QRegularExpression>
#include <QStandardPaths>

#include <cmath>

namespace drape {

namespace {

constexpr int kMinSize = 16;
constexpr int kMaxSize = 8192;
constexpr int kMaxFps = 240;

} // namespace

bool makeRecordPlan(const RecordSettings &settings, double sceneFrameRate, QSize requestedSize,
                    const QString &output, RecordPlan *plan, QString *error)
{
    RecordPlan p;
    p.settings = settings;
    p.output = output;
    if (output.isEmpty()) {
        *error = QStringLiteral("No output file or folder is set.");
        return false;
    }
    if (settings.fps < 1 || settings.fps > kMaxFps) {
        *error = QStringLiteral("record.fps: %1 is out of range, allowed 1..%2.").arg(settings.fps).arg(kMaxFps);
        return false;
    }
    if (settings.frames < 0) {
        *error = QStringLiteral("record.frames: %1 is negative (0 records until stopped).").arg(settings.frames);
        return false;
    }
    if (!(sceneFrameRate > 0.0) || !std::isfinite(sceneFrameRate)) {
        *error = QStringLiteral("solver.frameRate: %1 Hz cannot drive a recording.").arg(sceneFrameRate);
        return false;
    }
    const QSize requested = (settings.width > 0 && settings.height > 0) ? QSize(settings.width, settings.height)
                                                                        : requestedSize;
    if (requested.width() < kMinSize || requested.height() < kMinSize || requested.width() > kMaxSize ||
        requested.height() > kMaxSize) {
        *error = QStringLiteral("record size: %1×%2 px is out of range, allowed %3..%4 px per side.")
                     .arg(requested.width())
                     .arg(requested.height())
                     .arg(kMinSize)
                     .arg(kMaxSize);
        return false;
    }
    p.frameSize = FfmpegEncoder::encodableSize(settings.format, requested);
    if (p.frameSize != requested)
        p.notes << QStringLiteral("%1 needs an even width and height: %2×%3 was rounded down to %4×%5.")
                       .arg(recordFormatName(settings.format))
                       .arg(requested.width())
                       .arg(requested.height())
                       .arg(p.frameSize.width())
                       .arg(p.frameSize.height());
    p.frames = settings.frames;

    const double ratio = sceneFrameRate / settings.fps;
    const double whole = std::round(ratio);
    if (whole >= 1.0 && std::abs(ratio - whole) < 1e-6) {
        p.stepsPerFrame = int(whole);
        p.simFrameRate = sceneFrameRate;
    } else {
        p.stepsPerFrame = std::max(1, int(std::ceil(ratio - 1e-9)));
        p.simFrameRate = double(p.stepsPerFrame) * settings.fps;
        p.notes << QStringLiteral("The simulation runs at %1 Hz instead of %2 Hz while recording, so that each "
                                  "frame at %3 fps spans exactly %4 step(s).")
                       .arg(p.simFrameRate)
                       .arg(sceneFrameRate)
                       .arg(settings.fps)
                       .arg(p.stepsPerFrame);
    }
    if (settings.startFrame < 0 || (settings.endFrame != 0 && settings.endFrame <= settings.startFrame)) {
        *error = QStringLiteral("record.endFrame: %1 is not after record.startFrame %2.")
                     .arg(settings.endFrame)
                     .arg(settings.startFrame);
        return false;
    }
    if (settings.startFrame > 0 && p.simFrameRate != sceneFrameRate) {
        // The start counts frames of the scene at its own rate; at another rate the steps
        // before it would be of another length, and the first output frame another time.
        *error = QStringLiteral("record.startFrame: starting at frame %1 needs a frame rate that divides the "
                                "scene's %2 Hz (for example %3 fps); %4 fps would run the simulation at %5 Hz.")
                     .arg(settings.startFrame)
                     .arg(sceneFrameRate)
                     .arg(sceneFrameRate / 2)
                     .arg(settings.fps)
                     .arg(p.simFrameRate);
        return false;
    }
    if (settings.endFrame > 0) {
        // A range of document frames: each output frame must be whole frames of the scene.
        if (p.simFrameRate != sceneFrameRate) {
            *error = QStringLiteral("record.endFrame: a frame range needs a frame rate that divides the scene's "
                                    "%1 Hz (for example %2 fps).")
                         .arg(sceneFrameRate)
                         .arg(sceneFrameRate / 2);
            return false;
        }
        p.frames = (settings.endFrame - settings.startFrame) / p.stepsPerFrame + 1;
    }
    *plan = std::move(p);
    return true;
}

std::unique_ptr<FrameSink> makeFrameSink(const RecordPlan &plan, const QString &ffmpegProgram)
{
    switch (plan.settings.format) {
    case RecordFormat::Mp4:
    case RecordFormat::WebM:
    case RecordFormat::Gif: {
        VideoSettings video;
        video.format = plan.settings.format;
        video.path = plan.output;
        video.size = plan.frameSize;
        video.fps = plan.settings.fps;
        video.quality = plan.settings.quality;
        video.ffmpegProgram = ffmpegProgram;
        return std::make_unique<FfmpegEncoder>(video);
    }
    case RecordFormat::PngSequence: {
        PngSequenceSettings png;
        png.folder = plan.output;
        png.pattern = plan.pngPattern;
        return std::make_unique<PngSequenceWriter>(png);
    }
    case RecordFormat::ObjSequence:
        return std::make_unique<ObjSequenceWriter>(plan.output, plan.objPattern);
    }
    return nullptr;
}

RenderOptions recordRenderOptions(const RecordSettings &settings, float devicePixelRatio)
{
    RenderOptions options;
    options.overlays = settings.overlays;
    options.transparentBackground = settings.transparent && settings.format == RecordFormat::PngSequence;
    options.devicePixelRatio = devicePixelRatio;
    return options;
}

QString recordFormatName(RecordFormat format)
{
    switch (format) {
    case RecordFormat::Mp4: return QStringLiteral("MP4 (H.264)");
    case RecordFormat::WebM: return QStringLiteral("WebM (VP9)");
    case RecordFormat::Gif: return QStringLiteral("GIF");
    case RecordFormat::PngSequence: return QStringLiteral("PNG sequence");
    case RecordFormat::ObjSequence: return QStringLiteral("OBJ mesh sequence");
    }
    return {};
}

QString recordFormatSuffix(RecordFormat format)
{
    switch (format) {
    case RecordFormat::Mp4: return QStringLiteral(".mp4");
    case RecordFormat::WebM: return QStringLiteral(".webm");
    case RecordFormat::Gif: return QStringLiteral(".gif");
    default: return {};
    }
}

bool recordFormatIsSequence(RecordFormat format)
{
    return format == RecordFormat::PngSequence || format == RecordFormat::ObjSequence;
}

QString defaultRecordOutput(RecordFormat format, const QString &sceneName)
{
    const bool video = !recordFormatIsSequence(format);
    QString folder = AppSettings::exportFolder(); // Preferences ▸ Default export folder
    if (folder.isEmpty())
        folder = QStandardPaths::writableLocation(
            video ? QStandardPaths::MoviesLocation : QStandardPaths::PicturesLocation);
    if (folder.isEmpty())
        folder = QDir::homePath();
    QString base = sceneName.trimmed().toLower();
    base.replace(QRegularExpression(QStringLiteral("[^a-z0-9]+")), QStringLiteral("-"));
    base.remove(QRegularExpression(QStringLiteral("^-+|-+$")));
    if (base.isEmpty())
        base = QStringLiteral("drape");
    base += QStringLiteral("-") + QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-HHmmss"));
    if (format == RecordFormat::ObjSequence)
        base += QStringLiteral("-obj");
    else if (format == RecordFormat::PngSequence)
        base += QStringLiteral("-png");
    return QDir(folder).filePath(base + recordFormatSuffix(format));
}

} // namespace drape
