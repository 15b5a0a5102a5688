// The main window end to end: Space toggles play, the window title carries the file name and
// the modified marker, a blow-up pauses and shows the reset badge (and the badge resets),
// the scene can be replaced from a preset and the docks follow.
#include "actions/fileactions.h"
#include "actions/simulationactions.h"
#include "document/document.h"
#include "mainwindow.h"
#include "scene/params.h"
#include "docks/constraintdock.h"
#include "docks/parametersdock.h"
#include "docks/paramrow.h"
#include "document/presetcatalog.h"
#include "document/simulationcontroller.h"
#include "presetdocument.h"
#include "render/resources.h"
#include "render/viewport.h"
#include "actions/addactions.h"
#include "actions/importmeshdialog.h"
#include "docks/outlinerdock.h"
#include "docks/scenedock.h"
#include "timeline/timelinebar.h"
#include "timeline/timelinewidget.h"
#include "widgets/statuswidgets.h"
#include "tools/toolmanager.h"
#include "tools/transformtool.h"

#include <QAction>
#include <QLabel>
#include <QDoubleSpinBox>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QSurfaceFormat>
#include <QComboBox>
#include <QTest>
#include <QFile>
#include <QTemporaryDir>
#include <QTreeWidget>

using namespace drape;

namespace {

std::unique_ptr<Document> preset(const QString &key)
{
    return presetDocument(key);
}

// The state is at the playhead and no edit waits for it. The timeline's worker prepares
// that state, so after a pause or a step a test waits for it (QTRY_VERIFY).
bool settled(const Document *doc)
{
    return doc->isSettled() && !doc->isBusy();
}

} // namespace

class TestEditor : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void spaceTogglesPlay();
    void playingAdvancesInFixedFrames();
    void titleShowsModifiedMarker();
    void blowUpShowsBadgeAndResets();
    void stepsAnsweredByOneSettlingReportOneBlowUp();
    void dockAndGizmoChooseTheSameObject();
    void replacingDocumentRebindsDocks();
    void constraintDockShowsPinReactions();
    void timelineScrubsAndDeletesEvents();
    void addMenuAndDeleteObjects();
    void importMeshAsClothAndCollider();
    void statusSaysWhatAnEditDoesAndStartHereKeepsTheState();
};

void TestEditor::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true); // window state and recent files stay out of the user's settings
    initResources();
}

void TestEditor::spaceTogglesPlay()
{
    MainWindow window;
    window.setDocument(preset(QStringLiteral("curtain")));
    window.resize(640, 480);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    // Xvfb has no window manager to activate windows: activate it ourselves, as a WM would,
    // so the window's shortcuts are live.
    window.activateWindow();
    QApplication::setActiveWindow(&window);
    QVERIFY(QTest::qWaitForWindowActive(&window));
    QVERIFY(!window.controller()->isPlaying());
    QTest::keyClick(&window, Qt::Key_Space);
    QVERIFY(window.controller()->isPlaying());
    QVERIFY(window.simulationActions()->playAction()->isChecked());
    QTest::keyClick(&window, Qt::Key_Space);
    QVERIFY(!window.controller()->isPlaying());
}

void TestEditor::playingAdvancesInFixedFrames()
{
    MainWindow window;
    window.setDocument(preset(QStringLiteral("curtain")));
    window.resize(480, 360);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    const Simulation &sim = window.document()->simulation();
    window.controller()->setPlaying(true);
    QTRY_VERIFY_WITH_TIMEOUT(window.document()->playhead() >= 3, 10000);
    window.controller()->setPlaying(false);
    // Pausing brings the state to the frame on screen (the worker prepares it).
    QTRY_VERIFY(settled(window.document()));
    QCOMPARE(sim.frame(), window.document()->playhead());
    QVERIFY(sim.frame() >= 3);
    // Whatever the display did, time is a whole number of fixed frames.
    QVERIFY(std::abs(sim.time() - double(sim.frame()) * sim.solver.frameDt()) < 1e-9 * double(sim.frame() + 1));
    const std::uint64_t frame = sim.frame();
    window.controller()->stepFrames(2);
    QTRY_COMPARE(sim.frame(), frame + 2);
    window.controller()->reset();
    QCOMPARE(window.document()->simulation().frame(), std::uint64_t(0));
}

void TestEditor::titleShowsModifiedMarker()
{
    MainWindow window;
    window.setDocument(preset(QStringLiteral("curtain")));
    QVERIFY(window.windowTitle().contains(QStringLiteral("[*]")));
    QVERIFY(window.windowTitle().contains(window.document()->displayName()));
    QVERIFY(!window.isWindowModified());
    QVERIFY(window.document()->setParameter("world.airDamping", 0, 0.3).isEmpty());
    QVERIFY(window.isWindowModified());
    window.document()->undoStack()->undo();
    QVERIFY(!window.isWindowModified());
}

