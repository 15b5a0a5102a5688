// `drape bench-viewport`: how long the editor's viewport takes to draw each built-in preset
// while it plays, on whatever OpenGL the display offers (Mesa llvmpipe under Xvfb on a machine
// without a GPU). Each frame: one simulation step, then the repaint it asks for, run to its
// end; the figures leave the solver out (drape_bench measures it). "Draw" is paintGL() up to a
// glFinish (the scene and the overlays); "frame" is the whole repaint, which adds Qt's
// composition of the widget's picture into the window and the buffer swap: 1000 / frame is the
// frame rate the view can reach. CPU is the process's CPU time over the repaint (llvmpipe draws
// on every core, so on a busy machine it is the steadier figure; on an idle n-core machine the
// wall time is about CPU time / n).
#include "commands.h"

#include "document/document.h"
#include "document/presetcatalog.h"
#include "render/resources.h"
#include "render/viewport.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QElapsedTimer>
#include <QSurfaceFormat>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <memory>
#include <vector>

#include <sys/resource.h>

namespace drape::app {

namespace {

struct Figures {
    double median = 0.0; ///< ms
    double p10 = 0.0; ///< ms
    double p90 = 0.0; ///< ms
};

/// CPU time (ms) used by every thread of the process so far.
double processCpuMs()
{
    rusage usage {};
    getrusage(RUSAGE_SELF, &usage);
    return (double(usage.ru_utime.tv_sec) + double(usage.ru_stime.tv_sec)) * 1e3
        + (double(usage.ru_utime.tv_usec) + double(usage.ru_stime.tv_usec)) * 1e-3;
}

Figures summarise(std::vector<double> ms)
{
    std::sort(ms.begin(), ms.end());
    const auto at = [&ms](double q) { return ms[std::size_t(q * double(ms.size() - 1) + 0.5)]; };
    return { at(0.5), at(0.1), at(0.9) };
}

} // namespace

const char *benchViewportUsage()
{
    return "  drape bench-viewport [--size WxH] [--frames N] [--preset NAME]\n"
           "                          [--screenshots DIR]\n"
           "                          time the viewport's drawing of each preset (needs a display)\n";
}

int runBenchViewport(int argc, char **argv)
{
    // --help needs no display (help2man runs it at build time to make the man page): only the
    // benchmark itself opens a window.
    const bool helpOnly = std::any_of(argv + 1, argv + argc,
        [](const char *a) { return !std::strcmp(a, "--help") || !std::strcmp(a, "-h"); });
    QSurfaceFormat::setDefaultFormat(Viewport::surfaceFormat());
    std::unique_ptr<QCoreApplication> application = helpOnly
        ? std::make_unique<QCoreApplication>(argc, argv)
        : std::make_unique<QApplication>(argc, argv);
    QCoreApplication &app = *application;
    QApplication::setApplicationName(QStringLiteral("Drape"));
    QApplication::setOrganizationName(QStringLiteral("Drape"));
    initResources();

    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Times the viewport's draw per frame for each built-in preset."));
    parser.addHelpOption();
    parser.addPositionalArgument(QStringLiteral("bench-viewport"), QStringLiteral("The mode."));
    const QCommandLineOption sizeOption(QStringLiteral("size"),
        QStringLiteral("Viewport size (default 1280x800)."), QStringLiteral("WxH"),
        QStringLiteral("1280x800"));
    const QCommandLineOption framesOption(QStringLiteral("frames"),
        QStringLiteral("Frames per preset (default 120)."), QStringLiteral("N"), QStringLiteral("120"));
    const QCommandLineOption presetOption(
        QStringLiteral("preset"), QStringLiteral("Only this preset."), QStringLiteral("NAME"));
    const QCommandLineOption screenshotOption(QStringLiteral("screenshots"),
        QStringLiteral("Save each preset's last frame as DIR/NAME.png (to compare pictures)."),
        QStringLiteral("DIR"));
    parser.addOptions({ sizeOption, framesOption, presetOption, screenshotOption });
    parser.process(app);
    const QStringList size = parser.value(sizeOption).split(QLatin1Char('x'));
    const int width = size.value(0).toInt(), height = size.value(1).toInt();
    const int frames = parser.value(framesOption).toInt();
    if (size.size() != 2 || width <= 0 || height <= 0 || frames <= 0) {
        std::fprintf(stderr, "drape bench-viewport: --size WxH and --frames N must be positive\n");
        return 2;
    }

    Viewport viewport;
    viewport.setMeasureDrawTime(true);
    viewport.resize(width, height);
    viewport.show();
    QApplication::processEvents();
    std::printf("viewport %dx%d, %d frames per preset, %d× multisampling, software renderer: %s\n", width,
        height, frames, Viewport::samplesForSystem(), Viewport::systemRendererIsSoftware() ? "yes" : "no");
    int paints = 0;
    QObject::connect(&viewport, &Viewport::frameRendered, [&paints] { ++paints; });
    bool first = true;
    for (const PresetInfo &info : builtinPresets()) {
        if (parser.isSet(presetOption) && info.key != parser.value(presetOption))
            continue;
        QString error;
        std::optional<Scene> scene = loadPreset(info.key, &error);
        if (!scene) {
            std::fprintf(stderr, "drape bench-viewport: %s\n", qPrintable(error));
            return 1;
        }
        Document document(std::move(*scene));
        viewport.setDocument(&document);
        if (first) {
            std::printf("renderer: %s (OpenGL %s)\n", qPrintable(viewport.glRenderer()),
                qPrintable(viewport.glVersion()));
            std::printf("%-16s %22s %22s %6s %8s\n", "", "draw ms", "frame ms", "", "CPU ms");
            std::printf("%-16s %7s %14s %7s %14s %6s %8s\n", "preset", "median", "p10-p90", "median", "p10-p90",
                "fps", "/frame");
            first = false;
        }
        std::vector<double> ms, cpu, whole; // draw, CPU and frame times (ms)
        for (int f = 0; f < frames + 5; ++f) {
            document.step();
            // Qt paints a QOpenGLWidget when it composes the window, from the event loop: run
            // it until the frame is painted. The frame time runs from here to the end of that
            // composition (paint, composition into the window, swap).
            const int paintsBefore = paints;
            const double cpuStart = processCpuMs();
            QElapsedTimer frameTimer;
            frameTimer.start();
            viewport.update();
            while (paints == paintsBefore) {
                if (frameTimer.elapsed() > 10000) {
                    std::fprintf(stderr, "drape bench-viewport: the view does not repaint (%s)\n", qPrintable(info.key));
                    return 1;
                }
                QApplication::processEvents(QEventLoop::AllEvents);
            }
            QApplication::processEvents(QEventLoop::AllEvents); // the swap after the paint
            const double frameMs = double(frameTimer.nsecsElapsed()) * 1e-6;
            if (f >= 5) { // the first frames upload buffers and compile shaders
                ms.push_back(viewport.lastDrawMilliseconds());
                cpu.push_back(processCpuMs() - cpuStart);
                whole.push_back(frameMs);
            }
        }
        if (parser.isSet(screenshotOption)) {
            const QString path = QDir(parser.value(screenshotOption)).filePath(info.key + QStringLiteral(".png"));
            if (!QDir().mkpath(parser.value(screenshotOption)) || !viewport.grabFramebuffer().save(path)) {
                std::fprintf(stderr, "drape bench-viewport: cannot write %s\n", qPrintable(path));
                return 1;
            }
        }
        viewport.setDocument(nullptr);
        const Figures draw = summarise(ms), frame = summarise(whole);
        std::printf("%-16s %7.1f %6.1f-%-7.1f %7.1f %6.1f-%-7.1f %6.1f %8.1f\n", qPrintable(info.key), draw.median,
            draw.p10, draw.p90, frame.median, frame.p10, frame.p90, 1000.0 / frame.median, summarise(cpu).median);
        std::fflush(stdout);
    }
    return 0;
}

} // namespace drape::app
