// Per-cloth solver scratch kept between steps: the constraint colouring, XPBD multipliers,
// contact records, kinematic interpolation and the spatial hash. Rebuilt when the cloth's
// topology changes, otherwise reused so a steady-state step allocates nothing.
// Internal to the core (used by simulation.cpp and the solver sources).
#pragma once

#include "base/rotation.h"
#include "bendingsolve.h"
#include "sim/bending.h"
#include "sim/cloth.h"
#include "sim/collider.h"
#include "sim/tethers.h"
#include "sim/vertexsplit.h"
#include "xpbdbatch.h"
#include "xpbdworker.h"

#include <cstdint>
#include <vector>

namespace drape::detail {

/// A collider as the solver sees it at one substep (no name, no motion description).
struct ColliderState {
    ColliderKind kind = ColliderKind::Sphere;
    Vec3 center; ///< m
    Vec3 normal { 0.f, 1.f, 0.f };
    Vec3 halfExtents; ///< m
    Vec3 velocity; ///< m/s
    float radius = 0.f; ///< m
    float margin = 0.f; ///< m, collider thickness
    float friction = 0.f; ///< kinetic coefficient
    float staticFriction = 0.f; ///< static coefficient
    float restitution = 0.f;
    bool keepInside = false;
    Vec3 axis { 0.f, 1.f, 0.f }; ///< capsule, unit
    float halfLength = 0.f; ///< m, capsule
    const TriangleMesh *mesh = nullptr; ///< mesh collider (owned by the Collider's MeshRef)
    /// The collider's rotation (its frame's axes in world space); the box and the mesh are
    /// resolved in that frame. `normal` and `axis` above are turned by it already.
    Mat3 frame;
    bool rotated = false; ///< frame is not the identity
};

/// A cell of the self-collision hash grid.
struct CellCoord {
    std::int32_t x = 0, y = 0, z = 0;
    bool operator==(const CellCoord &) const = default;
};

/// A particle as the self-collision hash lists it, with what the pair test reads, so that
/// a bucket is walked over contiguous memory.
struct CellEntry {
    Vec3 position; ///< m, when the hash was built
    float invMass = 0.f;
    CellCoord cell; ///< told apart from other cells in its bucket
    std::uint32_t particle = 0;
};

/// The particles of the 14 cells the self-collision hash searches around one cell, as
/// parallel arrays (the pair test reads eight at a time). The arrays only grow: `size` is
/// how many entries they hold now.
struct SelfCandidates {
    std::vector<float> x, y, z; ///< m, when the hash was built
    std::vector<float> invMass;
    std::vector<std::uint32_t> particle;
    /// ~0 in the searched cell itself (paired with higher indices only), else 0
    std::vector<std::uint32_t> ownCell;
    std::size_t size = 0;

    void clear() { size = 0; }
    /// Room for `more` entries past `size`.
    void reserveMore(std::size_t more)
    {
        const std::size_t need = size + more;
        if (x.size() >= need)
            return;
        const std::size_t grown = std::max(need, 2 * x.size());
        for (std::vector<float> *v : { &x, &y, &z, &invMass })
            v->resize(grown);
        particle.resize(grown);
        ownCell.resize(grown);
    }
    /// Appends an entry; reserveMore made room for it.
    void add(const Vec3 &position, float w, std::uint32_t index, bool own)
    {
        x[size] = position.x;
        y[size] = position.y;
        z[size] = position.z;
        invMass[size] = w;
        particle[size] = index;
        ownCell[size] = own ? ~0u : 0u;
        ++size;
    }
    std::size_t capacityBytes() const
    {
        return 4 * x.capacity() * sizeof(float)
            + (particle.capacity() + ownCell.capacity()) * sizeof(std::uint32_t);
    }
};

/// Where the tension of the last substep is kept (ClothSolverCache::tensionKept).
enum class TensionKept : std::uint8_t {
    None, ///< unknown: no step yet, a split or a blow-up since
    Record, ///< ClothSolverCache::tension, per constraint
    XpbdStreams, ///< the XPBD multipliers of ClothSolverCache::xpbd, per slot: -λ/Δt²
    VerletStreams, ///< the Verlet force sums in the same place
};

/// Where a frame leaves a particle.
struct ParticleEnd {
    Vec3 position, previous, velocity;
};

struct ClothSolverCache {
    // Topology key: the cache is rebuilt when any of these differ from the cloth.
    std::uint64_t revision = ~std::uint64_t(0);
    std::size_t particleCount = ~std::size_t(0);
    std::size_t constraintCount = ~std::size_t(0);

