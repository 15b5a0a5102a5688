// The viewport tools driven with real mouse events on a real viewport (run under xvfb-run):
// a 10 × 10 hanging grid seen through a known orthographic front camera, the simulation
// paused, so every particle's screen position is known from Viewport::project and every
// expected result follows from the grid's geometry, not from a previous run.
#include "docks/constraintdock.h"
#include "document/document.h"
#include "render/resources.h"
#include "scene/scene.h"
#include "document/selection.h"
#include "tools/tool.h"
#include "tools/constrainttool.h"
#include "tools/cuttool.h"
#include "tools/dragtool.h"
#include "tools/pintool.h"
#include "tools/toolmanager.h"
#include "docks/toolsdock.h"
#include "render/viewport.h"
#include "../cli/drapeprocess.h"

#include <QApplication>
#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QLineF>
#include <QMouseEvent>
#include <QTemporaryDir>
#include <QTest>

#include <memory>
#include <numeric>
#include <set>

using namespace drape;

namespace {

constexpr int kAcross = 10;
constexpr int kDown = 10;
constexpr int kView = 400;         // px, square viewport
constexpr float kOrthoHeight = 1.6f; // m visible vertically → 250 px per metre

Scene makeScene()
{
    Scene s;
    s.name = "tools test";
    ClothDesc c;
    c.name = "sheet";
    c.grid.across = kAcross;
    c.grid.down = kDown;
    c.grid.width = 1.f;
    c.grid.height = 1.f;
    c.grid.origin = {-0.5f, 1.5f, 0.f};
    // The selection and cut checks below count the skip-one distance constraints as well:
    // since bending is dihedral, grids have them only as the legacy option.
    c.grid.bendSprings = true;
    for (std::uint32_t i = 0; i < kAcross; ++i)
        c.pins.push_back(i); // the top row hangs the sheet
    s.cloths.push_back(c);
    s.camera.target = {0.f, 1.f, 0.f};
    s.camera.yaw = 0.f;
    s.camera.pitch = 0.f;
    s.camera.distance = 3.f;
    s.camera.orthographic = true;
    s.camera.orthoHeight = kOrthoHeight;
    return s;
}

std::uint32_t idx(int i, int j) { return std::uint32_t(j * kAcross + i); }

/// Connected components of a cloth through its constraints (union–find with path halving).
std::vector<std::uint32_t> components(const Cloth &cloth)
{
    std::vector<std::uint32_t> parent(cloth.particles.size());
    std::iota(parent.begin(), parent.end(), 0u);
    auto find = [&](std::uint32_t x) {
        while (parent[x] != x)
            x = parent[x] = parent[parent[x]];
        return x;
    };
    for (const DistanceConstraint &c : cloth.constraints)
        parent[find(c.a)] = find(c.b);
    std::vector<std::uint32_t> root(parent.size());
    for (std::uint32_t i = 0; i < parent.size(); ++i)
        root[i] = find(i);
    return root;
}

std::size_t componentCount(const Cloth &cloth)
{
    const auto r = components(cloth);
    return std::set<std::uint32_t>(r.begin(), r.end()).size();
}

} // namespace

class TestTools : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanup();

    void clickPinsParticle();
    void boxSelectPinsMany();
    void cutSeparatesCloth();
    void rightDragCutsFromAnyTool();
    void escapeAbortsCut();
    void sewingAddsConstraint();
    void selectAndDeleteConstraints();
    void dragIsOneUndoStep();
    void dragThatTearsIsOneUndoStep();
    void escapeAbortsDrag();
    void draggingPinMovesIt();
    void pinActions();
    void brushPinsAlongStroke();
    void pushGivesMouseMotion();
    void editedSceneSavesAndReopens();
    void constraintDockEditsSelection();
    void undoRestoresWhatWasShown();
    void sessionReplaysHeadlessToWhatWasShown();
    void clickOnPinDotUnpinsThatPin();
    void sewSecondClickOnEdgeSewsItsEnd();
    void selectionFollowsGridResolution();
    void tearingToggleIsOneParameterStep();
    void toolEventsWaitForThePreparedState();

private:
    QPointF at(std::uint32_t particle) const;
    void mouse(QEvent::Type type, const QPointF &pos, Qt::MouseButton button,
               Qt::KeyboardModifiers modifiers = Qt::NoModifier);
    /// Press at `from`, move in `steps` steps to `to`, release there.
    void drag(const QPointF &from, const QPointF &to, Qt::MouseButton button = Qt::LeftButton,
              Qt::KeyboardModifiers modifiers = Qt::NoModifier, int steps = 8);
    void click(const QPointF &pos, Qt::KeyboardModifiers modifiers = Qt::NoModifier);
    /// Undo restores the exact scene and running topology; redo gives back the edited ones.
    void checkUndoRedo(const Scene &before, const Cloth &clothBefore);

    const Cloth &cloth() const { return m_doc->simulation().cloths[0]; }

    std::unique_ptr<Document> m_doc;
    std::unique_ptr<Viewport> m_view;
    std::unique_ptr<ToolManager> m_tools;
    Qt::MouseButtons m_buttons;
};

void TestTools::initTestCase()
{
    initResources();
}

void TestTools::init()
{
    m_doc = std::make_unique<Document>(makeScene());
    m_view = std::make_unique<Viewport>();
    m_view->resize(kView, kView);
    m_view->setDocument(m_doc.get());
    m_tools = std::make_unique<ToolManager>(m_view.get());
    m_tools->setDocument(m_doc.get());
    m_view->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_view.get()));
    QCOMPARE(m_view->width(), kView);
    QCOMPARE(m_view->height(), kView);
    m_buttons = Qt::NoButton;
}

void TestTools::cleanup()
{
    m_tools.reset();
    m_view.reset();
    m_doc.reset();
}

