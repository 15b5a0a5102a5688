// `drape simulate`: steps a scene headlessly at its fixed frame rate and writes the result
// (a resumable scene file, an OBJ mesh, an OBJ sequence or a PC2 point cache). Needs no
// display. Outputs that need positions only (meshes, the point cache, the final state hash)
// take the frames baked beside the scene file where it holds them (app/bakeuse.h); the
// final state as a scene and the per-frame report need the solver's full state and simulate.
//
// Exit codes: 0 success, 1 bad input or unwritable output, 2 bad command line,
// 3 the simulation blew up (the outputs then hold the last good frame).
#include "bakeuse.h"
#include "commands.h"
#include "modeguards.h"

#include "base/atomicfile.h"
#include "base/outputcheck.h"
#include "edit/player.h"
#include "scene/objexport.h"
#include "scene/presets.h"
#include "scene/scenefile.h"
#include "scene/simreport.h"
#include "timeline/pc2writer.h"
#include "sim/energy.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>

#include <cmath>
#include <cstdio>
#include <unistd.h>

namespace drape::app {

namespace {

constexpr int kExitInput = 1;
constexpr int kExitUsage = 2;
constexpr int kExitBlowUp = 3;

const char *kDetails = R"(Steps SCENE at its own fixed frame rate without a display and writes the result.
A scene saved with a take (what was done after its start: drags, cuts, pins, sews,
parameter changes) is replayed with it, so the run is the one the editor showed; the
state hash printed at the end is the one the editor shows at that frame.

SCENE is a scene file (.json) or preset:NAME for a built-in preset.
Built-in presets: %1

--start N replays the scene and its take to frame N first; the outputs then begin at
frame N (a --pc2 cache's sample 0, the --report's first record) and --frames counts
the frames after it.

Frames baked beside a scene file (File > Bake to Folder: flag.json -> flag.drape-cache/)
are read instead of simulated when the bake was made from this scene and take: the OBJ
outputs, the point cache and the state hash are then the same bytes, and stderr says which
frames came from the bake. A bake holds positions, not the solver's state, so --out
FILE.json and --report simulate every frame, and frames past the bake are simulated from
the scene's start. A stale or damaged bake is ignored with a message. --no-cache always
simulates.

Outputs:
  --out FILE.json       the final state as the start of a new scene (positions,
                        velocities, time; a torn cloth with its torn topology; the take's
                        parameter changes applied), so the editor resumes exactly there
  --out FILE.obj        the final mesh as Wavefront OBJ (positions, normals, UVs, faces)
  --obj-sequence DIR    one OBJ per frame, DIR/frame_0001.obj ... (a mesh cache for 3D packages)
  --report FILE.json    per-frame totals: energy (J), max strain, max stress (N/m), the sum of
                        the pin reactions (N) and what tore (docs/solvers.md, "Forces and tension")
  --pc2 FILE.pc2        a point cache of every frame from the start (sample 0) to the last,
                        for Blender's Mesh Cache modifier, Maya and 3ds Max; the vertices are
                        those of --out FILE.obj, in the same order. A cloth that tears or is
                        cut changes its vertex count, which PC2 cannot hold: the export is
                        then refused (exit code 1); use --obj-sequence instead

Scene budget: a scene of more than --max-particles particles in all (default 262,144)
is refused before anything is allocated; constraints, triangles and memory scale with it.
Scene files must be regular files of at most 64 MB. Every output is checked (folder,
permission, free space) before the run.

Exit codes: 0 success, 1 bad scene or unwritable output, 2 bad command line,
3 the simulation blew up (outputs then hold the last good frame).

Examples:
  drape simulate preset:curtain --frames 120 --out curtain.json
  drape simulate flag.json --obj-sequence flag-cache
  drape simulate preset:flag --frames 240 --out flag.obj --pc2 flag.pc2
)";

void printError(const QString &message)
{
    std::fprintf(stderr, "drape simulate: %s\n", qPrintable(terminalSafe(message)));
}

QString presetNames()
{
    QStringList names;
    for (const PresetDesc &p : presetList())
        names << QString::fromStdString(p.id);
    return names.join(", ");
}

// Checks before the (possibly long) run that every output can be written and fits on the
// disk: `bytesPerMesh` is the estimated size of one OBJ (or of the final scene file).
QString checkOutputs(const QString &out, const QString &objDir, std::uint64_t bytesPerMesh, int frames)
{
    if (!out.isEmpty()) {
        const std::string problem = checkOutputFile(QFile::encodeName(out).toStdString(), bytesPerMesh);
        if (!problem.empty())
            return QString::fromStdString(problem);
    }
    if (!objDir.isEmpty()) {
        const std::string problem = checkOutputFolder(
            QFile::encodeName(objDir).toStdString(), bytesPerMesh * std::uint64_t(std::max(frames, 0)));
        if (!problem.empty())
            return QString::fromStdString(problem);
    }
    return {};
}

class Progress {
public:
    explicit Progress(int total)
        : m_total(total)
        , m_tty(::isatty(STDERR_FILENO) == 1)
    { }