void TestEditor::blowUpShowsBadgeAndResets()
{
    MainWindow window;
    // Explicit Euler springs with an absurd stiffness and one substep: k dt² / m is far past
    // the stability limit (it must stay below ~1), so the state grows without bound.
    Scene scene = preset(QStringLiteral("curtain"))->scene();
    scene.solver.kind = SolverKind::Springs;
    scene.solver.integrator = SpringIntegrator::ExplicitEuler;
    scene.solver.substeps = 1;
    scene.cloths[0].material.stretchStiffness = 1e8f;
    scene.cloths[0].material.shearStiffness = 1e8f;
    window.setDocument(std::make_unique<Document>(scene));
    window.resize(480, 360);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));

    QPushButton *badge = window.statusWidgets()->blowUpBadge();
    QVERIFY(badge->isHidden());
    window.controller()->setPlaying(true);
    QTRY_VERIFY_WITH_TIMEOUT(window.document()->simulation().status().blownUp, 10000);
    QTRY_VERIFY(!window.controller()->isPlaying());
    QTRY_VERIFY(!badge->isHidden());
    QVERIFY(!window.document()->simulation().status().message.empty());
    // No NaN reaches the renderer: the view still draws.
    window.viewport()->grabFramebuffer();
    // Playing is refused while blown up.
    window.controller()->setPlaying(true);
    QVERIFY(!window.controller()->isPlaying());

    QTest::mouseClick(badge, Qt::LeftButton);
    QVERIFY(!window.document()->simulation().status().blownUp);
    QCOMPARE(window.document()->simulation().frame(), std::uint64_t(0));
    QTRY_VERIFY(badge->isHidden());
}

void TestEditor::stepsAnsweredByOneSettlingReportOneBlowUp()
{
    // Three Steps in a row, the last onto the first blown-up frame: the state is prepared once,
    // for the last, and the blow-up is reported once (not once per Step still listening). The
    // cloth runs until frame 10, where springs past their stability bound (an event) blow it up.
    MainWindow window;
    window.setDocument(preset(QStringLiteral("curtain")));
    window.resize(480, 360);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    Document *doc = window.document();
    SimulationController *controller = window.controller();
    controller->setRange(0, 60);
    controller->seekTo(10, true);
    QTRY_VERIFY_WITH_TIMEOUT(settled(doc), 20000);
    QVERIFY(!doc->simulation().status().blownUp);
    // Springs past their stability bound (the dialog's warning skipped: pushed directly).
    QVERIFY(doc->setParameter("solver.kind", 0, double(SolverKind::Springs)).isEmpty());
    // The first blown-up frame, from the worker's cache.
    std::uint64_t blown = 0;
    QTRY_VERIFY_WITH_TIMEOUT([&] {
        for (std::uint64_t f = 0;; ++f) {
            const auto frame = doc->timeline().cachedFrame(f);
            if (!frame)
                return false;
            if (frame->blownUp) {
                blown = f;
                return true;
            }
        }
    }(), 20000);
    QVERIFY2(blown > 10, qPrintable(QStringLiteral("blown up at frame %1").arg(blown)));
    controller->seekTo(blown - 3, true);
    QTRY_VERIFY(settled(doc));
    QVERIFY(!doc->simulation().status().blownUp);

    QSignalSpy blownUp(controller, &SimulationController::blownUp);
    for (int i = 0; i < 3; ++i)
        controller->stepFrames(1);
    QTRY_VERIFY(settled(doc));
    QCOMPARE(doc->frame(), blown);
    QVERIFY(doc->simulation().status().blownUp);
    QTest::qWait(50); // anything else listening would have answered by now
    QCOMPARE(blownUp.count(), 1);
}

void TestEditor::replacingDocumentRebindsDocks()
{
    MainWindow window;
    window.setDocument(preset(QStringLiteral("curtain")));
    const QString tablecloth = QStringLiteral("tablecloth");
    QVERIFY(window.fileActions()->newFromPreset(tablecloth));
    QCOMPARE(QString::fromStdString(window.document()->scene().name),
             QString::fromStdString(loadPreset(tablecloth, nullptr)->name));
    // The dock edits the new document, not the deleted one.
    ParamRow *row = window.parametersDock()->row("world.airDamping");
    row->spinBox()->setValue(0.9);
    QCOMPARE(window.document()->scene().world.airDamping, 0.9f);
    QCOMPARE(window.document()->undoStack()->count(), 1);
    QVERIFY(window.viewport()->document() == window.document());
    QVERIFY(window.controller()->document() == window.document());
}

