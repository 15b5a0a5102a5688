// The viewport's lighting, drawn offscreen with the editor's renderer: the key light's shadow
// map darkens the ground behind a sphere and nowhere else, contact shading darkens cloth
// resting on a collider, and the tone curve keeps a white cloth's folds instead of clipping.
// The fabric looks: the weave draws threads that repeat along the cloth's UVs, the checker
// follows a cloth's own UVs, and the image look shows the picture's colours where the UVs say.
#include "document/presetcatalog.h"
#include "record/framerenderer.h"
#include "record/offscreentarget.h"
#include "render/fabrictexture.h"
#include "render/renderdata.h"
#include "render/resources.h"
#include "render/shadowmap.h"
#include "render/viewport.h"
#include "scene/scene.h"

#include <QApplication>
#include <QSurfaceFormat>
#include <QTest>

#include <QPainter>
#include <QTemporaryDir>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

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

/// A flat 1 m × 1 m vertical sheet centred at (0, 1, 0), facing an orthographic front camera
/// that shows 1.2 m of height: nothing but the cloth, lit evenly (no ground, no colliders).
Scene flatSheet()
{
    Scene scene = tablecloth();
    scene.colliders.clear();
    ClothDesc &c = scene.cloths[0];
    c.source = ClothSource::Grid;
    c.grid.orientation = GridOrientation::Vertical;
    c.grid.width = c.grid.height = 1.f;
    c.grid.across = c.grid.down = 24;
    c.grid.origin = { -0.5f, 1.5f, 0.f };
    c.pins.clear();
    c.frontColor = c.backColor = { 0.7f, 0.7f, 0.7f };
    scene.view.showGround = false;
    scene.camera.target = { 0.f, 1.f, 0.f };
    scene.camera.yaw = 0.f;
    scene.camera.pitch = 0.f;
    scene.camera.orthographic = true;
    scene.camera.orthoHeight = 1.2f;
    return scene;
}

/// Luminance of the pixels of row `y` from x0 to x1 (exclusive).
std::vector<double> rowLuminance(const QImage &image, int y, int x0, int x1)
{
    std::vector<double> out;
    for (int x = x0; x < x1; ++x) {
        const QColor c = image.pixelColor(x, y);
        out.push_back(0.2126 * c.red() + 0.7152 * c.green() + 0.0722 * c.blue());
    }
    return out;
}

double mean(const std::vector<double> &s)
{
    double sum = 0.0;
    for (double v : s)
        sum += v;
    return sum / double(s.size());
}

double standardDeviation(const std::vector<double> &s)
{
    const double m = mean(s);
    double sq = 0.0;
    for (double v : s)
        sq += (v - m) * (v - m);
    return std::sqrt(sq / double(s.size()));
}

/// Normalised autocorrelation of `s` at `lag` samples (1 for a signal that repeats with that period).
double autocorrelation(const std::vector<double> &s, int lag)
{
    const double m = mean(s);
    double num = 0.0, den = 0.0;
    for (std::size_t i = 0; i < s.size(); ++i) {
        den += (s[i] - m) * (s[i] - m);
        if (i + std::size_t(lag) < s.size())
            num += (s[i] - m) * (s[i + std::size_t(lag)] - m);
    }
    return den > 0.0 ? num / den * double(s.size()) / double(s.size() - std::size_t(lag)) : 0.0;
}

