// Placing objects: Euler rotations, a cloth's placement reaching its rest geometry and pins,
// rotated box colliders against closed-form sliding, the scene file's placement keys, and
// the editing layer's placement edits with their undo.
#include "base/rotation.h"
#include "edit/editdocument.h"
#include "scene/presets.h"
#include "scene/scenefile.h"
#include "sim/builders.h"
#include "sim/simulation.h"

#include <QTest>

#include <cmath>

using namespace drape;

namespace {

constexpr float kG = 9.81f;

bool near(const Vec3 &a, const Vec3 &b, float tol) { return length(a - b) <= tol; }

Scene preset(const char *id)
{
    SceneLoadResult r = loadPreset(id);
    if (!r.ok())
        qFatal("%s", r.error.c_str());
    return *r.scene;
}

// A 1 m vertical grid with its top row pinned, origin (-0.5, 1.5, 0): pivot (0, 1, 0).
ClothDesc pinnedGrid()
{
    ClothDesc c;
    c.grid.across = 5;
    c.grid.down = 5;
    for (std::uint32_t i = 0; i < 5; ++i)
        c.pins.push_back(i);
    return c;
}

// One particle at rest on the top face of a box of half height 0.2 m turned by `degrees`
// about Z; returns the simulation (no air drag) and the face's downhill direction.
Simulation particleOnTiltedBox(float degrees, float friction, Vec3 &downhill)
{
    Collider box;
    box.kind = ColliderKind::Box;
    box.halfExtents = { 2.f, 0.2f, 2.f };
    box.rotation = { 0.f, 0.f, degrees };
    box.thickness = 0.f;
    box.friction = friction;
    const float margin = 0.01f; // the particle's cloth thickness
    const float a = degrees * kDegree;
    const Vec3 up { -std::sin(a), std::cos(a), 0.f };
    downhill = { -std::cos(a), -std::sin(a), 0.f };
    ExplicitSpec spec;
    spec.positions = { up * (0.2f + margin) };
    spec.masses = { 0.1f };
    Cloth cloth = makeExplicit(spec);
    cloth.thickness = margin;
    Simulation sim;
    sim.world.airDamping = 0.f;
    sim.solver.substeps = 20;
    sim.cloths.push_back(std::move(cloth));
    sim.colliders.push_back(box);
    return sim;
}

// The box ±h as a closed triangle mesh wound counter-clockwise seen from outside.
MeshRef boxMesh(const Vec3 &h)
{
    std::vector<Vec3> v;
    for (int i = 0; i < 8; ++i)
        v.push_back({ i & 1 ? h.x : -h.x, i & 2 ? h.y : -h.y, i & 4 ? h.z : -h.z });
    const std::vector<Triangle> t = { { { 0, 2, 1 } }, { { 1, 2, 3 } }, { { 4, 5, 6 } }, { { 5, 7, 6 } },
        { { 0, 1, 4 } }, { { 1, 5, 4 } }, { { 2, 6, 3 } }, { { 3, 6, 7 } }, { { 0, 4, 2 } }, { { 2, 4, 6 } },
        { { 1, 3, 5 } }, { { 3, 7, 5 } } };
    return makeMeshRef(std::move(v), t);
}

} // namespace

class TestPlacement : public QObject {
    Q_OBJECT

private slots:
    void eulerAnglesRoundTrip()
    {
        // Rz(90°) turns X into Y; R = Rz·Ry·Rx applies X first.
        QVERIFY(near(rotationFromEuler({ 0.f, 0.f, 90.f }) * Vec3 { 1.f, 0.f, 0.f }, { 0.f, 1.f, 0.f }, 1e-6f));
        QVERIFY(near(rotationFromEuler({ 90.f, 0.f, 90.f }) * Vec3 { 0.f, 1.f, 0.f }, { 0.f, 0.f, 1.f }, 1e-6f));
        for (const Vec3 &e : { Vec3 { 10.f, 20.f, 30.f }, Vec3 { -120.f, 45.f, 170.f }, Vec3 { 0.f, -80.f, 5.f } }) {
            const Vec3 back = eulerFromRotation(rotationFromEuler(e));
            QVERIFY2(near(back, e, 1e-3f), qPrintable(QString("%1 %2 %3").arg(back.x).arg(back.y).arg(back.z)));
        }
        QVERIFY(rotationFromEuler({}).isIdentity());
    }

