// The scene + take document model (core/edit/editdocument.h, core/edit/player.h): replay is a
// pure function of the scene and the take, every edit has an exact inverse, and the defects
// of the old rebuild-from-the-running-cloth design stay fixed.
#include "randomedits.h"
#include "sanitizers.h"

#include <QtTest>

#include <cmath>
#include <random>

using namespace drape;

namespace {

Scene preset(const char *id)
{
    return testing::preset(id);
}

} // namespace

class TestTake : public QObject {
    Q_OBJECT

private slots:
    void takeOrdersEventsByFrame();
    void replayFromSnapshotMatchesReplayFromStart();
    void liveDocumentMatchesReplay();
    void eventThatNoLongerFitsIsReported();
    void editAtFrameZeroChangesTheScene();
    void editLaterRecordsAnEventAndDropsLaterOnes();
    void dragIsOneUndoStep();
    void dragThatTearsIsOneUndoStep();
    void bannerPinnedAfterTearingResetsToItsStart();
    void undoCutAfterMotionShowsTheUncutState();
    void curtainFinerGridKeepsWholeTopRowPinned();
    void gridRemapKeepsCorners();
    void structuralEditDropsEventsOfTheCloth();
    void messageSpeaksOfTheLastEditOnly();
    void setStartHereKeepsTheState();
    void modeText();
    void everyEventKindRoundTripsByteIdentical();
    void badTakeIsRefusedNamingThePlace_data();
    void badTakeIsRefusedNamingThePlace();
    void randomEditsUndoAndRedoExactly_data();
    void randomEditsUndoAndRedoExactly();
    void collidersAddAndRemoveWithTheirEvents();
};

void TestTake::takeOrdersEventsByFrame()
{
    Take t;
    t.add({ 5, PinEvent { 0, { 1 }, ParticleKind::Static } });
    t.add({ 2, PinEvent { 0, { 2 }, ParticleKind::Static } });
    t.add({ 5, PinEvent { 0, { 3 }, ParticleKind::Static } });
    t.add({ 9, DragEvent { 0, { 4 }, {}, { {}, {}, {} }, false } });
    QCOMPARE(t.events.size(), std::size_t(4));
    QCOMPARE(t.events[0].frame, std::uint64_t(2));
    QCOMPARE(std::get<PinEvent>(t.events[1].data).particles[0], 1u); // recording order within a frame
    QCOMPARE(std::get<PinEvent>(t.events[2].data).particles[0], 3u);
    QCOMPARE(t.range(5), (std::pair<std::size_t, std::size_t>(1, 3)));
    QCOMPARE(t.lastFrame(), std::uint64_t(11)); // the drag lasts three frames
    QCOMPARE(t.dropAfter(4), std::size_t(3));
    QCOMPARE(t.events.size(), std::size_t(1));
}

void TestTake::replayFromSnapshotMatchesReplayFromStart()
{
    const Scene scene = preset("banner-tear");
    Take take;
    take.add({ 3, DragEvent { 0, { 1100, 1101 }, {}, {}, false } });
    {
        const Simulation start = buildSimulation(scene);
        auto &d = std::get<DragEvent>(take.events[0].data);
        d.centre = start.cloths[0].particles.position[1100];
        for (int i = 0; i < 30; ++i)
            d.targets.push_back(d.centre + Vec3 { 0.f, -0.04f * float(i), 0.02f * float(i) });
    }
    take.add({ 12, PinEvent { 0, { 600 }, ParticleKind::Static } });
    take.add({ 20, ParameterEvent { "world.gravity.y", 0, -4.0 } });
    // The replay from the start (replay() is this player run to the frame in one go).
    Player player(scene, take);
    player.advanceTo(15); // in the middle of the drag
    const PlayerState snapshot = player.state();
    player.advanceTo(60);
    const std::uint64_t full = player.simulation().stateHash();
    QVERIFY(player.reports().empty());

    Player fromSnapshot(snapshot, take);
    fromSnapshot.advanceTo(60);
    QCOMPARE(fromSnapshot.simulation().stateHash(), full);
    // The events changed something: without them the state differs.
    QVERIFY(replay(scene, Take {}, 60).stateHash() != full);
}

