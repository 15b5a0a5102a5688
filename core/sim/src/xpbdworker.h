// A second thread for the passes of a large cloth: the constraint passes of XPBD and Verlet
// (colour by colour) and the per-particle passes of a substep.
//
// A pass is cut into units (chunks of a colour, XpbdBatches::chunkBegin, or particles)
// grouped in order (the colours; a particle pass is one group). Each group's unclaimed units
// are one range (m_claims): the calling thread claims runs from its front and the worker from
// its back, and a unit of group g starts only when every unit of the groups before it is
// finished, which keeps the colour-by-colour Gauss-Seidel order. A grid's colours hold their
// slots in particle order, so each thread keeps to its own half of the cloth from colour to
// colour and pass to pass, and its particles stay in its core's cache: only the rows where
// the two threads' runs meet move between the cores. Constraints of one colour share no
// particle, particles are independent in a particle pass, and every unit is computed the same
// way on either thread, so which thread takes a unit never changes the result: the passes are
// bit-identical to the single-threaded ones, whatever the timing.
//
// Runs are claimed "guided" (Polychronopoulos & Kuck 1987, OpenMP's schedule(guided)): a
// claim takes half of what is left of its group (OpenMP takes 1/threads), so a colour of a
// large cloth costs about ten claims instead of one per chunk, and the last claims are
// single chunks, which keeps the two threads finishing a colour within a chunk of each
// other; where they meet follows their speeds. Every claim and every hand-over between
// colours moves a cache line from one core to the other (~0.2 us here), the cost that
// decides from which size two threads pay (kAutomaticTwoThreadConstraints). If the worker is
// descheduled (a loaded machine) the caller simply claims everything itself: nothing waits
// at a fixed split. The worker joins a pass explicitly; a pass it never joined is closed by
// the caller without waiting for it. Between passes it spins briefly (the next pass of a
// substep follows within microseconds), then sleeps on a futex until the next pass.
// Internal to the core.
#pragma once

#include "xpbdbatch.h"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <thread>
#include <type_traits>

namespace drape::detail {

class XpbdWorker {
public:
    /// A pass: units [bounds[0], bounds[groups]) in `groups` groups, group g being units
    /// [bounds[g], bounds[g+1]); body(pass, g, begin, end) does units [begin, end) of g.
    /// A claimed run starts at bounds[g] + a multiple of `grain` and is at least `minRun`
    /// units long (or the rest of its group).
    struct Pass {
        const std::uint32_t *bounds = nullptr;
        std::uint32_t groups = 0;
        std::uint32_t grain = 1;
        std::uint32_t minRun = 1;
        void (*body)(const Pass &pass, std::uint32_t group, std::uint32_t begin, std::uint32_t end) = nullptr;
        void *context = nullptr; ///< what body works on
    };

    XpbdWorker();
    ~XpbdWorker();
    XpbdWorker(const XpbdWorker &) = delete;
    XpbdWorker &operator=(const XpbdWorker &) = delete;

    /// Runs `pass` on both threads; returns when all of it is done.
    void run(const Pass &pass);

    /// One Gauss-Seidel XPBD pass over every colour of `batches` (solveXpbdSlots).
    void solvePass(XpbdBatches &batches, Vec3 *x, const Vec3 *xPrev, const float *invMass);
    /// One Verlet relaxation pass over every colour of `batches` (relaxVerletSlots).
    void relaxPass(XpbdBatches &batches, Vec3 *x, const float *invMass, float invDt2);
    /// The same two passes on planar offsets.
    void solvePass(
        XpbdBatches &batches, const PlanarPositions &x, const PlanarPositions &xPrev, const float *invMass);
    void relaxPass(XpbdBatches &batches, const PlanarPositions &x, const float *invMass, float invDt2);

    /// Seconds the caller spent in passes since the last call, and of them waiting for the
    /// worker beyond a short spin (the worker was off its core).
    struct Waits {
        double passes = 0.0; ///< s
        double stalled = 0.0; ///< s
    };
    Waits takeWaits();

    /// body(begin, end) over [0, count) in runs that start at multiples of `grain`: for passes
    /// whose items (particles, slots) are independent of one another.
    template <typename Body> void forRanges(std::size_t count, std::uint32_t grain, Body &&body)
    {
        const std::uint32_t bounds[2] = { 0, std::uint32_t(count) };
        Pass pass;
        pass.bounds = bounds;
        pass.groups = 1;
        pass.grain = grain;
        pass.minRun = kMinRangeRun;
        pass.context = &body;
        pass.body = [](const Pass &p, std::uint32_t, std::uint32_t begin, std::uint32_t end) {
            (*static_cast<std::remove_reference_t<Body> *>(p.context))(begin, end);
        };
        run(pass);
    }

private:
    /// Items of a forRanges() pass per claim at least: about a microsecond of a particle pass.
    static constexpr std::uint32_t kMinRangeRun = 512;

