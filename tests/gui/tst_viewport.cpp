// The OpenGL viewport on every built-in preset: the picture shows the cloth in its own front
// or back colour, changes as the simulation runs, and the renderer keeps its upload
// discipline (no buffer reallocation or index rebuild while the topology stays the same).
#include "sim/builders.h"
#include "document/document.h"
#include "document/presetcatalog.h"
#include "render/renderdata.h"
#include "render/resources.h"
#include "render/scenerenderer.h"
#include "render/viewport.h"

#include <QColor>
#include <QDir>
#include <QImage>
#include <QSet>
#include <QSettings>
#include <QSurfaceFormat>
#include <QTest>

#include <cmath>

using namespace drape;

namespace {

/// The colour the shader writes for a linear-RGB albedo under full light (gamma 2.2).
QColor displayColor(const Vec3 &linear)
{
    return QColor::fromRgbF(std::pow(linear.x, 1.f / 2.2f), std::pow(linear.y, 1.f / 2.2f), std::pow(linear.z, 1.f / 2.2f));
}

/// Pixels whose hue is within `hueTolerance` degrees of `reference` and that are clearly
/// coloured (lighting changes brightness, not hue, so hue identifies the cloth's side).
int pixelsWithHueOf(const QImage &image, const QColor &reference, int hueTolerance)
{
    const int refHue = reference.hsvHue();
    int count = 0;
    for (int y = 0; y < image.height(); ++y) {
        const QRgb *line = reinterpret_cast<const QRgb *>(image.constScanLine(y));
        for (int x = 0; x < image.width(); ++x) {
            const QColor c = QColor::fromRgb(line[x]);
            if (c.hsvSaturation() < 40 || c.value() < 40)
                continue;
            int d = std::abs(c.hsvHue() - refHue);
            d = std::min(d, 360 - d);
            if (d <= hueTolerance)
                ++count;
        }
    }
    return count;
}

int distinctColors(const QImage &image)
{
    QSet<QRgb> colors;
    for (int y = 0; y < image.height(); y += 2) {
        for (int x = 0; x < image.width(); x += 2)
            colors.insert(image.pixel(x, y));
    }
    return int(colors.size());
}

} // namespace

class TestViewport : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void presetRenders_data();
    void presetRenders();
    void rayAtMatchesProject();
    void tearRiskCountsStretchOnly();
    void stressRatiosAndLegendScale();
    void stressMapDrawsWithItsScale();
    void clothUvsFromRestShapeOrOwn();
    void softwareRendererDefaults();
};

void TestViewport::initTestCase()
{
    initResources();
    QVERIFY2(!builtinPresets().empty(), "no built-in presets to render");
}

void TestViewport::presetRenders_data()
{
    QTest::addColumn<QString>("key");
    for (const PresetInfo &p : builtinPresets())
        QTest::newRow(qPrintable(p.key)) << p.key;
}

