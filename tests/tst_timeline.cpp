// The timeline's frame cache: exact snapshots, scrubbing, the memory budget, invalidation
// after an edit, and the worker thread that fills the cache (run under ThreadSanitizer by
// the sanitizer step of cmake/quickstart.sh test).
#include "edit/clothedit.h"
#include "edit/cut.h"
#include "edit/editdocument.h"
#include "sanitizers.h"
#include "scene/presets.h"
#include "scene/scene.h"
#include "timeline/takesource.h"
#include "timeline/timeline.h"

#include <QtTest>

#include <algorithm>
#include <chrono>
#include <future>
#include <limits>
#include <map>
#include <numeric>
#include <random>

using namespace drape;

namespace {

// The sanitizer builds look for memory and threading errors and run the solver many times
// slower: there the take's cloth has half the particles each way (a quarter of them), and
// the cache budget below shrinks with it, so the same cases run in a quarter of the time.
constexpr int kSheetDivisor = testing::kSanitizedBuild ? 2 : 1;
// Frames each preset's snapshot copy is stepped beside the original.
constexpr int kCopyFrames = testing::kSanitizedBuild ? 15 : 60;

Scene presetScene(const std::string &id, int substeps = 0)
{
    const SceneLoadResult loaded = loadPreset(id);
    if (!loaded.ok())
        qFatal("preset %s: %s", id.c_str(), loaded.error.c_str());
    Scene scene = *loaded.scene;
    if (substeps > 0)
        scene.solver.substeps = substeps;
    return scene;
}

Simulation presetSimulation(const std::string &id, int substeps = 0)
{
    return buildSimulation(presetScene(id, substeps));
}

// The take's cloth: the curtain (XPBD, 1,920 particles; 480 under the sanitizers) with 2
// substeps instead of 10, so that the many 600-frame runs below stay quick.
Simulation takeStart()
{
    Scene scene = presetScene("curtain", 2);
    ClothDesc &cloth = scene.cloths[0];
    GridDesc smaller = cloth.grid;
    smaller.across /= kSheetDivisor;
    smaller.down /= kSheetDivisor;
    cloth.pins = remapGridIndices(cloth.grid, smaller, cloth.pins);
    cloth.grid = smaller;
    return buildSimulation(scene);
}

constexpr std::uint64_t kDragBegin = 40, kDragEnd = 120, kCutFrame = 200, kParamFrame = 300;

// A take on the curtain, written as a pure function of the frame: a drag of one particle of
// the bottom row (kinematic, moved 1 cm per frame toward +z, then released), a cut across
// the middle, and a parameter change (air damping).
void curtainTake(Simulation &sim)
{
    const std::uint64_t k = sim.frame();
    Cloth &cloth = sim.cloths[0];
    const std::uint32_t held = std::uint32_t(cloth.particles.size() - 24);
    if (k >= kDragBegin && k < kDragEnd) {
        if (k == kDragBegin)
            cloth.particles.setKind(held, ParticleKind::Kinematic);
        cloth.particles.position[held] += Vec3 { 0.f, 0.f, 0.01f };
    } else if (k == kDragEnd) {
        cloth.particles.setKind(held, ParticleKind::Dynamic);
    } else if (k == kCutFrame) {
        Vec3 lo = cloth.particles.position[0], hi = lo;
        for (const Vec3 &p : cloth.particles.position) {
            lo = { std::min(lo.x, p.x), std::min(lo.y, p.y), std::min(lo.z, p.z) };
            hi = { std::max(hi.x, p.x), std::max(hi.y, p.y), std::max(hi.z, p.z) };
        }
        const Vec3 mid = (lo + hi) * 0.5f;
        const ClothEditResult cut = makeCutSegment(
            cloth, { lo.x + 0.1f * (hi.x - lo.x), mid.y, mid.z }, { mid.x, mid.y, mid.z }, 0.2f);
        if (!cut.ok() || !apply(cloth, cut.edit).empty())
            qFatal("the cut failed: %s", cut.error.c_str());
    } else if (k == kParamFrame) {
        sim.world.airDamping = 0.5f;
    }
}

std::shared_ptr<const FrameSource> curtainTakeSource()
{
    return std::make_shared<EventSource>(takeStart(), curtainTake,
        std::vector<std::uint64_t> { kDragBegin, kDragEnd, kCutFrame, kParamFrame });
}

// The same take plus a pin at `pinFrame` (an edit made later in the session).
std::shared_ptr<const FrameSource> curtainTakeWithPin(std::uint64_t pinFrame)
{
    auto events = [pinFrame](Simulation &sim) {
        curtainTake(sim);
        if (sim.frame() == pinFrame)
            sim.cloths[0].particles.setKind(
                std::uint32_t(sim.cloths[0].particles.size() / 2), ParticleKind::Static);
    };
    return std::make_shared<EventSource>(takeStart(), events,
        std::vector<std::uint64_t> { kDragBegin, kDragEnd, kCutFrame, kParamFrame, pinFrame });
}

std::vector<std::uint64_t> forwardHashes(const FrameSource &source, std::uint64_t frames)
{
    std::unique_ptr<SourceState> state = source.start();
    std::vector<std::uint64_t> hashes { state->simulation().stateHash() };
    for (std::uint64_t f = 1; f <= frames; ++f) {
        source.advance(*state);
        hashes.push_back(state->simulation().stateHash());
    }
    return hashes;
}

// Moves the playhead to every frame in a random order (`seed`); each frame must have the hash
// of the forward run.
void scrubInRandomOrder(Timeline &timeline, const std::vector<std::uint64_t> &expected, unsigned seed)
{
    std::vector<std::uint64_t> order(expected.size());
    std::iota(order.begin(), order.end(), 0);
    std::shuffle(order.begin(), order.end(), std::mt19937(seed));
    for (std::uint64_t f : order) {
        timeline.setPlayhead(f);
        const auto frame = timeline.frame(f);
        QVERIFY(frame);
        QCOMPARE(frame->frame, f);
        QCOMPARE(frame->stateHash, expected[f]);
    }
}

} // namespace

