// The orbit camera's maths, checked against geometric facts rather than recorded numbers:
// a ray through a pixel projects back to that pixel, orbiting keeps the distance, zooming
// keeps the point under the cursor, orthographic rays are parallel, framing shows the box.
#include "scene/camera.h"

#include <QTest>

#include <cmath>

using namespace drape;

namespace {

bool near(float a, float b, float tol) { return std::abs(a - b) <= tol; }

CameraDesc perspectiveDesc()
{
    CameraDesc d;
    d.target = {0.3f, 1.1f, -0.2f};
    d.yaw = 35.f;
    d.pitch = 20.f;
    d.distance = 4.f;
    d.fovY = 50.f;
    return d;
}

} // namespace

class TestCamera : public QObject {
    Q_OBJECT
private slots:
    void frameIsOrthonormal();
    void defaultLooksAlongMinusZ();
    void rayProjectRoundTrip_data();
    void rayProjectRoundTrip();
    void targetProjectsToCentre();
    void orbitKeepsDistanceAndTarget();
    void pitchClamped();
    void zoomTowardKeepsCursorPoint_data();
    void zoomTowardKeepsCursorPoint();
    void orthographicRaysParallel();
    void frameBoundsContainsBox_data();
    void frameBoundsContainsBox();
    void panMovesSceneWithCursor();
    void viewsLookAlongAxes();
    void behindEyeNotProjected();
};

void TestCamera::frameIsOrthonormal()
{
    Camera cam(perspectiveDesc());
    const Vec3 f = cam.forward(), r = cam.right(), u = cam.up();
    QVERIFY(near(length(f), 1.f, 1e-5f));
    QVERIFY(near(length(r), 1.f, 1e-5f));
    QVERIFY(near(length(u), 1.f, 1e-5f));
    QVERIFY(near(dot(f, r), 0.f, 1e-5f));
    QVERIFY(near(dot(f, u), 0.f, 1e-5f));
    QVERIFY(near(dot(r, u), 0.f, 1e-5f));
    QVERIFY(u.y > 0.f); // turntable: never upside down
    // Right-handed: right × up = -forward (eye space looks down -Z).
    const Vec3 back = cross(r, u);
    QVERIFY(near(dot(back, f), -1.f, 1e-5f));
}

void TestCamera::defaultLooksAlongMinusZ()
{
    CameraDesc d;
    d.yaw = 0.f;
    d.pitch = 0.f;
    d.distance = 3.f;
    d.target = {0.f, 1.f, 0.f};
    Camera cam(d);
    const Vec3 e = cam.eye();
    QVERIFY(near(e.x, 0.f, 1e-5f) && near(e.y, 1.f, 1e-5f) && near(e.z, 3.f, 1e-5f));
    // A point to the right of the target (+X) appears right of centre, one above appears higher.
    float x = 0, y = 0;
    QVERIFY(cam.project({0.5f, 1.f, 0.f}, 200.f, 100.f, &x, &y));
    QVERIFY(x > 100.f);
    QVERIFY(near(y, 50.f, 1e-3f));
    QVERIFY(cam.project({0.f, 1.5f, 0.f}, 200.f, 100.f, &x, &y));
    QVERIFY(y < 50.f);
}

void TestCamera::rayProjectRoundTrip_data()
{
    QTest::addColumn<bool>("ortho");
    QTest::newRow("perspective") << false;
    QTest::newRow("orthographic") << true;
}