void TestViewport::presetRenders()
{
    QFETCH(QString, key);
    QString error;
    std::optional<Scene> scene = loadPreset(key, &error);
    QVERIFY2(scene, qPrintable(error));
    // Only the shading: overlays could hide the cloth's own colour.
    scene->view.wireframe = scene->view.showParticles = scene->view.showConstraints = scene->view.showStrain = false;
    // Vivid colours no preset, ground or collider uses, so the cloth is told apart by hue
    // (presets may use white or grey cloth, which lighting alone cannot separate from the floor).
    for (ClothDesc &c : scene->cloths) {
        c.frontColor = {0.10f, 0.75f, 0.15f};
        c.backColor = {0.75f, 0.10f, 0.70f};
    }
    Document document(std::move(*scene));

    Viewport viewport;
    viewport.resize(320, 240);
    viewport.setDocument(&document);
    viewport.show();
    QVERIFY(QTest::qWaitForWindowExposed(&viewport));
    QVERIFY2(viewport.glError().isEmpty(), qPrintable(viewport.glError()));
    viewport.frameAll();

    for (int i = 0; i < 3; ++i)
        document.step();
    const QImage first = viewport.grabFramebuffer().convertToFormat(QImage::Format_RGB32);
    QVERIFY(!first.isNull());
    QVERIFY2(distinctColors(first) > 1, "the picture is one flat colour");

    // The cloth shows in its front or back colour on a good share of the pixels of its view.
    const ClothDesc &cloth = document.scene().cloths.at(0);
    const int front = pixelsWithHueOf(first, displayColor(cloth.frontColor), 12);
    const int back = pixelsWithHueOf(first, displayColor(cloth.backColor), 12);
    const int total = first.width() * first.height();
    if (front + back <= total / 100)
        first.save(QDir::temp().filePath(QStringLiteral("drape-viewport-%1.png").arg(key)));
    QVERIFY2(front + back > total / 100,
             qPrintable(QStringLiteral("cloth colour on %1 + %2 of %3 pixels").arg(front).arg(back).arg(total)));

    const int allocations = viewport.renderer()->bufferAllocations();
    const int topologyUploads = viewport.renderer()->topologyUploads();
    const std::uint64_t revision = document.simulation().cloths.at(0).topologyRevision;
    for (int i = 0; i < 20; ++i)
        document.step();
    const QImage later = viewport.grabFramebuffer().convertToFormat(QImage::Format_RGB32);
    QVERIFY2(later != first, "the picture did not change while the cloth moved");
    if (document.simulation().cloths.at(0).topologyRevision == revision) {
        QCOMPARE(viewport.renderer()->bufferAllocations(), allocations);
        QCOMPARE(viewport.renderer()->topologyUploads(), topologyUploads);
    }
    QVERIFY(!document.simulation().status().blownUp);
}

void TestViewport::rayAtMatchesProject()
{
    QString error;
    std::optional<Scene> scene = loadPreset(builtinPresets().front().key, &error);
    QVERIFY2(scene, qPrintable(error));
    Document document(std::move(*scene));
    Viewport viewport;
    viewport.resize(300, 200);
    viewport.setDocument(&document);
    viewport.show();
    QVERIFY(QTest::qWaitForWindowExposed(&viewport));
    // Logical coordinates both ways, whatever the device pixel ratio.
    const QPointF pos(210.5, 44.0);
    const Ray ray = viewport.rayAt(pos);
    QPointF back;
    QVERIFY(viewport.project(ray.at(2.f), &back));
    QVERIFY(std::abs(back.x() - pos.x()) < 0.05 && std::abs(back.y() - pos.y()) < 0.05);
}

void TestViewport::tearRiskCountsStretchOnly()
{
    // A three-particle rope, 0.1 m links, tear strain 0.2: the first link stretched by 10 %
    // is half way to tearing; the second, squeezed to 70 % of its length, has no tear risk.
    RopeSpec spec;
    spec.count = 3;
    spec.length = 0.2f;
    spec.start = {0.f, 0.f, 0.f};
    spec.direction = {1.f, 0.f, 0.f};
    spec.params.tearStrain = 0.2f;
    Cloth rope = makeRope(spec);
    QCOMPARE(rope.constraints.size(), std::size_t(2));
    rope.particles.position[1] = {0.11f, 0.f, 0.f};
    rope.particles.position[2] = {0.11f + 0.07f, 0.f, 0.f};
    QVERIFY(std::abs(tearRisk(rope, rope.constraints[0]) - 0.5f) < 1e-4f);
    QCOMPARE(tearRisk(rope, rope.constraints[1]), 0.f);
    std::vector<float> perParticle;
    computeStrainRatios(rope, perParticle);
    QCOMPARE(perParticle.size(), std::size_t(3));
    QVERIFY(std::abs(perParticle[1] - 0.5f) < 1e-4f); // the worst of its two links
    QCOMPARE(perParticle[2], 0.f);
}

