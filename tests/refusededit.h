// An edit made in place between frames that the next step must refuse (the per-frame check
// of Simulation::step): shared by the tests of that check on one thread and on two.
#pragma once

#include "sim/simulation.h"

#include <QTest>

#include <functional>
#include <string>

namespace drape::test {

/// Applies `edit` to cloth 0 of `sim` and steps: the step must fail without advancing the
/// frame, with a message containing `message`. Then puts the cloth back as it was: the next
/// step must succeed. A failure is reported through QTest (check QTest::currentTestFailed()).
inline void checkEditRefused(
    Simulation &sim, const std::function<void(Cloth &)> &edit, const std::string &message)
{
    const Cloth kept = sim.cloths[0];
    edit(sim.cloths[0]);
    const std::uint64_t frame = sim.frame();
    sim.step();
    QVERIFY2(sim.status().blownUp, message.c_str());
    QVERIFY2(sim.status().message.find(message) != std::string::npos, sim.status().message.c_str());
    QCOMPARE(sim.frame(), frame);
    sim.cloths[0] = kept;
    sim.clearBlowUp();
    sim.step();
    QVERIFY2(!sim.status().blownUp, sim.status().message.c_str());
    QCOMPARE(sim.frame(), frame + 1);
}

} // namespace drape::test
