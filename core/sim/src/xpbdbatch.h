// Structure-of-arrays constraint streams for the XPBD solver, one padded batch per colour.
//
// The colouring in ClothSolverCache guarantees that the constraints of one colour share no
// particle. Each colour is laid out here as contiguous arrays (particle indices, rest length,
// per-frame α̃ and γ, λ), padded to a whole number of kLanes-wide blocks, so the solve loop
// reads the streams linearly; the AVX2 kernel, picked at run time when the CPU has it,
// computes a block's 8 lanes at once in float, reading most blocks of a grid as two windows of
// consecutive particles (blockFetch) and gathering the rest. Within a colour no two lanes
// touch the same particle, so a block gives bit for bit the result of visiting its
// constraints one after the other (solveOne).
// Internal to the core.
#pragma once

#include "sim/cloth.h"

#include <bit>
#include <cmath>
#include <cstdint>
#include <vector>

namespace drape::detail {

class XpbdWorker;

/// A vector whose contents live only within a step (every step writes it before reading it):
/// a copy of its owner starts it empty, and an assignment leaves the target's as it was, its
/// storage kept for reuse. A copy of a simulation (a timeline snapshot, a rollback point)
/// then carries none of it.
template <typename T> class ScratchVector : public std::vector<T> {
public:
    ScratchVector() = default;
    ScratchVector(const ScratchVector &) noexcept
        : std::vector<T>()
    { }
    ScratchVector(ScratchVector &&) noexcept = default;
    ScratchVector &operator=(const ScratchVector &) noexcept { return *this; }
    ScratchVector &operator=(ScratchVector &&) noexcept = default;
    ~ScratchVector() = default;
};

/// scanConstraintRecords' working arrays: the hash of each chunk of records, and whether each
/// material of the table is valid.
struct RecordScanScratch {
    std::vector<std::uint64_t> chunkHashes;
    std::vector<std::uint8_t> materialOk;
};

/// Which constraint record each slot of the streams stands for (its index into
/// Cloth::constraints), or kNone for a padding slot, held block by block (kLanes slots).
/// A grid's blocks mostly name records in an arithmetic progression (a row's links of one
/// colour, every other record or every record of a run): such a block keeps its first
/// record, the step and which lanes are live (9 bytes for 8 slots); any other block lists
/// its 8 values as well (41 bytes). On the benchmark's sheet four blocks in five are
/// progressions, which saves about 2 of the 4 bytes a slot a plain array takes
/// (docs/benchmark.md, "|span|² − L² in the kernel, slot sources as progressions").
class SlotSources {
public:
    static constexpr std::uint32_t kLanes = 8;
    static constexpr std::uint32_t kNone = ~std::uint32_t(0);

    std::size_t size() const { return m_live.size() * kLanes; }

    /// Slot `slot`'s record, kNone for padding.
    std::uint32_t operator[](std::size_t slot) const
    {
        const std::size_t block = slot / kLanes;
        const std::uint32_t lane = std::uint32_t(slot % kLanes);
        if (!((m_live[block] >> lane) & 1u))
            return kNone;
        return m_step[block] == kListed ? m_listed[m_first[block] + lane]
                                        : inProgression(m_first[block], m_step[block], lane);
    }
    /// Whether slot `slot` stands for a record (is not padding).
    bool live(std::size_t slot) const { return (m_live[slot / kLanes] >> (slot % kLanes)) & 1u; }
    /// Bit l set: lane l of block `block` stands for a record.
    std::uint8_t liveLanes(std::size_t block) const { return m_live[block]; }
    /// liveLanes of every block, block by block.
    const std::uint8_t *liveLaneData() const { return m_live.data(); }
    /// Every lane's record of block `block`.
    void block(std::size_t block, std::uint32_t (&out)[kLanes]) const
    {
        const std::uint32_t live = m_live[block], first = m_first[block], step = m_step[block];
        for (std::uint32_t l = 0; l < kLanes; ++l) {
            const std::uint32_t value = step == kListed ? m_listed[first + l] : inProgression(first, step, l);
            out[l] = ((live >> l) & 1u) ? value : kNone;
        }
    }
    /// Sets every lane of block `block`.
    void setBlock(std::size_t block, const std::uint32_t (&in)[kLanes]);
    /// Sets one slot (its block is held again in whichever form fits it now).
    void set(std::size_t slot, std::uint32_t record)
    {
        std::uint32_t lanes[kLanes];
        block(slot / kLanes, lanes);
        lanes[slot % kLanes] = record;
        setBlock(slot / kLanes, lanes);
    }
    /// Every slot's record, in slot order.
    std::vector<std::uint32_t> flat() const;
    /// Holds `slots` (a multiple of kLanes) records; padding past the old size.
    void resize(std::size_t slots);
    /// Holds `records`, slot by slot (a multiple of kLanes of them).
    void assign(const std::vector<std::uint32_t> &records);
    /// Frees what the list of listed blocks holds beyond its entries.
    void shrinkToFit() { m_listed.shrink_to_fit(); }
    /// The bytes the arrays hold, as std::vector::capacity counts them.
    std::size_t capacityBytes() const
    {
        return m_first.capacity() * sizeof(std::uint32_t) + m_step.capacity() * sizeof(std::uint32_t)
            + m_live.capacity() + m_listed.capacity() * sizeof(std::uint32_t);
    }

