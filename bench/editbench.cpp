// The editing operations that run while the mouse moves, on the 256 x 256 sheet: picking
// the particle / constraint under the cursor, and a cut stroke (find, apply, revert, so the
// cloth is the same at every iteration).
#include "benchcloth.h"

#include "edit/cut.h"
#include "edit/pick.h"
#include "solvercache.h"

#include <benchmark/benchmark.h>

namespace {

using namespace drape;

constexpr int kEditN = 256;

void pickParticleBench(benchmark::State &state)
{
    const Simulation sim = bench::benchSimulation(SolverKind::Xpbd, kEditN);
    const Ray ray { { 0.01f, 1.f, 3.f }, { 0.f, 0.f, -1.f } };
    PickSettings settings;
    settings.radius = 0.005f;
    for (auto _ : state) {
        ParticleHit hit = pickParticle(sim, ray, settings);
        benchmark::DoNotOptimize(hit);
    }
    state.counters["particles"] = double(sim.cloths[0].particles.size());
}

void pickConstraintBench(benchmark::State &state)
{
    const Simulation sim = bench::benchSimulation(SolverKind::Xpbd, kEditN);
    const Ray ray { { 0.01f, 1.f, 3.f }, { 0.f, 0.f, -1.f } };
    PickSettings settings;
    settings.radius = 0.005f;
    for (auto _ : state) {
        ConstraintHit hit = pickConstraint(sim, ray, settings);
        benchmark::DoNotOptimize(hit);
    }
    state.counters["constraints"] = double(sim.cloths[0].constraints.size());
}

void cutStrokeBench(benchmark::State &state)
{
    Simulation sim = bench::benchSimulation(SolverKind::Xpbd, kEditN);
    Cloth &cloth = sim.cloths[0];
    // A perspective stroke across the whole sheet at mid height.
    const Vec3 eye { 0.f, 1.f, 3.f };
    const Ray r0 { eye, normalized(Vec3 { -0.6f, 1.f, 0.f } - eye) };
    const Ray r1 { eye, normalized(Vec3 { 0.6f, 1.f, 0.f } - eye) };
    std::size_t removed = 0;
    for (auto _ : state) {
        const ClothEditResult cut = makeCutStroke(cloth, r0, r1);
        apply(cloth, cut.edit);
        revert(cloth, cut.edit);
        removed = cut.edit.removedConstraints.size();
    }
    state.counters["constraints"] = double(cloth.constraints.size());
    state.counters["cut"] = double(removed);
}

// What the solver redoes after a cut: one full-width stroke applied, then the cache's
// rebuild (colouring, streams, adjacency) that the next step performs; reverted and rebuilt
// again outside the timing.
void relayoutAfterCutBench(benchmark::State &state)
{
    Simulation sim = bench::benchSimulation(SolverKind::Xpbd, kEditN);
    Cloth &cloth = sim.cloths[0];
    const Vec3 eye { 0.f, 1.f, 3.f };
    const ClothEditResult cut = makeCutStroke(cloth, { eye, normalized(Vec3 { -0.6f, 1.f, 0.f } - eye) },
        { eye, normalized(Vec3 { 0.6f, 1.f, 0.f } - eye) });
    detail::ClothSolverCache cache;
    cache.ensure(cloth);
    for (auto _ : state) {
        apply(cloth, cut.edit);
        cache.ensure(cloth);
        state.PauseTiming();
        revert(cloth, cut.edit);
        cache.ensure(cloth);
        state.ResumeTiming();
    }
    state.counters["cut"] = double(cut.edit.removedConstraints.size());
    state.counters["remaps"] = double(cache.remaps);
    state.counters["layouts"] = double(cache.layouts);
}

BENCHMARK(pickParticleBench)->Name("edit/pick_particle/256")->Unit(benchmark::kMicrosecond);
BENCHMARK(pickConstraintBench)->Name("edit/pick_constraint/256")->Unit(benchmark::kMicrosecond);
BENCHMARK(cutStrokeBench)->Name("edit/cut_stroke/256")->Unit(benchmark::kMillisecond);
BENCHMARK(relayoutAfterCutBench)->Name("edit/relayout_after_cut/256")->Unit(benchmark::kMillisecond);

} // namespace