QPointF TestTools::at(std::uint32_t particle) const
{
    QPointF p;
    const bool ok = m_view->project(m_doc->simulation().cloths[0].particles.position[particle], &p);
    Q_ASSERT(ok);
    return p;
}

void TestTools::mouse(QEvent::Type type, const QPointF &pos, Qt::MouseButton button, Qt::KeyboardModifiers modifiers)
{
    if (type == QEvent::MouseButtonPress)
        m_buttons |= button;
    if (type == QEvent::MouseButtonRelease)
        m_buttons &= ~button;
    QMouseEvent event(type, pos, m_view->mapToGlobal(pos), type == QEvent::MouseMove ? Qt::NoButton : button,
                      m_buttons, modifiers);
    QApplication::sendEvent(m_view.get(), &event);
}

void TestTools::drag(const QPointF &from, const QPointF &to, Qt::MouseButton button, Qt::KeyboardModifiers modifiers,
                     int steps)
{
    mouse(QEvent::MouseMove, from, Qt::NoButton, modifiers);
    mouse(QEvent::MouseButtonPress, from, button, modifiers);
    for (int s = 1; s <= steps; ++s)
        mouse(QEvent::MouseMove, from + (to - from) * (double(s) / steps), button, modifiers);
    mouse(QEvent::MouseButtonRelease, to, button, modifiers);
}

void TestTools::click(const QPointF &pos, Qt::KeyboardModifiers modifiers)
{
    mouse(QEvent::MouseMove, pos, Qt::NoButton, modifiers);
    mouse(QEvent::MouseButtonPress, pos, Qt::LeftButton, modifiers);
    mouse(QEvent::MouseButtonRelease, pos, Qt::LeftButton, modifiers);
}

void TestTools::checkUndoRedo(const Scene &before, const Cloth &clothBefore)
{
    const Scene after = m_doc->scene();
    const Cloth clothAfter = cloth();
    QVERIFY(!(after == before));
    m_doc->undoStack()->undo();
    QVERIFY(m_doc->scene() == before);
    QCOMPARE(cloth().particles.size(), clothBefore.particles.size());
    QVERIFY(cloth().constraints == clothBefore.constraints);
    QVERIFY(cloth().triangles == clothBefore.triangles);
    QVERIFY(cloth().particles.kind == clothBefore.particles.kind);
    m_doc->undoStack()->redo();
    QVERIFY(m_doc->scene() == after);
    QVERIFY(cloth().constraints == clothAfter.constraints);
    QVERIFY(cloth().triangles == clothAfter.triangles);
    QVERIFY(cloth().particles.kind == clothAfter.particles.kind);
}

void TestTools::clickPinsParticle()
{
    m_tools->setActiveTool(m_tools->pinTool());
    const Scene before = m_doc->scene();
    const Cloth clothBefore = cloth();
    const std::uint32_t p = idx(5, 5);
    const Vec3 where = cloth().particles.position[p];
    click(at(p));
    QCOMPARE(cloth().particles.kind[p], ParticleKind::Static);
    QCOMPARE(cloth().particles.invMass[p], 0.f);
    const auto &pins = m_doc->scene().cloths[0].pins;
    QVERIFY(std::find(pins.begin(), pins.end(), p) != pins.end());
    QCOMPARE(m_doc->undoStack()->count(), 1);
    // A pin does not move however long the cloth swings around it.
    m_doc->step(30);
    QVERIFY(cloth().particles.position[p] == where);
    checkUndoRedo(before, clothBefore);
    // A second click on the pin unpins it.
    click(at(p));
    QCOMPARE(cloth().particles.kind[p], ParticleKind::Dynamic);
    QCOMPARE(m_doc->undoStack()->count(), 2);
}

void TestTools::boxSelectPinsMany()
{
    m_tools->setActiveTool(m_tools->pinTool());
    const Scene before = m_doc->scene();
    const Cloth clothBefore = cloth();
    // A rectangle whose edges lie halfway between grid columns 2|3 and 5|6 and rows 3|4 and 6|7
    // holds exactly the 3 × 3 particles (3..5, 4..6).
    const QPointF from = (at(idx(2, 3)) + at(idx(3, 4))) / 2;
    const QPointF to = (at(idx(5, 6)) + at(idx(6, 7))) / 2;
    drag(from, to, Qt::LeftButton, Qt::ShiftModifier);
    for (int j = 0; j < kDown; ++j) {
        for (int i = 0; i < kAcross; ++i) {
            const bool inside = i >= 3 && i <= 5 && j >= 4 && j <= 6;
            const bool expected = inside || j == 0;
            QCOMPARE(cloth().particles.kind[idx(i, j)] == ParticleKind::Static, expected);
        }
    }
    QCOMPARE(m_doc->undoStack()->count(), 1);
    QCOMPARE(m_doc->scene().cloths[0].pins.size(), std::size_t(kAcross + 9));
    checkUndoRedo(before, clothBefore);
    // Ctrl + box unpins them again.
    drag(from, to, Qt::LeftButton, Qt::ShiftModifier | Qt::ControlModifier);
    QVERIFY(cloth().particles.kind == clothBefore.particles.kind);
    QCOMPARE(m_doc->scene().cloths[0].pins, before.cloths[0].pins);
}

