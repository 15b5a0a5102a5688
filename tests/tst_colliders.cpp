// Colliders: a cloth dropped on a sphere or the ground never sinks into it by more than the
// thicknesses; keepInside boxes bounce with restitution; Coulomb friction stops a sliding
// particle after v²/(2 μ g); collider motion follows its closed form.
#include "base/rotation.h"
#include "collision.h"
#include "sim/builders.h"
#include "sim/simulation.h"
#include "solvercache.h"

#include <QTest>
#include <algorithm>
#include <array>

#include <cmath>
#include <cstring>
#include <functional>
#include <numbers>
#include <set>

using namespace drape;

namespace {

constexpr double kG = 9.81;

Cloth singleParticle(const Vec3 &x, const Vec3 &v)
{
    ExplicitSpec spec;
    spec.positions = { x };
    spec.masses = { 0.1f };
    Cloth c = makeExplicit(spec);
    c.particles.velocity[0] = v;
    return c;
}

Simulation makeSim(SolverKind kind, int substeps)
{
    Simulation sim;
    sim.world.airDamping = 0.f;
    sim.solver.kind = kind;
    sim.solver.substeps = substeps;
    return sim;
}

// A ball far below everything: nothing touches it, but with a collider in the scene every
// substep runs in full (no plain frames).
void addFarCollider(Simulation &sim)
{
    Collider ball;
    ball.kind = ColliderKind::Sphere;
    ball.radius = 1.f;
    ball.center = { 0.f, -100.f, 0.f };
    sim.colliders.push_back(ball);
}

// A horizontal cloth; soft enough for the springs solver at the given substeps.
Cloth lyingCloth(float y, bool soft)
{
    GridSpec g;
    g.across = 16;
    g.down = 16;
    g.width = 1.f;
    g.height = 1.f;
    g.orientation = GridOrientation::Horizontal;
    g.origin = { -0.5f, y, -0.5f };
    if (soft) {
        g.structuralParams = { 2e-3f, 0.005f, kNeverTear };
        g.shearParams = { 1e-2f, 0.f, kNeverTear };
        g.bendParams = { 5e-2f, 0.f, kNeverTear };
    }
    return makeGrid(g);
}

} // namespace

class TestColliders : public QObject {
    Q_OBJECT

private slots:
    void clothOnSphereNeverPenetrates_data();
    void clothOnSphereNeverPenetrates();
    void clothOnGroundNeverPenetrates_data();
    void clothOnGroundNeverPenetrates();
    void boxKeepsInsideAndBounces_data();
    void boxKeepsInsideAndBounces();
    void bounceHeightFollowsRestitution();
    void boxOutsidePushesOut();
    void coulombFrictionStoppingDistance_data();
    void coulombFrictionStoppingDistance();
    void colliderMotionIsSinusoidal();
    void selfCollisionSeparatesUnconnectedParticles();
    void foldedClothDoesNotPassThroughItself();
    void selfCollisionCatchesParticlesThatCloseInOverSubsteps();
    void selfPairsAreEveryCloseUnconnectedPairOnce();
    void selfPairsOutliveMotionOfTheWhole();
    void selfPairsOutliveTurningOfTheWhole();
    void keptSelfPairsHoldEveryClosePair();
    void selfPairsComeInSearchOrder();
    void selfCollisionAloneGivesTheFullSubstepsBits();
    void particlePinnedWhileMovingStopsDead();
    void selfPushedListsThisPassOnly();
};

void TestColliders::clothOnSphereNeverPenetrates_data()
{
    QTest::addColumn<int>("solver");
    QTest::newRow("xpbd") << int(SolverKind::Xpbd);
    QTest::newRow("verlet") << int(SolverKind::Verlet);
    QTest::newRow("springs") << int(SolverKind::Springs);
}

void TestColliders::clothOnSphereNeverPenetrates()
{
    QFETCH(int, solver);
    const bool springs = solver == int(SolverKind::Springs);
    Simulation sim = makeSim(SolverKind(solver), springs ? 30 : 10);
    sim.world.airDamping = 0.2f;
    Collider ball;
    ball.kind = ColliderKind::Sphere;
    ball.center = ball.baseCenter = { 0.f, 0.5f, 0.f };
    ball.radius = 0.3f;
    ball.thickness = 0.004f;
    sim.colliders.push_back(ball);
    sim.cloths.push_back(lyingCloth(1.f, springs));
    const Cloth &c = sim.cloths[0];
    const float clearance = ball.radius + ball.thickness + c.thickness;
    for (int f = 0; f < 120; ++f) {
        sim.step();
        QVERIFY2(!sim.status().blownUp, sim.status().message.c_str());
        for (std::size_t i = 0; i < c.particles.size(); ++i) {
            const float d = length(c.particles.position[i] - ball.center);
            QVERIFY2(d >= clearance - 1e-5f,
                qPrintable(QString("frame %1 particle %2: %3 < %4").arg(f).arg(i).arg(d).arg(clearance)));
        }
    }
    // The cloth came to lie on the ball: its middle is on top of it, its corners below.
    const Particles &p = c.particles;
    const std::uint32_t middle = 8 * 16 + 8;
    QVERIFY(std::fabs(p.position[middle].y - (ball.center.y + clearance)) < 0.03f);
    QVERIFY(p.position[0].y < ball.center.y + 0.3f);
}

