// The transform gizmo driven with real mouse events on a real viewport (run under xvfb-run):
// a sphere, a box and a small sheet seen through an orthographic front camera, so the
// screen-to-world scale is read from Viewport::project and every expected placement follows
// from the mouse's motion on screen.
#include "document/document.h"
#include "render/resources.h"
#include "render/viewport.h"
#include "tools/toolmanager.h"
#include "tools/transformtool.h"

#include <QApplication>
#include <QMouseEvent>
#include <QTest>
#include <QUndoStack>

#include <cmath>
#include <memory>

using namespace drape;

namespace {

constexpr int kWidth = 600;
constexpr int kHeight = 400;

Scene makeScene()
{
    Scene s;
    s.name = "transform test";
    ClothDesc c;
    c.grid.across = c.grid.down = 5;
    c.grid.width = c.grid.height = 0.4f;
    c.grid.origin = { -0.2f, 1.2f, 0.f }; // centre (0, 1, 0)
    c.pins = { 0, 1, 2, 3, 4 };
    s.cloths.push_back(c);
    Collider ball;
    ball.kind = ColliderKind::Sphere;
    ball.radius = 0.15f;
    ball.baseCenter = ball.center = { 0.6f, 1.f, 0.f };
    s.colliders.push_back(ball);
    Collider box;
    box.kind = ColliderKind::Box;
    box.halfExtents = { 0.1f, 0.05f, 0.1f };
    box.baseCenter = box.center = { -0.6f, 1.f, 0.f };
    s.colliders.push_back(box);
    s.camera.target = { 0.f, 1.f, 0.f };
    s.camera.pitch = 0.f;
    s.camera.distance = 3.f;
    s.camera.orthographic = true;
    s.camera.orthoHeight = 1.6f;
    return s;
}

} // namespace

class TestTransformTool : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { initResources(); }
    void init();
    void cleanup();
    void clickChoosesObject();
    void xArrowMovesAlongXOnly();
    void ctrlSnapsTheMove();
    void ringRotatesBoxNinetyDegrees();
    void scaleHandleScalesSphere();
    void escapeAbortsTheDrag();
    void movingClothMovesItsPins();

private:
    QPointF screen(const Vec3 &p) const;
    float pixelsPerMetre() const;
    void mouse(QEvent::Type type, const QPointF &pos, Qt::MouseButton button, Qt::KeyboardModifiers mods = {});
    void drag(const QPointF &from, const QPointF &to, Qt::KeyboardModifiers mods = {}, bool release = true);
    const Collider &collider(int i) const { return m_doc->scene().colliders[std::size_t(i)]; }

    std::unique_ptr<Document> m_doc;
    std::unique_ptr<Viewport> m_view;
    std::unique_ptr<ToolManager> m_tools;
    TransformTool *m_tool = nullptr;
    Qt::MouseButtons m_buttons;
};

void TestTransformTool::init()
{
    m_doc = std::make_unique<Document>(makeScene());
    m_view = std::make_unique<Viewport>();
    m_view->resize(kWidth, kHeight);
    m_view->setDocument(m_doc.get());
    m_tools = std::make_unique<ToolManager>(m_view.get());
    m_tools->setDocument(m_doc.get());
    m_tool = m_tools->transformTool();
    m_tools->setActiveTool(m_tool);
    m_view->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_view.get()));
    m_buttons = Qt::NoButton;
}

void TestTransformTool::cleanup()
{
    m_tools.reset();
    m_view.reset();
    m_doc.reset();
}

QPointF TestTransformTool::screen(const Vec3 &p) const
{
    QPointF s;
    const bool ok = m_view->project(p, &s);
    Q_ASSERT(ok);
    return s;
}

float TestTransformTool::pixelsPerMetre() const
{
    return float(screen({ 1.f, 1.f, 0.f }).x() - screen({ 0.f, 1.f, 0.f }).x());
}