    void loop();
    /// Claims and does runs of `pass` until none is left; the caller adds its stalls to
    /// `stalled` (the worker passes null).
    void work(const Pass &pass, std::chrono::steady_clock::duration *stalled, bool fromBack);
    /// A group's unclaimed units [lo, hi) as m_claims holds them.
    static std::uint64_t claimState(std::uint32_t lo, std::uint32_t hi)
    {
        return (std::uint64_t(hi) << 32) | lo;
    }

    Waits m_waits; ///< caller only

    const Pass *m_pass = nullptr; ///< the pass on offer (read by the worker once it joined)
    std::uint32_t m_generation = 0; ///< passes posted (caller only)
    /// (generation << 2) | phase: Open (on offer), Joined (the worker takes part) or Closed
    /// (the caller finished it alone). The worker waits on it between passes.
    alignas(64) std::atomic<std::uint32_t> m_state{0};
    std::atomic<bool> m_sleeping{false}; ///< the worker waits on m_state (notify it)
    std::atomic<bool> m_quit{false};
    /// Generation of the last pass the worker left (done with every run it claimed).
    alignas(64) std::atomic<std::uint32_t> m_left{0};
    /// Per group of the current pass, its unclaimed units (claimState); m_claimCapacity entries.
    std::unique_ptr<std::atomic<std::uint64_t>[]> m_claims;
    std::uint32_t m_claimCapacity = 0;
    /// Units finished in the current pass.
    alignas(64) std::atomic<std::uint32_t> m_finished{0};
    std::thread m_thread;
};

/// Below this many constraints one thread is faster: the hand-overs between the threads
/// (every colour of every substep and iteration, and a particle pass or two per substep, each
/// a few hundred nanoseconds of cache-line traffic between the cores) and the worker's
/// wake-up each frame cost more than half of the work they share. Measured on the 2-core
/// development machine (docs/benchmark.md, 2026-11-26).
constexpr std::size_t kAutomaticTwoThreadConstraints = 10'000;

/// Cloths with at least this many constraints share their passes with a worker thread when
/// the machine has a core to spare for it (solverCoreSpare(), sim/solverthreads.h) and the worker has not been
/// stalling the caller (XpbdWorkerSlot::beginFrame). Default kAutomaticTwoThreadConstraints;
/// the benchmark and tests set it to compare one and two threads: 0 gives every cloth two
/// threads whatever the machine, SIZE_MAX one thread.
std::size_t xpbdTwoThreadConstraints();
void setXpbdTwoThreadConstraints(std::size_t count);

/// Passes any worker thread of the process has taken part in (tests check with it that a
/// two-thread configuration really shared its passes).
std::uint64_t xpbdWorkerPassesJoined();

/// True when the machine has a core for a second solver thread: one besides the stepping
/// thread's own and those held by other threads.
bool solverCoreSpare();

/// Which of one and two threads steps a cloth faster, found by timing both. Either gives the
/// same bits, so the choice only decides speed, and the only way to know the faster on a
/// given machine, cloth and load is to time it: the hand-overs between the cores cost about
/// the same whatever the size, the work they share grows with it, and another process may
/// take the second core at any time. A trial times kTrialFrames frames on two threads, then
/// as many on one (each count's first frame after a switch is not counted: it wakes or warms
/// the other core), and keeps the count whose fastest frame was faster; after `settle`
/// frames it tries again. A trial that confirms the last choice doubles `settle` (up to
/// kMaxSettleFrames), one that changes it starts again from kFirstSettleFrames, so a steady
/// machine pays for a few frames of the slower count every few seconds, at most. A trial
/// that two threads won by less than kCloseRatio does not double it either: then a small
/// change of the machine (another process taking part of a core) can make one thread the
/// faster, and two threads kept while slower than one is what the choice must avoid. A close
/// win of one thread doubles it as any other: one thread is never slower than one thread,
/// and every trial steps frames on the slower count. The fastest frame of a few, not their
/// mean, so that one frame preempted by another process does not decide.
class ThreadChoice {
public:
    static constexpr int kTrialFrames = 3;
    static constexpr int kFirstSettleFrames = 60; ///< a second at 60 frames/s
    static constexpr int kMaxSettleFrames = 1920; ///< half a minute
    /// Two threads' fastest frame within this factor of one thread's is a close win (see above).
    static constexpr double kCloseRatio = 1.1;