void TestColliders::clothOnGroundNeverPenetrates_data()
{
    clothOnSphereNeverPenetrates_data();
}

void TestColliders::clothOnGroundNeverPenetrates()
{
    QFETCH(int, solver);
    const bool springs = solver == int(SolverKind::Springs);
    Simulation sim = makeSim(SolverKind(solver), springs ? 30 : 10);
    Collider ground;
    ground.kind = ColliderKind::Plane;
    ground.center = ground.baseCenter = { 0.f, 0.f, 0.f };
    ground.normal = { 0.f, 1.f, 0.f };
    ground.thickness = 0.002f;
    sim.colliders.push_back(ground);
    Cloth cloth = lyingCloth(0.4f, springs);
    for (std::size_t i = 0; i < cloth.particles.size(); ++i) // tilted, so it lands edge first
        cloth.particles.position[i].y += 0.3f * cloth.particles.position[i].x;
    sim.cloths.push_back(cloth);
    const Cloth &c = sim.cloths[0];
    const float clearance = ground.thickness + c.thickness;
    float lowest = 1.f;
    for (int f = 0; f < 90; ++f) {
        sim.step();
        QVERIFY2(!sim.status().blownUp, sim.status().message.c_str());
        for (std::size_t i = 0; i < c.particles.size(); ++i) {
            QVERIFY2(c.particles.position[i].y >= clearance - 1e-5f,
                qPrintable(
                    QString("frame %1 particle %2: y %3").arg(f).arg(i).arg(c.particles.position[i].y)));
            lowest = std::min(lowest, c.particles.position[i].y);
        }
    }
    QVERIFY(lowest < clearance + 1e-4f); // it did reach the ground
}

void TestColliders::boxKeepsInsideAndBounces_data()
{
    clothOnSphereNeverPenetrates_data();
}

void TestColliders::boxKeepsInsideAndBounces()
{
    // No gravity, 4 m/s towards the +x wall, restitution 0.5: it comes back at 2 m/s.
    QFETCH(int, solver);
    Simulation sim = makeSim(SolverKind(solver), 8);
    sim.world.gravity = {};
    Collider box;
    box.kind = ColliderKind::Box;
    box.keepInside = true;
    box.halfExtents = { 1.f, 1.f, 1.f };
    box.friction = 0.f;
    box.restitution = 0.5f;
    box.thickness = 0.01f;
    sim.colliders.push_back(box);
    sim.cloths.push_back(singleParticle({ 0.f, 0.f, 0.f }, { 4.f, 0.f, 0.f }));
    const float limit = 1.f - box.thickness - sim.cloths[0].thickness;
    for (int f = 0; f < 30; ++f) {
        sim.step();
        const Vec3 x = sim.cloths[0].particles.position[0];
        QVERIFY(std::fabs(x.x) <= limit + 1e-6f && std::fabs(x.y) <= limit + 1e-6f
            && std::fabs(x.z) <= limit + 1e-6f);
    }
    const Vec3 v = sim.cloths[0].particles.velocity[0];
    QVERIFY2(std::fabs(v.x + 2.f) < 1e-3f, qPrintable(QString::number(v.x)));
    QVERIFY(std::fabs(v.y) < 1e-6f && std::fabs(v.z) < 1e-6f);
}

void TestColliders::bounceHeightFollowsRestitution()
{
    // Dropped from height H onto the box floor with restitution e, it rises to e² H.
    Simulation sim = makeSim(SolverKind::Xpbd, 20);
    Collider box;
    box.kind = ColliderKind::Box;
    box.keepInside = true;
    box.halfExtents = { 1.f, 1.f, 1.f };
    box.restitution = 0.6f;
    box.thickness = 0.f;
    sim.colliders.push_back(box);
    sim.cloths.push_back(singleParticle({ 0.f, 0.5f, 0.f }, {}));
    sim.cloths[0].thickness = 0.f;
    const double floor = -1.0, drop = 1.5;
    bool bounced = false;
    double apex = -10.0;
    for (int f = 0; f < 120; ++f) {
        sim.step();
        const Particles &p = sim.cloths[0].particles;
        if (p.velocity[0].y > 0.f)
            bounced = true;
        if (bounced)
            apex = std::max(apex, double(p.position[0].y));
        QVERIFY(p.position[0].y >= float(floor) - 1e-6f);
    }
    QVERIFY(bounced);
    const double expected = floor + 0.36 * drop;
    QVERIFY2(std::fabs(apex - expected) < 0.02 * 0.36 * drop,
        qPrintable(QString("apex %1 expected %2").arg(apex).arg(expected)));
}

void TestColliders::boxOutsidePushesOut()
{
    Simulation sim = makeSim(SolverKind::Xpbd, 4);
    sim.world.gravity = {};
    Collider box;
    box.kind = ColliderKind::Box;
    box.halfExtents = { 0.5f, 0.5f, 0.5f };
    box.thickness = 0.f;
    sim.colliders.push_back(box);
    sim.cloths.push_back(singleParticle({ 0.f, 0.45f, 0.1f }, {}));
    sim.cloths[0].thickness = 0.f;
    sim.step();
    // Least penetration is through the +y face.
    const Vec3 x = sim.cloths[0].particles.position[0];
    QCOMPARE(x.y, 0.5f);
    QCOMPARE(x.z, 0.1f);
}

void TestColliders::coulombFrictionStoppingDistance_data()
{
    clothOnSphereNeverPenetrates_data();
}

