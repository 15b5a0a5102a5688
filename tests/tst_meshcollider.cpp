// Mesh and capsule colliders: the hierarchy finds the same closest point as a scan of every
// triangle and visits a bounded number of nodes whatever the mesh size; a cloth dropped on a
// 5,000-triangle mesh sphere ends where it ends on the analytic sphere (within the thickness);
// a capsule holds a particle at radius + margins; a sharp tip does not poke through a coarse
// sheet.
#include "mesh/meshobject.h"
#include "mesh/meshshapes.h"
#include "sim/builders.h"
#include "sim/simulation.h"

#include <QTest>

#include <cmath>
#include <random>

using namespace drape;

namespace {

Simulation dropSim()
{
    Simulation sim;
    sim.world.airDamping = 0.2f;
    sim.solver.kind = SolverKind::Xpbd;
    sim.solver.substeps = 10;
    return sim;
}

Cloth lyingCloth(int n, float size, float y)
{
    GridSpec g;
    g.across = n;
    g.down = n;
    g.width = size;
    g.height = size;
    g.orientation = GridOrientation::Horizontal;
    g.origin = { -0.5f * size, y, -0.5f * size };
    return makeGrid(g);
}

// The mesh collider's centre is its bounding-box centre, which for an odd segment count is a
// fraction of a millimetre off the sphere's centre: offset it so the sphere sits at `centre`.
Collider meshSphere(float radius, int rings, int segments, Vec3 centre)
{
    Collider c = meshToCollider(makeUvSphereMesh(radius, rings, segments), "mesh ball");
    c.center = c.baseCenter = centre + c.center;
    c.thickness = 0.004f;
    return c;
}

} // namespace

class TestMeshCollider : public QObject {
    Q_OBJECT

private slots:
    void closestPointMatchesBruteForce();
    void queryWorkDoesNotGrowWithMeshSize();
    void clothRestsOnMeshSphereLikeOnAnalyticSphere();
    void capsuleHoldsParticleAtRadius();
    void sharpTipDoesNotPierceCoarseSheet();
    void insideParticleIsPushedOut();
};

void TestMeshCollider::closestPointMatchesBruteForce()
{
    const MeshGeometry g = makeUvSphereMesh(0.5f, 20, 30);
    const TriangleMesh mesh(g.positions, g.triangles);
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> u(-0.8f, 0.8f);
    for (int k = 0; k < 500; ++k) {
        const Vec3 p { u(rng), u(rng), u(rng) };
        float best = 1e30f;
        for (const Triangle &t : g.triangles) {
            // Brute force: the minimum over a fine barycentric sampling is an upper bound,
            // exact enough (1 mm) to catch a wrong subtree or feature.
            for (int i = 0; i <= 20; ++i)
                for (int j = 0; i + j <= 20; ++j) {
                    const float a = float(i) / 20.f, b = float(j) / 20.f;
                    const Vec3 q = g.positions[t.v[0]] * (1.f - a - b) + g.positions[t.v[1]] * a
                        + g.positions[t.v[2]] * b;
                    best = std::min(best, length(p - q));
                }
        }
        MeshHit hit;
        QVERIFY(mesh.closestPoint(p, 10.f, hit));
        const float d = std::sqrt(hit.distanceSquared);
        QVERIFY2(d <= best + 1e-6f && d > best - 0.01f, qPrintable(QString("%1 vs %2").arg(d).arg(best)));
        // The pseudo-normal tells inside from outside of the closed sphere.
        const bool outside = length(p) > length(hit.point);
        QCOMPARE(dot(p - hit.point, hit.normal) >= 0.f, outside);
    }
}

void TestMeshCollider::queryWorkDoesNotGrowWithMeshSize()
{
    // The same query near the surface of a 5,000- and a 50,000-triangle sphere: the nodes and
    // triangles visited stay within a small bound (the touched area is the same), and a point
    // far away costs one box test.
    const MeshGeometry small = makeUvSphereMesh(0.5f, 50, 51);
    const MeshGeometry large = makeUvSphereMesh(0.5f, 158, 159);
    QVERIFY(small.triangles.size() >= 4998 && small.triangles.size() < 5100);
    QVERIFY(large.triangles.size() >= 49800 && large.triangles.size() < 50500);
    const TriangleMesh a(small.positions, small.triangles), b(large.positions, large.triangles);
    std::uint32_t workA = 0, workB = 0, maxA = 0, maxB = 0;
    std::mt19937 rng(3);
    std::normal_distribution<float> n(0.f, 1.f);
    for (int k = 0; k < 200; ++k) {
        const Vec3 p = normalized({ n(rng), n(rng), n(rng) }) * 0.505f;
        MeshHit hit;
        QVERIFY(a.closestPoint(p, 0.01f, hit, &workA));
        QVERIFY(b.closestPoint(p, 0.01f, hit, &workB));
        maxA = std::max(maxA, workA);
        maxB = std::max(maxB, workB);
    }
    // A 1 cm ball touches a few dozen triangles of the fine mesh; log2(50,000/4) ≈ 14 levels.
    QVERIFY2(maxB < 400, qPrintable(QString::number(maxB)));
    QVERIFY2(maxA < 400, qPrintable(QString::number(maxA)));
    MeshHit hit;
    std::uint32_t far = 0;
    QVERIFY(!b.closestPoint({ 3.f, 0.f, 0.f }, 0.01f, hit, &far));
    QCOMPARE(far, 1u);
}