void TestCamera::rayProjectRoundTrip()
{
    QFETCH(bool, ortho);
    CameraDesc d = perspectiveDesc();
    d.orthographic = ortho;
    Camera cam(d);
    const float w = 640.f, h = 360.f;
    for (float px : {0.f, 17.f, 320.f, 500.5f, 639.f}) {
        for (float py : {0.f, 99.f, 180.f, 359.f}) {
            const Ray ray = cam.rayThrough(px, py, w, h);
            QVERIFY(near(length(ray.direction), 1.f, 1e-5f));
            for (float t : {0.5f, 3.f, 9.f}) {
                float x = -1, y = -1, depth = -1;
                QVERIFY(cam.project(ray.at(t), w, h, &x, &y, &depth));
                QVERIFY2(near(x, px, 0.02f) && near(y, py, 0.02f),
                         qPrintable(QString("pixel (%1, %2) came back as (%3, %4)").arg(px).arg(py).arg(x).arg(y)));
                QVERIFY(depth >= 0.f && depth <= 1.f);
            }
        }
    }
}

void TestCamera::targetProjectsToCentre()
{
    Camera cam(perspectiveDesc());
    float x = 0, y = 0;
    QVERIFY(cam.project(cam.desc().target, 300.f, 200.f, &x, &y));
    QVERIFY(near(x, 150.f, 1e-3f));
    QVERIFY(near(y, 100.f, 1e-3f));
}

void TestCamera::orbitKeepsDistanceAndTarget()
{
    Camera cam(perspectiveDesc());
    const Vec3 target = cam.desc().target;
    for (int i = 0; i < 50; ++i) {
        cam.orbit(13.f, i % 2 ? -7.f : 11.f);
        QVERIFY(near(length(cam.eye() - target), 4.f, 1e-4f));
        QCOMPARE(cam.desc().target, target);
    }
}

void TestCamera::pitchClamped()
{
    Camera cam(perspectiveDesc());
    cam.orbit(0.f, 500.f);
    QCOMPARE(cam.desc().pitch, 90.f);
    // Straight down: forward is -Y and the frame stays orthonormal (no NaN from a degenerate up).
    QVERIFY(near(cam.forward().y, -1.f, 1e-5f));
    QVERIFY(near(length(cam.up()), 1.f, 1e-5f));
    cam.orbit(0.f, -1000.f);
    QCOMPARE(cam.desc().pitch, -90.f);
}

void TestCamera::zoomTowardKeepsCursorPoint_data()
{
    QTest::addColumn<bool>("ortho");
    QTest::addColumn<float>("factor");
    QTest::newRow("perspective in") << false << 0.8f;
    QTest::newRow("perspective out") << false << 1.25f;
    QTest::newRow("orthographic in") << true << 0.8f;
    QTest::newRow("orthographic out") << true << 1.25f;
}

void TestCamera::zoomTowardKeepsCursorPoint()
{
    QFETCH(bool, ortho);
    QFETCH(float, factor);
    CameraDesc d = perspectiveDesc();
    d.orthographic = ortho;
    Camera cam(d);
    const float w = 800.f, h = 600.f, cx = 610.f, cy = 140.f;
    // The world point under the cursor on the plane through the target facing the camera.
    const Ray ray = cam.rayThrough(cx, cy, w, h);
    const float t = dot(cam.desc().target - ray.origin, cam.forward()) / dot(ray.direction, cam.forward());
    const Vec3 anchor = ray.at(t);
    const float distanceBefore = cam.desc().distance, heightBefore = cam.desc().orthoHeight;

    cam.zoomToward(cx, cy, w, h, factor);
    float x = 0, y = 0;
    QVERIFY(cam.project(anchor, w, h, &x, &y));
    QVERIFY2(near(x, cx, 0.05f) && near(y, cy, 0.05f),
             qPrintable(QString("anchor moved to (%1, %2)").arg(x).arg(y)));
    if (ortho)
        QVERIFY(near(cam.desc().orthoHeight, heightBefore * factor, 1e-4f));
    else
        QVERIFY(near(cam.desc().distance, distanceBefore * factor, 1e-4f));
}

