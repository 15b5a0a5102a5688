// kernel/<solver>/N: the constraint kernel alone, colour by colour, on the benchmark sheet's
// streams as a frame lays them out. A frame's time mixes the kernel with everything around
// it, and this machine's speed drifts by tens of percent between rows; one colour solved
// again and again is a short loop whose cost per block shows what a change to one kind of
// block does (a grid's colours are of one kind each: blocks of runs for the vertical, shear
// and vertical bend links, dealt window blocks for the horizontal ones). Counters: CPU
// nanoseconds per block of 8 constraints for the colours whose blocks are mostly runs
// (ns_per_block_runs), dealt or other window blocks (ns_per_block_windows) and gathered
// blocks (ns_per_block_gather), with each kind's share of the blocks. Compare two builds
// with their rows alternated, as for the frame rows.
#include "benchcloth.h"

#include "solvercache.h"
#include "xpbdbatch.h"
#include "xpbdkernel.h"

#include <benchmark/benchmark.h>

#include <array>
#include <string>
#include <vector>

namespace drape {
namespace {

using detail::XpbdBatches;

void kernelColours(benchmark::State &state, SolverKind kind, int n)
{
    if (detail::xpbdKernelIsa() == detail::KernelIsa::Portable) {
        state.SkipWithError("the portable kernel has no blocks to time");
        return;
    }
    // One frame first, so that the cloth hangs as in the frame rows.
    Simulation sim = bench::benchSimulation(kind, n);
    sim.step();
    const Cloth &cloth = sim.cloths[0];
    detail::ClothSolverCache cache;
    cache.ensure(cloth);
    XpbdBatches &s = cache.xpbd;
    const bool verlet = kind == SolverKind::Verlet;
    const float frame = 1.f / bench::kFrameRate;
    const float dt = verlet ? frame : frame / float(bench::kIterations);
    if (!(verlet ? detail::refreshVerletBatches(cloth, dt, s) : detail::refreshXpbdBatches(cloth, dt, s))) {
        state.SkipWithError("the sheet's constraints do not refresh");
        return;
    }
    detail::setXpbdSpans(s, cloth.particles.position.data());
    // Offsets of one substep of the frame's motion, from a start at the frame origin.
    const std::size_t particles = cloth.particles.size();
    std::vector<Vec3> offsets(particles), start(particles, Vec3 {});
    for (std::size_t i = 0; i < particles; ++i)
        offsets[i] = cloth.particles.velocity[i] * dt;
    const detail::PlanarPositions x = detail::copyToPlanes(s.planes, offsets.data(), particles);
    const detail::PlanarPositions xPrev
        = detail::copyToPlanes(s.prevPlanes, start.data(), particles, nullptr, detail::kPrevPlanesSkew);
    const float *invMass = cloth.particles.invMass.data();

    // Each conflict-free colour by the fetch most of its blocks take.
    enum Kind { Runs, Windows, Gather, Kinds };
    struct Colour {
        std::uint32_t begin, end;
        Kind kind;
    };
    std::vector<Colour> colours;
    std::array<double, Kinds> blocks {};
    for (std::size_t c = 0; c + 1 < s.start.size(); ++c) {
        if (!s.conflictFree[c] || s.start[c] == s.start[c + 1])
            continue;
        std::array<int, Kinds> count {};
        for (std::uint32_t k = s.start[c]; k < s.start[c + 1]; k += XpbdBatches::kLanes) {
            const std::uint8_t fetch = s.blockFetch[k / XpbdBatches::kLanes];
            ++count[fetch == XpbdBatches::Runs ? Runs : fetch == XpbdBatches::Windows ? Windows : Gather];
        }
        const Kind most = count[Runs] >= count[Windows] && count[Runs] >= count[Gather] ? Runs
            : count[Windows] >= count[Gather]                                           ? Windows
                                                                                        : Gather;
        colours.push_back({ s.start[c], s.start[c + 1], most });
        blocks[most] += double(s.start[c + 1] - s.start[c]) / XpbdBatches::kLanes;
    }
    constexpr int kRepeats = 20;
    std::array<double, Kinds> seconds {};
    s.lambdaZero = true;
    for (auto _ : state) {
        for (const Colour &c : colours) {
            const double t0 = bench::threadSeconds();
            for (int r = 0; r < kRepeats; ++r) {
                if (verlet)
                    detail::relaxVerletSlots(s, c.begin, c.end, true, x, invMass, 1.f / (dt * dt));
                else
                    detail::solveXpbdSlots(s, c.begin, c.end, true, x, xPrev, invMass);
            }
            seconds[c.kind] += bench::threadSeconds() - t0;
        }
    }
    const double allBlocks = blocks[Runs] + blocks[Windows] + blocks[Gather];
    const char *names[Kinds] = { "runs", "windows", "gather" };
    for (int k = 0; k < Kinds; ++k) {
        if (blocks[k] == 0)
            continue;
        const double timed = blocks[k] * kRepeats * double(state.iterations());
        state.counters[std::string("ns_per_block_") + names[k]] = 1e9 * seconds[k] / timed;
        state.counters[std::string("share_") + names[k]] = blocks[k] / allBlocks;
    }
}

const bool registered = [] {
    for (SolverKind kind : { SolverKind::Xpbd, SolverKind::Verlet })
        for (int n : { 128, 256 })
            benchmark::RegisterBenchmark(
                (std::string("kernel/") + (kind == SolverKind::Xpbd ? "xpbd" : "verlet") + "/"
                    + std::to_string(n))
                    .c_str(),
                [kind, n](benchmark::State &state) { kernelColours(state, kind, n); })
                ->Unit(benchmark::kMillisecond);
    return true;
}();

} // namespace
} // namespace drape
