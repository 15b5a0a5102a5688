// Cutting: the geometry of the knife against closed-form distances, the exact set of
// constraints a stroke across a grid removes, and a cut hanging cloth falling apart under
// gravity as free fall predicts.
#include "sim/builders.h"
#include "edit/cut.h"
#include "sim/simulation.h"

#include <QTest>

#include <cmath>
#include <numeric>
#include <set>

using namespace drape;

namespace {

// Union-find over particles joined by constraints.
class Pieces {
public:
    explicit Pieces(const Cloth &cloth) : m_parent(cloth.particles.size())
    {
        std::iota(m_parent.begin(), m_parent.end(), 0u);
        for (const DistanceConstraint &c : cloth.constraints)
            m_parent[find(c.a)] = find(c.b);
    }
    std::uint32_t find(std::uint32_t i)
    {
        while (m_parent[i] != i)
            i = m_parent[i] = m_parent[m_parent[i]];
        return i;
    }

private:
    std::vector<std::uint32_t> m_parent;
};

constexpr int kAcross = 12;
constexpr int kDown = 10;

GridSpec hangingGrid()
{
    GridSpec g;
    g.across = kAcross;
    g.down = kDown;
    g.width = 1.1f;  // spacing 0.1 m
    g.height = 0.9f; // spacing 0.1 m
    g.origin = {-0.55f, 2.f, 0.f};
    return g;
}

// Row j of the hanging grid is at y = 2 - 0.1 j; the knife at y = 1.55 passes between rows
// 4 and 5 (y = 1.6 and 1.5).
constexpr float kCutY = 1.55f;
constexpr int kLastUpperRow = 4;

int rowOf(const GridSpec &g, std::uint32_t i) { return int(i) / g.across; }

} // namespace

class TestCut : public QObject {
    Q_OBJECT

private slots:
    void segmentDistances()
    {
        float s = -1.f, t = -1.f;
        // Skew segments 1 m apart, closest at both midpoints.
        QCOMPARE(segmentSegmentDistanceSquared({0, 0, 0}, {1, 0, 0}, {0.5f, 1, -1}, {0.5f, 1, 1}, &s, &t), 1.f);
        QCOMPARE(s, 0.5f);
        QCOMPARE(t, 0.5f);
        // Parallel, offset along their line: end to end, (2,0,0)-(3,0.5,0): √(1 + 0.25).
        QVERIFY(std::fabs(segmentSegmentDistanceSquared({0, 0, 0}, {2, 0, 0}, {3, 0.5f, 0}, {4, 0.5f, 0}) - 1.25f) < 1e-6f);
        // Degenerate segments are points.
        QCOMPARE(segmentSegmentDistanceSquared({0, 0, 0}, {0, 0, 0}, {0, 3, 4}, {0, 3, 4}), 25.f);

        const Vec3 a{0, 0, 0}, b{1, 0, 0}, c{0, 1, 0};
        // Crossing the triangle: 0.
        QCOMPARE(segmentTriangleDistanceSquared({0.2f, 0.2f, -1}, {0.2f, 0.2f, 1}, a, b, c), 0.f);
        // Above the interior, parallel to it, 0.5 m up.
        QVERIFY(std::fabs(segmentTriangleDistanceSquared({0.1f, 0.1f, 0.5f}, {0.3f, 0.2f, 0.5f}, a, b, c) - 0.25f) < 1e-6f);
        // Beside the hypotenuse x + y = 1, at distance 1/√2 · 0.5 from it, in the plane.
        QVERIFY(std::fabs(segmentTriangleDistanceSquared({0.75f, 0.75f, -1}, {0.75f, 0.75f, 1}, a, b, c) - 0.125f) < 1e-6f);
    }

