// The viewport's lighting, drawn offscreen with the editor's renderer: the key light's shadow
// map darkens the ground behind a sphere and nowhere else, contact shading darkens cloth
// resting on a collider, and the tone curve keeps a white cloth's folds instead of clipping.
#include "document/presetcatalog.h"
#include "record/framerenderer.h"
#include "render/resources.h"
#include "render/shadowmap.h"
#include "render/viewport.h"
#include "scene/scene.h"

#include <QApplication>
#include <QSurfaceFormat>
#include <QTest>

#include <algorithm>

using namespace drape;

namespace {

constexpr QSize kSize(480, 360);

Scene tablecloth()
{
    QString error;
    std::optional<Scene> scene = loadPreset(QStringLiteral("tablecloth"), &error);
    if (!scene)
        qFatal("%s", qPrintable(error));
    return *scene;
}

double luminanceAround(const QImage &image, QPointF at, int radius = 3)
{
    double sum = 0.0;
    int n = 0;
    for (int y = int(at.y()) - radius; y <= int(at.y()) + radius; ++y) {
        for (int x = int(at.x()) - radius; x <= int(at.x()) + radius; ++x) {
            const QColor c = image.pixelColor(x, y);
            sum += 0.2126 * c.red() + 0.7152 * c.green() + 0.0722 * c.blue();
            ++n;
        }
    }
    return sum / n;
}

} // namespace

class TestLighting : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        initResources();
        m_viewport.resize(kSize);
        m_viewport.show();
        QVERIFY(QTest::qWaitForWindowExposed(&m_viewport));
        QTRY_VERIFY(m_viewport.renderer()->isInitialized());
    }

    void cleanupTestCase()
    {
        m_viewport.makeCurrent();
        m_frames.release();
        m_viewport.doneCurrent();
    }

    void shadowFallsBehindTheSphere()
    {
        // The sphere alone over the ground, seen from straight above.
        Scene scene = tablecloth();
        scene.cloths.clear();
        Simulation sim = buildSimulation(scene);
        Camera camera(scene.camera);
        CameraDesc desc = scene.camera;
        desc.target = { 0.f, 0.f, 0.f };
        desc.pitch = 89.f;
        desc.distance = 4.f;
        camera.setDesc(desc);
        // The shadow's centre lies where the ray from the sphere's centre away from the light
        // meets the ground: c − L · (c.y / L.y); a point 0.8 m from the axis that way is in the
        // shadow and outside the sphere seen from above; the mirror point is lit.
        const Vec3 light = ShadowMap::keyDirection();
        const Vec3 away = normalized(Vec3 { -light.x, 0.f, -light.z });
        QPointF shaded, lit;
        float x = 0.f, y = 0.f;
        QVERIFY(camera.project(away * 0.8f, float(kSize.width()), float(kSize.height()), &x, &y));
        shaded = { x, y };
        QVERIFY(camera.project(away * -0.8f, float(kSize.width()), float(kSize.height()), &x, &y));
        lit = { x, y };

        RenderOptions with, without;
        without.shadowMapSize = 0;
        const QImage on = render(scene, sim, camera, with), off = render(scene, sim, camera, without);
        const double shadedOn = luminanceAround(on, shaded), shadedOff = luminanceAround(off, shaded);
        const double litOn = luminanceAround(on, lit), litOff = luminanceAround(off, lit);
        qInfo("ground in shadow %.1f (no shadows %.1f), lit %.1f (%.1f)", shadedOn, shadedOff, litOn, litOff);
        QVERIFY2(shadedOn < 0.75 * shadedOff, "the ground behind the sphere is not darker with shadows");
        QVERIFY2(std::abs(litOn - litOff) <= 2.0, "shadows darken the lit ground");
    }

    void contactDarkensClothOnTheSphere()
    {
        // The tablecloth settled on the ball: where it rests on the top of the sphere the ambient
        // light is blocked; with contact shading off it is not.
        Scene scene = tablecloth();
        Simulation sim = buildSimulation(scene);
        sim.run(90);
        QVERIFY(!sim.status().blownUp);
        const Camera camera(scene.camera);
        RenderOptions with, without;
        with.shadowMapSize = without.shadowMapSize = 0; // contact alone
        without.contactShading = false;
        const QImage on = render(scene, sim, camera, with), off = render(scene, sim, camera, without);
        float x = 0.f, y = 0.f;
        // The cloth over the sphere's top, 1 cm above it.
        QVERIFY(
            camera.project(Vec3 { 0.f, 0.96f, 0.f }, float(kSize.width()), float(kSize.height()), &x, &y));
        const double top = luminanceAround(on, { x, y }), topOff = luminanceAround(off, { x, y });
        qInfo("cloth on the ball: %.1f with contact shading, %.1f without", top, topOff);
        QVERIFY(top < topOff - 3.0);
    }

    void whiteClothKeepsItsFolds()
    {
        // A white tablecloth draped over the ball under the key light: few pixels clip to pure
        // white, and the cloth keeps many grey levels (its folds).
        Scene scene = tablecloth();
        scene.cloths[0].frontColor = scene.cloths[0].backColor = { 0.95f, 0.95f, 0.95f };
        scene.view.background = { 0.05f, 0.05f, 0.05f };
        scene.view.showGround = false;
        Simulation sim = buildSimulation(scene);
        sim.run(150);
        const QImage image = render(scene, sim, Camera(scene.camera), RenderOptions {});
        int cloth = 0, clipped = 0;
        QSet<int> levels;
        for (int y = 0; y < image.height(); ++y) {
            for (int x = 0; x < image.width(); ++x) {
                const QColor c = image.pixelColor(x, y);
                // Cloth: bright and grey (the ground, ball and background are darker or tinted).
                if (c.red() < 110 || std::abs(c.red() - c.blue()) > 6)
                    continue;
                ++cloth;
                clipped += c.red() >= 254 && c.green() >= 254 && c.blue() >= 254;
                levels.insert(c.red());
            }
        }
        qInfo("white cloth: %d pixels, %d clipped, %d grey levels", cloth, clipped, int(levels.size()));
        QVERIFY(cloth > 5000);
        QVERIFY2(clipped < cloth / 100, "more than 1 % of the white cloth clips to pure white");
        QVERIFY(levels.size() >= 60);
    }

private:
    QImage render(
        const Scene &scene, const Simulation &sim, const Camera &camera, const RenderOptions &options)
    {
        m_viewport.makeCurrent();
        QImage image;
        QString error;
        if (!m_frames.render(*m_viewport.renderer(), scene, sim, camera, kSize, options, &image, &error))
            qFatal("%s", qPrintable(error));
        m_viewport.doneCurrent();
        return image;
    }

    Viewport m_viewport;
    FrameRenderer m_frames;
};

int main(int argc, char **argv)
{
    QSurfaceFormat::setDefaultFormat(Viewport::surfaceFormat());
    QApplication app(argc, argv);
    TestLighting test;
    return QTest::qExec(&test, argc, argv);
}

#include "tst_lighting.moc"