void TestMeshCollider::clothRestsOnMeshSphereLikeOnAnalyticSphere()
{
    // A 16 × 16 cloth of 0.5 m dropped from 0.1 m above a 0.3 m ball, once on the analytic
    // sphere and once on a mesh sphere of 5,000 triangles with its vertices on that sphere.
    // (A cloth much larger than the ball folds into wrinkles whose places depend on every
    // contact, so two runs on slightly different surfaces end in different folds; this one
    // rests without folding.) The mesh's flat faces lie inside the sphere by at most `sag`,
    // the radius minus the nearest face plane's distance from the centre (≈ 0.7 mm).
    const Vec3 centre { 0.f, 0.5f, 0.f };
    Simulation analytic = dropSim(), meshed = dropSim();
    Collider ball;
    ball.kind = ColliderKind::Sphere;
    ball.center = ball.baseCenter = centre;
    ball.radius = 0.3f;
    ball.thickness = 0.004f;
    analytic.colliders.push_back(ball);
    const Collider mesh = meshSphere(0.3f, 50, 51, centre);
    QVERIFY(mesh.mesh->triangles().size() >= 4998);
    meshed.colliders.push_back(mesh);
    analytic.cloths.push_back(lyingCloth(16, 0.5f, 0.9f));
    meshed.cloths.push_back(lyingCloth(16, 0.5f, 0.9f));
    float sag = 0.f;
    const MeshGeometry g = makeUvSphereMesh(0.3f, 50, 51);
    for (const Triangle &t : g.triangles) {
        const Vec3 &a = g.positions[t.v[0]], &b = g.positions[t.v[1]], &c = g.positions[t.v[2]];
        sag = std::max(sag, 0.3f - std::fabs(dot(a, normalized(cross(b - a, c - a)))));
    }
    QVERIFY(sag > 0.f && sag < 0.001f);
    const float clearance = ball.radius + ball.thickness + analytic.cloths[0].thickness;
    for (int f = 0; f < 200; ++f) {
        analytic.step();
        meshed.step();
        QVERIFY2(!meshed.status().blownUp, meshed.status().message.c_str());
        for (const Vec3 &p : meshed.cloths[0].particles.position) {
            const float d = length(p - centre);
            QVERIFY2(d >= clearance - sag - 1e-4f,
                qPrintable(QString("frame %1: %2 < %3").arg(f).arg(d).arg(clearance)));
        }
    }
    // Every particle ends where the analytic run put it, within the cloth's thickness; and the
    // cloth does rest on the ball (a good part of it touches the cap).
    const Particles &pa = analytic.cloths[0].particles, &pm = meshed.cloths[0].particles;
    const float thickness = analytic.cloths[0].thickness;
    int touching = 0;
    for (std::size_t i = 0; i < pa.size(); ++i) {
        const float diff = length(pa.position[i] - pm.position[i]);
        QVERIFY2(diff <= thickness, qPrintable(QString("particle %1 differs by %2 m").arg(i).arg(diff)));
        touching += length(pa.position[i] - centre) < clearance + 0.002f ? 1 : 0;
        QVERIFY(pa.position[i].y > centre.y); // resting on top, not slid off
    }
    QVERIFY2(touching > 100, qPrintable(QString::number(touching)));
}

void TestMeshCollider::capsuleHoldsParticleAtRadius()
{
    Simulation sim = dropSim();
    Collider cap;
    cap.kind = ColliderKind::Capsule;
    cap.center = cap.baseCenter = { 0.f, 0.5f, 0.f };
    cap.axis = { 1.f, 0.f, 0.f };
    cap.halfLength = 0.5f;
    cap.radius = 0.1f;
    cap.thickness = 0.004f;
    sim.colliders.push_back(cap);
    ExplicitSpec spec;
    spec.positions = { { 0.3f, 1.f, 0.f }, { 0.8f, 1.f, 0.f } }; // over the side, over the end cap
    spec.masses = { 0.1f, 0.1f };
    sim.cloths.push_back(makeExplicit(spec));
    sim.run(120);
    const Particles &p = sim.cloths[0].particles;
    const float rest = cap.center.y + cap.radius + cap.thickness + sim.cloths[0].thickness;
    QVERIFY2(std::fabs(p.position[0].y - rest) < 1e-3f, qPrintable(QString::number(p.position[0].y)));
    QVERIFY(std::fabs(p.position[0].x - 0.3f) < 1e-3f);
    // Beyond the segment's end the cap is a sphere about (0.5, 0.5, 0): the particle slid off it.
    QVERIFY(length(p.position[1] - Vec3 { 0.5f, 0.5f, 0.f }) >= cap.radius + cap.thickness - 1e-4f);
}