class TestTimeline : public QObject {
    Q_OBJECT
private slots:
    void snapshotCopyIsExact_data();
    void snapshotCopyIsExact();
    void scrubRandomFramesMatchesForwardRun();
    void lowBudgetStaysWithinItAndResimulatesExactly();
    void editResimulatesFromItsFrameOnly();
    void topologyIsSharedUntilItChanges();
    void workerFillsAheadWhileTheGuiEdits();
    void workerScrubsWhileEditing();
    void takeSourceReplaysTheDocument();
    void editAtAFrameRefillsFromThatFrame();
    void deletedEventIsOneUndoStep();
    void editDocumentTakeScrubsLikeItsForwardRun();
    void undoOfAnEventRefillsFromItsFrame();
    void takeSourceWorkerFollowsDocumentEdits();
    void stateRequestIsServedByTheWorkerExactly();
    void dragStepsMadeByTheWorkerEqualTheDocumentsOwn();
    void abandonedStateRequestIsLeftBetweenFrames();
};

void TestTimeline::snapshotCopyIsExact_data()
{
    QTest::addColumn<QString>("preset");
    for (const PresetDesc &p : presetList())
        QTest::newRow(p.id.c_str()) << QString::fromStdString(p.id);
}

// A Simulation copy is an exact solver snapshot: stepping the copy and the original gives
// the same state hash at every frame (solver history, XPBD batches, tears included).
void TestTimeline::snapshotCopyIsExact()
{
    QFETCH(QString, preset);
    Simulation original = presetSimulation(preset.toStdString());
    original.run(7);
    Simulation copy = original;
    QCOMPARE(copy.stateHash(), original.stateHash());
    for (int f = 0; f < kCopyFrames; ++f) {
        original.step();
        copy.step();
        QCOMPARE(copy.stateHash(), original.stateHash());
    }
    QVERIFY(copy.memoryBytes() > 0);
}

void TestTimeline::scrubRandomFramesMatchesForwardRun()
{
    constexpr std::uint64_t kFrames = 600;
    auto source = curtainTakeSource();
    const std::vector<std::uint64_t> expected = forwardHashes(*source, kFrames);
    // The take changes the result: the forward run differs from the plain scene.
    QVERIFY(expected.back() != forwardHashes(PlainSource(takeStart()), kFrames).back());

    Timeline timeline(source);
    scrubInRandomOrder(timeline, expected, 13);
    // Within the default budget every frame was simulated once.
    QCOMPARE(timeline.simulatedFrames(), kFrames);
    QCOMPARE(timeline.status().frames, std::size_t(kFrames + 1));
    // The full state at a frame re-simulates from a snapshot to the same hash.
    QCOMPARE(timeline.simulationAt(437).stateHash(), expected[437]);
}

void TestTimeline::lowBudgetStaysWithinItAndResimulatesExactly()
{
    constexpr std::uint64_t kFrames = 600;
    auto source = curtainTakeSource();
    const std::vector<std::uint64_t> expected = forwardHashes(*source, kFrames);

    // Room for a few snapshots and about a hundred of the curtain's 23 KB frames (a quarter
    // of both under the sanitizers).
    CacheSettings settings;
    settings.budgetBytes = (6u << 20) / (kSheetDivisor * kSheetDivisor);
    settings.snapshotInterval = 20;
    Timeline timeline(source, settings);
    QCOMPARE(timeline.frame(kFrames)->stateHash, expected[kFrames]);
    QVERIFY(timeline.status().bytes <= settings.budgetBytes);

    std::mt19937 random(7);
    std::uniform_int_distribution<std::uint64_t> pick(0, kFrames);
    std::size_t peak = 0;
    for (int i = 0; i < 40; ++i) {
        const std::uint64_t f = pick(random);
        timeline.setPlayhead(f);
        QCOMPARE(timeline.frame(f)->stateHash, expected[f]);
        const TimelineStatus s = timeline.status();
        QVERIFY2(s.bytes <= settings.budgetBytes,
            qPrintable(QStringLiteral("%1 bytes > budget %2").arg(s.bytes).arg(settings.budgetBytes)));
        peak = std::max(peak, s.bytes);
        // Frames were dropped (the whole run does not fit) and snapshots thinned.
        QVERIFY(s.frames < kFrames / 2);
        QVERIFY(s.snapshots < kFrames / settings.snapshotInterval);
    }
    QVERIFY(peak > settings.budgetBytes / 2); // the budget is used, not ignored
    qInfo("peak %zu bytes of %zu; snapshot of the curtain: %zu bytes", peak, settings.budgetBytes,
        timeline.simulationAt(0).memoryBytes());
    QVERIFY(timeline.simulatedFrames() > kFrames); // dropped frames were simulated again
}