    void update(int frame)
    {
        const int percent = m_total > 0 ? frame * 100 / m_total : 100;
        if (m_tty) {
            if (percent != m_lastPercent || frame == m_total)
                std::fprintf(stderr, "\rsimulating: frame %d/%d (%d%%)", frame, m_total, percent);
        } else if (percent / 10 != m_lastPercent / 10 && percent % 10 == 0 && frame < m_total) {
            std::fprintf(stderr, "simulating: frame %d/%d (%d%%)\n", frame, m_total, percent);
        }
        m_lastPercent = percent;
    }
    void finish()
    {
        if (m_tty)
            std::fprintf(stderr, "\n");
    }

private:
    int m_total;
    bool m_tty;
    int m_lastPercent = -1;
};

QString objFrameName(const QString &dir, int frame, int total)
{
    const int width = std::max(4, int(QString::number(total).size()));
    return QDir(dir).filePath(QStringLiteral("frame_%1.obj").arg(frame, width, 10, QLatin1Char('0')));
}

} // namespace

const char *simulateUsage()
{
    return "  drape simulate SCENE [--frames N] [--start N] [--out FILE.json|FILE.obj] [--obj-sequence DIR]\n"
           "                 [--report FILE.json] [--pc2 FILE.pc2] [--max-particles N] [--no-cache]\n"
           "                          step a scene (file or preset:NAME) without a display and\n"
           "                          write the final state or a mesh cache (see drape simulate --help);\n"
           "                          frames baked beside the scene are read, not simulated\n";
}

