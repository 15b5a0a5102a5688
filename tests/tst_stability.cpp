// springsStabilityProblem() against the closed-form bound of a chain, and against what
// Simulation::step() does: the check the editor makes before switching to springs must agree
// with the solver's own refusal.
#include "sim/builders.h"
#include "sim/simulation.h"
#include "sim/stability.h"

#include <QTest>

using namespace drape;

namespace {

// A hanging chain of 1 kg particles joined by springs of k = 10⁴ N/m, no damping. An inner
// particle has two springs, so Gershgorin bounds its frequency by ω² = 2·w·Σk = 4k/m: the
// explicit step is stable while ω·dt <= 2, i.e. dt <= √(m/k) = 0.01 s.
Simulation chain(int substeps)
{
    Simulation sim;
    sim.world.airDamping = 0.f;
    sim.solver.kind = SolverKind::Springs;
    sim.solver.frameRate = 60.f;
    sim.solver.substeps = substeps;
    RopeSpec r;
    r.count = 6;
    r.length = 1.f;
    r.start = { 0.f, 2.f, 0.f };
    r.direction = { 0.f, -1.f, 0.f };
    r.linkMass = 1.f;
    r.params.compliance = 1e-4f;
    r.params.damping = 0.f;
    Cloth c = makeRope(r);
    c.particles.setKind(0, ParticleKind::Static);
    sim.cloths.push_back(std::move(c));
    return sim;
}

} // namespace

class TestStability : public QObject {
    Q_OBJECT
private slots:
    void chainBoundIsSqrtMOverK()
    {
        // 1/60 s per substep is past 0.01 s; 1/120 s is within it.
        const std::string problem = springsStabilityProblem(chain(1));
        QVERIFY(!problem.empty());
        QVERIFY2(problem.find("raise solver.substeps to at least 2") != std::string::npos, problem.c_str());
        QVERIFY(springsStabilityProblem(chain(2)).empty());
    }

    void agreesWithTheSolversRefusal()
    {
        Simulation sim = chain(1);
        const std::string predicted = springsStabilityProblem(sim);
        QCOMPARE(sim.frame(), std::uint64_t(0)); // the check does not step
        sim.step();
        QVERIFY(sim.status().blownUp);
        QCOMPARE(QString::fromStdString(sim.status().message), QString::fromStdString(predicted));

        Simulation stable = chain(2);
        QVERIFY(springsStabilityProblem(stable).empty());
        stable.run(60);
        QVERIFY(!stable.status().blownUp);
    }
};

QTEST_APPLESS_MAIN(TestStability)
#include "tst_stability.moc"
