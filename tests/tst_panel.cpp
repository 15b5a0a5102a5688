// Panel cloths: a disc and an L-shaped outline are filled with triangles of about the chosen
// edge length that cover exactly the outline's area, face the chosen side and keep every
// outline segment; bad outlines are refused with a reason.
#include "mesh/meshobject.h"
#include "mesh/panel.h"

#include <QTest>

#include <cmath>
#include <numbers>

using namespace drape;

namespace {

double area(const MeshGeometry &m, Vec3 facing, bool *allFacing)
{
    double a = 0.0;
    *allFacing = true;
    for (const Triangle &t : m.triangles) {
        const Vec3 n
            = cross(m.positions[t.v[1]] - m.positions[t.v[0]], m.positions[t.v[2]] - m.positions[t.v[0]]);
        a += 0.5 * length(n);
        *allFacing = *allFacing && dot(n, facing) > 0.f;
    }
    return a;
}

} // namespace

class TestPanel : public QObject {
    Q_OBJECT

private slots:
    void discCoversItsArea();
    void concaveOutlineKeepsItsNotch();
    void edgesAreAboutTheChosenLength();
    void badOutlinesAreRefused();
};

void TestPanel::discCoversItsArea()
{
    PanelSpec spec;
    spec.outline = discOutline(0.5f, 96);
    spec.edgeLength = 0.04f;
    spec.origin = { 0.f, 1.f, 0.f };
    std::string error;
    const MeshGeometry m = makePanelMesh(spec, &error);
    QVERIFY2(!m.triangles.empty(), error.c_str());
    bool up = false;
    // The 96-gon's area is ½ n r² sin(2π/n).
    const double polygon = 0.5 * 96 * 0.25 * std::sin(2.0 * std::numbers::pi / 96);
    QVERIFY(std::fabs(area(m, { 0.f, 1.f, 0.f }, &up) - polygon) < 1e-5);
    QVERIFY(up); // horizontal panels face +Y
    for (const Vec3 &p : m.positions)
        QCOMPARE(p.y, 1.f);
    // As a cloth: its mass is the area times the density.
    Material fabric;
    const ClothDesc c = meshToCloth(m, fabric, "disc");
    double mass = 0.0;
    for (float x : c.explicitData.mass)
        mass += x;
    QVERIFY(std::fabs(mass - polygon * fabric.arealDensity) < 1e-5);
    QCOMPARE(c.explicitData.uv.size(), m.positions.size());
}

void TestPanel::concaveOutlineKeepsItsNotch()
{
    // An L: 1 m × 1 m with the top-right 0.5 m × 0.5 m quarter cut away (area 0.75 m²),
    // standing in the XY plane, clockwise on purpose.
    PanelSpec spec;
    spec.outline = { { 0, 0 }, { 0, 1 }, { 0.5f, 1 }, { 0.5f, 0.5f }, { 1, 0.5f }, { 1, 0 } };
    spec.edgeLength = 0.05f;
    spec.horizontal = false;
    spec.origin = {};
    std::string error;
    const MeshGeometry m = makePanelMesh(spec, &error);
    QVERIFY2(!m.triangles.empty(), error.c_str());
    bool front = false;
    QVERIFY(std::fabs(area(m, { 0.f, 0.f, 1.f }, &front) - 0.75) < 1e-5);
    QVERIFY(front);
    // Nothing inside the notch.
    for (const Triangle &t : m.triangles) {
        const Vec3 c = (m.positions[t.v[0]] + m.positions[t.v[1]] + m.positions[t.v[2]]) * (1.f / 3.f);
        QVERIFY(!(c.x > 0.5f && c.y > 0.5f));
    }
}

void TestPanel::edgesAreAboutTheChosenLength()
{
    PanelSpec spec;
    spec.outline = { { 0, 0 }, { 1, 0 }, { 1, 1 }, { 0, 1 } };
    spec.edgeLength = 0.1f;
    std::string error;
    const MeshGeometry m = makePanelMesh(spec, &error);
    QVERIFY2(!m.triangles.empty(), error.c_str());
    MeshClothCounts counts;
    const ClothDesc c = meshToCloth(m, Material {}, "square", &counts);
    double sum = 0.0;
    float longest = 0.f, shortest = 1e9f;
    for (const DistanceConstraint &k : c.explicitData.constraints) {
        if (k.kind != ConstraintKind::Structural)
            continue;
        sum += k.restLength;
        longest = std::max(longest, k.restLength);
        shortest = std::min(shortest, k.restLength);
    }
    const double mean = sum / double(counts.structural);
    QVERIFY2(mean > 0.07 && mean < 0.11, qPrintable(QString::number(mean)));
    QVERIFY2(longest < 0.16f && shortest > 0.03f, qPrintable(QString("%1 .. %2").arg(shortest).arg(longest)));
    // The outline's y is the warp (its UVs' v): Z on a panel lying in the XZ plane.
    QVERIFY2(std::fabs(std::fabs(c.explicitData.warp.z) - 1.f) < 1e-5f, qPrintable(QString::number(c.explicitData.warp.z)));
}

void TestPanel::badOutlinesAreRefused()
{
    std::string error;
    PanelSpec spec;
    spec.outline = { { 0, 0 }, { 1, 0 } };
    QVERIFY(makePanelMesh(spec, &error).triangles.empty());
    QVERIFY2(error.find("at least 3 corners") != std::string::npos, error.c_str());
    spec.outline = { { 0, 0 }, { 1, 1 }, { 1, 0 }, { 0, 1 } }; // a bow tie
    QVERIFY(makePanelMesh(spec, &error).triangles.empty());
    QVERIFY2(error.find("crosses itself") != std::string::npos, error.c_str());
    spec.outline = { { 0, 0 }, { 1, 0 }, { 1, 1 } };
    spec.edgeLength = 0.f;
    QVERIFY(makePanelMesh(spec, &error).triangles.empty());
    QVERIFY2(error.find("not positive") != std::string::npos, error.c_str());
    spec.edgeLength = 0.001f; // 500,000 points
    QVERIFY(makePanelMesh(spec, &error).triangles.empty());
    QVERIFY2(error.find("20,000 points") != std::string::npos, error.c_str());
}

QTEST_APPLESS_MAIN(TestPanel)
#include "tst_panel.moc"