void TestColliders::coulombFrictionStoppingDistance()
{
    // Sliding at v0 on ground with friction μ: deceleration μ g, stopping distance v0²/(2 μ g).
    QFETCH(int, solver);
    Simulation sim = makeSim(SolverKind(solver), 20);
    Collider ground;
    ground.kind = ColliderKind::Plane;
    ground.friction = 0.5f;
    ground.thickness = 0.f;
    sim.colliders.push_back(ground);
    sim.cloths.push_back(singleParticle({ 0.f, 0.f, 0.f }, { 2.f, 0.f, 0.f }));
    sim.cloths[0].thickness = 0.f;
    sim.run(60);
    const double expected = 4.0 / (2.0 * 0.5 * kG);
    const Particles &p = sim.cloths[0].particles;
    QVERIFY2(std::fabs(double(p.position[0].x) - expected) < 0.02 * expected,
        qPrintable(QString("stopped at %1, expected %2").arg(p.position[0].x).arg(expected)));
    QVERIFY(std::fabs(p.velocity[0].x) < 1e-3f);
    QVERIFY(std::fabs(p.position[0].y) < 1e-5f);
}

void TestColliders::colliderMotionIsSinusoidal()
{
    Collider c;
    c.baseCenter = { 1.f, 2.f, 3.f };
    c.motion.amplitude = { 0.5f, 0.f, 0.f };
    c.motion.frequency = 0.25f;
    c.motion.phase = 0.f;
    c.updateMotion(1.0); // quarter period: at the crest, at rest
    QVERIFY(std::fabs(c.center.x - 1.5f) < 1e-6f);
    QVERIFY(std::fabs(c.velocity.x) < 1e-6f);
    c.updateMotion(2.0); // half period: back through the centre at -A ω
    QVERIFY(std::fabs(c.center.x - 1.f) < 1e-6f);
    QVERIFY(std::fabs(double(c.velocity.x) + 0.5 * 2.0 * std::numbers::pi * 0.25) < 1e-5);

    // In a simulation the collider is where its motion puts it after every frame.
    Simulation sim = makeSim(SolverKind::Xpbd, 2);
    sim.colliders.push_back(c);
    sim.run(30);
    QVERIFY(std::fabs(double(sim.colliders[0].center.x)
                - (1.0 + 0.5 * std::sin(2.0 * std::numbers::pi * 0.25 * 0.5)))
        < 1e-5);
}

void TestColliders::selfCollisionSeparatesUnconnectedParticles()
{
    // Two unconnected particles 2 mm apart, min distance 2 × 5 mm: pushed to 10 mm, equally
    // (equal masses), the midpoint kept. A connected pair at the same distance is left alone.
    ExplicitSpec spec;
    spec.positions = { { 0.f, 0.f, 0.f }, { 0.002f, 0.f, 0.f }, { 1.f, 0.f, 0.f }, { 1.002f, 0.f, 0.f },
        { 2.f, 0.f, 0.f } };
    spec.masses = { 0.1f, 0.1f, 0.1f, 0.1f, 0.1f };
    DistanceConstraint link;
    link.a = 2;
    link.b = 3;
    link.restLength = 0.002f;
    link.kind = ConstraintKind::User; // sewn: does not set the self-collision cap
    DistanceConstraint far;
    far.a = 0;
    far.b = 4;
    far.restLength = 2.f; // keeps the structural rest length (and so the cap) above 10 mm
    far.compliance = 1.f;
    spec.constraints = { link, far };
    Simulation sim = makeSim(SolverKind::Xpbd, 1);
    sim.world.gravity = {};
    sim.solver.selfCollision = true;
    sim.cloths.push_back(makeExplicit(spec));
    sim.cloths[0].thickness = 0.005f;
    sim.step();
    const Particles &p = sim.cloths[0].particles;
    QVERIFY(std::fabs(length(p.position[1] - p.position[0]) - 0.01f) < 1e-6f);
    QVERIFY(std::fabs(0.5f * (p.position[0].x + p.position[1].x) - 0.001f) < 1e-6f);
    QVERIFY(std::fabs(length(p.position[3] - p.position[2]) - 0.002f) < 1e-6f);

    sim.solver.selfCollision = false; // off: overlapping particles stay where they are
    sim.cloths[0].particles.position[0] = {};
    sim.cloths[0].particles.position[1] = { 0.002f, 0.f, 0.f };
    sim.cloths[0].particles.velocity[0] = sim.cloths[0].particles.velocity[1] = {};
    sim.invalidateHistory();
    sim.step();
    QVERIFY(length(sim.cloths[0].particles.position[1] - sim.cloths[0].particles.position[0]) < 0.003f);
}

