// The same sheet in Bullet's btSoftBody, for a reference point: the N x N grid of
// bench::benchSimulation rebuilt node for node and link for link (structural, both shear
// diagonals, bend links skipping one node), top row pinned (mass 0), m_cfg.piterations = 10,
// one 1/60 s step per frame in a btSoftRigidDynamicsWorld. projections_per_s counts
// links x piterations per second, comparable with drape's counter.
//
// The paired/... rows time Drape and Bullet in alternation within one row: a block of frames
// of one, then a block of the other (which goes first alternates), each block's CPU time
// taken on the thread's own clock. This machine's speed drifts by tens of percent over
// seconds, and separate rows see different stretches of it; two blocks a fraction of a
// second apart see nearly the same one. Each block starts with one untimed frame, so that
// its timed frames run on caches warm with its own simulation's data, as the separate rows'
// frames do. Counters: drape_ms and
// bullet_ms (the medians over the pairs of the blocks' time per frame) and bullet_over_drape
// (the median over the pairs of each pair's ratio), with its lowest and highest pair
// (ratio_min, ratio_max); the row's time is Drape's per frame.
#ifdef DRAPE_HAVE_BULLET

#include "benchcloth.h"

#include <BulletSoftBody/btSoftBodyHelpers.h>
#include <BulletSoftBody/btSoftBodyRigidBodyCollisionConfiguration.h>
#include <BulletSoftBody/btSoftRigidDynamicsWorld.h>
#include <benchmark/benchmark.h>
#include <btBulletDynamicsCommon.h>

#include <algorithm>
#include <cmath>
#include <ctime>
#include <memory>
#include <string>
#include <vector>

namespace {

using namespace drape;

struct BulletWorld {
    btSoftBodyRigidBodyCollisionConfiguration config;
    btCollisionDispatcher dispatcher { &config };
    btDbvtBroadphase broadphase;
    btSequentialImpulseConstraintSolver solver;
    btSoftRigidDynamicsWorld world { &dispatcher, &broadphase, &solver, &config };
    btSoftBody *cloth = nullptr;

    BulletWorld(int n, bench::Sheet sheet)
    {
        btSoftBodyWorldInfo &info = world.getWorldInfo();
        info.m_gravity = btVector3(0, -9.81f, 0);
        info.air_density = 0;
        info.m_sparsesdf.Initialize();
        world.setGravity(info.m_gravity);

        // Built by hand from the very cloth drape steps (bench::benchSimulation), so both
        // have the same nodes, masses, pins and links: one Bullet link per drape constraint.
        // Bullet's links are all rigid (material kLST = 1), drape's shear and bend compliant.
        const Cloth source = bench::benchSimulation(SolverKind::Xpbd, n, sheet).cloths[0];
        const Particles &p = source.particles;
        std::vector<btVector3> x(p.size());
        std::vector<btScalar> m(p.size());
        for (std::size_t i = 0; i < p.size(); ++i) {
            x[i] = btVector3(p.position[i].x, p.position[i].y, p.position[i].z);
            m[i] = p.kind[i] == ParticleKind::Static ? 0 : p.mass[i]; // mass 0 pins the node
        }
        cloth = new btSoftBody(&info, int(p.size()), x.data(), m.data());
        for (const DistanceConstraint &c : source.constraints)
            cloth->appendLink(int(c.a), int(c.b)); // rest length = current distance
        for (const Triangle &t : source.triangles)
            cloth->appendFace(int(t.v[0]), int(t.v[1]), int(t.v[2]));
        cloth->m_cfg.piterations = bench::kIterations;
        world.addSoftBody(cloth);
    }

