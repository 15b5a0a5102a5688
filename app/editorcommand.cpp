// `drape`, `drape SCENE`, `drape --preset NAME`, `drape --help`, `drape --version`: the editor.
#include "commands.h"

#include "actions/openscene.h"

#include "document/document.h"
#include "document/presetcatalog.h"
#include "mainwindow.h"
#include "render/resources.h"
#include "render/viewport.h"
#include "scene/userpresets.h"

#include <QApplication>
#include <QSurfaceFormat>

#include <cstdio>
#include <cstring>
#include <memory>

namespace drape::app {

namespace {

constexpr char kDefaultPreset[] = "curtain";

void printHelp()
{
    std::printf("Drape %s — cloth simulation editor\n\n", DRAPE_VERSION_STRING);
    std::printf("Usage:\n"
                "  drape                    open the editor on the built-in \"%s\" scene\n"
                "  drape SCENE.json         open the editor on a scene file\n"
                "  drape --preset NAME      open the editor on a built-in or user preset\n"
                "  drape --list-presets     list the built-in presets, then the user's own\n"
                "  drape --help             show this help\n"
                "  drape --version          show the version\n\n",
        kDefaultPreset);
    std::printf("Batch modes (no display needed):\n%s%s%s\n", simulateUsage(), renderUsage(), importUsage());
    std::printf("Measurement (needs a display):\n%s\n", benchViewportUsage());
    std::printf("Built-in presets:");
    for (const QString &key : presetKeys())
        std::printf(" %s", qPrintable(key));
    std::printf("\n\nIn the editor, Help > Controls lists every mouse and keyboard control.\n");
}

// Below the built-in ones, as the Scene dock lists them; a user scene with a built-in's name
// is marked, since `--preset NAME` opens the built-in one.
void printUserPresets()
{
    const std::vector<UserPreset> mine = userPresetList();
    if (mine.empty())
        return;
    std::printf("\nUser presets (%s):\n", userPresetDirectory().c_str());
    for (const UserPreset &p : mine) {
        const char *note = p.kind == UserPresetKind::Fabric ? "fabric"
            : p.shadowed ? "scene (hidden by the built-in preset of this name)"
                         : "scene";
        std::printf("%-16s %s\n", p.id.c_str(), note);
    }
}

struct EditorArgs {
    QString scenePath;
    QString preset;
    bool help = false;
    bool version = false;
    bool listPresets = false;
    QString error;
};

EditorArgs parseArgs(int argc, char **argv)
{
    EditorArgs args;
    for (int i = 1; i < argc; ++i) {
        const char *a = argv[i];
        if (!std::strcmp(a, "--help") || !std::strcmp(a, "-h")) {
            args.help = true;
        } else if (!std::strcmp(a, "--version") || !std::strcmp(a, "-v")) {
            args.version = true;
        } else if (!std::strcmp(a, "--list-presets")) {
            args.listPresets = true;
        } else if (!std::strcmp(a, "--preset")) {
            if (i + 1 >= argc) {
                args.error = QStringLiteral("--preset needs a preset name");
                return args;
            }
            args.preset = QString::fromLocal8Bit(argv[++i]);
        } else if (!std::strncmp(a, "--preset=", 9)) {
            args.preset = QString::fromLocal8Bit(a + 9);
        } else if (a[0] == '-' && a[1] != '\0') {
            // Qt's own options (-platform, -style...) are taken by QApplication before this runs.
            args.error
                = QStringLiteral("unknown option %1 (see drape --help)").arg(QString::fromLocal8Bit(a));
            return args;
        } else if (args.scenePath.isEmpty()) {
            args.scenePath = QString::fromLocal8Bit(a);
        } else {
            args.error = QStringLiteral("only one scene can be opened (got %1 and %2)")
                             .arg(args.scenePath, QString::fromLocal8Bit(a));
            return args;
        }
    }
    if (!args.scenePath.isEmpty() && !args.preset.isEmpty())
        args.error = QStringLiteral("give either a scene file or --preset, not both");
    return args;
}

} // namespace

int runEditor(int argc, char **argv)
{
    // Options that need no display are answered before any Qt GUI object exists.
    {
        const EditorArgs early = parseArgs(argc, argv);
        if (early.help) {
            printHelp();
            return 0;
        }
        if (early.version) {
            std::printf("drape %s\n", DRAPE_VERSION_STRING);
            return 0;
        }
        if (early.listPresets) {
            for (const PresetInfo &p : builtinPresets())
                std::printf("%-16s %s\n", qPrintable(p.key), qPrintable(p.name));
            printUserPresets();
            return 0;
        }
    }

    QApplication::setApplicationName(QStringLiteral("Drape"));
    QApplication::setOrganizationName(QStringLiteral("Drape"));
    QApplication::setApplicationVersion(QStringLiteral(DRAPE_VERSION_STRING));
    QApplication::setDesktopFileName(
        QStringLiteral("org.drape.Drape")); // resources/package/org.drape.Drape.desktop
    // Shared contexts let the viewport move between windows (full screen) without losing GL state.
    QApplication::setAttribute(Qt::AA_ShareOpenGLContexts);
    QSurfaceFormat::setDefaultFormat(Viewport::surfaceFormat());
    QApplication app(argc, argv);
    initResources();

    const EditorArgs args = parseArgs(argc, argv); // Qt's options are gone from argv now
    if (!args.error.isEmpty()) {
        std::fprintf(stderr, "drape: %s\n", qPrintable(args.error));
        return 2;
    }

    MainWindow window;
    std::unique_ptr<Document> document;
    QString error;
    QString openError; // shown over the viewport: the editor opens empty instead of quitting
    if (!args.scenePath.isEmpty()) {
        QStringList warnings;
        document = openSceneAsking(&window, args.scenePath, &error, &warnings);
        for (const QString &w : std::as_const(warnings))
            std::fprintf(stderr, "drape: warning: %s\n", qPrintable(w));
        if (!document) {
            std::fprintf(stderr, "drape: cannot open %s: %s (starting on an empty scene)\n",
                qPrintable(args.scenePath), qPrintable(error));
            openError = QObject::tr(
                "Cannot open %1: %2\nThe editor started on an empty scene; nothing was changed on disk.")
                            .arg(args.scenePath, error);
            document = std::make_unique<Document>(Scene {});
        }
    } else {
        const QString key = args.preset.isEmpty() ? QString::fromLatin1(kDefaultPreset) : args.preset;
        QStringList presetWarnings;
        Take take;
        std::optional<Scene> scene = loadPreset(key, &error, &presetWarnings, &take);
        for (const QString &w : presetWarnings) // a user preset shadowed by a built-in one
            std::fprintf(stderr, "drape: warning: %s\n", qPrintable(w));
        if (!scene) {
            std::fprintf(stderr, "drape: %s\n", qPrintable(error));
            if (!args.preset.isEmpty())
                return 1;
            scene = Scene {}; // the default preset is missing from this build: start empty
        }
        document = std::make_unique<Document>(std::move(*scene), QString(), nullptr, std::move(take));
    }
    window.setDocument(std::move(document));
    if (!openError.isEmpty())
        window.showSceneError(openError);
    window.show();
    return app.exec();
}

} // namespace drape::app