    /// The constraint colouring (ensure(); each constraint's colour is also kept in its record,
    /// DistanceConstraint::colour), kept as padded structure-of-arrays streams for the XPBD
    /// and Verlet solvers: constraints of one colour share no particle, colour by colour,
    /// each colour grouped into blocks for the kernel (the catch-all colour in ascending
    /// constraint index); XpbdBatches::source is the solve order (padding aside).
    /// The multipliers λ live there too, one per slot.
    XpbdBatches xpbd;
    /// Whether ensure() keeps `xpbd` laid out: the XPBD and Verlet solvers step on the
    /// streams, the springs solver reads the records and needs none (about 280 bytes per
    /// particle on a grid), so the simulation clears this for its springs frames and the
    /// streams are dropped, and laid out again when a frame of the other solvers comes.
    bool keepStreams = true;
    /// `xpbd` holds the streams of the topology of `revision`.
    bool streamsLaidOut = false;
    /// How often ensure() laid the streams out from scratch, and how often it fitted the
    /// previous layout to a new topology instead (remapXpbdBatches: after tears and cuts).
    std::uint64_t layouts = 0;
    std::uint64_t remaps = 0;
    XpbdWorkerSlot xpbdWorker; ///< second thread for large cloths, started on first use

    /// Bending hinges and patches from the triangles (sim/bending.h) and the patches' XPBD
    /// multipliers (three per patch, zeroed each substep). Built only while the cloth bends
    /// (a rigidity above zero; the solvers skip bending otherwise), for the topology of
    /// `bendingRevision`: a flat-bending cloth neither pays their bytes (about 410 per particle
    /// of a grid, 160 of them the schedule's chunks) nor rebuilds them after every cut.
    BendModel bending;
    BendSchedule bendSchedule; ///< the order of a bending pass, eight patches at a time where it can
    std::vector<float> bendLambda;
    std::uint64_t bendingRevision = ~std::uint64_t(0);

    // Particle adjacency through constraints (CSR, neighbours sorted), and degree. Built on
    // demand (ensureAdjacency) by the users that need it, self-collision and the springs
    // solver's stability bound: 8 bytes per constraint the other solvers do not carry.
    std::uint64_t adjacencyRevision = ~std::uint64_t(0);
    std::vector<std::uint32_t> adjacencyStart;
    std::vector<std::uint32_t> adjacency;
    float minRestLength = 0.f; ///< m, shortest structural/shear rest length (self-collision cap)
    bool tearable = false; ///< some constraint has a finite tear strain or force
    /// Whether this frame can tear anything: a constraint that can tear, in a cloth whose
    /// tear mode is not None. A new editor cloth has a finite tear strain and tears nothing
    /// (TearMode::None): its frames are plain frames, and keep no tension record.
    bool tears(const Cloth &cloth) const { return tearable && cloth.tearMode != TearMode::None; }

    // Per-particle scratch, sized to the particle count.
    /// m/s, velocity after prediction (restitution): sized by beginFrameOffsets, like the
    /// Vec3 offsets below.
    std::vector<Vec3> preVelocity;
    /// N, the external forces of the substep (accumulateExternalForces), when they are more
    /// than gravity: while the wind acts on the cloth, and always for the springs, which add
    /// their own. Otherwise it stays empty and a prediction takes m g from the particle's
    /// mass where it would read the force (forceOn, InterleavedGravity in solver.h): the same bits.
    std::vector<Vec3> force;
    // Contact records, sized to the particle count by projectColliders when there are
    // colliders (empty, and never read, without them).
    std::vector<Vec3> contactNormal; ///< unit, last contact normal this substep
    std::vector<std::int32_t> contactCollider; ///< collider index of that contact, -1 = none
    /// Per particle, the mesh-collider triangle nearest it at the last query: the next query
    /// starts from it, so its search ball shrinks at once to the distance of that triangle.
    std::vector<std::uint32_t> meshHint;
    std::vector<float> springStiffness; ///< N/m per constraint (springs solver)
    std::vector<float> stiffnessSum; ///< N/m per particle, Σ k of its springs (stability bound)
    std::vector<float> dampingSum; ///< N·s/m per particle, Σ c of its springs

