// The Outliner's edits of whole objects in the core (core/edit/src/sceneedits.cpp): add,
// duplicate, rename, hide, reorder and remove every kind of cloth and collider, each an exact
// undo step; the events of the take follow the objects they are about.
#include "randomedits.h"

#include "mesh/meshobject.h"
#include "mesh/meshscene.h"
#include "edit/pick.h"
#include "mesh/panel.h"

#include <QtTest>

#include <functional>

using namespace drape;

namespace {

using Kind = SceneObject::Kind;

ClothDesc grid(GridOrientation orientation)
{
    ClothDesc c;
    c.name = "grid";
    c.grid.across = c.grid.down = 8;
    c.grid.width = c.grid.height = 0.4f;
    c.grid.orientation = orientation;
    c.grid.origin = { 0.8f, 1.2f, 0.f };
    c.pins = { 0, 7 };
    return c;
}

ClothDesc rope()
{
    ClothDesc c;
    c.name = "rope";
    c.source = ClothSource::Rope;
    c.rope.count = 10;
    c.rope.start = { 0.9f, 1.4f, 0.f };
    c.pins = { 0 };
    return c;
}

ClothDesc panel()
{
    PanelSpec spec;
    spec.outline = discOutline(0.2f, 12);
    spec.edgeLength = 0.06f;
    spec.origin = { 0.8f, 1.5f, 0.f };
    std::string error;
    const MeshGeometry mesh = makePanelMesh(spec, &error);
    if (mesh.triangles.empty())
        qFatal("panel: %s", error.c_str());
    return meshToCloth(mesh, materialPresets()[1], "disc");
}

// Two triangles, a square of 0.3 m: the smallest mesh cloth (or collider).
MeshGeometry square()
{
    MeshGeometry m;
    m.positions = { { 0.7f, 1.f, 0.f }, { 1.f, 1.f, 0.f }, { 1.f, 1.f, 0.3f }, { 0.7f, 1.f, 0.3f } };
    m.triangles = { Triangle { { 0, 2, 1 } }, Triangle { { 0, 3, 2 } } };
    return m;
}

Collider collider(ColliderKind kind)
{
    if (kind == ColliderKind::Mesh)
        return meshToCollider(square(), "mesh");
    Collider c;
    c.name = "collider";
    c.kind = kind;
    c.baseCenter = c.center = { 0.8f, 0.4f, 0.1f };
    c.radius = 0.2f;
    c.halfExtents = { 0.1f, 0.2f, 0.3f };
    return c;
}

// A small scene (a ground, a ball, one 8 × 8 sheet) so every edit replays quickly.
Scene smallScene()
{
    Scene s = emptySceneWithGround();
    ClothDesc sheet = grid(GridOrientation::Horizontal);
    sheet.name = "sheet";
    s.cloths.push_back(sheet);
    Collider ball = collider(ColliderKind::Sphere);
    ball.name = "ball";
    s.colliders.push_back(ball);
    return s;
}

std::string addObject(EditDocument &doc, const QString &kind)
{
    if (kind == "grid vertical")
        return doc.addCloth(grid(GridOrientation::Vertical));
    if (kind == "grid horizontal")
        return doc.addCloth(grid(GridOrientation::Horizontal));
    if (kind == "rope")
        return doc.addCloth(rope());
    if (kind == "panel")
        return doc.addCloth(panel());
    if (kind == "mesh cloth")
        return doc.addCloth(meshToCloth(square(), Material {}, "mesh cloth"));
    const std::pair<const char *, ColliderKind> colliders[] = { { "plane", ColliderKind::Plane },
        { "sphere", ColliderKind::Sphere }, { "box", ColliderKind::Box }, { "capsule", ColliderKind::Capsule },
        { "mesh collider", ColliderKind::Mesh } };
    for (const auto &[name, k] : colliders)
        if (kind == name)
            return doc.addCollider(collider(k));
    return "unknown kind";
}

// An event about the object, so renumbering is seen: a material change of a cloth, a
// friction change of a collider.
std::string recordEventOn(EditDocument &doc, const SceneObject &o)
{
    if (o.kind == Kind::Cloth) {
        Material m = doc.scene().cloths[std::size_t(o.index)].material;
        m.damping *= 2.f;
        return doc.setMaterial(o.index, m);
    }
    return doc.setParameter("collider.friction", o.index, 0.8);
}

int eventObject(const Event &e)
{
    if (const auto *p = std::get_if<ParameterEvent>(&e.data))
        return p->index;
    return eventCloth(e.data);
}

std::size_t countOf(const Scene &s, Kind kind)
{
    return kind == Kind::Cloth ? s.cloths.size() : s.colliders.size();
}

const std::string &nameOf(const Scene &s, const SceneObject &o)
{
    return o.kind == Kind::Cloth ? s.cloths[std::size_t(o.index)].name : s.colliders[std::size_t(o.index)].name;
}

bool hiddenOf(const Scene &s, const SceneObject &o)
{
    return o.kind == Kind::Cloth ? s.cloths[std::size_t(o.index)].hidden : s.colliders[std::size_t(o.index)].hidden;
}

} // namespace