void TestTimeline::editResimulatesFromItsFrameOnly()
{
    constexpr std::uint64_t kFrames = 600, kPin = 250;
    auto take = curtainTakeSource();
    auto edited = curtainTakeWithPin(kPin);
    const std::vector<std::uint64_t> takeHashes = forwardHashes(*take, kFrames);
    const std::vector<std::uint64_t> editedHashes = forwardHashes(*edited, kFrames);
    QVERIFY(takeHashes[kPin] == editedHashes[kPin]);
    QVERIFY(takeHashes[kPin + 1] != editedHashes[kPin + 1]);

    CacheSettings settings;
    settings.snapshotInterval = 30;
    Timeline timeline(take, settings);
    timeline.frame(kFrames);
    QCOMPARE(timeline.simulatedFrames(), kFrames);
    const auto before = timeline.cachedFrame(kPin);

    // The pin is an event at frame 250: it changes frames 251 on. The cache re-simulates from
    // the snapshot at or before 250 (frame 240, K = 30): 360 frames, not 600.
    timeline.setSource(edited, kPin + 1);
    QCOMPARE(timeline.cachedFrame(kPin), before); // earlier frames stay valid, untouched
    QVERIFY(!timeline.cachedFrame(kPin + 1));
    QCOMPARE(timeline.status().stale, (FrameRange { kPin + 1, kFrames + 1 }));
    QCOMPARE(timeline.frame(kFrames)->stateHash, editedHashes[kFrames]);
    QCOMPARE(timeline.simulatedFrames(), kFrames + (kFrames - 240));
    QCOMPARE(timeline.status().stale.begin, timeline.status().stale.end);

    // Undoing the pin: the source had an event at 250, so its state there was kept as a
    // snapshot and exactly frames 251..600 are simulated again.
    const std::uint64_t simulated = timeline.simulatedFrames();
    timeline.setSource(take, kPin + 1);
    QCOMPARE(timeline.frame(kFrames)->stateHash, takeHashes[kFrames]);
    QCOMPARE(timeline.simulatedFrames() - simulated, kFrames - kPin);
    for (std::uint64_t f = 0; f <= kFrames; f += 37)
        QCOMPARE(timeline.frame(f)->stateHash, takeHashes[f]);

    // A scene edit (frame 0) recomputes everything.
    timeline.setSource(std::make_shared<PlainSource>(presetSimulation("flag")), 0);
    QCOMPARE(timeline.status().frames, std::size_t(1)); // the new start only
    QCOMPARE(timeline.frame(10)->stateHash, forwardHashes(PlainSource(presetSimulation("flag")), 10)[10]);
}

void TestTimeline::topologyIsSharedUntilItChanges()
{
    Timeline timeline(curtainTakeSource());
    const auto a = timeline.frame(kCutFrame - 1);
    const auto b = timeline.frame(kCutFrame);
    const auto c = timeline.frame(kCutFrame + 1);
    QCOMPARE(a->cloths[0].topology, b->cloths[0].topology); // one record for the uncut frames
    QVERIFY(c->cloths[0].topology != b->cloths[0].topology); // the cut made a new one
    QVERIFY(c->cloths[0].topology->triangles.size() < b->cloths[0].topology->triangles.size());
    // The measured use counts each shared record once: the frames cost their positions and
    // two topology records, not a copy of the topology per frame.
    const TimelineStatus s = timeline.status();
    const std::size_t frameBytes = s.bytes - s.snapshotBytes;
    QVERIFY(frameBytes
        <= s.frames * b->ownBytes() + 2 * c->cloths[0].topology->bytes() + b->cloths[0].topology->bytes());
    QVERIFY(frameBytes >= s.frames * b->cloths[0].position.size() * sizeof(Vec3));
}

// The worker fills ahead of the playhead while this (the "GUI") thread moves the playhead,
// reads frames and edits. Run under ThreadSanitizer in the sanitizer build.
void TestTimeline::workerFillsAheadWhileTheGuiEdits()
{
    constexpr std::uint64_t kEnd = 150;
    auto take = curtainTakeSource();
    auto edited = curtainTakeWithPin(60);
    const std::vector<std::uint64_t> editedHashes = forwardHashes(*edited, kEnd);

    CacheSettings settings;
    settings.snapshotInterval = 10;
    Timeline timeline(take, settings);
    timeline.setEndFrame(kEnd);
    timeline.startWorker();
    std::uint64_t shown = 0;
    for (std::uint64_t f = 0; f <= 80; ++f) {
        timeline.setPlayhead(f);
        if (auto frame = timeline.cachedFrame(f))
            shown += frame->frame == f;
        (void)timeline.status();
        if (f == 40)
            timeline.setSource(edited, 61);
        if (f == 70)
            timeline.invalidateFrom(65);
    }
    timeline.setPlayhead(0);
    timeline.waitIdle();
    const TimelineStatus s = timeline.status();
    QCOMPARE(s.cached.size(), std::size_t(1));
    QCOMPARE(s.cached.front(), (FrameRange { 0, kEnd + 1 }));
    for (std::uint64_t f = 0; f <= kEnd; ++f) {
        const auto frame = timeline.cachedFrame(f);
        QVERIFY(frame);
        QCOMPARE(frame->stateHash, editedHashes[f]);
    }
    timeline.stopWorker();
    qInfo("frames already cached when the playhead reached them: %llu of 81", (unsigned long long)shown);
}