void TestTake::liveDocumentMatchesReplay()
{
    EditDocument doc(preset("curtain"));
    doc.run(10);
    QVERIFY(doc.setKind(0, { 900, 901 }, ParticleKind::Static).empty());
    doc.run(5);
    const Vec3 centre = doc.simulation().cloths[0].particles.position[1500];
    QVERIFY(doc.beginDrag(0, { 1500 }, centre).empty());
    for (int i = 0; i < 8; ++i) {
        doc.dragTo(centre + Vec3 { 0.f, 0.f, 0.01f * float(i) });
        doc.dragTo(centre + Vec3 { 0.f, 0.f, 0.02f * float(i) }); // several moves within a frame
        doc.step();
    }
    doc.endDrag();
    doc.run(7);
    QCOMPARE(doc.simulation().stateHash(), replay(doc.scene(), doc.take(), doc.playhead()).stateHash());
}

void TestTake::eventThatNoLongerFitsIsReported()
{
    const Scene scene = preset("curtain");
    Take take;
    take.add({ 4, RemoveConstraintsEvent { 0, { { 999999, 0, 1 } }, true, true } });
    const Simulation start = buildSimulation(scene);
    const DistanceConstraint &c = start.cloths[0].constraints[10];
    take.add({ 5, RemoveConstraintsEvent { 0, { { 10, c.b, c.a } }, true, true } }); // other particles
    take.add({ 6, PinEvent { 3, { 0 }, ParticleKind::Static } });
    take.add({ 7, ParameterEvent { "no.such.key", 0, 1.0 } });
    std::vector<EventReport> reports;
    const Simulation sim = replay(scene, take, 10, &reports);
    QCOMPARE(reports.size(), std::size_t(4));
    QCOMPARE(reports[0].event, std::size_t(0));
    QVERIFY2(reports[0].message.find("999999 out of range") != std::string::npos, reports[0].message.c_str());
    QVERIFY2(reports[1].message.find("joins particles") != std::string::npos, reports[1].message.c_str());
    QVERIFY2(
        reports[2].message.find("cloth 3 out of range") != std::string::npos, reports[2].message.c_str());
    QVERIFY2(reports[3].message.find("no.such.key") != std::string::npos, reports[3].message.c_str());
    // Nothing applied: the same as the take without them.
    QCOMPARE(sim.stateHash(), replay(scene, Take {}, 10).stateHash());
}

void TestTake::editAtFrameZeroChangesTheScene()
{
    const Scene scene = preset("curtain");
    EditDocument doc(scene);
    QVERIFY(doc.setKind(0, { 1000 }, ParticleKind::Static).empty());
    QVERIFY(doc.take().empty());
    QCOMPARE(doc.scene().cloths[0].source, ClothSource::Grid); // a pin keeps a grid a grid
    QVERIFY(std::binary_search(doc.scene().cloths[0].pins.begin(), doc.scene().cloths[0].pins.end(), 1000u));
    QVERIFY(doc.removeConstraints(0, { 5, 6 }, true).empty());
    QCOMPARE(doc.scene().cloths[0].source, ClothSource::Explicit);
    QCOMPARE(doc.scene().cloths[0].explicitData.constraints.size(),
        buildCloth(scene.cloths[0]).constraints.size() - 2);
    doc.undo();
    doc.undo();
    QVERIFY(doc.scene() == scene);
}

void TestTake::editLaterRecordsAnEventAndDropsLaterOnes()
{
    const Scene scene = preset("flag");
    EditDocument doc(scene);
    doc.run(30);
    QVERIFY(doc.setKind(0, { 100 }, ParticleKind::Static).empty());
    doc.run(20);
    QVERIFY(doc.setKind(0, { 200 }, ParticleKind::Static).empty());
    QCOMPARE(doc.take().events.size(), std::size_t(2));
    QVERIFY(doc.scene() == scene); // events never change the scene
    doc.seek(40);
    const std::uint64_t shownAt40 = doc.simulation().stateHash();
    const Take takeAt40 = doc.take();
    QVERIFY(doc.setKind(0, { 300 }, ParticleKind::Static).empty());
    QCOMPARE(doc.take().events.size(), std::size_t(2)); // the event at 50 dropped
    QCOMPARE(doc.take().events[1].frame, std::uint64_t(40));
    QCOMPARE(doc.message(), std::string("1 later event was dropped"));
    doc.undo(); // one step: the edit and the dropped event come back together
    QVERIFY(doc.take() == takeAt40);
    QCOMPARE(doc.playhead(), std::uint64_t(40));
    QCOMPARE(doc.simulation().stateHash(), shownAt40);
}