void TestMeshCollider::sharpTipDoesNotPierceCoarseSheet()
{
    // A 2 × 2-particle sheet of 1 m (two triangles) dropped centrally on a narrow spike whose tip
    // is far from every particle: only the triangle-against-tip pass can hold it.
    MeshGeometry spike;
    spike.positions = { { -0.05f, 0.f, -0.05f }, { 0.05f, 0.f, -0.05f }, { 0.05f, 0.f, 0.05f },
        { -0.05f, 0.f, 0.05f }, { 0.f, 0.6f, 0.f } };
    spike.triangles = { { { 0, 4, 1 } }, { { 1, 4, 2 } }, { { 2, 4, 3 } }, { { 3, 4, 0 } }, { { 0, 1, 2 } },
        { { 0, 2, 3 } } };
    Collider c = meshToCollider(spike, "spike");
    QVERIFY(!c.mesh->sharpVertices().empty());
    QVERIFY(c.mesh->vertexNormal(4).y > 0.99f); // the tip's normal points up
    Simulation sim = dropSim();
    sim.world.airDamping = 1.f;
    sim.colliders.push_back(c);
    Cloth sheet = lyingCloth(2, 1.f, 0.8f);
    // Turn it a little so the tip is under a triangle's inside, not its diagonal.
    for (Vec3 &x : sheet.particles.position)
        x += Vec3 { 0.11f, 0.f, 0.07f };
    sheet.particles.rest = sheet.particles.previous = sheet.particles.position;
    sim.cloths.push_back(sheet);
    // A sheet balanced on an off-centre point tips over and slides off, as it should; until it
    // does, the sheet above the tip (the triangle whose ground plan holds it) stays above it.
    const float tip = c.center.y + 0.3f;
    const float margin = c.thickness + sim.cloths[0].thickness;
    int held = 0;
    for (int f = 0; f < 90; ++f) {
        sim.step();
        QVERIFY(!sim.status().blownUp);
        const Cloth &cloth = sim.cloths[0];
        for (const Triangle &t : cloth.triangles) {
            const Vec3 &a = cloth.particles.position[t.v[0]], &b = cloth.particles.position[t.v[1]],
                       &d = cloth.particles.position[t.v[2]];
            // Barycentric coordinates of the tip's ground point (0, 0) in the triangle's plan.
            const float det = (b.x - a.x) * (d.z - a.z) - (d.x - a.x) * (b.z - a.z);
            const float u = ((0.f - a.x) * (d.z - a.z) - (d.x - a.x) * (0.f - a.z)) / det;
            const float v = ((b.x - a.x) * (0.f - a.z) - (0.f - a.x) * (b.z - a.z)) / det;
            if (!(u > 0.02f && v > 0.02f && u + v < 0.98f))
                continue;
            const float height = a.y + u * (b.y - a.y) + v * (d.y - a.y);
            QVERIFY2(height > tip + 0.5f * margin,
                qPrintable(QString("frame %1: sheet at %2 over the tip at %3").arg(f).arg(height).arg(tip)));
            held += height < tip + 2.f * margin ? 1 : 0;
        }
    }
    QVERIFY2(held >= 5, qPrintable(QString::number(held))); // it did rest on the tip for a while
}

void TestMeshCollider::insideParticleIsPushedOut()
{
    // A particle that starts just inside the mesh surface is pushed out along the surface normal.
    Simulation sim = dropSim();
    sim.world.gravity = { 0.f, 0.f, 0.f };
    sim.colliders.push_back(meshSphere(0.3f, 50, 51, { 0.f, 0.f, 0.f }));
    ExplicitSpec spec;
    spec.positions = { { 0.f, 0.f, 0.296f } };
    spec.masses = { 0.1f };
    sim.cloths.push_back(makeExplicit(spec));
    sim.run(1);
    const float d = length(sim.cloths[0].particles.position[0]);
    QVERIFY2(d >= 0.3f + 0.004f + 0.005f - 0.001f, qPrintable(QString::number(d)));
}

QTEST_APPLESS_MAIN(TestMeshCollider)
#include "tst_meshcollider.moc"