void TestTools::cutSeparatesCloth()
{
    m_tools->setActiveTool(m_tools->cutTool());
    m_tools->setCutRadius(0.f);
    const Scene before = m_doc->scene();
    const Cloth clothBefore = cloth();
    QCOMPARE(componentCount(cloth()), std::size_t(1));
    // A horizontal stroke halfway between rows 4 and 5, from left of the sheet to right of it.
    const double y = (at(idx(0, 4)).y() + at(idx(0, 5)).y()) / 2;
    drag(QPointF(at(idx(0, 4)).x() - 40, y), QPointF(at(idx(kAcross - 1, 4)).x() + 40, y));
    QCOMPARE(m_doc->undoStack()->count(), 1);
    // Exactly the constraints joining a particle above the line to one below it are gone.
    std::size_t crossing = 0;
    for (const DistanceConstraint &c : clothBefore.constraints)
        crossing += ((c.a / kAcross <= 4) != (c.b / kAcross <= 4)) ? 1 : 0;
    QVERIFY(crossing > 0);
    QCOMPARE(cloth().constraints.size(), clothBefore.constraints.size() - crossing);
    for (const DistanceConstraint &c : cloth().constraints)
        QCOMPARE(c.a / kAcross <= 4, c.b / kAcross <= 4);
    // Two pieces: rows 0..4 (hanging from the pins) and rows 5..9.
    const auto roots = components(cloth());
    QCOMPARE(componentCount(cloth()), std::size_t(2));
    QCOMPARE(roots[idx(0, 0)], roots[idx(9, 4)]);
    QCOMPARE(roots[idx(0, 5)], roots[idx(9, 9)]);
    QVERIFY(roots[idx(0, 4)] != roots[idx(0, 5)]);
    // The scene saves the cut as explicit topology.
    QCOMPARE(m_doc->scene().cloths[0].source, ClothSource::Explicit);
    QVERIFY(m_doc->scene().cloths[0].explicitData.constraints == cloth().constraints);
    checkUndoRedo(before, clothBefore);
    // Stepping, the lower piece falls away from the upper one: the gap across the cut grows
    // well beyond the row spacing (1/9 m).
    m_doc->step(30);
    const float gap = cloth().particles.position[idx(5, 4)].y - cloth().particles.position[idx(5, 5)].y;
    QVERIFY2(gap > 0.5f, qPrintable(QString::number(gap)));
}

void TestTools::rightDragCutsFromAnyTool()
{
    m_tools->setActiveTool(m_tools->dragTool());
    const Cloth clothBefore = cloth();
    // A vertical stroke between columns 4 and 5 over the whole sheet.
    const double x = (at(idx(4, 0)).x() + at(idx(5, 0)).x()) / 2;
    drag(QPointF(x, at(idx(4, 0)).y() - 30), QPointF(x, at(idx(4, kDown - 1)).y() + 30), Qt::RightButton);
    QCOMPARE(m_doc->undoStack()->count(), 1);
    QVERIFY(cloth().constraints.size() < clothBefore.constraints.size());
    for (const DistanceConstraint &c : cloth().constraints)
        QCOMPARE(c.a % kAcross <= 4, c.b % kAcross <= 4);
    QCOMPARE(componentCount(cloth()), std::size_t(2));
}

void TestTools::escapeAbortsCut()
{
    m_tools->setActiveTool(m_tools->cutTool());
    const Cloth clothBefore = cloth();
    const double y = (at(idx(0, 4)).y() + at(idx(0, 5)).y()) / 2;
    const QPointF from(at(idx(0, 4)).x() - 40, y);
    mouse(QEvent::MouseButtonPress, from, Qt::LeftButton);
    for (int s = 1; s <= 6; ++s)
        mouse(QEvent::MouseMove, from + QPointF(60.0 * s, 0), Qt::LeftButton);
    QVERIFY(cloth().constraints.size() < clothBefore.constraints.size());
    QTest::keyClick(m_view.get(), Qt::Key_Escape);
    mouse(QEvent::MouseButtonRelease, from + QPointF(360, 0), Qt::LeftButton);
    QVERIFY(cloth().constraints == clothBefore.constraints);
    QVERIFY(cloth().triangles == clothBefore.triangles);
    QCOMPARE(m_doc->undoStack()->count(), 0);
}

void TestTools::sewingAddsConstraint()
{
    m_tools->setActiveTool(m_tools->constraintTool());
    const Scene before = m_doc->scene();
    const Cloth clothBefore = cloth();
    const std::uint32_t a = idx(1, 8);
    const std::uint32_t b = idx(8, 8);
    click(at(a));
    QCOMPARE(m_tools->constraintTool()->stitchStart().index, a);
    click(at(b));
    QCOMPARE(cloth().constraints.size(), clothBefore.constraints.size() + 1);
    const DistanceConstraint &c = cloth().constraints.back();
    QVERIFY((c.a == a && c.b == b) || (c.a == b && c.b == a));
    QCOMPARE(c.kind, ConstraintKind::User);
    // Rest length = the current distance: 7 columns of 1/9 m.
    QVERIFY(std::abs(c.restLength - 7.f / 9.f) < 1e-5f);
    // The scene has it too.
    const ClothDesc &desc = m_doc->scene().cloths[0];
    QCOMPARE(desc.source, ClothSource::Explicit);
    QVERIFY(desc.explicitData.constraints.back() == c);
    QCOMPARE(desc.pins, before.cloths[0].pins);
    QVERIFY(m_tools->selection()->containsConstraint(0, std::uint32_t(cloth().constraints.size() - 1)));
    checkUndoRedo(before, clothBefore);

    // Ctrl sews together: rest length 0.
    click(at(idx(2, 9)));
    click(at(idx(7, 9)), Qt::ControlModifier);
    QCOMPARE(cloth().constraints.back().restLength, 0.f);
}

