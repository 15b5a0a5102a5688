// The document: save → reload gives the same scene, saving marks it clean, a failed save
// keeps the file on disk and the modified state, a bad file is refused with a message that
// names it, Reset goes back to the start, and the editor's edits follow the scene + take
// model (core/edit/editdocument.h) through the undo stack.
#include "document/bake.h"
#include "document/document.h"
#include "document/frameexport.h"
#include "scene/params.h"
#include "document/presetcatalog.h"
#include "render/resources.h"

#include <QDir>
#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <cstring>

using namespace drape;

class TestDocument : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { initResources(); }
    void saveAndReloadGivesSameScene_data();
    void saveAndReloadGivesSameScene();
    void editMarksModifiedAndSaveCleans();
    void failedSaveKeepsFileAndModified();
    void badFileIsRefusedWithItsName();
    void resetReturnsToAuthoringData();
    void savedStateReopensWhereItWas();
    void pinAfterTearKeepsTheStart();
    void dragIsOneUndoStep();
    void undoStackFollowsTheCore();
    void takeIsSavedAndReplayed();
    void gridResolutionKeepsPinsInPlace();
    void cancelledGestureKeepsRedo();
    void presetOpensWithItsTake();
    void bakedFolderSeedsTheReopenedDocument();
    void pointCacheCoversTheRecordRange();
    void tearRefusesPointCacheObjSequenceTakesOver();
};

void TestDocument::saveAndReloadGivesSameScene_data()
{
    QTest::addColumn<QString>("key");
    for (const PresetInfo &p : builtinPresets())
        QTest::newRow(qPrintable(p.key)) << p.key;
}

void TestDocument::saveAndReloadGivesSameScene()
{
    QFETCH(QString, key);
    QString error;
    std::optional<Scene> scene = loadPreset(key, &error);
    QVERIFY2(scene, qPrintable(error));
    Document document(*scene);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(key + QStringLiteral(".json"));
    QVERIFY2(document.save(path, false, &error), qPrintable(error));
    QCOMPARE(document.filePath(), path);

    std::unique_ptr<Document> reloaded = Document::load(path, &error);
    QVERIFY2(reloaded, qPrintable(error));
    QVERIFY(reloaded->scene() == document.scene());
    QVERIFY(!reloaded->isModified());
    QCOMPARE(reloaded->displayName(), key + QStringLiteral(".json"));
}

void TestDocument::editMarksModifiedAndSaveCleans()
{
    QString error;
    Document document(*loadPreset(QStringLiteral("curtain"), &error));
    QSignalSpy modified(&document, &Document::modifiedChanged);
    QVERIFY(!document.isModified());
    const ParamDesc *damping = findParam("world.airDamping");
    QVERIFY(damping);
    QVERIFY(document.setParameter(damping->key, 0, 0.5).isEmpty());
    QVERIFY(document.isModified());
    QCOMPARE(modified.count(), 1);
    QCOMPARE(modified.last().at(0).toBool(), true);

    QTemporaryDir dir;
    QVERIFY2(document.save(dir.filePath(QStringLiteral("a.json")), false, &error), qPrintable(error));
    QVERIFY(!document.isModified());
    QCOMPARE(modified.last().at(0).toBool(), false);
    // The saved file holds the edit.
    std::unique_ptr<Document> reloaded = Document::load(dir.filePath(QStringLiteral("a.json")), &error);
    QVERIFY2(reloaded, qPrintable(error));
    QCOMPARE(reloaded->scene().world.airDamping, 0.5f);
}

void TestDocument::failedSaveKeepsFileAndModified()
{
    QString error;
    Document document(*loadPreset(QStringLiteral("curtain"), &error));
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("keep.json"));
    QVERIFY2(document.save(path, false, &error), qPrintable(error));
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray before = file.readAll();
    file.close();

    const ParamDesc *damping = findParam("world.airDamping");
    QVERIFY(document.setParameter(damping->key, 0, 0.7).isEmpty());
    const QString impossible = dir.filePath(QStringLiteral("no-such-dir/sub/x.json"));
    error.clear();
    QVERIFY(!document.save(impossible, false, &error));
    QVERIFY2(error.contains(QStringLiteral("x.json")), qPrintable(error));
    QVERIFY(document.isModified());
    QCOMPARE(document.filePath(), path); // still the file it came from
    QVERIFY(file.open(QIODevice::ReadOnly));
    QCOMPARE(file.readAll(), before);
}

