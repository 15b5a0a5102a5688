// Tearing by vertex splitting: the partition and constraint rules on hand-checked meshes,
// conservation of mass, topology invariants after every split, the caps, pins, determinism,
// and full simulations that tear.
#include "sim/builders.h"
#include "sim/cloth.h"
#include "sim/collider.h"
#include "scene/presets.h"
#include "scene/scene.h"
#include "scene/scenefile.h"
#include "sim/simulation.h"
#include "sim/topology.h"
#include "sim/vertexsplit.h"

#include <QTest>

#include <algorithm>
#include <cmath>
#include <set>

using namespace drape;

namespace {

constexpr int kAcross = 5;
constexpr int kDown = 5;

GridSpec sheetSpec(int across, int down, float tearStrain)
{
    GridSpec g;
    g.across = across;
    g.down = down;
    g.width = 1.f;
    g.height = 1.f;
    g.orientation = GridOrientation::Vertical;
    g.origin = { 0.f, 0.f, 0.f };
    g.structuralParams = { 0.f, 0.f, tearStrain };
    return g;
}

Cloth sheet(int across, int down, float tearStrain)
{
    Cloth c = makeGrid(sheetSpec(across, down, tearStrain));
    c.tearMode = TearMode::SplitVertex;
    return c;
}

int findConstraint(const Cloth &c, std::uint32_t a, std::uint32_t b, ConstraintKind kind)
{
    for (std::size_t i = 0; i < c.constraints.size(); ++i) {
        const DistanceConstraint &k = c.constraints[i];
        if (k.kind == kind && ((k.a == a && k.b == b) || (k.a == b && k.b == a)))
            return int(i);
    }
    return -1;
}

bool joined(const Cloth &c, std::uint32_t a, std::uint32_t b)
{
    for (const DistanceConstraint &k : c.constraints)
        if ((k.a == a && k.b == b) || (k.a == b && k.b == a))
            return true;
    return false;
}

float triangleArea(const std::vector<Vec3> &x, const Triangle &t)
{
    return 0.5f * length(cross(x[t.v[1]] - x[t.v[0]], x[t.v[2]] - x[t.v[0]]));
}

/// Everything the spec requires of a torn cloth, on top of Cloth::validate and
/// validateTopology: every structural constraint is still a triangle edge (the grid has no
/// other kind), and every particle belongs to a triangle.
QString topologyProblem(const Cloth &c)
{
    if (std::string e = c.validate(); !e.empty())
        return QString::fromStdString(e);
    if (std::string e = validateTopology(c); !e.empty())
        return QString::fromStdString(e);
    std::set<std::pair<std::uint32_t, std::uint32_t>> edges;
    std::vector<bool> used(c.particles.size(), false);
    for (const Triangle &t : c.triangles)
        for (int k = 0; k < 3; ++k) {
            const std::uint32_t a = t.v[k], b = t.v[(k + 1) % 3];
            edges.insert({ std::min(a, b), std::max(a, b) });
            used[a] = true;
        }
    for (std::size_t i = 0; i < c.constraints.size(); ++i) {
        const DistanceConstraint &k = c.constraints[i];
        if (k.kind == ConstraintKind::Structural && !edges.count({ std::min(k.a, k.b), std::max(k.a, k.b) }))
            return QStringLiteral("structural constraint %1 (%2-%3) is no triangle edge")
                .arg(i)
                .arg(k.a)
                .arg(k.b);
    }
    for (std::size_t i = 0; i < used.size(); ++i)
        if (!used[i])
            return QStringLiteral("particle %1 belongs to no triangle").arg(i);
    return {};
}

/// Scales positions about `centre` by `factor`: every constraint's strain becomes factor - 1.
void stretch(Cloth &c, const Vec3 &centre, float factor)
{
    for (Vec3 &x : c.particles.position)
        x = centre + (x - centre) * factor;
    c.particles.previous = c.particles.position;
}

/// A 16×12 banner pinned along its top edge with a sphere swinging through it at about
/// 6 m/s; structural constraints tear at 20 % strain (tests/soak/tst_tearsoak.cpp runs a
/// longer variant).
Simulation violentBannerScene()
{
    GridSpec g = sheetSpec(16, 12, 0.2f);
    g.width = 1.2f;
    g.height = 0.9f;
    g.origin = { -0.6f, 1.5f, 0.f };
    g.structuralParams.compliance = 1e-5f;
    Cloth c = makeGrid(g);
    c.tearMode = TearMode::SplitVertex;
    for (int i = 0; i < g.across; ++i)
        c.particles.setKind(gridIndex(g, i, 0), ParticleKind::Static);
    Simulation sim;
    sim.cloths.push_back(std::move(c));
    Collider ball;
    ball.kind = ColliderKind::Sphere;
    ball.radius = 0.2f;
    ball.baseCenter = { 0.f, 1.1f, 0.f };
    ball.center = ball.baseCenter;
    ball.motion.amplitude = { 0.4f, 0.f, 1.2f };
    ball.motion.frequency = 0.8f; // peak speed 2π · 0.8 · 1.26 ≈ 6.3 m/s
    sim.colliders.push_back(ball);
    Collider ground;
    ground.kind = ColliderKind::Plane;
    ground.center = { 0.f, 0.f, 0.f };
    sim.colliders.push_back(ground);
    return sim;
}

} // namespace

