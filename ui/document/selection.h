// The editing selection of the viewport tools: constraints and particles of one cloth.
//
// Constraints are stored by index (what the core's operations and the docks use) together
// with their particle pair. Particles are never reordered by the core (splits append), so
// the pair identifies a constraint across edits that reorder or remove constraint records:
// after a topology change the selection first applies an explicit old→new map when a
// command provides one, and otherwise re-resolves each index from its pair (self-tears,
// undo, redo), dropping the constraints that no longer exist.
#pragma once

#include "scene/scene.h"
#include "sim/cloth.h"

#include <QObject>

#include <cstdint>
#include <vector>

namespace drape {

class Selection : public QObject {
    Q_OBJECT
public:
    explicit Selection(QObject *parent = nullptr);

    static constexpr std::uint32_t kRemoved = 0xffffffffu; ///< old→new map entry of a deleted record

    int cloth() const { return m_cloth; } ///< cloth index, -1 when nothing is selected
    const std::vector<std::uint32_t> &constraints() const { return m_constraints; } ///< sorted, unique
    const std::vector<std::uint32_t> &particles() const { return m_particles; }     ///< sorted, unique
    bool isEmpty() const { return m_constraints.empty() && m_particles.empty(); }
    bool containsConstraint(int cloth, std::uint32_t index) const;

    /// Replaces the constraint selection (particles are kept when the cloth is the same).
    void setConstraints(const Cloth &cloth, int clothIndex, std::vector<std::uint32_t> indices);
    /// Adds (or with `toggle` toggles) constraints to the selection of `clothIndex`.
    void addConstraints(const Cloth &cloth, int clothIndex, const std::vector<std::uint32_t> &indices,
                        bool toggle = false);
    void setParticles(int clothIndex, std::vector<std::uint32_t> indices);
    void clear();

    /// Applies an old→new constraint map (kRemoved for deleted records) from an edit of `cloth`.
    void remapConstraints(int clothIndex, const std::vector<std::uint32_t> &oldToNew);
    /// Follows a change of cloth `clothIndex`'s grid: each selected particle, and each end
    /// of a selected constraint, moves to the particle at the same place on the new grid.
    void remapGrid(int clothIndex, const GridDesc &from, const GridDesc &to);
    /// Re-resolves indices against the running cloths after any topology change.
    void revalidate(const std::vector<Cloth> &cloths);

signals:
    void changed();

private:
    struct Pair {
        std::uint32_t a = 0;
        std::uint32_t b = 0;
    };
    void rebuildPairs(const Cloth &cloth);

    int m_cloth = -1;
    std::vector<std::uint32_t> m_constraints;
    std::vector<Pair> m_pairs; // parallel to m_constraints
    std::vector<std::uint32_t> m_particles;
};

} // namespace drape
