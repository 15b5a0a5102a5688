// Mesh collider cost: a 48 × 48 (2,304-particle) cloth of 1 m draped over a ball of radius
// 0.3 m, one frame of XPBD (10 substeps) per iteration, with no collider, the analytic sphere,
// and mesh spheres of 5,000 and 50,000 triangles. The cloth is dropped and left to settle for
// 60 frames before timing, so most particles are in contact. The mesh rows cost the contacts'
// hierarchy queries; the 50,000-triangle row shows how that grows with the mesh size (the
// touched area is the same).
#include "benchcloth.h"

#include "mesh/meshobject.h"
#include "mesh/meshshapes.h"

#include <benchmark/benchmark.h>

namespace {

using namespace drape;

enum class Ball { None, Sphere, Mesh5k, Mesh50k };

Simulation drapeOverBall(Ball ball)
{
    Simulation sim;
    bench::configureSolver(sim.solver, SolverKind::Xpbd);
    GridSpec g = bench::benchGrid(48);
    g.orientation = GridOrientation::Horizontal;
    g.origin = { -0.5f, 0.9f, -0.5f };
    sim.cloths.push_back(makeGrid(g));
    const Vec3 centre { 0.f, 0.5f, 0.f };
    Collider c;
    c.thickness = 0.004f;
    if (ball == Ball::Sphere) {
        c.kind = ColliderKind::Sphere;
        c.radius = 0.3f;
        c.center = c.baseCenter = centre;
    } else if (ball != Ball::None) {
        // 50 × 51 bands: 4,998 triangles; 158 × 159: 49,926.
        const int rings = ball == Ball::Mesh5k ? 50 : 158;
        c = meshToCollider(makeUvSphereMesh(0.3f, rings, rings + 1), "ball");
        c.thickness = 0.004f;
        c.center = c.baseCenter = centre + c.center;
    }
    if (ball != Ball::None)
        sim.colliders.push_back(c);
    sim.run(60);
    return sim;
}

void colliderFrame(benchmark::State &state, Ball ball)
{
    Simulation sim = drapeOverBall(ball);
    if (!bench::timeFrames(state, sim))
        return;
    state.counters["particles"] = double(sim.cloths[0].particles.size());
    state.counters["triangles"] = ball == Ball::None || ball == Ball::Sphere
        ? 0.0
        : double(sim.colliders[0].mesh->triangles().size());
}

const bool registered = [] {
    const std::pair<const char *, Ball> rows[]
        = { { "collider/none/48", Ball::None }, { "collider/sphere/48", Ball::Sphere },
              { "collider/mesh5k/48", Ball::Mesh5k }, { "collider/mesh50k/48", Ball::Mesh50k } };
    for (const auto &[name, ball] : rows)
        benchmark::RegisterBenchmark(name, [ball = ball](benchmark::State &s) {
            colliderFrame(s, ball);
        })->Unit(benchmark::kMillisecond);
    return true;
}();

} // namespace