class TestVertexSplit : public QObject {
    Q_OBJECT

private slots:
    void splitsOneParticleAlongTheTensionPlane_data();
    void splitsOneParticleAlongTheTensionPlane();
    void underTheLimitNothingSplits();
    void pinnedParticlesNeverSplit();
    void oneSidedParticleDoesNotSplit();
    void capStopsAndSaysSo();
    void massIsConservedAndTopologyStaysValid();
    void ropeSplitsIntoTwo();
    void otherTearModesDoNothing();
    void pulledApartTearsIntoTwoPieces_data();
    void pulledApartTearsIntoTwoPieces();
    void weakSeamPartsCleanlyAtEveryStripSize();
    void foldedStarSplitsAsTheMaterialLies();
    void sameSceneTearsIdentically();
    void violentTearStaysFinite();
    void bannerPresetTearsAndReloadsIdentically();
};

// One interior particle p of a 5×5 sheet, its lower neighbour q pinned and pulled down: the
// plane through p is horizontal, so the triangles below p (centroid lower than p) go to the
// new particle, the horizontal edges (one triangle above, one below) are duplicated, the bend
// from the particle above p to the one below it is removed, and p's mass is shared by area.
// The grid's diagonals alternate, so (2, 2) has eight triangles (every neighbouring quad's
// diagonal runs through it) and (2, 1) four; the bend across p is then caught by different
// rules (the neighbours above and below share a neighbour only in the second case).
void TestVertexSplit::splitsOneParticleAlongTheTensionPlane_data()
{
    QTest::addColumn<int>("row");
    QTest::addColumn<int>("triangles");
    QTest::newRow("eight triangles") << 2 << 8;
    QTest::newRow("four triangles") << 1 << 4;
}