int runSimulate(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("drape"));

    QCommandLineParser parser;
    parser.setApplicationDescription(QString::fromUtf8(kDetails).arg(presetNames()));
    parser.addPositionalArgument(
        QStringLiteral("simulate"), QStringLiteral("The batch simulation mode."), QStringLiteral("simulate"));
    parser.addPositionalArgument(QStringLiteral("SCENE"), QStringLiteral("Scene file or preset:NAME."));
    const QCommandLineOption helpOption(
        { QStringLiteral("h"), QStringLiteral("help") }, QStringLiteral("Show this help."));
    const QCommandLineOption framesOption(QStringLiteral("frames"),
        QStringLiteral("Frames to simulate (default: one second at the scene's frame rate)."),
        QStringLiteral("N"));
    const QCommandLineOption startOption(QStringLiteral("start"),
        QStringLiteral("Replay the scene and its take to frame N first; the outputs begin there "
                       "(--frames counts the frames after it)."),
        QStringLiteral("N"));
    const QCommandLineOption outOption(QStringLiteral("out"),
        QStringLiteral("Write the final state to FILE (.json scene or .obj mesh)."), QStringLiteral("FILE"));
    const QCommandLineOption objSequenceOption(QStringLiteral("obj-sequence"),
        QStringLiteral("Write DIR/frame_0001.obj ... one mesh per frame."), QStringLiteral("DIR"));
    const QCommandLineOption withStateOption(QStringLiteral("with-state"),
        QStringLiteral("Include the simulation state in a .json output (the default)."));
    const QCommandLineOption noStateOption(QStringLiteral("no-state"),
        QStringLiteral("Write a .json output without state (topology and settings only)."));
    const QCommandLineOption reportOption(QStringLiteral("report"),
        QStringLiteral("Write per-frame totals (energy, max strain, max stress, pin reactions, tears) to FILE.json."),
        QStringLiteral("FILE"));
    const QCommandLineOption pc2Option(QStringLiteral("pc2"),
        QStringLiteral("Write every frame as a PC2 point cache (Blender, Maya, 3ds Max)."),
        QStringLiteral("FILE"));
    parser.addOptions({ helpOption, framesOption, startOption, outOption, objSequenceOption, pc2Option, withStateOption,
        noStateOption, reportOption, maxParticlesOption(), noCacheOption() });

    if (!parser.parse(QCoreApplication::arguments())) {
        printError(parser.errorText() + QStringLiteral(" (see drape simulate --help)"));
        return kExitUsage;
    }
    if (parser.isSet(helpOption)) {
        std::fputs(qPrintable(parser.helpText()), stdout);
        return 0;
    }
    QStringList positional = parser.positionalArguments();
    if (!positional.isEmpty() && positional.front() == QLatin1String("simulate"))
        positional.removeFirst();
    if (positional.size() != 1) {
        printError(positional.isEmpty()
                ? QStringLiteral("no scene given (usage: drape simulate SCENE [options]; see --help)")
                : QStringLiteral("expected one scene, got %1: %2")
                      .arg(positional.size())
                      .arg(positional.join(' ')));
        return kExitUsage;
    }
    if (parser.isSet(withStateOption) && parser.isSet(noStateOption)) {
        printError(QStringLiteral("--with-state and --no-state contradict each other"));
        return kExitUsage;
    }

    // Outputs are checked before the (possibly long) run.
    const QString out = parser.value(outOption);
    const QString objDir = parser.value(objSequenceOption);
    const QString pc2Path = parser.value(pc2Option);
    const QString outSuffix = QFileInfo(out).suffix().toLower();
    if (!out.isEmpty() && outSuffix != QLatin1String("json") && outSuffix != QLatin1String("obj")) {
        printError(
            QStringLiteral("--out %1: unknown file type \"%2\" (use .json for a scene or .obj for a mesh)")
                .arg(out, outSuffix));
        return kExitUsage;
    }
    QString error;
    SceneBudget budget;
    if (!budgetFromOptions(parser, &budget, &error)) {
        printError(error);
        return kExitUsage;
    }
    const QString report = parser.value(reportOption);
    if (!objDir.isEmpty()) {
        const QFileInfo info(objDir);
        if (info.exists() && !info.isDir()) {
            printError(QStringLiteral("--obj-sequence %1: exists and is not a directory").arg(objDir));
            return kExitInput;
        }
    }

    const std::string sceneArg = positional.front().toStdString();
    const SceneLoadResult loaded = loadSceneOrPreset(sceneArg, budget);
    for (const std::string &w : loaded.warnings)
        std::fprintf(stderr, "drape simulate: warning: %s\n", w.c_str());
    if (!loaded.ok()) {
        printError(QString::fromStdString(loaded.error) + (loaded.overBudget ? budgetHint() : QString()));
        return kExitInput;
    }
    const Scene &scene = *loaded.scene;

    int frames = int(std::lround(scene.solver.frameRate));
    if (parser.isSet(framesOption)) {
        bool ok = false;
        const QString text = parser.value(framesOption);
        frames = text.toInt(&ok);
        if (!ok || frames < 0) {
            printError(
                QStringLiteral("--frames: expected a whole number of frames >= 0, got \"%1\"").arg(text));
            return kExitUsage;
        }
    }

    int start = 0;
    if (parser.isSet(startOption)) {
        bool ok = false;
        const QString text = parser.value(startOption);
        start = text.toInt(&ok);
        if (!ok || start < 0) {
            printError(QStringLiteral("--start: expected a whole number of frames >= 0, got \"%1\"").arg(text));
            return kExitUsage;
        }
    }

    // The outputs, before the run: an OBJ is about 120 bytes per particle, a scene file with
    // state about 200.
    const std::uint64_t bytesPerMesh = 200 * std::max<std::uint64_t>(sceneTotals(scene).particles, 1);
    error = checkOutputs(out, objDir, bytesPerMesh, frames);
    if (error.isEmpty() && !report.isEmpty()) {
        // A report line is about 300 bytes a frame.
        const std::string problem
            = checkOutputFile(QFile::encodeName(report).toStdString(), 300 * std::uint64_t(frames + 1));
        if (!problem.empty())
            error = QStringLiteral("--report %1").arg(QString::fromStdString(problem));
    }
    if (error.isEmpty() && !pc2Path.isEmpty()) {
        // 12 bytes a particle a sample, the start included.
        const std::string problem = checkOutputFile(QFile::encodeName(pc2Path).toStdString(),
            12 * std::max<std::uint64_t>(sceneTotals(scene).particles, 1) * std::uint64_t(frames + 1));
        if (!problem.empty())
            error = QStringLiteral("--pc2 %1").arg(QString::fromStdString(problem));
    }
    if (!error.isEmpty()) {
        printError(error);
        return kExitInput;
    }
    if (!objDir.isEmpty() && !QDir().mkpath(objDir)) {
        printError(QStringLiteral("--obj-sequence %1: cannot create the directory").arg(objDir));
        return kExitInput;
    }

    // The take (what the user did after the start) is replayed with the scene; frames baked
    // beside the scene file stand in for simulated ones where only positions are written.
    QString notUsed;
    if (!out.isEmpty() && outSuffix == QLatin1String("json"))
        notUsed = QStringLiteral("--out %1 needs the solver's full state, which a bake does not hold").arg(out);
    else if (!report.isEmpty())
        notUsed = QStringLiteral("--report needs the solver's full state, which a bake does not hold");
    QString bakeFolder;
    std::vector<std::shared_ptr<const CachedFrame>> baked;
    if (!parser.isSet(QStringLiteral("no-cache")))
        baked = bakedFrames(QStringLiteral("drape simulate"), positional.front(), scene, loaded.take, notUsed,
                            &bakeFolder);
    BakedReplay replay(scene, loaded.take, std::move(baked));
    Player &player = replay.player();
    const std::vector<std::string> problems = player.state().sim.validate();
    if (!problems.empty()) {
        printError(QStringLiteral("%1: cannot simulate: %2")
                       .arg(QString::fromStdString(sceneArg), QString::fromStdString(problems.front())));
        return kExitInput;
    }
    reportBakeUse(QStringLiteral("drape simulate"), bakeFolder, replay, std::uint64_t(start),
                  std::uint64_t(start) + std::uint64_t(frames));

    // Outputs begin at --start: the take is replayed silently up to it.
    const Simulation *sim = &replay.at(std::uint64_t(start));
    if (sim->status().blownUp) {
        printError(QStringLiteral("the simulation blew up before frame %1 (--start): %2")
                       .arg(start)
                       .arg(QString::fromStdString(sim->status().message)));
        return kExitBlowUp;
    }
    bool anyBaked = replay.lastFromBake(); // constraints, tears and energy are then not known

    std::size_t constraintsAtStart = 0;
    for (const Cloth &c : sim->cloths)
        constraintsAtStart += c.constraints.size();
    std::uint64_t torn = 0, splits = 0;
    QElapsedTimer wall;
    wall.start();
    Progress progress(frames);
    const std::uint64_t startFrame = sim->frame();
    std::vector<FrameTotals> totals;
    if (!report.isEmpty())
        totals.push_back(frameTotals(scene, *sim)); // the start
    // The point cache takes the start state as its first sample, then one per frame.
    Pc2Writer pc2;
    std::shared_ptr<const CachedFrame> lastFrame;
    auto appendPc2 = [&](std::string *writeError) {
        lastFrame = captureFrame(*sim, sim->frame(), lastFrame.get());
        return pc2.append(*lastFrame, writeError);
    };
    if (!pc2Path.isEmpty()) {
        std::string writeError;
        if (!pc2.open(pc2Path.toStdString(), startFrame, &writeError) || !appendPc2(&writeError)) {
            printError(QString::fromStdString(writeError));
            return kExitInput;
        }
    }
    int stepped = 0;
    for (int f = 1; f <= frames; ++f) {
        sim = &replay.at(std::uint64_t(start) + std::uint64_t(f));
        if (sim->status().blownUp)
            break;
        anyBaked = anyBaked || replay.lastFromBake();
        ++stepped;
        if (!pc2Path.isEmpty()) {
            std::string writeError;
            if (!appendPc2(&writeError)) {
                progress.finish();
                printError(QString::fromStdString(writeError));
                return kExitInput;
            }
        }
        torn += sim->lastStepStats().tornConstraints;
        splits += sim->lastStepStats().splitParticles;
        if (!report.isEmpty())
            totals.push_back(frameTotals(scene, *sim));
        if (!objDir.isEmpty()) {
            std::string writeError;
            if (!writeObjFile(objFrameName(objDir, f, frames).toStdString(), *sim, &writeError)) {
                progress.finish();
                printError(QString::fromStdString(writeError));
                return kExitInput;
            }
        }
        progress.update(f);
    }
    progress.finish();
    const double wallSeconds = double(wall.nsecsElapsed()) * 1e-9;

    int exitCode = 0;
    if (sim->status().blownUp) {
        printError(QStringLiteral("the simulation blew up at frame %1: %2 (outputs hold the last good frame)")
                       .arg(qulonglong(sim->frame() + 1))
                       .arg(QString::fromStdString(sim->status().message)));
        exitCode = kExitBlowUp;
    }

    if (!pc2Path.isEmpty()) {
        std::string writeError;
        if (!pc2.finish(&writeError)) {
            printError(QString::fromStdString(writeError));
            return kExitInput;
        }
    }
    if (!out.isEmpty()) {
        std::string writeError;
        bool ok = false;
        if (outSuffix == QLatin1String("obj")) {
            ok = writeObjFile(out.toStdString(), *sim, &writeError);
        } else {
            const bool withState = !parser.isSet(noStateOption);
            // The state reached becomes the start of the written scene ("Set start here"),
            // with the settings the take's parameter events left in force.
            const Scene result = snapshotScene(*player.state().settings, *sim, withState);
            ok = saveSceneFile(out.toStdString(), result, SaveOptions { withState }, &writeError);
        }
        if (!ok) {
            printError(QString::fromStdString(writeError));
            return kExitInput;
        }
    }

    if (!report.isEmpty()) {
        std::string writeError;
        if (!writeFileAtomically(report.toStdString(), reportJson(totals), &writeError)) {
            printError(QString::fromStdString(writeError));
            return kExitInput;
        }
    }

    std::size_t particles = 0, constraints = 0;
    for (const Cloth &c : sim->cloths) {
        particles += c.particles.size();
        constraints += c.constraints.size();
    }
    // The frame of the take: the replay's, or the bake's (numbered from the start like it).
    const std::uint64_t takeFrame = replay.lastFromBake() ? std::uint64_t(start) + std::uint64_t(stepped) : player.frame();
    std::printf("%s: %d frame%s (%llu..%llu), %.3f s simulated in %.2f s wall (%.1f frames/s)\n",
        qPrintable(terminalSafe(QString::fromStdString(sceneArg))), stepped, stepped == 1 ? "" : "s", (unsigned long long)startFrame,
        (unsigned long long)sim->frame(), double(stepped) / double(scene.solver.frameRate), wallSeconds,
        wallSeconds > 0.0 ? double(stepped) / wallSeconds : 0.0);
    std::printf("  %s\n", qPrintable(simulatedSummary(bakeFolder, replay)));
    if (anyBaked)
        std::printf("  %zu particles (constraints and tears are not known for baked frames)\n", particles);
    else
        std::printf("  %zu particles, %zu constraints (%zu at start), %llu torn, %llu particle splits\n",
            particles, constraints, constraintsAtStart, (unsigned long long)torn, (unsigned long long)splits);
    std::printf("  state hash %016llx at frame %llu of the take\n", (unsigned long long)replay.stateHash(),
        (unsigned long long)takeFrame);
    for (const EventReport &r : player.reports())
        std::fprintf(stderr, "drape simulate: warning: %s (skipped)\n", r.message.c_str());
    if (replay.lastFromBake()) {
        std::printf("  final energy not known (the last frame is baked: positions only; --no-cache simulates it)\n");
    } else {
        const Energy energy = energyOf(*sim);
        std::printf("  final energy %.6g J (kinetic %.6g J, gravitational %.6g J, elastic %.6g J)\n",
            energy.total(), energy.kinetic, energy.gravitational, energy.elastic);
    }
    if (!out.isEmpty())
        std::printf("  wrote %s\n", qPrintable(out));
    if (!objDir.isEmpty())
        std::printf("  wrote %d meshes to %s\n", stepped, qPrintable(objDir));
    if (!report.isEmpty())
        std::printf("  wrote %s\n", qPrintable(report));
    if (!pc2Path.isEmpty())
        std::printf("  wrote %u samples of %u points to %s\n", pc2.sampleCount(), pc2.pointCount(),
            qPrintable(pc2Path));
    if (out.isEmpty() && objDir.isEmpty() && report.isEmpty() && pc2Path.isEmpty())
        std::printf("  nothing was written (give --out FILE.json|FILE.obj or --obj-sequence DIR to keep the "
                    "result)\n");
    return exitCode;
}

} // namespace drape::app