void TestTake::dragIsOneUndoStep()
{
    EditDocument doc(preset("tablecloth"));
    doc.run(20);
    const std::uint64_t shown = doc.simulation().stateHash();
    const std::size_t steps = doc.undoCount();
    const Vec3 centre = doc.simulation().cloths[0].particles.position[40];
    QVERIFY(doc.beginDrag(0, { 40, 41 }, centre).empty());
    for (int i = 0; i < 25; ++i) {
        doc.dragTo(centre + Vec3 { 0.f, 0.02f * float(i), 0.f });
        doc.step();
    }
    doc.endDrag();
    const std::uint64_t after = doc.simulation().stateHash();
    QCOMPARE(doc.undoCount(), steps + 1);
    QCOMPARE(doc.undoText(steps), std::string("Drag"));
    doc.undo();
    QCOMPARE(doc.playhead(), std::uint64_t(20));
    QCOMPARE(doc.simulation().stateHash(), shown);
    doc.redo();
    QCOMPARE(doc.playhead(), std::uint64_t(45));
    QCOMPARE(doc.simulation().stateHash(), after);
}

void TestTake::dragThatTearsIsOneUndoStep()
{
    EditDocument doc(preset("tearable-net"));
    doc.run(10);
    const std::size_t constraints = doc.simulation().cloths[0].constraints.size();
    const std::uint64_t shown = doc.simulation().stateHash();
    const Vec3 centre = doc.simulation().cloths[0].particles.position[48 * 20 + 24];
    std::vector<std::uint32_t> held;
    for (std::uint32_t j = 18; j < 22; ++j)
        for (std::uint32_t i = 20; i < 28; ++i)
            held.push_back(j * 48 + i);
    QVERIFY(doc.beginDrag(0, held, centre).empty());
    for (int i = 0; i < 20; ++i) {
        doc.dragTo(centre + Vec3 { 0.f, -0.08f * float(i), 0.f });
        doc.step();
    }
    doc.endDrag();
    QVERIFY2(doc.simulation().cloths[0].constraints.size() < constraints, "the drag should tear the net");
    doc.undo();
    QCOMPARE(doc.simulation().cloths[0].constraints.size(), constraints);
    QCOMPARE(doc.simulation().stateHash(), shown);
}

void TestTake::bannerPinnedAfterTearingResetsToItsStart()
{
    // Defect: pinning a particle of the torn banner baked the torn topology into the scene, so
    // Reset brought back 1,188 particles and old seams.
    const Scene scene = preset("banner-tear");
    EditDocument doc(scene);
    QCOMPARE(doc.simulation().cloths[0].particles.size(), std::size_t(1120));
    doc.run(1); // the drag is an event at frame 1; frame 0 stays the untouched start
    // Tear it by dragging the lower edge down hard.
    const Vec3 centre = doc.simulation().cloths[0].particles.position[1100];
    std::vector<std::uint32_t> held;
    for (std::uint32_t i = 1080; i < 1120; ++i)
        held.push_back(i);
    QVERIFY(doc.beginDrag(0, held, centre).empty());
    for (int i = 0; i < 40 && doc.simulation().cloths[0].particles.size() == 1120; ++i) {
        doc.dragTo(centre + Vec3 { 0.f, -0.1f * float(i), 0.f });
        doc.step();
    }
    doc.endDrag();
    doc.run(10);
    QVERIFY2(doc.simulation().cloths[0].particles.size() > 1120, "the banner should have torn");
    QVERIFY(doc.setKind(0, { 500 }, ParticleKind::Static).empty());
    QVERIFY(doc.scene() == scene);
    doc.reset();
    QCOMPARE(doc.simulation().cloths[0].particles.size(), std::size_t(1120));
    QCOMPARE(doc.simulation().stateHash(), buildSimulation(scene).stateHash());
}