void TestColliders::selfCollisionCatchesParticlesThatCloseInOverSubsteps()
{
    // Self-collision pairs are gathered once and reused while no particle has moved half a
    // minimum distance. Two unconnected particles 10 cm apart closing at 2 m/s (3.3 mm per
    // substep, a third of the 10 mm minimum distance) are outside the first gathering; the
    // reuse rule must regather in time so they never come closer than the minimum distance.
    ExplicitSpec spec;
    spec.positions = { { 0.f, 0.f, 0.f }, { 0.1f, 0.f, 0.f }, { 3.f, 0.f, 0.f } };
    spec.masses = { 0.1f, 0.1f, 0.1f };
    DistanceConstraint far;
    far.a = 1;
    far.b = 2;
    far.restLength = 2.9f; // keeps the structural rest length (and so the cap) above 10 mm
    far.compliance = 1.f;
    spec.constraints = { far };
    Simulation sim = makeSim(SolverKind::Xpbd, 10);
    sim.world.gravity = {};
    sim.solver.selfCollision = true;
    sim.cloths.push_back(makeExplicit(spec));
    sim.cloths[0].thickness = 0.005f;
    sim.cloths[0].particles.velocity[0] = { 1.f, 0.f, 0.f };
    sim.cloths[0].particles.velocity[1] = { -1.f, 0.f, 0.f };
    for (int frame = 0; frame < 12; ++frame) {
        sim.step();
        const Particles &p = sim.cloths[0].particles;
        const float d = length(p.position[1] - p.position[0]);
        QVERIFY2(d > 0.01f - 1e-5f, qPrintable(QString("frame %1: %2 m").arg(frame).arg(d)));
    }
    // They met: without self-collision they would have passed each other by now.
    QVERIFY(sim.cloths[0].particles.position[0].x < sim.cloths[0].particles.position[1].x);
    QVERIFY(sim.cloths[0].particles.position[0].x > 0.03f);
}

void TestColliders::foldedClothDoesNotPassThroughItself()
{
    // A strip lying on the ground whose free half is lifted and dropped on the other: with
    // self-collision no two unconnected particles end closer than the minimum distance.
    Simulation sim = makeSim(SolverKind::Xpbd, 10);
    sim.world.airDamping = 0.5f;
    sim.solver.selfCollision = true;
    Collider ground;
    ground.kind = ColliderKind::Plane;
    ground.thickness = 0.f;
    sim.colliders.push_back(ground);
    GridSpec g;
    g.across = 12;
    g.down = 4;
    g.width = 1.1f;
    g.height = 0.3f;
    g.orientation = GridOrientation::Horizontal;
    g.origin = { 0.f, 0.01f, 0.f };
    Cloth c = makeGrid(g);
    c.thickness = 0.02f;
    for (int j = 0; j < g.down; ++j)
        for (int i = 6; i < g.across; ++i) // fold the right half over, 5 cm above
            c.particles.position[gridIndex(g, i, j)]
                = { 1.1f - c.particles.position[gridIndex(g, i, j)].x, 0.06f, float(j) * 0.1f };
    sim.cloths.push_back(c);
    sim.invalidateHistory();
    sim.run(60);
    QVERIFY2(!sim.status().blownUp, sim.status().message.c_str());
    const Particles &p = sim.cloths[0].particles;
    const float minDistance = 0.04f; // 2 × thickness (below the 0.1 m spacing)
    for (int j = 0; j < g.down; ++j) {
        for (int i = 0; i < 6; ++i) {
            for (int k = 7; k < g.across; ++k) {
                const float d = length(p.position[gridIndex(g, i, j)] - p.position[gridIndex(g, k, j)]);
                QVERIFY2(d > 0.9f * minDistance,
                    qPrintable(QString("%1,%2 vs %3: %4").arg(i).arg(j).arg(k).arg(d)));
            }
        }
        // The upper layer rests on the lower one, not on the ground.
        QVERIFY(p.position[gridIndex(g, 9, j)].y > c.thickness + 0.9f * minDistance);
    }
}

void TestColliders::selfPairsAreEveryCloseUnconnectedPairOnce()
{
    // The self-collision hash looks for each pair once, from one side, in half of the
    // neighbouring cells: against every pair by brute force, on a sheet crumpled into a small
    // box, the candidates are exactly the unconnected pairs within its radius, none twice.
    GridSpec g;
    g.across = 30;
    g.down = 24;
    g.width = 0.5f;
    g.height = 0.4f;
    Cloth cloth = makeGrid(g);
    std::uint32_t state = 12345u;
    const auto next = [&state] {
        state = state * 1664525u + 1013904223u;
        return float(state >> 8) / float(1u << 24);
    };
    for (Vec3 &x : cloth.particles.position)
        x = Vec3 { next(), next(), next() } * 0.12f + Vec3 { -5.f, 2.f, 7.f };
    cloth.particles.setKind(0, ParticleKind::Static);
    cloth.particles.setKind(1, ParticleKind::Static); // a pinned pair is no candidate
    detail::ClothSolverCache cache;
    cache.ensure(cloth);
    const float minDistance = 0.01f;
    const std::vector<Vec3> before = cloth.particles.position;
    detail::solveSelfCollision(cloth, cache, minDistance);
    QVERIFY(cache.selfPairsValid);
    const float radius = 2.f * minDistance; // the gather's reach: distance plus slack
    std::set<std::pair<std::uint32_t, std::uint32_t>> expected;
    const std::size_t n = before.size();
    for (std::uint32_t i = 0; i < n; ++i) {
        for (std::uint32_t j = i + 1; j < n; ++j) {
            if (cloth.particles.invMass[i] + cloth.particles.invMass[j] == 0.f || cache.adjacent(i, j))
                continue;
            if (lengthSquared(before[j] - before[i]) < radius * radius)
                expected.insert({ i, j });
        }
    }
    QVERIFY(expected.size() > 500);
    std::set<std::pair<std::uint32_t, std::uint32_t>> found;
    for (std::size_t k = 0; k < cache.selfPairs.size(); k += 2) {
        const std::pair<std::uint32_t, std::uint32_t> pair { cache.selfPairs[k], cache.selfPairs[k + 1] };
        QVERIFY(pair.first < pair.second);
        QVERIFY2(found.insert(pair).second, "a pair listed twice");
    }
    QCOMPARE(found, expected);
}

