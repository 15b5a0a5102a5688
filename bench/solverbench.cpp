// Solver throughput: one frame of an N x N hanging sheet per benchmark iteration, for each
// solver at 10 iterations (see benchcloth.h for how each spends them); the same sheet on one
// thread, two and the automatic choice in alternation (threads/<solver>/N); and one frame of
// each built-in preset (preset/<id>).
//
// Counters: particles, constraints, projections_per_s (constraints x iterations x substeps
// per second of CPU time: how many constraint projections / spring evaluations the solver
// gets through), state_bytes_per_particle (the cloth's particle, constraint and triangle
// arrays), total_bytes_per_particle (Simulation::stateBytes: the cloth's arrays, the solver's
// streams and caches and the rollback snapshot) and its other parts per particle
// (Simulation::stateBytesByPart): tension_bytes_ (the tension the solver keeps per constraint:
// only for a cloth that can tear, or on the springs solver), stream_bytes_ (the per-slot
// constraint streams), block_table_bytes_, solver_particle_bytes_ (the solver's per-particle
// arrays), solver_other_bytes_ and snapshot_bytes_per_particle. The XPBD and Verlet rows also give how the
// kernel fetches the blocks of the sheet's constraint streams (xpbdbatch.h, BlockFetch): gathered_blocks_pct,
// gathered particle by particle, and run_blocks_pct, two runs of consecutive particles with no permutes (the
// rest are window blocks).
#include "benchcloth.h"

#include "scene/presets.h"
#include "scene/scene.h"
#include "solvercache.h"
#include "xpbdworker.h"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <initializer_list>
#include <string>
#include <vector>