// Random scrubbing, edits and budget changes while the worker fills a small cache: every
// frame handed out has the hash of the forward run of the source it was made from, and the
// cache keeps to its budget.
void TestTimeline::workerScrubsWhileEditing()
{
    constexpr std::uint64_t kEnd = 120;
    auto take = curtainTakeSource();
    auto edited = curtainTakeWithPin(45);
    const std::vector<std::uint64_t> takeHashes = forwardHashes(*take, kEnd);
    const std::vector<std::uint64_t> editedHashes = forwardHashes(*edited, kEnd);

    CacheSettings settings;
    settings.budgetBytes = 1500u << 10;
    settings.snapshotInterval = 8;
    Timeline timeline(edited, settings);
    timeline.setEndFrame(kEnd);
    timeline.setLookAhead(30);
    timeline.startWorker();
    std::mt19937 random(3);
    std::uniform_int_distribution<std::uint64_t> pick(0, kEnd);
    bool isEdited = true;
    for (int i = 0; i < 300; ++i) {
        const std::uint64_t f = pick(random);
        timeline.setPlayhead(f);
        // An edit may land between the look-up and here, so the frame is of either source
        // (both agree up to frame 45).
        if (auto frame = timeline.cachedFrame(f))
            QVERIFY(frame->stateHash == editedHashes[f] || frame->stateHash == takeHashes[f]);
        QVERIFY(timeline.status().bytes <= settings.budgetBytes);
        if (i % 50 == 25) {
            isEdited = !isEdited;
            timeline.setSource(isEdited ? edited : take, 46);
        }
        if (i == 150) {
            settings.budgetBytes = 1200u << 10;
            timeline.setSettings(settings);
        }
        QThread::usleep(200);
    }
    // With room for the look-ahead, the worker fills [90, 120] for the last source.
    settings.budgetBytes = 3u << 20;
    timeline.setSettings(settings);
    timeline.setPlayhead(90);
    timeline.waitIdle();
    const auto &hashes = isEdited ? editedHashes : takeHashes;
    for (std::uint64_t f = 90; f <= kEnd; ++f) {
        const auto frame = timeline.cachedFrame(f);
        QVERIFY2(frame, qPrintable(QStringLiteral("frame %1 not filled").arg(f)));
        QCOMPARE(frame->stateHash, hashes[f]);
    }
    QVERIFY(timeline.status().bytes <= settings.budgetBytes);
    timeline.stopWorker();
}

namespace {

// A tablecloth session: a pin at 6, a cut at 14, a drag from 20 to 27, a gravity change at 31.
EditDocument tableclothSession()
{
    EditDocument doc(*loadPreset("tablecloth").scene);
    doc.run(6);
    doc.setKind(0, { 3, 4 }, ParticleKind::Static);
    doc.run(8);
    doc.removeConstraints(0, { 40, 41, 42 }, true);
    doc.run(6);
    const Vec3 centre = doc.simulation().cloths[0].particles.position[150];
    doc.beginDrag(0, { 150, 151 }, centre);
    for (int i = 0; i < 7; ++i) {
        doc.dragTo(centre + Vec3 { 0.f, 0.02f * float(i), 0.01f * float(i) });
        doc.step();
    }
    doc.endDrag();
    doc.run(4);
    doc.setParameter("world.gravity.y", 0, -5.0);
    doc.run(9);
    return doc;
}

} // namespace

// The timeline over a document's scene and take gives, at every frame, the state the editor
// shows there; an editor document continued from a cached snapshot does too.
void TestTimeline::takeSourceReplaysTheDocument()
{
    EditDocument doc = tableclothSession();
    QCOMPARE(doc.take().events.size(), std::size_t(4));
    CacheSettings settings;
    settings.snapshotInterval = 8;
    Timeline timeline(std::make_shared<TakeSource>(std::make_shared<const Scene>(doc.scene()), doc.take()),
        settings);
    // The reference: one replay of the scene and the take from frame 0 (what replay() does
    // for each frame), read at each frame the test asks for on its way.
    std::map<std::uint64_t, std::uint64_t> expected;
    Player reference(doc.scene(), doc.take());
    for (std::uint64_t f : { 0, 6, 13, 14, 18, 22, 27, 31, 40 }) {
        reference.advanceTo(f);
        expected[f] = reference.simulation().stateHash();
    }
    for (std::uint64_t f : { 0, 6, 13, 14, 22, 27, 31, 40 })
        QCOMPARE(timeline.frame(f)->stateHash, expected[f]);
    // Scrub: the document goes back to frame 18 from the cache's state at 16, not from 0.
    std::unique_ptr<SourceState> at16 = timeline.stateAt(16);
    doc.seekFrom(static_cast<TakeState &>(*at16).state, 18);
    QCOMPARE(doc.playhead(), std::uint64_t(18));
    QCOMPARE(doc.simulation().stateHash(), expected[18]);
    doc.seekFrom(static_cast<TakeState &>(*timeline.stateAt(24)).state, 31); // inside the drag, past the gravity change
    QCOMPARE(doc.simulation().stateHash(), expected[31]);
    QCOMPARE(doc.settings().world.gravity.y, -5.f);
}

