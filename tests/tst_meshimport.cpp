// Mesh import: every format assimp reads gives the same welded sphere; a grid with UVs becomes a
// cloth with the counts, masses and texture coordinates it must have; units and up axis apply;
// bad meshes are refused with a message or repaired with counted warnings; an imported cloth and
// a mesh collider save → load → save byte-identically.
#include "mesh/meshimport.h"
#include "mesh/meshobject.h"
#include "mesh/meshshapes.h"
#include "scene/scenefile.h"
#include "uvsquare.h"

#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <cstdio>
#include <fstream>

using namespace drape;

namespace {

std::string data(const char *name)
{
    // Appended in place: a chain of operator+ trips GCC 12's -Warray-bounds, a false alarm.
    std::string path = DRAPE_TEST_DATA;
    path += "/meshes/";
    path += name;
    return path;
}

MeshImport load(const char *name, MeshImportOptions o = {})
{
    MeshImport m = importMesh(data(name), o);
    if (!m.ok())
        qWarning("%s", m.error.c_str());
    return m;
}

double meshArea(const MeshGeometry &m)
{
    double a = 0.0;
    for (const Triangle &t : m.triangles)
        a += 0.5
            * length(
                cross(m.positions[t.v[1]] - m.positions[t.v[0]], m.positions[t.v[2]] - m.positions[t.v[0]]));
    return a;
}

} // namespace

class TestMeshImport : public QObject {
    Q_OBJECT

private slots:
    void everyFormatGivesTheSameSphere_data();
    void everyFormatGivesTheSameSphere();
    void gridBecomesCloth();
    void sphereClothMassIsAreaTimesDensity();
    void unitsAndUpAxis();
    void emptyAndMissingFilesAreRefused();
    void nonManifoldIsWarnedAndKept();
    void degenerateAndDuplicateTrianglesAreRemoved();
    void nanVerticesAreRemoved();
    void millionTrianglesAreRefused();
    void weldMergesWithinTolerance();
    void insideOutMeshIsTurned();
    void meshObjectsRoundTripByteIdentically();
    void uvsGiveTheThreadDirections();
};

void TestMeshImport::everyFormatGivesTheSameSphere_data()
{
    QTest::addColumn<QString>("file");
    for (const char *f : { "uv_sphere.obj", "uv_sphere.ply", "uv_sphere.gltf", "uv_sphere.glb",
             "uv_sphere.fbx", "uv_sphere.dae" })
        QTest::newRow(f) << QString(f);
}

void TestMeshImport::everyFormatGivesTheSameSphere()
{
    QFETCH(QString, file);
    const MeshImport m = load(file.toUtf8().constData());
    QVERIFY(m.ok());
    // 8 rings × 16 segments: 2 poles + 7 × 16 vertices, 2 · 16 · 7 triangles, closed.
    QCOMPARE(m.mesh.positions.size(), std::size_t(114));
    QCOMPARE(m.mesh.triangles.size(), std::size_t(224));
    QCOMPARE(m.report.boundaryEdges, std::size_t(0));
    QCOMPARE(m.report.nonManifoldEdges, std::size_t(0));
    for (const Vec3 &p : m.mesh.positions)
        QVERIFY2(std::fabs(length(p) - 0.5f) < 1e-4f, qPrintable(QString::number(length(p))));
    // Outward winding: every face normal points away from the centre.
    for (const Triangle &t : m.mesh.triangles) {
        const Vec3 &a = m.mesh.positions[t.v[0]], &b = m.mesh.positions[t.v[1]],
                   &c = m.mesh.positions[t.v[2]];
        QVERIFY(dot(cross(b - a, c - a), a + b + c) > 0.f);
    }
    QCOMPARE(m.mesh.uv.size(), m.mesh.positions.size());
}