void TestTake::undoCutAfterMotionShowsTheUncutState()
{
    // Defect: undoing a cut after the cloth moved put the constraints back between particles
    // that were far apart (long triangles, tearing at once on Play).
    EditDocument doc(preset("curtain"));
    doc.run(40);
    const std::uint64_t shown = doc.simulation().stateHash();
    std::vector<std::uint32_t> cut;
    for (std::uint32_t k = 200; k < 260; ++k)
        cut.push_back(k);
    QVERIFY(doc.removeConstraints(0, cut, true).empty());
    const std::size_t afterCut = doc.simulation().cloths[0].constraints.size();
    const std::uint64_t shownAfterCut = doc.simulation().stateHash();
    doc.run(60);
    doc.undo();
    QCOMPARE(doc.playhead(), std::uint64_t(40));
    QCOMPARE(doc.simulation().stateHash(), shown);
    // Every constraint joins particles about its rest length apart (no long triangles).
    const Cloth &c = doc.simulation().cloths[0];
    for (const DistanceConstraint &k : c.constraints) {
        const float d = length(c.particles.position[k.a] - c.particles.position[k.b]);
        QVERIFY2(d < 1.5f * k.restLength + 1e-3f,
            qPrintable(QString("constraint %1–%2 is %3 m long, rest %4 m")
                           .arg(k.a)
                           .arg(k.b)
                           .arg(d)
                           .arg(k.restLength)));
    }
    doc.redo();
    QCOMPARE(doc.playhead(), std::uint64_t(40));
    QCOMPARE(doc.simulation().cloths[0].constraints.size(), afterCut);
    QCOMPARE(doc.simulation().stateHash(), shownAfterCut);
}

void TestTake::curtainFinerGridKeepsWholeTopRowPinned()
{
    // Defect: changing particles-across from 48 to 128 kept the old pin indices, so only the
    // left 48 particles of the top row stayed pinned.
    EditDocument doc(preset("curtain"));
    doc.run(30);
    QVERIFY(doc.setParameter("cloth.grid.across", 0, 128).empty());
    QCOMPARE(doc.playhead(), std::uint64_t(0));
    const ClothDesc &desc = doc.scene().cloths[0];
    QCOMPARE(desc.grid.across, 128);
    std::vector<std::uint32_t> topRow;
    for (std::uint32_t i = 0; i < 128; ++i)
        topRow.push_back(i);
    QCOMPARE(desc.pins, topRow);
    const Cloth &cloth = doc.simulation().cloths[0];
    for (std::uint32_t i = 0; i < cloth.particles.size(); ++i)
        QCOMPARE(cloth.particles.kind[i] == ParticleKind::Static, i < 128);
    // And back: exactly the old row.
    QVERIFY(doc.setParameter("cloth.grid.across", 0, 48).empty());
    topRow.resize(48);
    QCOMPARE(doc.scene().cloths[0].pins, topRow);
}

void TestTake::gridRemapKeepsCorners()
{
    GridDesc a;
    a.across = 10;
    a.down = 6;
    GridDesc b;
    b.across = 31;
    b.down = 4;
    // Corners stay corners, both ways.
    QCOMPARE(remapGridIndices(a, b, { 0 }), (std::vector<std::uint32_t> { 0 }));
    QCOMPARE(remapGridIndices(a, b, { 9 }), (std::vector<std::uint32_t> { 30 }));
    QCOMPARE(remapGridIndices(a, b, { 50 }), (std::vector<std::uint32_t> { 93 }));
    QCOMPARE(remapGridIndices(a, b, { 59 }), (std::vector<std::uint32_t> { 123 }));
    QCOMPARE(remapGridIndices(b, a, { 123 }), (std::vector<std::uint32_t> { 59 }));
    // The middle of the top row stays in the middle of the top row: u = 5/10... of 9 → 15.
    const auto mid = remapGridIndices(a, b, { 5 });
    QVERIFY(!mid.empty());
    for (std::uint32_t i : mid)
        QVERIFY(i >= 15 && i <= 18);
    // A lone pin stays one pin; a pinned row stays a whole row.
    QCOMPARE(remapGridIndices(a, b, { 0 }), (std::vector<std::uint32_t> { 0 }));
    QCOMPARE(remapGridIndices(a, b, { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9 }).size(), std::size_t(31));
    // Coarser: no pin is lost, each lands on the nearest particle.
    QCOMPARE(remapGridIndices(b, a, { 0, 1, 2, 3 }), (std::vector<std::uint32_t> { 0, 1 }));
}