    void placedGridPinsAtPlacedPositions()
    {
        ClothDesc desc = pinnedGrid();
        const Cloth plain = buildCloth(desc);
        QCOMPARE(placementPivot(desc), (Vec3 { 0.f, 1.f, 0.f }));
        desc.placement.offset = { 1.f, 0.f, 0.f };
        desc.placement.rotation = { 0.f, 0.f, 90.f };
        const Cloth placed = buildCloth(desc);
        QCOMPARE(placed.particles.size(), plain.particles.size());
        QCOMPARE(placed.constraints.size(), plain.constraints.size());
        // (x, y, z) about the pivot (0, 1, 0) turned by 90° about Z is (-(y-1), x, z), then +1 in x.
        for (std::uint32_t i = 0; i < plain.particles.size(); ++i) {
            const Vec3 p = plain.particles.rest[i];
            const Vec3 want { 1.f - (p.y - 1.f), 1.f + p.x, p.z };
            QVERIFY(near(placed.particles.rest[i], want, 1e-5f));
            QVERIFY(near(placed.particles.position[i], want, 1e-5f));
        }
        // The pins are the same particles, now at the placed top row (x = 0.5 m).
        for (std::uint32_t pin : desc.pins) {
            QCOMPARE(placed.particles.kind[pin], ParticleKind::Static);
            QVERIFY(std::fabs(placed.particles.rest[pin].x - 0.5f) < 1e-5f);
        }
        for (std::size_t i = 0; i < plain.constraints.size(); ++i)
            QVERIFY(std::fabs(placed.constraints[i].restLength - plain.constraints[i].restLength) < 1e-6f);
    }

    void scaledGridKeepsItsFabric()
    {
        ClothDesc desc = pinnedGrid();
        const Cloth plain = buildCloth(desc);
        desc.placement.scale = 2.f;
        const Cloth big = buildCloth(desc);
        // Twice the size: four times the mass at the same areal density, rest lengths doubled,
        // the pivot kept.
        QVERIFY(std::fabs(big.totalMass() / plain.totalMass() - 4.0) < 1e-5);
        for (std::size_t i = 0; i < plain.constraints.size(); ++i)
            QVERIFY(std::fabs(big.constraints[i].restLength - 2.f * plain.constraints[i].restLength) < 1e-5f);
        const Vec3 pivot = placementPivot(desc);
        for (std::uint32_t i = 0; i < plain.particles.size(); ++i)
            QVERIFY(near(big.particles.rest[i], pivot + (plain.particles.rest[i] - pivot) * 2.f, 1e-5f));
        QVERIFY(std::fabs(clothSpacing(desc) - 0.5f) < 1e-6f);
    }

    void particleSlidesDownTiltedBoxWithoutFriction()
    {
        // On a frictionless slope of 30° the particle slides s = g sin30° t² / 2 downhill.
        Vec3 downhill;
        Simulation sim = particleOnTiltedBox(30.f, 0.f, downhill);
        const Vec3 start = sim.cloths[0].particles.position[0];
        sim.run(30); // 0.5 s
        const Vec3 moved = sim.cloths[0].particles.position[0] - start;
        const float want = 0.5f * kG * 0.5f * 0.25f;
        QVERIFY2(std::fabs(dot(moved, downhill) - want) < 0.03f * want,
            qPrintable(QString("slid %1 m, expected %2 m").arg(dot(moved, downhill)).arg(want)));
        // Along the face: no sinking into it, no leaving it.
        QVERIFY(std::fabs(dot(moved, Vec3 { -0.5f, std::sqrt(3.f) / 2.f, 0.f })) < 1e-3f);
    }

    void particleHoldsOnTiltedBoxWithFriction()
    {
        // tan 30° = 0.58 < μs = 1: static friction holds it.
        Vec3 downhill;
        Simulation sim = particleOnTiltedBox(30.f, 1.f, downhill);
        const Vec3 start = sim.cloths[0].particles.position[0];
        sim.run(60);
        QVERIFY(length(sim.cloths[0].particles.position[0] - start) < 1e-3f);
    }

    void turnedMeshSlidesLikeTurnedBox()
    {
        // The same tilted box as a triangle mesh: the particle slides the same way.
        Vec3 downhill;
        Simulation box = particleOnTiltedBox(30.f, 0.f, downhill);
        Simulation mesh = particleOnTiltedBox(30.f, 0.f, downhill);
        Collider &m = mesh.colliders[0];
        m.kind = ColliderKind::Mesh;
        m.mesh = boxMesh(m.halfExtents);
        box.run(30);
        mesh.run(30);
        const Vec3 a = box.cloths[0].particles.position[0], b = mesh.cloths[0].particles.position[0];
        QVERIFY2(length(a - b) < 1e-3f, qPrintable(QString("box %1 %2, mesh %3 %4").arg(a.x).arg(a.y).arg(b.x).arg(b.y)));
        QVERIFY(dot(b, downhill) > 0.2f); // it did slide
    }