void TestDocument::badFileIsRefusedWithItsName()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("broken.json"));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("{ \"format\": \"drape-scene\", \"version\": 1, \n  \"cloths\": [ oops ] }\n");
    file.close();
    QString error;
    std::unique_ptr<Document> document = Document::load(path, &error);
    QVERIFY(!document);
    QVERIFY2(error.contains(QStringLiteral("broken.json")), qPrintable(error));

    error.clear();
    QVERIFY(!Document::load(dir.filePath(QStringLiteral("missing.json")), &error));
    QVERIFY2(error.contains(QStringLiteral("missing.json")), qPrintable(error));
}

void TestDocument::resetReturnsToAuthoringData()
{
    QString error;
    Document document(*loadPreset(QStringLiteral("curtain"), &error));
    const std::vector<Vec3> start = document.simulation().cloths.at(0).particles.position;
    document.step(30);
    QVERIFY(document.simulation().cloths.at(0).particles.position != start);
    QSignalSpy reset(&document, &Document::simulationReset);
    document.reset();
    QCOMPARE(reset.count(), 1);
    QCOMPARE(document.frame(), std::uint64_t(0));
    QCOMPARE(document.simulation().frame(), std::uint64_t(0));
    QVERIFY(document.simulation().cloths.at(0).particles.position == start);
}

void TestDocument::savedStateReopensWhereItWas()
{
    // File > Save with Simulation State: the reopened document is at the same frame and
    // positions, and stepping on matches a run that was never saved.
    QString error;
    Document document(*loadPreset(QStringLiteral("flag"), &error));
    document.step(20);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("paused.json"));
    QVERIFY2(document.save(path, /*withState=*/true, &error), qPrintable(error));

    std::unique_ptr<Document> reopened = Document::load(path, &error);
    QVERIFY2(reopened, qPrintable(error));
    QCOMPARE(reopened->simulation().frame(), std::uint64_t(20));
    QVERIFY(reopened->simulation().cloths.at(0).particles.position
            == document.simulation().cloths.at(0).particles.position);
    document.step(10);
    reopened->step(10);
    QVERIFY(reopened->simulation().cloths.at(0).particles.position
            == document.simulation().cloths.at(0).particles.position);

    // Saving the reopened document with its state again writes the same bytes.
    {
        QFile first(path);
        QVERIFY(first.open(QIODevice::ReadOnly));
        std::unique_ptr<Document> again = Document::load(path, &error);
        QVERIFY2(again, qPrintable(error));
        const QString second = dir.filePath(QStringLiteral("again.json"));
        QVERIFY2(again->save(second, /*withState=*/true, &error), qPrintable(error));
        QFile secondFile(second);
        QVERIFY(secondFile.open(QIODevice::ReadOnly));
        QCOMPARE(secondFile.readAll(), first.readAll());
    }

    // A plain save does not carry the state: that file starts from the beginning.
    const QString plain = dir.filePath(QStringLiteral("plain.json"));
    QVERIFY2(document.save(plain, /*withState=*/false, &error), qPrintable(error));
    std::unique_ptr<Document> fresh = Document::load(plain, &error);
    QVERIFY2(fresh, qPrintable(error));
    QCOMPARE(fresh->simulation().frame(), std::uint64_t(0));
}

namespace {

std::uint64_t hashOf(const Document &d) { return d.simulation().stateHash(); }

std::size_t particleCount(const Simulation &sim)
{
    std::size_t n = 0;
    for (const Cloth &c : sim.cloths)
        n += c.particles.size();
    return n;
}

} // namespace

void TestDocument::pinAfterTearKeepsTheStart()
{
    // The banner preset tears while running. Pinning a particle afterwards is an event of the
    // take: Reset brings back the banner as authored (1,120 particles), not the torn one.
    QString error;
    Document document(*loadPreset(QStringLiteral("banner-tear"), &error));
    QVERIFY2(error.isEmpty(), qPrintable(error));
    const std::size_t authored = particleCount(document.simulation());
    const Scene start = document.scene();
    int frames = 0;
    while (particleCount(document.simulation()) == authored && frames < 1200)
        frames += document.step(10);
    QVERIFY2(particleCount(document.simulation()) > authored, "the banner did not tear");
    const std::uint32_t free = std::uint32_t(authored - 1); // a bottom corner, never a pin
    QVERIFY(document.simulation().cloths[0].particles.kind[free] != ParticleKind::Static);
    QVERIFY(document.setKind(0, {free}, true).isEmpty());
    QVERIFY(document.scene() == start); // the scene is untouched
    QCOMPARE(document.take().events.size(), std::size_t(1));
    QCOMPARE(document.take().events[0].frame, std::uint64_t(frames));
    document.reset();
    QCOMPARE(particleCount(document.simulation()), authored);
}