void TestTake::structuralEditDropsEventsOfTheCloth()
{
    Scene scene = preset("curtain");
    EditDocument doc(scene);
    doc.run(10);
    QVERIFY(doc.setKind(0, { 800 }, ParticleKind::Static).empty());
    doc.run(5);
    QVERIFY(doc.setParameter("world.gravity.y", 0, -5.0).empty());
    QCOMPARE(doc.take().events.size(), std::size_t(2));
    GridDesc g = doc.scene().cloths[0].grid;
    g.down = 30;
    QVERIFY(doc.setGrid(0, g).empty());
    QCOMPARE(doc.playhead(), std::uint64_t(0));
    QCOMPARE(doc.take().events.size(), std::size_t(1)); // the gravity change still applies
    QVERIFY(std::holds_alternative<ParameterEvent>(doc.take().events[0].data));
    QCOMPARE(doc.message(), std::string("1 event no longer applies and was removed"));
    doc.undo();
    QCOMPARE(doc.take().events.size(), std::size_t(2));
    QCOMPARE(doc.playhead(), std::uint64_t(15));
    QVERIFY(doc.scene() == scene);
}

void TestTake::messageSpeaksOfTheLastEditOnly()
{
    // The editor shows message() after every edit: a message left over from an earlier edit
    // would be shown again after a change of name or a drag that dropped nothing.
    EditDocument doc(preset("curtain"));
    doc.run(10);
    QVERIFY(doc.setKind(0, { 800 }, ParticleKind::Static).empty());
    GridDesc g = doc.scene().cloths[0].grid;
    g.down = 30;
    QVERIFY(doc.setGrid(0, g).empty());
    const std::string removed = doc.message();
    QVERIFY(!removed.empty());
    Scene renamed = doc.scene();
    renamed.name = "renamed";
    QVERIFY(doc.setPresentation("Rename", renamed).empty());
    QCOMPARE(doc.message(), std::string());
    doc.undo();
    QCOMPARE(doc.message(), std::string());
    doc.undo();
    QCOMPARE(doc.message(), std::string());
    doc.redo();
    QCOMPARE(doc.message(), std::string());
    // A drag at a frame with later events drops them and says so; one that drops none says nothing.
    QVERIFY(doc.setParameter("world.gravity.y", 0, -5.0).empty()); // frame 0: scene edit
    doc.run(10);
    QVERIFY(doc.setKind(0, { 700 }, ParticleKind::Static).empty());
    doc.seek(5);
    QVERIFY(doc.beginDrag(0, { 100 }, doc.simulation().cloths[0].particles.position[100]).empty());
    QCOMPARE(doc.message(), std::string("1 later event was dropped"));
    doc.endDrag();
    doc.run(3);
    QVERIFY(doc.beginDrag(0, { 100 }, doc.simulation().cloths[0].particles.position[100]).empty());
    QCOMPARE(doc.message(), std::string());
    doc.endDrag();
}