    /// The order of the lanes of a grid's horizontal window blocks (XpbdBatches::
    /// kEvenOddLanes, kPairLanes): lane l holds the link of ordinal dealtOrdinal(l) among the
    /// block's, 0 1 4 5 2 3 6 7 (bits 1 and 2 of l swapped; its own inverse). A block whose
    /// records rise by a step in that order is a progression as well as one in lane order.
    static constexpr std::uint32_t dealtOrdinal(std::uint32_t lane)
    {
        return (lane & 1u) | ((lane & 2u) << 1) | ((lane & 4u) >> 1);
    }

private:
    /// m_step of a listed block: its records are m_listed[m_first, m_first + kLanes).
    static constexpr std::uint32_t kListed = 0x80000000u;
    /// m_step of a progression in dealt order holds its step with this bit flipped. Steps
    /// are held only from -2^29 to 2^29 - 1 (their top three bits all equal: records further
    /// apart are listed), so the flipped ones (top bits 010 or 101) and kListed (100) tell
    /// the three forms apart.
    static constexpr std::uint32_t kDealtOrder = 0x40000000u;
    static constexpr bool stepHeld(std::uint32_t step)
    {
        const std::uint32_t top = step >> 29;
        return top == 0u || top == 7u;
    }
    /// Lane l's record in the progression held as (first, m_step `held`).
    static std::uint32_t inProgression(std::uint32_t first, std::uint32_t held, std::uint32_t l)
    {
        const std::uint32_t top = held >> 30;
        if (top == 1u || top == 2u)
            return first + dealtOrdinal(l) * (held ^ kDealtOrder);
        return first + l * held;
    }
    /// Drops the entries of m_listed that no block names (blocks since held as
    /// progressions).
    void compactListed();
    std::vector<std::uint32_t> m_first; ///< per block: first record (mod 2^32), or its list's start
    std::vector<std::uint32_t> m_step; ///< per block: the step (modulo 2^32; kDealtOrder), or kListed
    std::vector<std::uint8_t> m_live; ///< per block: bit l set for a lane with a record
    std::vector<std::uint32_t> m_listed; ///< the listed blocks' records, kLanes each
    std::size_t m_orphaned = 0; ///< entries of m_listed no block names any more
};

struct XpbdBatches {
    static constexpr std::uint32_t kLanes = 8;

    /// Colour c occupies slots [start[c], start[c+1]); start[c] is a multiple of kLanes.
    std::vector<std::uint32_t> start;
    /// True for colours whose constraints share no particle (all but the catch-all colour).
    std::vector<std::uint8_t> conflictFree;

    /// Work items for the two-thread pass: chunk k is slots [chunkBegin[k], chunkBegin[k+1])
    /// of colour chunkColour[k], chunks in colour order; colourFirstChunk[c] is the first
    /// chunk of colour c (size colours + 1). The catch-all colour is one chunk.
    std::vector<std::uint32_t> chunkBegin;
    std::vector<std::uint32_t> chunkColour;
    std::vector<std::uint32_t> colourFirstChunk;
    static constexpr std::uint32_t kChunkSlots = 8 * kLanes;

    std::size_t chunkCount() const { return chunkColour.size(); }