    void cutPlacedClothKeepsItsPlace()
    {
        // A cut makes the cloth explicit lists: they take the placed rest positions and the
        // placement is cleared, so the cloth does not move twice.
        Scene scene;
        scene.cloths.push_back(pinnedGrid());
        scene.cloths[0].placement = { { 0.3f, 0.f, 0.f }, { 0.f, 0.f, 90.f }, 1.f };
        EditDocument doc(scene);
        const std::vector<Vec3> placed = buildCloth(scene.cloths[0]).particles.rest;
        QVERIFY(doc.removeConstraints(0, { 0 }, true).empty());
        const ClothDesc &desc = doc.scene().cloths[0];
        QCOMPARE(desc.source, ClothSource::Explicit);
        QVERIFY(desc.placement.isIdentity());
        QCOMPARE(desc.explicitData.rest, placed);
        // The grid's warp (Y) turned by 90° about Z is -X.
        QVERIFY(near(desc.explicitData.warp, { -1.f, 0.f, 0.f }, 1e-6f));
        QCOMPARE(buildCloth(desc).particles.rest, placed);
    }

    void scalingMeshColliderScalesItsVertices()
    {
        Scene scene;
        Collider m;
        m.kind = ColliderKind::Mesh;
        m.mesh = boxMesh({ 0.1f, 0.2f, 0.3f });
        scene.colliders.push_back(m);
        EditDocument doc(scene);
        QVERIFY(doc.setColliderPlacement(0, {}, { 0.f, 45.f, 0.f }, 2.f).empty());
        QCOMPARE(doc.undoCount(), std::size_t(1));
        const Collider &now = doc.scene().colliders[0];
        QCOMPARE(now.rotation.y, 45.f);
        for (std::size_t i = 0; i < m.mesh->vertices().size(); ++i)
            QCOMPARE(now.mesh->vertices()[i], m.mesh->vertices()[i] * 2.f);
        doc.undo();
        QVERIFY(doc.scene() == scene);
    }

    void placingColliderWaitsForTheDragToEnd()
    {
        Scene scene;
        scene.cloths.push_back(pinnedGrid());
        Collider m;
        m.kind = ColliderKind::Mesh;
        m.mesh = boxMesh({ 0.1f, 0.2f, 0.3f });
        m.baseCenter = m.center = { 0.f, -1.f, 0.f };
        scene.colliders.push_back(m);
        EditDocument doc(scene);
        doc.run(3);
        const Vec3 centre = doc.simulation().cloths[0].particles.position[20];
        QVERIFY(doc.beginDrag(0, { 20 }, centre).empty());
        const std::uint64_t hash = doc.simulation().stateHash();
        QCOMPARE(QString::fromStdString(doc.setColliderPlacement(0, {}, {}, 2.f)), QStringLiteral("finish the drag first"));
        QVERIFY(doc.dragging());
        QCOMPARE(doc.simulation().stateHash(), hash);
        QVERIFY(doc.scene() == scene);
        doc.endDrag();
        QVERIFY(doc.setColliderPlacement(0, {}, {}, 2.f).empty());
        QCOMPARE(doc.scene().colliders[0].mesh->vertices()[0], m.mesh->vertices()[0] * 2.f);
    }

    void droppedClothStaysOutOfTurnedBox()
    {
        // A sheet dropped on a box turned 30° about X never enters it (in the box's frame).
        Collider box;
        box.kind = ColliderKind::Box;
        box.halfExtents = { 0.3f, 0.3f, 0.3f };
        box.rotation = { 30.f, 0.f, 0.f };
        box.thickness = 0.005f;
        Simulation sim;
        ClothDesc desc;
        desc.grid.orientation = GridOrientation::Horizontal;
        desc.grid.across = desc.grid.down = 12;
        desc.grid.origin = { -0.5f, 0.6f, -0.5f };
        sim.cloths.push_back(buildCloth(desc));
        sim.colliders.push_back(box);
        const Mat3 r = rotationFromEuler(box.rotation);
        float worst = 0.f;
        for (int f = 0; f < 60; ++f) {
            sim.step();
            for (const Vec3 &x : sim.cloths[0].particles.position) {
                const Vec3 q = r.inverseTimes(x);
                const float inside = std::min({ 0.3f - std::fabs(q.x), 0.3f - std::fabs(q.y), 0.3f - std::fabs(q.z) });
                worst = std::max(worst, inside);
            }
        }
        QVERIFY2(worst <= 0.f, qPrintable(QString("a particle %1 m inside the box").arg(worst)));
    }