// An event changed at frame f re-simulates from f: the frames before it stay cached.
void TestTimeline::editAtAFrameRefillsFromThatFrame()
{
    EditDocument doc = tableclothSession();
    auto scene = std::make_shared<const Scene>(doc.scene());
    const Take before = doc.take();
    Timeline timeline(std::make_shared<TakeSource>(scene, before));
    timeline.frame(40);
    const std::uint64_t simulated = timeline.simulatedFrames();
    doc.seek(27);
    doc.setKind(0, { 600 }, ParticleKind::Static); // at 27: drops the gravity change at 31
    const std::uint64_t from = firstChangedFrame(*scene, before, doc.scene(), doc.take());
    QCOMPARE(from, std::uint64_t(27));
    timeline.setSource(std::make_shared<TakeSource>(scene, doc.take()), from);
    QVERIFY(timeline.cachedFrame(20) != nullptr);
    QCOMPARE(timeline.frame(40)->stateHash, replay(doc.scene(), doc.take(), 40).stateHash());
    // Re-simulated from the snapshot kept just before the drag's frame 20 (the nearest full
    // state before 27), not from the start.
    QVERIFY2(timeline.simulatedFrames() - simulated <= 40 - 19,
        qPrintable(QString::number(timeline.simulatedFrames() - simulated)));
    QCOMPARE(firstChangedFrame(*scene, before, *scene, before), std::numeric_limits<std::uint64_t>::max());
    Scene other = *scene;
    other.world.airDamping *= 2.f;
    QCOMPARE(firstChangedFrame(*scene, before, other, before), std::uint64_t(0));
    other = *scene;
    other.view.showConstraints = !other.view.showConstraints; // presentation only
    QCOMPARE(firstChangedFrame(*scene, before, other, before), std::numeric_limits<std::uint64_t>::max());
}

// Deleting an event of the take (the timeline's marker menu) is one undo step, and what the
// playhead shows is the replay without it.
void TestTimeline::deletedEventIsOneUndoStep()
{
    EditDocument doc = tableclothSession();
    const std::uint64_t shown = doc.simulation().stateHash();
    const Take take = doc.take();
    const std::size_t steps = doc.undoIndex();
    QVERIFY(doc.removeEvent(1).empty()); // the cut
    QCOMPARE(doc.undoIndex(), steps + 1);
    QCOMPARE(doc.take().events.size(), std::size_t(3));
    Take without = take;
    without.events.erase(without.events.begin() + 1);
    QCOMPARE(doc.simulation().stateHash(), replay(doc.scene(), without, doc.playhead()).stateHash());
    doc.undo();
    QVERIFY(doc.take() == take);
    QCOMPARE(doc.simulation().stateHash(), shown);
    QVERIFY(!doc.removeEvent(9).empty()); // out of range: nothing changes
    QCOMPARE(doc.undoIndex(), steps);
}

namespace {

// A small curtain (16 × 12 particles, 2 substeps) so that 600-frame takes stay quick, also
// under the sanitizers.
Scene smallCurtain()
{
    Scene scene = *loadPreset("curtain").scene;
    ClothDesc &cloth = scene.cloths.at(0);
    cloth.grid.across = 16;
    cloth.grid.down = 12;
    cloth.pins.clear();
    for (std::uint32_t i = 0; i < 16; ++i)
        cloth.pins.push_back(i);
    scene.solver.substeps = 2;
    return scene;
}

// A session on it recorded through the editing layer: a drag of a bottom-row particle from
// frame 40 to 120, a cut across the middle at 200 and a change of air damping at 300.
EditDocument smallCurtainSession()
{
    EditDocument doc(smallCurtain());
    doc.run(int(kDragBegin));
    const std::uint32_t held = 11 * 16 + 5;
    const Vec3 centre = doc.simulation().cloths[0].particles.position[held];
    if (!doc.beginDrag(0, { held }, centre).empty())
        qFatal("the drag did not start");
    for (std::uint64_t k = kDragBegin; k < kDragEnd; ++k) {
        doc.dragTo(centre + Vec3 { 0.f, 0.f, 0.01f } * float(k - kDragBegin));
        doc.step();
    }
    doc.endDrag();
    doc.run(int(kCutFrame - doc.playhead()));
    const Particles &p = doc.simulation().cloths[0].particles;
    const std::vector<std::uint32_t> cut
        = constraintsNearSegment(doc.simulation().cloths[0], p.position[6 * 16 + 2], p.position[6 * 16 + 9], 0.02f);
    if (cut.empty() || !doc.removeConstraints(0, cut, true).empty())
        qFatal("the cut found nothing to cut");
    doc.run(int(kParamFrame - doc.playhead()));
    if (!doc.setParameter("world.airDamping", 0, 0.5).empty())
        qFatal("the parameter change failed");
    return doc;
}

std::shared_ptr<const FrameSource> sourceOf(const EditDocument &doc)
{
    return std::make_shared<TakeSource>(doc.sharedScene(), doc.take());
}

} // namespace

// A 600-frame take made in the editing layer (a drag, a cut and a parameter change),
// scrubbed at random through the document's TakeSource: every frame equals the forward run.
void TestTimeline::editDocumentTakeScrubsLikeItsForwardRun()
{
    constexpr std::uint64_t kFrames = 600;
    const EditDocument doc = smallCurtainSession();
    QCOMPARE(doc.take().events.size(), std::size_t(3));
    auto source = sourceOf(doc);
    const std::vector<std::uint64_t> expected = forwardHashes(*source, kFrames);
    QVERIFY(expected.back() != forwardHashes(TakeSource(doc.sharedScene(), Take {}), kFrames).back());
    // The source replays what the editor showed.
    QCOMPARE(expected[kParamFrame], doc.simulation().stateHash());

    Timeline timeline(source);
    scrubInRandomOrder(timeline, expected, 600);
    QCOMPARE(timeline.simulatedFrames(), kFrames);
}