    // Per slot, in the order buildXpbdBatches groups each colour into blocks (xpbdbatch.cpp).
    // Padding slots have a NaN span, which fails the kernels' length test: they move nothing
    // whatever particles their ends name (a window block's padding carries its idle particles).
    // A slot's ends (ends()) are not a stream of their own: a window block names them
    // through its windows (windowBase, lanesOf), and a gathered block keeps them in
    // gatherEnds.
    SlotSources source; ///< index into Cloth::constraints, ~0 for padding
    std::vector<float> restLength; ///< m
    /// α / dt² per slot, m/N/s² (refreshed when the records change). A refresh writes it
    /// here; when the live slots then hold at most maxAlphaClasses distinct values (a grid
    /// holds one per material: three), each slot's is kept instead as a byte naming an entry
    /// of alphaTable (alphaClassed) and this stream is freed: three bytes a slot fewer, and
    /// the kernels take α̃ from the table with one permute where they loaded it
    /// (docs/benchmark.md, "α̃ as a class byte"). alphaOf() reads either form.
    std::vector<float> alphaTilde;
    std::vector<std::uint8_t> alphaClass; ///< per slot while alphaClassed, else empty
    static constexpr std::size_t kAlphaClasses = 8; ///< what an 8-lane permute can pick from
    /// The classes' α̃; the kernels read 16 entries, those past kAlphaClasses stay 0.
    float alphaTable[16] = {};
    bool alphaClassed = false;
    /// The most classes a refresh makes (at most kAlphaClasses); lowered only by tests of
    /// the float stream.
    std::size_t maxAlphaClasses = kAlphaClasses;
    float alphaOf(std::size_t k) const { return alphaClassed ? alphaTable[alphaClass[k]] : alphaTilde[k]; }
    /// α c / dt, dimensionless (refreshed when the records change); empty while no slot is
    /// damped (every Verlet refresh, and XPBD on cloth without constraint damping), when
    /// every block counts as undamped and no kernel reads it.
    std::vector<float> gamma;
    std::vector<float> lambda; ///< N·s², XPBD multiplier, reset every substep
    /// While true, every slot's λ counts as 0 whatever the stream holds, and a pass stores
    /// 0 + Δλ: the first pass of a substep starts the multipliers this way instead of
    /// clearing the stream first (the same bits, one write of the stream fewer).
    bool lambdaZero = false;
    /// While true, nothing reads the multipliers this pass makes: the vector kernels skip
    /// their store (the one-iteration substeps of a frame but its last, when no tear reads
    /// them; the last substep's stay for the tension readout, as before). The positions do
    /// not depend on it.
    bool lambdaUnread = false;
    /// m, x_a - x_b at the frame origin (setXpbdSpans), so the kernel works on frame-local
    /// offsets: x_a - x_b = span + (offset_a - offset_b). Zero until set: then the kernel
    /// works on the positions it is given.
    std::vector<float> spanX, spanY, spanZ;

    /// Scratch of the vector passes (solveXpbdPass, relaxVerletPass): the particles' offsets
    /// as planes (PlanarPositions, laid out by copyToPlanes), and their offsets at the start
    /// of the substep when a block is damped or the frame is plain (stepXpbd, PlainPlanes).
    ScratchVector<float> planes, prevPlanes;

    /// How the AVX2 kernel fetches the particles of a block (slots [k kLanes, (k+1) kLanes)).
    /// The 16 particles of a block of a grid's colour usually fill two runs of 8 consecutive
    /// indices (a row's vertical, shear or bend constraints; the two ends of a row's
    /// horizontal ones interleaved): such a block reads each run, its "window", with three
    /// plain vector loads and an in-register transpose, and picks the lanes' ends out of the
    /// two windows with permutes instead of 14 gathers; it writes the windows back the same
    /// way. Every particle of a window belongs to the block, so the writes stay inside the
    /// block's own particles (the two-thread pass is unaffected). The values computed are
    /// the gather path's, bit for bit: only how they are fetched and stored differs.
    enum BlockFetch : std::uint8_t {
        Gather = 0, ///< scattered particles (or padding): gathers and scalar stores
        Runs = 1, ///< a = window 0, b = window 1, lane l at position l (no permutes)
        Windows = 2, ///< a and b spread over the two windows (lanesOf, slotsOf)
    };
    std::vector<std::uint8_t> blockFetch; ///< per block
    /// The ends of the gathered blocks' lanes, 16 per block: ends a of its 8 lanes, then ends
    /// b. A gathered block's first is at gatherEnds[windowBase[k]] (its windowBase names no
    /// window). Blocks that turn to gathering after a layout (gather()) append theirs; a
    /// layout from scratch compacts them.
    std::vector<std::uint32_t> gatherEnds;
    /// Per block, set by the refresh: some lane has γ != 0. The XPBD kernel fetches the
    /// previous positions for the damping term only for such blocks; in the others γ = 0
    /// makes the term zero whatever the motion.
    std::vector<std::uint8_t> blockDamped;
    /// Per block: the first particle of window 0 (a gathered block: its first entry of
    /// gatherEnds) ...
    std::vector<std::uint32_t> windowBase;
    /// ... and how far past it window 1 starts (0 for a gathered block): a grid's windows
    /// lie at most two rows apart, and a block whose windows lie more than 32,767 particles
    /// apart (a bend link across rows of over 16,383 particles) gathers instead.
    std::vector<std::int16_t> windowStep;
    std::uint32_t windowFirst(std::size_t block) const { return windowBase[block]; }
    std::uint32_t windowSecond(std::size_t block) const
    {
        return windowBase[block] + std::uint32_t(std::int32_t(windowStep[block]));
    }
    /// Per window block, which of the window patterns (patternLanes, patternSlots) its lanes
    /// take. A grid has three at any size (runs and the two kinds below); each is held once
    /// instead of 16 bytes per block.
    std::vector<std::uint16_t> windowPattern;
    /// Per pattern, lane → window: nibble l (bits 4l..4l+3) for end a of lane l, nibble 8 + l
    /// for end b; a nibble is the window (bit 3) and the position in it (bits 0-2).
    std::vector<std::uint64_t> patternLanes;
    /// Per pattern, window → lane: nibble q for position q of window 0, nibble 8 + q for
    /// window 1; a nibble is the end (bit 3 set: b) and the lane (bits 0-2).
    std::vector<std::uint64_t> patternSlots;
    /// The most patterns a layout holds (windowPattern indexes 2^16); a layout that would
    /// need more gathers the blocks past them. Lowered only by tests of that path.
    std::size_t maxPatterns = std::size_t(1) << 16;
    /// The lane → window nibbles of window block `block`.
    std::uint64_t lanesOf(std::size_t block) const { return patternLanes[windowPattern[block]]; }
    /// Its window → lane nibbles.
    std::uint64_t slotsOf(std::size_t block) const { return patternSlots[windowPattern[block]]; }
    /// The lanesOf of a grid's two kinds of window blocks, which the AVX2 kernels fetch
    /// with one in-lane shuffle per end instead of general permutes (xpbdplanar.h). A row's
    /// horizontal links take the even positions of the two windows (0-15, window 1 from 8)
    /// as ends a, each with the next as its end b; its links two particles apart take
    /// positions 4k and 4k + 1 as ends a, each with the position two further as its end b.
    /// The lanes hold them in the order the shuffles give, each 128-bit half from both
    /// windows' same half: ends a at 0 2 8 10 4 6 12 14 (links one apart) or 0 1 8 9 4 5
    /// 12 13 (two apart).
    static constexpr std::uint64_t kEvenOddLanes = 0xfd75b931ec64a820ull;
    static constexpr std::uint64_t kPairLanes = 0xfe76ba32dc549810ull;