    ~BulletWorld()
    {
        world.removeSoftBody(cloth);
        delete cloth;
    }
};

void bulletFrame(benchmark::State &state, int n, bench::Sheet sheet)
{
    auto bullet = std::make_unique<BulletWorld>(n, sheet);
    const btScalar dt = btScalar(1.0 / bench::kFrameRate);
    bullet->world.stepSimulation(dt, 1, dt);
    for (auto _ : state) {
        bullet->world.stepSimulation(dt, 1, dt);
        benchmark::DoNotOptimize(bullet->cloth->m_nodes[0].m_x);
    }
    const btSoftBody::tNodeArray &nodes = bullet->cloth->m_nodes;
    for (int i = 0; i < nodes.size(); ++i) {
        if (!std::isfinite(nodes[i].m_x.y())) {
            state.SkipWithError("Bullet cloth blew up");
            return;
        }
    }
    const double links = double(bullet->cloth->m_links.size());
    state.counters["particles"] = double(nodes.size());
    state.counters["constraints"] = links;
    state.counters["projections_per_s"] = benchmark::Counter(
        links * bench::kIterations * double(state.iterations()), benchmark::Counter::kIsRate);
}

// One benchmark iteration is one pair of blocks of `frames` frames each.
void pairedFrames(benchmark::State &state, SolverKind kind, int n, bench::Sheet sheet, int frames)
{
    Simulation sim = bench::benchSimulation(kind, n, sheet);
    auto bullet = std::make_unique<BulletWorld>(n, sheet);
    const btScalar dt = btScalar(1.0 / bench::kFrameRate);
    const auto drapeFrame = [&] {
        sim.step();
        benchmark::DoNotOptimize(sim.cloths[0].particles.position.data());
    };
    const auto bulletFrame = [&] {
        bullet->world.stepSimulation(dt, 1, dt);
        benchmark::DoNotOptimize(bullet->cloth->m_nodes[0].m_x);
    };
    sim.step(); // the solver caches, outside the timing
    bullet->world.stepSimulation(dt, 1, dt);
    std::vector<double> drapeMs, bulletMs, ratio;
    bool drapeFirst = true;
    for (auto _ : state) {
        double d = 0, b = 0;
        if (drapeFirst) {
            d = bench::blockSeconds(frames, drapeFrame);
            b = bench::blockSeconds(frames, bulletFrame);
        } else {
            b = bench::blockSeconds(frames, bulletFrame);
            d = bench::blockSeconds(frames, drapeFrame);
        }
        drapeFirst = !drapeFirst;
        state.SetIterationTime(d / frames);
        drapeMs.push_back(1e3 * d / frames);
        bulletMs.push_back(1e3 * b / frames);
        ratio.push_back(b / d);
    }
    if (sim.status().blownUp) {
        state.SkipWithError(sim.status().message.c_str());
        return;
    }
    for (int i = 0; i < bullet->cloth->m_nodes.size(); ++i) {
        if (!std::isfinite(bullet->cloth->m_nodes[i].m_x.y())) {
            state.SkipWithError("Bullet cloth blew up");
            return;
        }
    }
    state.counters["frames_per_block"] = frames;
    state.counters["drape_ms"] = bench::median(drapeMs);
    state.counters["bullet_ms"] = bench::median(bulletMs);
    state.counters["bullet_over_drape"] = bench::median(ratio);
    state.counters["ratio_min"] = *std::min_element(ratio.begin(), ratio.end());
    state.counters["ratio_max"] = *std::max_element(ratio.begin(), ratio.end());
}

void registerPaired(const char *solver, SolverKind kind, bench::Sheet sheet, int n)
{
    // Blocks of about 30 ms of Drape's frames; 25 pairs at 128², 15 at 256².
    const int frames = n >= 256 ? 2 : 8;
    const int pairs = n >= 256 ? 15 : 25;
    const std::string name
        = "paired/" + std::string(solver) + bench::sheetName(sheet) + "/" + std::to_string(n);
    benchmark::RegisterBenchmark(name.c_str(),
        [kind, n, sheet, frames](benchmark::State &s) { pairedFrames(s, kind, n, sheet, frames); })
        ->Unit(benchmark::kMillisecond)
        ->UseManualTime()
        ->Iterations(pairs);
}

const bool registered = [] {
    for (int n : { 128, 256 }) {
        registerPaired("xpbd", SolverKind::Xpbd, bench::Sheet::Grid, n);
        registerPaired("verlet", SolverKind::Verlet, bench::Sheet::Grid, n);
        registerPaired("xpbd", SolverKind::Xpbd, bench::Sheet::Holes, n);
        registerPaired("xpbd", SolverKind::Xpbd, bench::Sheet::Split, n);
    }
    // 48: the cloth of the collider rows (colliderbench.cpp), for their ratio to Bullet.
    for (int n : { 48, 64, 128, 256 })
        benchmark::RegisterBenchmark(("bullet/" + std::to_string(n)).c_str(), [n](benchmark::State &s) {
            bulletFrame(s, n, bench::Sheet::Grid);
        })->Unit(benchmark::kMillisecond);
    for (bench::Sheet sheet : { bench::Sheet::Holes, bench::Sheet::Split })
        for (int n : { 128, 256 })
            benchmark::RegisterBenchmark(
                ("bullet" + std::string(bench::sheetName(sheet)) + "/" + std::to_string(n)).c_str(),
                [n, sheet](benchmark::State &s) { bulletFrame(s, n, sheet); })
                ->Unit(benchmark::kMillisecond);
    return true;
}();

} // namespace

#endif // DRAPE_HAVE_BULLET