void TestVertexSplit::splitsOneParticleAlongTheTensionPlane()
{
    QFETCH(int, row);
    QFETCH(int, triangles);
    Cloth c = sheet(kAcross, kDown, kNeverTear);
    const GridSpec g = sheetSpec(kAcross, kDown, kNeverTear);
    const std::uint32_t p = gridIndex(g, 2, row), q = gridIndex(g, 2, row + 1);
    const std::uint32_t up = gridIndex(g, 2, row - 1), left = gridIndex(g, 1, row),
                        right = gridIndex(g, 3, row);
    const int pq = findConstraint(c, p, q, ConstraintKind::Structural);
    QVERIFY(pq >= 0);
    c.constraints.modify(std::size_t(pq), [&](DistanceConstraint &r) { r.tearStrain = 0.1f; });
    c.particles.setKind(q, ParticleKind::Static);
    c.particles.position[q].y -= 0.5f * 0.25f; // strain of p-q: 0.5

    const float yp = c.particles.position[p].y;
    std::vector<bool> below(c.triangles.size(), false);
    float areaAbove = 0.f, areaBelow = 0.f;
    for (std::size_t t = 0; t < c.triangles.size(); ++t) {
        const Triangle &tri = c.triangles[t];
        if (tri.v[0] != p && tri.v[1] != p && tri.v[2] != p)
            continue;
        const auto &x = c.particles.position;
        below[t] = (x[tri.v[0]].y + x[tri.v[1]].y + x[tri.v[2]].y) / 3.f < yp;
        (below[t] ? areaBelow : areaAbove) += triangleArea(c.particles.rest, tri);
    }
    QVERIFY(areaAbove > 0.f && areaBelow > 0.f);
    QCOMPARE(int(std::count_if(c.triangles.begin(), c.triangles.end(),
                 [&](const Triangle &t) { return t.v[0] == p || t.v[1] == p || t.v[2] == p; })),
        triangles);
    const float massBefore = c.particles.mass[p];
    const Cloth before = c;
    const std::size_t constraintsBefore = c.constraints.size();
    const std::uint32_t down = q;
    QVERIFY(findConstraint(c, up, down, ConstraintKind::Bend) >= 0);

    const SplitReport r = splitOverstretched(c, 8);
    QCOMPARE(r.splits.size(), std::size_t(1));
    QCOMPARE(r.splits[0].original, p);
    const std::uint32_t created = r.splits[0].created;
    QCOMPARE(created, std::uint32_t(before.particles.size()));
    QVERIFY(!r.capped);
    QCOMPARE(c.topologyRevision, before.topologyRevision + 1);

    // Triangles: below -> created, above -> p, none both; the others untouched.
    for (std::size_t t = 0; t < c.triangles.size(); ++t) {
        const Triangle &now = c.triangles[t], &was = before.triangles[t];
        const bool hadP = was.v[0] == p || was.v[1] == p || was.v[2] == p;
        for (int k = 0; k < 3; ++k) {
            const std::uint32_t expected = (hadP && below[t] && was.v[k] == p) ? created : was.v[k];
            QCOMPARE(now.v[k], expected);
        }
    }
    // Edges: p-left and p-right are shared by a triangle above and one below: both sides keep them.
    QVERIFY(findConstraint(c, p, left, ConstraintKind::Structural) >= 0);
    QVERIFY(findConstraint(c, created, left, ConstraintKind::Structural) >= 0);
    QVERIFY(findConstraint(c, p, right, ConstraintKind::Structural) >= 0);
    QVERIFY(findConstraint(c, created, right, ConstraintKind::Structural) >= 0);
    // The pulled edge belongs to the lower triangles only: it moved; the upper edge stayed.
    QVERIFY(findConstraint(c, created, q, ConstraintKind::Structural) >= 0);
    QVERIFY(!joined(c, p, q));
    QVERIFY(findConstraint(c, p, up, ConstraintKind::Structural) >= 0);
    QVERIFY(!joined(c, created, up));
    // The bend across p would pull the two lips together: gone, and reported.
    QVERIFY(findConstraint(c, up, down, ConstraintKind::Bend) < 0);
    QCOMPARE(r.removedConstraints, std::uint32_t(1));
    QCOMPARE(r.constraintMap.size(), constraintsBefore);
    QCOMPARE(r.appendedConstraints, std::uint32_t(2));
    QCOMPARE(c.constraints.size(), constraintsBefore - 1 + 2);
    for (std::size_t i = 0; i < constraintsBefore; ++i) {
        if (r.constraintMap[i] == kRemovedIndex) {
            const DistanceConstraint &k = before.constraints[i];
            QVERIFY((k.a == up && k.b == down) || (k.a == down && k.b == up));
            continue;
        }
        // Survivors keep their record except for an end moved from p to the created particle.
        DistanceConstraint now = c.constraints[r.constraintMap[i]];
        if (now.a == created)
            now.a = p;
        if (now.b == created)
            now.b = p;
        QCOMPARE(now, before.constraints[i]);
    }
    // Mass shared by rest area (the grid is symmetric about p's row: halves), total conserved.
    const float expectedCreated = massBefore * areaBelow / (areaAbove + areaBelow);
    QCOMPARE(c.particles.mass[created], expectedCreated);
    QVERIFY(std::abs(c.particles.mass[created] - 0.5f * massBefore) < 1e-6f * massBefore);
    QVERIFY(std::abs(c.particles.mass[p] + c.particles.mass[created] - massBefore) <= 1e-6f * massBefore);
    QCOMPARE(c.particles.invMass[created], 1.f / c.particles.mass[created]);
    QCOMPARE(c.particles.invMass[p], 1.f / c.particles.mass[p]);
    // Same place, same motion, same rest position (texture coordinates).
    QCOMPARE(c.particles.position[created], c.particles.position[p]);
    QCOMPARE(c.particles.previous[created], c.particles.previous[p]);
    QCOMPARE(c.particles.velocity[created], c.particles.velocity[p]);
    QCOMPARE(c.particles.rest[created], c.particles.rest[p]);
    QCOMPARE(c.particles.kind[created], ParticleKind::Dynamic);
    QCOMPARE(topologyProblem(c), QString());
}