void TestDocument::dragIsOneUndoStep()
{
    QString error;
    Document document(*loadPreset(QStringLiteral("curtain"), &error));
    document.step(12);
    const std::uint64_t before = hashOf(document);
    const Cloth &cloth = document.simulation().cloths.at(0);
    const std::uint32_t grabbed = std::uint32_t(cloth.particles.size() / 2);
    const Vec3 at = cloth.particles.position[grabbed];
    QVERIFY(document.beginDrag(0, {grabbed}, at).isEmpty());
    for (int i = 1; i <= 6; ++i) {
        document.dragTo(at + Vec3{0.05f * float(i), 0.f, 0.1f});
        document.step(1);
    }
    document.endDrag(QStringLiteral("Drag"));
    QCOMPARE(document.undoStack()->count(), 1);
    QCOMPARE(document.undoStack()->text(0), QStringLiteral("Drag"));
    const std::uint64_t after = hashOf(document);
    QVERIFY(after != before);
    document.undoStack()->undo();
    QCOMPARE(document.frame(), std::uint64_t(12));
    QCOMPARE(hashOf(document), before); // what the viewport showed before the press
    document.undoStack()->redo();
    QCOMPARE(hashOf(document), after);
}

void TestDocument::undoStackFollowsTheCore()
{
    // Pins, a scrubbed parameter (one step), a cut and a view change, undone and redone
    // through the QUndoStack: the document and the state come back bit for bit.
    QString error;
    Document document(*loadPreset(QStringLiteral("tablecloth"), &error));
    const Scene scene0 = document.scene();
    const std::uint64_t hash0 = hashOf(document);
    QVERIFY(document.setKind(0, {0, 1, 2}, true).isEmpty()); // frame 0: a scene edit
    QVERIFY(!(document.scene() == scene0));
    document.step(15);
    QVERIFY(document.setParameter("world.airDamping", 0, 0.2, true).isEmpty());
    QVERIFY(document.setParameter("world.airDamping", 0, 0.3, true).isEmpty());
    QVERIFY(document.setParameter("world.airDamping", 0, 0.4, true).isEmpty());
    document.closeMerging();
    QCOMPARE(document.undoStack()->count(), 2);
    document.step(5);
    QVERIFY(document.removeConstraints(0, {3, 4, 5}, true, QStringLiteral("Cut")).isEmpty());
    Scene viewed = document.scene();
    viewed.view.showConstraints = !viewed.view.showConstraints;
    QVERIFY(document.setPresentation(viewed, QStringLiteral("View")).isEmpty());
    QCOMPARE(document.undoStack()->count(), 4);
    const std::uint64_t hashEnd = hashOf(document);
    const Scene sceneEnd = document.scene();
    const Take takeEnd = document.take();
    QCOMPARE(takeEnd.events.size(), std::size_t(2)); // the scrubbed value is one event

    while (document.undoStack()->canUndo())
        document.undoStack()->undo();
    QVERIFY(document.scene() == scene0);
    QVERIFY(document.take().empty());
    QCOMPARE(hashOf(document), hash0);
    while (document.undoStack()->canRedo())
        document.undoStack()->redo();
    QVERIFY(document.scene() == sceneEnd);
    QVERIFY(document.take() == takeEnd);
    QCOMPARE(hashOf(document), hashEnd);
}

void TestDocument::takeIsSavedAndReplayed()
{
    // A session saved with its take reopens at the start and replays to the same state.
    QString error;
    Document document(*loadPreset(QStringLiteral("curtain"), &error));
    document.step(10);
    QVERIFY(document.setKind(0, {40, 41}, false).isEmpty()); // unhook two curtain hooks
    QVERIFY(document.removeConstraints(0, {100, 101, 102}, true, QStringLiteral("Cut")).isEmpty());
    document.step(20);
    const std::uint64_t shown = hashOf(document);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("session.json"));
    QVERIFY2(document.save(path, false, &error), qPrintable(error));
    std::unique_ptr<Document> reopened = Document::load(path, &error);
    QVERIFY2(reopened, qPrintable(error));
    QVERIFY(reopened->take() == document.take());
    QCOMPARE(reopened->frame(), std::uint64_t(0));
    reopened->step(30);
    QCOMPARE(hashOf(*reopened), shown);
}