class TestSceneEdits : public QObject {
    Q_OBJECT

private slots:
    void everyKindThroughEveryEdit_data();
    void everyKindThroughEveryEdit();
    void removingSeveralRenumbersTheRest();
    void hiddenRoundTripsThroughTheFile();
    void badObjectsChangeNothing();
    void pickColliderFindsTheNearestSurface();
    void pickingFollowsTheColliderRotation();
};

void TestSceneEdits::everyKindThroughEveryEdit_data()
{
    QTest::addColumn<QString>("kind");
    QTest::addColumn<bool>("isCloth");
    for (const char *k : { "grid vertical", "grid horizontal", "rope", "panel", "mesh cloth" })
        QTest::newRow(k) << QString(k) << true;
    for (const char *k : { "plane", "sphere", "box", "capsule", "mesh collider" })
        QTest::newRow(k) << QString(k) << false;
}

void TestSceneEdits::everyKindThroughEveryEdit()
{
    QFETCH(QString, kind);
    QFETCH(bool, isCloth);
    const Kind k = isCloth ? Kind::Cloth : Kind::Collider;
    EditDocument doc(smallScene()); // one cloth, two colliders
    // What was shown just before and just after each step (playing between steps moves the
    // playhead without being one).
    std::vector<testing::Seen> before, after;
    auto edit = [&](const std::function<std::string()> &f) {
        before.push_back(testing::seen(doc));
        const std::string error = f();
        after.push_back(testing::seen(doc));
        return error;
    };
    const std::size_t n = countOf(doc.scene(), k);

    // Add: appended, the playhead at the start.
    QCOMPARE(edit([&] { return addObject(doc, kind); }), std::string());
    QCOMPARE(countOf(doc.scene(), k), n + 1);
    QCOMPARE(isCloth ? doc.simulation().cloths.size() : doc.simulation().colliders.size(), n + 1);
    const SceneObject added { k, int(n) };
    const std::string name = nameOf(doc.scene(), added);

    // An event about it at frame 5.
    doc.run(5);
    QCOMPARE(edit([&] { return recordEventOn(doc, added); }), std::string());
    QCOMPARE(doc.take().events.size(), std::size_t(1));

    // Duplicate: a copy appended, the event stays on the original; a structural edit.
    QCOMPARE(edit([&] { return doc.duplicate({ added }); }), std::string());
    QCOMPARE(countOf(doc.scene(), k), n + 2);
    QCOMPARE(doc.playhead(), std::uint64_t(0));
    const SceneObject copy { k, int(n + 1) };
    QCOMPARE(nameOf(doc.scene(), copy), name + " copy");
    if (isCloth) {
        ClothDesc a = doc.scene().cloths[n], b = doc.scene().cloths[n + 1];
        b.name = a.name;
        QVERIFY(a == b);
    } else {
        Collider a = doc.scene().colliders[n], b = doc.scene().colliders[n + 1];
        b.name = a.name;
        QVERIFY(a == b);
    }
    QCOMPARE(doc.take().events.size(), std::size_t(1));
    QCOMPARE(eventObject(doc.take().events[0]), added.index);

    // Rename and hide: presentation only, the playhead and the state stay.
    doc.run(7);
    const std::uint64_t hash = doc.simulation().stateHash();
    QCOMPARE(edit([&] { return doc.rename(copy, "renamed"); }), std::string());
    QCOMPARE(nameOf(doc.scene(), copy), std::string("renamed"));
    QCOMPARE(doc.playhead(), std::uint64_t(7));
    QCOMPARE(doc.simulation().stateHash(), hash);
    QCOMPARE(edit([&] { return doc.setHidden({ copy, added }, true); }), std::string());
    QVERIFY(hiddenOf(doc.scene(), copy) && hiddenOf(doc.scene(), added));
    QCOMPARE(doc.playhead(), std::uint64_t(7));
    QCOMPARE(doc.simulation().stateHash(), hash);

    // Reorder: the added object first; the event follows it to index 0.
    QCOMPARE(edit([&] { return doc.moveObject(added, 0); }), std::string());
    QCOMPARE(nameOf(doc.scene(), { k, 0 }), name);
    QCOMPARE(doc.playhead(), std::uint64_t(0));
    QCOMPARE(eventObject(doc.take().events[0]), 0);

    // Remove the first object (the added one): its event goes with it; the copy stays.
    QCOMPARE(edit([&] { return doc.removeObjects({ { k, 0 } }); }), std::string());
    QCOMPARE(countOf(doc.scene(), k), n + 1);
    QVERIFY(doc.take().events.empty());
    QCOMPARE(nameOf(doc.scene(), { k, int(n) }), std::string("renamed"));

    // Every step undoes to exactly what was shown before it and redoes to what was shown after.
    QCOMPARE(doc.undoCount(), after.size());
    for (std::size_t i = after.size(); i-- > 0;) {
        doc.undo();
        QVERIFY2(testing::same(testing::seen(doc), before[i]), qPrintable(QString("undo of step %1").arg(i)));
    }
    for (std::size_t i = 0; i < after.size(); ++i) {
        doc.redo();
        QVERIFY2(testing::same(testing::seen(doc), after[i]), qPrintable(QString("redo of step %1").arg(i)));
    }
}

