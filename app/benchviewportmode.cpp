// `drape bench-viewport`: how long the editor's viewport takes to draw each built-in preset
// while it plays, on whatever OpenGL the display offers (Mesa llvmpipe under Xvfb on a machine
// without a GPU). Each frame: one simulation step, then a synchronous repaint finished with
// glFinish; the figures are the draw time alone (the solver is measured by drape_bench): wall
// time, and the process's CPU time over the same repaint (llvmpipe draws on every core, so on a
// busy machine CPU time per frame is the steadier figure; on an idle n-core machine wall time
// is about CPU time / n).
#include "commands.h"

#include "document/document.h"
#include "document/presetcatalog.h"
#include "render/resources.h"
#include "render/viewport.h"

#include <QApplication>
#include <QCommandLineParser>
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
    parser.addOptions({ sizeOption, framesOption, presetOption });
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
            std::printf("%-16s %10s %10s %10s %8s %12s\n", "preset", "median ms", "p10 ms", "p90 ms", "fps",
                "CPU ms/frame");
            first = false;
        }
        std::vector<double> ms, cpu;
        for (int f = 0; f < frames + 5; ++f) {
            document.step();
            const double cpuStart = processCpuMs();
            viewport.repaint();
            if (f >= 5) { // the first frames upload buffers and compile shaders
                ms.push_back(viewport.lastDrawMilliseconds());
                cpu.push_back(processCpuMs() - cpuStart);
            }
        }
        viewport.setDocument(nullptr);
        const Figures fig = summarise(ms);
        std::printf("%-16s %10.2f %10.2f %10.2f %8.1f %12.2f\n", qPrintable(info.key), fig.median, fig.p10,
            fig.p90, 1000.0 / fig.median, summarise(cpu).median);
        std::fflush(stdout);
    }
    return 0;
}

} // namespace drape::app
