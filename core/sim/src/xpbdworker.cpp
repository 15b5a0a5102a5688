// Two-thread XPBD pass; see xpbdworker.h.
#include "xpbdworker.h"

#include <limits>

namespace drape::detail {

namespace {

// Spins this many times before yielding the core: the other half of a colour normally
// finishes within microseconds, but on a loaded machine the other thread may be descheduled.
constexpr int kSpinsBeforeYield = 256;

// Off by default: on the shared 2-core development machine (the other core busy with other
// processes, or with llvmpipe rendering in the editor) a chunk held by a descheduled worker
// stalls the next colour for a time slice, and two threads measured slower than one at
// every sheet size (docs/benchmark.md). Lower it where a core is free.
std::atomic<std::size_t> g_twoThreadConstraints{std::numeric_limits<std::size_t>::max()};

} // namespace

std::size_t xpbdTwoThreadConstraints()
{
    return g_twoThreadConstraints.load(std::memory_order_relaxed);
}

void setXpbdTwoThreadConstraints(std::size_t count)
{
    g_twoThreadConstraints.store(count, std::memory_order_relaxed);
}

XpbdWorker::XpbdWorker()
    : m_thread([this] { run(); })
{
}

XpbdWorker::~XpbdWorker()
{
    m_quit.store(true, std::memory_order_release);
    m_posted.store(++m_generation, std::memory_order_release);
    m_posted.notify_one();
    m_thread.join();
}

void XpbdWorker::solvePass(XpbdBatches &batches, Vec3 *x, const Vec3 *xPrev, const float *invMass)
{
    m_batches.store(&batches, std::memory_order_relaxed);
    m_x.store(x, std::memory_order_relaxed);
    m_xPrev.store(xPrev, std::memory_order_relaxed);
    m_invMass.store(invMass, std::memory_order_relaxed);
    m_finished.store(0, std::memory_order_relaxed);
    const std::uint64_t generation = ++m_generation;
    m_ticket.store(generation << 32, std::memory_order_release);
    m_posted.store(generation, std::memory_order_release);
    m_posted.notify_one();
    work(generation);
    // Every chunk is claimed; wait for the ones the worker is still solving.
    const auto total = std::uint32_t(batches.chunkCount());
    int spin = 0;
    while (m_finished.load(std::memory_order_acquire) < total) {
        if (++spin > kSpinsBeforeYield)
            std::this_thread::yield();
    }
    // Close the pass: a worker still holding an old ticket value can no longer claim, even
    // after the next pass has replaced the data pointers.
    m_ticket.store((generation << 32) | 0xffffffffu, std::memory_order_release);
}

void XpbdWorker::run()
{
    std::uint64_t seen = 0;
    for (;;) {
        std::uint64_t posted = m_posted.load(std::memory_order_acquire);
        for (int spin = 0; posted == seen && spin < kSpinsBeforeYield * 16; ++spin)
            posted = m_posted.load(std::memory_order_acquire);
        if (posted == seen) {
            m_posted.wait(seen, std::memory_order_acquire);
            continue;
        }
        seen = posted;
        if (m_quit.load(std::memory_order_acquire))
            return;
        work(posted);
    }
}

void XpbdWorker::work(std::uint64_t generation)
{
    XpbdBatches &s = *m_batches.load(std::memory_order_relaxed);
    Vec3 *x = m_x.load(std::memory_order_relaxed);
    const Vec3 *xPrev = m_xPrev.load(std::memory_order_relaxed);
    const float *w = m_invMass.load(std::memory_order_relaxed);
    for (;;) {
        std::uint64_t ticket = m_ticket.load(std::memory_order_acquire);
        if ((ticket >> 32) != generation)
            return; // a later pass (its data may differ from what was read above)
        const auto chunk = std::uint32_t(ticket);
        if (chunk >= s.chunkCount())
            return;
        if (!m_ticket.compare_exchange_weak(ticket, ticket + 1, std::memory_order_acq_rel))
            continue;
        // The chunk's claim proves this pass is current, so s, x, xPrev, w are its data.
        const std::uint32_t colour = s.chunkColour[chunk];
        const std::uint32_t before = s.colourFirstChunk[colour];
        int spin = 0;
        while (m_finished.load(std::memory_order_acquire) < before) {
            if (++spin > kSpinsBeforeYield)
                std::this_thread::yield();
        }
        solveXpbdSlots(s, s.chunkBegin[chunk], s.chunkBegin[chunk + 1], s.conflictFree[colour] != 0, x, xPrev, w);
        m_finished.fetch_add(1, std::memory_order_release);
    }
}

} // namespace drape::detail
