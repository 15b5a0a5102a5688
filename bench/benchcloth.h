// The benchmark's cloth: one shared builder (makeGrid) so every solver, Bullet included,
// gets the same N x N sheet with the same pins.
#pragma once

#include "sim/builders.h"
#include "sim/simulation.h"
#include "sim/vertexsplit.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <ctime>
#include <utility>
#include <vector>

#include <benchmark/benchmark.h>

namespace drape::bench {

constexpr float kSheetSize = 1.f; ///< m, width and height of the sheet
constexpr float kArealDensity = 0.2f; ///< kg/m²
constexpr float kFrameRate = 60.f; ///< Hz
constexpr int kIterations = 10; ///< the "10 iterations" every solver gets, spent as below

inline GridSpec benchGrid(int n)
{
    GridSpec g;
    g.across = n;
    g.down = n;
    g.width = kSheetSize;
    g.height = kSheetSize;
    g.origin = { -0.5f * kSheetSize, 1.5f, 0.f };
    g.arealDensity = kArealDensity;
    return g;
}

/// The pairing of substeps and iterations per solver (kIterations in total).
inline void configureSolver(SolverSettings &s, SolverKind kind)
{
    s.kind = kind;
    s.frameRate = kFrameRate;
    switch (kind) {
    case SolverKind::Xpbd:
        s.substeps = kIterations;
        s.iterations = 1;
        break;
    case SolverKind::Verlet:
        s.substeps = 1;
        s.iterations = kIterations;
        break;
    case SolverKind::Springs:
        s.substeps = kIterations;
        s.iterations = 1;
        break;
    }
}

/// What the sheet has been through before it is stepped: nothing (a clean grid), 10 % of its
/// constraints removed at random, 500 vertex splits, or the same 10 % removed after a first
/// frame (Torn: as a cloth torn or cut while it runs, whose surviving constraints keep the
/// colours they were solved with; the same topology as Holes, so Bullet's peer is the same).
enum class Sheet { Grid, Holes, Split, Torn };

inline const char *sheetName(Sheet s)
{
    switch (s) {
    case Sheet::Grid:
        break;
    case Sheet::Holes:
        return "_holes10";
    case Sheet::Split:
        return "_split500";
    case Sheet::Torn:
        return "_torn10";
    }
    return "";
}

/// Removes each constraint with probability 1/10 (a fixed 32-bit LCG, so every run and
/// Bullet's copy get the same cloth); triangles that lose an edge stay, as after a cut.
inline void removeTenthOfConstraints(Cloth &cloth)
{
    std::uint32_t state = 2463534242u;
    std::vector<DistanceConstraint> kept;
    kept.reserve(cloth.constraints.size());
    for (const DistanceConstraint &c : cloth.constraints) {
        state = state * 1664525u + 1013904223u;
        if ((state >> 8) % 10u != 0u)
            kept.push_back(c);
    }
    cloth.constraints = std::move(kept);
    cloth.touchTopology();
}

/// 500 vertex splits: every constraint is made to count as overstretched, the splitter
/// splits the 500 most strained particles, then nothing tears any more.
inline void splitVertices(Cloth &cloth, int splits)
{
    cloth.tearMode = TearMode::SplitVertex;
    const auto tearStrain = [&cloth](float strain) {
        cloth.constraints.modifyAll([strain](DistanceConstraint &c) { c.tearStrain = strain; });
    };
    tearStrain(-0.5f); // over its limit at rest (a tear strain must exceed -1)
    splitOverstretched(cloth, splits);
    tearStrain(kNeverTear);
    cloth.tearMode = TearMode::None;
}

/// An N x N hanging sheet, top row pinned, ready to step with `kind`.
inline Simulation benchSimulation(SolverKind kind, int n, Sheet sheet = Sheet::Grid)
{
    GridSpec g = benchGrid(n);
    if (kind == SolverKind::Springs) {
        // Explicit springs cannot hold XPBD's stiff shear (k = 1/1e-5 N/m) at 10 substeps
        // (the step refuses with a stability message). Compliance 0 gives every spring the
        // solver's own stability-limited stiffness instead: the same work per spring.
        g.structuralParams.compliance = 0.f;
        g.shearParams.compliance = 0.f;
        g.bendParams.compliance = 0.f;
    }
    Simulation sim;
    configureSolver(sim.solver, kind);
    Cloth cloth = makeGrid(g);
    for (int i = 0; i < n; ++i)
        cloth.particles.setKind(gridIndex(g, i, 0), ParticleKind::Static);
    if (sheet == Sheet::Holes)
        removeTenthOfConstraints(cloth);
    else if (sheet == Sheet::Split)
        splitVertices(cloth, 500);
    sim.cloths.push_back(std::move(cloth));
    if (sheet == Sheet::Torn) {
        sim.step(); // the constraints take their colours
        removeTenthOfConstraints(sim.cloths[0]);
    }
    return sim;
}

/// The timed loop every frame benchmark shares: one Simulation::step() per iteration. False
/// (and the benchmark marked as failed) when the simulation blew up before or during it.
template <typename State> bool timeFrames(State &state, Simulation &sim)
{
    if (sim.status().blownUp) {
        state.SkipWithError(sim.status().message.c_str());
        return false;
    }
    for ([[maybe_unused]] auto _ : state) {
        sim.step();
        benchmark::DoNotOptimize(sim.cloths[0].particles.position.data());
    }
    if (sim.status().blownUp) {
        state.SkipWithError(sim.status().message.c_str());
        return false;
    }
    return true;
}

// Paired rows (bulletbench.cpp, solverbench.cpp's threads/...): two contenders timed in
// alternating blocks of frames within one row, so that both see nearly the same stretch of
// a machine whose speed drifts by tens of percent over seconds.

/// CPU time of the calling thread, s.
inline double threadSeconds()
{
    timespec t {};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return double(t.tv_sec) + 1e-9 * double(t.tv_nsec);
}

/// Wall time, s (for rows whose work is shared with another thread).
inline double wallSeconds()
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

/// One frame untimed, so that the timed ones start on caches that hold this contender's data
/// (the other's block ran just before), then `frames` frames timed on `clock`.
template <typename Step> double blockSeconds(int frames, Step &&step, double (*clock)() = threadSeconds)
{
    step();
    const double begin = clock();
    for (int f = 0; f < frames; ++f)
        step();
    return clock() - begin;
}

inline double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    const std::size_t m = v.size() / 2;
    return v.size() % 2 != 0 ? v[m] : 0.5 * (v[m - 1] + v[m]);
}

} // namespace drape::bench