void TestTake::setStartHereKeepsTheState()
{
    const Scene scene = preset("tearable-net");
    EditDocument doc(scene);
    doc.run(20);
    QVERIFY(doc.removeConstraints(0, { 100, 101, 102, 103 }, true).empty());
    doc.run(20);
    QVERIFY(doc.setParameter("world.gravity.y", 0, -6.0).empty());
    doc.run(5);
    const std::uint64_t shown = doc.simulation().stateHash();
    QVERIFY(doc.setStartHere().empty());
    QVERIFY(doc.take().empty());
    QCOMPARE(doc.playhead(), std::uint64_t(0));
    QCOMPARE(doc.simulation().stateHash(), shown);
    QVERIFY(doc.scene().state.has_value());
    QCOMPARE(doc.scene().world.gravity.y, -6.f);
    // Continuing from the new start is the uninterrupted run.
    EditDocument reference(scene);
    reference.run(20);
    reference.removeConstraints(0, { 100, 101, 102, 103 }, true);
    reference.run(20);
    reference.setParameter("world.gravity.y", 0, -6.0);
    reference.run(35);
    doc.run(30);
    QCOMPARE(doc.simulation().stateHash(), reference.simulation().stateHash());
    doc.undo();
    QVERIFY(doc.scene() == scene);
    QCOMPARE(doc.simulation().stateHash(), shown);
}

void TestTake::modeText()
{
    EditDocument doc(preset("flag"));
    QCOMPARE(doc.modeText(), std::string("Editing the scene"));
    doc.run(13); // any frame after 0; the text names it
    QCOMPARE(doc.modeText(), std::string("Recording at frame 13"));
}

void TestTake::everyEventKindRoundTripsByteIdentical()
{
    const Scene scene = preset("curtain");
    Take take;
    take.add({ 1,
        DragEvent {
            0, { 3, 4 }, { 0.1f, 1.2f, 0.f }, { { 0.1f, 1.2f, 0.f }, { 0.2f, 1.1f, 0.3f } }, false } });
    take.add({ 2, RemoveConstraintsEvent { 0, { { 5, 5, 6 }, { 90, 40, 41 } }, false, true } });
    take.add({ 2, PinEvent { 0, { 7, 9 }, ParticleKind::Dynamic } });
    take.add({ 3, MovePinsEvent { 0, { 0 }, { { -0.3f, 1.7f, 0.1f } } } });
    take.add({ 4, SewEvent { 0, 10, 400, -1.f, 1e-4f, 0.01f, kNeverTear, ConstraintKind::User } });
    take.add({ 4, SewEvent { 0, 11, 401, 0.25f, 0.f, 0.f, 0.7f, ConstraintKind::User } });
    take.add({ 5,
        ChangeConstraintsEvent { 0, { { 12, 12, 13 } }, std::nullopt, 2e-4f, std::nullopt, kNeverTear } });
    take.add({ 6, ParameterEvent { "world.gravity.y", 0, -3.25 } });
    Material silk = materialPresets()[2];
    take.add({ 7, MaterialEvent { 0, silk } });
    take.add({ 8, PushEvent { { 0.1f, 1.2f, 0.f }, 0.15f, { 0.01f, -0.02f, 0.f }, 0.5f } });
    const std::string text = serializeScene(scene, SaveOptions { false, &take });
    QVERIFY(text.find("\"take\"") != std::string::npos);
    const SceneLoadResult r = parseScene(text, "take.json");
    QVERIFY2(r.ok(), r.error.c_str());
    QVERIFY(r.warnings.empty());
    QVERIFY(r.take == take);
    QVERIFY(*r.scene == scene);
    QCOMPARE(serializeScene(*r.scene, SaveOptions { false, &r.take }), text);
    // An empty take writes no key, so a scene without one saves as before.
    QVERIFY(serializeScene(scene).find("\"take\"") == std::string::npos);
}

void TestTake::badTakeIsRefusedNamingThePlace_data()
{
    QTest::addColumn<QString>("take");
    QTest::addColumn<QString>("expected");
    QTest::newRow("not an array") << R"({})"
                                  << "/take: expected an array";
    QTest::newRow("unknown event") << R"([{"frame": 1, "event": "explode"}])"
                                   << "/take/0/event";
    QTest::newRow("frames out of order") << R"([{"frame": 5, "event": "pin", "cloth": 0, "particles": [1]},
               {"frame": 4, "event": "pin", "cloth": 0, "particles": [2]}])"
                                         << "/take/1/frame: frame 4 comes before frame 5";
    QTest::newRow("missing cloth") << R"([{"frame": 1, "event": "pin", "cloth": 3, "particles": [1]}])"
                                   << "/take/0/cloth: cloth 3 out of range";
    QTest::newRow("negative frame") << R"([{"frame": -1, "event": "pin", "cloth": 0, "particles": [1]}])"
                                    << "/take/0/frame";
    QTest::newRow("drag without targets")
        << R"([{"frame": 1, "event": "drag", "cloth": 0, "particles": [1], "centre": [0, 0, 0], "targets": []}])"
        << "/take/0/targets: empty";
    QTest::newRow("unknown parameter")
        << R"([{"frame": 1, "event": "parameter", "key": "world.colour", "value": 1}])"
        << "/take/0/key: unknown parameter";
}