void TestTools::selectAndDeleteConstraints()
{
    m_tools->setActiveTool(m_tools->constraintTool());
    const Scene before = m_doc->scene();
    const Cloth clothBefore = cloth();
    // Click the middle of the structural edge between (4, 6) and (5, 6).
    const QPointF mid = (at(idx(4, 6)) + at(idx(5, 6))) / 2;
    click(mid);
    Selection *sel = m_tools->selection();
    QCOMPARE(sel->constraints().size(), std::size_t(1));
    const DistanceConstraint picked = cloth().constraints[sel->constraints().front()];
    QVERIFY((picked.a == idx(4, 6) && picked.b == idx(5, 6)) || (picked.a == idx(5, 6) && picked.b == idx(4, 6)));
    // Shift+click adds the edge below it.
    click((at(idx(4, 7)) + at(idx(5, 7))) / 2, Qt::ShiftModifier);
    QCOMPARE(sel->constraints().size(), std::size_t(2));
    m_view->setFocus();
    QTest::keyClick(m_view.get(), Qt::Key_Delete);
    QCOMPARE(cloth().constraints.size(), clothBefore.constraints.size() - 2);
    QVERIFY(sel->constraints().empty());
    for (const DistanceConstraint &c : cloth().constraints)
        QVERIFY(!((c.a == picked.a && c.b == picked.b) || (c.a == picked.b && c.b == picked.a)));
    checkUndoRedo(before, clothBefore);
}

void TestTools::dragIsOneUndoStep()
{
    m_tools->setActiveTool(m_tools->dragTool());
    m_tools->setRadius(0.05f); // less than the spacing: one particle
    const Scene before = m_doc->scene();
    const std::uint32_t p = idx(5, 8);
    const Vec3 start = cloth().particles.position[p];
    const QPointF from = at(p);
    mouse(QEvent::MouseMove, from, Qt::NoButton);
    mouse(QEvent::MouseButtonPress, from, Qt::LeftButton);
    QCOMPARE(cloth().particles.kind[p], ParticleKind::Kinematic);
    for (int s = 1; s <= 6; ++s)
        mouse(QEvent::MouseMove, from + QPointF(10.0 * s, 0), Qt::LeftButton);
    // 60 px at 250 px/m is 0.24 m along +x, in the plane facing the camera (z unchanged).
    const Vec3 moved = cloth().particles.position[p];
    QVERIFY(std::abs(moved.x - (start.x + 60.f * kOrthoHeight / kView)) < 1e-3f);
    QVERIFY(std::abs(moved.y - start.y) < 1e-3f);
    QVERIFY(std::abs(moved.z - start.z) < 1e-4f);
    mouse(QEvent::MouseButtonRelease, from + QPointF(60, 0), Qt::LeftButton);
    QCOMPARE(cloth().particles.kind[p], ParticleKind::Dynamic);
    // The drag is one undo step, an event of the take; the scene (the start) is untouched.
    QCOMPARE(m_doc->undoStack()->count(), 1);
    QVERIFY(m_doc->scene() == before);
    QCOMPARE(m_doc->take().events.size(), std::size_t(1));
    QVERIFY(std::holds_alternative<DragEvent>(m_doc->take().events[0].data));
    m_doc->undoStack()->undo();
    QVERIFY(cloth().particles.position[p] == start);
    QVERIFY(m_doc->take().empty());
}

void TestTools::dragThatTearsIsOneUndoStep()
{
    // A drag that tears the cloth while frames play is still one undo step: the tears are
    // consequences of the drag, replayed, never edits of their own.
    QVERIFY(m_doc->setParameter("cloth.tearMode", 0, double(int(TearMode::RemoveConstraint))).isEmpty());
    QVERIFY(m_doc->setParameter("material.tearStrain", 0, 0.3).isEmpty());
    const int stepsBefore = m_doc->undoStack()->count();
    const Scene before = m_doc->scene();
    m_doc->step(5);
    const std::uint64_t pressed = m_doc->simulation().stateHash();
    const std::size_t constraints = cloth().constraints.size();
    m_tools->setActiveTool(m_tools->dragTool());
    m_tools->setRadius(0.05f);
    const std::uint32_t p = idx(5, kDown - 1);
    const QPointF from = at(p);
    mouse(QEvent::MouseMove, from, Qt::NoButton);
    mouse(QEvent::MouseButtonPress, from, Qt::LeftButton);
    // Pull the bottom edge 1.2 m down (300 px at 250 px/m), playing a frame at each move.
    for (int s = 1; s <= 30; ++s) {
        mouse(QEvent::MouseMove, from + QPointF(0, 10.0 * s), Qt::LeftButton);
        m_doc->step(1);
    }
    mouse(QEvent::MouseButtonRelease, from + QPointF(0, 300), Qt::LeftButton);
    QVERIFY2(cloth().constraints.size() < constraints, "the pull tore nothing");
    const std::uint64_t released = m_doc->simulation().stateHash();
    const std::uint64_t frame = m_doc->frame();
    QCOMPARE(m_doc->undoStack()->count(), stepsBefore + 1);
    QVERIFY(m_doc->scene() == before);
    QCOMPARE(m_doc->take().events.size(), std::size_t(1));
    QVERIFY(std::holds_alternative<DragEvent>(m_doc->take().events[0].data));
    m_doc->undoStack()->undo();
    QCOMPARE(m_doc->frame(), std::uint64_t(5));
    QCOMPARE(m_doc->simulation().stateHash(), pressed);
    QCOMPARE(cloth().constraints.size(), constraints);
    m_doc->undoStack()->redo();
    QCOMPARE(m_doc->frame(), frame);
    QCOMPARE(m_doc->simulation().stateHash(), released);
}