// Every structural constraint at 0.8× its tear strain: nothing may change. The same sheet at
// 1.2× must split (so the first half of the test cannot pass by never splitting).
void TestVertexSplit::underTheLimitNothingSplits()
{
    const float tear = 0.5f;
    Cloth c = sheet(8, 8, tear);
    stretch(c, { 0.5f, -0.5f, 0.f }, 1.f + 0.8f * tear);
    const Cloth before = c;
    const SplitReport r = splitOverstretched(c, 1000);
    QVERIFY(r.empty());
    QVERIFY(!r.capped);
    QCOMPARE(c.topologyRevision, before.topologyRevision);
    QVERIFY(c.constraints == before.constraints);
    QVERIFY(c.triangles == before.triangles);
    QVERIFY(c.particles.mass == before.particles.mass);

    Cloth over = sheet(8, 8, tear);
    stretch(over, { 0.5f, -0.5f, 0.f }, 1.f + 1.2f * tear);
    QVERIFY(!splitOverstretched(over, 1000).splits.empty());
}

void TestVertexSplit::pinnedParticlesNeverSplit()
{
    // Both ends pinned: nothing splits however far the constraint is stretched.
    {
        Cloth c = sheet(4, 4, 0.1f);
        for (std::uint32_t i = 0; i < c.particles.size(); ++i)
            c.particles.setKind(i, i % 2 ? ParticleKind::Static : ParticleKind::Kinematic);
        stretch(c, {}, 3.f);
        const Cloth before = c;
        QVERIFY(splitOverstretched(c, 1000).empty());
        QVERIFY(c.triangles == before.triangles);
    }
    // Top two rows pinned, the whole sheet stretched: only dynamic particles split, and the
    // pinned ones keep their mass and every triangle they had.
    Cloth c = sheet(8, 8, 0.2f);
    const GridSpec g = sheetSpec(8, 8, 0.2f);
    std::vector<std::uint32_t> pins;
    for (int j = 0; j < 2; ++j)
        for (int i = 0; i < 8; ++i) {
            pins.push_back(gridIndex(g, i, j));
            c.particles.setKind(pins.back(), j == 0 ? ParticleKind::Static : ParticleKind::Kinematic);
        }
    stretch(c, { 0.5f, -0.5f, 0.f }, 1.6f);
    const Cloth before = c;
    int total = 0;
    for (int call = 0; call < 50; ++call) {
        const SplitReport r = splitOverstretched(c, 16);
        for (const ParticleSplit &s : r.splits) {
            QCOMPARE(c.particles.kind[s.original], ParticleKind::Dynamic);
            QVERIFY(std::find(pins.begin(), pins.end(), s.original) == pins.end());
            ++total;
        }
        if (r.splits.empty())
            break;
    }
    QVERIFY(total > 0);
    for (std::uint32_t pin : pins) {
        QCOMPARE(c.particles.mass[pin], before.particles.mass[pin]);
        for (std::size_t t = 0; t < c.triangles.size(); ++t)
            for (int k = 0; k < 3; ++k)
                if (before.triangles[t].v[k] == pin)
                    QCOMPARE(c.triangles[t].v[k], pin);
    }
    QCOMPARE(topologyProblem(c), QString());
}

// A single quad stretched: each corner's triangles all lie on the far side of its plane, so
// there is nothing to split and the call must return (not retry forever).
void TestVertexSplit::oneSidedParticleDoesNotSplit()
{
    Cloth c = sheet(2, 2, 0.1f);
    stretch(c, { 0.5f, -0.5f, 0.f }, 2.f);
    const Cloth before = c;
    const SplitReport r = splitOverstretched(c, 1000);
    QVERIFY(r.empty());
    QVERIFY(!r.capped);
    QVERIFY(c.triangles == before.triangles);
    QCOMPARE(c.particles.size(), before.particles.size());
}

void TestVertexSplit::capStopsAndSaysSo()
{
    Cloth c = sheet(10, 10, 0.1f);
    stretch(c, { 0.5f, -0.5f, 0.f }, 2.f);
    Cloth copy = c;
    const SplitReport r = splitOverstretched(c, 3);
    QCOMPARE(r.splits.size(), std::size_t(3));
    QVERIFY(r.capped);
    QCOMPARE(c.particles.size(), copy.particles.size() + 3);

    const SplitReport all = splitOverstretched(copy, 100000);
    QVERIFY(!all.capped);
    QVERIFY(all.splits.size() > 3);
    // The capped call did the first three splits of the uncapped one (same order).
    for (int i = 0; i < 3; ++i)
        QCOMPARE(r.splits[std::size_t(i)], all.splits[std::size_t(i)]);

    QVERIFY(splitOverstretched(copy, 0).splits.empty());
}