    // Frame-local positions of the position-based solvers (XPBD, Verlet). A particle's
    // position during a frame is origin + offset: origin is its float position at the start of
    // the frame (or of the last topology change), offset the float displacement since then.
    // Substep displacements (g dt² ≈ 3e-9 m at 60 Hz × 1000 substeps) are far below the float
    // spacing of a position a few metres from the world origin (2.4e-7 m at 2 m) but not below
    // that of an offset near zero, so integration and projection on offsets keep them;
    // Particles::position is written back as origin + offset after each solve. A plain XPBD
    // or Verlet frame on the vector kernels keeps the offsets in planes alone and reads its
    // origin from the positions (PlainPlanes, solver.h): origin, offset, offsetPrev and
    // preVelocity are sized by the first frame that takes them (beginFrameOffsets), and stay
    // empty on a cloth that never has one.
    std::vector<Vec3> origin; ///< m, position at the start of the frame
    std::vector<Vec3> offset; ///< m, displacement since the start of the frame
    std::vector<Vec3> offsetPrev; ///< m, offset at the start of the current substep
    /// A plain XPBD frame's carried velocities as planes (PlainPlanes, solver.h).
    ScratchVector<float> planarVelocity; ///< m/s
    /// A frame in planes whose result is still in them (holdPlainFrame, solver.h), until
    /// Simulation::step commits or drops it: never set between two steps.
    struct HeldFrame {
        bool held = false;
        float dt = 0.f; ///< s, its substep
        int substeps = 0;
        double frameDt = 0.0; ///< s
    };
    HeldFrame heldFrame;

    // Kinematic particles: moved from outside between frames, interpolated across substeps.
    /// True when a frame was stepped since the last state load or rollback: the simulation's
    /// snapshot then holds where that frame left every particle until the next frame's
    /// snapshot replaces it (Simulation::step), and keepKinematicEnds can read it.
    bool endValid = false;
    /// Where the last frame left the particles that are kinematic now, in index order
    /// (keepKinematicEnds, read once by beginKinematics); none: start where they are.
    struct KinematicEnd {
        std::uint32_t particle = 0;
        Vec3 position; ///< m
    };
    std::vector<KinematicEnd> kinematicEnd;
    std::vector<std::uint32_t> kinematic;
    std::vector<Vec3> kinematicStart;
    std::vector<Vec3> kinematicTarget;

    /// False until a frame was stepped (and after a state load): the velocities are then
    /// true initial velocities, which Verlet starts to second order.
    bool started = false;

    // Self-collision spatial hash (counting sort into cells, deterministic).
    std::vector<std::uint32_t> cellStart; ///< per bucket, where its entries begin (one more: the end)
    std::vector<CellEntry> cellEntries; ///< bucket by bucket, each by ascending particle index
    std::vector<std::uint32_t> cellOf; ///< per particle, its bucket, then how many candidates it found
    SelfCandidates selfCandidates; ///< the particles around the cell being searched
    std::vector<std::uint32_t> selfPairsFound; ///< candidate partners as found, cell by cell
    std::vector<std::uint32_t> selfFoundStart; ///< per particle, where its candidates start
    std::vector<std::uint32_t> selfPushed; ///< the particles the last self-collision pass moved
    // Candidate pairs (i, j flattened, in the hash's visiting order) within minDistance +
    // slack when gathered, reused while no two particles near each other closed in by more
    // than the slack since (collision.cpp, selfPairsCurrent).
    std::vector<std::uint32_t> selfPairs;
    std::vector<Vec3> selfPairsAnchor; ///< m, positions when the pairs were gathered
    float selfPairsSlack = 0.f; ///< m
    /// m, how far two particles of coarse cells that are not neighbours may close in
    float selfPairsFarSlack = 0.f;
    // The coarse cells of the gather (kSelfCoarse hash cells a side), numbered 0.. in the
    // order the particles first fall in them: each particle's, and each cell's neighbours of
    // the same or higher number (itself first) as runs; the per-cell boxes of displacement
    // are scratch of the check.
    std::vector<std::uint32_t> selfCoarseOf;
    std::vector<std::uint32_t> selfCoarseNearStart, selfCoarseNear;
    std::vector<std::uint64_t> selfCoarseKeys; ///< the cells' keys (the table's, then each cell's)
    std::vector<std::uint32_t> selfCoarseTable; ///< open addressing: cell number + 1, 0 empty
    std::vector<Vec3> selfCoarseLow, selfCoarseHigh;
    float selfPairsDistance = 0.f; ///< m, the minimum distance they were gathered for
    std::uint64_t selfPairsRevision = 0;
    bool selfPairsValid = false;