    /// Padding slots when buildXpbdBatches laid the streams out, plus the rounding of colours
    /// remapXpbdBatches appended since: padding beyond it is what removals left, and past a
    /// sixteenth of the slots remapXpbdBatches asks for a layout from scratch.
    std::uint32_t builtPadding = 0;

    /// Set by buildXpbdBatches: α̃, γ are not filled in until refreshXpbdBatches runs.
    bool needsRefresh = true;
    /// The scanConstraintRecords hash of the records the last refresh of checkFrame (and
    /// not a later one) was made from, and the kernels that took it (each spells the hash
    /// its own way): while a frame's records hash the same, the refresh would write what
    /// the streams hold, and checkFrame skips it.
    std::uint64_t recordsHash = 0;
    int recordsHashIsa = -1; ///< KernelIsa of recordsHash, -1: none
    RecordScanScratch recordScan; ///< scanConstraintRecords' scratch
    /// The records scanConstraintRecordsOnce last found valid (ConstraintRecords::contentId,
    /// 0: none), the particle count they were checked against, and their hash and kernels.
    std::uint64_t scannedRecords = 0;
    std::size_t scannedParticles = 0;
    std::uint64_t scannedHash = 0;
    int scannedIsa = -1;
    std::uint64_t recordScans = 0; ///< scans scanConstraintRecordsOnce made, for the tests
    /// What the last refresh filled the parameters for: the substep (s) and the solver (the
    /// Verlet refresh rounds α/dt² its own way and has no γ).
    float refreshedDt = 0.f;
    bool refreshedForVerlet = false;

    /// True when the parameters are not those of a refresh for substep dt and this solver.
    bool staleFor(float dt, bool verlet) const
    {
        return needsRefresh || refreshedDt != dt || refreshedForVerlet != verlet;
    }

    std::size_t slotCount() const { return source.size(); }