// Uneven stretching, split call after call until nothing more can split: the total mass stays
// the same and the topology is valid after every call.
void TestVertexSplit::massIsConservedAndTopologyStaysValid()
{
    Cloth c = sheet(12, 12, 0.15f);
    // Stretch more towards the bottom-right, with a deterministic jitter.
    std::uint32_t seed = 12345u;
    for (Vec3 &x : c.particles.position) {
        seed = seed * 1664525u + 1013904223u;
        const float jitter = float(seed >> 8) / float(1u << 24) - 0.5f;
        x = { x.x * (1.f + 0.6f * x.x), x.y * (1.f - 0.6f * x.y), 0.05f * jitter };
    }
    const double massBefore = c.totalMass();
    const std::size_t trianglesBefore = c.triangles.size();
    int splits = 0;
    bool finished = false;
    for (int call = 0; call < 5000 && !finished; ++call) {
        const SplitReport r = splitOverstretched(c, 1); // one split per call: checked after each
        splits += int(r.splits.size());
        QVERIFY(std::abs(c.totalMass() - massBefore) <= 1e-5 * massBefore);
        const QString problem = topologyProblem(c);
        if (!problem.isEmpty())
            QFAIL(qPrintable(QStringLiteral("after call %1: %2").arg(call).arg(problem)));
        for (float m : c.particles.mass)
            QVERIFY(m > 0.f);
        finished = r.splits.empty();
    }
    QVERIFY(finished);
    QVERIFY(splits > 20);
    QCOMPARE(c.triangles.size(), trianglesBefore);
    // Every particle still has positive area to carry its mass: no particle lost all triangles.
    std::vector<int> corners(c.particles.size(), 0);
    for (const Triangle &t : c.triangles)
        for (std::uint32_t v : t.v)
            ++corners[v];
    for (int n : corners)
        QVERIFY(n > 0);
}

// A rope has no triangles: a particle splits by its links, and the bend across it goes.
void TestVertexSplit::ropeSplitsIntoTwo()
{
    RopeSpec spec;
    spec.count = 5;
    spec.length = 0.4f;
    spec.start = { 0.f, 0.f, 0.f };
    spec.direction = { 1.f, 0.f, 0.f };
    spec.params = { 0.f, 0.f, 0.2f };
    spec.bend = true;
    Cloth c = makeRope(spec);
    c.tearMode = TearMode::SplitVertex;
    c.particles.setKind(3, ParticleKind::Static);
    c.particles.position[3].x += 0.05f; // link 2-3: strain 0.5 (particle 3 pinned: 2 splits)
    c.particles.position[4].x += 0.05f;
    QVERIFY(joined(c, 1, 3));
    const double mass = c.totalMass();
    const SplitReport r = splitOverstretched(c, 10);
    QCOMPARE(r.splits.size(), std::size_t(1));
    QCOMPARE(r.splits[0].original, std::uint32_t(2));
    const std::uint32_t created = r.splits[0].created;
    QVERIFY(joined(c, 1, 2));
    QVERIFY(joined(c, created, 3));
    QVERIFY(!joined(c, 2, 3));
    QVERIFY(!joined(c, 1, 3)); // the bend across the split
    QVERIFY(
        std::abs(c.particles.mass[created] + c.particles.mass[2] - spec.linkMass) <= 1e-6f * spec.linkMass);
    QVERIFY(std::abs(c.totalMass() - mass) < 1e-6 * mass);
}

void TestVertexSplit::otherTearModesDoNothing()
{
    for (TearMode mode : { TearMode::None, TearMode::RemoveConstraint }) {
        Cloth c = sheet(6, 6, 0.1f);
        c.tearMode = mode;
        stretch(c, {}, 2.f);
        QVERIFY(splitOverstretched(c, 100).empty());
    }
}

namespace {

// A strip 0.8 m × 0.3 m in the XY plane without gravity, `across` × `down` particles, its
// left and right columns kinematic and pulled apart at `speed` each. The structural
// constraints across one column boundary in the middle (a seam: between columns seam and
// seam + 1) tear at `seamStrain`; nothing else tears.
struct PullApart {
    int across = 17;
    int down = 7;
    int seam = 8;
    Simulation sim;
    GridSpec spec;
    float speed = 0.5f; // m/s, each side