void TestTake::badTakeIsRefusedNamingThePlace()
{
    QFETCH(QString, take);
    QFETCH(QString, expected);
    std::string text = serializeScene(preset("flag"));
    text.insert(text.rfind('}'), ",\n  \"take\": " + take.toStdString() + "\n");
    const SceneLoadResult r = parseScene(text, "bad.json");
    QVERIFY(!r.ok());
    QVERIFY2(r.error.find(expected.toStdString()) != std::string::npos, r.error.c_str());
    QVERIFY2(r.error.starts_with("bad.json: "), r.error.c_str());
}

void TestTake::randomEditsUndoAndRedoExactly_data()
{
    QTest::addColumn<QString>("id");
    for (const PresetDesc &p : presetList())
        QTest::newRow(p.id.c_str()) << QString::fromStdString(p.id);
}

void TestTake::randomEditsUndoAndRedoExactly()
{
    QFETCH(QString, id);
    // Half the edits under the sanitizers: every preset still goes through edits, undo, redo
    // and a save, at half the frames.
    testing::checkRandomSession(
        id.toStdString().c_str(), std::uint32_t(qHash(id)), testing::kSanitizedBuild ? 4 : 8);
}

// Adding and removing colliders are structural edits: the playhead returns to the start, the
// removed collider's parameter events go and those of later colliders follow their new
// index; undo restores all of it.
void TestTake::collidersAddAndRemoveWithTheirEvents()
{
    Scene scene = preset("tablecloth");
    const std::size_t colliders = scene.colliders.size();
    QVERIFY(colliders >= 1);
    EditDocument doc(scene);
    Collider box;
    box.name = "box";
    box.kind = ColliderKind::Box;
    box.center = box.baseCenter = { 0.6f, 0.3f, 0.f };
    box.halfExtents = { 0.2f, 0.2f, 0.2f };
    QVERIFY(doc.addCollider(box).empty());
    QCOMPARE(doc.scene().colliders.size(), colliders + 1);
    QCOMPARE(doc.simulation().colliders.size(), colliders + 1);
    doc.run(10);
    // Friction of the first collider and of the box, recorded at frame 10.
    QVERIFY(doc.setParameter("collider.friction", 0, 0.9).empty());
    QVERIFY(doc.setParameter("collider.friction", int(colliders), 0.7).empty());
    QCOMPARE(doc.take().events.size(), std::size_t(2));
    const Take before = doc.take();
    doc.run(5);
    const std::uint64_t shown = doc.simulation().stateHash();
    QVERIFY(doc.removeCollider(0).empty());
    QCOMPARE(doc.playhead(), std::uint64_t(0));
    QCOMPARE(doc.scene().colliders.size(), colliders);
    QCOMPARE(doc.take().events.size(), std::size_t(1)); // the first collider's event went
    const auto &moved = std::get<ParameterEvent>(doc.take().events[0].data);
    QCOMPARE(moved.index, int(colliders) - 1); // the box's event follows it
    QCOMPARE(doc.message(), std::string("1 event no longer applies and was removed"));
    QVERIFY(!doc.removeCollider(int(colliders)).empty()); // out of range: nothing changes
    doc.undo();
    QVERIFY(doc.take() == before);
    QCOMPARE(doc.playhead(), std::uint64_t(15));
    QCOMPARE(doc.simulation().stateHash(), shown);
}

QTEST_GUILESS_MAIN(TestTake)
#include "tst_take.moc"