namespace {

using namespace drape;

// How many threads a row's cloth steps on: one, two (the worker takes every pass whatever
// the size), or the automatic choice (detail::kAutomaticTwoThreadConstraints and a spare core).
enum class Threads { One, Two, Automatic };

std::size_t twoThreadConstraints(Threads t)
{
    switch (t) {
    case Threads::One:
        return std::size_t(-1);
    case Threads::Two:
        return 0;
    case Threads::Automatic:
        break;
    }
    return detail::kAutomaticTwoThreadConstraints;
}

struct FrameOptions {
    Threads threads = Threads::One;
    bool selfCollision = false;
    bench::Sheet sheet = bench::Sheet::Grid;
};

void solverFrame(benchmark::State &state, SolverKind kind, int n, FrameOptions options = {})
{
    const std::size_t defaultThreshold = detail::xpbdTwoThreadConstraints();
    detail::setXpbdTwoThreadConstraints(twoThreadConstraints(options.threads));
    struct Restore {
        std::size_t value;
        ~Restore() { detail::setXpbdTwoThreadConstraints(value); }
    } restore { defaultThreshold };
    Simulation sim = bench::benchSimulation(kind, n, options.sheet);
    sim.solver.selfCollision = options.selfCollision;
    sim.step(); // builds the solver caches outside the timed loop
    if (!bench::timeFrames(state, sim))
        return;
    const Cloth &cloth = sim.cloths[0];
    const double perFrame = double(cloth.constraints.size()) * sim.solver.iterations * sim.solver.substeps;
    state.counters["particles"] = double(cloth.particles.size());
    state.counters["constraints"] = double(cloth.constraints.size());
    state.counters["projections_per_s"]
        = benchmark::Counter(perFrame * double(state.iterations()), benchmark::Counter::kIsRate);
    const StateBytes bytes = sim.stateBytesByPart(0);
    const auto perParticle = [&cloth](std::size_t b) { return double(b) / double(cloth.particles.size()); };
    state.counters["state_bytes_per_particle"]
        = perParticle(bytes.particles + bytes.constraints + bytes.triangles);
    state.counters["total_bytes_per_particle"] = perParticle(bytes.total());
    state.counters["tension_bytes_per_particle"] = perParticle(bytes.tension);
    state.counters["stream_bytes_per_particle"] = perParticle(bytes.streams);
    state.counters["block_table_bytes_per_particle"] = perParticle(bytes.blockTables);
    state.counters["solver_particle_bytes_per_particle"] = perParticle(bytes.solverParticles);
    state.counters["solver_other_bytes_per_particle"] = perParticle(bytes.solverOther);
    state.counters["snapshot_bytes_per_particle"] = perParticle(bytes.snapshot);
    if (kind != SolverKind::Springs) {
        // The layout a copy of the cloth gets (its colours are the ones the run keeps).
        detail::ClothSolverCache cache;
        cache.ensure(cloth);
        const std::vector<std::uint8_t> &fetch = cache.xpbd.blockFetch;
        const auto share = [&fetch](std::uint8_t how) {
            const auto blocks = std::count(fetch.begin(), fetch.end(), how);
            return fetch.empty() ? 0.0 : 100.0 * double(blocks) / double(fetch.size());
        };
        state.counters["gathered_blocks_pct"] = share(detail::XpbdBatches::Gather);
        state.counters["run_blocks_pct"] = share(detail::XpbdBatches::Runs);
    }
}

// threads/<solver>/N: the same sheet on one thread, on two, and on the count
// Simulation::step() chooses, timed in rounds of one block of frames each
// (bench::blockSeconds, wall time; the order reverses every round), so that the counts are
// compared on nearly the same stretch of a drifting machine: separate rows (xpbd/N against
// xpbd_2threads/N) run tens of seconds apart, and on different clocks (CPU time for one
// thread). Counters: one_ms, two_ms and auto_ms (medians over the rounds of the blocks' time
// per frame), one_over_two and one_over_auto (the medians of the rounds' ratios: the
// speed-up of two threads, and of the automatic choice), and the lowest and highest round of
// each (ratio_min, ratio_max; auto_min, auto_max); the row's time is the two-thread frame's.
// A fourth copy steps on one thread too, as a control: one_over_one (and control_min,
// control_max) is what two identical counts read, the floor under the other ratios (copies
// of one cloth differ in where their arrays fall in memory, which moves a small sheet's
// frame by a few percent). All four simulations are copies of one sheet, step the same
// frames, and every count gives one thread's bits: the row fails if their states differ at
// its end.
void pairedThreads(benchmark::State &state, SolverKind kind, int n, int frames)
{
    const std::size_t defaultThreshold = detail::xpbdTwoThreadConstraints();
    struct Restore {
        std::size_t value;
        ~Restore() { detail::setXpbdTwoThreadConstraints(value); }
    } restore { defaultThreshold };
    const Simulation sheet = bench::benchSimulation(kind, n);
    constexpr int kCopies = 4;
    Simulation sims[kCopies] = { sheet, sheet, sheet, sheet };
    const Threads counts[kCopies] = { Threads::One, Threads::Two, Threads::Automatic, Threads::One };
    std::vector<double> ms[kCopies], twoRatio, autoRatio, controlRatio;
    bool forward = true;
    for (auto _ : state) {
        double seconds[kCopies] = {};
        for (int k = 0; k < kCopies; ++k) {
            const int which = forward ? k : kCopies - 1 - k;
            Simulation &sim = sims[which];
            detail::setXpbdTwoThreadConstraints(twoThreadConstraints(counts[which]));
            seconds[which] = bench::blockSeconds(
                frames,
                [&sim] {
                    sim.step();
                    benchmark::DoNotOptimize(sim.cloths[0].particles.position.data());
                },
                bench::wallSeconds);
        }
        forward = !forward;
        state.SetIterationTime(seconds[1] / frames);
        for (int k = 0; k < kCopies; ++k)
            ms[k].push_back(1e3 * seconds[k] / frames);
        twoRatio.push_back(seconds[0] / seconds[1]);
        autoRatio.push_back(seconds[0] / seconds[2]);
        controlRatio.push_back(seconds[0] / seconds[3]);
    }
    for (const Simulation &sim : sims) {
        if (sim.status().blownUp) {
            state.SkipWithError("the sheet blew up");
            return;
        }
        if (sim.stateHash() != sims[0].stateHash()) {
            state.SkipWithError("two threads gave other results than one");
            return;
        }
    }
    state.counters["frames_per_block"] = frames;
    state.counters["one_ms"] = bench::median(ms[0]);
    state.counters["two_ms"] = bench::median(ms[1]);
    state.counters["auto_ms"] = bench::median(ms[2]);
    state.counters["one_over_two"] = bench::median(twoRatio);
    state.counters["ratio_min"] = *std::min_element(twoRatio.begin(), twoRatio.end());
    state.counters["ratio_max"] = *std::max_element(twoRatio.begin(), twoRatio.end());
    state.counters["one_over_auto"] = bench::median(autoRatio);
    state.counters["auto_min"] = *std::min_element(autoRatio.begin(), autoRatio.end());
    state.counters["auto_max"] = *std::max_element(autoRatio.begin(), autoRatio.end());
    state.counters["one_over_one"] = bench::median(controlRatio);
    state.counters["control_min"] = *std::min_element(controlRatio.begin(), controlRatio.end());
    state.counters["control_max"] = *std::max_element(controlRatio.begin(), controlRatio.end());
}

// One frame of a built-in preset per iteration, as the editor steps it (the bending presets
// spend most of it in the bending pass, bendingsolve.h). Each run starts again from the
// preset's first frame after 240 frames, so that a tearing preset is timed over its tears
// and not only on its rags.
void presetFrame(benchmark::State &state, const std::string &id)
{
    const Simulation start = buildSimulation(*loadPreset(id).scene);
    Simulation sim = start;
    int frame = 0;
    for (auto _ : state) {
        if (++frame > 240) {
            state.PauseTiming();
            sim = start;
            frame = 1;
            state.ResumeTiming();
        }
        sim.step();
    }
    std::size_t particles = 0;
    for (const Cloth &c : sim.cloths)
        particles += c.particles.size();
    state.counters["particles"] = double(particles);
    state.counters["total_bytes_per_particle"] = double(sim.memoryBytes()) / double(particles);
}

void registerSolver(
    const char *name, SolverKind kind, Threads threads, std::initializer_list<int> sizes = { 64, 128, 256 })
{
    for (int n : sizes) {
        auto *b = benchmark::RegisterBenchmark((std::string(name) + "/" + std::to_string(n)).c_str(),
            [kind, n, threads](benchmark::State &s) {
                FrameOptions o;
                o.threads = threads;
                solverFrame(s, kind, n, o);
            });
        b->Unit(benchmark::kMillisecond);
        // With a second thread the rows give wall time (CPU time counts the calling thread only).
        if (threads != Threads::One)
            b->UseRealTime();
    }
}

const bool registered = [] {
    // The plain rows on one thread; _2threads with every pass shared with the worker thread;
    // _auto as Simulation::step() chooses (two threads from kAutomaticTwoThreadConstraints).
    // The threaded rows start small, where the hand-overs between the threads cost more
    // than the half of the work they save (see kAutomaticTwoThreadConstraints).
    const std::initializer_list<int> small { 32, 48, 64, 128, 256 };
    registerSolver("xpbd", SolverKind::Xpbd, Threads::One, small);
    registerSolver("xpbd_2threads", SolverKind::Xpbd, Threads::Two, small);
    registerSolver("xpbd_auto", SolverKind::Xpbd, Threads::Automatic, small);
    // Cloth that is no longer a clean grid, and self-collision on (compare with xpbd/N).
    for (bench::Sheet sheet : { bench::Sheet::Holes, bench::Sheet::Split, bench::Sheet::Torn })
        for (int n : { 128, 256 })
            benchmark::RegisterBenchmark(
                ("xpbd" + std::string(bench::sheetName(sheet)) + "/" + std::to_string(n)).c_str(),
                [n, sheet](benchmark::State &s) {
                    FrameOptions o;
                    o.sheet = sheet;
                    solverFrame(s, SolverKind::Xpbd, n, o);
                })
                ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark("xpbd_selfcollision/128", [](benchmark::State &s) {
        FrameOptions o;
        o.selfCollision = true;
        solverFrame(s, SolverKind::Xpbd, 128, o);
    })->Unit(benchmark::kMillisecond);
    registerSolver("verlet", SolverKind::Verlet, Threads::One, small);
    registerSolver("verlet_2threads", SolverKind::Verlet, Threads::Two, small);
    registerSolver("verlet_auto", SolverKind::Verlet, Threads::Automatic, small);
    registerSolver("springs", SolverKind::Springs, Threads::One);
    // One, two and the chosen count of threads in rounds: blocks of about 30 ms of
    // one-thread frames, 15 rounds, from the small end of the two-thread rule up.
    for (SolverKind kind : { SolverKind::Xpbd, SolverKind::Verlet })
        for (int n : { 32, 48, 64, 128, 256 }) {
            const int frames = n >= 256 ? 3 : n >= 128 ? 12 : n >= 64 ? 48 : n >= 48 ? 80 : 160;
            const std::string name = std::string("threads/") + (kind == SolverKind::Xpbd ? "xpbd" : "verlet")
                + "/" + std::to_string(n);
            benchmark::RegisterBenchmark(
                name.c_str(), [kind, n, frames](benchmark::State &st) { pairedThreads(st, kind, n, frames); })
                ->Unit(benchmark::kMillisecond)
                ->UseManualTime()
                ->Iterations(15);
        }
    for (const PresetDesc &p : presetList())
        benchmark::RegisterBenchmark(("preset/" + p.id).c_str(), presetFrame, p.id)
            ->Unit(benchmark::kMillisecond);
    return true;
}();

} // namespace