    /// The count for the current frame.
    bool twoThreads() const { return m_phase == Phase::TryOne ? false : m_phase == Phase::TryTwo ? true : m_settledTwo; }
    /// The wall time of a frame stepped with twoThreads()'s count.
    void frameTimed(double seconds);
    /// Forgets the timings (a new topology: the cloth's cost changed).
    void restart();
    bool settled() const { return m_phase == Phase::Settled; }
    int settleFrames() const { return m_settle; }

private:
    enum class Phase { TryTwo, TryOne, Settled };
    Phase m_phase = Phase::TryTwo;
    int m_frame = 0; ///< frames of the current phase so far
    double m_fastest[2] = {}; ///< s, fastest counted frame of the trial, one and two threads
    bool m_settledTwo = true;
    bool m_decided = false; ///< a trial has decided before (m_settledTwo is its verdict)
    int m_settle = kFirstSettleFrames;
};

/// Holds an XpbdWorker created on first use; copying gives an empty holder (a copied
/// simulation starts its own thread when it needs one).
struct XpbdWorkerSlot {
    std::unique_ptr<XpbdWorker> worker;
    int backOff = 0; ///< frames left on one thread after the worker stalled the caller
    static constexpr int kBackOffFrames = 60; ///< the first back-off: a second at 60 frames/s
    static constexpr int kMaxBackOffFrames = 600; ///< after repeated stalls: ten seconds
    int nextBackOff = kBackOffFrames; ///< doubles with each stalled try, back after good frames
    /// Stalled frames among the last kStallWindow frames on two threads that back off. One
    /// alone does not: on an idle virtual machine the hypervisor takes the worker's core for
    /// a millisecond or two now and then (a quarter of a 256² frame's passes), and a second
    /// on one thread for each such hiccup cost the automatic choice most of its gain there
    /// (docs/benchmark.md). A machine whose second core stays busy stalls every frame and
    /// backs off after two, then after the first of each try.
    static constexpr int kStallWindow = 4;
    static constexpr int kStalledFramesToBackOff = 2;
    std::uint8_t stalledFrames = 0; ///< bit i: the i-th last frame on two threads stalled
    ThreadChoice choice; ///< one or two threads by timing, for cloths the rules allow two
    bool eligible = false; ///< this frame, the size and the cores allowed two threads
    std::size_t timedConstraints = 0; ///< the constraint count the choice's timings are for

    XpbdWorkerSlot() = default;
    XpbdWorkerSlot(const XpbdWorkerSlot &) {}
    XpbdWorkerSlot &operator=(const XpbdWorkerSlot &) { return *this; }
    XpbdWorkerSlot(XpbdWorkerSlot &&) noexcept = default;
    XpbdWorkerSlot &operator=(XpbdWorkerSlot &&) noexcept = default;

    XpbdWorker &get()
    {
        if (!worker)
            worker = std::make_unique<XpbdWorker>();
        return *worker;
    }
    /// The worker when a cloth of `constraints` constraints shares its passes (the
    /// threshold above and a spare core), else null: then everything runs on the caller.
    XpbdWorker *forCloth(std::size_t constraints);
    /// Frame start: if the caller spent more than 15 % of the last frame's passes
    /// waiting for a descheduled worker (a loaded machine), that frame stalled; after two
    /// stalled frames among the last four on two threads the cloth steps on one thread
    /// for the next second or so, then tries two again (after two, four ... up to ten
    /// seconds while the tries keep stalling). Otherwise a cloth of `constraints`
    /// constraints that may use two threads (the threshold and a spare core) takes the
    /// count ThreadChoice found faster. Results are the same either way.
    void beginFrame(std::size_t constraints);
    /// The part of beginFrame that reads the worker's waits over the last frame.
    void noteWaits(const XpbdWorker::Waits &waits);
    /// Frame end: the wall time of the cloth's step, for ThreadChoice.
    void endFrame(double seconds);
};

/// body(begin, end) over [0, count): on the worker and the caller when `team` is set, else
/// at once on the caller.
template <typename Body> void forRanges(XpbdWorker *team, std::size_t count, std::uint32_t grain, Body &&body)
{
    if (team && count > 0)
        team->forRanges(count, grain, body);
    else
        body(std::uint32_t(0), std::uint32_t(count));
}

} // namespace drape::detail
