// Scrolling the parameters dock with the mouse wheel must not edit the rows that pass under
// the cursor: an unfocused slider, spin box or combo box ignores the wheel (no value change,
// no undo step), while a control the user has focused still takes it.
#include "document/document.h"
#include "docks/parametersdock.h"
#include "docks/paramrow.h"
#include "document/presetcatalog.h"
#include "render/resources.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QSlider>
#include <QTest>
#include <QUndoStack>
#include <QWheelEvent>

using namespace drape;

namespace {

std::unique_ptr<Document> curtain()
{
    QString error;
    std::optional<Scene> scene = loadPreset(QStringLiteral("curtain"), &error);
    if (!scene)
        qFatal("curtain preset: %s", qPrintable(error));
    return std::make_unique<Document>(std::move(*scene));
}

/// One notch of the wheel (120 eighths of a degree) scrolling down over the centre of `w`.
void wheelDown(QWidget *w)
{
    const QPointF centre(w->width() / 2.0, w->height() / 2.0);
    QWheelEvent event(centre, w->mapToGlobal(centre), QPoint(), QPoint(0, -120), Qt::NoButton, Qt::NoModifier,
        Qt::NoScrollPhase, false);
    QCoreApplication::sendEvent(w, &event);
}

} // namespace

class TestWheelGuard : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { initResources(); }
    void unfocusedControlsIgnoreTheWheel();
    void focusedSpinBoxTakesTheWheel();
};

void TestWheelGuard::unfocusedControlsIgnoreTheWheel()
{
    auto doc = curtain();
    ParametersDock dock;
    dock.setDocument(doc.get());
    dock.resize(360, 500);
    dock.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dock));

    ParamRow *frameRate = dock.row("solver.frameRate");
    QVERIFY(frameRate && frameRate->slider() && frameRate->spinBox());
    ParamRow *solver = dock.row("solver.kind");
    QVERIFY(solver && solver->comboBox());
    const double rate = frameRate->value();
    const double kind = solver->value();
    const int sliderPos = frameRate->slider()->value();
    const int kindIndex = solver->comboBox()->currentIndex();

    for (int i = 0; i < 5; ++i) {
        wheelDown(frameRate->slider());
        wheelDown(frameRate->spinBox());
        wheelDown(solver->comboBox());
        for (QComboBox *combo : dock.findChildren<QComboBox *>())
            wheelDown(combo);
    }
    QCOMPARE(doc->undoStack()->count(), 0);
    QCOMPARE(frameRate->slider()->value(), sliderPos);
    QCOMPARE(frameRate->value(), rate);
    QCOMPARE(solver->comboBox()->currentIndex(), kindIndex);
    QCOMPARE(solver->value(), kind);
    QCOMPARE(doc->scene().solver.frameRate, 60.f);
    // The wheel does not give the controls focus either.
    QCOMPARE(frameRate->slider()->focusPolicy(), Qt::StrongFocus);
    QCOMPARE(frameRate->spinBox()->focusPolicy(), Qt::StrongFocus);
    QCOMPARE(solver->comboBox()->focusPolicy(), Qt::StrongFocus);
}

void TestWheelGuard::focusedSpinBoxTakesTheWheel()
{
    auto doc = curtain();
    ParametersDock dock;
    dock.setDocument(doc.get());
    dock.resize(360, 500);
    dock.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dock));
    dock.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&dock));

    ParamRow *substeps = dock.row("solver.substeps");
    QVERIFY(substeps && substeps->spinBox());
    const double before = substeps->value();
    substeps->spinBox()->setFocus(Qt::OtherFocusReason);
    QTRY_VERIFY(substeps->spinBox()->hasFocus());
    wheelDown(substeps->spinBox());
    // One notch down is one step down: an edit the user asked for, with its undo step.
    QVERIFY(substeps->value() < before);
    QVERIFY(doc->undoStack()->count() >= 1);
}

QTEST_MAIN(TestWheelGuard)
#include "tst_wheelguard.moc"
