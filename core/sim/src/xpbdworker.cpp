// Two-thread passes; see xpbdworker.h.
#include "xpbdworker.h"

#include "sim/solverthreads.h"

#include <algorithm>
#include <bit>
#include <chrono>

#include <emmintrin.h>

namespace drape::detail {

namespace {

std::atomic<std::size_t> g_twoThreadConstraints{kAutomaticTwoThreadConstraints};

// Cores held by other busy threads of the process (holdSolverCore).
std::atomic<int> g_heldCores{0};

std::atomic<std::uint64_t> g_passesJoined{0};

// Spin-waits within a pass (a colour's barrier, the end of a pass) pause this many times
// before yielding the core: the other thread normally finishes its run within microseconds,
// but on a loaded machine it may be descheduled for a time slice.
constexpr int kPausesBeforeYield = 2048;

// Between passes the worker spins this long before it sleeps: the passes of a substep follow
// one another within microseconds, and a futex wake-up costs tens of microseconds.
constexpr std::chrono::microseconds kIdleSpin { 100 };

constexpr std::uint32_t kOpen = 0, kJoined = 1, kClosed = 2, kPhaseMask = 3;

using Clock = std::chrono::steady_clock;

// Waits until ready(); returns how long it waited after the spin, yielding (0 when the spin
// was enough): the time the other thread was off its core.
template <typename Ready> Clock::duration waitUntil(Ready ready)
{
    for (int i = 0; i < kPausesBeforeYield; ++i) {
        if (ready())
            return {};
        _mm_pause();
    }
    const Clock::time_point start = Clock::now();
    while (!ready())
        std::this_thread::yield();
    return Clock::now() - start;
}

// A frame in which the caller spent more than this share of its passes waiting for a
// descheduled worker stalled; a cloth with XpbdWorkerSlot::kStalledFramesToBackOff such
// frames among its last kStallWindow on two threads steps on one thread for
// XpbdWorkerSlot::kBackOffFrames frames, then tries again: on a loaded machine a worker that
// is off its core for a time slice in the middle of a colour stalls the caller for all of it,
// and two threads get slower than one.
constexpr double kStalledShareToBackOff = 0.15;

} // namespace

std::size_t xpbdTwoThreadConstraints()
{
    return g_twoThreadConstraints.load(std::memory_order_relaxed);
}

void setXpbdTwoThreadConstraints(std::size_t count)
{
    g_twoThreadConstraints.store(count, std::memory_order_relaxed);
}

std::uint64_t xpbdWorkerPassesJoined()
{
    return g_passesJoined.load(std::memory_order_relaxed);
}

bool solverCoreSpare()
{
    // The stepping thread's core, the worker's, and those held by other threads.
    static const int cores = int(std::thread::hardware_concurrency());
    return cores >= 2 + g_heldCores.load(std::memory_order_relaxed);
}

void ThreadChoice::frameTimed(double seconds)
{
    if (m_phase == Phase::Settled) {
        if (++m_frame >= m_settle) {
            m_phase = Phase::TryTwo;
            m_frame = 0;
        }
        return;
    }
    const int count = m_phase == Phase::TryTwo ? 1 : 0;
    // Frame 0 of a phase wakes or warms the core the other count left idle.
    if (m_frame == 1 || (m_frame > 1 && seconds < m_fastest[count]))
        m_fastest[count] = seconds;
    if (++m_frame <= kTrialFrames)
        return;
    m_frame = 0;
    if (m_phase == Phase::TryTwo) {
        m_phase = Phase::TryOne;
        return;
    }
    // One thread unless two were faster: ties go to the count that leaves a core free.
    const bool two = m_fastest[1] < m_fastest[0];
    // A close win of two threads is tried again soon (see the class); a close win of one is
    // not: keeping one thread is never slower than one thread, while each trial is frames
    // on the slower count (at 48², where two threads lose by about a tenth, trials every
    // 60 frames cost 1-2 %).
    const bool close
        = two && std::max(m_fastest[0], m_fastest[1]) < kCloseRatio * std::min(m_fastest[0], m_fastest[1]);
    m_settle = m_decided && two == m_settledTwo && !close ? std::min(2 * m_settle, kMaxSettleFrames)
                                                          : kFirstSettleFrames;
    m_settledTwo = two;
    m_decided = true;
    m_phase = Phase::Settled;
}

void ThreadChoice::restart()
{
    *this = ThreadChoice {};
}

XpbdWorker *XpbdWorkerSlot::forCloth(std::size_t constraints)
{
    const std::size_t threshold = xpbdTwoThreadConstraints();
    if (threshold == 0)
        return &get(); // two threads whatever the machine (the benchmark's and tests' setting)
    if (constraints < threshold || backOff > 0 || !solverCoreSpare() || !choice.twoThreads())
        return nullptr;
    return &get();
}

void XpbdWorkerSlot::beginFrame(std::size_t constraints)
{
    const std::size_t threshold = xpbdTwoThreadConstraints();
    eligible = threshold > 0 && constraints >= threshold && solverCoreSpare();
    // A cloth whose size changed by more than an eighth (a big cut, another cloth in the
    // slot) is timed again; a cloth that keeps tearing a little keeps its choice.
    const std::size_t change = constraints > timedConstraints ? constraints - timedConstraints
                                                              : timedConstraints - constraints;
    if (change > timedConstraints / 8) {
        choice.restart();
        timedConstraints = constraints;
    }
    if (backOff > 0) {
        --backOff;
        eligible = false;
        return;
    }
    if (!worker)
        return;
    noteWaits(worker->takeWaits());
}

void XpbdWorkerSlot::noteWaits(const XpbdWorker::Waits &waits)
{
    if (waits.passes <= 0.0)
        return; // no pass on two threads last frame: nothing learnt
    const bool stalled = waits.stalled > kStalledShareToBackOff * waits.passes;
    stalledFrames = std::uint8_t(((stalledFrames << 1) | unsigned(stalled)) & ((1u << kStallWindow) - 1));
    if (std::popcount(stalledFrames) >= kStalledFramesToBackOff) {
        // Each try that stalls again waits twice as long before the next (a machine that
        // stays loaded pays for a stalled frame every ten seconds, not every second): the
        // last stall is remembered, so that a try's first frame that stalls backs off again.
        backOff = nextBackOff;
        nextBackOff = std::min(2 * nextBackOff, kMaxBackOffFrames);
        stalledFrames = 1;
        eligible = false;
        choice.restart(); // the timings were of a machine that has changed
    } else if (stalledFrames == 0) {
        nextBackOff = kBackOffFrames;
    }
}

void XpbdWorkerSlot::endFrame(double seconds)
{
    if (eligible)
        choice.frameTimed(seconds);
}

XpbdWorker::Waits XpbdWorker::takeWaits()
{
    const Waits waits = m_waits;
    m_waits = {};
    return waits;
}

XpbdWorker::XpbdWorker()
    : m_thread([this] { loop(); })
{
}

XpbdWorker::~XpbdWorker()
{
    m_quit.store(true, std::memory_order_seq_cst);
    m_generation += 1;
    m_state.store((m_generation << 2) | kClosed, std::memory_order_seq_cst);
    m_state.notify_one();
    m_thread.join();
}

void XpbdWorker::run(const Pass &pass)
{
    const Clock::time_point start = Clock::now();
    Clock::duration stalled {};
    m_pass = &pass;
    if (pass.groups > m_claimCapacity) {
        m_claimCapacity = std::max<std::uint32_t>(pass.groups, 64);
        m_claims = std::make_unique<std::atomic<std::uint64_t>[]>(m_claimCapacity);
    }
    for (std::uint32_t g = 0; g < pass.groups; ++g)
        m_claims[g].store(claimState(pass.bounds[g], pass.bounds[g + 1]), std::memory_order_relaxed);
    m_finished.store(0, std::memory_order_relaxed);
    if (((m_generation + 1) << 2) == 0)
        m_generation += 1; // tag 0 is the worker's "nothing seen yet"
    const std::uint32_t tag = ++m_generation << 2;
    // Published by this store (release); the worker reads m_pass after it joined.
    m_state.store(tag | kOpen, std::memory_order_seq_cst);
    if (m_sleeping.load(std::memory_order_seq_cst))
        m_state.notify_one();
    work(pass, &stalled, false);
    // Every unit is claimed. If the worker never joined, the pass is closed without it;
    // otherwise wait until it is done with the runs it claimed.
    std::uint32_t open = tag | kOpen;
    if (!m_state.compare_exchange_strong(open, tag | kClosed, std::memory_order_acq_rel))
        stalled += waitUntil([&] { return m_left.load(std::memory_order_acquire) == tag; });
    m_waits.passes += std::chrono::duration<double>(Clock::now() - start).count();
    m_waits.stalled += std::chrono::duration<double>(stalled).count();
}

void XpbdWorker::loop()
{
    std::uint32_t seen = 0; // tag of the last pass looked at
    for (;;) {
        std::uint32_t state = m_state.load(std::memory_order_acquire);
        if (m_quit.load(std::memory_order_acquire))
            return;
        if ((state & ~kPhaseMask) == seen) {
            // Nothing new: spin a while, then sleep until the caller posts a pass.
            const auto until = std::chrono::steady_clock::now() + kIdleSpin;
            bool changed = false;
            while (!changed && std::chrono::steady_clock::now() < until) {
                for (int i = 0; i < 64 && !changed; ++i) {
                    _mm_pause();
                    changed = m_state.load(std::memory_order_relaxed) != state;
                }
            }
            if (!changed) {
                m_sleeping.store(true, std::memory_order_seq_cst);
                if (m_state.load(std::memory_order_seq_cst) == state)
                    m_state.wait(state, std::memory_order_seq_cst);
                m_sleeping.store(false, std::memory_order_relaxed);
            }
            continue;
        }
        seen = state & ~kPhaseMask;
        if ((state & kPhaseMask) != kOpen)
            continue; // the caller finished that pass alone
        if (!m_state.compare_exchange_strong(state, seen | kJoined, std::memory_order_acq_rel))
            continue;
        work(*m_pass, nullptr, true);
        g_passesJoined.fetch_add(1, std::memory_order_relaxed);
        m_left.store(seen, std::memory_order_release);
    }
}

void XpbdWorker::work(const Pass &pass, Clock::duration *stalled, bool fromBack)
{
    const std::uint32_t first = pass.bounds[0];
    for (std::uint32_t group = 0; group < pass.groups; ++group) {
        std::atomic<std::uint64_t> &claims = m_claims[group];
        const std::uint32_t groupBegin = pass.bounds[group];
        std::uint64_t state = claims.load(std::memory_order_relaxed);
        bool ordered = false; // the groups before this one are known to be finished
        for (;;) {
            // Claim half of what is left of the group (at least minRun units, whole grains),
            // from its front or its back.
            const std::uint32_t lo = std::uint32_t(state), hi = std::uint32_t(state >> 32);
            if (lo >= hi)
                break;
            const std::uint32_t left = hi - lo;
            const std::uint32_t run = std::max(left / 2 / pass.grain * pass.grain, pass.minRun);
            std::uint32_t begin = lo, end = hi;
            if (run < left) {
                if (fromBack)
                    begin = std::max(lo, groupBegin + (hi - run - groupBegin) / pass.grain * pass.grain);
                else
                    end = lo + run;
            }
            const std::uint64_t rest = fromBack ? claimState(lo, begin) : claimState(end, hi);
            if (!claims.compare_exchange_weak(state, rest, std::memory_order_relaxed))
                continue;
            // Every unit of the groups before this one must be finished (the colour order).
            const std::uint32_t before = groupBegin - first;
            if (before > 0 && !ordered) {
                const Clock::duration waited
                    = waitUntil([&] { return m_finished.load(std::memory_order_acquire) >= before; });
                if (stalled)
                    *stalled += waited;
                ordered = true;
            }
            pass.body(pass, group, begin, end);
            // Only the groups after this one wait for it (none after the last: the end of the
            // pass is m_left).
            if (group + 1 < pass.groups)
                m_finished.fetch_add(end - begin, std::memory_order_release);
            state = claims.load(std::memory_order_relaxed);
        }
    }
}

namespace {

// A pass over every colour of `batches` in order, its units the chunks of XpbdBatches (a run
// never leaves its colour, so its chunks are consecutive slots; the catch-all colour is one
// chunk): slots(begin, end, conflictFree) solves slots [begin, end) of one colour.
template <typename Slots> void runColours(XpbdWorker &worker, XpbdBatches &batches, const Slots &slots)
{
    struct Context {
        const XpbdBatches *batches;
        const Slots *slots;
    } context { &batches, &slots };
    XpbdWorker::Pass pass;
    pass.bounds = batches.colourFirstChunk.data();
    pass.groups = std::uint32_t(batches.conflictFree.size());
    pass.context = &context;
    pass.body = [](const XpbdWorker::Pass &p, std::uint32_t colour, std::uint32_t begin, std::uint32_t end) {
        const Context &q = *static_cast<const Context *>(p.context);
        const XpbdBatches &s = *q.batches;
        (*q.slots)(s.chunkBegin[begin], s.chunkBegin[end], s.conflictFree[colour] != 0);
    };
    worker.run(pass);
}

} // namespace

void XpbdWorker::solvePass(XpbdBatches &batches, Vec3 *x, const Vec3 *xPrev, const float *invMass)
{
    runColours(*this, batches, [&](std::uint32_t begin, std::uint32_t end, bool conflictFree) {
        solveXpbdSlots(batches, begin, end, conflictFree, x, xPrev, invMass);
    });
}

void XpbdWorker::relaxPass(XpbdBatches &batches, Vec3 *x, const float *invMass, float invDt2)
{
    runColours(*this, batches, [&](std::uint32_t begin, std::uint32_t end, bool conflictFree) {
        relaxVerletSlots(batches, begin, end, conflictFree, x, invMass, invDt2);
    });
}

void XpbdWorker::solvePass(
    XpbdBatches &batches, const PlanarPositions &x, const PlanarPositions &xPrev, const float *invMass)
{
    runColours(*this, batches, [&](std::uint32_t begin, std::uint32_t end, bool conflictFree) {
        solveXpbdSlots(batches, begin, end, conflictFree, x, xPrev, invMass);
    });
}

void XpbdWorker::relaxPass(XpbdBatches &batches, const PlanarPositions &x, const float *invMass, float invDt2)
{
    runColours(*this, batches, [&](std::uint32_t begin, std::uint32_t end, bool conflictFree) {
        relaxVerletSlots(batches, begin, end, conflictFree, x, invMass, invDt2);
    });
}

} // namespace drape::detail

namespace drape {

void holdSolverCore()
{
    detail::g_heldCores.fetch_add(1, std::memory_order_relaxed);
}

void releaseSolverCore()
{
    detail::g_heldCores.fetch_sub(1, std::memory_order_relaxed);
}

} // namespace drape
