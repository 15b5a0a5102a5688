// `drape import`: reads a mesh file and writes a scene with it added as a cloth or a collider,
// printing what it made. The mesh is embedded in the scene file, which never refers to it.
//
// Exit codes: 0 success, 1 unreadable or unusable mesh or scene, or unwritable output,
// 2 bad command line.
#include "commands.h"
#include "modeguards.h"

#include "mesh/meshimport.h"
#include "mesh/meshscene.h"
#include "scene/presets.h"
#include "scene/scenefile.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>

#include <cmath>
#include <cstdio>

namespace drape::app {

namespace {

constexpr int kExitInput = 1;
constexpr int kExitUsage = 2;

const char *kDetails
    = R"(Reads MESH (OBJ, PLY, STL, glTF/GLB, FBX, COLLADA and the other formats of the assimp
library) and writes OUT.json: the scene given by --into (a file or preset:NAME), or an empty scene
with a ground plane, with the mesh added as a cloth or a collider. The mesh is embedded in OUT.json.

As a cloth: one particle per vertex (vertices at the same place are welded), masses from the
triangle areas and the fabric's areal density, a structural constraint per edge, a bending
constraint across each edge shared by two triangles, the file's UVs kept for the fabric looks
(checker, weave, image).
As a collider: a static triangle mesh centred on its bounding box.

Broken meshes are repaired where that is safe (degenerate, duplicate and NaN triangles removed,
inside-out closed meshes turned) with a warning that counts what changed; empty files, files
without triangles and meshes larger than the limit are refused.

Exit codes: 0 success, 1 unreadable or unusable input or unwritable output, 2 bad command line.

Examples:
  drape import dress.obj --as cloth -o dress.json
  drape import statue.stl --as collider --units mm --up z --into preset:drop -o statue.json
)";

void printError(const QString &message)
{
    std::fprintf(stderr, "drape import: %s\n", qPrintable(terminalSafe(message)));
}

} // namespace

const char *importUsage()
{
    return "  drape import MESH --as cloth|collider [--into SCENE] -o OUT.json [--scale S] [--up y|z]\n"
           "                          add a mesh file (OBJ, PLY, STL, glTF, FBX, COLLADA) to a scene\n"
           "                          as a cloth or a collider (see drape import --help)\n";
}

