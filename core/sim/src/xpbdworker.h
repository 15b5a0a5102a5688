// A second thread for the XPBD constraint pass on large cloths.
//
// Each colour is cut into chunks of a few hundred constraints (XpbdBatches::chunkBegin). The
// calling thread and the worker claim chunks in order from one shared ticket; a chunk of
// colour c starts only when every chunk of the colours before it is finished, which keeps the
// colour-by-colour Gauss-Seidel order. Constraints of one colour share no particle and every
// lane is computed the same way on either thread, so which thread solves a chunk never
// changes the result: the pass is bit-identical to the single-threaded one, whatever the
// timing. If the worker is descheduled (a loaded machine), the caller simply claims the
// chunks itself instead of waiting at a fixed split. The catch-all colour is one chunk.
// Internal to the core.
#pragma once

#include "xpbdbatch.h"

#include <atomic>
#include <cstdint>
#include <memory>
#include <thread>

namespace drape::detail {

class XpbdWorker {
public:
    XpbdWorker();
    ~XpbdWorker();
    XpbdWorker(const XpbdWorker &) = delete;
    XpbdWorker &operator=(const XpbdWorker &) = delete;

    /// One Gauss-Seidel pass over every colour of `batches`, shared with the worker thread.
    void solvePass(XpbdBatches &batches, Vec3 *x, const Vec3 *xPrev, const float *invMass);

private:
    void run();
    void work(std::uint64_t generation);

    // The pass being solved, published before m_posted; atomics because a late worker may
    // read them while the caller already publishes the next pass (its claims then fail).
    std::atomic<XpbdBatches *> m_batches{nullptr};
    std::atomic<Vec3 *> m_x{nullptr};
    std::atomic<const Vec3 *> m_xPrev{nullptr};
    std::atomic<const float *> m_invMass{nullptr};

    std::uint64_t m_generation = 0; ///< passes started (caller only)
    std::atomic<std::uint64_t> m_posted{0}; ///< generation of the pass on offer (worker waits on it)
    std::atomic<bool> m_quit{false};
    /// (generation << 32) | next chunk index; claimed by compare-exchange.
    alignas(64) std::atomic<std::uint64_t> m_ticket{0};
    /// Chunks finished in the current pass.
    alignas(64) std::atomic<std::uint32_t> m_finished{0};
    std::thread m_thread;
};

/// Cloths with at least this many constraints share each colour's work with a worker thread
/// (on machines with two or more cores). Default: never (see xpbdworker.cpp); the benchmark
/// and tests set it to compare one and two threads.
std::size_t xpbdTwoThreadConstraints();
void setXpbdTwoThreadConstraints(std::size_t count);

/// Holds an XpbdWorker created on first use; copying gives an empty holder (a copied
/// simulation starts its own thread when it needs one).
struct XpbdWorkerSlot {
    std::unique_ptr<XpbdWorker> worker;

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
};

} // namespace drape::detail