    void placementKeysRoundTrip()
    {
        Scene scene = preset("curtain");
        scene.cloths[0].placement = { { 0.1f, 0.2f, -0.3f }, { 10.f, 0.f, 45.f }, 1.5f };
        Collider c;
        c.kind = ColliderKind::Box;
        c.rotation = { 0.f, 30.f, 0.f };
        scene.colliders.push_back(c);
        const std::string text = serializeScene(scene);
        const SceneLoadResult back = parseScene(text, "placed.json");
        QVERIFY2(back.ok(), back.error.c_str());
        QVERIFY(back.scene->cloths[0].placement == scene.cloths[0].placement);
        QCOMPARE(back.scene->colliders.back().rotation, c.rotation);
        QCOMPARE(serializeScene(*back.scene), text);
        // An unplaced scene writes no placement keys: older files keep their bytes.
        const std::string plain = serializeScene(preset("curtain"));
        QVERIFY(plain.find("\"placement\"") == std::string::npos);
        QVERIFY(plain.find("\"rotation\"") == std::string::npos);
        // A bad value names its place.
        std::string bad = text;
        const std::size_t at = bad.find("\"scale\": 1.5");
        QVERIFY(at != std::string::npos);
        bad.replace(at, 12, "\"scale\": -2");
        const SceneLoadResult refused = parseScene(bad, "bad.json");
        QVERIFY(!refused.ok());
        QVERIFY2(refused.error.find("/cloths/0/placement") != std::string::npos, refused.error.c_str());
    }

    void placingClothIsOneUndoStep()
    {
        EditDocument doc(preset("curtain"));
        doc.run(5);
        const Scene before = doc.scene();
        Placement p;
        p.offset = { 0.f, 0.5f, 0.f };
        QVERIFY(doc.setPlacement(0, p).empty());
        QCOMPARE(doc.playhead(), std::uint64_t(0)); // structural: back to the start
        const ClothDesc &desc = doc.scene().cloths[0];
        const Cloth plain = buildCloth(before.cloths[0]);
        for (std::uint32_t pin : desc.pins)
            QVERIFY(near(doc.simulation().cloths[0].particles.position[pin],
                plain.particles.rest[pin] + p.offset, 1e-5f));
        doc.undo();
        QVERIFY(doc.scene() == before);
        doc.redo();
        QVERIFY(doc.scene().cloths[0].placement == p);
        QVERIFY(!doc.setPlacement(0, Placement { {}, {}, 0.f }).empty());
        QVERIFY(!doc.setPlacement(7, p).empty());
    }

    void placingColliderFollowsThePlayhead()
    {
        Scene scene = preset("curtain");
        Collider ball;
        ball.kind = ColliderKind::Capsule;
        ball.baseCenter = ball.center = { 0.f, 0.5f, 0.f };
        ball.motion.amplitude = { 0.1f, 0.f, 0.f };
        ball.motion.frequency = 1.f;
        scene.colliders.push_back(ball);
        const int k = int(scene.colliders.size()) - 1;
        EditDocument doc(scene);
        // At frame 0: the scene changes, one step; the motion is kept.
        QVERIFY(doc.setColliderPlacement(k, { 0.2f, 0.5f, 0.f }, {}, 2.f).empty());
        QCOMPARE(doc.undoCount(), std::size_t(1));
        QCOMPARE(doc.scene().colliders[std::size_t(k)].baseCenter, (Vec3 { 0.2f, 0.5f, 0.f }));
        QCOMPARE(doc.scene().colliders[std::size_t(k)].radius, 0.5f);
        QCOMPARE(doc.scene().colliders[std::size_t(k)].halfLength, 0.5f);
        QVERIFY(doc.scene().colliders[std::size_t(k)].motion == ball.motion);
        doc.undo();
        QVERIFY(doc.scene() == scene);
        // At frame 10: events of the take, the scene untouched, one step.
        doc.seek(10);
        const std::string error = doc.setColliderPlacement(k, { 0.f, 0.7f, 0.f }, { 0.f, 0.f, 20.f });
        QVERIFY2(error.empty(), error.c_str());
        QVERIFY(doc.scene() == scene);
        QCOMPARE(doc.take().events.size(), std::size_t(2)); // centre y, rotation z
        QCOMPARE(doc.settings().colliders[std::size_t(k)].baseCenter.y, 0.7f);
        QCOMPARE(doc.settings().colliders[std::size_t(k)].rotation.z, 20.f);
        QCOMPARE(doc.undoCount(), std::size_t(1));
        doc.undo();
        QVERIFY(doc.take().events.empty());
    }
};

QTEST_APPLESS_MAIN(TestPlacement)
#include "tst_placement.moc"
