#include "document/document.h"

#include "scene/params.h"

#include "scene/scenefile.h"

#include <QFile>
#include <QFileInfo>

namespace drape {

Document::Document(Scene scene, QString filePath, QObject *parent)
    : QObject(parent), m_scene(std::move(scene)), m_filePath(std::move(filePath))
{
    m_sim = buildSimulation(m_scene);
    connect(&m_undo, &QUndoStack::cleanChanged, this, [this](bool clean) { emit modifiedChanged(!clean); });
}

Document::~Document() = default;

QString Document::displayName() const
{
    if (!m_filePath.isEmpty())
        return QFileInfo(m_filePath).fileName();
    return m_scene.name.empty() ? tr("Untitled") : QString::fromStdString(m_scene.name);
}

void Document::resetSimulation()
{
    // Reset goes back to the authoring data: a state saved with the file is where a reopened
    // scene resumes, not where Reset goes.
    Scene start = m_scene;
    start.state.reset();
    m_sim = buildSimulation(start);
    emit simulationReset();
    emit changed(Change::Topology | Change::Pins);
}

void Document::applyParameters() { applySceneSettings(m_scene, m_sim); }

void Document::notify(Change what) { emit changed(what); }

std::unique_ptr<Document> Document::load(const QString &filePath, QString *error, QStringList *warnings,
                                         const SceneBudget &budget, std::optional<SceneTotals> *overBudget)
{
    SceneLoadResult result = loadSceneFile(QFile::encodeName(filePath).toStdString(), budget);
    if (overBudget)
        *overBudget = result.overBudget;
    if (warnings) {
        for (const std::string &w : result.warnings)
            warnings->append(QString::fromStdString(w));
    }
    if (!result.ok()) {
        if (error)
            *error = QString::fromStdString(result.error);
        return nullptr;
    }
    auto document = std::make_unique<Document>(std::move(*result.scene), QFileInfo(filePath).absoluteFilePath());
    document->setBudget(budget);
    return document;
}

bool Document::save(const QString &filePath, bool withState, QString *error)
{
    // What is written is the scene plus whatever the running cloth became (cut, torn, sewn
    // cloths save as explicit lists); the authoring data in memory is left as it is.
    const Scene snapshot = snapshotScene(m_scene, m_sim, withState);
    SaveOptions options;
    options.withState = withState;
    std::string message;
    if (!saveSceneFile(QFile::encodeName(filePath).toStdString(), snapshot, options, &message)) {
        if (error)
            *error = QString::fromStdString(message);
        return false; // the old file is untouched and the document stays modified
    }
    m_undo.setClean();
    const QString absolute = QFileInfo(filePath).absoluteFilePath();
    if (m_filePath != absolute) {
        m_filePath = absolute;
        emit filePathChanged(m_filePath);
    }
    return true;
}

} // namespace drape