    PullApart(float seamStrain, float otherStrain = kNeverTear, int across_ = 17, int down_ = 7)
        : across(across_)
        , down(down_)
        , seam(across_ / 2)
    {
        spec.across = across;
        spec.down = down;
        spec.width = 0.8f;
        spec.height = 0.3f;
        spec.origin = { 0.f, 0.f, 0.f };
        spec.structuralParams = { 1e-4f, 0.f, otherStrain };
        Cloth c = makeGrid(spec);
        c.tearMode = TearMode::SplitVertex;
        for (int j = 0; j < down; ++j) {
            c.particles.setKind(gridIndex(spec, 0, j), ParticleKind::Kinematic);
            c.particles.setKind(gridIndex(spec, across - 1, j), ParticleKind::Kinematic);
            const int k = findConstraint(
                c, gridIndex(spec, seam, j), gridIndex(spec, seam + 1, j), ConstraintKind::Structural);
            c.constraints.modify(std::size_t(k), [&](DistanceConstraint &r) { r.tearStrain = seamStrain; });
        }
        sim.world.gravity = { 0.f, 0.f, 0.f };
        sim.world.airDamping = 0.5f;
        sim.cloths.push_back(std::move(c));
    }

    void frame()
    {
        const float dx = speed * float(sim.solver.frameDt());
        Particles &p = sim.cloths[0].particles;
        for (int j = 0; j < down; ++j) {
            p.position[gridIndex(spec, 0, j)].x -= dx;
            p.position[gridIndex(spec, across - 1, j)].x += dx;
        }
        sim.step();
    }
};

} // namespace

void TestVertexSplit::pulledApartTearsIntoTwoPieces_data()
{
    QTest::addColumn<bool>("seam");
    QTest::newRow("weak seam") << true;
    QTest::newRow("uniform") << false;
}

// The strip comes apart in exactly two pieces, one on each set of pins (along the seam when
// there is one); pulled further, the gap between them grows with the pins (nothing pulls
// across the tear).
void TestVertexSplit::pulledApartTearsIntoTwoPieces()
{
    QFETCH(bool, seam);
    PullApart s(0.1f, seam ? kNeverTear : 0.1f);
    const double mass = s.sim.cloths[0].totalMass();
    int frames = 0;
    while (connectedPieces(s.sim.cloths[0]).count < 2 && frames < 120) {
        s.frame();
        ++frames;
        QVERIFY2(!s.sim.status().blownUp, s.sim.status().message.c_str());
        QCOMPARE(topologyProblem(s.sim.cloths[0]), QString());
    }
    QVERIFY2(frames < 120, "the strip never came apart");
    for (int f = 0; f < 30; ++f)
        s.frame();
    const Cloth &c = s.sim.cloths[0];
    QCOMPARE(topologyProblem(c), QString());
    QVERIFY(std::abs(c.totalMass() - mass) <= 1e-5 * mass);
    const ClothPieces pieces = connectedPieces(c);
    QCOMPARE(pieces.count, std::uint32_t(2));
    const std::uint32_t left = pieces.label[gridIndex(s.spec, 0, 0)];
    const std::uint32_t right = pieces.label[gridIndex(s.spec, s.across - 1, 0)];
    QVERIFY(left != right);
    float leftMax = -1e9f, rightMin = 1e9f;
    for (std::uint32_t i = 0; i < c.particles.size(); ++i) {
        const float x = c.particles.position[i].x;
        if (seam && i < std::uint32_t(s.across * s.down)) {
            // An original particle left of the seam stays left; right of it, right.
            const int column = int(i) % s.across;
            if (column < s.seam)
                QCOMPARE(pieces.label[i], left);
            else if (column > s.seam + 1)
                QCOMPARE(pieces.label[i], right);
        }
        if (pieces.label[i] == left)
            leftMax = std::max(leftMax, x);
        else
            rightMin = std::min(rightMin, x);
    }
    // 30 frames at 2 × 0.5 m/s open the pins a further 0.5 m; the two halves follow them.
    QVERIFY2(rightMin - leftMax > 0.25f, qPrintable(QStringLiteral("gap %1 m").arg(rightMin - leftMax)));
}

