// The parameters dock: an edit reaches the running simulation at once and without a jolt,
// undo/redo restore it (in the scene, the simulation and the rows), a slider drag is one undo
// step, and rows follow the document without pushing commands of their own.
#include "document/document.h"
#include "docks/paramrow.h"
#include "docks/parametersdock.h"
#include "scene/params.h"
#include "document/presetcatalog.h"
#include "render/resources.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QSlider>
#include <QTest>

#include <cmath>

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

float structuralCompliance(const Document &d)
{
    for (const DistanceConstraint &c : d.simulation().cloths.at(0).constraints) {
        if (c.kind == ConstraintKind::Structural)
            return c.compliance;
    }
    return -1.f;
}

} // namespace

class TestParameters : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { initResources(); }
    void everyParameterHasARow();
    void spinBoxEditReachesSimulation();
    void undoRedoRestores();
    void sliderDragIsOneUndoStep();
    void rowsFollowUndoWithoutFeedback();
    void solverSwitchAppliesWithoutJolt();
    void logSliderMapsRange();
};

void TestParameters::everyParameterHasARow()
{
    ParametersDock dock;
    for (const ParamDesc &p : sceneParams())
        QVERIFY2(dock.row(p.key), p.key.c_str());
}

void TestParameters::spinBoxEditReachesSimulation()
{
    auto doc = curtain();
    ParametersDock dock;
    dock.setDocument(doc.get());
    ParamRow *row = dock.row("material.stretchStiffness");
    QVERIFY(row && row->spinBox());
    const float before = structuralCompliance(*doc);
    const double stiffness = doc->scene().cloths[0].material.stretchStiffness;
    QCOMPARE(row->value(), stiffness);

    row->spinBox()->setValue(stiffness * 10.0);
    QCOMPARE(doc->undoStack()->count(), 1);
    QCOMPARE(double(doc->scene().cloths[0].material.stretchStiffness), stiffness * 10.0);
    // Compliance is inverse stiffness: ten times stiffer, a tenth of the compliance.
    const float after = structuralCompliance(*doc);
    QVERIFY2(std::abs(after - before / 10.f) <= 1e-3f * before,
             qPrintable(QStringLiteral("compliance %1 -> %2").arg(before).arg(after)));

    row = dock.row("world.gravity.y");
    QVERIFY(row);
    row->spinBox()->setValue(-3.0);
    QCOMPARE(doc->simulation().world.gravity.y, -3.f);
}

void TestParameters::undoRedoRestores()
{
    auto doc = curtain();
    ParametersDock dock;
    dock.setDocument(doc.get());
    const float compliance = structuralCompliance(*doc);
    const float stiffness = doc->scene().cloths[0].material.stretchStiffness;
    dock.row("material.stretchStiffness")->spinBox()->setValue(stiffness * 4.0);
    QVERIFY(structuralCompliance(*doc) != compliance);

    doc->undoStack()->undo();
    QCOMPARE(doc->scene().cloths[0].material.stretchStiffness, stiffness);
    QVERIFY(std::abs(structuralCompliance(*doc) - compliance) <= 1e-6f * compliance);
    QCOMPARE(dock.row("material.stretchStiffness")->value(), double(stiffness));

    doc->undoStack()->redo();
    QCOMPARE(double(doc->scene().cloths[0].material.stretchStiffness), double(stiffness) * 4.0);
    QVERIFY(std::abs(structuralCompliance(*doc) - compliance / 4.f) <= 1e-3f * compliance);
}