void TestDocument::gridResolutionKeepsPinsInPlace()
{
    // Curtain 48 → 128 across: the whole top row stays pinned, not its left 48 particles.
    QString error;
    Document document(*loadPreset(QStringLiteral("curtain"), &error));
    const ClothDesc was = document.scene().cloths.at(0);
    QCOMPARE(was.source, ClothSource::Grid);
    const int down = was.grid.down;
    document.step(5);
    QVERIFY(document.setParameter("cloth.grid.across", 0, 128).isEmpty());
    QCOMPARE(document.frame(), std::uint64_t(0)); // a structural edit returns to the start
    const ClothDesc &now = document.scene().cloths.at(0);
    QCOMPARE(now.grid.across, 128);
    QCOMPARE(now.grid.down, down);
    const Particles &p = document.simulation().cloths.at(0).particles;
    // Every particle of the top row (the pinned row of the curtain) is pinned, and the
    // leftmost and rightmost of it too.
    std::size_t pinnedTop = 0;
    for (std::size_t i = 0; i < 128; ++i)
        pinnedTop += p.kind[i] == ParticleKind::Static;
    QCOMPARE(was.pins.size(), std::size_t(was.grid.across)); // the preset pins its top row
    QCOMPARE(pinnedTop, std::size_t(128));
    std::size_t pinned = 0;
    for (ParticleKind k : p.kind)
        pinned += k == ParticleKind::Static;
    QCOMPARE(pinned, std::size_t(128)); // and nothing else
    document.undoStack()->undo();
    QCOMPARE(document.scene().cloths.at(0).grid.across, was.grid.across);
}

void TestDocument::cancelledGestureKeepsRedo()
{
    // Escape during a stroke puts everything back, the redo history included.
    QString error;
    Document document(*loadPreset(QStringLiteral("flag"), &error));
    document.step(3);
    QVERIFY(document.setKind(0, {7}, true).isEmpty());
    document.undoStack()->undo();
    QVERIFY(document.undoStack()->canRedo());
    const std::uint64_t hash = hashOf(document);
    document.beginGesture();
    QVERIFY(document.removeConstraints(0, {1, 2}, true, QStringLiteral("Cut")).isEmpty());
    QVERIFY(hashOf(document) != hash);
    document.cancelGesture();
    QCOMPARE(hashOf(document), hash);
    QVERIFY(document.undoStack()->canRedo());
    document.undoStack()->redo();
    QCOMPARE(document.take().events.size(), std::size_t(1));
    QVERIFY(std::holds_alternative<PinEvent>(document.take().events[0].data));
}

// New from Preset keeps the take a preset ships with (the tearable net's drag and cut).
void TestDocument::presetOpensWithItsTake()
{
    QString error;
    Take take;
    std::optional<Scene> scene = loadPreset(QStringLiteral("tearable-net"), &error, nullptr, &take);
    QVERIFY2(scene, qPrintable(error));
    QVERIFY(!take.empty());
    Document document(*scene, {}, nullptr, take);
    QVERIFY(document.take() == take);
    QVERIFY(!document.isModified());
}

// File ▸ Bake to Folder: the re-opened file shows the baked frames without simulating them;
// after the file changes, the cache is named as stale and ignored.
void TestDocument::bakedFolderSeedsTheReopenedDocument()
{
    QString error;
    Take take;
    std::optional<Scene> scene = loadPreset(QStringLiteral("tearable-net"), &error, nullptr, &take);
    QVERIFY2(scene, qPrintable(error));
    Document document(*scene, {}, nullptr, take);
    QVERIFY(!bakeToFolder(document, 40).isEmpty()); // never saved: nowhere to bake to
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("net.json"));
    QVERIFY2(document.save(path, false, &error), qPrintable(error));
    std::uint64_t calls = 0;
    const QString baked = bakeToFolder(document, 40, [&calls](std::uint64_t done, std::uint64_t total) {
        ++calls;
        return done <= total;
    });
    QVERIFY2(baked.isEmpty(), qPrintable(baked));
    QCOMPARE(calls, std::uint64_t(41));
    QVERIFY(QFile::exists(dir.filePath(QStringLiteral("net.drape-cache/frames.bin"))));

    QStringList warnings;
    std::unique_ptr<Document> reopened = Document::load(path, &error, &warnings);
    QVERIFY2(reopened, qPrintable(error));
    QVERIFY2(warnings.isEmpty(), qPrintable(warnings.join('\n')));
    for (std::uint64_t f = 0; f <= 40; ++f)
        QCOMPARE(reopened->timeline().cachedFrame(f)->stateHash, document.timeline().frame(f)->stateHash);
    QCOMPARE(reopened->timeline().simulatedFrames(), std::uint64_t(0));

    // The file saved again without the take: the cache beside it is stale.
    Document plain(*scene);
    QVERIFY2(plain.save(path, false, &error), qPrintable(error));
    reopened = Document::load(path, &error, &warnings);
    QVERIFY2(reopened, qPrintable(error));
    QCOMPARE(warnings.size(), 1);
    QVERIFY2(warnings.front().contains(QStringLiteral("net.drape-cache")), qPrintable(warnings.front()));
    QVERIFY(!reopened->timeline().cachedFrame(5));
}

