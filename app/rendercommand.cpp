// `drape render`: renders a scene's frames without the editor and without a display server.
//
// It creates a QCoreApplication only (no platform plugin, no window system), an OpenGL 3.3
// core context through EGL (Mesa's surfaceless platform), and then runs exactly the editor's
// recording path: SceneRenderer into an OffscreenTarget at the requested size with the same
// sample count, read back, handed to the same sinks (ffmpeg pipe, PNG writer, OBJ writer),
// with the simulation stepped to exact frame times by a RecordSession. Frames baked beside
// the scene file (File ▸ Bake to Folder) are drawn from the bake instead of simulated
// (app/bakeuse.h), unless --no-cache.
#include "commands.h"

#include "bakeuse.h"

#include "render/fabrictexture.h"
#include "modeguards.h"
#include "renderchecks.h"

#include "record/eglheadlesscontext.h"
#include "record/framerenderer.h"
#include "document/presetcatalog.h"
#include "record/recordplan.h"
#include "record/recordsession.h"
#include "render/resources.h"
#include "edit/player.h"
#include "scene/scenefile.h"
#include "render/scenerenderer.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QRegularExpression>

#include <algorithm>
#include <cmath>
#include <csignal>
#include <cstdio>

namespace drape::app {

namespace {

volatile std::sig_atomic_t g_interrupted = 0;

void onInterrupt(int) { g_interrupted = 1; }

void printLine(FILE *stream, const QString &text)
{
    std::fprintf(stream, "%s\n", terminalSafe(text).toLocal8Bit().constData());
    std::fflush(stream);
}

int usageError(const QString &message)
{
    printLine(stderr, QStringLiteral("drape render: %1").arg(message));
    printLine(stderr, QStringLiteral("Run `drape render --help` for the options."));
    return 2;
}

std::optional<Scene> loadSceneArgument(
    const QString &argument, const SceneBudget &budget, QString *error, Take *take)
{
    if (argument.startsWith(QLatin1String("preset:")))
        return loadPreset(argument.mid(7), error, nullptr, take);
    SceneLoadResult result = loadSceneFile(QFile::encodeName(argument).toStdString(), budget);
    for (const std::string &warning : result.warnings)
        printLine(stderr, QStringLiteral("drape render: warning: %1").arg(QString::fromStdString(warning)));
    if (!result.ok()) {
        *error = QString::fromStdString(result.error) + (result.overBudget ? budgetHint() : QString());
        return std::nullopt;
    }
    *take = std::move(result.take);
    return std::move(result.scene);
}

bool parseSize(const QString &text, int *width, int *height)
{
    static const QRegularExpression re(QStringLiteral("^(\\d{1,9})[x×X](\\d{1,9})$"));
    const QRegularExpressionMatch m = re.match(text.trimmed());
    if (!m.hasMatch())
        return false;
    *width = m.captured(1).toInt();
    *height = m.captured(2).toInt();
    return true;
}

} // namespace

const char *renderUsage()
{
    return "  drape render SCENE -o OUT [--frames N | --seconds S] [--start N] [--fps F] [--size WxH]\n"
           "        Renders a scene (a file, or preset:NAME) without a display: OUT ending in .mp4,\n"
           "        .webm or .gif is a video (needs ffmpeg); any other OUT is a folder of PNG frames,\n"
           "        or of OBJ meshes with --obj. --start N begins at frame N of the scene's take. Unset\n"
           "        options come from the scene's record settings. Frames baked beside the scene\n"
           "        (SCENE.drape-cache/) are drawn from the bake; --no-cache simulates them.\n";
}

int runRender(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("drape"));
    drape::initResources();

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Renders the frames of a scene without the editor and without a display server, through EGL.\n"
        "Frame k shows the simulation at exactly k / fps seconds after the first frame (--start; see\n"
        "docs/recording.md)."));
    parser.addHelpOption();
    parser.addPositionalArgument(QStringLiteral("render"), QStringLiteral("The render mode."));
    parser.addPositionalArgument(QStringLiteral("scene"), QStringLiteral("A scene file, or preset:NAME."));
    const QCommandLineOption outOption({QStringLiteral("o"), QStringLiteral("output")},
                                       QStringLiteral("Video file (.mp4, .webm, .gif) or folder for PNG / OBJ frames."),
                                       QStringLiteral("OUT"));
    const QCommandLineOption framesOption(QStringLiteral("frames"), QStringLiteral("Frames to render."),
                                          QStringLiteral("N"));
    const QCommandLineOption secondsOption(QStringLiteral("seconds"),
                                           QStringLiteral("Length in seconds (frames = round(S · fps))."),
                                           QStringLiteral("S"));
    const QCommandLineOption startOption(
        QStringLiteral("start"),
        QStringLiteral("First frame of the scene and its take to render, in simulation frames since the start "
                       "(default: the scene's record.startFrame, else 0)."),
        QStringLiteral("N"));
    const QCommandLineOption fpsOption(QStringLiteral("fps"), QStringLiteral("Frames per second."), QStringLiteral("F"));
    const QCommandLineOption sizeOption(QStringLiteral("size"), QStringLiteral("Frame size in pixels, e.g. 1280x720."),
                                        QStringLiteral("WxH"));
    const QCommandLineOption qualityOption(QStringLiteral("quality"),
                                           QStringLiteral("Video quality 0..100 (mapped to CRF)."), QStringLiteral("Q"));
    const QCommandLineOption objOption(QStringLiteral("obj"), QStringLiteral("Write OBJ meshes into the OUT folder."));
    const QCommandLineOption patternOption(QStringLiteral("pattern"),
                                           QStringLiteral("File names of a sequence (default frame_%04d.png / .obj)."),
                                           QStringLiteral("PATTERN"));
    const QCommandLineOption overlaysOption(QStringLiteral("overlays"),
                                            QStringLiteral("Include the view's wireframe / strain overlays."));
    const QCommandLineOption transparentOption(QStringLiteral("transparent"),
                                               QStringLiteral("PNG frames with a transparent background."));
    const QCommandLineOption quietOption({QStringLiteral("q"), QStringLiteral("quiet")},
                                         QStringLiteral("No progress output."));
    const QCommandLineOption forceOption(QStringLiteral("force"),
                                         QStringLiteral("Render even when the estimated output does not fit on the disk."));
    const QCommandLineOption fabricImageOption(QStringLiteral("fabric-image"),
        QStringLiteral("The picture of the image fabric look (a scene names the look, never the file)."),
        QStringLiteral("FILE"));
    parser.addOptions({outOption, framesOption, secondsOption, startOption, fpsOption, sizeOption, qualityOption, objOption,
                       patternOption, overlaysOption, transparentOption, quietOption, forceOption,
                       fabricImageOption, maxParticlesOption(), noCacheOption()});
    if (!parser.parse(QCoreApplication::arguments()))
        return usageError(parser.errorText());
    if (parser.isSet(QStringLiteral("help"))) {
        std::fputs(qPrintable(parser.helpText()), stdout); // our own text: its lines stay lines
        return 0;
    }
    const QStringList positional = parser.positionalArguments();
    if (positional.size() != 2)
        return usageError(positional.size() < 2 ? QStringLiteral("no scene given (a file, or preset:NAME).")
                                                : QStringLiteral("unexpected argument \"%1\".").arg(positional.at(2)));
    if (!parser.isSet(outOption))
        return usageError(QStringLiteral("no output given (-o FILE.mp4|.webm|.gif, or a folder for PNG frames)."));

    QString error;
    SceneBudget budget;
    if (!budgetFromOptions(parser, &budget, &error))
        return usageError(error);
    Take take;
    std::optional<Scene> loaded = loadSceneArgument(positional.at(1), budget, &error, &take);
    if (!loaded) {
        printLine(stderr, QStringLiteral("drape render: %1").arg(error));
        return 1;
    }
    Scene scene = std::move(*loaded);
    QImage fabricImage;
    if (parser.isSet(fabricImageOption)) {
        fabricImage = loadFabricImage(parser.value(fabricImageOption), &error);
        if (fabricImage.isNull()) {
            printLine(stderr, QStringLiteral("drape render: %1").arg(error));
            return 1;
        }
    } else if (fabricLookOf(scene.view) == FabricLook::Image) {
        printLine(stderr, QStringLiteral("drape render: the scene's fabric look is an image, and none was given: "
                                         "the cloth is drawn in its plain colours (--fabric-image FILE)."));
    }

    // Options override the scene's record settings.
    RecordSettings settings = scene.record;
    const QString output = QDir::cleanPath(QFileInfo(parser.value(outOption)).absoluteFilePath());
    const QString suffix = QFileInfo(output).suffix().toLower();
    if (parser.isSet(objOption))
        settings.format = RecordFormat::ObjSequence;
    else if (suffix == QLatin1String("mp4"))
        settings.format = RecordFormat::Mp4;
    else if (suffix == QLatin1String("webm"))
        settings.format = RecordFormat::WebM;
    else if (suffix == QLatin1String("gif"))
        settings.format = RecordFormat::Gif;
    else if (QFileInfo(output).isFile())
        return usageError(QStringLiteral("%1 is an existing file of unknown type; give a .mp4, .webm or .gif file or "
                                         "a folder for PNG frames.").arg(QDir::toNativeSeparators(output)));
    else if (const QString problem = unknownVideoSuffix(output); !problem.isEmpty())
        return usageError(problem);
    else
        settings.format = RecordFormat::PngSequence;
    bool ok = true;
    if (parser.isSet(fpsOption) && (settings.fps = parser.value(fpsOption).toInt(&ok), !ok))
        return usageError(QStringLiteral("--fps: \"%1\" is not a whole number.").arg(parser.value(fpsOption)));
    if (parser.isSet(sizeOption) && !parseSize(parser.value(sizeOption), &settings.width, &settings.height))
        return usageError(QStringLiteral("--size: \"%1\" is not WIDTHxHEIGHT (e.g. 1280x720).").arg(parser.value(sizeOption)));
    // 0 means "the viewport's size" in a scene file, which a headless render does not have.
    if (parser.isSet(sizeOption) && (settings.width < 1 || settings.height < 1))
        return usageError(QStringLiteral("--size: \"%1\": width and height must be positive (a size of 0 means "
                                         "the editor's viewport size).").arg(parser.value(sizeOption)));
    if (parser.isSet(qualityOption) &&
        (settings.quality = parser.value(qualityOption).toInt(&ok), !ok || settings.quality < 0 || settings.quality > 100))
        return usageError(QStringLiteral("--quality: \"%1\" is not a number from 0 to 100.").arg(parser.value(qualityOption)));
    if (parser.isSet(framesOption) && parser.isSet(secondsOption))
        return usageError(QStringLiteral("give either --frames or --seconds, not both."));
    if (parser.isSet(framesOption) &&
        (settings.frames = parser.value(framesOption).toInt(&ok), !ok || settings.frames < 1))
        return usageError(QStringLiteral("--frames: \"%1\" is not a positive whole number.").arg(parser.value(framesOption)));
    if (parser.isSet(secondsOption)) {
        const double seconds = parser.value(secondsOption).toDouble(&ok);
        if (!ok || !(seconds > 0.0) || seconds > 1e6)
            return usageError(QStringLiteral("--seconds: \"%1\" is not a positive number.").arg(parser.value(secondsOption)));
        settings.frames = std::max(1, int(std::lround(seconds * settings.fps)));
    }
    if (parser.isSet(startOption)) {
        settings.startFrame = parser.value(startOption).toInt(&ok);
        if (!ok || settings.startFrame < 0)
            return usageError(QStringLiteral("--start: \"%1\" is not a whole number of frames >= 0.")
                                  .arg(parser.value(startOption)));
        if (settings.endFrame != 0 && settings.endFrame <= settings.startFrame)
            settings.endFrame = 0; // the scene's range ends before the start asked for
    }
    // A length given on the command line wins over the scene's frame range.
    if (parser.isSet(framesOption) || parser.isSet(secondsOption))
        settings.endFrame = 0;
    if (settings.frames < 1 && settings.endFrame == 0)
        return usageError(QStringLiteral("the scene records until stopped (record.frames = 0); give --frames or --seconds."));
    if (settings.width <= 0 || settings.height <= 0)
        return usageError(QStringLiteral("the scene records at the viewport's size; give --size WxH."));
    settings.overlays = settings.overlays || parser.isSet(overlaysOption);
    if (parser.isSet(transparentOption) && settings.format != RecordFormat::PngSequence)
        return usageError(QStringLiteral("--transparent applies to PNG frames only."));
    settings.transparent = settings.transparent || parser.isSet(transparentOption);

    RecordPlan plan;
    if (!makeRecordPlan(settings, scene.solver.frameRate, QSize(), output, &plan, &error))
        return usageError(error);
    if (parser.isSet(patternOption)) {
        (settings.format == RecordFormat::ObjSequence ? plan.objPattern : plan.pngPattern) = parser.value(patternOption);
    }
    const bool quiet = parser.isSet(quietOption);
    for (const QString &note : plan.notes)
        printLine(stderr, QStringLiteral("drape render: note: %1").arg(note));
    const OutputEstimate estimate = estimateOutput(plan, sceneTotals(scene).particles);
    if (!quiet)
        printLine(stderr, QStringLiteral("drape render: %1").arg(estimate.summary));
    if (const QString problem = checkRenderOutput(plan, estimate, parser.isSet(forceOption)); !problem.isEmpty()) {
        printLine(stderr, QStringLiteral("drape render: %1").arg(problem));
        return 1;
    }

    // The take is replayed frame by frame, so its events must fall on the frames stepped.
    if (!take.empty() && std::abs(plan.simFrameRate - double(scene.solver.frameRate)) > 1e-9)
        return usageError(QStringLiteral("the scene's take is recorded at %1 frames/s; choose --fps %1 or a whole "
                                         "fraction of it so each output frame is whole simulation frames.")
                              .arg(double(scene.solver.frameRate)));
    // Frames baked beside the scene are drawn from the bake: the same pixels as simulated
    // ones, as long as what is drawn is in the bake (no overlays: constraints and strain are
    // not) and the output frames are the scene's own frames.
    QString notUsed;
    if (settings.overlays)
        notUsed = QStringLiteral("the overlays draw constraints and strain, which a bake does not hold");
    else if (std::abs(plan.simFrameRate - double(scene.solver.frameRate)) > 1e-9)
        notUsed = QStringLiteral("at %1 fps the frames fall between the scene's own (%2 frames/s)")
                      .arg(settings.fps)
                      .arg(double(scene.solver.frameRate));
    QString bakeFolder;
    std::vector<std::shared_ptr<const CachedFrame>> baked;
    if (!parser.isSet(QStringLiteral("no-cache")))
        baked = bakedFrames(QStringLiteral("drape render"), positional.at(1), scene, take, notUsed, &bakeFolder);
    BakedReplay replay(scene, take, std::move(baked));
    Player &player = replay.player();
    Simulation &sim = player.state().sim;
    // The replay steps at the plan's rate (stepsPerFrame steps per output frame): the scene's
    // own rate, or a multiple of the output rate when that does not divide it (a take is
    // refused then, and the bake is not used, so only the rate differs from the scene).
    sim.solver.frameRate = float(plan.simFrameRate);
    const std::vector<std::string> problems = sim.validate();
    if (!problems.empty()) {
        printLine(stderr, QStringLiteral("drape render: the scene cannot be simulated: %1")
                              .arg(QString::fromStdString(problems.front())));
        return 1;
    }
    const auto startFrame = std::uint64_t(plan.settings.startFrame);
    const auto stepsPerFrame = std::uint64_t(plan.stepsPerFrame);
    reportBakeUse(QStringLiteral("drape render"), bakeFolder, replay, startFrame,
                  startFrame + stepsPerFrame * std::uint64_t(std::max(plan.frames - 1, 0)));

    // The range starts at record.startFrame: the take is replayed up to it first.
    if (replay.at(startFrame).status().blownUp) {
        printLine(stderr, QStringLiteral("drape render: the simulation blew up before frame %1: %2")
                              .arg(plan.settings.startFrame)
                              .arg(QString::fromStdString(sim.status().message)));
        return 1;
    }

    std::unique_ptr<FrameSink> sink = makeFrameSink(plan);
    const bool needsGl = sink->wantsImages();
    EglHeadlessContext context;
    SceneRenderer renderer;
    FrameRenderer frames;
    // GL objects must be freed with their context current, on every way out of this function.
    struct GlCleanup {
        EglHeadlessContext &context;
        SceneRenderer &renderer;
        FrameRenderer &frames;
        ~GlCleanup()
        {
            if (!context.makeCurrent())
                return;
            frames.release();
            if (renderer.isInitialized())
                renderer.release();
            context.destroy();
        }
    } cleanup{context, renderer, frames};
    if (needsGl) {
        if (!context.create(&error)) {
            printLine(stderr, QStringLiteral("drape render: %1").arg(error));
            return 1;
        }
        if (!renderer.initialize(&error)) {
            printLine(stderr, QStringLiteral("drape render: %1").arg(error));
            return 1;
        }
    }
    const Camera camera(scene.camera);
    RenderOptions options = recordRenderOptions(settings);
    options.fabricImage = fabricImage;

    RecordSession session(plan, std::move(sink));
    // Output frame k is frame start + k · steps of the replay (at the plan's rate, set above),
    // drawn from the bake where it holds it.
    session.setFrameAdvance([](int) { });
    if (!session.open(&sim, &error)) {
        printLine(stderr, QStringLiteral("drape render: %1").arg(error));
        return 1;
    }
    std::signal(SIGINT, onInterrupt);
    std::signal(SIGTERM, onInterrupt);
    QElapsedTimer clock;
    clock.start();
    bool failed = false;
    bool blewUp = false;
    while (!session.isComplete()) {
        if (g_interrupted) {
            session.cancel(&sim);
            printLine(stderr, QStringLiteral("drape render: interrupted after %1 of %2 frames; %3")
                                  .arg(session.framesDone())
                                  .arg(plan.frames)
                                  .arg(recordFormatIsSequence(settings.format)
                                           ? QStringLiteral("the frames written so far stay in %1.")
                                                 .arg(QDir::toNativeSeparators(output))
                                           : QStringLiteral("no video was written.")));
            return 130;
        }
        const Simulation &shown = replay.at(startFrame + stepsPerFrame * std::uint64_t(session.framesDone()));
        if (shown.status().blownUp) {
            printLine(stderr, QStringLiteral("drape render: the simulation blew up after frame %1 (%2); stopping there.")
                                  .arg(session.framesDone() - 1)
                                  .arg(QString::fromStdString(shown.status().message)));
            blewUp = true;
            break;
        }
        QImage image;
        if (needsGl && !frames.render(renderer, scene, shown, camera, plan.frameSize, options, &image, &error)) {
            failed = true;
            break;
        }
        if (!session.addFrame(image, shown, &error)) {
            failed = true;
            break;
        }
        if (!quiet && (session.framesDone() % 10 == 0 || session.isComplete()))
            printLine(stderr, QStringLiteral("frame %1/%2").arg(session.framesDone()).arg(plan.frames));
    }
    for (const EventReport &r : player.reports())
        printLine(stderr, QStringLiteral("drape render: warning: %1 (skipped)").arg(QString::fromStdString(r.message)));
    if (failed) {
        session.cancel(&sim);
    } else if (!session.finish(&sim, &error)) {
        failed = true;
    }
    if (failed) {
        printLine(stderr, QStringLiteral("drape render: %1").arg(error));
        if (recordFormatIsSequence(settings.format))
            printLine(stderr, QStringLiteral("drape render: the %1 frames written before the error stay in %2.")
                                  .arg(session.sink().filesWritten())
                                  .arg(QDir::toNativeSeparators(output)));
        return 1;
    }
    if (!quiet)
        printLine(stderr, QStringLiteral("drape render: %1").arg(simulatedSummary(bakeFolder, replay)));
    if (!quiet)
        printLine(stdout, QStringLiteral("Wrote %1 frames (%2×%3, %4 fps, %5) to %6 in %7 s.")
                              .arg(session.framesDone())
                              .arg(plan.frameSize.width())
                              .arg(plan.frameSize.height())
                              .arg(settings.fps)
                              .arg(recordFormatName(settings.format))
                              .arg(QDir::toNativeSeparators(output))
                              .arg(clock.elapsed() / 1000.0, 0, 'f', 1));
    return blewUp ? 1 : 0;
}

} // namespace drape::app