void TestColliders::selfPairsComeInSearchOrder()
{
    // The solve pushes the pairs apart in the order they are listed, so that order is part
    // of the result: the order of a search particle by particle. For particle i, in cells of
    // the gather's radius: its own cell (partners of higher index), then the 13 neighbouring
    // cells with (dz, dy, dx) lexicographically positive, in ascending (dz, dy, dx); each
    // cell's particles by ascending index. Checked against that search done by brute force,
    // on sheets crumpled into boxes of 4 to 60 cells across (sparse ones spread over most of
    // the hash table, dense ones share few buckets), and on sheets torn into clusters of four
    // particles strewn over a 100-cell box (close pairs in cells all over the table, some at
    // its end, where a row's buckets wrap round to its start).
    const std::pair<float, int> layouts[] = { { 0.08f, 1 }, { 0.12f, 1 }, { 0.4f, 1 }, { 1.2f, 1 }, { 2.f, 4 },
        { 2.f, 4 }, { 2.f, 4 } };
    std::uint32_t state = 777u;
    const auto next = [&state] {
        state = state * 1664525u + 1013904223u;
        return float(state >> 8) / float(1u << 24);
    };
    for (const auto &[box, cluster] : layouts) {
        GridSpec g;
        g.across = 30;
        g.down = 24;
        Cloth cloth = makeGrid(g);
        Vec3 centre;
        for (std::size_t q = 0; q < cloth.particles.size(); ++q) {
            if (q % std::size_t(cluster) == 0)
                centre = Vec3 { next(), next(), next() } * box + Vec3 { -0.3f, 1.f, 0.2f };
            const float spread = cluster > 1 ? 0.012f : 0.f;
            cloth.particles.position[q] = centre + Vec3 { next(), next(), next() } * spread;
        }
        cloth.particles.setKind(5, ParticleKind::Static);
        cloth.particles.setKind(6, ParticleKind::Static);
        detail::ClothSolverCache cache;
        cache.ensure(cloth);
        const float minDistance = 0.01f;
        const std::vector<Vec3> before = cloth.particles.position;
        detail::solveSelfCollision(cloth, cache, minDistance);

        const float radius = 2.f * minDistance; // the gather's reach and cell size
        const float inv = 1.f / radius;
        using Cell = std::array<std::int64_t, 3>;
        const auto cellOf = [inv](const Vec3 &x) {
            return Cell { std::int64_t(std::floor(double(x.x) * double(inv))),
                std::int64_t(std::floor(double(x.y) * double(inv))), std::int64_t(std::floor(double(x.z) * double(inv))) };
        };
        std::vector<Cell> offsets; // (dx, dy, dz), in ascending (dz, dy, dx) from (0, 0, 0)
        for (int dz = 0; dz <= 1; ++dz)
            for (int dy = -1; dy <= 1; ++dy)
                for (int dx = -1; dx <= 1; ++dx)
                    if (std::array { dz, dy, dx } >= std::array { 0, 0, 0 })
                        offsets.push_back({ dx, dy, dz });
        QCOMPARE(offsets.size(), std::size_t(14));
        const Particles &p = cloth.particles;
        std::vector<std::uint32_t> expected;
        const auto n = std::uint32_t(before.size());
        for (std::uint32_t i = 0; i < n; ++i) {
            const Cell ci = cellOf(before[i]);
            for (std::size_t k = 0; k < offsets.size(); ++k) {
                const Cell target { ci[0] + offsets[k][0], ci[1] + offsets[k][1], ci[2] + offsets[k][2] };
                for (std::uint32_t j = 0; j < n; ++j) {
                    if (cellOf(before[j]) != target || (k == 0 && j <= i))
                        continue;
                    if (p.invMass[i] + p.invMass[j] == 0.f || cache.adjacent(i, j)
                        || !(lengthSquared(before[j] - before[i]) < radius * radius))
                        continue;
                    expected.push_back(std::min(i, j));
                    expected.push_back(std::max(i, j));
                }
            }
        }
        QVERIFY2(expected.size() > 2 * 50 || (box > 1.f && cluster == 1), qPrintable(QString::number(expected.size())));
        QVERIFY(cache.selfPairs == expected);
    }
}

