// Topology-derived solver data: the constraint colouring, its streams and particle adjacency.
#include "solvercache.h"

#include <algorithm>
#include <bit>
#include <limits>

namespace drape::detail {

namespace {

// The colouring: constraints of one colour share no particle, so the XPBD and Verlet passes
// solve a colour's constraints side by side. A constraint keeps the colour stored in its
// record (DistanceConstraint::colour) unless an earlier one (in constraint order) took that
// colour at one of its particles; every other one then takes, in constraint order, the lowest
// colour not yet used at either of its particles (greedy). A fresh cloth (nothing stored) is
// coloured by families first (FamilyColours), and a tear, a cut or a vertex split (removals,
// an end moved to a new particle: conflicts only go away) leaves every survivor its colour:
// no cascade of changes through the constraints after a removed one, so the streams need
// not be laid out again (remapXpbdBatches), and a copy of the cloth, coloured again from its
// records, gets the same colours, which is what makes its results the same bits. A 2D grid
// with structural, shear and bend constraints takes 12 colours, two per family; colour 63 is
// a catch-all that is solved serially if a particle ever has more than 63 constraints (still
// correct Gauss-Seidel, just not a conflict-free batch). The same pass over the records
// finds what else the cache takes from them.
struct RecordScan {
    bool recoloured = false; ///< some constraint's colour differs from its record's
    /// The constraints that did not keep a colour (new ones, or ones whose colour another
    /// took), ascending, when there are at most kMaxAdded of them; `fits` says whether so.
    std::vector<std::uint32_t> added;
    bool fits = true;
    bool tearable = false; ///< some constraint has a finite tear strain or force
    float minRestLength = 0.f; ///< m, shortest positive structural/shear rest length, 0 if none
};

// More constraints than this added at once (a cut undone, a cloth rebuilt) are laid out from
// scratch rather than placed one by one in the streams (each placement scans its colour).
constexpr std::size_t kMaxAdded = 64;

// Colours by family for regular cloth. The constraints of one kind whose ends lie the same
// index step d = hi - lo apart form a family: on a grid, a row's horizontal links (d = 1),
// the vertical ones (d = columns), each diagonal, each bend span. Two members of a family
// share a particle only when one's lower end is the other's upper end, d further on, so the
// parity of floor(lo / d) tells neighbours apart: with two colours of its own, 2f and
// 2f + 1, family f is coloured conflict-free. Which of its family's two colours a constraint
// takes depends on that constraint alone, not on which others exist: holes cut before the
// solver first saw the cloth (or a torn cloth loaded from a file) leave the survivors
// grouped as on the whole sheet, so their blocks stay runs of consecutive particles
// (XpbdBatches::BlockFetch) instead of the scattered colours a greedy colouring gives around
// every hole. (The family's number f comes from the families' sizes, so holes can swap two
// families of nearly equal size, a square grid's horizontal and vertical links say: their
// colour pairs trade names, which changes the solve order but not the grouping.) A
// family's colour also holds whole runs of consecutive lower ends (a row's vertical links,
// a stretch of a diagonal), which the kernel reads with plain vector loads. Only the
// largest families take colours this way (kMaxFamilies of them, each at least
// kMinFamilyShare of the constraints and more than kMaxAdded): an irregular mesh has no such
// families, and is coloured greedily.
class FamilyColours {
public:
    static constexpr int kMaxFamilies = 8;
    static constexpr std::size_t kMinFamilyShare = 16; ///< a family holds >= 1/16 of the constraints
    static constexpr std::size_t kKinds = 4;

    void build(const Cloth &cloth)
    {
        const std::size_t n = cloth.particles.size();
        m_particles = n;
        std::vector<std::uint32_t> members(kKinds * n, 0);
        for (const DistanceConstraint &k : cloth.constraints) {
            const std::size_t key = keyOf(k);
            if (key != kNoKey)
                ++members[key];
        }
        const std::size_t least
            = std::max<std::size_t>(kMaxAdded, cloth.constraints.size() / kMinFamilyShare);
        std::vector<std::pair<std::uint32_t, std::size_t>> large; // (members, key)
        for (std::size_t key = 0; key < members.size(); ++key)
            if (members[key] >= least)
                large.emplace_back(members[key], key);
        // The largest kMaxFamilies, numbered largest first (equal sizes by kind, then step).
        // The numbering is the order the colours are solved in. Largest first (on a grid the
        // longer direction's structural links, then its bend links) measured best where it
        // matters most, in cloth torn by vertex splitting: a strip pulled apart at a weak seam
        // came apart cleanly, in two pieces, for 10 of 15 strip sizes, against 5 of 15 with
        // the greedy colouring and 3 of 15 numbering by kind and step.
        std::sort(large.begin(), large.end(), [](const auto &x, const auto &y) {
            return x.first != y.first ? x.first > y.first : x.second < y.second;
        });
        large.resize(std::min<std::size_t>(large.size(), kMaxFamilies));
        m_family.assign(kKinds * n, -1);
        for (std::size_t f = 0; f < large.size(); ++f)
            m_family[large[f].second] = std::int8_t(f);
    }