void TestMeshImport::gridBecomesCloth()
{
    const MeshImport m = load("grid_uv.obj");
    QVERIFY(m.ok());
    QCOMPARE(m.mesh.positions.size(), std::size_t(25));
    QCOMPARE(m.mesh.triangles.size(), std::size_t(32));
    Material fabric;
    fabric.arealDensity = 0.3f;
    MeshClothCounts counts;
    const ClothDesc c = meshToCloth(m.mesh, fabric, "grid", &counts);
    // Edges of a 4 × 4-cell grid with one diagonal per cell: 2 · 4 · 5 sides + 16 diagonals.
    QCOMPARE(counts.structural, std::size_t(56));
    // Every edge not on the border (56 − 16) has two triangles and so one bending hinge; no
    // distance constraint stands for bending.
    QCOMPARE(counts.hinges, std::size_t(40));
    QCOMPARE(c.explicitData.constraints.size(), std::size_t(56));
    QVERIFY(c.explicitData.bending);
    // v = 0.5 − z: the warp runs along Z (as a horizontal grid's does).
    QVERIFY2(std::fabs(std::fabs(c.explicitData.warp.z) - 1.f) < 1e-5f, qPrintable(QString::number(c.explicitData.warp.z)));
    double total = 0.0;
    for (float mass : c.explicitData.mass)
        total += mass;
    QVERIFY(std::fabs(total - 0.3) < 1e-6); // 1 m² × 0.3 kg/m²
    QCOMPARE(c.explicitData.uv.size(), std::size_t(25));
    for (std::size_t i = 0; i < 25; ++i) {
        const Vec3 &p = c.explicitData.rest[i];
        QVERIFY(std::fabs(c.explicitData.uv[i][0] - (p.x + 0.5f)) < 1e-5f);
        QVERIFY(std::fabs(c.explicitData.uv[i][1] - (0.5f - p.z)) < 1e-5f);
    }
    // Rest lengths are the mesh's edge lengths, and the cloth builds and validates.
    for (const DistanceConstraint &k : c.explicitData.constraints)
        QCOMPARE(k.restLength, length(c.explicitData.rest[k.a] - c.explicitData.rest[k.b]));
    const Cloth built = buildCloth(c);
    QVERIFY2(built.validate().empty(), built.validate().c_str());
    QCOMPARE(built.uv.size(), std::size_t(25));
}

void TestMeshImport::sphereClothMassIsAreaTimesDensity()
{
    const MeshImport m = load("uv_sphere.obj");
    QVERIFY(m.ok());
    Material fabric;
    const ClothDesc c = meshToCloth(m.mesh, fabric, "ball");
    double total = 0.0;
    for (float mass : c.explicitData.mass)
        total += mass;
    QVERIFY(std::fabs(total - meshArea(m.mesh) * fabric.arealDensity) < 1e-6);
    // A closed mesh: every edge has two triangles, E = 3T/2 edge constraints, each edge a hinge.
    MeshClothCounts counts;
    meshToCloth(m.mesh, fabric, "ball", &counts);
    const std::size_t edges = 3 * m.mesh.triangles.size() / 2;
    QCOMPARE(c.explicitData.constraints.size(), edges);
    QCOMPARE(counts.structural, edges);
    QCOMPARE(counts.hinges, edges);
    for (const DistanceConstraint &k : c.explicitData.constraints)
        QCOMPARE(k.kind, ConstraintKind::Structural);
}

void TestMeshImport::unitsAndUpAxis()
{
    MeshImportOptions o;
    o.up = UpAxis::Z;
    const MeshImport up = load("zup_box.stl", o);
    QVERIFY(up.ok());
    QCOMPARE(up.mesh.triangles.size(), std::size_t(12));
    QCOMPARE(up.mesh.positions.size(), std::size_t(8));
    Aabb b = up.mesh.bounds();
    QVERIFY(std::fabs(b.lo.y - 0.f) < 1e-6f && std::fabs(b.hi.y - 1.f) < 1e-6f);
    QVERIFY(std::fabs(b.hi.z - 0.1f) < 1e-6f && std::fabs(b.hi.x - 0.1f) < 1e-6f);
    QCOMPARE(up.report.boundaryEdges, std::size_t(0));
    // Centimetres: the same box 1 cm tall, lying along Z as the file has it when Y is up.
    o.up = UpAxis::Y;
    o.scale = 0.01f;
    const MeshImport cm = load("zup_box.stl", o);
    QVERIFY(cm.ok());
    b = cm.mesh.bounds();
    QVERIFY(std::fabs(b.hi.z - 0.01f) < 1e-7f && std::fabs(b.hi.y - 0.001f) < 1e-7f);
    // The rotation keeps the winding: outward normals stay outward.
    for (const Triangle &t : up.mesh.triangles) {
        const Vec3 &p0 = up.mesh.positions[t.v[0]], &p1 = up.mesh.positions[t.v[1]],
                   &p2 = up.mesh.positions[t.v[2]];
        const Vec3 centre { 0.f, 0.5f, 0.f };
        QVERIFY(dot(cross(p1 - p0, p2 - p0), (p0 + p1 + p2) * (1.f / 3.f) - centre) > 0.f);
    }
}

void TestMeshImport::emptyAndMissingFilesAreRefused()
{
    const MeshImport empty = importMesh(data("empty.obj"));
    QVERIFY(!empty.ok());
    QVERIFY2(empty.error.find("empty.obj: the file is empty") != std::string::npos, empty.error.c_str());
    const MeshImport missing = importMesh(data("no_such_file.obj"));
    QVERIFY(!missing.ok());
    QVERIFY2(missing.error.find("no_such_file.obj: cannot read") != std::string::npos, missing.error.c_str());
    QTemporaryDir dir;
    const std::string junk = dir.filePath("junk.stl").toStdString();
    std::ofstream(junk) << "this is not a mesh\n";
    const MeshImport bad = importMesh(junk);
    QVERIFY(!bad.ok());
    QVERIFY2(bad.error.find("junk.stl") != std::string::npos, bad.error.c_str());
}