// The Pins and Constraints dock lists what the pins hold after a step, from the tensions.
void TestEditor::constraintDockShowsPinReactions()
{
    MainWindow window;
    window.setDocument(preset(QStringLiteral("curtain")));
    auto *dock = window.findChild<ConstraintDock *>();
    QVERIFY(dock);
    // Unseen, the dock leaves its reactions as they were: making them costs a pass over
    // every constraint's tension after each step.
    const QString unseen = dock->reactionsLabel()->text();
    window.document()->step(5);
    QCOMPARE(dock->reactionsLabel()->text(), unseen);
    QVERIFY(!unseen.contains(QStringLiteral("pins hold")));
    // Shown, it brings them up to date at once, and keeps them so while it is seen.
    window.resize(1200, 800);
    window.show();
    dock->show();
    dock->raise();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QTRY_VERIFY(dock->isVisible());
    const QString text = dock->reactionsLabel()->text();
    QVERIFY2(text.contains(QStringLiteral("pins hold")) && text.contains(QStringLiteral("particle ")), qPrintable(text));
    dock->hide();
    window.document()->step(5);
    QCOMPARE(dock->reactionsLabel()->text(), text);
    dock->show();
    QTRY_VERIFY(dock->reactionsLabel()->text() != text); // the breeze has moved the curtain since
}

void TestEditor::timelineScrubsAndDeletesEvents()
{
    // The timeline under the viewport: a marker per event of the take, a click on the ruler
    // brings the document to the replay at that frame (from the cache's snapshots), deleting
    // a marker's event is one undo step, and the worker fills the cache.
    // How long to wait for the worker (ms): a bound on liveness, not on speed. Under ASan and
    // UBSan on a slow two-core machine the curtain's first 45 frames took 24 s.
    constexpr int kWorkerWait = 90000;
    MainWindow window;
    window.setDocument(preset(QStringLiteral("curtain")));
    window.resize(800, 600);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    Document *doc = window.document();
    TimelineWidget *ruler = window.timelineBar()->ruler();
    QVERIFY(ruler->isVisible());
    window.controller()->stepFrames(30);
    QVERIFY(doc->setKind(0, {10, 11, 12}, false).isEmpty()); // unhook three hooks at 30
    window.controller()->stepFrames(15);
    QTRY_VERIFY_WITH_TIMEOUT(settled(doc) && doc->frame() == 45, kWorkerWait);
    QCOMPARE(ruler->markers().size(), qsizetype(1));
    QCOMPARE(ruler->markers().front().frame, quint64(30));
    QCOMPARE(ruler->playhead(), quint64(45));

    for (quint64 f : {12u, 40u, 31u, 0u, 44u}) {
        emit ruler->playheadRequested(f);
        QCOMPARE(ruler->playhead(), f);
        // A cached frame at once; one the worker is still making when it arrives.
        QTRY_COMPARE_WITH_TIMEOUT(doc->frame(), std::uint64_t(f), kWorkerWait);
        QCOMPARE(doc->simulation().stateHash(), replay(doc->scene(), doc->take(), f).stateHash());
        QCOMPARE(ruler->playhead(), f);
    }
    // The paused worker fills the cache from the playhead on.
    QTRY_VERIFY_WITH_TIMEOUT(doc->timeline().cachedFrame(60) != nullptr, kWorkerWait);
    window.timelineBar()->refresh();

    const int steps = doc->undoStack()->count();
    emit ruler->markerDeleteRequested(0);
    QVERIFY(doc->take().empty());
    QCOMPARE(doc->undoStack()->count(), steps + 1);
    QCOMPARE(ruler->markers().size(), qsizetype(0));
    QCOMPARE(doc->simulation().stateHash(), replay(doc->scene(), Take{}, 44).stateHash());
    doc->undoStack()->undo();
    QTRY_VERIFY_WITH_TIMEOUT(settled(doc), kWorkerWait); // an undo that re-simulates arrives from the worker
    QCOMPARE(doc->take().events.size(), std::size_t(1));
    QCOMPARE(ruler->markers().size(), qsizetype(1));
}