void TestTransformTool::mouse(QEvent::Type type, const QPointF &pos, Qt::MouseButton button, Qt::KeyboardModifiers mods)
{
    if (type == QEvent::MouseButtonPress)
        m_buttons |= button;
    if (type == QEvent::MouseButtonRelease)
        m_buttons &= ~button;
    QMouseEvent event(type, pos, m_view->mapToGlobal(pos), type == QEvent::MouseMove ? Qt::NoButton : button,
                      m_buttons, mods);
    QApplication::sendEvent(m_view.get(), &event);
}

void TestTransformTool::drag(const QPointF &from, const QPointF &to, Qt::KeyboardModifiers mods, bool release)
{
    mouse(QEvent::MouseMove, from, Qt::NoButton, mods);
    mouse(QEvent::MouseButtonPress, from, Qt::LeftButton, mods);
    for (int s = 1; s <= 6; ++s)
        mouse(QEvent::MouseMove, from + (to - from) * (s / 6.), Qt::LeftButton, mods);
    if (release)
        mouse(QEvent::MouseButtonRelease, to, Qt::LeftButton, mods);
}

void TestTransformTool::clickChoosesObject()
{
    QCOMPARE(m_tool->target(), TransformTool::Target::None);
    drag(screen({ 0.6f, 1.f, 0.f }), screen({ 0.6f, 1.f, 0.f }));
    QCOMPARE(m_tool->target(), TransformTool::Target::Collider);
    QCOMPARE(m_tool->targetIndex(), 0);
    drag(screen({ -0.6f, 1.f, 0.f }), screen({ -0.6f, 1.f, 0.f }));
    QCOMPARE(m_tool->targetIndex(), 1);
    drag(screen({ 0.2f, 1.2f, 0.f }), screen({ 0.2f, 1.2f, 0.f })); // a corner particle of the sheet
    QCOMPARE(m_tool->target(), TransformTool::Target::Cloth);
    QCOMPARE(m_tool->targetIndex(), 0);
    QCOMPARE(m_doc->undoStack()->count(), 0); // choosing is no edit
}

void TestTransformTool::xArrowMovesAlongXOnly()
{
    m_tool->setTarget(TransformTool::Target::Collider, 0);
    const QPointF c = screen(collider(0).baseCenter);
    const QPointF from = c + QPointF(0.6 * Gizmo::kArmPx, 0.);
    // The vertical part of the motion does not count: the ball moves along X by the
    // horizontal distance on screen.
    drag(from, from + QPointF(50., 30.));
    QCOMPARE(m_doc->undoStack()->count(), 1);
    const Vec3 now = collider(0).baseCenter;
    QVERIFY2(std::fabs(now.x - (0.6f + 50.f / pixelsPerMetre())) < 1e-3f, qPrintable(QString::number(now.x)));
    QCOMPARE(now.y, 1.f);
    QCOMPARE(now.z, 0.f);
    m_doc->undoStack()->undo();
    QCOMPARE(collider(0).baseCenter, (Vec3 { 0.6f, 1.f, 0.f }));
}

void TestTransformTool::ctrlSnapsTheMove()
{
    m_tool->setTarget(TransformTool::Target::Collider, 0);
    const QPointF from = screen(collider(0).baseCenter) + QPointF(0.6 * Gizmo::kArmPx, 0.);
    const float moved = 33.f / pixelsPerMetre(); // 0.132 m at 250 px/m: snaps to the nearest 0.05 m
    drag(from, from + QPointF(33., 0.), Qt::ControlModifier);
    const float want = 0.6f + std::round(moved / TransformTool::kSnapMetres) * TransformTool::kSnapMetres;
    QVERIFY(std::fabs(moved - std::round(moved / 0.05f) * 0.05f) > 0.005f); // the snap changes something
    QVERIFY2(std::fabs(collider(0).baseCenter.x - want) < 1e-5f, qPrintable(QString::number(collider(0).baseCenter.x)));
}

