// Opt-in soak (DRAPE_SOAK_TESTS=ON): 10,000 frames of violent vertex-split tearing, in five
// rounds of 2,000 with fresh banners and different solvers, caps and tear strains. Every
// frame must stay finite and unflagged; every 100 frames the topology must be valid and the
// mass conserved. Meant to run under the ASan + UBSan build as well.
#include "sim/builders.h"
#include "sim/simulation.h"
#include "sim/topology.h"
#include "sim/vertexsplit.h"

#include <QTest>

#include <cmath>

using namespace drape;

namespace {

struct Round {
    SolverKind solver = SolverKind::Xpbd;
    float tearStrain = 0.2f; // structural constraints
    int maxSplits = 64; // per substep
    float ballFrequency = 0.8f; // Hz
};

// A 16×12 banner pinned along its top, a ball swinging through it at several m/s and a
// ground plane to land the pieces on.
Simulation banner(const Round &r)
{
    GridSpec g;
    g.across = 16;
    g.down = 12;
    g.width = 1.2f;
    g.height = 0.9f;
    g.origin = { -0.6f, 1.5f, 0.f };
    g.structuralParams = { 1e-5f, 0.f, r.tearStrain };
    g.shearParams.tearStrain = 2.f * r.tearStrain;
    Cloth c = makeGrid(g);
    c.tearMode = TearMode::SplitVertex;
    for (int i = 0; i < g.across; ++i)
        c.particles.setKind(gridIndex(g, i, 0), ParticleKind::Static);
    Simulation sim;
    sim.solver.kind = r.solver;
    sim.solver.maxSplitsPerStep = r.maxSplits;
    if (r.solver == SolverKind::Verlet) {
        sim.solver.substeps = 4;
        sim.solver.iterations = 4;
    }
    sim.cloths.push_back(std::move(c));
    Collider ball;
    ball.kind = ColliderKind::Sphere;
    ball.radius = 0.2f;
    ball.baseCenter = { 0.05f, 1.1f, 0.f };
    ball.center = ball.baseCenter;
    ball.motion.amplitude = { 0.4f, 0.2f, 1.2f };
    ball.motion.frequency = r.ballFrequency;
    sim.colliders.push_back(ball);
    Collider ground;
    ground.kind = ColliderKind::Plane;
    sim.colliders.push_back(ground);
    return sim;
}

} // namespace

class TestTearSoak : public QObject {
    Q_OBJECT

private slots:
    void tenThousandFramesOfTearing();
};

void TestTearSoak::tenThousandFramesOfTearing()
{
    const Round rounds[] = {
        { SolverKind::Xpbd, 0.2f, 64, 0.8f },
        { SolverKind::Xpbd, 0.05f, 4, 1.5f },
        { SolverKind::Verlet, 0.2f, 64, 0.8f },
        { SolverKind::Xpbd, 0.1f, 1000, 2.0f },
        { SolverKind::Verlet, 0.08f, 8, 1.2f },
    };
    std::size_t totalSplits = 0;
    for (std::size_t k = 0; k < std::size(rounds); ++k) {
        Simulation sim = banner(rounds[k]);
        const std::size_t particles = sim.cloths[0].particles.size();
        const double mass = sim.cloths[0].totalMass();
        for (int f = 0; f < 2000; ++f) {
            sim.step();
            if (sim.status().blownUp)
                QFAIL(qPrintable(QStringLiteral("round %1, frame %2: %3")
                                     .arg(k)
                                     .arg(f)
                                     .arg(QString::fromStdString(sim.status().message))));
            const Cloth &c = sim.cloths[0];
            for (const Vec3 &x : c.particles.position)
                QVERIFY(isFinite(x));
            if (f % 100 == 99) {
                const std::string problem = validateTopology(c);
                if (!problem.empty())
                    QFAIL(qPrintable(QStringLiteral("round %1, frame %2: %3")
                                         .arg(k)
                                         .arg(f)
                                         .arg(QString::fromStdString(problem))));
                QVERIFY(std::abs(c.totalMass() - mass) <= 1e-4 * mass);
            }
        }
        QVERIFY2(sim.cloths[0].particles.size() > particles,
            qPrintable(QStringLiteral("round %1 never tore").arg(k)));
        totalSplits += sim.cloths[0].particles.size() - particles;
    }
    qInfo("%zu particles split over 10,000 frames", totalSplits);
}

QTEST_APPLESS_MAIN(TestTearSoak)
#include "tst_tearsoak.moc"