void TestSceneEdits::removingSeveralRenumbersTheRest()
{
    EditDocument doc(smallScene());
    for (int i = 0; i < 3; ++i) {
        ClothDesc c = grid(GridOrientation::Horizontal);
        c.name = "grid " + std::to_string(i);
        QCOMPARE(doc.addCloth(c), std::string());
    }
    doc.run(3);
    // A pin event on each of the cloths 1..3.
    for (int c = 1; c <= 3; ++c)
        QCOMPARE(doc.setKind(c, { 10 }, ParticleKind::Static), std::string());
    QCOMPARE(doc.take().events.size(), std::size_t(3));
    const std::size_t colliders = doc.scene().colliders.size();
    QCOMPARE(doc.removeObjects({ { Kind::Cloth, 2 }, { Kind::Cloth, 0 }, { Kind::Collider, 0 } }), std::string());
    QCOMPARE(doc.scene().cloths.size(), std::size_t(2));
    QCOMPARE(doc.scene().cloths[0].name, std::string("grid 0"));
    QCOMPARE(doc.scene().cloths[1].name, std::string("grid 2"));
    QCOMPARE(doc.scene().colliders.size(), colliders - 1);
    // The events of grid 0 and grid 2 (old 1 and 3) are now about cloths 0 and 1.
    QCOMPARE(doc.take().events.size(), std::size_t(2));
    QCOMPARE(eventObject(doc.take().events[0]), 0);
    QCOMPARE(eventObject(doc.take().events[1]), 1);
    QCOMPARE(doc.message(), std::string("1 event no longer applies and was removed"));
    QCOMPARE(doc.undoText(doc.undoIndex() - 1), std::string("Remove 3 objects"));
}