void TestTransformTool::ringRotatesBoxNinetyDegrees()
{
    m_tool->setTarget(TransformTool::Target::Collider, 1);
    QTest::keyClick(m_view.get(), Qt::Key_R);
    QCOMPARE(m_tool->mode(), GizmoMode::Rotate);
    // Along the Z ring (the one facing the viewer) from 45° to 135°: +90° about Z.
    const QPointF c = screen(collider(1).baseCenter);
    const double r = Gizmo::kArmPx;
    auto onRing = [&](double degrees) {
        const double a = degrees * M_PI / 180.;
        return c + QPointF(r * std::cos(a), -r * std::sin(a));
    };
    mouse(QEvent::MouseMove, onRing(45.), Qt::NoButton);
    mouse(QEvent::MouseButtonPress, onRing(45.), Qt::LeftButton);
    for (double a = 55.; a <= 135.; a += 10.)
        mouse(QEvent::MouseMove, onRing(a), Qt::LeftButton);
    mouse(QEvent::MouseButtonRelease, onRing(135.), Qt::LeftButton);
    QCOMPARE(m_doc->undoStack()->count(), 1);
    const Vec3 rot = collider(1).rotation;
    QVERIFY2(std::fabs(rot.z - 90.f) < 0.1f && std::fabs(rot.x) < 1e-3f && std::fabs(rot.y) < 1e-3f,
        qPrintable(QString("%1 %2 %3").arg(rot.x).arg(rot.y).arg(rot.z)));
    // The box now stands on its end: its long X side is vertical in the running simulation.
    QCOMPARE(m_doc->simulation().colliders[1].rotation, rot);
    m_doc->undoStack()->undo();
    QCOMPARE(collider(1).rotation, Vec3 {});
}

void TestTransformTool::scaleHandleScalesSphere()
{
    m_tool->setTarget(TransformTool::Target::Collider, 0);
    QTest::keyClick(m_view.get(), Qt::Key_S);
    const QPointF onCircle = screen(collider(0).baseCenter) + QPointF(0., -Gizmo::kArmPx);
    drag(onCircle, onCircle + QPointF(0., -Gizmo::kArmPx / 2.)); // half a radius further out: × 1.5
    QVERIFY2(std::fabs(collider(0).radius - 0.225f) < 1e-4f, qPrintable(QString::number(collider(0).radius)));
    QCOMPARE(m_doc->undoStack()->count(), 1);
    m_doc->undoStack()->undo();
    QCOMPARE(collider(0).radius, 0.15f);
}

void TestTransformTool::escapeAbortsTheDrag()
{
    m_tool->setTarget(TransformTool::Target::Collider, 0);
    const QPointF from = screen(collider(0).baseCenter) + QPointF(0.6 * Gizmo::kArmPx, 0.);
    drag(from, from + QPointF(40., 0.), {}, false);
    QVERIFY(collider(0).baseCenter.x > 0.65f); // it moved while held
    QTest::keyClick(m_view.get(), Qt::Key_Escape);
    mouse(QEvent::MouseButtonRelease, from + QPointF(40., 0.), Qt::LeftButton);
    QCOMPARE(collider(0).baseCenter, (Vec3 { 0.6f, 1.f, 0.f }));
    QCOMPARE(m_doc->undoStack()->count(), 0);
}

void TestTransformTool::movingClothMovesItsPins()
{
    m_tool->setTarget(TransformTool::Target::Cloth, 0);
    const std::vector<Vec3> before = m_doc->simulation().cloths[0].particles.position;
    const QPointF from = screen(placedCentre(m_doc->scene().cloths[0])) + QPointF(0., -0.6 * Gizmo::kArmPx);
    drag(from, from + QPointF(0., -25.)); // up the Y arrow
    QCOMPARE(m_doc->undoStack()->count(), 1);
    const float dy = 25.f / pixelsPerMetre();
    const Cloth &now = m_doc->simulation().cloths[0];
    for (std::uint32_t pin : m_doc->scene().cloths[0].pins) {
        QCOMPARE(now.particles.kind[pin], ParticleKind::Static);
        QVERIFY(std::fabs(now.particles.position[pin].y - (before[pin].y + dy)) < 1e-3f);
        QVERIFY(std::fabs(now.particles.position[pin].x - before[pin].x) < 1e-5f);
    }
    m_doc->undoStack()->undo();
    QVERIFY(m_doc->scene().cloths[0].placement.isIdentity());
}

QTEST_MAIN(TestTransformTool)
#include "tst_transformtool.moc"