void TestColliders::selfPairsOutliveMotionOfTheWhole()
{
    // Candidate pairs are gathered again only when two particles may have closed in by more
    // than the slack: a cloth moving as a whole keeps them, relative motion beyond the slack
    // does not. Unconnected particles 1.5 minimum distances apart: every neighbour is a
    // candidate, none is pushed.
    const float minDistance = 0.01f; // the slack is one minimum distance
    ExplicitSpec spec;
    for (int i = 0; i < 10; ++i) {
        for (int j = 0; j < 10; ++j) {
            spec.positions.push_back({ 1.5f * minDistance * float(i), 1.f, 1.5f * minDistance * float(j) });
            spec.masses.push_back(0.01f);
        }
    }
    Cloth cloth = makeExplicit(spec);
    detail::ClothSolverCache cache;
    cache.ensure(cloth);
    QCOMPARE(detail::solveSelfCollision(cloth, cache, minDistance), 0u);
    QVERIFY(!cache.selfPairs.empty());
    const std::vector<Vec3> anchor = cache.selfPairsAnchor;
    QVERIFY(cloth.particles.position == anchor);
    // All of it by three slacks: each particle moved far, all by the same vector, so no two
    // closed in. The pairs stay.
    for (Vec3 &x : cloth.particles.position)
        x += Vec3 { 2.7f * minDistance, 1.3f * minDistance, 0.f };
    detail::solveSelfCollision(cloth, cache, minDistance);
    QVERIFY(cache.selfPairsAnchor == anchor);
    // Half of it 0.9 slack further: pairs across the halves closed in by at most that, still
    // covered by the slack. The pairs stay.
    const std::size_t half = cloth.particles.size() / 2;
    for (std::size_t i = 0; i < half; ++i)
        cloth.particles.position[i] += Vec3 { 0.9f * minDistance, 0.f, 0.f };
    detail::solveSelfCollision(cloth, cache, minDistance);
    QVERIFY(cache.selfPairsAnchor == anchor);
    // And 0.2 slack more: beyond what the slack covers. Gathered again, from the positions now.
    for (std::size_t i = 0; i < half; ++i)
        cloth.particles.position[i] += Vec3 { 0.2f * minDistance, 0.f, 0.f };
    const std::vector<Vec3> moved = cloth.particles.position;
    detail::solveSelfCollision(cloth, cache, minDistance);
    QVERIFY(cache.selfPairsAnchor == moved);
}

void TestColliders::selfPairsOutliveTurningOfTheWhole()
{
    // A sheet turning as a whole moves its far ends apart fast and its neighbours slowly: the
    // pairs stay while every two neighbouring coarse cells (four gather cells a side, 0.08 m
    // here) closed in by less than the slack, though the whole sheet's displacements spread
    // over more than the slack; they are gathered again when a neighbourhood closes in by more,
    // or when the whole spreads over more than what coarse cells with one between them were
    // apart (0.07 m here).
    const float minDistance = 0.01f; // slack 0.01 m, gather cells 0.02 m
    const auto turnedSheet = [&](float size, int across, float radians, float again) {
        Cloth cloth = makeGrid({ .across = across,
            .down = across,
            .width = size,
            .height = size,
            .orientation = GridOrientation::Horizontal });
        detail::ClothSolverCache cache;
        cache.ensure(cloth);
        detail::solveSelfCollision(cloth, cache, minDistance);
        const std::vector<Vec3> anchor = cache.selfPairsAnchor;
        Vec3 centre;
        for (const Vec3 &x : anchor)
            centre += x / float(anchor.size());
        const auto turn = [&](float by) {
            const Mat3 r = axisRotation({ 0.f, 1.f, 0.f }, by);
            for (std::size_t i = 0; i < anchor.size(); ++i)
                cloth.particles.position[i] = centre + r * (anchor[i] - centre);
            const std::vector<Vec3> turned = cloth.particles.position, before = cache.selfPairsAnchor;
            detail::solveSelfCollision(cloth, cache, minDistance);
            return cache.selfPairsAnchor == before ? 0 : cache.selfPairsAnchor == turned ? 1 : -1;
        };
        return std::pair { turn(radians), turn(again) };
    };
    // 0.7 m: turned by 0.03 rad, particles of two neighbouring coarse cells (at most 0.23 m
    // apart) closed in by under 0.007 m, the ends (0.99 m apart) by 0.03 m: kept. By 0.06 rad,
    // neighbours by up to 0.014 m and the ends by 0.059 m: gathered again, for the neighbours.
    QCOMPARE(turnedSheet(0.7f, 41, 0.03f, 0.06f), std::pair(0, 1));
    // 3 m: the same turn of 0.03 rad moves the ends (4.2 m apart) by 0.13 m: gathered again
    // (and kept when it turns no further).
    QCOMPARE(turnedSheet(3.f, 61, 0.03f, 0.03f), std::pair(1, 0));
}