void TestParameters::sliderDragIsOneUndoStep()
{
    auto doc = curtain();
    ParametersDock dock;
    dock.setDocument(doc.get());
    ParamRow *row = dock.row("world.airDamping");
    QVERIFY(row && row->slider());
    const float original = doc->scene().world.airDamping;
    QSlider *slider = row->slider();
    slider->setSliderDown(true);
    for (int pos : {100, 200, 300, 400})
        slider->setValue(pos);
    slider->setSliderDown(false);
    emit slider->sliderReleased();
    QCOMPARE(doc->undoStack()->count(), 1);
    QCOMPARE(double(doc->scene().world.airDamping), double(float(row->valueAtSlider(400))));

    // A second drag is a second step.
    slider->setSliderDown(true);
    for (int pos : {350, 250})
        slider->setValue(pos);
    slider->setSliderDown(false);
    emit slider->sliderReleased();
    QCOMPARE(doc->undoStack()->count(), 2);

    doc->undoStack()->undo();
    QCOMPARE(double(doc->scene().world.airDamping), double(float(row->valueAtSlider(400))));
    doc->undoStack()->undo();
    QCOMPARE(doc->scene().world.airDamping, original);
    QCOMPARE(doc->simulation().world.airDamping, original);
}

void TestParameters::rowsFollowUndoWithoutFeedback()
{
    auto doc = curtain();
    ParametersDock dock;
    dock.setDocument(doc.get());
    const ParamDesc *wind = findParam("world.wind.speed");
    QVERIFY(doc.get()->setParameter(wind->key, 0, 7.5).isEmpty());
    QCOMPARE(dock.row("world.wind.speed")->value(), 7.5);
    QCOMPARE(dock.row("world.wind.speed")->spinBox()->value(), 7.5);
    doc->undoStack()->undo();
    // The rows showed the change but pushed nothing of their own.
    QCOMPARE(doc->undoStack()->count(), 1);
    QCOMPARE(doc->undoStack()->index(), 0);
    QCOMPARE(dock.row("world.wind.speed")->value(), double(doc->scene().world.wind.speed));
}

void TestParameters::solverSwitchAppliesWithoutJolt()
{
    auto doc = curtain();
    ParametersDock dock;
    dock.setDocument(doc.get());
    doc->step(20);
    const std::vector<Vec3> positions = doc->simulation().cloths[0].particles.position;
    const std::vector<Vec3> velocities = doc->simulation().cloths[0].particles.velocity;
    ParamRow *row = dock.row("solver.kind");
    QVERIFY(row && row->comboBox());
    row->comboBox()->setCurrentIndex(int(SolverKind::Verlet));
    emit row->comboBox()->activated(int(SolverKind::Verlet));
    QCOMPARE(doc->simulation().solver.kind, SolverKind::Verlet);
    // Made at frame 20, the switch is an event of the take: in force from there on, the
    // scene (the start) keeps its solver.
    QCOMPARE(doc->settings().solver.kind, SolverKind::Verlet);
    QCOMPARE(doc->scene().solver.kind, SolverKind::Xpbd);
    QCOMPARE(doc->take().events.size(), std::size_t(1));
    // Applied in place: the state is untouched (no rebuild, no reset).
    QVERIFY(doc->simulation().cloths[0].particles.position == positions);
    QVERIFY(doc->simulation().cloths[0].particles.velocity == velocities);
    QCOMPARE(doc->simulation().frame(), std::uint64_t(20));
}

void TestParameters::logSliderMapsRange()
{
    ParametersDock dock;
    ParamRow *row = dock.row("material.stretchStiffness");
    QVERIFY(row->param().logScale);
    QCOMPARE(row->valueAtSlider(0), row->param().min);
    QCOMPARE(row->valueAtSlider(ParamRow::kSliderSteps), row->param().max);
    // Log scale: the middle of the slider is the geometric mean of the range.
    const double mid = std::sqrt(row->param().min * row->param().max);
    QVERIFY(std::abs(row->valueAtSlider(ParamRow::kSliderSteps / 2) / mid - 1.0) < 1e-3);
    QCOMPARE(row->sliderPosition(mid), ParamRow::kSliderSteps / 2);
}

QTEST_MAIN(TestParameters)
#include "tst_parameters.moc"