    void orthographicStrokeRemovesExactlyTheCrossingConstraints()
    {
        const GridSpec g = hangingGrid();
        const Cloth cloth = makeGrid(g);
        const Ray r0{{-2.f, kCutY, 1.f}, {0.f, 0.f, -1.f}};
        const Ray r1{{2.f, kCutY, 1.f}, {0.f, 0.f, -1.f}};
        const std::vector<std::uint32_t> cut = constraintsCutByStroke(cloth, r0, r1);
        // Expected independently from the grid's layout: a constraint crosses the plane
        // y = kCutY exactly when one end is in rows <= 4 and the other in rows >= 5.
        std::set<std::uint32_t> expected;
        for (std::size_t k = 0; k < cloth.constraints.size(); ++k) {
            const int ra = rowOf(g, cloth.constraints[k].a), rb = rowOf(g, cloth.constraints[k].b);
            if (std::min(ra, rb) <= kLastUpperRow && std::max(ra, rb) > kLastUpperRow)
                expected.insert(std::uint32_t(k));
        }
        // kAcross vertical edges, 2 (kAcross - 1) shear diagonals, 2 kAcross vertical bends.
        QCOMPARE(expected.size(), std::size_t(kAcross + 2 * (kAcross - 1) + 2 * kAcross));
        QCOMPARE(std::set<std::uint32_t>(cut.begin(), cut.end()), expected);

        // A perspective camera looking at the same line cuts the same constraints.
        const Vec3 eye{0.f, kCutY, 3.f};
        const Ray p0{eye, normalized(Vec3{-1.f, kCutY, 0.f} - eye)};
        const Ray p1{eye, normalized(Vec3{1.f, kCutY, 0.f} - eye)};
        const std::vector<std::uint32_t> perspective = constraintsCutByStroke(cloth, p0, p1);
        QCOMPARE(std::set<std::uint32_t>(perspective.begin(), perspective.end()), expected);

        // A stroke that stops halfway across only cuts the left half: nothing with both ends
        // right of x = 0.
        const std::vector<std::uint32_t> half =
            constraintsCutByStroke(cloth, r0, Ray{{0.f, kCutY, 1.f}, {0.f, 0.f, -1.f}});
        QVERIFY(!half.empty());
        QVERIFY(half.size() < expected.size());
        for (std::uint32_t k : half) {
            const DistanceConstraint &d = cloth.constraints[k];
            QVERIFY(std::min(cloth.particles.position[d.a].x, cloth.particles.position[d.b].x) <= 0.f);
        }
    }

    void knifeRadius()
    {
        const GridSpec g = hangingGrid();
        const Cloth cloth = makeGrid(g);
        // A knife just above row 4 (y = 1.6) with no thickness cuts nothing horizontal;
        // 2 cm of thickness reaches the row's horizontal edges and bends at 1.6.
        const Ray r0{{-2.f, 1.615f, 1.f}, {0.f, 0.f, -1.f}};
        const Ray r1{{2.f, 1.615f, 1.f}, {0.f, 0.f, -1.f}};
        CutSettings thin;
        CutSettings thick;
        thick.radius = 0.02f;
        auto horizontalInRow4 = [&](const std::vector<std::uint32_t> &list) {
            int n = 0;
            for (std::uint32_t k : list) {
                const DistanceConstraint &d = cloth.constraints[k];
                n += (rowOf(g, d.a) == 4 && rowOf(g, d.b) == 4) ? 1 : 0;
            }
            return n;
        };
        QCOMPARE(horizontalInRow4(constraintsCutByStroke(cloth, r0, r1, thin)), 0);
        // kAcross - 1 structural + kAcross - 2 bend constraints lie along row 4.
        QCOMPARE(horizontalInRow4(constraintsCutByStroke(cloth, r0, r1, thick)), (kAcross - 1) + (kAcross - 2));

        // Cutting within a radius of a 3D point: a 0.03 m ball around the midpoint of the
        // vertical edge (5,4)-(5,5) reaches that edge and the two vertical bends through the
        // same line; the nearest shear diagonals pass 0.05/√2 = 0.035 m away, the horizontal
        // edges 0.05 m.
        const Vec3 mid{-0.55f + 0.5f, kCutY, 0.f};
        const std::vector<std::uint32_t> near = constraintsNearSegment(cloth, mid, mid, 0.03f);
        QCOMPARE(near.size(), std::size_t(3));
        for (std::uint32_t k : near) {
            const DistanceConstraint &d = cloth.constraints[k];
            QCOMPARE(int(d.a) % kAcross, 5);
            QCOMPARE(int(d.b) % kAcross, 5);
        }
    }

