// The scene budget in the editor: a resolution change in the parameters dock that would take
// the scene past the document's budget is refused (nothing is pushed, the row shows the old
// value, the refusal names the totals), and a file over the budget reports what it needs so
// the editor can offer to open it anyway.
#include "docks/parametersdock.h"
#include "docks/paramrow.h"
#include "document/document.h"
#include "document/presetcatalog.h"
#include "render/resources.h"

#include <QDoubleSpinBox>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace drape;

class TestBudgetGuard : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { initResources(); }
    void resolutionChangeIsHeldToTheBudget();
    void overBudgetFileReportsWhatItNeeds();
};

void TestBudgetGuard::resolutionChangeIsHeldToTheBudget()
{
    QString error;
    std::optional<Scene> scene = loadPreset(QStringLiteral("curtain"), &error);
    QVERIFY2(scene, qPrintable(error));
    Document doc(std::move(*scene));
    ParametersDock dock;
    dock.setDocument(&doc);
    QSignalSpy refused(&dock, &ParametersDock::editRefused);
    ParamRow *across = dock.row("cloth.grid.across");
    ParamRow *down = dock.row("cloth.grid.down");
    QVERIFY(across && across->spinBox() && down && down->spinBox());

    across->spinBox()->setValue(512); // 512 × 32: inside the budget
    QCOMPARE(doc.undoStack()->count(), 1);
    QCOMPARE(doc.scene().cloths[0].grid.across, 512);
    QCOMPARE(refused.count(), 0);

    const int rows = doc.scene().cloths[0].grid.down;
    down->spinBox()->setValue(1024); // 512 × 1024 = 524,288 particles
    QCOMPARE(doc.undoStack()->count(), 1);
    QCOMPARE(doc.scene().cloths[0].grid.down, rows);
    QCOMPARE(down->value(), double(rows));
    QCOMPARE(refused.count(), 1);
    const QString message = refused.at(0).at(0).toString();
    QVERIFY2(
        message.contains(QStringLiteral("524,288 particles")) && message.contains(QStringLiteral("262,144")),
        qPrintable(message));

    // A document opened with a larger budget takes the change.
    doc.setBudget(SceneBudget::forParticles(600000));
    down->spinBox()->setValue(1024);
    QCOMPARE(doc.scene().cloths[0].grid.down, 1024);
}

void TestBudgetGuard::overBudgetFileReportsWhatItNeeds()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("big.json"));
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(R"({"format": "drape-scene", "version": 1, "cloths": [{"grid": {"across": 600, "down": 600}}]})");
    f.close();
    QString error;
    std::optional<SceneTotals> over;
    QVERIFY(!Document::load(path, &error, nullptr, SceneBudget {}, &over));
    QVERIFY(over.has_value());
    QCOMPARE(over->particles, std::uint64_t(360000));
    QVERIFY(error.contains(QStringLiteral("360,000 particles")));
    auto doc = Document::load(path, &error, nullptr, SceneBudget::unlimited(), &over);
    QVERIFY(doc);
    QVERIFY(!over.has_value());
    QCOMPARE(doc->simulation().cloths[0].particles.size(), std::size_t(360000));
}

QTEST_MAIN(TestBudgetGuard)
#include "tst_budgetguard.moc"
