// The timeline's frame cache (core/timeline): what a cached frame and a snapshot cost in
// memory, how long scrubbing to a random frame takes inside the cache (a look-up) and
// outside it (re-simulation from the nearest snapshot, K = 30), and how many frames per
// second the cache re-simulates (advance + capture + store). For every built-in preset and
// for the benchmark's 128 x 128 and 256 x 256 XPBD sheets.
#include "benchcloth.h"

#include "scene/presets.h"
#include "scene/scene.h"
#include "timeline/timeline.h"

#include <benchmark/benchmark.h>

#include <random>
#include <string>

namespace {

using namespace drape;

constexpr std::uint64_t kCachedFrames = 60; ///< frames filled before scrubbing inside the cache
constexpr std::uint32_t kSnapshotInterval = 30;

Simulation startOf(const std::string &name)
{
    if (name == "128")
        return bench::benchSimulation(SolverKind::Xpbd, 128);
    if (name == "256")
        return bench::benchSimulation(SolverKind::Xpbd, 256);
    return buildSimulation(*loadPreset(name).scene);
}

std::size_t particlesOf(const Simulation &sim)
{
    std::size_t n = 0;
    for (const Cloth &c : sim.cloths)
        n += c.particles.size();
    return n;
}

CacheSettings settings(std::size_t budget = std::size_t(1) << 30)
{
    CacheSettings s;
    s.budgetBytes = budget;
    s.snapshotInterval = kSnapshotInterval;
    return s;
}

// Memory: one iteration captures one frame (the per-frame cost of filling the cache); the
// counters give the measured bytes of the cache after kCachedFrames frames.
void cacheMemory(benchmark::State &state, const std::string &name)
{
    const Simulation start = startOf(name);
    Timeline timeline(std::make_shared<PlainSource>(start), settings());
    timeline.frame(kCachedFrames);
    const TimelineStatus s = timeline.status();
    const std::shared_ptr<const CachedFrame> last = timeline.cachedFrame(kCachedFrames);
    for (auto _ : state) {
        auto frame = captureFrame(start, 0, last.get());
        benchmark::DoNotOptimize(frame);
    }
    const double particles = double(particlesOf(start));
    const double frameBytes = double(s.bytes - s.snapshotBytes) / double(s.frames);
    const double snapshotBytes = double(s.snapshotBytes) / double(s.snapshots);
    state.counters["particles"] = particles;
    state.counters["frame_bytes"] = frameBytes;
    state.counters["frame_bytes_per_particle"] = frameBytes / particles;
    state.counters["snapshot_bytes"] = snapshotBytes;
    state.counters["snapshot_bytes_per_particle"] = snapshotBytes / particles;
}

// Scrubbing inside the cache: a random cached frame, as the timeline shows it.
void scrubCached(benchmark::State &state, const std::string &name)
{
    Timeline timeline(std::make_shared<PlainSource>(startOf(name)), settings());
    timeline.frame(kCachedFrames);
    std::mt19937 random(1);
    std::uniform_int_distribution<std::uint64_t> pick(0, kCachedFrames);
    for (auto _ : state) {
        const std::uint64_t f = pick(random);
        timeline.setPlayhead(f);
        auto frame = timeline.cachedFrame(f);
        benchmark::DoNotOptimize(frame);
        if (!frame)
            state.SkipWithError("a cached frame was missing");
    }
}

// Scrubbing outside the cache: a random frame f of (K, 2K) that is not cached, so it is
// re-simulated from the snapshot at K (K / 2 frames on average, at most K - 1). Before each
// iteration (untimed) the frames after K are dropped.
void scrubUncached(benchmark::State &state, const std::string &name)
{
    Timeline timeline(std::make_shared<PlainSource>(startOf(name)), settings());
    timeline.frame(kSnapshotInterval);
    std::mt19937 random(2);
    std::uniform_int_distribution<std::uint64_t> pick(kSnapshotInterval + 1, 2 * kSnapshotInterval - 1);
    std::uint64_t simulated = 0;
    for (auto _ : state) {
        state.PauseTiming();
        timeline.invalidateFrom(kSnapshotInterval + 1);
        const std::uint64_t f = pick(random);
        const std::uint64_t before = timeline.simulatedFrames();
        state.ResumeTiming();
        auto frame = timeline.frame(f);
        benchmark::DoNotOptimize(frame);
        simulated += timeline.simulatedFrames() - before;
    }
    state.counters["resimulated_frames"] = double(simulated) / double(state.iterations());
}

// Re-simulation rate: one iteration re-simulates one frame through the cache (advance,
// capture, snapshot every K frames, store), from frame 1 again every 60 frames.
void resimulate(benchmark::State &state, const std::string &name)
{
    Timeline timeline(std::make_shared<PlainSource>(startOf(name)), settings());
    std::uint64_t f = 0;
    for (auto _ : state) {
        if (++f > kCachedFrames) {
            state.PauseTiming();
            timeline.invalidateFrom(1);
            f = 1;
            state.ResumeTiming();
        }
        auto frame = timeline.frame(f);
        benchmark::DoNotOptimize(frame);
    }
    state.SetItemsProcessed(state.iterations());
}

int registerAll()
{
    std::vector<std::string> names;
    for (const PresetDesc &p : presetList())
        names.push_back(p.id);
    names.push_back("128");
    names.push_back("256");
    for (const std::string &n : names) {
        benchmark::RegisterBenchmark(("timeline/memory/" + n).c_str(), cacheMemory, n)
            ->Unit(benchmark::kMicrosecond);
        benchmark::RegisterBenchmark(("timeline/scrub_cached/" + n).c_str(), scrubCached, n)
            ->Unit(benchmark::kMicrosecond);
        benchmark::RegisterBenchmark(("timeline/scrub_uncached/" + n).c_str(), scrubUncached, n)
            ->Unit(benchmark::kMillisecond);
        benchmark::RegisterBenchmark(("timeline/resimulate/" + n).c_str(), resimulate, n)
            ->Unit(benchmark::kMillisecond);
    }
    return 0;
}

const int kRegistered = registerAll();

} // namespace