void TestColliders::keptSelfPairsHoldEveryClosePair()
{
    // Whenever the gathered pairs are kept, every pair a constraint does not join (and not
    // pinned at both ends) that is closer than the minimum distance must be among them.
    // Checked by brute force against the positions each pass saw, pass after pass: a sheet
    // crumpled into a box five coarse cells across, turned, shifted and shaken a little more
    // at every pass; and two layers of unconnected particles, 0.035 m apart, one turning
    // slowly as it closes in on the other.
    const float minDistance = 0.01f;
    struct Count {
        int kept = 0, keptTurned = 0, gathered = 0;
        std::size_t close = 0;
    };
    const auto passes = [&](Cloth &cloth, int count,
                            const std::function<void(int, std::vector<Vec3> &)> &place) {
        detail::ClothSolverCache cache;
        cache.ensure(cloth);
        Count c;
        const std::size_t n = cloth.particles.size();
        for (int t = 0; t < count; ++t) {
            place(t, cloth.particles.position);
            const std::vector<Vec3> seen = cloth.particles.position;
            const std::vector<Vec3> anchor = cache.selfPairsAnchor;
            detail::solveSelfCollision(cloth, cache, minDistance);
            if (cache.selfPairsAnchor != anchor) {
                ++c.gathered;
                continue;
            }
            ++c.kept;
            Vec3 lo = seen[0] - anchor[0], hi = lo;
            for (std::size_t i = 0; i < n; ++i) {
                const Vec3 d = seen[i] - anchor[i];
                lo = { std::min(lo.x, d.x), std::min(lo.y, d.y), std::min(lo.z, d.z) };
                hi = { std::max(hi.x, d.x), std::max(hi.y, d.y), std::max(hi.z, d.z) };
            }
            c.keptTurned += lengthSquared(hi - lo) > cache.selfPairsSlack * cache.selfPairsSlack ? 1 : 0;
            std::set<std::pair<std::uint32_t, std::uint32_t>> listed;
            for (std::size_t k = 0; k < cache.selfPairs.size(); k += 2)
                listed.insert({ cache.selfPairs[k], cache.selfPairs[k + 1] });
            for (std::uint32_t i = 0; i < n; ++i) {
                for (std::uint32_t j = i + 1; j < n; ++j) {
                    if (cloth.particles.invMass[i] + cloth.particles.invMass[j] == 0.f || cache.adjacent(i, j)
                        || !(lengthSquared(seen[j] - seen[i]) < minDistance * minDistance))
                        continue;
                    ++c.close;
                    if (listed.count({ i, j }) != 1) {
                        QTest::qFail(
                            qPrintable(QStringLiteral("pass %1: particles %2 and %3 are %4 m apart and "
                                                      "not listed")
                                           .arg(t)
                                           .arg(i)
                                           .arg(j)
                                           .arg(double(length(seen[j] - seen[i])))),
                            __FILE__, __LINE__);
                        return c;
                    }
                }
            }
        }
        return c;
    };
    const auto describe = [](const Count &c) {
        return qPrintable(QStringLiteral("kept %1 (%2 spread over the slack), gathered %3, close pairs %4")
                              .arg(c.kept)
                              .arg(c.keptTurned)
                              .arg(c.gathered)
                              .arg(c.close));
    };

    std::uint32_t state = 4242u;
    const auto next = [&state] {
        state = state * 1664525u + 1013904223u;
        return float(state >> 8) / float(1u << 24);
    };
    GridSpec g;
    g.across = 30;
    g.down = 24;
    Cloth crumpled = makeGrid(g);
    const std::size_t n = crumpled.particles.size();
    std::vector<Vec3> start(n), shake(n);
    for (std::size_t i = 0; i < n; ++i) {
        start[i] = Vec3 { next(), next(), next() } * 0.4f + Vec3 { 0.3f, 1.f, -0.2f };
        shake[i] = Vec3 { next(), next(), next() } * 2.f - Vec3 { 1.f, 1.f, 1.f };
    }
    crumpled.particles.setKind(3, ParticleKind::Static);
    crumpled.particles.setKind(4, ParticleKind::Static);
    const Vec3 centre { 0.5f, 1.2f, 0.f };
    const Vec3 axis = normalized(Vec3 { 0.3f, 1.f, 0.2f }, Vec3 { 0.f, 1.f, 0.f });
    const Count first = passes(crumpled, 120, [&](int t, std::vector<Vec3> &x) {
        const Mat3 r = axisRotation(axis, 0.004f * float(t));
        for (std::size_t i = 0; i < n; ++i)
            x[i] = centre + r * (start[i] - centre) + Vec3 { 0.0007f, -0.0004f, 0.f } * float(t)
                + shake[i] * (0.00015f * float(t % 40));
    });
    if (QTest::currentTestFailed())
        return;
    QVERIFY2(
        first.kept > 40 && first.keptTurned > 10 && first.gathered > 5 && first.close > 100, describe(first));

    ExplicitSpec layers;
    for (int layer = 0; layer < 2; ++layer)
        for (int i = 0; i < 16; ++i)
            for (int j = 0; j < 16; ++j) {
                layers.positions.push_back(
                    { 0.015f * float(i), 1.f + 0.035f * float(layer), 0.015f * float(j) });
                layers.masses.push_back(0.01f);
            }
    Cloth twoLayers = makeExplicit(layers);
    const std::vector<Vec3> flat = twoLayers.particles.position;
    const Count second = passes(twoLayers, 40, [&](int t, std::vector<Vec3> &x) {
        const Mat3 r = axisRotation({ 0.f, 1.f, 0.f }, 0.002f * float(t));
        for (std::size_t i = flat.size() / 2; i < flat.size(); ++i)
            x[i] = r * flat[i] - Vec3 { 0.f, 0.0015f * float(t), 0.f };
    });
    if (QTest::currentTestFailed())
        return;
    QVERIFY2(second.kept > 5 && second.gathered > 2 && second.close > 100, describe(second));
}

void TestColliders::selfPushedListsThisPassOnly()
{
    // The particles a self-collision pass moved are the ones whose offsets are taken back
    // after it, so the list holds this pass's only: after a pass that pushed particles of a
    // large cloth, a pass that does nothing (no distance to keep, or a single particle)
    // leaves it empty, and no index of the earlier cloth is left to reach past a smaller one.
    ExplicitSpec spec;
    for (int i = 0; i < 40; ++i) {
        spec.positions.push_back({ 0.004f * float(i), 1.f, 0.f });
        spec.masses.push_back(0.01f);
    }
    Cloth large = makeExplicit(spec);
    detail::ClothSolverCache cache;
    cache.ensure(large);
    QVERIFY(detail::solveSelfCollision(large, cache, 0.01f) > 0);
    QVERIFY(!cache.selfPushed.empty());
    QVERIFY(*std::max_element(cache.selfPushed.begin(), cache.selfPushed.end()) >= 2);
    QCOMPARE(detail::solveSelfCollision(large, cache, 0.f), 0u);
    QVERIFY(cache.selfPushed.empty());
    QVERIFY(detail::solveSelfCollision(large, cache, 0.01f) > 0);
    ExplicitSpec one;
    one.positions.push_back({ 0.f, 1.f, 0.f });
    one.masses.push_back(0.01f);
    Cloth single = makeExplicit(one);
    QCOMPARE(detail::solveSelfCollision(single, cache, 0.01f), 0u);
    QVERIFY(cache.selfPushed.empty());
}

