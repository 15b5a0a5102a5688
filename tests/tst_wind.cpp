// Wind on triangles: the closed-form drag and lift of a flat triangle, zero force edge-on,
// a hanging cloth blown downwind, and the AVX2 loop against the scalar one.
#include "forces.h"
#include "sim/builders.h"
#include "sim/simulation.h"
#include "xpbdkernel.h"

#include <QTest>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>

using namespace drape;

namespace {

// A right triangle of area ½ in the XY plane (normal +Z), at rest.
Cloth oneTriangle()
{
    ExplicitSpec spec;
    spec.positions = { { 0.f, 0.f, 0.f }, { 1.f, 0.f, 0.f }, { 0.f, 1.f, 0.f } };
    spec.masses = { 1.f, 1.f, 1.f };
    spec.triangles = { { { 0, 1, 2 } } };
    return makeExplicit(spec);
}

// The wind's force on each particle of `c`, from none.
std::vector<Vec3> windForces(const Cloth &c, const WindSettings &w, const Vec3 &flow)
{
    std::vector<Vec3> force(c.particles.size());
    addWindForces(c, w, flow, force.data());
    return force;
}

Vec3 totalForce(const std::vector<Vec3> &force)
{
    Vec3 f;
    for (const Vec3 &fi : force)
        f += fi;
    return f;
}

} // namespace

class TestWind : public QObject {
    Q_OBJECT

private slots:
    void faceOnDragMatchesClosedForm();
    void edgeOnGetsNoForce();
    void liftAtFortyFiveDegrees();
    void movingWithTheWindFeelsNothing();
    void hangingClothBlowsDownwind();
    void eightAtATimeKeepsTheBits();
};

void TestWind::faceOnDragMatchesClosedForm()
{
    // F = ½ ρ C_d A v² along the normal: ½ · 1.2 · 1.0 · 0.5 · 25 = 7.5 N.
    Cloth c = oneTriangle();
    WindSettings w;
    w.airDensity = 1.2f;
    w.dragCoefficient = 1.f;
    w.liftCoefficient = 0.3f; // no lift face-on: sin θ = 0
    const std::vector<Vec3> force = windForces(c, w, { 0.f, 0.f, 5.f });
    const Vec3 f = totalForce(force);
    QVERIFY(std::fabs(f.z - 7.5f) < 1e-4f);
    QVERIFY(std::fabs(f.x) < 1e-5f && std::fabs(f.y) < 1e-5f);
    // Spread equally over the corners.
    QVERIFY(std::fabs(force[0].z - 2.5f) < 1e-5f);
    // Wind from behind pushes the other way.
    QVERIFY(std::fabs(totalForce(windForces(c, w, { 0.f, 0.f, -5.f })).z + 7.5f) < 1e-4f);
}

void TestWind::edgeOnGetsNoForce()
{
    Cloth c = oneTriangle();
    WindSettings w;
    w.liftCoefficient = 0.5f;
    QVERIFY(length(totalForce(windForces(c, w, { 8.f, 3.f, 0.f }))) < 1e-5f); // in the triangle's plane
}

void TestWind::liftAtFortyFiveDegrees()
{
    // Flow at 45° to the normal: drag ½ρC_d A v² cos45° along n, lift ½ρC_l A v² cos45° sin45°
    // perpendicular to the flow.
    Cloth c = oneTriangle();
    WindSettings w;
    w.airDensity = 1.f;
    w.dragCoefficient = 1.f;
    w.liftCoefficient = 0.f;
    const float s = std::sqrt(0.5f);
    const Vec3 flow { 4.f * s, 0.f, 4.f * s }; // |v| = 4
    const Vec3 drag = totalForce(windForces(c, w, flow));
    QVERIFY(std::fabs(drag.z - 0.5f * 0.5f * 16.f * s) < 1e-4f);
    QVERIFY(std::fabs(drag.x) < 1e-5f);

    Cloth d = oneTriangle();
    w.dragCoefficient = 0.f;
    w.liftCoefficient = 1.f;
    const Vec3 lift = totalForce(windForces(d, w, flow));
    QVERIFY(std::fabs(length(lift) - 0.5f * 0.5f * 16.f * 0.5f) < 1e-4f);
    QVERIFY(std::fabs(dot(lift, flow)) < 1e-4f); // perpendicular to the flow
    QVERIFY(lift.z > 0.f); // towards the downstream side of the normal
}