int runImport(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("drape"));

    QCommandLineParser parser;
    parser.setApplicationDescription(QString::fromUtf8(kDetails));
    parser.addPositionalArgument(
        QStringLiteral("import"), QStringLiteral("The mesh import mode."), QStringLiteral("import"));
    parser.addPositionalArgument(QStringLiteral("MESH"), QStringLiteral("The mesh file."));
    const QCommandLineOption helpOption(
        { QStringLiteral("h"), QStringLiteral("help") }, QStringLiteral("Show this help."));
    const QCommandLineOption asOption(QStringLiteral("as"),
        QStringLiteral("What the mesh becomes: cloth or collider."), QStringLiteral("KIND"));
    const QCommandLineOption intoOption(QStringLiteral("into"),
        QStringLiteral("Add to this scene (a file or preset:NAME) instead of an empty one."),
        QStringLiteral("SCENE"));
    const QCommandLineOption outOption({ QStringLiteral("o"), QStringLiteral("out") },
        QStringLiteral("The scene file to write (.json)."), QStringLiteral("OUT"));
    const QCommandLineOption scaleOption(QStringLiteral("scale"),
        QStringLiteral("Metres per file unit, times --units (default 1)."), QStringLiteral("S"));
    const QCommandLineOption unitsOption(QStringLiteral("units"),
        QStringLiteral("The file's length unit: m (default), cm or mm."), QStringLiteral("UNIT"));
    const QCommandLineOption upOption(QStringLiteral("up"),
        QStringLiteral("The file's up axis: y (default) or z (turned so that it points up)."),
        QStringLiteral("AXIS"));
    const QCommandLineOption fabricOption(QStringLiteral("fabric"),
        QStringLiteral("Cloth: a built-in fabric (cotton, denim, silk, leather, rubber; default cotton)."),
        QStringLiteral("NAME"));
    const QCommandLineOption nameOption(QStringLiteral("name"),
        QStringLiteral("The new object's name (default: the file's base name)."), QStringLiteral("NAME"));
    parser.addOptions({ helpOption, asOption, intoOption, outOption, scaleOption, unitsOption, upOption,
        fabricOption, nameOption, maxParticlesOption() });

    if (!parser.parse(QCoreApplication::arguments())) {
        printError(parser.errorText() + QStringLiteral(" (see drape import --help)"));
        return kExitUsage;
    }
    if (parser.isSet(helpOption)) {
        std::fputs(qPrintable(parser.helpText()), stdout);
        return 0;
    }
    QStringList positional = parser.positionalArguments();
    if (!positional.isEmpty() && positional.front() == QLatin1String("import"))
        positional.removeFirst();
    if (positional.size() != 1) {
        printError(positional.isEmpty()
                ? QStringLiteral("no mesh file given (see drape import --help)")
                : QStringLiteral("expected one mesh file, got %1").arg(positional.join(' ')));
        return kExitUsage;
    }
    // The result is held to the same scene budget as a scene file (scenebudget.h), so a dense
    // mesh cannot make a scene that every later open refuses or that exhausts the memory.
    SceneBudget budget;
    QString budgetError;
    if (!budgetFromOptions(parser, &budget, &budgetError)) {
        printError(budgetError);
        return kExitUsage;
    }
    const QString as = parser.value(asOption);
    if (as != QLatin1String("cloth") && as != QLatin1String("collider")) {
        printError(as.isEmpty() ? QStringLiteral("--as cloth or --as collider is required")
                                : QStringLiteral("--as %1: expected cloth or collider").arg(as));
        return kExitUsage;
    }
    const QString out = parser.value(outOption);
    if (out.isEmpty() || QFileInfo(out).suffix().toLower() != QLatin1String("json")) {
        printError(out.isEmpty()
                ? QStringLiteral("-o OUT.json is required")
                : QStringLiteral("-o %1: the output is a scene file and must end in .json").arg(out));
        return kExitUsage;
    }

    MeshImportOptions options;
    const MeshRole role = as == QLatin1String("cloth") ? MeshRole::Cloth : MeshRole::Collider;
    options.maxTriangles = role == MeshRole::Cloth ? 100000 : 250000;
    if (parser.isSet(scaleOption)) {
        bool ok = false;
        const double s = parser.value(scaleOption).toDouble(&ok);
        if (!ok || !(s > 0.0) || !std::isfinite(s) || s > 1e6) {
            printError(QStringLiteral("--scale %1: expected a number > 0 (metres per file unit)")
                           .arg(parser.value(scaleOption)));
            return kExitUsage;
        }
        options.scale = float(s);
    }
    const QString units = parser.value(unitsOption);
    if (units == QLatin1String("cm"))
        options.scale *= 0.01f;
    else if (units == QLatin1String("mm"))
        options.scale *= 0.001f;
    else if (!units.isEmpty() && units != QLatin1String("m")) {
        printError(QStringLiteral("--units %1: expected m, cm or mm").arg(units));
        return kExitUsage;
    }
    const QString up = parser.value(upOption).toLower();
    if (up == QLatin1String("z"))
        options.up = UpAxis::Z;
    else if (!up.isEmpty() && up != QLatin1String("y")) {
        printError(QStringLiteral("--up %1: expected y or z").arg(parser.value(upOption)));
        return kExitUsage;
    }
    Material fabric;
    if (parser.isSet(fabricOption)) {
        const std::string wanted = parser.value(fabricOption).toStdString();
        bool found = false;
        for (const Material &m : materialPresets())
            if (m.name == wanted) {
                fabric = m;
                found = true;
            }
        if (!found) {
            printError(
                QStringLiteral("--fabric %1: not a built-in fabric (cotton, denim, silk, leather, rubber)")
                    .arg(parser.value(fabricOption)));
            return kExitUsage;
        }
    }

    Scene scene = emptySceneWithGround();
    if (parser.isSet(intoOption)) {
        SceneLoadResult r
            = loadSceneOrPreset(QFile::encodeName(parser.value(intoOption)).toStdString(), budget);
        for (const std::string &w : r.warnings)
            printError(QStringLiteral("warning: %1").arg(QString::fromStdString(w)));
        if (!r.ok()) {
            printError(QString::fromStdString(r.error));
            return kExitInput;
        }
        scene = std::move(*r.scene);
    }

    const QString meshPath = positional.front();
    const MeshImport imported = importMesh(QFile::encodeName(meshPath).toStdString(), options);
    if (!imported.ok()) {
        printError(QString::fromStdString(imported.error));
        return kExitInput;
    }
    for (const std::string &w : imported.report.warnings())
        printError(QStringLiteral("warning: %1: %2").arg(meshPath, QString::fromStdString(w)));
    const std::string name = parser.isSet(nameOption) ? parser.value(nameOption).toStdString()
                                                      : QFileInfo(meshPath).completeBaseName().toStdString();
    const MeshAddition added = addMeshToScene(scene, imported.mesh, role, name, fabric);
    if (const std::string over = checkBudget(sceneTotals(scene), budget); !over.empty()) {
        printError(QStringLiteral("%1: %2%3").arg(meshPath, QString::fromStdString(over), budgetHint()));
        return kExitInput;
    }

    std::string error;
    if (!saveSceneFile(QFile::encodeName(out).toStdString(), scene, SaveOptions {}, &error)) {
        printError(QString::fromStdString(error));
        return kExitInput;
    }
    std::printf("%s\n", describe(added).c_str());
    std::printf("wrote %s (%zu cloths, %zu colliders)\n", qPrintable(out), scene.cloths.size(),
        scene.colliders.size());
    return 0;
}

} // namespace drape::app