void TestViewport::stressRatiosAndLegendScale()
{
    // Tensions of 10 N and 5 N in a rope of 0.1 m spacing are 100 and 50 N/m of stress.
    RopeSpec spec;
    spec.count = 3;
    spec.length = 0.2f;
    Cloth rope = makeRope(spec);
    std::vector<float> tension = { 10.f, 5.f };
    QCOMPARE(maxStress(rope, tension, 0.1f), 100.f);
    std::vector<float> ratios;
    computeStressRatios(rope, tension, 0.1f, 200.f, ratios);
    QCOMPARE(ratios, (std::vector<float>{0.5f, 0.5f, 0.25f}));
    tension = { -3.f, 5.f }; // compressed counts as no stress
    computeStressRatios(rope, tension, 0.1f, 100.f, ratios);
    QCOMPARE(ratios, (std::vector<float>{0.f, 0.5f, 0.5f}));
    tension = { 10.f }; // not of the rope's constraints: unknown, no stress
    QCOMPARE(maxStress(rope, tension, 0.1f), 0.f);
    QCOMPARE(niceCeiling(0.3f), 0.5f);
    QCOMPARE(niceCeiling(190.f), 200.f);
    QCOMPARE(niceCeiling(1000.f), 1000.f);
    QCOMPARE(niceCeiling(0.f), 1.f);
}

void TestViewport::stressMapDrawsWithItsScale()
{
    std::optional<Scene> scene = loadPreset(QStringLiteral("curtain"), nullptr);
    QVERIFY(scene);
    Document document(std::move(*scene));
    Viewport viewport;
    viewport.resize(320, 240);
    viewport.setDocument(&document);
    viewport.show();
    QVERIFY(QTest::qWaitForWindowExposed(&viewport));
    viewport.frameAll();
    for (int i = 0; i < 10; ++i)
        document.step();
    const QImage plain = viewport.grabFramebuffer();
    viewport.setShowStress(true);
    const QImage stress = viewport.grabFramebuffer();
    QVERIFY2(stress != plain, "the stress map changed nothing");
    // The legend tops at the largest stress rounded up to 1, 2 or 5 × 10ⁿ N/m.
    const Cloth &cloth = document.simulation().cloths.at(0);
    const float worst = maxStress(
        cloth, document.simulation().constraintTensions(0), clothSpacing(document.scene().cloths.at(0)));
    QVERIFY(worst > 0.f);
    QCOMPARE(viewport.stressScale(), niceCeiling(worst));
}

void TestViewport::softwareRendererDefaults()
{
    // With no preference saved, a software renderer draws the shadows (from a smaller map)
    // without multisampling; Fast drops the shadows too and Full draws what a GPU draws. A GPU
    // always draws everything, whatever the preference says.
    const QString key = QStringLiteral("preferences/softwareQuality");
    const QVariant saved = QSettings().value(key);
    QSettings().remove(key);
    QCOMPARE(AppSettings::softwareQuality(), AppSettings::SoftwareQuality::Balanced);
    const Viewport::Quality balanced = Viewport::quality(true, AppSettings::softwareQuality());
    const Viewport::Quality gpu = Viewport::quality(false, AppSettings::SoftwareQuality::Balanced);
    QCOMPARE(gpu.samples, 4);
    QCOMPARE(gpu.shadowMapSize, 2048);
    QCOMPARE(balanced.samples, 0);
    QVERIFY(balanced.shadowMapSize > 0 && balanced.shadowMapSize < gpu.shadowMapSize);
    const Viewport::Quality fast = Viewport::quality(true, AppSettings::SoftwareQuality::Fast);
    QCOMPARE(fast.samples, 0);
    QCOMPARE(fast.shadowMapSize, 0);
    const Viewport::Quality full = Viewport::quality(true, AppSettings::SoftwareQuality::Full);
    QCOMPARE(full.samples, gpu.samples);
    QCOMPARE(full.shadowMapSize, gpu.shadowMapSize);
    for (auto q : {AppSettings::SoftwareQuality::Fast, AppSettings::SoftwareQuality::Full}) {
        QCOMPARE(Viewport::quality(false, q).samples, gpu.samples);
        QCOMPARE(Viewport::quality(false, q).shadowMapSize, gpu.shadowMapSize);
    }

    // A viewport on this system asks for what its renderer gets.
    Viewport viewport;
    const int expected = Viewport::systemRendererIsSoftware() ? balanced.samples : gpu.samples;
    QCOMPARE(std::max(viewport.format().samples(), 0), expected);
    viewport.resize(160, 120);
    viewport.show();
    QVERIFY(QTest::qWaitForWindowExposed(&viewport));
    QCOMPARE(viewport.isSoftwareRenderer(), Viewport::systemRendererIsSoftware());
    if (saved.isValid())
        QSettings().setValue(key, saved);
}