void TestWind::movingWithTheWindFeelsNothing()
{
    Cloth c = oneTriangle();
    for (Vec3 &v : c.particles.velocity)
        v = { 0.f, 0.f, 5.f };
    QVERIFY(length(totalForce(windForces(c, WindSettings {}, { 0.f, 0.f, 5.f }))) < 1e-6f);
}

void TestWind::hangingClothBlowsDownwind()
{
    for (float dir : { 1.f, -1.f }) {
        Simulation sim;
        sim.world.wind.speed = 6.f;
        sim.world.wind.direction = { 0.f, 0.f, dir };
        GridSpec g;
        g.across = 10;
        g.down = 10;
        Cloth c = makeGrid(g);
        for (int i = 0; i < g.across; ++i)
            c.particles.setKind(gridIndex(g, i, 0), ParticleKind::Static);
        sim.cloths.push_back(c);
        sim.run(90);
        double meanZ = 0.0;
        for (const Vec3 &x : sim.cloths[0].particles.position)
            meanZ += double(x.z);
        meanZ /= double(sim.cloths[0].particles.size());
        QVERIFY2(meanZ * double(dir) > 0.1, qPrintable(QString("mean z %1").arg(meanZ)));
        // The wind lifts the cloth from hanging straight down: the bottom row rises.
        QVERIFY(sim.cloths[0].particles.position[gridIndex(g, 5, 9)].y > 0.5f + 0.05f);
    }
}

void TestWind::eightAtATimeKeepsTheBits()
{
    // addWindForcesAvx2 (eight triangles at a time, the shares added in the triangles' order)
    // against the scalar loop, bit for bit: a crumpled sheet in random motion whose triangle
    // count is not a multiple of eight, with a zero-area triangle, a triangle moving with the
    // wind, triangles edge-on to it and both signs of v·n; with lift and without.
    if (detail::xpbdKernelIsaOfCpu() < detail::KernelIsa::Avx2)
        QSKIP("the CPU has no AVX2: the wind always runs triangle by triangle");
    GridSpec g;
    g.across = 14;
    g.down = 11;
    Cloth c = makeGrid(g);
    QVERIFY(c.triangles.size() % 8 != 0);
    std::mt19937 random(3);
    std::uniform_real_distribution<float> noise(-1.f, 1.f);
    for (std::size_t i = 0; i < c.particles.size(); ++i) {
        c.particles.position[i]
            += Vec3 { 0.05f * noise(random), 0.05f * noise(random), 0.2f * noise(random) };
        c.particles.velocity[i] = Vec3 { 2.f * noise(random), noise(random), 3.f * noise(random) };
    }
    WindSettings wind;
    wind.speed = 4.f;
    const Vec3 windVel { 4.f, 0.f, 1.f };
    const Triangle &flat = c.triangles[9]; // zero area: its corners on one point
    c.particles.position[flat.v[1]] = c.particles.position[flat.v[0]];
    c.particles.position[flat.v[2]] = c.particles.position[flat.v[0]];
    for (std::uint32_t v : c.triangles[20].v) // moving with the wind: no relative speed
        c.particles.velocity[v] = windVel;
    for (const float lift : { 0.2f, 0.f }) {
        wind.liftCoefficient = lift;
        std::vector<Vec3> force[2];
        for (int path = 0; path < 2; ++path) {
            detail::setXpbdKernelLimit(path == 0 ? detail::KernelIsa::Portable : detail::KernelIsa::Avx2);
            force[path].assign(c.particles.size(), Vec3 { 0.f, -9.81f, 0.f });
            addWindForces(c, wind, windVel, force[path].data());
        }
        detail::setXpbdKernelLimit(detail::KernelIsa::Avx512);
        QVERIFY(std::memcmp(force[0].data(), force[1].data(), force[0].size() * sizeof(Vec3)) == 0);
        QVERIFY(std::any_of(force[0].begin(), force[0].end(), [](const Vec3 &f) { return f.x != 0.f; }));
    }
}

QTEST_APPLESS_MAIN(TestWind)
#include "tst_wind.moc"