void TestEditor::addMenuAndDeleteObjects()
{
    // Add ▸ Sphere puts a ball at the viewport's focus point; Add ▸ Hanging Sheet a pinned
    // sheet centred there; the Scene dock's Delete removes the selected one; each is one
    // undo step and the playhead returns to the start.
    MainWindow window;
    window.setDocument(preset(QStringLiteral("curtain")));
    Document *doc = window.document();
    const std::size_t colliders = doc->scene().colliders.size();
    const std::size_t cloths = doc->scene().cloths.size();
    window.controller()->stepFrames(10);
    QTRY_VERIFY_WITH_TIMEOUT(settled(doc) && doc->frame() == 10, 20000);
    const Vec3 focus = window.viewport()->camera().desc().target;
    QVERIFY(window.objectActions()->add(AddActions::Object::Sphere));
    QCOMPARE(doc->frame(), std::uint64_t(0));
    QCOMPARE(doc->scene().colliders.size(), colliders + 1);
    const Collider &ball = doc->scene().colliders.back();
    QCOMPARE(ball.kind, ColliderKind::Sphere);
    QVERIFY(ball.baseCenter == focus);
    QCOMPARE(ball.name, std::string("Sphere 1"));
    QVERIFY(window.objectActions()->add(AddActions::Object::VerticalGrid));
    QCOMPARE(doc->scene().cloths.size(), cloths + 1);
    const Cloth &sheet = doc->simulation().cloths.back();
    QCOMPARE(sheet.particles.size(), std::size_t(24 * 24));
    std::size_t pins = 0;
    for (ParticleKind k : sheet.particles.kind)
        pins += k == ParticleKind::Static;
    QCOMPARE(pins, std::size_t(24));
    QCOMPARE(doc->undoStack()->count(), 2);

    // Delete the new sheet from the Outliner (it was selected when added).
    OutlinerDock *outliner = window.outlinerDock();
    QCOMPARE(outliner->tree()->topLevelItem(0)->childCount(), int(cloths + 1));
    QCOMPARE(outliner->selectedObjects(), (std::vector<SceneObject> { { SceneObject::Kind::Cloth, int(cloths) } }));
    outliner->deleteAction()->trigger();
    QCOMPARE(doc->scene().cloths.size(), cloths);
    QCOMPARE(doc->undoStack()->count(), 3);
    doc->undoStack()->undo();
    QTRY_VERIFY(settled(doc)); // an undo that re-simulates arrives from the worker
    QCOMPARE(doc->scene().cloths.size(), cloths + 1);
    doc->undoStack()->undo();
    doc->undoStack()->undo();
    QTRY_VERIFY(settled(doc)); // an undo that re-simulates arrives from the worker
    QCOMPARE(doc->scene().colliders.size(), colliders);
    QCOMPARE(doc->frame(), std::uint64_t(10)); // back where the first addition was made
}

void TestEditor::importMeshAsClothAndCollider()
{
    // A 2 × 2 quad patch in centimetres, Z up: the dialog shows its size in metres before it
    // is added; as a cloth it has a particle per vertex, as a collider it keeps its triangles.
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("patch.obj"));
    {
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        for (int j = 0; j < 3; ++j)
            for (int i = 0; i < 3; ++i)
                f.write(QStringLiteral("v %1 %2 100\n").arg(i * 50).arg(j * 50).toLatin1());
        for (int j = 0; j < 2; ++j)
            for (int i = 0; i < 2; ++i) {
                const int a = j * 3 + i + 1;
                f.write(QStringLiteral("f %1 %2 %3\nf %1 %3 %4\n").arg(a).arg(a + 1).arg(a + 4).arg(a + 3).toLatin1());
            }
    }
    Document doc(*loadPreset(QStringLiteral("curtain"), nullptr));
    const std::size_t cloths = doc.scene().cloths.size();
    ImportMeshDialog dialog(path);
    QVERIFY2(dialog.readOk(), qPrintable(dialog.summary()));
    dialog.unitsBox()->setCurrentIndex(1); // centimetres
    dialog.upBox()->setCurrentIndex(1);    // Z up
    // 100 cm across, lying in the plane 1 m up once Z is turned to Y.
    QVERIFY2(dialog.summary().contains(QStringLiteral("9 particles")), qPrintable(dialog.summary()));
    QVERIFY2(dialog.summary().contains(QStringLiteral("size 1 × 0 × 1 m")), qPrintable(dialog.summary()));
    QVERIFY(dialog.addTo(doc).isEmpty());
    QCOMPARE(doc.scene().cloths.size(), cloths + 1);
    const Cloth &patch = doc.simulation().cloths.back();
    QCOMPARE(patch.particles.size(), std::size_t(9));
    float top = -1e9f;
    for (const Vec3 &p : patch.particles.position)
        top = std::max(top, p.y);
    QVERIFY(std::abs(top - 1.f) < 1e-5f); // z = 100 cm is y = 1 m
    dialog.roleBox()->setCurrentIndex(1);
    QVERIFY(dialog.addTo(doc).isEmpty());
    QCOMPARE(doc.scene().colliders.back().kind, ColliderKind::Mesh);
    QCOMPARE(doc.undoStack()->count(), 2);
    doc.undoStack()->undo();
    doc.undoStack()->undo();
    QCOMPARE(doc.scene().cloths.size(), cloths);

    // A file that is not a mesh is refused with its name, and nothing is added.
    const QString bad = dir.filePath(QStringLiteral("notes.obj"));
    {
        QFile f(bad);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("this is not a mesh\n");
    }
    ImportMeshDialog refused(bad);
    QVERIFY(!refused.readOk());
    QVERIFY2(refused.summary().contains(QStringLiteral("notes.obj")), qPrintable(refused.summary()));
    QVERIFY(!refused.addTo(doc).isEmpty());
    QCOMPARE(doc.scene().cloths.size(), cloths);
}

