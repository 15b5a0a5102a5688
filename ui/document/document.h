// One open scene: the authoring data (Scene), the running Simulation built from it, and the
// undo stack. Every edit is a QUndoCommand pushed on undoStack(); docks and views listen to
// changed() instead of calling each other (the Tiled document model).
#pragma once

#include "scene/scene.h"
#include "scene/scenebudget.h"
#include "sim/simulation.h"

#include <QObject>
#include <QString>
#include <QUndoStack>

#include <memory>
#include <optional>

namespace drape {

/// What a change touched, so listeners refresh only what they show.
enum class Change : unsigned {
    None = 0,
    Parameters = 1u << 0, ///< world / solver / material / collider values
    Topology = 1u << 1,   ///< constraints, triangles, particle count (index buffers rebuild)
    Pins = 1u << 2,       ///< particle kinds
    Selection = 1u << 3,  ///< selected constraints / particles
    Camera = 1u << 4,
    View = 1u << 5,       ///< shading, overlays, colours
    Record = 1u << 6,     ///< recording settings
    Colliders = 1u << 7,
    Cloths = 1u << 8,     ///< cloths added/removed/replaced
    All = 0xffffffffu,
};
constexpr Change operator|(Change a, Change b) { return Change(unsigned(a) | unsigned(b)); }
constexpr bool operator&(Change a, Change b) { return (unsigned(a) & unsigned(b)) != 0; }

class Document : public QObject {
    Q_OBJECT
public:
    explicit Document(Scene scene, QString filePath = {}, QObject *parent = nullptr);
    ~Document() override;

    /// Loads a scene file; on failure returns null and sets `error` (names file, line/path).
    /// A file over `budget` also sets `overBudget` to what it would need, so the caller can
    /// offer to open it with a larger budget.
    static std::unique_ptr<Document> load(const QString &filePath, QString *error, QStringList *warnings = nullptr,
                                          const SceneBudget &budget = {},
                                          std::optional<SceneTotals> *overBudget = nullptr);
    /// Saves atomically; `withState` also writes the running state. Marks the stack clean.
    bool save(const QString &filePath, bool withState, QString *error);

    const Scene &scene() const { return m_scene; }
    /// Mutable access for undo commands only; they must call notify() afterwards.
    Scene &sceneForEdit() { return m_scene; }

    Simulation &simulation() { return m_sim; }
    const Simulation &simulation() const { return m_sim; }

    QUndoStack *undoStack() { return &m_undo; }
    /// The size budget edits are held to (the one the scene was opened with).
    const SceneBudget &budget() const { return m_budget; }
    void setBudget(const SceneBudget &budget) { m_budget = budget; }
    QString filePath() const { return m_filePath; }
    QString displayName() const; ///< file name, or the scene name when unsaved
    bool isModified() const { return !m_undo.isClean(); }

    /// Rebuilds the simulation from the scene (the authoring data, not the last frame).
    void resetSimulation();
    /// Applies scene parameters to the running simulation without a rebuild (no jolt).
    void applyParameters();
    /// Emits changed(); commands call it after touching the scene or the simulation.
    void notify(Change what);
    /// Emits simulationStepped(); the simulation loop calls it after advancing frames.
    void notifyStepped() { emit simulationStepped(); }
    /// Stores the viewport's camera in the scene (saved with it, not an undo step: looking
    /// around is not an edit).
    void setCameraQuietly(const CameraDesc &camera) { m_scene.camera = camera; }

signals:
    void changed(drape::Change what);
    void simulationReset();
    void simulationStepped();
    void modifiedChanged(bool modified);
    void filePathChanged(const QString &path);

private:
    Scene m_scene;
    Simulation m_sim;
    QUndoStack m_undo;
    QString m_filePath;
    SceneBudget m_budget;
};

} // namespace drape