namespace {

std::unique_ptr<Document> presetDocument(const QString &key)
{
    QString error;
    Take take;
    std::optional<Scene> scene = loadPreset(key, &error, nullptr, &take);
    if (!scene)
        qFatal("%s", qPrintable(error));
    return std::make_unique<Document>(std::move(*scene), QString(), nullptr, std::move(take));
}

int objVertexCount(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return -1;
    int n = 0;
    for (const QByteArray &line : f.readAll().split('\n'))
        n += line.startsWith("v ");
    return n;
}

} // namespace

// File ▸ Export Point Cache writes the Record dock's frame range: its header starts at the
// range's first frame and holds one sample per frame, the positions of the replay there.
void TestDocument::pointCacheCoversTheRecordRange()
{
    std::unique_ptr<Document> document = presetDocument(QStringLiteral("flag"));
    Scene ranged = document->scene();
    ranged.record.startFrame = 10;
    ranged.record.endFrame = 40;
    QVERIFY(document->setPresentation(ranged, QStringLiteral("Range"), {}, Change::Record).isEmpty());
    std::uint64_t first = 0, last = 0;
    exportRange(*document, &first, &last);
    QCOMPARE(first, std::uint64_t(10));
    QCOMPARE(last, std::uint64_t(40));

    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("flag.pc2"));
    const PointCacheExport result = exportPointCache(*document, path, first, last);
    QVERIFY2(result.error.isEmpty(), qPrintable(result.error));
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray bytes = file.readAll();
    std::int32_t points = 0, samples = 0;
    float start = 0.f;
    std::memcpy(&points, bytes.constData() + 16, 4);
    std::memcpy(&start, bytes.constData() + 20, 4);
    std::memcpy(&samples, bytes.constData() + 28, 4);
    const Simulation at10 = replay(document->scene(), document->take(), 10);
    QCOMPARE(points, std::int32_t(at10.cloths[0].particles.size()));
    QCOMPARE(start, 10.f);
    QCOMPARE(samples, 31);
    QCOMPARE(bytes.size(), 32 + 31 * points * 12);
    Vec3 p0;
    std::memcpy(&p0, bytes.constData() + 32, 12);
    QCOMPARE(p0, at10.cloths[0].particles.position[0]);
}

// A cloth that tears apart (split vertices) changes its vertex count: the point cache is
// refused, naming the frame, leaves no file, and the OBJ sequence of the frames holds both.
void TestDocument::tearRefusesPointCacheObjSequenceTakesOver()
{
    std::unique_ptr<Document> document = presetDocument(QStringLiteral("banner-tear"));
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("banner.pc2"));
    const PointCacheExport result = exportPointCache(*document, path, 0, 400);
    QVERIFY(!result.error.isEmpty());
    QVERIFY2(result.topologyChangedAt <= 400, qPrintable(result.error));
    QVERIFY2(result.error.contains(QString::number(result.topologyChangedAt)), qPrintable(result.error));
    QVERIFY(!QFile::exists(path));
    QVERIFY(!QFile::exists(path + QStringLiteral(".part")));

    const std::uint64_t tear = result.topologyChangedAt;
    const QString folder = dir.filePath(QStringLiteral("meshes"));
    const QString error = exportObjSequence(*document, folder, tear - 1, tear);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    const int before = objVertexCount(QDir(folder).filePath(QStringLiteral("frame_%1.obj").arg(tear - 1, 4, 10, QLatin1Char('0'))));
    const int after = objVertexCount(QDir(folder).filePath(QStringLiteral("frame_%1.obj").arg(tear, 4, 10, QLatin1Char('0'))));
    QVERIFY(before > 0);
    QVERIFY2(after > before, qPrintable(QStringLiteral("%1 -> %2").arg(before).arg(after)));
}

QTEST_MAIN(TestDocument)
#include "tst_document.moc"