    // A stroke tests only the constraints near its knife's plane exactly; it must find every
    // constraint that testing all of them finds. A crumpled grid (every particle moved by up
    // to half a spacing, some rows put exactly on the knife's plane, so that ends lie on it and
    // segments run along it) is cut by strokes of several slants, with and without a radius,
    // and compared with the exhaustive test of every constraint against the swept quad.
    void strokeFindsWhatTestingEveryConstraintFinds()
    {
        GridSpec g = hangingGrid();
        g.across = 40;
        g.down = 30;
        Cloth cloth = makeGrid(g);
        std::uint32_t seed = 12345u;
        auto noise = [&] {
            seed = seed * 1664525u + 1013904223u;
            return (float(seed >> 8) / float(1u << 24) - 0.5f) * 0.05f; // within ±0.025 m
        };
        for (Vec3 &p : cloth.particles.position)
            p = p + Vec3 { noise(), noise(), noise() };
        // Rows 10 and 11 exactly on the plane y = 1.55, z = anything (the first stroke's).
        for (std::uint32_t i = 10 * std::uint32_t(g.across); i < 12 * std::uint32_t(g.across); ++i)
            cloth.particles.position[i].y = kCutY;

        struct Stroke {
            Ray r0, r1;
        };
        const Vec3 eye { 0.3f, 1.4f, 2.5f };
        const Stroke strokes[] = {
            { { { -2.f, kCutY, 1.f }, { 0.f, 0.f, -1.f } },
                { { 2.f, kCutY, 1.f }, { 0.f, 0.f, -1.f } } }, // along rows 10-11
            { { { -2.f, 1.2f, 1.f }, { 0.f, 0.f, -1.f } },
                { { 2.f, 1.9f, 1.f }, { 0.f, 0.f, -1.f } } }, // slanted
            { { eye, normalized(Vec3 { -1.f, 1.3f, 0.f } - eye) },
                { eye, normalized(Vec3 { 1.f, 1.8f, 0.f } - eye) } },
            { { { 0.1f, 2.5f, 1.f }, { 0.f, -0.3f, -1.f } },
                { { 0.1f, 0.5f, 1.f }, { 0.f, 0.3f, -1.f } } }, // vertical
        };
        int found = 0;
        for (const Stroke &stroke : strokes) {
            for (float radius : { 0.f, 0.01f, 0.04f }) {
                CutSettings settings;
                settings.radius = radius;
                settings.farDistance = 10.f;
                const std::vector<std::uint32_t> cut
                    = constraintsCutByStroke(cloth, stroke.r0, stroke.r1, settings);
                const Vec3 o0 = stroke.r0.origin, o1 = stroke.r1.origin;
                const Vec3 f0 = o0 + normalized(stroke.r0.direction) * settings.farDistance;
                const Vec3 f1 = o1 + normalized(stroke.r1.direction) * settings.farDistance;
                const bool useA = lengthSquared(o1 - o0) > 0.f; // the perspective stroke's first is a point
                std::vector<std::uint32_t> expected;
                for (std::size_t k = 0; k < cloth.constraints.size(); ++k) {
                    const Vec3 &p = cloth.particles.position[cloth.constraints[k].a];
                    const Vec3 &q = cloth.particles.position[cloth.constraints[k].b];
                    const bool hit = radius == 0.f
                        ? (useA && segmentCrossesTriangle(p, q, o0, o1, f1))
                            || segmentCrossesTriangle(p, q, o0, f1, f0)
                        : (useA && segmentTriangleDistanceSquared(p, q, o0, o1, f1) <= radius * radius)
                            || segmentTriangleDistanceSquared(p, q, o0, f1, f0) <= radius * radius;
                    if (hit)
                        expected.push_back(std::uint32_t(k));
                }
                QVERIFY(!expected.empty());
                QCOMPARE(cut, expected);
                found += int(expected.size());
            }
        }
        QVERIFY(found > 1000);
    }