/// Times the row crosses its mean (each edge of a checker square crosses it once).
int meanCrossings(const std::vector<double> &s)
{
    const double m = mean(s);
    int crossings = 0;
    for (std::size_t i = 1; i < s.size(); ++i)
        crossings += (s[i - 1] < m) != (s[i] < m);
    return crossings;
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

    void weaveRepeatsAlongTheThreads()
    {
        Scene scene = flatSheet();
        const Simulation sim = buildSimulation(scene);
        const Camera camera(scene.camera);
        float left = 0.f, right = 0.f, y = 0.f;
        QVERIFY(camera.project({ -0.5f, 1.f, 0.f }, float(kSize.width()), float(kSize.height()), &left, &y));
        QVERIFY(camera.project({ 0.5f, 1.f, 0.f }, float(kSize.width()), float(kSize.height()), &right, &y));
        const double pxPerMetre = right - left;
        // Threads 8 px apart: the over/under pattern repeats every two threads, 16 px.
        const double threadPx = 8.0;
        scene.view.weaveDensity = float(pxPerMetre / threadPx);
        RenderOptions options;
        options.shadowMapSize = 0;
        const QImage plain = render(scene, sim, camera, options);
        scene.view.fabric = FabricLook::Weave;
        const QImage woven = render(scene, sim, camera, options);

        // The middle half of the sheet's centre row, clear of its edges.
        const int x0 = int(left + 0.25 * pxPerMetre), x1 = int(right - 0.25 * pxPerMetre);
        const std::vector<double> a = rowLuminance(plain, int(y), x0, x1), b = rowLuminance(woven, int(y), x0, x1);
        const double period = 2.0 * threadPx;
        const double atPeriod = autocorrelation(b, int(std::lround(period)));
        const double atHalf = autocorrelation(b, int(std::lround(period / 2.0)));
        qInfo("row spread: plain %.2f, woven %.2f; autocorrelation at one repeat %.2f, half a repeat %.2f",
            standardDeviation(a), standardDeviation(b), atPeriod, atHalf);
        QVERIFY2(standardDeviation(b) > 4.0 * std::max(standardDeviation(a), 1.0), "the weave changes nothing");
        QVERIFY2(atPeriod > 0.6, "the weave does not repeat every two threads");
        QVERIFY2(atPeriod > atHalf + 0.2, "the weave's crossings do not alternate over and under");
    }

    void checkerFollowsTheClothsOwnUvs()
    {
        // The same sheet with its own UVs at twice the derived ones: twice the squares across.
        Scene scene = flatSheet();
        scene.view.fabric = FabricLook::Checker;
        Simulation derived = buildSimulation(scene);
        Simulation own = derived;
        std::vector<float> uv;
        computeClothUvs(derived.cloths[0], warpAxis(scene.cloths[0]), uv);
        Cloth &cloth = own.cloths[0];
        cloth.uv.resize(cloth.particles.size());
        for (std::size_t i = 0; i < cloth.uv.size(); ++i)
            cloth.uv[i] = { 2.f * uv[2 * i], 2.f * uv[2 * i + 1] };
        const Camera camera(scene.camera);
        float left = 0.f, right = 0.f, y = 0.f;
        QVERIFY(camera.project({ -0.49f, 1.03f, 0.f }, float(kSize.width()), float(kSize.height()), &left, &y));
        QVERIFY(camera.project({ 0.49f, 1.03f, 0.f }, float(kSize.width()), float(kSize.height()), &right, &y));
        RenderOptions options;
        options.shadowMapSize = 0;
        const int d = meanCrossings(rowLuminance(render(scene, derived, camera, options), int(y), int(left), int(right)));
        const int o = meanCrossings(rowLuminance(render(scene, own, camera, options), int(y), int(left), int(right)));
        qInfo("checker edges across the sheet: %d from the rest shape, %d from its own UVs", d, o);
        QCOMPARE(d, 7); // eight squares across
        QCOMPARE(o, 15);
    }

    void imageLookShowsThePicture()
    {
        // Left half green, right half blue: the half of the sheet with u < 0.5 shows green.
        QImage picture(64, 64, QImage::Format_RGBA8888);
        {
            picture.fill(QColor(30, 200, 40));
            QPainter painter(&picture);
            painter.fillRect(32, 0, 32, 64, QColor(40, 60, 230));
        }
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("fabric.png"));
        QVERIFY(picture.save(path));
        QString error;
        const QImage loaded = loadFabricImage(path, &error);
        QVERIFY2(!loaded.isNull(), qPrintable(error));

        Scene scene = flatSheet();
        scene.view.fabric = FabricLook::Image;
        const Simulation sim = buildSimulation(scene);
        const Camera camera(scene.camera);
        float lx = 0.f, rx = 0.f, y = 0.f;
        QVERIFY(camera.project({ -0.25f, 1.f, 0.f }, float(kSize.width()), float(kSize.height()), &lx, &y));
        QVERIFY(camera.project({ 0.25f, 1.f, 0.f }, float(kSize.width()), float(kSize.height()), &rx, &y));
        RenderOptions options;
        options.shadowMapSize = 0;
        const QImage withoutImage = render(scene, sim, camera, options);
        options.fabricImage = loaded;
        const QImage shown = render(scene, sim, camera, options);
        // Which half of the picture each point shows follows its u (the image's left is u < 0.5).
        std::vector<float> uv;
        computeClothUvs(sim.cloths[0], warpAxis(scene.cloths[0]), uv);
        const auto uAt = [&](const Vec3 &p) {
            std::size_t best = 0;
            for (std::size_t i = 0; i < sim.cloths[0].particles.size(); ++i) {
                if (length(sim.cloths[0].particles.rest[i] - p) < length(sim.cloths[0].particles.rest[best] - p))
                    best = i;
            }
            return uv[2 * best];
        };
        const bool leftIsGreen = uAt({ -0.25f, 1.f, 0.f }) < 0.5f;
        QCOMPARE(uAt({ 0.25f, 1.f, 0.f }) < 0.5f, !leftIsGreen);
        QColor green = shown.pixelColor(int(lx), int(y)), blue = shown.pixelColor(int(rx), int(y));
        if (!leftIsGreen)
            std::swap(green, blue);
        qInfo("green half %d,%d,%d, blue half %d,%d,%d", green.red(), green.green(), green.blue(), blue.red(),
            blue.green(), blue.blue());
        QVERIFY(green.green() > green.blue() + 60 && green.green() > green.red() + 60);
        QVERIFY(blue.blue() > blue.green() + 60 && blue.blue() > blue.red() + 60);
        // Without a picture the look draws the plain grey cloth.
        const QColor g = withoutImage.pixelColor(int(lx), int(y));
        QVERIFY(std::abs(g.red() - g.green()) < 6 && std::abs(g.green() - g.blue()) < 6);
    }

    void unchangedCastersKeepTheShadowMap()
    {
        // The shadow pass and the cloth's uploads run only when what they hold changed, and a
        // frame drawn with the kept shadow map is the frame a fresh renderer draws.
        Scene scene = tablecloth();
        Simulation sim = buildSimulation(scene);
        sim.run(40);
        const Camera camera(scene.camera);
        RenderOptions options;
        options.shadowMapSize = 1024;
        SceneRenderer &renderer = *m_viewport.renderer();
        const QImage first = render(scene, sim, camera, options);
        const int passes = renderer.shadowPasses(), uploads = renderer.positionUploads();

        // The same state from another side (an orbiting camera on a paused scene): nothing
        // uploaded, no shadow pass, and back at the first camera the same picture.
        Camera turned = camera;
        turned.orbit(40.f, 10.f);
        QVERIFY(render(scene, sim, turned, options) != first);
        QCOMPARE(render(scene, sim, camera, options), first);
        QCOMPARE(renderer.shadowPasses(), passes);
        QCOMPARE(renderer.positionUploads(), uploads);

        // The cloth moves: its positions go up and the shadows are drawn again.
        sim.run(1);
        render(scene, sim, camera, options);
        QCOMPARE(renderer.positionUploads(), uploads + 1);
        QCOMPARE(renderer.shadowPasses(), passes + 1);

        // Hiding the ball changes the shadows, not the cloth.
        const auto ball = std::find_if(scene.colliders.begin(), scene.colliders.end(),
            [](const Collider &c) { return c.kind == ColliderKind::Sphere; });
        QVERIFY(ball != scene.colliders.end());
        ball->hidden = true;
        render(scene, sim, camera, options);
        QCOMPARE(renderer.positionUploads(), uploads + 1);
        QCOMPARE(renderer.shadowPasses(), passes + 2);
        ball->hidden = false;

        // The cloth moves while shadows are off; with them on again the map is drawn anew,
        // and the picture is a fresh renderer's.
        sim.run(1);
        RenderOptions noShadows = options;
        noShadows.shadowMapSize = 0;
        render(scene, sim, camera, noShadows);
        QCOMPARE(renderer.shadowPasses(), passes + 2);
        const QImage kept = render(scene, sim, camera, options);
        QCOMPARE(renderer.shadowPasses(), passes + 3);
        QCOMPARE(renderer.positionUploads(), uploads + 2);
        m_viewport.makeCurrent();
        SceneRenderer fresh;
        QString error;
        QVERIFY2(fresh.initialize(&error), qPrintable(error));
        QImage expected;
        const bool rendered = m_frames.render(fresh, scene, sim, camera, kSize, options, &expected, &error);
        fresh.release();
        m_viewport.doneCurrent();
        QVERIFY2(rendered, qPrintable(error));
        QCOMPARE(kept, expected);
    }

    void stressMapDrawsTheTensionsItIsGiven()
    {
        // The viewport makes the tensions once a paint, for the stress ramp's scale, and hands
        // them to the renderer with the options: the picture is the one the renderer draws
        // from the tensions it makes itself, and it follows the tensions it is given.
        Scene scene = tablecloth();
        Simulation sim = buildSimulation(scene);
        sim.run(40);
        const Camera camera(scene.camera);
        RenderOptions options;
        options.shadowMapSize = 0;
        options.stress = true;
        options.stressScale = 5.f; // N/m
        std::vector<std::vector<float>> tension(sim.cloths.size());
        for (std::size_t c = 0; c < sim.cloths.size(); ++c)
            sim.constraintTensions(c, tension[c]);
        const QImage own = render(scene, sim, camera, options);
        options.stressTension = &tension;
        QCOMPARE(render(scene, sim, camera, options), own);
        for (std::vector<float> &t : tension)
            std::fill(t.begin(), t.end(), 0.f); // no stress anywhere
        QVERIFY2(render(scene, sim, camera, options) != own, "the given tensions were not drawn");
    }

    void stillViewCopiesItsBackdrop()
    {
        // While the view stays still, a renderer asked to keep its backdrop copies the
        // background and the unshadowed ground in from the frames before and draws only the
        // ground's shadows: every frame is still the picture drawn from scratch, with and
        // without shadows, as the cloth moves, the camera turns and the ground is hidden and shown.
        Scene scene = tablecloth();
        Simulation sim = buildSimulation(scene);
        sim.run(40);
        Camera camera(scene.camera);
        m_viewport.makeCurrent();
        OffscreenTarget target; // single-sampled, as the viewport's on a software renderer
        QString error;
        QVERIFY2(target.create(kSize, 0, &error), qPrintable(error));
        SceneRenderer kept;
        QVERIFY2(kept.initialize(&error), qPrintable(error));
        SceneRenderer &fresh = *m_viewport.renderer();
        const auto draw = [&](SceneRenderer &renderer, const RenderOptions &options) {
            renderer.render(scene, sim, camera, target.framebuffer(), kSize.width(), kSize.height(), options);
            return target.read();
        };
        const auto ground = std::find_if(scene.colliders.begin(), scene.colliders.end(),
            [](const Collider &c) { return c.kind == ColliderKind::Plane; });
        QVERIFY(ground != scene.colliders.end());
        for (int shadowMapSize : {1024, 0}) {
            RenderOptions plain;
            plain.shadowMapSize = shadowMapSize;
            RenderOptions still = plain;
            still.stillBackdrop = true;
            // Frame by frame: what changed, and whether the backdrop is copied in (the first
            // still frame keeps it, the ones after it copy it; without a ground there is
            // nothing to keep, and the ground shown again is the backdrop still kept).
            const struct {
                const char *change;
                bool copied;
            } frames[] = {{"camera", false}, {"cloth", true}, {"cloth", true}, {"camera", false},
                {"cloth", true}, {"ground hidden", false}, {"cloth", false}, {"ground shown", true},
                {"cloth", true}};
            for (const auto &frame : frames) {
                if (!std::strcmp(frame.change, "cloth"))
                    sim.run(1);
                else if (!std::strcmp(frame.change, "camera"))
                    camera.orbit(25.f, 5.f);
                else if (!std::strcmp(frame.change, "ground hidden") || !std::strcmp(frame.change, "ground shown"))
                    ground->hidden = !std::strcmp(frame.change, "ground hidden");
                const int copies = kept.backdropCopies();
                const QImage got = draw(kept, still);
                QCOMPARE(kept.backdropCopies(), copies + (frame.copied ? 1 : 0));
                QVERIFY2(got == draw(fresh, plain),
                    qPrintable(QStringLiteral("after a change of %1 (shadow map of %2 px): not the picture drawn anew")
                                   .arg(QLatin1String(frame.change)).arg(shadowMapSize)));
            }
        }
        kept.release();
        target.release();
        m_viewport.doneCurrent();
    }

    void missingOrUnreadableImageSaysWhy()
    {
        QTemporaryDir dir;
        QString error;
        const QString missing = dir.filePath(QStringLiteral("nowhere.png"));
        QVERIFY(loadFabricImage(missing, &error).isNull());
        QVERIFY2(error.contains(missing) && error.contains(QLatin1String("no such file")), qPrintable(error));
        const QString text = dir.filePath(QStringLiteral("notes.png"));
        QFile file(text);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("not a picture\n");
        file.close();
        QVERIFY(loadFabricImage(text, &error).isNull());
        QVERIFY2(error.contains(text) && error.contains(QLatin1String("not an image")), qPrintable(error));
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