void TestCamera::orthographicRaysParallel()
{
    CameraDesc d = perspectiveDesc();
    d.orthographic = true;
    Camera cam(d);
    const Ray a = cam.rayThrough(0.f, 0.f, 400.f, 300.f);
    const Ray b = cam.rayThrough(400.f, 300.f, 400.f, 300.f);
    QVERIFY(near(dot(a.direction, b.direction), 1.f, 1e-6f));
    QVERIFY(near(dot(a.direction, cam.forward()), 1.f, 1e-6f));
    // The corners' origins are orthoHeight apart vertically and orthoHeight * aspect across.
    const Vec3 delta = b.origin - a.origin;
    QVERIFY(near(dot(delta, cam.up()), -d.orthoHeight, 1e-4f));
    QVERIFY(near(dot(delta, cam.right()), d.orthoHeight * 400.f / 300.f, 1e-4f));
}

void TestCamera::frameBoundsContainsBox_data()
{
    QTest::addColumn<bool>("ortho");
    QTest::addColumn<float>("aspect");
    QTest::newRow("perspective wide") << false << 2.f;
    QTest::newRow("perspective tall") << false << 0.5f;
    QTest::newRow("orthographic wide") << true << 1.8f;
    QTest::newRow("orthographic tall") << true << 0.6f;
}

void TestCamera::frameBoundsContainsBox()
{
    QFETCH(bool, ortho);
    QFETCH(float, aspect);
    CameraDesc d = perspectiveDesc();
    d.orthographic = ortho;
    d.distance = 0.2f; // far too close: framing must back off
    Camera cam(d);
    const Vec3 lo{-3.f, 0.f, -1.f}, hi{2.f, 4.f, 1.5f};
    cam.frameBounds(lo, hi, aspect);
    const float h = 300.f, w = h * aspect;
    float minX = w, maxX = 0, minY = h, maxY = 0;
    for (int c = 0; c < 8; ++c) {
        const Vec3 p{c & 1 ? hi.x : lo.x, c & 2 ? hi.y : lo.y, c & 4 ? hi.z : lo.z};
        float x = 0, y = 0, depth = 0;
        QVERIFY(cam.project(p, w, h, &x, &y, &depth));
        QVERIFY(depth > 0.f && depth < 1.f); // between the clip planes
        minX = std::min(minX, x); maxX = std::max(maxX, x);
        minY = std::min(minY, y); maxY = std::max(maxY, y);
    }
    QVERIFY2(minX >= 0.f && maxX <= w && minY >= 0.f && maxY <= h,
             qPrintable(QString("box spans x %1..%2, y %3..%4").arg(minX).arg(maxX).arg(minY).arg(maxY)));
    // Not absurdly far: the box covers a sizeable part of the view.
    QVERIFY(std::max((maxX - minX) / w, (maxY - minY) / h) > 0.4f);
}

void TestCamera::panMovesSceneWithCursor()
{
    Camera cam(perspectiveDesc());
    const float w = 500.f, h = 400.f;
    const Vec3 target = cam.desc().target;
    cam.pan(40.f, -25.f, w, h);
    // The old target (on the target plane) followed the drag.
    float x = 0, y = 0;
    QVERIFY(cam.project(target, w, h, &x, &y));
    QVERIFY(near(x, 250.f + 40.f, 0.05f));
    QVERIFY(near(y, 200.f - 25.f, 0.05f));
}

void TestCamera::viewsLookAlongAxes()
{
    Camera cam(perspectiveDesc());
    cam.setView(CameraView::Front);
    QVERIFY(near(cam.forward().z, -1.f, 1e-6f));
    cam.setView(CameraView::Side);
    QVERIFY(near(cam.forward().x, -1.f, 1e-6f));
    cam.setView(CameraView::Top);
    QVERIFY(near(cam.forward().y, -1.f, 1e-6f));
}

void TestCamera::behindEyeNotProjected()
{
    Camera cam(perspectiveDesc());
    float x = 0, y = 0;
    QVERIFY(!cam.project(cam.eye() - cam.forward() * 2.f, 100.f, 100.f, &x, &y));
}

QTEST_APPLESS_MAIN(TestCamera)
#include "tst_camera.moc"