void TestTools::escapeAbortsDrag()
{
    m_tools->setActiveTool(m_tools->dragTool());
    m_tools->setRadius(0.3f);
    const Particles saved = cloth().particles;
    const QPointF from = at(idx(5, 6));
    mouse(QEvent::MouseMove, from, Qt::NoButton);
    mouse(QEvent::MouseButtonPress, from, Qt::LeftButton);
    for (int s = 1; s <= 5; ++s)
        mouse(QEvent::MouseMove, from + QPointF(8.0 * s, -6.0 * s), Qt::LeftButton);
    QVERIFY(!(cloth().particles.position == saved.position));
    QTest::keyClick(m_view.get(), Qt::Key_Escape);
    QVERIFY(cloth().particles.position == saved.position);
    QVERIFY(cloth().particles.previous == saved.previous);
    QVERIFY(cloth().particles.velocity == saved.velocity);
    QVERIFY(cloth().particles.kind == saved.kind);
    QVERIFY(cloth().particles.invMass == saved.invMass);
    mouse(QEvent::MouseButtonRelease, from + QPointF(40, -30), Qt::LeftButton);
    QVERIFY(cloth().particles.position == saved.position);
    QCOMPARE(m_doc->undoStack()->count(), 0);

    // A right-click during the drag aborts it too.
    mouse(QEvent::MouseButtonPress, from, Qt::LeftButton);
    mouse(QEvent::MouseMove, from + QPointF(30, 0), Qt::LeftButton);
    mouse(QEvent::MouseButtonPress, from + QPointF(30, 0), Qt::RightButton);
    QVERIFY(cloth().particles.position == saved.position);
    QVERIFY(cloth().particles.kind == saved.kind);
    mouse(QEvent::MouseButtonRelease, from + QPointF(30, 0), Qt::RightButton);
    mouse(QEvent::MouseButtonRelease, from + QPointF(30, 0), Qt::LeftButton);
    QCOMPARE(m_doc->undoStack()->count(), 0);
}

void TestTools::draggingPinMovesIt()
{
    m_tools->setActiveTool(m_tools->pinTool());
    const Scene before = m_doc->scene();
    const Cloth clothBefore = cloth();
    const std::uint32_t p = idx(3, 0);
    const Vec3 start = cloth().particles.position[p];
    drag(at(p), at(p) + QPointF(-50, 25));
    const Vec3 expected = start + Vec3(-50.f, -25.f, 0.f) * (kOrthoHeight / kView);
    const Vec3 now = cloth().particles.position[p];
    QVERIFY(length(now - expected) < 1e-3f);
    QCOMPARE(cloth().particles.kind[p], ParticleKind::Static);
    QCOMPARE(m_doc->undoStack()->count(), 1);
    // The hook's new place is authored: Reset puts it there.
    const ClothDesc &desc = m_doc->scene().cloths[0];
    QCOMPARE(desc.source, ClothSource::Explicit);
    QVERIFY(desc.explicitData.rest[p] == now);
    m_doc->reset();
    QVERIFY(cloth().particles.position[p] == now);
    QCOMPARE(cloth().particles.kind[p], ParticleKind::Static);
    m_doc->undoStack()->undo();
    QVERIFY(m_doc->scene() == before);
    QVERIFY(cloth().constraints == clothBefore.constraints);
    QCOMPARE(cloth().particles.kind[p], ParticleKind::Static);
    m_doc->reset();
    QVERIFY(cloth().particles.position[p] == start);
}

void TestTools::pinActions()
{
    m_tools->unpinAll();
    for (ParticleKind k : cloth().particles.kind)
        QCOMPARE(k, ParticleKind::Dynamic);
    QVERIFY(m_doc->scene().cloths[0].pins.empty());
    m_tools->pinCorners();
    const std::vector<std::uint32_t> corners{idx(0, 0), idx(kAcross - 1, 0), idx(0, kDown - 1), idx(kAcross - 1, kDown - 1)};
    QCOMPARE(m_doc->scene().cloths[0].pins, corners);
    m_tools->pinTopEdge();
    for (int i = 0; i < kAcross; ++i)
        QCOMPARE(cloth().particles.kind[idx(i, 0)], ParticleKind::Static);
    QCOMPARE(m_doc->undoStack()->count(), 3);
    m_doc->undoStack()->undo();
    m_doc->undoStack()->undo();
    m_doc->undoStack()->undo();
    QVERIFY(m_doc->scene() == makeScene());
}

void TestTools::brushPinsAlongStroke()
{
    m_tools->setActiveTool(m_tools->pinTool());
    m_tools->setRadius(0.05f); // under half the spacing (1/18 m): one particle per dab
    const Scene before = m_doc->scene();
    const Cloth clothBefore = cloth();
    // Steps of a quarter of the spacing, so the cursor passes over every particle of the row.
    drag(at(idx(1, 7)), at(idx(8, 7)), Qt::LeftButton, Qt::NoModifier, 28);
    for (int j = 0; j < kDown; ++j)
        for (int i = 0; i < kAcross; ++i)
            QCOMPARE(cloth().particles.kind[idx(i, j)] == ParticleKind::Static, j == 0 || (j == 7 && i >= 1 && i <= 8));
    QCOMPARE(m_doc->undoStack()->count(), 1); // the whole stroke is one step
    checkUndoRedo(before, clothBefore);
    // Ctrl brushes pins off again.
    drag(at(idx(1, 7)), at(idx(8, 7)), Qt::LeftButton, Qt::ControlModifier, 28);
    QVERIFY(cloth().particles.kind == clothBefore.particles.kind);
    QCOMPARE(m_doc->scene().cloths[0].pins, before.cloths[0].pins);
}