void TestColliders::particlePinnedWhileMovingStopsDead()
{
    // A particle pinned while it swings keeps its place with no velocity at the end of every
    // frame after, among moving neighbours (the particle passes update sixteen at a time and
    // must leave it out), on the full substeps a collider asks for and on the plain ones.
    for (const bool farCollider : { true, false }) {
        Simulation sim = makeSim(SolverKind::Xpbd, 10);
        if (farCollider)
            addFarCollider(sim);
        GridSpec g;
        g.across = 20;
        g.down = 20;
        g.orientation = GridOrientation::Horizontal; // swings down from its pinned edge
        g.origin = { -0.5f, 1.5f, 0.f };
        Cloth c = makeGrid(g);
        for (int i = 0; i < g.across; ++i)
            c.particles.setKind(gridIndex(g, i, 0), ParticleKind::Static);
        sim.cloths.push_back(c);
        sim.run(20);
        const std::uint32_t k = gridIndex(g, 9, 14);
        Particles &p = sim.cloths[0].particles;
        QVERIFY(length(p.velocity[k]) > 0.1f); // swinging
        p.setKind(k, ParticleKind::Static);
        const Vec3 held = p.position[k];
        for (int f = 0; f < 5; ++f) {
            sim.step();
            QVERIFY(!sim.status().blownUp);
            QVERIFY(p.velocity[k] == Vec3 {});
            QVERIFY(std::signbit(p.velocity[k].x) == false && std::signbit(p.velocity[k].y) == false);
            QVERIFY(p.position[k] == held);
            QVERIFY(length(p.velocity[k + 1]) > 0.f); // its neighbours still move
        }
    }
}

void TestColliders::selfCollisionAloneGivesTheFullSubstepsBits()
{
    // A strip folded over itself in the air, held along one edge (pins and one particle
    // moved from outside), with self-collision and
    // nothing else acting between the solves: XPBD folds each substep's end into the next
    // one's prediction (plainButSelfCollision). The same scene with a collider far away
    // steps every substep in full; both must give the same bits, frame by frame, and the
    // self-collision must have acted (the run without it differs).
    const auto scene = [](bool farCollider, bool selfCollision) {
        Simulation sim = makeSim(SolverKind::Xpbd, 12);
        sim.world.airDamping = 0.2f;
        sim.solver.selfCollision = selfCollision;
        if (farCollider)
            addFarCollider(sim);
        GridSpec g;
        g.across = 14;
        g.down = 5;
        g.width = 1.3f;
        g.height = 0.4f;
        g.orientation = GridOrientation::Horizontal;
        g.origin = { 0.f, 1.f, 0.f };
        Cloth c = makeGrid(g);
        c.thickness = 0.02f;
        for (int j = 0; j < g.down; ++j) {
            // One edge particle is kinematic (moved before every frame below), the rest pinned.
            c.particles.setKind(gridIndex(g, 0, j), j == 2 ? ParticleKind::Kinematic : ParticleKind::Static);
            for (int i = 7; i < g.across; ++i) // the right half folded over, 3 cm above
                c.particles.position[gridIndex(g, i, j)]
                    = { 1.3f - c.particles.position[gridIndex(g, i, j)].x, 1.03f, float(j) * 0.1f };
        }
        sim.cloths.push_back(c);
        sim.invalidateHistory();
        return sim;
    };
    Simulation folded = scene(false, true), full = scene(true, true), without = scene(false, false);
    bool acted = false;
    const std::uint32_t moved = gridIndex(GridSpec { .across = 14, .down = 5 }, 0, 2);
    for (int frame = 0; frame < 40; ++frame) {
        for (Simulation *sim : { &folded, &full, &without })
            sim->cloths[0].particles.position[moved].y = 1.f + 0.004f * float(frame);
        folded.step();
        full.step();
        without.step();
        QVERIFY2(!folded.status().blownUp, folded.status().message.c_str());
        const Particles &a = folded.cloths[0].particles, &b = full.cloths[0].particles;
        QVERIFY2(std::memcmp(a.position.data(), b.position.data(), a.size() * sizeof(Vec3)) == 0
                && std::memcmp(a.velocity.data(), b.velocity.data(), a.size() * sizeof(Vec3)) == 0
                && std::memcmp(a.previous.data(), b.previous.data(), a.size() * sizeof(Vec3)) == 0,
            qPrintable(QString("frame %1").arg(frame)));
        acted |= std::memcmp(a.position.data(), without.cloths[0].particles.position.data(), a.size() * sizeof(Vec3))
            != 0;
    }
    QVERIFY(acted);
}

QTEST_APPLESS_MAIN(TestColliders)
#include "tst_colliders.moc"