void TestSceneEdits::hiddenRoundTripsThroughTheFile()
{
    Scene scene = testing::preset("tablecloth");
    scene.cloths[0].hidden = true;
    scene.colliders[0].hidden = true;
    const std::string text = serializeScene(scene);
    QVERIFY(text.find("\"hidden\": true") != std::string::npos);
    SceneLoadResult back = parseScene(text, "hidden.json");
    QVERIFY2(back.ok(), back.error.c_str());
    QVERIFY(back.scene->cloths[0].hidden);
    QVERIFY(back.scene->colliders[0].hidden);
    QCOMPARE(serializeScene(*back.scene), text);
    // Absent means shown, and a scene that hides nothing writes no key.
    const std::string plain = serializeScene(testing::preset("tablecloth"));
    QVERIFY(plain.find("\"hidden\"") == std::string::npos);
    SceneLoadResult shown = parseScene(plain, "plain.json");
    QVERIFY(!shown.scene->cloths[0].hidden);
    // A wrong type is refused, naming the place.
    std::string bad = text;
    bad.replace(bad.find("\"hidden\": true"), 14, "\"hidden\": 3");
    SceneLoadResult refused = parseScene(bad, "bad.json");
    QVERIFY(!refused.ok());
    QVERIFY2(refused.error.find("hidden") != std::string::npos, refused.error.c_str());
}

void TestSceneEdits::badObjectsChangeNothing()
{
    EditDocument doc(testing::preset("tablecloth"));
    const testing::Seen before = testing::seen(doc);
    QVERIFY(!doc.rename({ Kind::Cloth, 5 }, "x").empty());
    QVERIFY(!doc.rename({ Kind::Cloth, 0 }, "").empty());
    QVERIFY(!doc.setHidden({ { Kind::Collider, -1 } }, true).empty());
    QVERIFY(!doc.duplicate({ { Kind::Collider, 99 } }).empty());
    QVERIFY(!doc.moveObject({ Kind::Cloth, 0 }, 1).empty()); // only one cloth
    QVERIFY(!doc.removeObjects({}).empty());
    QVERIFY(testing::same(testing::seen(doc), before));
    QCOMPARE(doc.undoCount(), std::size_t(0));
}