void TestTools::pushGivesMouseMotion()
{
    m_tools->setActiveTool(m_tools->pushTool());
    m_tools->setRadius(0.05f);
    m_tools->setPushStrength(1.f);
    const Scene before = m_doc->scene();
    const std::uint32_t p = idx(5, 6);
    QCOMPARE(cloth().particles.velocity[p].x, 0.f);
    // One move of 8 px (0.032 m) to the right ending on the particle: it takes that motion over
    // one frame as its velocity, 0.032 m × 60 Hz = 1.92 m/s along +x (XPBD reads the velocity).
    const QPointF to = at(p);
    const QPointF from = to - QPointF(8, 0); // near enough that the press finds the cloth
    mouse(QEvent::MouseMove, from, Qt::NoButton);
    mouse(QEvent::MouseButtonPress, from, Qt::LeftButton);
    mouse(QEvent::MouseMove, to, Qt::LeftButton);
    mouse(QEvent::MouseButtonRelease, to, Qt::LeftButton);
    const float expected = 8.f * (kOrthoHeight / kView) * m_doc->simulation().solver.frameRate;
    QVERIFY2(std::abs(cloth().particles.velocity[p].x - expected) < 1e-2f,
             qPrintable(QString::number(cloth().particles.velocity[p].x)));
    QCOMPARE(cloth().particles.velocity[idx(2, 2)].x, 0.f); // far from the cursor
    // The stroke is one undo step, recorded in the take; the scene is untouched.
    QCOMPARE(m_doc->undoStack()->count(), 1);
    QVERIFY(m_doc->scene() == before);
    QVERIFY(!m_doc->take().empty());
    QVERIFY(std::holds_alternative<PushEvent>(m_doc->take().events[0].data));
}

void TestTools::editedSceneSavesAndReopens()
{
    // Cut, pin and sew, then save and reopen.
    m_tools->setActiveTool(m_tools->cutTool());
    const double y = (at(idx(0, 6)).y() + at(idx(0, 7)).y()) / 2;
    drag(QPointF(at(idx(2, 6)).x(), y), QPointF(at(idx(7, 6)).x(), y));
    m_tools->setActiveTool(m_tools->pinTool());
    click(at(idx(0, 9)));
    m_tools->setActiveTool(m_tools->constraintTool());
    click(at(idx(0, 3)));
    click(at(idx(9, 3)));
    QCOMPARE(m_doc->undoStack()->count(), 3);

    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("edited.drape.json"));
    QString error;
    QVERIFY2(m_doc->save(path, false, &error), qPrintable(error));
    QStringList warnings;
    std::unique_ptr<Document> reopened = Document::load(path, &error, &warnings);
    QVERIFY2(reopened, qPrintable(error));
    Scene saved = m_doc->scene();
    saved.camera = m_doc->camera(); // the view is saved as last seen (looking is not an edit)
    QVERIFY(reopened->scene() == saved);
    const Cloth &again = reopened->simulation().cloths[0];
    QVERIFY(again.constraints == cloth().constraints);
    QVERIFY(again.triangles == cloth().triangles);
    QVERIFY(again.particles.kind == cloth().particles.kind);
}

void TestTools::constraintDockEditsSelection()
{
    ConstraintDock dock(m_tools.get());
    dock.setDocument(m_doc.get());
    m_tools->setActiveTool(m_tools->constraintTool());
    const Scene before = m_doc->scene();
    const Cloth clothBefore = cloth();
    // A box around particles (2..6, 8) only: it holds their 4 structural edges and the 3 bend
    // constraints that skip one particle along the row, and nothing else.
    drag((at(idx(1, 7)) + at(idx(2, 8))) / 2, (at(idx(6, 8)) + at(idx(7, 9))) / 2);
    Selection *sel = m_tools->selection();
    QCOMPARE(sel->constraints().size(), std::size_t(7));
    for (std::uint32_t k : sel->constraints()) {
        const DistanceConstraint &c = cloth().constraints[k];
        QCOMPARE(c.a / kAcross, 8u);
        QCOMPARE(c.b / kAcross, 8u);
    }
    QVERIFY(dock.restLengthBox()->isEnabled());
    // Two edits of the same property merge into one undo step (a scrubbed spin box).
    QVERIFY(dock.setProperty(ConstraintDock::Property::RestLength, 0.05));
    QVERIFY(dock.setProperty(ConstraintDock::Property::RestLength, 0.06));
    QCOMPARE(m_doc->undoStack()->count(), 1);
    for (std::uint32_t k = 0; k < cloth().constraints.size(); ++k) {
        const bool selected = sel->containsConstraint(0, k);
        QCOMPARE(cloth().constraints[k].restLength == 0.06f, selected);
        if (!selected)
            QVERIFY(cloth().constraints[k] == clothBefore.constraints[k]);
    }
    QVERIFY(m_doc->scene().cloths[0].explicitData.constraints == cloth().constraints);
    QCOMPARE(dock.restLengthBox()->value(), 0.06);
    // A different property is a new step; a bad value is refused with nothing changed.
    QVERIFY(dock.setProperty(ConstraintDock::Property::Compliance, 1e-4));
    QCOMPARE(m_doc->undoStack()->count(), 2);
    QVERIFY(!dock.setProperty(ConstraintDock::Property::RestLength, -1.0));
    QCOMPARE(m_doc->undoStack()->count(), 2);
    m_doc->undoStack()->undo();
    m_doc->undoStack()->undo();
    QVERIFY(m_doc->scene() == before);
    QVERIFY(cloth().constraints == clothBefore.constraints);
}

void TestTools::undoRestoresWhatWasShown()
{
    // A cut made while the cloth moves (frame 10) is an event of the take. After playing on,
    // undo returns to frame 10 and shows exactly the state before the cut: no constraint comes
    // back between particles that have since moved apart.
    m_doc->step(10);
    const std::uint64_t shown = m_doc->simulation().stateHash();
    const Scene before = m_doc->scene();
    m_tools->setActiveTool(m_tools->cutTool());
    const double y = (at(idx(0, 4)).y() + at(idx(0, 5)).y()) / 2;
    drag(QPointF(at(idx(0, 4)).x() - 40, y), QPointF(at(idx(kAcross - 1, 4)).x() + 40, y));
    QCOMPARE(m_doc->undoStack()->count(), 1);
    QCOMPARE(componentCount(cloth()), std::size_t(2));
    QVERIFY(m_doc->scene() == before); // recorded, not baked into the start
    m_doc->step(25);
    const std::uint64_t after = m_doc->simulation().stateHash();
    m_doc->undoStack()->undo();
    QCOMPARE(m_doc->frame(), std::uint64_t(10));
    QCOMPARE(m_doc->simulation().stateHash(), shown);
    QCOMPARE(componentCount(cloth()), std::size_t(1));
    // Redo shows the cut at frame 10 again; playing on gives the same frames as before.
    m_doc->undoStack()->redo();
    QCOMPARE(componentCount(cloth()), std::size_t(2));
    m_doc->step(25);
    QCOMPARE(m_doc->simulation().stateHash(), after);
}