void TestMeshImport::nonManifoldIsWarnedAndKept()
{
    const MeshImport m = load("nonmanifold.obj");
    QVERIFY(m.ok());
    QCOMPARE(m.mesh.triangles.size(), std::size_t(3));
    QCOMPARE(m.report.nonManifoldEdges, std::size_t(1));
    const auto w = m.report.warnings();
    QCOMPARE(w.size(), std::size_t(1));
    QVERIFY(w[0].starts_with("1 non-manifold edges"));
    // No hinge across the fin's edge (three triangles share it); the others are borders.
    MeshClothCounts counts;
    meshToCloth(m.mesh, Material {}, "fin", &counts);
    QCOMPARE(counts.structural, std::size_t(7));
    QCOMPARE(counts.hinges, std::size_t(0));
}

void TestMeshImport::degenerateAndDuplicateTrianglesAreRemoved()
{
    const MeshImport m = load("degenerate.obj");
    QVERIFY(m.ok());
    QCOMPARE(m.mesh.triangles.size(), std::size_t(2));
    QCOMPARE(m.report.degenerateTriangles, std::size_t(2));
    QCOMPARE(m.report.duplicateTriangles, std::size_t(1));
    QCOMPARE(m.report.unusedVertices, std::size_t(1)); // the zero-area triangle's midpoint
    QCOMPARE(m.mesh.positions.size(), std::size_t(4));
    QCOMPARE(m.report.warnings().size(), std::size_t(3));
}

void TestMeshImport::nanVerticesAreRemoved()
{
    MeshGeometry m;
    m.positions = { { 0, 0, 0 }, { 1, 0, 0 }, { 1, 0, 1 }, { 0, 0, 1 }, { std::nanf(""), 0, 0 } };
    m.triangles = { { { 0, 2, 1 } }, { { 0, 3, 2 } }, { { 0, 4, 1 } } };
    const MeshReport r = cleanMesh(m, 1e-6f);
    QCOMPARE(r.nonFiniteVertices, std::size_t(1));
    QCOMPARE(m.triangles.size(), std::size_t(2));
    QCOMPARE(m.positions.size(), std::size_t(4));
    // From a file: an OBJ vertex "nan" either parses as NaN (then removed with its triangle)
    // or the file is refused; it never reaches a cloth.
    const MeshImport f = importMesh(data("nan.obj"));
    if (f.ok()) {
        for (const Vec3 &p : f.mesh.positions)
            QVERIFY(isFinite(p));
        QVERIFY(f.mesh.triangles.size() >= 2);
    } else {
        QVERIFY2(f.error.find("nan.obj") != std::string::npos, f.error.c_str());
    }
}

void TestMeshImport::millionTrianglesAreRefused()
{
    // A binary STL of 1,000,000 small triangles, written here (50 MB) rather than checked in.
    QTemporaryDir dir;
    const std::string path = dir.filePath("million.stl").toStdString();
    {
        std::ofstream f(path, std::ios::binary);
        char header[80] = {};
        f.write(header, 80);
        const std::uint32_t n = 1000000;
        f.write(reinterpret_cast<const char *>(&n), 4);
        for (std::uint32_t i = 0; i < n; ++i) {
            const float x = float(i % 1000) * 0.001f, z = float(i / 1000) * 0.001f;
            const float rec[12] = { 0, 1, 0, x, 0, z, x, 0, z + 0.001f, x + 0.001f, 0, z };
            f.write(reinterpret_cast<const char *>(rec), sizeof(rec));
            const std::uint16_t attr = 0;
            f.write(reinterpret_cast<const char *>(&attr), 2);
        }
    }
    const MeshImport m = importMesh(path);
    QVERIFY(!m.ok());
    QVERIFY2(m.error.find("1,000,000 triangles, more than the 250,000 allowed") != std::string::npos,
        m.error.c_str());
}

void TestMeshImport::weldMergesWithinTolerance()
{
    MeshGeometry m;
    m.positions
        = { { 0, 0, 0 }, { 1, 0, 0 }, { 0, 0, 1 }, { 1.0000001f, 0, 0 }, { 1, 0, 1 }, { 0, 0, 1.01f } };
    m.uv = { { 0, 0 }, { 1, 0 }, { 0, 1 }, { 0.5f, 0 }, { 1, 1 }, { 0, 0.9f } };
    m.triangles = { { { 0, 2, 1 } }, { { 3, 5, 4 } } };
    const MeshReport r = cleanMesh(m, 1e-5f);
    QCOMPARE(r.weldedVertices, std::size_t(1)); // vertex 3 onto vertex 1; 5 is 1 cm from 2
    QCOMPARE(m.positions.size(), std::size_t(5));
    QCOMPARE(m.uv[1][0], 1.f); // the first vertex's UV is kept at a seam
}