    // A perspective stroke of a fraction of a pixel makes a knife only 7e-5 rad wide: still
    // it cuts exactly the two shear diagonals that cross at the point it passes over, the
    // centre of cell (5, 4) of the hanging grid at (0, 1.55, 0).
    void thinStrokeCutsWhatItCrosses()
    {
        const GridSpec g = hangingGrid();
        const Cloth cloth = makeGrid(g);
        const Vec3 eye { 0.f, kCutY, 3.f };
        const Ray r0 { eye, normalized(Vec3 { -1e-4f, kCutY, 0.f } - eye) };
        const Ray r1 { eye, normalized(Vec3 { 1e-4f, kCutY, 0.f } - eye) };
        const std::vector<std::uint32_t> cut = constraintsCutByStroke(cloth, r0, r1);
        QCOMPARE(cut.size(), std::size_t(2));
        const auto at = [&](int column, int row) { return std::uint32_t(row * g.across + column); };
        const std::set<std::pair<std::uint32_t, std::uint32_t>> diagonals { { at(5, 4), at(6, 5) },
            { at(6, 4), at(5, 5) } };
        for (std::uint32_t k : cut) {
            const DistanceConstraint &d = cloth.constraints[k];
            QVERIFY(diagonals.count({ std::min(d.a, d.b), std::max(d.a, d.b) }) == 1);
        }
    }

    void clickCutsUnderTheCursor()
    {
        // A click (r0 == r1) cuts what lies within the knife's radius of the ray. The ray
        // through (0, 1.6) hits the midpoint of edge (5,4)-(6,4); within 2 cm are that edge
        // and the two row bends through it; the shear diagonals cross 5 cm higher or lower.
        const GridSpec g = hangingGrid();
        const Cloth cloth = makeGrid(g);
        const Ray click{{0.f, 1.6f, 1.f}, {0.f, 0.f, -1.f}};
        CutSettings s;
        s.radius = 0.02f;
        const std::vector<std::uint32_t> cut = constraintsCutByStroke(cloth, click, click, s);
        QCOMPARE(cut.size(), std::size_t(3));
        for (std::uint32_t k : cut) {
            const DistanceConstraint &d = cloth.constraints[k];
            QCOMPARE(rowOf(g, d.a), 4);
            QCOMPARE(rowOf(g, d.b), 4);
            const float x0 = cloth.particles.position[d.a].x, x1 = cloth.particles.position[d.b].x;
            QVERIFY(std::min(x0, x1) < 0.f && std::max(x0, x1) > 0.f);
        }
        // Without radius a click is a line and cuts nothing.
        QVERIFY(constraintsCutByStroke(cloth, click, click).empty());
    }