    Tethers tethers; ///< long-range attachments (when Cloth::tetherStretch > 0)

    /// The tension readout (tension.cpp; Simulation::constraintTensions reads it). A solver
    /// whose tearing reads the tension within a frame, and the springs solver, write it per
    /// constraint into `tension` each substep (TensionKept::Record); the others leave the
    /// multipliers of their last substep in `xpbd` and only note how to turn them into
    /// forces (TensionKept::XpbdStreams, VerletStreams), so that a frame nobody reads the
    /// tension of pays nothing for it.
    std::vector<float> tension; ///< N per constraint (TensionKept::Record)
    TensionKept tensionKept = TensionKept::None;
    float tensionDt = 0.f; ///< s, TensionKept::XpbdStreams: the substep the multipliers are of
    /// Kept in the streams: the constraint count and topology revision they were solved for;
    /// an edit that changed either leaves the tension unknown until a step.
    std::size_t tensionConstraints = 0;
    std::uint64_t tensionRevision = 0;
    /// Kept in the streams: layouts + remaps when they were solved (a layout since would have
    /// renumbered the slots, whatever the revision says).
    std::uint64_t tensionLayout = 0;

    // Splits made during the current frame (rollback of created particles).
    std::vector<ParticleSplit> splitsThisFrame;

    /// Colours the constraints and lays out their streams when the topology changed (fitting
    /// the previous layout when every constraint kept its colour); resizes scratch. Stores the
    /// colours in the records (DistanceConstraint::colour), so that a copy of the cloth is
    /// coloured the same. Builds the bending model when the cloth bends and it is missing (a
    /// rigidity raised between frames).
    void ensure(Cloth &cloth);
    /// The same for a cloth this cache does not step (a one-off check): the colours are
    /// used, not stored.
    void ensure(const Cloth &cloth);
    /// Builds the bending model for the current topology if the cloth bends and it is not.
    void ensureBending(const Cloth &cloth);
    /// Builds the adjacency for the current topology if it is not (call after ensure()).
    void ensureAdjacency(const Cloth &cloth);
    /// Forgets the history that assumes uninterrupted stepping (after a state load or rollback).
    void invalidateHistory()
    {
        endValid = false;
        selfPairsValid = false;
        started = false;
    }
    bool adjacent(std::uint32_t a, std::uint32_t b) const;

private:
    /// ensure() but for storing the colours: false when the topology is the one laid out;
    /// else `colour` holds every constraint's colour where one differs from its record's,
    /// and is empty when none does.
    bool layOut(const Cloth &cloth, std::vector<std::uint8_t> &colour);
    /// Lays out `xpbd` from scratch for `colour` (every constraint's), `colourCount` per colour.
    void layOutStreams(
        const Cloth &cloth, const std::vector<std::uint8_t> &colour, const std::uint32_t (&colourCount)[64]);
    void dropStreams();

public:
    /// Bytes held by this cache (every array's capacity), for the memory figures of bench/:
    /// the per-slot constraint streams, the streams' block, colour and chunk tables, the
    /// per-particle arrays, and the rest (this struct included).
    struct Bytes {
        std::size_t streams = 0;
        std::size_t blockTables = 0;
        std::size_t particles = 0;
        std::size_t other = 0;
        std::size_t tension = 0; ///< the tension readout kept per constraint
        std::size_t total() const { return streams + blockTables + particles + other + tension; }
    };
    Bytes bytes() const;
};

} // namespace drape::detail