void TestTools::sessionReplaysHeadlessToWhatWasShown()
{
    // A session made with the mouse while the cloth moves (a pin, a cut, a drag), saved by the
    // editor: `drape simulate` replays the take to the state the viewport showed.
    m_doc->step(8);
    m_tools->setActiveTool(m_tools->pinTool());
    click(at(idx(0, kDown - 1)));
    m_doc->step(6);
    m_tools->setActiveTool(m_tools->cutTool());
    const double y = (at(idx(0, 3)).y() + at(idx(0, 4)).y()) / 2;
    drag(QPointF(at(idx(0, 3)).x() - 40, y), QPointF(at(idx(4, 3)).x(), y));
    m_doc->step(4);
    m_tools->setActiveTool(m_tools->dragTool());
    m_tools->setRadius(0.05f);
    const QPointF from = at(idx(7, kDown - 1));
    mouse(QEvent::MouseMove, from, Qt::NoButton);
    mouse(QEvent::MouseButtonPress, from, Qt::LeftButton);
    for (int s = 1; s <= 8; ++s) {
        mouse(QEvent::MouseMove, from + QPointF(6.0 * s, 4.0 * s), Qt::LeftButton);
        m_doc->step(1);
    }
    mouse(QEvent::MouseButtonRelease, from + QPointF(48, 32), Qt::LeftButton);
    m_doc->step(10);
    const std::uint64_t frame = m_doc->frame();
    QCOMPARE(frame, std::uint64_t(36));
    QCOMPARE(m_doc->undoStack()->count(), 3); // three gestures, three undo steps
    QVERIFY(m_doc->take().events.size() >= 3); // a cut stroke is an event per segment
    QVERIFY(m_doc->scene() == makeScene()); // all of them are events, the start is untouched

    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("session.json"));
    QString error;
    QVERIFY2(m_doc->save(path, false, &error), qPrintable(error));
    const DrapeRun r = runDrape({ "simulate", path, "--frames", QString::number(frame) }, dir.path());
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    const QString expected = QStringLiteral("state hash %1 at frame %2")
                                 .arg(qulonglong(m_doc->simulation().stateHash()), 16, 16, QLatin1Char('0'))
                                 .arg(frame);
    QVERIFY2(r.out.contains(expected), qPrintable(r.out + "\nexpected: " + expected));
}

void TestTools::clickOnPinDotUnpinsThatPin()
{
    // On a fine sheet (40 × 40 over 250 px: 6.4 px between particles) a pin's dot (9 px wide)
    // reaches most of the way to the free particle below it. A click on the dot's lower edge,
    // nearer that particle than the pin, means the pin: it is unpinned, and the particle below
    // is not pinned (the defect pinned it).
    QVERIFY(m_doc->setParameter("cloth.grid.across", 0, 40).isEmpty());
    QVERIFY(m_doc->setParameter("cloth.grid.down", 0, 40).isEmpty());
    m_doc->undoStack()->clear();
    const std::uint32_t pin = 20, below = 60; // (20, 0) and (20, 1)
    QCOMPARE(cloth().particles.kind[pin], ParticleKind::Static);
    QCOMPARE(cloth().particles.kind[below], ParticleKind::Dynamic);
    m_tools->setActiveTool(m_tools->pinTool());
    const QPointF dot = at(pin);
    const QPointF towards = at(below) - dot;
    const double spacing = std::hypot(towards.x(), towards.y());
    QVERIFY2(spacing < 8.0, qPrintable(QString::number(spacing)));
    const QPointF click = dot + towards * (4.0 / spacing); // inside the dot, nearer `below`
    QVERIFY(QLineF(click, at(below)).length() < QLineF(click, dot).length());
    this->click(click);
    QCOMPARE(cloth().particles.kind[pin], ParticleKind::Dynamic);
    QCOMPARE(cloth().particles.kind[below], ParticleKind::Dynamic);
    QCOMPARE(m_doc->undoStack()->count(), 1);
}

void TestTools::tearingToggleIsOneParameterStep()
{
    ToolsDock dock(m_tools.get());
    dock.setDocument(m_doc.get());
    QVERIFY(!dock.tearingBox()->isChecked());
    dock.tearingBox()->setChecked(true);
    QCOMPARE(m_doc->undoStack()->count(), 1);
    QVERIFY(m_doc->scene().cloths[0].tearMode != TearMode::None);
    QCOMPARE(cloth().tearMode, m_doc->scene().cloths[0].tearMode);
    m_doc->undoStack()->undo();
    QCOMPARE(m_doc->scene().cloths[0].tearMode, TearMode::None);
    QCOMPARE(cloth().tearMode, TearMode::None);
    QVERIFY(!dock.tearingBox()->isChecked());
}