// Undoing an event made in the editing layer re-simulates from the event's frame only: the
// state just before it was kept as a snapshot, the frames before it stay cached.
void TestTimeline::undoOfAnEventRefillsFromItsFrame()
{
    constexpr std::uint64_t kEnd = 400, kPin = 250;
    EditDocument doc = smallCurtainSession();
    Timeline timeline(sourceOf(doc));
    timeline.frame(kEnd);
    auto scene = doc.sharedScene();
    const Take original = doc.take();

    doc.seek(kPin);
    QVERIFY(doc.setKind(0, { 11 * 16 + 12 }, ParticleKind::Static).empty()); // drops the change at 300
    const Take pinned = doc.take();
    std::uint64_t from = firstChangedFrame(*scene, original, *doc.sharedScene(), pinned);
    QCOMPARE(from, kPin);
    timeline.setSource(sourceOf(doc), from);
    QCOMPARE(timeline.frame(kEnd)->stateHash, replay(doc.scene(), pinned, kEnd).stateHash());
    const auto kept = timeline.cachedFrame(kPin - 1);
    QVERIFY(kept);

    doc.undo();
    QVERIFY(doc.take() == original);
    from = firstChangedFrame(*scene, pinned, *doc.sharedScene(), doc.take());
    QCOMPARE(from, kPin);
    const std::uint64_t simulated = timeline.simulatedFrames();
    timeline.setSource(sourceOf(doc), from);
    QCOMPARE(timeline.frame(kEnd)->stateHash, replay(doc.scene(), original, kEnd).stateHash());
    QCOMPARE(timeline.simulatedFrames() - simulated, kEnd - kPin + 1); // frames 250..400
    QCOMPARE(timeline.cachedFrame(kPin - 1), kept); // untouched
}

// The worker fills a document's timeline while this (the "GUI") thread edits the document
// in the editing layer and hands the timeline each new TakeSource, as the editor does. Run
// under ThreadSanitizer in the sanitizer build.
void TestTimeline::takeSourceWorkerFollowsDocumentEdits()
{
    constexpr std::uint64_t kEnd = 160;
    EditDocument doc = smallCurtainSession();
    CacheSettings settings;
    settings.snapshotInterval = 10;
    Timeline timeline(sourceOf(doc), settings);
    timeline.setEndFrame(kEnd);
    timeline.startWorker();
    std::shared_ptr<const Scene> scene = doc.sharedScene();
    Take take = doc.take();
    std::mt19937 random(5);
    std::uniform_int_distribution<std::uint64_t> pick(0, kEnd);
    for (int i = 0; i < 12; ++i) {
        timeline.setPlayhead(pick(random));
        (void)timeline.cachedFrame(pick(random));
        (void)timeline.status();
        // Pin, undo, redo: each makes a new source from the frame it changed.
        if (i % 3 == 0) {
            doc.seek(20 + std::uint64_t(i) * 10);
            QVERIFY(doc.setKind(0, { std::uint32_t(100 + i) }, ParticleKind::Static).empty());
        } else if (i % 3 == 1) {
            doc.undo();
        } else {
            doc.redo();
        }
        const std::uint64_t from = firstChangedFrame(*scene, take, *doc.sharedScene(), doc.take());
        scene = doc.sharedScene();
        take = doc.take();
        timeline.setSource(sourceOf(doc), from);
    }
    timeline.setPlayhead(0);
    timeline.waitIdle();
    const std::vector<std::uint64_t> expected = forwardHashes(*sourceOf(doc), kEnd);
    for (std::uint64_t f = 0; f <= kEnd; ++f) {
        const auto frame = timeline.cachedFrame(f);
        QVERIFY2(frame, qPrintable(QStringLiteral("frame %1 not filled").arg(f)));
        QCOMPARE(frame->stateHash, expected[f]);
    }
    timeline.stopWorker();
}

namespace {

struct Served {
    std::uint64_t frame = 0;
    std::uint64_t hash = 0;
    std::thread::id thread;
    std::unique_ptr<SourceState> state;
};

// Asks `timeline` for the state at `f` and waits for the answer (at most a minute).
Served requestAndWait(Timeline &timeline, std::uint64_t f, std::unique_ptr<SourceState> from = nullptr)
{
    auto promise = std::make_shared<std::promise<Served>>();
    std::future<Served> answer = promise->get_future();
    timeline.requestState(
        f,
        [promise](std::unique_ptr<SourceState> state) {
            Served served { state->frame(), state->simulation().stateHash(), std::this_thread::get_id(), nullptr };
            served.state = std::move(state);
            promise->set_value(std::move(served));
        },
        std::move(from));
    if (answer.wait_for(std::chrono::minutes(1)) != std::future_status::ready)
        qFatal("the worker did not serve the state request for frame %llu", static_cast<unsigned long long>(f));
    return answer.get();
}

} // namespace

