// energyOf() against hand-computed energies: a moving particle above the origin, a stretched
// spring, and pinned particles left out.
#include "sim/builders.h"
#include "sim/energy.h"
#include "sim/simulation.h"

#include <QTest>

using namespace drape;

class TestEnergy : public QObject {
    Q_OBJECT

private slots:
    void kineticAndGravitational()
    {
        // 2 kg at height 3 m moving at (1, 2, 2) m/s: KE = ½·2·9 = 9 J, U = 2·9.81·3 = 58.86 J.
        Simulation sim;
        sim.world.gravity = { 0.f, -9.81f, 0.f };
        ExplicitSpec spec;
        spec.positions = { { 5.f, 3.f, -1.f } };
        spec.masses = { 2.f };
        sim.cloths.push_back(makeExplicit(spec));
        sim.cloths[0].particles.velocity[0] = { 1.f, 2.f, 2.f };
        const Energy e = energyOf(sim);
        QCOMPARE(e.kinetic, 9.0);
        QVERIFY(qAbs(e.gravitational - 2.0 * 9.81 * 3.0) < 1e-5);
        QCOMPARE(e.elastic, 0.0);
    }

    void stretchedSpringAndPinnedParticle()
    {
        // Two particles 1.5 m apart on a spring of rest length 1 m, k = 200 N/m: ½·200·0.25 = 25 J.
        // The first is pinned: its 1 kg at height 1 m does not count; the second's 1 kg at 1 m does.
        Simulation sim;
        sim.world.gravity = { 0.f, -10.f, 0.f };
        ExplicitSpec spec;
        spec.positions = { { 0.f, 1.f, 0.f }, { 1.5f, 1.f, 0.f } };
        spec.masses = { 1.f, 1.f };
        spec.kinds = { ParticleKind::Static, ParticleKind::Dynamic };
        DistanceConstraint c;
        c.a = 0;
        c.b = 1;
        c.restLength = 1.f;
        c.compliance = 1.f / 200.f;
        spec.constraints = { c };
        DistanceConstraint rigid = c;
        rigid.compliance = 0.f;
        spec.constraints.push_back(rigid); // rigid: holds no energy
        sim.cloths.push_back(makeExplicit(spec));
        const Energy e = energyOf(sim);
        QVERIFY(qAbs(e.elastic - 25.0) < 1e-4);
        QVERIFY(qAbs(e.gravitational - 10.0) < 1e-5);
        QCOMPARE(e.kinetic, 0.0);
        QVERIFY(qAbs(e.total() - 35.0) < 1e-4);
    }
};

QTEST_APPLESS_MAIN(TestEnergy)
#include "tst_energy.moc"