void TestEditor::statusSaysWhatAnEditDoesAndStartHereKeepsTheState()
{
    MainWindow window;
    window.setDocument(preset(QStringLiteral("curtain")));
    window.resize(960, 640);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    Document *doc = window.document();
    StatusWidgets *status = window.statusWidgets();
    QTRY_COMPARE(status->modeText(), QStringLiteral("Editing the scene"));
    // At frame 0 an edit changes the scene; later it is recorded in the take at the playhead.
    QVERIFY(doc->setParameter("world.airDamping", 0, 0.3).isEmpty());
    QVERIFY(doc->take().events.empty());
    window.controller()->stepFrames(12);
    QTRY_COMPARE(status->modeText(), QStringLiteral("Recording at frame 12"));
    QTRY_VERIFY_WITH_TIMEOUT(settled(doc) && doc->frame() == 12, 20000);
    QVERIFY(doc->setParameter("world.airDamping", 0, 0.2).isEmpty());
    QCOMPARE(doc->take().events.size(), std::size_t(1));
    QCOMPARE(doc->take().events[0].frame, std::uint64_t(12));

    // Set Start Here: what the viewport shows becomes the start, the take is cleared.
    const std::vector<Vec3> shown = doc->simulation().cloths[0].particles.position;
    const std::size_t steps = std::size_t(doc->undoStack()->count());
    window.simulationActions()->startHereAction()->trigger();
    QCOMPARE(doc->frame(), std::uint64_t(0));
    QVERIFY(doc->take().events.empty());
    QVERIFY(doc->scene().state.has_value());
    QVERIFY(doc->simulation().cloths[0].particles.position == shown);
    QCOMPARE(std::size_t(doc->undoStack()->count()), steps + 1);
    QTRY_COMPARE(status->modeText(), QStringLiteral("Editing the scene"));
    // One undo step: back to frame 12 with the take and the same cloth.
    doc->undoStack()->undo();
    QTRY_VERIFY(settled(doc)); // an undo that re-simulates arrives from the worker
    QCOMPARE(doc->frame(), std::uint64_t(12));
    QCOMPARE(doc->take().events.size(), std::size_t(1));
    QVERIFY(!doc->scene().state.has_value());
    QVERIFY(doc->simulation().cloths[0].particles.position == shown);
    QTRY_COMPARE(status->modeText(), QStringLiteral("Recording at frame 12"));
}

void TestEditor::dockAndGizmoChooseTheSameObject()
{
    // Choosing in the Parameters dock moves the transform gizmo to that object, and an
    // object chosen with the gizmo is the one the dock shows.
    MainWindow window;
    window.setDocument(preset(QStringLiteral("tablecloth")));
    auto *dock = window.findChild<ParametersDock *>();
    auto *tools = window.findChild<ToolManager *>();
    QVERIFY(dock && tools);
    TransformTool *tool = tools->transformTool();
    QVERIFY(!window.document()->scene().colliders.empty());
    emit dock->colliderChosen(0);
    QCOMPARE(tool->target(), TransformTool::Target::Collider);
    QCOMPARE(tool->targetIndex(), 0);
    emit dock->clothChosen(0);
    QCOMPARE(tool->target(), TransformTool::Target::Cloth);
    const int last = int(window.document()->scene().colliders.size()) - 1;
    QVERIFY(last > 0 && dock->currentCollider() != last);
    emit tool->targetChosen(TransformTool::Target::Collider, last);
    QCOMPARE(dock->currentCollider(), last);
}

int main(int argc, char **argv)
{
    QSurfaceFormat::setDefaultFormat(Viewport::surfaceFormat());
    QApplication app(argc, argv);
    TestEditor test;
    return QTest::qExec(&test, argc, argv);
}

#include "tst_editor.moc"