    /// The particles slot k links (its ends a and b), as the kernels fetch them.
    struct Ends {
        std::uint32_t a = 0, b = 0;
    };
    Ends ends(std::size_t k) const
    {
        const std::size_t block = k / kLanes;
        const std::uint8_t fetch = blockFetch[block];
        return laneEnds(block, std::uint32_t(k % kLanes), fetch, fetch == Windows ? lanesOf(block) : 0);
    }
    /// Every lane's ends of block `block`.
    void blockEnds(std::size_t block, std::uint32_t (&a)[kLanes], std::uint32_t (&b)[kLanes]) const
    {
        const std::uint8_t fetch = blockFetch[block];
        const std::uint64_t lanes = fetch == Windows ? lanesOf(block) : 0;
        for (std::uint32_t l = 0; l < kLanes; ++l) {
            const Ends e = laneEnds(block, l, fetch, lanes);
            a[l] = e.a;
            b[l] = e.b;
        }
    }
    /// The first of gathered block `block`'s 16 ends (gatherEnds).
    const std::uint32_t *gathered(std::size_t block) const { return gatherEnds.data() + windowBase[block]; }
    /// Turns block `block` into a gathered one with the ends it has (a no-op for one that is).
    void gather(std::size_t block);
    /// Sets the ends of slot k, whose block must be gathered.
    void setEnds(std::size_t k, std::uint32_t a, std::uint32_t b)
    {
        std::uint32_t *e = gatherEnds.data() + windowBase[k / kLanes];
        e[k % kLanes] = a;
        e[kLanes + k % kLanes] = b;
    }

private:
    /// The ends of lane l of block `block`, whose fetch is `fetch` and, for a window block
    /// that is not runs, whose lane nibbles are `lanes`.
    Ends laneEnds(std::size_t block, std::uint32_t l, std::uint8_t fetch, std::uint64_t lanes) const
    {
        const std::uint32_t base[2] = { windowBase[block], fetch == Gather ? 0u : windowSecond(block) };
        if (fetch == Gather)
            return { gatherEnds[base[0] + l], gatherEnds[base[0] + kLanes + l] };
        if (fetch == Runs)
            return { base[0] + l, base[1] + l };
        const std::uint32_t na = std::uint32_t(lanes >> (4 * l)) & 15u;
        const std::uint32_t nb = std::uint32_t(lanes >> (4 * (kLanes + l))) & 15u;
        return { base[na >> 3] + (na & 7u), base[nb >> 3] + (nb & 7u) };
    }
};

/// The link of slot k as every kernel sees it, in float: d = span + e with e = x_a - x_b (the
/// frame-local offsets), |d|, |d| + L, w_a + w_b, and the stretch S = |d|² - L², from which the
/// error C = |d| - L = S / (|d| + L) follows. S is taken as
///
///   S = (|span|² - L²) + (span + d)·e,
///
/// the same number, but from terms that are small when the link is near its rest length:
/// e is a difference of offsets near zero, and |span|² - L² is fixed for the frame. |d| - L
/// taken directly would round |d| to the float spacing of L (6e-8 m at 1 m), coarser than
/// the displacement of a substep at high substep counts (g dt² ≈ 3e-9 m at 60 Hz × 1000), so
/// that C would not move while the particles move less than that; here C keeps the digits of
/// e. |span|² - L² is taken in float by the kernel, from the span and L: its rounding, a few
/// float spacings of L², shifts C by the same amount all frame long (about 1e-7 L), far
/// below the stretch under the cloth's own weight, and the motion within the frame still
/// moves C by every digit of e: the tests' hanging chain keeps its stretch within 0.005 % at
/// 100 to 1000 substeps, as it did with |span|² - L² in double stored per slot (4 bytes a
/// slot more). The form needs |span| to stay within a few times |d| + L to be well
/// conditioned; a link whose span is longer than 2 L (far from its rest length, such as two
/// particles sewn together at rest length 0) takes S = (|d| - L)(|d| + L) instead.
///
/// The solvers then divide once: C / (|d| + L), n = d / |d| and their own denominator
/// (XPBD's (1 + γ)(w_a + w_b) + α̃, Verlet's w_a + w_b + α̃) all come from one reciprocal
/// R = 1 / (|d| (|d| + L) den), so that a correction n Δλ is d (num R) with no second
/// division on the chain from the square root to the store (solveOne, relaxOne). The sums
/// of products are multiply-adds rounded once (fusedMulAdd here, FMA instructions in the
/// vector kernels): fewer operations on the chain, and one rounding fewer each. Every kernel
/// does these IEEE operations in this order, so the AVX2 and AVX-512 lanes and this scalar
/// spelling give the same bits.
struct SlotLink {
    float wSum = 0.f; ///< 1/kg
    float dx = 0.f, dy = 0.f, dz = 0.f; ///< m, from b to a
    float len = 0.f; ///< m, |d|
    float lenRest = 0.f; ///< m, |d| + L
    float S = 0.f; ///< m², |d|² - L²
};

/// Particle offsets as three arrays of floats, one per coordinate: the layout the vector passes
/// work in (solveXpbdPass), where a run of 8 consecutive particles is three plain vector loads.
struct PlanarPositions {
    float *x = nullptr;
    float *y = nullptr;
    float *z = nullptr;
};

/// Particle i of either layout, so that the one-at-a-time solvers read both alike.
inline Vec3 positionOf(const Vec3 *p, std::uint32_t i)
{
    return p[i];
}
inline Vec3 positionOf(const PlanarPositions &p, std::uint32_t i)
{
    return Vec3 { p.x[i], p.y[i], p.z[i] };
}
inline void setPosition(Vec3 *p, std::uint32_t i, const Vec3 &v)
{
    p[i] = v;
}
inline void setPosition(const PlanarPositions &p, std::uint32_t i, const Vec3 &v)
{
    p.x[i] = v.x;
    p.y[i] = v.y;
    p.z[i] = v.z;
}

/// a b + c rounded once, as the kernels' vector multiply-adds give it, on any CPU. The
/// product of two floats is exact in double and the sum is rounded once there; rounding that
/// to float again gives the correctly rounded result unless the double landed exactly halfway
/// between two floats while the exact sum did not: then the sum's error, taken exactly
/// (Knuth's two-sum), says which way the exact sum lies, and the double is moved one step
/// that way first. Results below the normal floats, where a float's last bit sits elsewhere,
/// go to std::fma. A few double operations where a CPU without FMA would otherwise run
/// the C library's software fma on every call (tests/tst_xpbdbatch.cpp checks it against
/// std::fma).
inline float fusedMulAdd(float a, float b, float c)
{
    const double p = double(a) * double(b);
    double sum = p + double(c);
    std::uint64_t bits = std::bit_cast<std::uint64_t>(sum);
    constexpr std::uint64_t kBelowFloat = (std::uint64_t(1) << 29) - 1; // mantissa bits a float drops
    if ((bits & kBelowFloat) == std::uint64_t(1) << 28) [[unlikely]] {
        if (std::fabs(sum) < 0x1p-126)
            return std::fma(a, b, c);
        const double fromP = sum - p;
        const double error = (p - (sum - fromP)) + (double(c) - fromP);
        if (error != 0.0)
            bits = (error > 0.0) == (sum > 0.0) ? bits + 1 : bits - 1;
        sum = std::bit_cast<double>(bits);
    } else if (std::fabs(sum) < 0x1p-126) [[unlikely]] {
        return std::fma(a, b, c);
    }
    return float(sum);
}

/// The shortest link that moves its ends: below it the direction d / |d| means nothing.
constexpr float kMinLinkLength = 1e-9f;
/// The least float x with sqrt(x) >= kMinLinkLength (sqrt correctly rounded, as IEEE 754
/// and the vector square roots give it). Square root is monotonic, so for every float x,
/// sqrt(x) >= kMinLinkLength exactly when x >= kMinLinkLengthSquared, NaN false both ways
/// (tests/tst_xpbdbatch.cpp checks the edge): the vector kernels compare |d|² and so have the
/// lanes that move before the square root is done, not after. (kMinLinkLength squared in
/// float, 0x1.2725dcp-60, is one float above: it would call |d|² = this constant short,
/// though its square root is not.)
constexpr float kMinLinkLengthSquared = 0x1.2725dap-60f;

/// Fills `link` for slot k, whose ends are `ends` (s.ends(k)); false when the slot moves
/// nothing (w_a + w_b = 0, |d| < kMinLinkLength). `x` is a Vec3 array or PlanarPositions.
template <typename Positions>
inline bool slotLink(const XpbdBatches &s, std::uint32_t k, XpbdBatches::Ends ends, const Positions &x,
    const float *w, SlotLink &link)
{
    const auto [a, b] = ends;
    link.wSum = w[a] + w[b];
    if (link.wSum == 0.f)
        return false;
    const float sx = s.spanX[k], sy = s.spanY[k], sz = s.spanZ[k];
    const Vec3 xa = positionOf(x, a), xb = positionOf(x, b);
    const float ex = xa.x - xb.x, ey = xa.y - xb.y, ez = xa.z - xb.z;
    const float dx = sx + ex, dy = sy + ey, dz = sz + ez;
    const float len = std::sqrt(fusedMulAdd(dz, dz, fusedMulAdd(dy, dy, dx * dx)));
    if (!(len >= kMinLinkLength))
        return false;
    const float rest = s.restLength[k];
    const float ss = fusedMulAdd(sz, sz, fusedMulAdd(sy, sy, sx * sx));
    link.dx = dx;
    link.dy = dy;
    link.dz = dz;
    link.len = len;
    link.lenRest = len + rest;
    // The small terms cancel to within a float rounding of |span|²: divided by |d| + L that
    // stays small next to C only while |span| is not many times |d| + L. A link whose span
    // exceeds 2 L takes (|d| - L)(|d| + L), exact in C at L = 0 (one sewn with rest length 0).
    link.S = ss > (rest * rest) * 4.f
        ? (len - rest) * link.lenRest
        : fusedMulAdd(-rest, rest, ss) + fusedMulAdd(sz + dz, ez, fusedMulAdd(sy + dy, ey, (sx + dx) * ex));
    return true;
}

/// Lays out the streams from a colouring: `order` lists constraint indices colour by colour,
/// colour c being order[batchStart[c] .. batchStart[c+1]); colour `catchAllColour` (if
/// present) may contain constraints that share particles and is solved serially.
void buildXpbdBatches(const Cloth &cloth, const std::vector<std::uint32_t> &order,
    const std::vector<std::uint32_t> &batchStart, int catchAllColour, XpbdBatches &out);

/// Fits the streams laid out for an earlier topology of `cloth` (of `oldConstraints`
/// constraints) to its current one without laying them out again: after a tear or a cut
/// (constraints removed, the survivors in their order), a vertex split (an end moved, in
/// place, to a particle created since: index >= `freshFrom`; an edge duplicated) or a few
/// constraints sewn. `colour` holds every constraint's colour and colourCount the count per
/// colour (ClothSolverCache::ensure); `added` lists, ascending, the constraints that did not
/// keep a colour they had (new ones). The results of a conflict-free colour depend only on
/// which constraints it holds, not on their slots (they share no particle), so the survivors
/// stay in their slots with source set to their new index; a slot whose constraint is gone
/// becomes padding in place (NaN span, its particles kept, so a window block still writes its
/// idle particles back as read); a constraint whose end moved takes the new particle, which
/// lies in no window, and its block gathers; an added constraint takes a padding lane of its
/// colour (of a gathered block if there is one), whose block gathers, and a window of that
/// colour holding one of its particles gathers from then on. The chunk tables stay (the
/// slots do). Returns false, leaving `out` unfit until buildXpbdBatches lays it out again,
/// when it cannot: a survivor with no slot of its colour, an added constraint with no
/// padding lane left in its colour, the catch-all colour in use
/// (its order is the constraint order), a colour beyond the laid-out ones, or more padding
/// added since the layout than a sixteenth of the slots (a layout from scratch compacts them).
bool remapXpbdBatches(const Cloth &cloth, const std::vector<std::uint8_t> &colour,
    const std::uint32_t (&colourCount)[64], const std::vector<std::uint32_t> &added, std::size_t oldConstraints,
    std::size_t freshFrom, XpbdBatches &out);

/// Copies rest length, α̃ = α/dt² and γ = α c/dt from the cloth's constraints (which the
/// user may retune between frames without a topology change). Checks each constraint on the
/// way (constraintValid) and returns false if one fails; the streams are then not fit to
/// step with. With `team` the slots are shared with its worker thread (xpbdworker.h).
bool refreshXpbdBatches(const Cloth &cloth, float dt, XpbdBatches &batches, XpbdWorker *team = nullptr);

/// Checks every constraint record of `cloth` (constraintValid) in one pass in record order,
/// and hashes the fields a refresh reads its parameters from (rest length, compliance,
/// damping) into `hash`, seeded by the record count; `isa` tells which kernels made it.
/// Returns false if a record fails. A fraction of a refresh's cost: no gathers, and the
/// records read in order. With `team`, chunks of the records go to both threads;
/// `scratch` is kept by the caller so that a scan allocates nothing once it has run.
bool scanConstraintRecords(
    const Cloth &cloth, std::uint64_t &hash, int &isa, XpbdWorker *team, RecordScanScratch &scratch);

/// scanConstraintRecords, unless the records are the ones the last successful scan into
/// `batches` checked (the same ConstraintRecords::contentId, particle count and kernels):
/// then their hash and kernels are taken from that scan, and nothing is read.
bool scanConstraintRecordsOnce(
    const Cloth &cloth, XpbdBatches &batches, std::uint64_t &hash, int &isa, XpbdWorker *team = nullptr);

/// Sets the spans from the frame origin (positions at the start of the frame), one pass over
/// the slots holding a constraint (the catch-all colour's included), shared with `team` if
/// set.
void setXpbdSpans(XpbdBatches &batches, const Vec3 *origin, XpbdWorker *team = nullptr);

/// out[source] = -λ / dt² (N, tension positive) for every slot holding a constraint; `out`
/// is sized to the cloth's constraints by the caller. With `team`, ranges of slots go to
/// both threads (each slot writes its own constraint's entry).
void xpbdConstraintTensions(
    const XpbdBatches &batches, float dt, std::vector<float> &out, XpbdWorker *team = nullptr);

/// One Gauss-Seidel pass over slots [begin, end) of one colour (begin a multiple of kLanes).
/// `conflictFree` false solves the slots one after the other. `x` and `xPrev` are the
/// particles' offsets from the frame origin now and at the start of the substep (positions
/// and previous positions while the spans are zero).
void solveXpbdSlots(XpbdBatches &batches, std::uint32_t begin, std::uint32_t end, bool conflictFree, Vec3 *x,
    const Vec3 *xPrev, const float *invMass);

/// The same with the offsets as planes (the AVX2 and AVX-512 kernels only: call when
/// xpbdKernelIsa() is not KernelIsa::Portable).
void solveXpbdSlots(XpbdBatches &batches, std::uint32_t begin, std::uint32_t end, bool conflictFree,
    const PlanarPositions &x, const PlanarPositions &xPrev, const float *invMass);

/// `passes` Gauss-Seidel passes over every colour in order (solveXpbdSlots colour by colour,
/// shared with `team` if set) on the offsets of `particles` particles; passes after the first
/// take the multipliers the one before left (XpbdBatches::lambdaZero is cleared after the
/// first). With the AVX2 or AVX-512 kernels the offsets are copied into planes before the
/// passes (XpbdBatches::planes) and back after them: a block of a grid then reads its runs of
/// particles with plain loads, where Vec3 triples need a transpose in and out of every
/// block. The same bits either way, and whatever the passes are split into calls.
void solveXpbdPass(XpbdBatches &batches, Vec3 *x, const Vec3 *xPrev, const float *invMass,
    std::size_t particles, XpbdWorker *team = nullptr, int passes = 1);

// The pieces of solveXpbdPass, for a caller that keeps the offsets in planes across substeps
// (a plain frame, stepXpbd). Call when xpbdKernelIsa() is not KernelIsa::Portable.

/// `particles` Vec3 copied into planes held by `store` (grown when the cloth grew, so that a
/// step allocates only when its particle count rose), shared with `team` if set.
///
/// Every pass that works on planes reads and writes several of them side by side (x, y and
/// z; the offsets, their values at the substep's start, the velocities). Large blocks from
/// the allocator all start at the same place within a 4 KiB page, and a plane of a multiple
/// of 1024 particles is itself a multiple of 4 KiB, so the same particle's floats in
/// different planes would share their address bits below 4 KiB: a load then waits for a
/// store to a different plane as if it were the same address (4K aliasing). So each plane
/// is kPlaneGap floats longer than its particles, and each kind of plane starts `skew`
/// floats into its store (kPrevPlanesSkew and so on), which puts all of them apart.
PlanarPositions copyToPlanes(std::vector<float> &store, const Vec3 *v, std::size_t particles,
    XpbdWorker *team = nullptr, std::size_t skew = 0);
/// Floats of padding after each plane (past the particle count rounded up to 16), and the
/// skews of the planes of the offsets at the substep's start and of the velocities
/// (copyToPlanes): multiples of 8 floats (32 bytes), so that a plane keeps its store's
/// alignment. On the 128² benchmark sheet they took the plain substep from 9.7 % of a frame's
/// samples to 3.8 % (docs/benchmark.md).
constexpr std::size_t kPlaneGap = 24;
constexpr std::size_t kPrevPlanesSkew = 72;
constexpr std::size_t kVelocityPlanesSkew = 144;
/// The planes of copyToPlanes() for `particles`, `skew` floats into `store` (grown as there),
/// left as they are: for a caller that writes every particle's lanes itself.
PlanarPositions planesIn(std::vector<float> &store, std::size_t particles, std::size_t skew = 0);
/// The planes back into `particles` Vec3.
void copyFromPlanes(const PlanarPositions &p, std::size_t particles, Vec3 *v, XpbdWorker *team = nullptr);
/// Some block has a damped constraint: only then do the passes read the previous offsets.
bool xpbdBlocksDamped(const XpbdBatches &batches);
/// solveXpbdPass's passes on offsets in planes; `xPrev` holds the offsets at the start of the
/// substep (read by damped blocks only).
void solveXpbdPlanes(XpbdBatches &batches, const PlanarPositions &x, const PlanarPositions &xPrev,
    const float *invMass, XpbdWorker *team = nullptr, int passes = 1);

// The same streams drive the Verlet relaxation (verletbatch.cpp): rest length, α/dt² in
// alphaTilde, and per slot the force its corrections add up to in a step in lambda.

/// Copies rest length and α̃ = α/dt² (Verlet's link stiffness) from the cloth's constraints,
/// checking them as refreshXpbdBatches does.
bool refreshVerletBatches(const Cloth &cloth, float dt, XpbdBatches &batches, XpbdWorker *team = nullptr);

/// One relaxation pass over slots [begin, end) of one colour (Jakobsen 2001 with compliant
/// links, solververlet.cpp): x are the frame-local offsets, invDt2 = 1/dt² (1/s²); each
/// slot's lambda adds the pass's correction as a force (tension.cpp). `conflictFree` false
/// visits the slots one after the other.
void relaxVerletSlots(XpbdBatches &batches, std::uint32_t begin, std::uint32_t end, bool conflictFree,
    Vec3 *x, const float *invMass, float invDt2);

/// The same with the offsets as planes (call when xpbdKernelIsa() is not KernelIsa::Portable).
void relaxVerletSlots(XpbdBatches &batches, std::uint32_t begin, std::uint32_t end, bool conflictFree,
    const PlanarPositions &x, const float *invMass, float invDt2);

/// `passes` relaxation passes over every colour in order, as solveXpbdPass is for XPBD.
void relaxVerletPass(XpbdBatches &batches, Vec3 *x, const float *invMass, float invDt2, std::size_t particles,
    XpbdWorker *team = nullptr, int passes = 1);
/// Its passes on offsets kept in planes (a plain frame, stepVerlet; call when
/// xpbdKernelIsa() is not KernelIsa::Portable).
void relaxVerletPlanes(XpbdBatches &batches, const PlanarPositions &x, const float *invMass, float invDt2,
    XpbdWorker *team, int passes);

/// out[source] = λ of the slot (the Verlet force sum) for every slot holding a constraint,
/// shared with `team` as xpbdConstraintTensions is.
void verletConstraintTensions(
    const XpbdBatches &batches, std::vector<float> &out, XpbdWorker *team = nullptr);

} // namespace drape::detail