// A state request is served by the worker thread, the caller's thread stepping nothing, with
// exactly stateAt()'s state; the caller's own state, when nearer than the snapshot, is stepped
// on instead; without a worker the request is served at once on the calling thread. And the
// document's arrival made apart (EditDocument::arrive, then adopt) is the one seekFrom() makes.
void TestTimeline::stateRequestIsServedByTheWorkerExactly()
{
    const EditDocument session = tableclothSession();
    const auto scene = std::make_shared<const Scene>(session.scene());
    const auto source = std::make_shared<TakeSource>(scene, session.take());
    std::vector<std::uint64_t> expected;
    Player forward(*scene, session.take());
    for (std::uint64_t f = 0; f <= 40; forward.advance(), ++f)
        expected.push_back(forward.simulation().stateHash());
    CacheSettings settings;
    settings.snapshotInterval = 8;
    Timeline timeline(source, settings);
    timeline.setEndFrame(40);
    timeline.startWorker();
    timeline.waitIdle(); // frames 0..40 cached; full states only as snapshots

    const std::uint64_t stepsHere = Simulation::stepsOnThisThread();
    for (std::uint64_t f : { 29, 13, 31, 3 }) {
        const std::uint64_t simulated = timeline.simulatedFrames();
        const Served served = requestAndWait(timeline, f);
        QCOMPARE(served.frame, f);
        QCOMPARE(served.hash, expected[f]);
        QVERIFY(served.thread != std::this_thread::get_id());
        // Re-simulated from the nearest snapshot before it, on the worker.
        QCOMPARE(timeline.simulatedFrames() - simulated, f - timeline.snapshotFrameAtOrBefore(f));
    }
    QCOMPARE(Simulation::stepsOnThisThread(), stepsHere);

    // The caller's state one frame before: one frame stepped instead of a snapshot interval.
    std::unique_ptr<SourceState> at28 = timeline.stateAt(28);
    QVERIFY(timeline.snapshotFrameAtOrBefore(29) < 28);
    std::uint64_t simulated = timeline.simulatedFrames();
    const Served fromCaller = requestAndWait(timeline, 29, std::move(at28));
    QCOMPARE(fromCaller.hash, expected[29]);
    QCOMPARE(timeline.simulatedFrames() - simulated, std::uint64_t(1));
    // A state past the frame asked for is of no use: the snapshot is.
    std::unique_ptr<SourceState> at27 = timeline.stateAt(27);
    simulated = timeline.simulatedFrames();
    QCOMPARE(requestAndWait(timeline, 26, std::move(at27)).hash, expected[26]);
    QCOMPARE(timeline.simulatedFrames() - simulated, 26 - timeline.snapshotFrameAtOrBefore(26));

    // The document takes the worker's arrival over and shows what seekFrom() shows.
    EditDocument apart = session;
    EditDocument direct = session;
    const Served at30 = requestAndWait(timeline, 30);
    const PlayerState &shown30 = static_cast<const TakeState &>(*at30.state).state;
    direct.seekFrom(shown30, 31);
    apart.adopt(EditDocument::arrive(shown30, session.take(), 31));
    QCOMPARE(apart.playhead(), std::uint64_t(31));
    QCOMPARE(apart.simulation().stateHash(), expected[31]);
    QCOMPARE(apart.simulation().stateHash(), direct.simulation().stateHash());
    QCOMPARE(apart.settings().world.gravity.y, -5.f); // the frame's own event applied on adoption
    QVERIFY(apart.reports() == direct.reports());

    // Without a worker the request is answered before requestState() returns.
    timeline.stopWorker();
    bool answered = false;
    std::thread::id by;
    timeline.requestState(17, [&](std::unique_ptr<SourceState> state) {
        answered = state->simulation().stateHash() == expected[17];
        by = std::this_thread::get_id();
    });
    QVERIFY(answered);
    QVERIFY(by == std::this_thread::get_id());
}