void TestTools::sewSecondClickOnEdgeSewsItsEnd()
{
    // The second click of a stitch that lands on an edge, not on a particle, sews to the
    // edge's nearer end instead of selecting the edge (which sewed nothing).
    m_tools->setActiveTool(m_tools->constraintTool());
    const std::size_t count = cloth().constraints.size();
    const std::uint32_t a = idx(1, 8);
    click(at(a));
    QCOMPARE(m_tools->constraintTool()->stitchStart().index, a);
    // 40 % of the way from (8, 8) to (9, 8): 11 px from (8, 8), beyond the particle tolerance.
    const QPointF onEdge = at(idx(8, 8)) + (at(idx(9, 8)) - at(idx(8, 8))) * 0.4;
    click(onEdge);
    QCOMPARE(cloth().constraints.size(), count + 1);
    const DistanceConstraint &c = cloth().constraints.back();
    QVERIFY((c.a == a && c.b == idx(8, 8)) || (c.a == idx(8, 8) && c.b == a));
    QCOMPARE(m_doc->undoStack()->count(), 1);
}

void TestTools::selectionFollowsGridResolution()
{
    // 10 → 19 across: a selected corner particle and a selected edge of the bottom row stay
    // at the same place on the cloth (the new grid's corner and bottom row).
    Selection *sel = m_tools->selection();
    sel->setParticles(0, {idx(kAcross - 1, kDown - 1)});
    std::uint32_t edge = 0;
    while (!(cloth().constraints[edge].kind == ConstraintKind::Structural && cloth().constraints[edge].a == idx(0, kDown - 1)
             && cloth().constraints[edge].b == idx(1, kDown - 1)))
        ++edge;
    sel->setConstraints(cloth(), 0, {edge});
    QVERIFY(m_doc->setParameter("cloth.grid.across", 0, 19).isEmpty());
    const std::uint32_t across = 19;
    QCOMPARE(sel->particles(), std::vector<std::uint32_t>{across * kDown - 1});
    QCOMPARE(sel->constraints().size(), std::size_t(1));
    const DistanceConstraint &c = cloth().constraints[sel->constraints().front()];
    QCOMPARE(c.a, across * (kDown - 1));     // the bottom-left corner
    QCOMPARE(c.b, across * (kDown - 1) + 2); // two new columns on: 1/9 of the width
    m_doc->undoStack()->undo();
    QCOMPARE(sel->particles(), std::vector<std::uint32_t>{idx(kAcross - 1, kDown - 1)});
}

void TestTools::toolEventsWaitForThePreparedState()
{
    // Paused on a cached frame the state is not at, a click of the Pin tool waits (a busy
    // cursor) for the state the worker prepares there, then pins what was under the cursor in
    // that frame, as the core's editing layer does at once; the GUI thread steps nothing. A
    // drag made while waiting keeps its press, moves and release together: one event, one step.
    Timeline &timeline = m_doc->timeline();
    timeline.setEndFrame(40);
    timeline.startWorker();
    timeline.waitIdle();
    constexpr std::uint64_t kAt = 25;
    const std::shared_ptr<const CachedFrame> shown = timeline.cachedFrame(kAt);
    QVERIFY(shown);
    m_doc->showFrame(kAt);
    m_view->showCachedFrame(shown);
    QVERIFY(!m_doc->isSettled());
    const Scene scene = m_doc->scene();
    const std::uint64_t guiSteps = Simulation::stepsOnThisThread();

    m_tools->setActiveTool(m_tools->pinTool());
    const std::uint32_t p = idx(5, 5);
    QPointF where;
    QVERIFY(m_view->project(shown->cloths[0].position[p], &where));
    click(where);
    QVERIFY(m_doc->isBusy());
    QCOMPARE(m_view->cursor().shape(), Qt::BusyCursor);
    QVERIFY(m_doc->take().events.empty());
    QTRY_VERIFY(m_doc->isSettled() && !m_doc->isBusy());
    QVERIFY(m_view->cursor().shape() != Qt::BusyCursor);
    QCOMPARE(m_doc->frame(), kAt);
    QCOMPARE(m_doc->take().events.size(), std::size_t(1));
    QCOMPARE(m_doc->take().events[0].frame, kAt);
    QCOMPARE(cloth().particles.kind[p], ParticleKind::Static);
    QCOMPARE(Simulation::stepsOnThisThread(), guiSteps);
    EditDocument direct(scene); // steps here, on the test's thread
    direct.seek(kAt);
    QVERIFY(direct.setKind(0, { p }, ParticleKind::Static).empty());
    QVERIFY(m_doc->take() == direct.take());
    QCOMPARE(m_doc->simulation().stateHash(), direct.simulation().stateHash());

    constexpr std::uint64_t kDragAt = 31;
    QTRY_VERIFY(timeline.cachedFrame(kDragAt) != nullptr); // refilled after the pin
    const std::shared_ptr<const CachedFrame> later = timeline.cachedFrame(kDragAt);
    m_doc->showFrame(kDragAt);
    m_view->showCachedFrame(later);
    const int steps = m_doc->undoStack()->count();
    const std::uint64_t guiStepsBeforeDrag = Simulation::stepsOnThisThread();
    m_tools->setActiveTool(m_tools->dragTool());
    const std::uint32_t q = idx(3, 7);
    QPointF from;
    QVERIFY(m_view->project(later->cloths[0].position[q], &from));
    drag(from, from + QPointF(30, -20));
    QVERIFY(m_doc->isBusy());
    QCOMPARE(m_doc->take().events.size(), std::size_t(1));
    QTRY_VERIFY(m_doc->isSettled() && !m_doc->isBusy());
    QCOMPARE(m_doc->undoStack()->count(), steps + 1);
    QCOMPARE(m_doc->take().events.size(), std::size_t(2));
    QCOMPARE(m_doc->take().events[1].frame, kDragAt);
    const auto *dragged = std::get_if<DragEvent>(&m_doc->take().events[1].data);
    QVERIFY(dragged);
    QVERIFY(!dragged->open);
    QVERIFY(std::find(dragged->particles.begin(), dragged->particles.end(), q) != dragged->particles.end());
    QCOMPARE(Simulation::stepsOnThisThread(), guiStepsBeforeDrag);
}

QTEST_MAIN(TestTools)
#include "tst_tools.moc"