// The weak seam at 45 strip sizes (16-24 particles across, 5-9 down: cells from 0.5 to 1.4
// times as wide as tall; the grid's diagonals alternate, so the two ends of neighbouring seam
// links have four and eight triangles by turns). Each strip must part along its seam, in two
// pieces, without a blow-up. A tear whose crack ran along one column in some rows and along
// the next in others left a quad bridging the two, held by constraints that never tear: the
// pins stretched them to several times their length, and the strip burst when it let go
// (particles thrown at up to 600 m/s), or it shed slivers.
void TestVertexSplit::weakSeamPartsCleanlyAtEveryStripSize()
{
    QStringList failed;
    for (int across = 16; across <= 24; ++across)
        for (int down = 5; down <= 9; ++down) {
            PullApart s(0.1f, kNeverTear, across, down);
            const QString name = QStringLiteral("%1 x %2").arg(across).arg(down);
            int frames = 0;
            while (connectedPieces(s.sim.cloths[0]).count < 2 && frames < 120 && !s.sim.status().blownUp) {
                s.frame();
                ++frames;
            }
            for (int f = 0; f < 10 && !s.sim.status().blownUp; ++f)
                s.frame();
            if (s.sim.status().blownUp) {
                failed << name
                        + QStringLiteral(": blew up (%1)")
                              .arg(QString::fromStdString(s.sim.status().message));
                continue;
            }
            const Cloth &c = s.sim.cloths[0];
            QCOMPARE(topologyProblem(c), QString());
            const ClothPieces pieces = connectedPieces(c);
            if (pieces.count != 2) {
                failed << name + QStringLiteral(": %1 pieces after %2 frames").arg(pieces.count).arg(frames);
                continue;
            }
            const std::uint32_t left = pieces.label[gridIndex(s.spec, 0, 0)];
            const std::uint32_t right = pieces.label[gridIndex(s.spec, across - 1, 0)];
            bool sides = left != right;
            for (int j = 0; j < down; ++j)
                for (int i = 0; i < across; ++i) {
                    const std::uint32_t label = pieces.label[gridIndex(s.spec, i, j)];
                    if ((i < s.seam && label != left) || (i > s.seam + 1 && label != right))
                        sides = false;
                }
            if (!sides)
                failed << name + QStringLiteral(": parted away from the seam");
        }
    QVERIFY2(failed.isEmpty(), qPrintable(failed.join(QStringLiteral("; "))));
}

// A corner torn and folded back over the particle it hangs from: in the current positions
// every triangle around that particle lies on the far side of the plane along the pull, so
// the plane test alone would find nothing to split and the tear would stop while the pull
// went on. The rest configuration has no fold: the split happens there, as the material lies.
void TestVertexSplit::foldedStarSplitsAsTheMaterialLies()
{
    // 3 × 2 particles, 0 1 2 on top, 3 4 5 below; the link 1-2 is stretched past its limit
    // with 2 (and 5 below it) folded over to the left of 1.
    Cloth c = sheet(3, 2, 0.1f);
    const GridSpec g = sheetSpec(3, 2, 0.1f);
    const float l = 0.5f; // m, the sheet's spacing across
    std::vector<Vec3> &x = c.particles.position;
    x[gridIndex(g, 0, 0)] = { 0.f, 0.f, 0.f };
    x[gridIndex(g, 1, 0)] = { l, 0.f, 0.f };
    x[gridIndex(g, 0, 1)] = { 0.f, -l, 0.f };
    x[gridIndex(g, 1, 1)] = { l, -l, 0.f };
    x[gridIndex(g, 2, 0)] = { -l, 0.1f * l, 0.f };
    x[gridIndex(g, 2, 1)] = { -l, -0.9f * l, 0.f };
    c.particles.previous = x;
    const std::uint32_t p = gridIndex(g, 1, 0), o = gridIndex(g, 2, 0);
    const int link = findConstraint(c, p, o, ConstraintKind::Structural);
    QVERIFY(link >= 0);
    QVERIFY(isOverstretched(c, c.constraints[std::size_t(link)]));
    // In the current positions every triangle at p lies on the far side of its plane.
    const Vec3 n = normalized(x[o] - x[p]);
    for (const Triangle &t : c.triangles)
        if (t.v[0] == p || t.v[1] == p || t.v[2] == p)
            QVERIFY(dot((x[t.v[0]] + x[t.v[1]] + x[t.v[2]]) / 3.f - x[p], n) > 0.f);
    const double mass = c.totalMass();
    const std::vector<Vec3> rest = c.particles.rest;

    const SplitReport r = splitOverstretched(c, 1);
    QCOMPARE(r.splits.size(), std::size_t(1));
    QCOMPARE(r.splits[0].original, p);
    const std::uint32_t q = r.splits[0].created;
    // The triangles of the left quad stay with p, those of the right quad (towards 2 at rest)
    // went to q, and q starts where p is.
    for (const Triangle &t : c.triangles) {
        const bool atP = t.v[0] == p || t.v[1] == p || t.v[2] == p;
        const bool atQ = t.v[0] == q || t.v[1] == q || t.v[2] == q;
        if (!atP && !atQ)
            continue;
        const Vec3 centroid = (rest[t.v[0] == q ? p : t.v[0]] + rest[t.v[1] == q ? p : t.v[1]]
                                  + rest[t.v[2] == q ? p : t.v[2]])
            / 3.f;
        QCOMPARE(atQ, centroid.x > rest[p].x);
    }
    QCOMPARE(c.particles.position[q], c.particles.position[p]);
    QCOMPARE(topologyProblem(c), QString());
    QVERIFY(std::abs(c.totalMass() - mass) < 1e-6 * mass);
}