void TestMeshImport::insideOutMeshIsTurned()
{
    MeshGeometry m = makeUvSphereMesh(0.5f, 6, 8);
    for (Triangle &t : m.triangles)
        std::swap(t.v[0], t.v[1]);
    const MeshReport r = cleanMesh(m, 1e-6f);
    QVERIFY(r.turnedOutward);
    QCOMPARE(r.warnings().size(), std::size_t(1));
    for (const Triangle &t : m.triangles) {
        const Vec3 &a = m.positions[t.v[0]], &b = m.positions[t.v[1]], &c = m.positions[t.v[2]];
        QVERIFY(dot(cross(b - a, c - a), a + b + c) > 0.f);
    }
    // An open surface has no inside: it is left as it is.
    MeshGeometry sheet;
    sheet.positions = { { 0, 0, 0 }, { 1, 0, 0 }, { 0, 0, 1 } };
    sheet.triangles = { { { 0, 1, 2 } } };
    QVERIFY(!cleanMesh(sheet, 1e-6f).turnedOutward);
    QCOMPARE(sheet.triangles[0].v[1], 1u);
}

void TestMeshImport::meshObjectsRoundTripByteIdentically()
{
    const MeshImport grid = load("grid_uv.obj");
    const MeshImport ball = load("uv_sphere.obj");
    QVERIFY(grid.ok() && ball.ok());
    Scene s;
    s.cloths.push_back(meshToCloth(grid.mesh, Material {}, "imported"));
    s.colliders.push_back(meshToCollider(ball.mesh, "ball"));
    Collider capsule;
    capsule.name = "capsule";
    capsule.kind = ColliderKind::Capsule;
    capsule.axis = { 1.f, 0.f, 0.f };
    capsule.halfLength = 0.4f;
    capsule.radius = 0.1f;
    s.colliders.push_back(capsule);
    const std::string first = serializeScene(s);
    const SceneLoadResult loaded = parseScene(first, "meshes.json");
    QVERIFY2(loaded.error.empty(), loaded.error.c_str());
    QVERIFY(loaded.ok() && *loaded.scene == s);
    QCOMPARE(loaded.scene->colliders[0].mesh->triangles().size(), std::size_t(224));
    QCOMPARE(serializeScene(*loaded.scene), first);
}

QTEST_APPLESS_MAIN(TestMeshImport)
// The warp runs along v: turning the UVs a quarter turns which edges take the warp's
// stiffness; a mesh without UVs is isotropic.
void TestMeshImport::uvsGiveTheThreadDirections()
{
    Material fabric;
    fabric.stretchStiffness = 100.f;
    fabric.warpStretchStiffness = 1000.f;
    for (const bool turned : { false, true }) {
        const MeshGeometry mesh = testing::uvSquare(5, 1.f, turned);
        const ClothDesc c = meshToCloth(mesh, fabric, "square");
        const Vec3 warp = c.explicitData.warp;
        const Vec3 expected = turned ? Vec3 { 1.f, 0.f, 0.f } : Vec3 { 0.f, 1.f, 0.f };
        QVERIFY2(std::fabs(std::fabs(dot(warp, expected)) - 1.f) < 1e-5f,
            qPrintable(QString("%1 %2 %3").arg(warp.x).arg(warp.y).arg(warp.z)));
        const float spacing = c.explicitData.spacing;
        int along = 0, across = 0;
        for (const DistanceConstraint &k : c.explicitData.constraints) {
            const Vec3 d = c.explicitData.rest[k.b] - c.explicitData.rest[k.a];
            const bool vertical = std::fabs(d.x) < 1e-6f, horizontal = std::fabs(d.y) < 1e-6f;
            if (!vertical && !horizontal)
                continue; // a diagonal: half of each
            const bool isWarp = vertical != turned;
            const float share = isWarp ? 1.f : 0.f;
            QCOMPARE(k.compliance,
                materialParams(fabric, ConstraintKind::Structural, k.restLength, spacing, share).compliance);
            (isWarp ? along : across) += 1;
        }
        QCOMPARE(along, 20);
        QCOMPARE(across, 20);
    }
    MeshGeometry bare = testing::uvSquare(3, 1.f, false);
    bare.uv.clear();
    QCOMPARE(meshToCloth(bare, fabric, "bare").explicitData.warp, Vec3 {});
}

#include "tst_meshimport.moc"
