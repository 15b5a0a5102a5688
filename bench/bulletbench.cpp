// The same sheet in Bullet's btSoftBody, for a reference point: the N x N grid of
// bench::benchSimulation rebuilt node for node and link for link (structural, both shear
// diagonals, bend links skipping one node), top row pinned (mass 0), m_cfg.piterations = 10,
// one 1/60 s step per frame in a btSoftRigidDynamicsWorld. projections_per_s counts
// links x piterations per second, comparable with drape's counter.
#ifdef DRAPE_HAVE_BULLET

#include "benchcloth.h"

#include <BulletSoftBody/btSoftBodyHelpers.h>
#include <BulletSoftBody/btSoftBodyRigidBodyCollisionConfiguration.h>
#include <BulletSoftBody/btSoftRigidDynamicsWorld.h>
#include <benchmark/benchmark.h>
#include <btBulletDynamicsCommon.h>

#include <cmath>
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

const bool registered = [] {
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