void TestVertexSplit::sameSceneTearsIdentically()
{
    PullApart a(0.1f), b(0.1f);
    for (int f = 0; f < 40; ++f) {
        a.frame();
        b.frame();
    }
    QVERIFY(a.sim.cloths[0].particles.size() > std::size_t(a.across * a.down)); // it tore
    QCOMPARE(a.sim.stateHash(), b.sim.stateHash());
    const Cloth &ca = a.sim.cloths[0], &cb = b.sim.cloths[0];
    QVERIFY(ca.constraints == cb.constraints);
    QVERIFY(ca.triangles == cb.triangles);
    QVERIFY(ca.particles.position == cb.particles.position);
    QVERIFY(ca.particles.mass == cb.particles.mass);
}

// A banner pinned along its top, torn by a fast sphere swinging through it: 2,000 frames with
// no NaN, no blow-up, a valid topology and the mass conserved.
void TestVertexSplit::violentTearStaysFinite()
{
    Simulation sim = violentBannerScene();
    const double mass = sim.cloths[0].totalMass();
    for (int f = 0; f < 2000; ++f) {
        sim.step();
        QVERIFY2(!sim.status().blownUp, sim.status().message.c_str());
    }
    const Cloth &c = sim.cloths[0];
    for (const Vec3 &x : c.particles.position)
        QVERIFY(isFinite(x));
    QVERIFY(c.particles.size() > std::size_t(16 * 12)); // it tore
    QCOMPARE(topologyProblem(c), QString());
    QVERIFY(std::abs(c.totalMass() - mass) <= 1e-4 * mass);
}

// The built-in banner-tear preset loads, tears under the swinging ball, and the torn scene
// saved (explicit topology + state) and loaded again gives back the same arrays bit for bit.
void TestVertexSplit::bannerPresetTearsAndReloadsIdentically()
{
    const SceneLoadResult loaded = loadPreset("banner-tear");
    QVERIFY2(loaded.ok(), loaded.error.c_str());
    QVERIFY(loaded.warnings.empty());
    const Scene &scene = *loaded.scene;
    QCOMPARE(scene.cloths.size(), std::size_t(1));
    QCOMPARE(scene.cloths[0].tearMode, TearMode::SplitVertex);
    Simulation sim = buildSimulation(scene);
    const std::size_t particles = sim.cloths[0].particles.size();
    const double mass = sim.cloths[0].totalMass();
    int frames = 0;
    while (sim.cloths[0].particles.size() < particles + 20 && frames < 240) {
        sim.step();
        ++frames;
        QVERIFY2(!sim.status().blownUp, sim.status().message.c_str());
    }
    const Cloth &torn = sim.cloths[0];
    QVERIFY2(torn.particles.size() >= particles + 20, "the banner did not tear");
    QCOMPARE(topologyProblem(torn), QString());
    QVERIFY(std::abs(torn.totalMass() - mass) <= 1e-5 * mass);

    const Scene saved = snapshotScene(scene, sim, true);
    QCOMPARE(saved.cloths[0].source, ClothSource::Explicit);
    const std::string text = serializeScene(saved, SaveOptions { true });
    const SceneLoadResult reread = parseScene(text, "torn.json");
    QVERIFY2(reread.ok(), reread.error.c_str());
    const Simulation back = buildSimulation(*reread.scene);
    const Cloth &again = back.cloths[0];
    QCOMPARE(again.tearMode, TearMode::SplitVertex);
    QVERIFY(again.constraints == torn.constraints);
    QVERIFY(again.triangles == torn.triangles);
    QVERIFY(again.particles.rest == torn.particles.rest);
    QVERIFY(again.particles.mass == torn.particles.mass);
    QVERIFY(again.particles.invMass == torn.particles.invMass);
    QVERIFY(again.particles.kind == torn.particles.kind);
    QVERIFY(again.particles.position == torn.particles.position);
    QVERIFY(again.particles.previous == torn.particles.previous);
    QVERIFY(again.particles.velocity == torn.particles.velocity);
}

QTEST_APPLESS_MAIN(TestVertexSplit)
#include "tst_vertexsplit.moc"