    void cutClothFallsApart()
    {
        const GridSpec g = hangingGrid();
        Simulation sim;
        sim.world.airDamping = 0.f; // so the lower piece is in free fall
        sim.cloths.push_back(makeGrid(g));
        Cloth &cloth = sim.cloths[0];
        std::vector<std::uint32_t> top;
        for (int i = 0; i < kAcross; ++i)
            top.push_back(gridIndex(g, i, 0));
        for (std::uint32_t i : top)
            cloth.particles.setKind(i, ParticleKind::Static);

        const ClothEditResult r = makeCutStroke(cloth, Ray{{-2.f, kCutY, 1.f}, {0.f, 0.f, -1.f}},
                                                Ray{{2.f, kCutY, 1.f}, {0.f, 0.f, -1.f}});
        QVERIFY2(r.ok(), r.error.c_str());
        QCOMPARE(apply(cloth, r.edit), std::string());

        // No triangle or constraint joins the pieces any more.
        Pieces pieces(cloth);
        const std::uint32_t upper = pieces.find(gridIndex(g, 0, 0));
        const std::uint32_t lower = pieces.find(gridIndex(g, 0, kDown - 1));
        QVERIFY(upper != lower);
        for (std::uint32_t i = 0; i < cloth.particles.size(); ++i)
            QCOMPARE(pieces.find(i), rowOf(g, i) <= kLastUpperRow ? upper : lower);
        for (const Triangle &t : cloth.triangles) {
            const int rows[3] = {rowOf(g, t.v[0]), rowOf(g, t.v[1]), rowOf(g, t.v[2])};
            QVERIFY(*std::max_element(rows, rows + 3) <= kLastUpperRow || *std::min_element(rows, rows + 3) > kLastUpperRow);
        }

        // Mass-weighted height of the lower piece before the fall.
        auto lowerCentreY = [&] {
            double my = 0.0, m = 0.0;
            for (std::uint32_t i = 0; i < cloth.particles.size(); ++i) {
                if (rowOf(g, i) > kLastUpperRow) {
                    my += double(cloth.particles.mass[i]) * cloth.particles.position[i].y;
                    m += cloth.particles.mass[i];
                }
            }
            return my / m;
        };
        const double y0 = lowerCentreY();
        const int frames = 30;
        sim.run(frames);
        QVERIFY2(!sim.status().blownUp, sim.status().message.c_str());
        const double t = frames * sim.solver.frameDt();
        const double drop = 0.5 * 9.81 * t * t; // ½ g t², 1.226 m after 0.5 s

        // Internal forces cancel, so the lower piece's centre of mass falls freely. The
        // solver integrates in substeps h (symplectic Euler falls ½ g t (t + h)), well
        // inside 2 %.
        QVERIFY2(std::fabs((y0 - lowerCentreY()) - drop) < 0.02 * drop,
                 qPrintable(QString("fell %1 m, free fall %2 m").arg(y0 - lowerCentreY()).arg(drop)));
        // Its top row is now far below the cut line ...
        for (int i = 0; i < kAcross; ++i)
            QVERIFY(cloth.particles.position[gridIndex(g, i, kLastUpperRow + 1)].y < kCutY - 0.9 * drop);
        // ... while the upper piece still hangs from its pins, its bottom row near the cut.
        for (int i = 0; i < kAcross; ++i) {
            const float y = cloth.particles.position[gridIndex(g, i, kLastUpperRow)].y;
            QVERIFY2(std::fabs(y - 1.6f) < 0.1f, qPrintable(QString("upper bottom row at y = %1").arg(y)));
        }
    }

    void wholeSimulationStroke()
    {
        Simulation sim;
        GridSpec g = hangingGrid();
        sim.cloths.push_back(makeGrid(g));
        g.origin.z = -1.f; // a second curtain behind the first
        sim.cloths.push_back(makeGrid(g));
        g.origin.y = 10.f; // and one out of the knife's way
        sim.cloths.push_back(makeGrid(g));
        const SimulationCut cut = makeCutStroke(sim, Ray{{-2.f, kCutY, 1.f}, {0.f, 0.f, -1.f}},
                                                Ray{{2.f, kCutY, 1.f}, {0.f, 0.f, -1.f}});
        QVERIFY(cut.ok());
        QCOMPARE(cut.cloths, (std::vector<int>{0, 1}));
        QCOMPARE(cut.edits[0], cut.edits[1]); // the same grid, cut the same way

        const SimulationCut bad = makeCutStroke(sim, Ray{{0.f, 0.f, 0.f}, {std::nanf(""), 0.f, 0.f}}, Ray{});
        QVERIFY(!bad.ok());
        QVERIFY(bad.empty());
    }
};

QTEST_APPLESS_MAIN(TestCut)
#include "tst_cut.moc"