    /// Constraint k's family colour, -1 if it belongs to no large family.
    int colourOf(const DistanceConstraint &k) const
    {
        const std::size_t key = keyOf(k);
        if (key == kNoKey || m_family[key] < 0)
            return -1;
        const std::uint32_t lo = std::min(k.a, k.b);
        const std::uint32_t d = std::max(k.a, k.b) - lo;
        return 2 * m_family[key] + int((lo / d) & 1u);
    }

private:
    static constexpr std::size_t kNoKey = ~std::size_t(0);

    std::size_t keyOf(const DistanceConstraint &k) const
    {
        const std::uint32_t d = std::max(k.a, k.b) - std::min(k.a, k.b);
        const auto kind = std::size_t(k.kind);
        if (d == 0 || kind >= kKinds)
            return kNoKey;
        return kind * m_particles + d; // d < particles
    }

    std::size_t m_particles = 0;
    std::vector<std::int8_t> m_family; ///< per (kind, step): family index, -1 if not large
};

RecordScan colourConstraints(const Cloth &cloth, std::vector<std::uint8_t> &colour, std::uint32_t (&count)[64])
{
    RecordScan scan;
    constexpr float inf = std::numeric_limits<float>::infinity();
    float minRest = inf;
    const std::size_t n = cloth.particles.size();
    const std::size_t m = cloth.constraints.size();
    std::vector<std::uint64_t> used(n, 0);
    colour.resize(m);
    std::fill(std::begin(count), std::end(count), 0u);
    constexpr std::uint8_t none = DistanceConstraint::kUncoloured;
    std::size_t pending = 0;
    // The records as stored, a run at a time, and their materials from the table.
    const std::vector<ConstraintMaterial> &materials = cloth.constraints.materials();
    cloth.constraints.forEachPacked([&](std::size_t c, const PackedConstraint &k) {
        const ConstraintMaterial &material = materials[k.material()];
        scan.tearable |= material.tearStrain < kNeverTear || material.tearForce < kNeverTear;
        if ((material.kind == ConstraintKind::Structural || material.kind == ConstraintKind::Shear)
            && k.restLength > 0.f)
            minRest = std::min(minRest, k.restLength);
        const std::uint8_t col = k.colour();
        if (col < 63) {
            const std::uint64_t bit = std::uint64_t(1) << col;
            if (((used[k.a] | used[k.b]) & bit) == 0) {
                used[k.a] |= bit;
                used[k.b] |= bit;
                colour[c] = col;
                ++count[col];
                return;
            }
        } else if (col == 63) {
            colour[c] = col; // the catch-all has room for anyone
            ++count[col];
            return;
        }
        colour[c] = none;
        if (++pending <= kMaxAdded)
            scan.added.push_back(std::uint32_t(c));
    });
    scan.fits = pending <= kMaxAdded;
    scan.minRestLength = minRest < inf ? minRest : 0.f;
    scan.recoloured = pending > 0;
    if (pending == 0)
        return scan;
    // Many constraints to colour (a fresh cloth, one loaded from a file, a big paste): the
    // members of a large family take their family's colour first. A few (sewing, an undone
    // cut) go greedy at once, like the constraints of no large family.
    if (pending > kMaxAdded) {
        FamilyColours families;
        families.build(cloth);
        for (std::size_t c = 0; c < m; ++c) {
            if (colour[c] != none)
                continue;
            const DistanceConstraint &k = cloth.constraints[c];
            const int col = families.colourOf(k);
            if (col < 0)
                continue;
            const std::uint64_t bit = std::uint64_t(1) << col;
            if (((used[k.a] | used[k.b]) & bit) != 0)
                continue; // a duplicate, or a kept colour in the way
            used[k.a] |= bit;
            used[k.b] |= bit;
            colour[c] = std::uint8_t(col);
            ++count[col];
        }
    }
    for (std::size_t c = 0; c < m; ++c) {
        if (colour[c] != none)
            continue;
        const DistanceConstraint &k = cloth.constraints[c];
        const std::uint64_t busy = used[k.a] | used[k.b] | (std::uint64_t(1) << 63);
        const int col = std::min(std::countr_one(busy), 63);
        colour[c] = std::uint8_t(col);
        used[k.a] |= std::uint64_t(1) << col;
        used[k.b] |= std::uint64_t(1) << col;
        ++count[col];
    }
    return scan;
}

} // namespace

void ClothSolverCache::ensure(Cloth &cloth)
{
    std::vector<std::uint8_t> colour;
    if (!layOut(cloth, colour))
        return;
    cloth.constraints.setColours(colour);
}

void ClothSolverCache::ensure(const Cloth &cloth)
{
    std::vector<std::uint8_t> colour;
    layOut(cloth, colour);
}

void ClothSolverCache::layOutStreams(
    const Cloth &cloth, const std::vector<std::uint8_t> &colour, const std::uint32_t (&colourCount)[64])
{
    int colours = 0;
    for (int c = 0; c < 64; ++c)
        if (colourCount[c])
            colours = c + 1;
    std::vector<std::uint32_t> batchStart(std::size_t(colours) + 1, 0);
    for (int c = 0; c < colours; ++c)
        batchStart[std::size_t(c) + 1] = batchStart[std::size_t(c)] + colourCount[c];
    std::vector<std::uint32_t> cursor(batchStart.begin(), batchStart.end());
    const std::size_t m = cloth.constraints.size();
    std::vector<std::uint32_t> order(m, 0);
    for (std::size_t c = 0; c < m; ++c)
        order[cursor[colour[c]]++] = std::uint32_t(c);
    buildXpbdBatches(cloth, order, batchStart, colourCount[63] ? 63 : -1, xpbd);
    streamsLaidOut = true;
    ++layouts;
}

void ClothSolverCache::dropStreams()
{
    xpbd = XpbdBatches {};
    streamsLaidOut = false;
}

bool ClothSolverCache::layOut(const Cloth &cloth, std::vector<std::uint8_t> &colour)
{
    const std::size_t n = cloth.particles.size();
    const std::size_t m = cloth.constraints.size();
    if (revision == cloth.topologyRevision && particleCount == n && constraintCount == m) {
        ensureBending(cloth);
        if (keepStreams == streamsLaidOut)
            return false;
        if (!keepStreams) {
            dropStreams();
            return false;
        }
        // Back to a solver that takes the streams, on the topology a springs frame left: the
        // colours are the records' (the springs frames kept colouring), laid out afresh.
        std::uint32_t colourCount[64];
        const RecordScan scan = colourConstraints(cloth, colour, colourCount);
        layOutStreams(cloth, colour, colourCount);
        if (!scan.recoloured)
            colour.clear();
        return true;
    }
    const bool laidOut = streamsLaidOut && particleCount != ~std::size_t(0) && particleCount <= n;
    const std::size_t freshFrom = particleCount;
    const std::size_t oldConstraints = constraintCount;
    revision = cloth.topologyRevision;
    particleCount = n;
    constraintCount = m;

    // The colouring runs for every solver, so that the colours the records keep (and with
    // them the XPBD and Verlet results after a switch) do not depend on which solver ran.
    std::uint32_t colourCount[64];
    const RecordScan scan = colourConstraints(cloth, colour, colourCount);
    if (!keepStreams)
        dropStreams();
    else if (laidOut && scan.fits
        && remapXpbdBatches(cloth, colour, colourCount, scan.added, oldConstraints, freshFrom, xpbd))
        ++remaps;
    else
        layOutStreams(cloth, colour, colourCount);
    if (!scan.recoloured)
        colour.clear(); // every record holds its colour already
    adjacencyStart.clear(); // stale: ensureAdjacency rebuilds it when asked
    adjacencyRevision = ~std::uint64_t(0);
    springStiffness.clear(); // recomputed by the springs solver for the new topology
    // The bending model of the old topology may refer to removed triangles: dropped, and
    // built again from the current ones if the cloth bends.
    bending = BendModel {};
    bendSchedule = BendSchedule {};
    bendLambda = {};
    bendingRevision = ~std::uint64_t(0);
    ensureBending(cloth);

    minRestLength = scan.minRestLength;
    tearable = scan.tearable;

    // Sized again by projectColliders when there are colliders; the hints restart.
    contactNormal.clear();
    contactCollider.clear();
    meshHint.clear();
    return true;
}

void ClothSolverCache::ensureBending(const Cloth &cloth)
{
    const bool bends = cloth.bending.rigidity > 0.f || cloth.bending.warpRigidity > 0.f;
    if (!bends || bendingRevision == revision)
        return;
    buildBendModel(cloth, bending);
    buildBendSchedule(bending, cloth.particles.size(), bendSchedule);
    bendLambda.assign(3 * bending.patches.size(), 0.f);
    bendingRevision = revision;
}

void ClothSolverCache::ensureAdjacency(const Cloth &cloth)
{
    const std::size_t n = cloth.particles.size();
    if (adjacencyRevision == revision && adjacencyStart.size() == n + 1)
        return;
    adjacencyRevision = revision;
    // Adjacency (CSR) for self-collision exclusion and spring stability bounds.
    adjacencyStart.assign(n + 1, 0);
    for (const DistanceConstraint &k : cloth.constraints) {
        ++adjacencyStart[k.a + 1];
        ++adjacencyStart[k.b + 1];
    }
    for (std::size_t i = 0; i < n; ++i)
        adjacencyStart[i + 1] += adjacencyStart[i];
    adjacency.assign(adjacencyStart[n], 0);
    std::vector<std::uint32_t> fill(adjacencyStart.begin(), adjacencyStart.end() - 1);
    for (const DistanceConstraint &k : cloth.constraints) {
        adjacency[fill[k.a]++] = k.b;
        adjacency[fill[k.b]++] = k.a;
    }
    for (std::size_t i = 0; i < n; ++i)
        std::sort(adjacency.begin() + adjacencyStart[i], adjacency.begin() + adjacencyStart[i + 1]);
}

bool ClothSolverCache::adjacent(std::uint32_t a, std::uint32_t b) const
{
    const auto first = adjacency.begin() + adjacencyStart[a];
    const auto last = adjacency.begin() + adjacencyStart[a + 1];
    return std::binary_search(first, last, b);
}

namespace {

template <typename... V> std::size_t capacityBytes(const V &...v)
{
    return (... + (v.capacity() * sizeof(typename V::value_type)));
}

} // namespace

ClothSolverCache::Bytes ClothSolverCache::bytes() const
{
    const XpbdBatches &x = xpbd;
    Bytes b;
    b.streams = x.source.capacityBytes()
        + capacityBytes(x.gatherEnds, x.restLength, x.alphaTilde, x.alphaClass, x.gamma, x.lambda, x.spanX,
            x.spanY, x.spanZ);
    b.blockTables = capacityBytes(x.start, x.conflictFree, x.chunkBegin, x.chunkColour, x.colourFirstChunk,
        x.blockFetch, x.blockDamped, x.windowBase, x.windowStep, x.windowPattern, x.patternLanes,
        x.patternSlots, x.recordScan.chunkHashes, x.recordScan.materialOk);
    b.particles = capacityBytes(preVelocity, force, origin, offset, offsetPrev, planarVelocity, x.planes,
        x.prevPlanes, stiffnessSum, dampingSum, contactNormal, contactCollider, meshHint);
    b.other = sizeof(*this)
        + capacityBytes(adjacencyStart, adjacency, springStiffness, bending.hinges, bending.patches,
            bendSchedule.steps, bendSchedule.chunks, bendLambda, kinematic, kinematicStart, kinematicTarget,
            kinematicEnd, cellStart, cellEntries, cellOf, selfPairsFound, selfFoundStart, selfPushed,
            selfPairs, selfPairsAnchor, selfCoarseOf, selfCoarseNearStart, selfCoarseNear, selfCoarseKeys,
            selfCoarseTable, selfCoarseLow, selfCoarseHigh, splitsThisFrame, tethers.particle, tethers.anchor,
            tethers.restDistance)
        + selfCandidates.capacityBytes();
    b.tension = capacityBytes(tension);
    return b;
}

} // namespace drape::detail