int main(int argc, char **argv)
{
    QSurfaceFormat::setDefaultFormat(Viewport::surfaceFormat());
    QApplication app(argc, argv);
    TestViewport test;
    return QTest::qExec(&test, argc, argv);
}

void TestViewport::clothUvsFromRestShapeOrOwn()
{
    // A 2 m × 1 m horizontal sheet, warp along Z: u runs along X and v along Z, both divided by
    // the larger span (2 m), so u covers [0, 1] and v [0, 0.5]; 2 m of cloth per unit.
    GridSpec spec;
    spec.across = 5;
    spec.down = 3;
    spec.width = 2.f;
    spec.height = 1.f;
    spec.orientation = GridOrientation::Horizontal;
    spec.origin = { -1.f, 0.5f, -0.5f };
    Cloth sheet = makeGrid(spec);
    std::vector<float> uv;
    QCOMPARE(computeClothUvs(sheet, { 0.f, 0.f, 1.f }, uv), 2.f);
    QCOMPARE(uv.size(), sheet.particles.size() * 2);
    float lo[2] = { 1e9f, 1e9f }, hi[2] = { -1e9f, -1e9f }, zMin = 1e9f, xMin = 1e9f;
    for (const Vec3 &p : sheet.particles.rest) {
        zMin = std::min(zMin, p.z);
        xMin = std::min(xMin, p.x);
    }
    for (std::size_t i = 0; i < sheet.particles.size(); ++i) {
        for (int k = 0; k < 2; ++k) {
            lo[k] = std::min(lo[k], uv[2 * i + k]);
            hi[k] = std::max(hi[k], uv[2 * i + k]);
        }
        // v follows the rest position along the warp.
        QVERIFY(std::abs(uv[2 * i + 1] - (sheet.particles.rest[i].z - zMin) / 2.f) < 1e-5f);
    }
    QVERIFY(std::abs(lo[0]) < 1e-6f && std::abs(hi[0] - 1.f) < 1e-6f);
    QVERIFY(std::abs(lo[1]) < 1e-6f && std::abs(hi[1] - 0.5f) < 1e-6f);
    // Along one row (fixed Z) only u changes, and by the spacing over the span.
    QVERIFY(std::abs(std::abs(uv[2] - uv[0]) - 0.5f / 2.f) < 1e-5f);

    // The cloth's own UVs win, with √(rest area / UV area) metres per unit: the whole sheet
    // (2 m²) mapped onto [0, 1]² is √2 m per unit.
    sheet.uv.resize(sheet.particles.size());
    for (std::size_t i = 0; i < sheet.uv.size(); ++i)
        sheet.uv[i] = { (sheet.particles.rest[i].x - xMin) / 2.f, sheet.particles.rest[i].z - zMin };
    QVERIFY(std::abs(computeClothUvs(sheet, { 0.f, 0.f, 1.f }, uv) - std::sqrt(2.f)) < 1e-5f);
    for (std::size_t i = 0; i < sheet.uv.size(); ++i)
        QVERIFY(uv[2 * i] == sheet.uv[i][0] && uv[2 * i + 1] == sheet.uv[i][1]);
    // UVs of another length (a tear split particles since) fall back to the rest shape.
    sheet.uv.pop_back();
    QCOMPARE(computeClothUvs(sheet, { 0.f, 0.f, 1.f }, uv), 2.f);
}

#include "tst_viewport.moc"
