// The document: save → reload gives the same scene, saving marks it clean, a failed save
// keeps the file on disk and the modified state, a bad file is refused with a message that
// names it, and Reset goes back to the authoring data.
#include "commands/setparametercommand.h"
#include "document/document.h"
#include "scene/params.h"
#include "document/presetcatalog.h"
#include "render/resources.h"

#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

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
    document.undoStack()->push(new SetParameterCommand(&document, *damping, 0, 0.5));
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
    document.undoStack()->push(new SetParameterCommand(&document, *damping, 0, 0.7));
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
    document.simulation().run(30);
    QVERIFY(document.simulation().cloths.at(0).particles.position != start);
    QSignalSpy reset(&document, &Document::simulationReset);
    document.resetSimulation();
    QCOMPARE(reset.count(), 1);
    QCOMPARE(document.simulation().frame(), std::uint64_t(0));
    QVERIFY(document.simulation().cloths.at(0).particles.position == start);
}

void TestDocument::savedStateReopensWhereItWas()
{
    // File > Save with Simulation State: the reopened document is at the same frame and
    // positions, and stepping on matches a run that was never saved.
    QString error;
    Document document(*loadPreset(QStringLiteral("flag"), &error));
    document.simulation().run(20);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("paused.json"));
    QVERIFY2(document.save(path, /*withState=*/true, &error), qPrintable(error));

    std::unique_ptr<Document> reopened = Document::load(path, &error);
    QVERIFY2(reopened, qPrintable(error));
    QCOMPARE(reopened->simulation().frame(), std::uint64_t(20));
    QVERIFY(reopened->simulation().cloths.at(0).particles.position
            == document.simulation().cloths.at(0).particles.position);
    document.simulation().run(10);
    reopened->simulation().run(10);
    QVERIFY(reopened->simulation().cloths.at(0).particles.position
            == document.simulation().cloths.at(0).particles.position);

    // A plain save does not carry the state: that file starts from the beginning.
    const QString plain = dir.filePath(QStringLiteral("plain.json"));
    QVERIFY2(document.save(plain, /*withState=*/false, &error), qPrintable(error));
    std::unique_ptr<Document> fresh = Document::load(plain, &error);
    QVERIFY2(fresh, qPrintable(error));
    QCOMPARE(fresh->simulation().frame(), std::uint64_t(0));
}

QTEST_MAIN(TestDocument)
#include "tst_document.moc"