void TestSceneEdits::pickColliderFindsTheNearestSurface()
{
    // Along -Z from z = 5: a sphere (r 0.5 at z 0), a box (half 0.25 at z -2), a capsule
    // along X (r 0.2 at z -4) and a mesh square at z -6, each hit where geometry says.
    Simulation sim;
    Collider sphere = collider(ColliderKind::Sphere);
    sphere.center = { 0.f, 0.f, 0.f };
    sphere.radius = 0.5f;
    Collider box = collider(ColliderKind::Box);
    box.center = { 0.f, 0.f, -2.f };
    box.halfExtents = { 0.25f, 0.25f, 0.25f };
    Collider capsule = collider(ColliderKind::Capsule);
    capsule.center = { 0.f, 0.f, -4.f };
    capsule.axis = { 1.f, 0.f, 0.f };
    capsule.halfLength = 0.5f;
    capsule.radius = 0.2f;
    sim.colliders = { sphere, box, capsule };
    const Ray ray { { 0.f, 0.f, 5.f }, { 0.f, 0.f, -1.f } };
    ColliderHit hit = pickCollider(sim, ray);
    QVERIFY(hit.found);
    QCOMPARE(hit.collider, 0);
    QVERIFY(std::abs(hit.t - 4.5f) < 1e-5f);
    hit = pickCollider(sim, ray, { true }); // the sphere hidden: the box behind it
    QCOMPARE(hit.collider, 1);
    QVERIFY(std::abs(hit.t - 6.75f) < 1e-5f);
    hit = pickCollider(sim, ray, { true, true });
    QCOMPARE(hit.collider, 2);
    QVERIFY(std::abs(hit.t - 8.8f) < 1e-5f);
    // The capsule's end cap: 0.1 m off its axis end at x = 0.5 + 0.1.
    hit = pickCollider(sim, { { 0.6f, 0.f, 5.f }, { 0.f, 0.f, -1.f } }, { true, true });
    QCOMPARE(hit.collider, 2);
    QVERIFY(std::abs(hit.t - (9.f - std::sqrt(0.04f - 0.01f))) < 1e-4f);
    // Past the capsule's reach: nothing.
    QVERIFY(!pickCollider(sim, { { 0.75f, 0.f, 5.f }, { 0.f, 0.f, -1.f } }, { true, true }).found);
    // A mesh square lying at y = 1 (x 0.7..1, z 0..0.3), hit from above; a plane below it.
    Collider floor = collider(ColliderKind::Plane);
    floor.center = { 0.f, 0.f, 0.f };
    sim.colliders = { floor, meshToCollider(square(), "mesh") };
    hit = pickCollider(sim, { { 0.8f, 3.f, 0.1f }, { 0.f, -1.f, 0.f } });
    QCOMPARE(hit.collider, 1);
    QVERIFY(std::abs(hit.t - 2.f) < 1e-5f);
    hit = pickCollider(sim, { { 0.5f, 3.f, 0.1f }, { 0.f, -1.f, 0.f } }); // beside the square
    QCOMPARE(hit.collider, 0);
    QVERIFY(std::abs(hit.t - 3.f) < 1e-5f);
}

void TestSceneEdits::pickingFollowsTheColliderRotation()
{
    // A flat bar (half 1 × 0.1 × 0.1) turned 90° about Z stands upright, as the collision
    // code and the renderer turn it: a click beside its unturned extent misses, one along its
    // turned length hits its front face, 0.1 m in front of the centre.
    Simulation sim;
    Collider bar = collider(ColliderKind::Box);
    bar.center = { 0.f, 0.f, 0.f };
    bar.halfExtents = { 1.f, 0.1f, 0.1f };
    bar.rotation = { 0.f, 0.f, 90.f };
    sim.colliders = { bar };
    QVERIFY(!pickCollider(sim, { { 0.5f, 0.f, 5.f }, { 0.f, 0.f, -1.f } }).found);
    ColliderHit hit = pickCollider(sim, { { 0.f, 0.5f, 5.f }, { 0.f, 0.f, -1.f } });
    QVERIFY(hit.found);
    QVERIFY(std::abs(hit.t - 4.9f) < 1e-5f);
    // A plane turned 90° about X faces +Z: a ray down -Y along it misses, one along -Z hits.
    Collider wall = collider(ColliderKind::Plane);
    wall.center = { 0.f, 0.f, -1.f };
    wall.normal = { 0.f, 1.f, 0.f };
    wall.rotation = { 90.f, 0.f, 0.f };
    sim.colliders = { wall };
    QVERIFY(!pickCollider(sim, { { 0.f, 3.f, 0.f }, { 0.f, -1.f, 0.f } }).found);
    hit = pickCollider(sim, { { 0.f, 0.f, 5.f }, { 0.f, 0.f, -1.f } });
    QVERIFY(hit.found);
    QVERIFY(std::abs(hit.t - 6.f) < 1e-4f);
}

QTEST_GUILESS_MAIN(TestSceneEdits)
#include "tst_sceneedits.moc"
