// The running simulation: settings, cloths and colliders, advanced in fixed steps.
//
// step() advances exactly one frame (1 / solver.frameRate seconds), split into
// solver.substeps substeps; the time step never comes from wall-clock time, so the same
// scene with the same inputs gives bit-identical states. The solver is chosen per
// simulation (solver.kind) and may be switched between steps without a jolt.
#pragma once

#include "sim/cloth.h"
#include "sim/collider.h"
#include "sim/settings.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace drape {

namespace detail {
struct SimulationCaches;
}

/// Whether the last step went well. A blow-up (non-finite or runaway state) is flagged,
/// the particles are restored to the last good frame, and further steps do nothing until
/// clearBlowUp() or a reset, so no NaN ever reaches a renderer.
struct SimStatus {
    bool blownUp = false;
    std::string
        message; ///< what went wrong and where ("cloth 0, particle 17: speed 1.2e4 m/s exceeds 200 m/s")
};

/// Counters about the last step (for the status bar and benchmarks).
struct StepStats {
    std::uint64_t projections = 0; ///< constraint projections / spring evaluations done
    std::uint32_t tornConstraints = 0;
    std::uint32_t splitParticles = 0;
    /// Times the constraint streams were laid out from scratch for a new topology (the first
    /// step, many constraints added at once), and times a tear, cut, split or sewn link was
    /// fitted into the streams laid out before instead (docs/solvers.md, "XPBD constraint
    /// layout").
    std::uint32_t streamLayouts = 0;
    std::uint32_t streamRemaps = 0;
    /// Times the XPBD and Verlet solvers read every constraint record to check and hash it
    /// before the step: the first step, and any after something wrote the records
    /// (ConstraintRecords), changed the particle count or the kernels. Otherwise the step
    /// goes on what the last check found, and this stays 0.
    std::uint32_t recordScans = 0;
};

/// Where the bytes of Simulation::stateBytes() go, counted from array capacities, so that a
/// change in the size of the state can be traced to its part (the benchmark reports each
/// per particle: docs/benchmark.md).
struct StateBytes {
    std::size_t particles = 0; ///< the Particles arrays
    std::size_t constraints = 0; ///< the constraint records
    std::size_t triangles = 0;
    std::size_t clothOther = 0; ///< the Cloth itself, its name and texture coordinates
    std::size_t streams = 0; ///< the solvers' per-slot constraint streams (XpbdBatches)
    std::size_t blockTables = 0; ///< the streams' per-block, per-colour and per-chunk tables
    std::size_t solverParticles = 0; ///< the solvers' per-particle arrays (frame offsets, planes, velocities)
    std::size_t solverOther = 0; ///< the rest of the solver cache (bending, adjacency, contacts, hashes)
    /// The tension readout the solver keeps per constraint: only while the cloth can tear
    /// (its tearing reads it within a frame) or on the springs solver (otherwise
    /// constraintTensions() derives it from the streams on request).
    std::size_t tension = 0;
    std::size_t snapshot = 0; ///< the blow-up rollback snapshot

    /// The cloth's own arrays (what a scene file describes).
    std::size_t cloth() const { return particles + constraints + triangles + clothOther; }
    std::size_t solver() const { return streams + blockTables + solverParticles + solverOther + tension; }
    std::size_t total() const { return cloth() + solver() + snapshot; }
};

/// A Simulation is a value: a copy is an exact snapshot that steps on bit for bit like the
/// original (the solver's caches and scratch are copied too; a second solver thread is not,
/// the copy starts its own on first use). The caches live behind a pointer so that users of
/// this header do not see the solver's internals (core/sim/src/solvercache.h).
class Simulation {
public:
    Simulation();
    ~Simulation();
    Simulation(const Simulation &other);
    Simulation &operator=(const Simulation &other);
    Simulation(Simulation &&other);
    Simulation &operator=(Simulation &&other);

    WorldSettings world;
    SolverSettings solver;
    std::vector<Cloth> cloths;
    std::vector<Collider> colliders;

    /// Advances one frame. Does nothing while blown up.
    void step();
    /// Advances `frames` frames (stops early on a blow-up).
    void run(int frames);
    /// Frames stepped so far by the calling thread, over all simulations (blown-up steps,
    /// which do nothing, not counted). A thread-local count, always kept: it lets a test
    /// check which thread did the solver's work (the editor's GUI thread must do none to
    /// settle on a frame, the timeline's worker does it).
    static std::uint64_t stepsOnThisThread();

    double time() const { return m_time; } ///< s, simulated time
    std::uint64_t frame() const { return m_frame; } ///< frames stepped
    void setTime(double t, std::uint64_t frame); ///< used when resuming a saved state
    /// Resumes a state saved mid-run (after at least one stepped frame): sets the time like
    /// setTime() but lets the solvers continue their history from the current positions and
    /// velocities (Verlet's are mid-step velocities, not initial ones), so the continuation
    /// is bit-identical to the uninterrupted run.
    void resumeAt(double t, std::uint64_t frame);
    /// Call after writing particle positions or velocities directly (other than moving
    /// kinematic particles between steps): solvers then restart their history from the
    /// current positions and velocities instead of assuming uninterrupted stepping.
    void invalidateHistory();

    const SimStatus &status() const { return m_status; }
    void clearBlowUp() { m_status = {}; }
    const StepStats &lastStepStats() const { return m_stats; }

    /// Bytes the simulation holds for cloth `cloth`: its particle, constraint and triangle
    /// arrays, the solver's streams and caches, and the rollback snapshot (array capacities).
    std::size_t stateBytes(std::size_t cloth) const;
    /// stateBytes() part by part (all zero for a cloth index out of range).
    StateBytes stateBytesByPart(std::size_t cloth) const;

    /// N, the tension each constraint of cloth `cloth` carried in the last substep of the last
    /// step (positive when stretched), parallel to its constraints: XPBD -λ/Δt², springs
    /// k (|d| - L), Verlet the relaxation's corrections as a force (sim/tension.h turns it into
    /// pin reactions and stress). Every entry is 0 while it is unknown: before the first
    /// step, after an edit that changed the cloth's constraint count or topology revision
    /// (one that only retunes a constraint keeps the last step's value), after a vertex
    /// split in the last substep, or a blow-up. The solvers keep what it takes and make it on
    /// request, so a frame whose tension nobody reads costs nothing for it; `out` is resized
    /// to the constraints.
    void constraintTensions(std::size_t cloth, std::vector<float> &out) const;
    std::vector<float> constraintTensions(std::size_t cloth) const;

    /// All settings and cloth problems, each naming the field or index and the value.
    std::vector<std::string> validate() const;

    /// FNV-1a hash of the complete state (positions, velocities, topology), for determinism tests.
    std::uint64_t stateHash() const;

    /// Bytes held on the heap by this simulation (particles, topology, colliders, solver
    /// scratch, rollback snapshot), counted from vector capacities; what a copy of it costs.
    std::size_t memoryBytes() const;

private:
    bool checkSettings();
    void takeSnapshot(std::size_t cloth, bool copies);
    void keepEndPositions();
    bool detectBlowUp();
    void rollBack();
    void stepCloth(std::size_t index);

    double m_time = 0.0;
    std::uint64_t m_frame = 0;
    SimStatus m_status;
    StepStats m_stats;
    std::unique_ptr<detail::SimulationCaches> m_in; // never null
};

} // namespace drape