// The editor's drag while playing: each tick records its frames in the take (holdFrames), gives
// the timeline the take when a frame changed (firstChangedFrame) and the frame shown, and the
// worker steps the frames from the state shown; the document takes the arrival over keeping the
// drag. Frame for frame this is the document stepping itself, and on release every frame of the
// drag but the one that lets go stays cached, equal to the replay of the finished take.
void TestTimeline::dragStepsMadeByTheWorkerEqualTheDocumentsOwn()
{
    constexpr std::uint64_t kStart = 10;
    EditDocument direct(smallCurtain());
    direct.run(int(kStart));
    EditDocument apart = direct;
    const auto scene = apart.sharedScene();
    Take given = apart.take(); // what the timeline's source replays
    auto source = std::make_shared<const TakeSource>(scene, given);
    CacheSettings settings;
    settings.snapshotInterval = 8;
    Timeline timeline(source, settings);
    timeline.setEndFrame(kStart);
    timeline.startWorker();
    timeline.waitIdle();
    int sourcesMade = 0;
    const auto giveTake = [&] { // Document::updateTimeline
        const std::uint64_t from = firstChangedFrame(*scene, given, *scene, apart.take());
        given = apart.take();
        if (from != std::numeric_limits<std::uint64_t>::max()) {
            source = std::make_shared<const TakeSource>(scene, given);
            timeline.setSource(source, from);
            ++sourcesMade;
        }
    };
    const auto offerShown = [&] { // Document::offerShownFrame
        const std::uint64_t at = apart.playhead();
        const std::shared_ptr<const CachedFrame> previous = timeline.cachedFrame(at - 1);
        timeline.offerFrame(timeline.generation(), captureFrame(apart.simulation(), at, previous.get()));
    };

    const Vec3 centre = direct.simulation().cloths[0].particles.position[100];
    QVERIFY(direct.beginDrag(0, { 100, 101 }, centre).empty());
    QVERIFY(apart.beginDrag(0, { 100, 101 }, centre).empty());
    giveTake();
    const int ticks[] = { 1, 3, 2, 4, 4, 1, 2, 3 };
    for (std::size_t k = 0; k < std::size(ticks); ++k) {
        const int n = ticks[k];
        // The cursor moves at every other tick; in between the frames hold its last target.
        if (k % 2 == 0) {
            const Vec3 target = centre + Vec3 { 0.01f * float(k + 1), 0.03f * float(k + 1), 0.f };
            direct.dragTo(target);
            apart.dragTo(target);
        }
        direct.run(n);
        const int before = sourcesMade;
        apart.holdFrames(n);
        giveTake();
        // Frames held at the same target change no frame: the source stays, its take shorter.
        QCOMPARE(sourcesMade - before, k % 2 == 0 ? 1 : 0);
        offerShown();
        const std::uint64_t target = apart.playhead() + std::uint64_t(n);
        const Served served
            = requestAndWait(timeline, target - 1, std::make_unique<TakeState>(apart.playerState()));
        QVERIFY(served.thread != std::this_thread::get_id());
        apart.adopt(
            EditDocument::arrive(std::move(static_cast<TakeState &>(*served.state).state), source->take(), target),
            true);
        QVERIFY(apart.dragging());
        QCOMPARE(apart.playhead(), direct.playhead());
        QCOMPARE(apart.simulation().stateHash(), direct.simulation().stateHash());
        QVERIFY(apart.take() == direct.take());
        offerShown();
    }
    direct.endDrag();
    apart.endDrag();
    QVERIFY(apart.take() == direct.take());
    QCOMPARE(apart.simulation().stateHash(), direct.simulation().stateHash());
    giveTake();
    const std::uint64_t end = apart.playhead();
    std::vector<std::uint64_t> expected;
    Player forward(*scene, apart.take());
    for (std::uint64_t f = 0; f <= end; forward.advance(), ++f)
        expected.push_back(forward.simulation().stateHash());
    QCOMPARE(expected[end], apart.simulation().stateHash());
    for (std::uint64_t f = kStart; f < end; ++f) {
        const std::shared_ptr<const CachedFrame> frame = timeline.cachedFrame(f);
        QVERIFY2(frame, qPrintable(QStringLiteral("frame %1 of the drag is not cached").arg(f)));
        QCOMPARE(frame->stateHash, expected[f]);
    }
    QVERIFY(timeline.cachedFrame(end) == nullptr || timeline.cachedFrame(end)->stateHash == expected[end]);
}

// A request replaced while the worker serves it is left between two frames, its `ready` never
// called, and the new one is served at once; stopping the worker leaves one the same way, so
// closing a document never waits for a long re-simulation.
void TestTimeline::abandonedStateRequestIsLeftBetweenFrames()
{
    constexpr std::uint64_t kFar = 5000, kGate = 10, kNear = 5;
    // The worker holds at frame kGate (once per gate) until the test lets it go, so that the
    // next request or the stop comes while it serves the far one.
    struct Gate {
        std::promise<void> reached, release;
        std::shared_future<void> released = release.get_future().share();
        std::atomic<bool> passed { false };
    };
    auto gate = std::make_shared<std::shared_ptr<Gate>>(std::make_shared<Gate>());
    std::mutex gateMutex;
    auto events = [gate, &gateMutex](Simulation &sim) {
        if (sim.frame() != kGate)
            return;
        std::shared_ptr<Gate> g;
        {
            std::lock_guard lock(gateMutex);
            g = *gate;
        }
        if (!g->passed.exchange(true)) {
            g->reached.set_value();
            g->released.wait();
        }
    };
    Timeline timeline(std::make_shared<EventSource>(presetSimulation("threejs-cloth"), events));
    timeline.setEndFrame(0); // no filling: only the requests step
    timeline.startWorker();
    timeline.waitIdle();

    std::atomic<bool> farServed { false };
    const auto far = [&farServed](std::unique_ptr<SourceState>) { farServed = true; };
    std::uint64_t simulated = timeline.simulatedFrames();
    std::future<void> reached = (*gate)->reached.get_future();
    timeline.requestState(kFar, far);
    reached.wait();
    auto nearAnswer = std::make_shared<std::promise<std::uint64_t>>();
    std::future<std::uint64_t> near = nearAnswer->get_future();
    timeline.requestState(kNear, [nearAnswer](std::unique_ptr<SourceState> state) {
        nearAnswer->set_value(state->frame());
    });
    (*gate)->release.set_value();
    QVERIFY(near.wait_for(std::chrono::minutes(1)) == std::future_status::ready);
    QCOMPARE(near.get(), kNear);
    QVERIFY(!farServed);
    QVERIFY2(timeline.simulatedFrames() - simulated < kFar / 10,
             qPrintable(QStringLiteral("%1 frames stepped").arg(timeline.simulatedFrames() - simulated)));

    // Stopping: the far request is left too.
    {
        std::lock_guard lock(gateMutex);
        *gate = std::make_shared<Gate>();
    }
    reached = (*gate)->reached.get_future();
    simulated = timeline.simulatedFrames();
    timeline.requestState(kFar, far);
    reached.wait();
    std::thread stopper([&timeline] { timeline.stopWorker(); });
    std::this_thread::sleep_for(std::chrono::milliseconds(50)); // the stop is asked for meanwhile
    (*gate)->release.set_value();
    stopper.join();
    QVERIFY(!farServed);
    QVERIFY2(timeline.simulatedFrames() - simulated < kFar / 10,
             qPrintable(QStringLiteral("%1 frames stepped").arg(timeline.simulatedFrames() - simulated)));
}

QTEST_GUILESS_MAIN(TestTimeline)
#include "tst_timeline.moc"
