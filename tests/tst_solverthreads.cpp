// The solver's second thread (core/sim/src/xpbdworker.h): its passes cover every unit once,
// in colour order, and a whole simulation stepped on two threads is bit-identical to one
// thread, for XPBD and Verlet, plain frames and frames with tearing, colliders, wind,
// self-collision, tethers, pins and a dragged particle. Also run under ThreadSanitizer
// (cmake/quickstart.sh test).
#include "refusededit.h"
#include "sim/builders.h"
#include "sim/simulation.h"
#include "sim/solverthreads.h"
#include "xpbdworker.h"

#include <QTest>

#include <atomic>
#include <chrono>
#include <functional>
#include <limits>
#include <string>
#include <thread>
#include <vector>

using namespace drape;
using namespace drape::detail;

namespace {

// Sets the two-thread threshold for a scope.
struct TwoThreadConstraints {
    std::size_t saved = xpbdTwoThreadConstraints();
    explicit TwoThreadConstraints(std::size_t count) { setXpbdTwoThreadConstraints(count); }
    ~TwoThreadConstraints() { setXpbdTwoThreadConstraints(saved); }
};

// Runs pass() until the worker has joined `passes` of them (a loaded machine may keep it
// off its core for a while) or ten seconds have gone by; returns the passes it joined.
template <typename Pass> std::uint64_t runUntilJoined(std::uint64_t passes, Pass pass)
{
    const std::uint64_t before = xpbdWorkerPassesJoined();
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    do {
        pass();
    } while (xpbdWorkerPassesJoined() - before < passes && std::chrono::steady_clock::now() < deadline);
    return xpbdWorkerPassesJoined() - before;
}

enum class Scene { Plain, Busy, Split };

// A 40 x 40 sheet (about 9,000 constraints in a dozen colours of a dozen chunks each).
// Plain: pins and gravity only (the plain-frame path). Busy: everything that happens
// between the constraint passes of a substep. Split: vertex splitting under a ball.
Simulation scene(SolverKind kind, Scene which)
{
    Simulation sim;
    sim.solver.kind = kind;
    sim.solver.substeps = 8;
    sim.solver.iterations = kind == SolverKind::Verlet ? 3 : 1;
    GridSpec g;
    g.across = 40;
    g.down = 40;
    g.orientation = which == Scene::Plain ? GridOrientation::Vertical : GridOrientation::Horizontal;
    g.origin = { -0.5f, 1.f, -0.5f };
    if (which == Scene::Busy)
        g.structuralParams = { 1e-6f, 0.01f, 0.12f }; // tears where the ball pushes through
    Cloth c = makeGrid(g);
    for (int i = 0; i < g.across; i += which == Scene::Plain ? 1 : 13)
        c.particles.setKind(gridIndex(g, i, 0), ParticleKind::Static);
    if (which == Scene::Busy) {
        c.tearMode = TearMode::RemoveConstraint;
        c.tetherStretch = 1.2f;
        c.particles.setKind(gridIndex(g, 20, 39), ParticleKind::Kinematic);
        sim.solver.selfCollision = true;
        sim.world.wind.speed = 4.f;
        sim.world.wind.direction = { 0.3f, 0.f, -1.f };
        sim.world.wind.gustStrength = 0.5f;
        sim.world.wind.gustFrequency = 2.f;
    }
    if (which == Scene::Split) {
        c.tearMode = TearMode::SplitVertex;
        c.constraints.modifyAll([&](DistanceConstraint &k) { k.tearStrain = 0.08f; });
    }
    sim.cloths.push_back(c);
    if (which != Scene::Plain) {
        Collider ball;
        ball.kind = ColliderKind::Sphere;
        ball.baseCenter = ball.center = { 0.1f, 0.55f, 0.f };
        ball.radius = 0.25f;
        ball.motion.amplitude = { 0.f, 0.5f, 0.f };
        ball.motion.frequency = 1.f;
        ball.friction = 0.3f;
        sim.colliders.push_back(ball);
        Collider floor;
        floor.kind = ColliderKind::Plane;
        floor.baseCenter = floor.center = { 0.f, 0.2f, 0.f };
        sim.colliders.push_back(floor);
    }
    return sim;
}

struct Run {
    std::vector<std::uint64_t> hashes; ///< stateHash() after each frame
    std::uint64_t torn = 0; ///< constraints torn and particles split
    std::uint64_t joined = 0; ///< passes the worker took part in
};

Run run(SolverKind kind, Scene which, std::size_t twoThreadConstraints)
{
    const TwoThreadConstraints threshold(twoThreadConstraints);
    Simulation sim = scene(kind, which);
    Run r;
    const std::uint64_t joined = xpbdWorkerPassesJoined();
    for (int frame = 0; frame < 12; ++frame) {
        if (which == Scene::Busy)
            sim.cloths[0].particles.position[20 + 39 * 40].x += 0.02f;
        sim.step();
        r.hashes.push_back(sim.stateHash());
        r.torn += sim.lastStepStats().tornConstraints + sim.lastStepStats().splitParticles;
    }
    r.joined = xpbdWorkerPassesJoined() - joined;
    if (sim.status().blownUp)
        qWarning("blew up: %s", sim.status().message.c_str());
    return r;
}

} // namespace

class TestSolverThreads : public QObject {
    Q_OBJECT

private slots:
    void rangesCoverEveryItemOnce();
    void coloursKeepTheirOrder();
    void eachThreadKeepsItsEndOfEveryGroup();
    void editsAreFoundOnEitherThread();
    void stateIsBitIdenticalOnTwoThreads_data();
    void stateIsBitIdenticalOnTwoThreads();
    void blowUpIsFoundAndRolledBackAlike();
    void automaticChoiceFollowsSizeAndCores();
    void stalledWorkerBacksOffToOneThread();
    void hiccupsKeepTwoThreads();
    void timingChoosesTheFasterCount_data();
    void timingChoosesTheFasterCount();
    void timingIgnoresWarmUpAndPreemptedFrames();
    void slotStepsWithTheTimedChoice();
};

void TestSolverThreads::rangesCoverEveryItemOnce()
{
    XpbdWorker worker;
    std::vector<std::atomic<int>> hits(20'000);
    std::atomic<bool> misaligned { false };
    std::uint32_t count = 1;
    std::size_t passes = 0;
    const std::uint64_t joined = runUntilJoined(50, [&] {
        // Sizes from 1 item to 20,000, grains of 1, 16 and 8.
        count = 1 + (count * 7919u + 13u) % std::uint32_t(hits.size());
        const std::uint32_t grain = passes % 3 == 0 ? 1 : (passes % 3 == 1 ? 16 : 8);
        for (std::uint32_t i = 0; i < count; ++i)
            hits[i].store(0, std::memory_order_relaxed);
        worker.forRanges(count, grain, [&](std::uint32_t begin, std::uint32_t end) {
            if (begin % grain != 0 || end <= begin)
                misaligned = true;
            for (std::uint32_t i = begin; i < end; ++i)
                hits[i].fetch_add(1, std::memory_order_relaxed);
        });
        ++passes;
        for (std::uint32_t i = 0; i < count; ++i)
            QCOMPARE(hits[i].load(std::memory_order_relaxed), 1);
    });
    QVERIFY2(joined >= 50, qPrintable(QString("the worker joined %1 of %2 passes").arg(joined).arg(passes)));
    QVERIFY(!misaligned);
}

void TestSolverThreads::coloursKeepTheirOrder()
{
    // Twelve groups of uneven sizes (one empty, one of a single unit): a run of group g may
    // start only when every unit of the groups before it is done.
    const std::vector<std::uint32_t> bounds { 0, 300, 301, 700, 700, 1100, 1350, 1800, 1810, 2300, 2600, 3000, 3333 };
    std::vector<std::atomic<int>> done(bounds.back());
    struct Context {
        const std::vector<std::uint32_t> &bounds;
        std::vector<std::atomic<int>> &done;
        std::atomic<int> outOfOrder { 0 };
        std::atomic<int> wrongGroup { 0 };
    } context { bounds, done };
    XpbdWorker::Pass pass;
    pass.bounds = bounds.data();
    pass.groups = std::uint32_t(bounds.size() - 1);
    pass.context = &context;
    pass.body = [](const XpbdWorker::Pass &p, std::uint32_t group, std::uint32_t begin, std::uint32_t end) {
        Context &c = *static_cast<Context *>(p.context);
        if (begin < c.bounds[group] || end > c.bounds[group + 1])
            c.wrongGroup.fetch_add(1);
        for (std::uint32_t i = 0; i < c.bounds[group]; ++i)
            if (c.done[i].load(std::memory_order_relaxed) != 1)
                c.outOfOrder.fetch_add(1);
        for (std::uint32_t i = begin; i < end; ++i)
            c.done[i].fetch_add(1, std::memory_order_relaxed);
    };
    XpbdWorker worker;
    const std::uint64_t joined = runUntilJoined(50, [&] {
        for (std::atomic<int> &d : done)
            d.store(0, std::memory_order_relaxed);
        worker.run(pass);
        for (std::atomic<int> &d : done)
            QCOMPARE(d.load(std::memory_order_relaxed), 1);
    });
    QVERIFY(joined >= 50);
    QCOMPARE(context.outOfOrder.load(), 0);
    QCOMPARE(context.wrongGroup.load(), 0);
}

void TestSolverThreads::eachThreadKeepsItsEndOfEveryGroup()
{
    // The caller claims from the front of each group and the worker from the back, so that
    // in a grid's colours (slots in particle order) each thread keeps to its own part of the
    // cloth from colour to colour: within every group, each unit the caller did comes before
    // each unit the worker did.
    const std::vector<std::uint32_t> bounds { 0, 2000, 2001, 5000, 5000, 9000, 9100, 16000 };
    std::vector<std::atomic<int>> byWorker(bounds.back());
    struct Context {
        std::vector<std::atomic<int>> &byWorker;
        std::thread::id caller;
    } context { byWorker, std::this_thread::get_id() };
    XpbdWorker::Pass pass;
    pass.bounds = bounds.data();
    pass.groups = std::uint32_t(bounds.size() - 1);
    pass.context = &context;
    pass.body = [](const XpbdWorker::Pass &p, std::uint32_t, std::uint32_t begin, std::uint32_t end) {
        Context &c = *static_cast<Context *>(p.context);
        const int worker = std::this_thread::get_id() == c.caller ? 0 : 1;
        for (std::uint32_t i = begin; i < end; ++i) {
            // About a hundred nanoseconds a unit, as a chunk of constraints takes: long
            // enough for the worker to join before the caller has claimed everything.
            volatile float work = 1.f;
            for (int k = 0; k < 64; ++k)
                work = work * 1.0001f;
            c.byWorker[i].store(worker, std::memory_order_relaxed);
        }
    };
    XpbdWorker worker;
    std::uint64_t shared = 0; // groups both threads took part in
    const std::uint64_t joined = runUntilJoined(50, [&] {
        for (std::atomic<int> &w : byWorker)
            w.store(-1, std::memory_order_relaxed);
        worker.run(pass);
        for (std::size_t g = 0; g + 1 < bounds.size(); ++g) {
            bool workerSeen = false;
            for (std::uint32_t i = bounds[g]; i < bounds[g + 1]; ++i) {
                const int w = byWorker[i].load(std::memory_order_relaxed);
                QVERIFY(w >= 0);
                QVERIFY2(!(workerSeen && w == 0),
                    qPrintable(QString("group %1: unit %2 by the caller after the worker's").arg(g).arg(i)));
                if (w == 1 && !workerSeen && i > bounds[g])
                    ++shared;
                workerSeen |= w == 1;
            }
        }
    });
    QVERIFY(joined >= 50);
    QVERIFY2(shared > 0, "the two threads never shared a group");
}

void TestSolverThreads::stateIsBitIdenticalOnTwoThreads_data()
{
    QTest::addColumn<int>("solver");
    QTest::addColumn<int>("which");
    for (SolverKind kind : { SolverKind::Xpbd, SolverKind::Verlet }) {
        const char *name = kind == SolverKind::Xpbd ? "xpbd" : "verlet";
        QTest::addRow("%s plain", name) << int(kind) << int(Scene::Plain);
        QTest::addRow("%s tearing, colliders, wind, self-collision, tethers", name) << int(kind) << int(Scene::Busy);
        QTest::addRow("%s vertex splits", name) << int(kind) << int(Scene::Split);
    }
}

void TestSolverThreads::stateIsBitIdenticalOnTwoThreads()
{
    QFETCH(int, solver);
    QFETCH(int, which);
    const auto kind = SolverKind(solver);
    const Run one = run(kind, Scene(which), std::size_t(-1));
    QCOMPARE(one.joined, std::uint64_t(0));
    if (Scene(which) != Scene::Plain)
        QVERIFY2(one.torn > 0, "nothing tore: the scene does not test tearing");
    QVERIFY(one.hashes.front() != one.hashes.back()); // it moved
    // On a loaded machine the worker may not get a core during a whole run (the caller then
    // does every pass itself): run again until it took part.
    std::uint64_t joined = 0;
    for (int attempt = 0; attempt < 20 && joined == 0; ++attempt) {
        const Run two = run(kind, Scene(which), 0);
        joined = two.joined;
        QCOMPARE(two.torn, one.torn);
        for (std::size_t f = 0; f < one.hashes.size(); ++f)
            QVERIFY2(two.hashes[f] == one.hashes[f], qPrintable(QString("frame %1 differs").arg(f)));
    }
    if (std::thread::hardware_concurrency() >= 2)
        QVERIFY2(joined > 0, "the worker never took part");
}

void TestSolverThreads::blowUpIsFoundAndRolledBackAlike()
{
    // A speed limit the falling sheet passes within a few frames: the check that finds it
    // and the snapshot it rolls back to are shared with the worker too. The message names
    // the lowest particle index over the limit on either thread count.
    const auto blowUp = [](std::size_t twoThreadConstraints) {
        const TwoThreadConstraints threshold(twoThreadConstraints);
        Simulation sim = scene(SolverKind::Xpbd, Scene::Split); // falls onto the ball
        sim.solver.maxSpeed = 0.4f; // m/s
        for (int frame = 0; frame < 30 && !sim.status().blownUp; ++frame)
            sim.step();
        return std::make_pair(sim.status().message, sim.stateHash());
    };
    const auto one = blowUp(std::size_t(-1));
    const auto two = blowUp(0);
    QVERIFY2(one.first.find("exceeds solver.maxSpeed") != std::string::npos, one.first.c_str());
    QCOMPARE(two.first, one.first);
    QCOMPARE(two.second, one.second);
}

void TestSolverThreads::editsAreFoundOnEitherThread()
{
    // The per-frame check of the particles and triangles is shared with the worker (the
    // caller takes the first of them, the worker the last): an edit made between frames
    // must be refused wherever it falls, at either end and in the middle, with the message
    // naming it as on one thread.
    const TwoThreadConstraints threshold(0);
    GridSpec g;
    g.across = 100;
    g.down = 100;
    Simulation sim;
    sim.cloths.push_back(makeGrid(g));
    sim.step();
    QVERIFY2(!sim.status().blownUp, sim.status().message.c_str());
    const auto particles = std::uint32_t(sim.cloths[0].particles.size());
    const auto triangles = std::uint32_t(sim.cloths[0].triangles.size());
    const struct {
        std::function<void(Cloth &)> edit;
        std::string message;
    } edits[] = {
        { [](Cloth &c) { c.particles.position[0].y = std::numeric_limits<float>::quiet_NaN(); },
            "particle 0:" },
        { [&](Cloth &c) { c.particles.mass[particles / 2] = 0.f; },
            "particle " + std::to_string(particles / 2) + ": mass 0" },
        { [&](Cloth &c) { c.particles.velocity[particles - 1].x = std::numeric_limits<float>::infinity(); },
            "particle " + std::to_string(particles - 1) + ":" },
        { [&](Cloth &c) { c.triangles[0].v[1] = particles; }, "triangle 0: particle " },
        { [&](Cloth &c) { c.triangles[triangles * 3 / 4].v[2] = particles + 7; },
            "triangle " + std::to_string(triangles * 3 / 4) + ": particle " },
        { [&](Cloth &c) { c.triangles[triangles - 1].v[0] = ~0u; },
            "triangle " + std::to_string(triangles - 1) + ": particle " },
    };
    const std::uint64_t joined = runUntilJoined(1, [&] {
        for (const auto &e : edits) {
            test::checkEditRefused(sim, e.edit, e.message);
            if (QTest::currentTestFailed())
                return;
        }
    });
    if (std::thread::hardware_concurrency() >= 2)
        QVERIFY2(joined > 0, "the worker never took part");
}

void TestSolverThreads::automaticChoiceFollowsSizeAndCores()
{
    QCOMPARE(xpbdTwoThreadConstraints(), kAutomaticTwoThreadConstraints);
    const bool twoCores = std::thread::hardware_concurrency() >= 2;
    XpbdWorkerSlot slot;
    QVERIFY(slot.forCloth(kAutomaticTwoThreadConstraints - 1) == nullptr);
    QCOMPARE(slot.forCloth(kAutomaticTwoThreadConstraints) != nullptr, twoCores);
    // With every core held by other threads there is none to spare.
    const int cores = int(std::thread::hardware_concurrency());
    for (int i = 0; i < cores; ++i)
        holdSolverCore();
    QVERIFY(slot.forCloth(kAutomaticTwoThreadConstraints) == nullptr);
    for (int i = 0; i < cores; ++i)
        releaseSolverCore();
    QCOMPARE(slot.forCloth(kAutomaticTwoThreadConstraints) != nullptr, twoCores);
    // The threshold decides for the benchmark and the tests.
    {
        const TwoThreadConstraints never(std::size_t(-1));
        QVERIFY(slot.forCloth(std::size_t(-2)) == nullptr);
    }
    const TwoThreadConstraints always(0);
    for (int i = 0; i < cores; ++i)
        holdSolverCore();
    QVERIFY(slot.forCloth(1) != nullptr); // whatever the cores
    for (int i = 0; i < cores; ++i)
        releaseSolverCore();
}

void TestSolverThreads::stalledWorkerBacksOffToOneThread()
{
    // The worker sleeps 50 ms in every run it takes (as if descheduled on a loaded machine):
    // the caller waits for it most of the pass. One such frame alone is a hiccup and keeps
    // two threads; after a second one the next frames keep to one thread, and after
    // kBackOffFrames frames the cloth tries two again; a try whose first frame stalls backs
    // off at once, twice as long.
    if (std::thread::hardware_concurrency() < 2)
        QSKIP("needs a second core for the automatic choice");
    const TwoThreadConstraints threshold(1000);
    XpbdWorkerSlot slot;
    QVERIFY(slot.forCloth(1000) != nullptr);
    const std::thread::id caller = std::this_thread::get_id();
    const auto stall = [&] {
        std::atomic<bool> workerRan { false };
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
        while (!workerRan && std::chrono::steady_clock::now() < deadline) {
            // Only the pass the worker joins counts: the tries before it, where the caller
            // did everything alone, would otherwise dilute the stall on a loaded machine.
            slot.worker->takeWaits();
            // The worker may join a pass only after the caller has claimed all of it.
            slot.worker->forRanges(1 << 16, 16, [&](std::uint32_t, std::uint32_t) {
                if (std::this_thread::get_id() == caller)
                    return;
                workerRan = true;
                std::this_thread::sleep_for(std::chrono::milliseconds(50));
            });
        }
        return workerRan.load();
    };

    static_assert(XpbdWorkerSlot::kStalledFramesToBackOff == 2);
    QVERIFY(stall());
    slot.beginFrame(1000);
    QVERIFY(slot.forCloth(1000) != nullptr);
    for (int backOff : { XpbdWorkerSlot::kBackOffFrames, 2 * XpbdWorkerSlot::kBackOffFrames }) {
        QVERIFY(stall());
        for (int frame = 0; frame < backOff; ++frame) {
            slot.beginFrame(1000);
            QVERIFY2(slot.forCloth(1000) == nullptr, qPrintable(QString("frame %1 of %2").arg(frame).arg(backOff)));
        }
        slot.beginFrame(1000);
        QVERIFY(slot.forCloth(1000) != nullptr);
    }
}

void TestSolverThreads::hiccupsKeepTwoThreads()
{
    // Frames as the worker's waits describe them (XpbdWorkerSlot::noteWaits): 10 ms of
    // passes, of which a stalled frame waited 2 ms for the worker (20 %, over the 15 % that
    // makes a frame stalled), a good one nothing.
    if (std::thread::hardware_concurrency() < 2)
        QSKIP("needs a second core for the automatic choice");
    const TwoThreadConstraints threshold(1000);
    const XpbdWorker::Waits good { 0.010, 0.0 }, stalled { 0.010, 0.002 }, idle {};
    const auto twoThreadsAfter = [](std::initializer_list<XpbdWorker::Waits> frames) {
        XpbdWorkerSlot slot;
        for (const XpbdWorker::Waits &w : frames)
            slot.noteWaits(w);
        return slot.forCloth(1000) != nullptr;
    };
    // One stalled frame in every four on two threads: the hypervisor's hiccups.
    QVERIFY(twoThreadsAfter({ stalled, good, good, good, stalled, good, good, good, stalled }));
    // Frames without a pass on two threads neither count nor clear a stall.
    QVERIFY(twoThreadsAfter({ stalled, idle, idle, idle, good }));
    QVERIFY(!twoThreadsAfter({ stalled, idle, idle, idle, stalled }));
    // Two stalls within four frames back off, whether in a row or not.
    QVERIFY(!twoThreadsAfter({ stalled, stalled }));
    QVERIFY(!twoThreadsAfter({ good, stalled, good, stalled }));
    QVERIFY(!twoThreadsAfter({ stalled, good, good, stalled }));
    // Just under the share is not a stall.
    QVERIFY(twoThreadsAfter({ { 0.010, 0.0014 }, { 0.010, 0.0014 }, { 0.010, 0.0014 } }));

    // After a back-off, a try whose first frame stalls backs off again at once, twice as
    // long; the back-off comes back to its first length only after kStallWindow frames
    // without a stall.
    XpbdWorkerSlot slot;
    slot.noteWaits(stalled);
    slot.noteWaits(stalled);
    QCOMPARE(slot.backOff, XpbdWorkerSlot::kBackOffFrames);
    slot.backOff = 0; // the back-off's frames on one thread, skipped
    slot.noteWaits(stalled);
    QCOMPARE(slot.backOff, 2 * XpbdWorkerSlot::kBackOffFrames);
    slot.backOff = 0;
    for (int i = 0; i < XpbdWorkerSlot::kStallWindow - 1; ++i)
        slot.noteWaits(good);
    slot.noteWaits(stalled); // the try's stall has left the window: no back-off yet
    QCOMPARE(slot.backOff, 0);
    QVERIFY(slot.forCloth(1000) != nullptr);
    slot.noteWaits(stalled);
    QCOMPARE(slot.backOff, 4 * XpbdWorkerSlot::kBackOffFrames);
    slot.backOff = 0;
    for (int i = 0; i < XpbdWorkerSlot::kStallWindow; ++i)
        slot.noteWaits(good);
    slot.noteWaits(stalled);
    QCOMPARE(slot.backOff, 0);
    slot.noteWaits(stalled);
    QCOMPARE(slot.backOff, XpbdWorkerSlot::kBackOffFrames);
}

namespace {

// Feeds `choice` frames timed by `cost(twoThreads)` until it has settled; returns the frames.
template <typename Cost> int settle(ThreadChoice &choice, Cost cost)
{
    int frames = 0;
    while (!choice.settled() && frames < 100) {
        choice.frameTimed(cost(choice.twoThreads()));
        ++frames;
    }
    return frames;
}

} // namespace

void TestSolverThreads::timingChoosesTheFasterCount_data()
{
    QTest::addColumn<double>("one");
    QTest::addColumn<double>("two");
    QTest::addColumn<bool>("expectTwo");
    // Two threads won within ThreadChoice::kCloseRatio: tried again as often as first.
    QTest::addColumn<bool>("close");
    QTest::newRow("two faster") << 10e-3 << 5.5e-3 << true << false;
    QTest::newRow("one faster") << 0.4e-3 << 0.6e-3 << false << false;
    QTest::newRow("two a little faster") << 1e-3 << 0.95e-3 << true << true;
    QTest::newRow("two faster by a little more") << 1e-3 << 0.89e-3 << true << false;
    QTest::newRow("one a little faster") << 1e-3 << 1.08e-3 << false << false;
    QTest::newRow("a tie keeps a core free") << 1e-3 << 1e-3 << false << false;
}

void TestSolverThreads::timingChoosesTheFasterCount()
{
    QFETCH(double, one);
    QFETCH(double, two);
    QFETCH(bool, expectTwo);
    QFETCH(bool, close);
    ThreadChoice choice;
    const auto cost = [&](bool twoThreads) { return twoThreads ? two : one; };
    // A trial: kTrialFrames counted frames of each count, after one uncounted frame each.
    QCOMPARE(settle(choice, cost), 2 * (ThreadChoice::kTrialFrames + 1));
    QCOMPARE(choice.twoThreads(), expectTwo);
    // It keeps that count for the settle period, then tries again; a trial that confirms it
    // doubles the period, up to the cap, unless two threads won it by little.
    int period = ThreadChoice::kFirstSettleFrames;
    for (int trial = 0; trial < 8; ++trial) {
        QCOMPARE(choice.settleFrames(), period);
        for (int frame = 0; frame < period; ++frame) {
            QCOMPARE(choice.twoThreads(), expectTwo);
            choice.frameTimed(cost(choice.twoThreads()));
        }
        QVERIFY(!choice.settled());
        QCOMPARE(choice.twoThreads(), true); // a trial starts on two threads
        QCOMPARE(settle(choice, cost), 2 * (ThreadChoice::kTrialFrames + 1));
        QCOMPARE(choice.twoThreads(), expectTwo);
        if (!close)
            period = std::min(2 * period, ThreadChoice::kMaxSettleFrames);
    }
    QCOMPARE(
        choice.settleFrames(), close ? ThreadChoice::kFirstSettleFrames : ThreadChoice::kMaxSettleFrames);
    // The machine changes (another process takes the second core): the next trial picks the
    // other count and the period starts again from the first.
    for (int frame = 0; frame < choice.settleFrames(); ++frame)
        choice.frameTimed(cost(choice.twoThreads()));
    const auto changed = [&](bool twoThreads) { return twoThreads == expectTwo ? 3 * (one + two) : one; };
    settle(choice, changed);
    QCOMPARE(choice.twoThreads(), !expectTwo);
    QCOMPARE(choice.settleFrames(), ThreadChoice::kFirstSettleFrames);
}

void TestSolverThreads::timingIgnoresWarmUpAndPreemptedFrames()
{
    // Two threads are faster (2 ms against 3 ms), but the first frame on two threads starts
    // the worker (50 ms) and one frame on two threads is preempted (40 ms): neither decides.
    ThreadChoice choice;
    int twoFrames = 0;
    settle(choice, [&](bool two) {
        if (!two)
            return 3e-3;
        ++twoFrames;
        return twoFrames == 1 ? 50e-3 : twoFrames == 3 ? 40e-3 : 2e-3;
    });
    QVERIFY(choice.twoThreads());
    // One thread faster, but its warm-up frame is the fastest of all: not counted.
    ThreadChoice other;
    int oneFrames = 0;
    settle(other, [&](bool two) {
        if (two)
            return 2e-3;
        ++oneFrames;
        return oneFrames == 1 ? 0.1e-3 : 2.5e-3;
    });
    QVERIFY(other.twoThreads());
}

void TestSolverThreads::slotStepsWithTheTimedChoice()
{
    // The slot follows the choice for a cloth the rules let use two threads, times it again
    // when the cloth's size changes by more than an eighth, and keeps it through small
    // changes (a cloth that tears a little at a time).
    if (std::thread::hardware_concurrency() < 2)
        QSKIP("needs a second core for the automatic choice");
    const TwoThreadConstraints threshold(1000);
    XpbdWorkerSlot slot;
    const auto frame = [&](std::size_t constraints, double one, double two) {
        slot.beginFrame(constraints);
        const bool shared = slot.forCloth(constraints) != nullptr;
        slot.endFrame(shared ? two : one);
        return shared;
    };
    int frames = 0;
    while (!slot.choice.settled() && frames++ < 100)
        frame(4000, 1e-3, 2e-3);
    QVERIFY(slot.choice.settled());
    for (int i = 0; i < 10; ++i)
        QVERIFY(!frame(4000 - std::size_t(i), 1e-3, 2e-3)); // one thread was faster
    QVERIFY(frame(8000, 1e-3, 2e-3)); // a new size starts a trial, on two threads
    // Below the threshold the choice is not consulted nor timed.
    XpbdWorkerSlot small;
    small.beginFrame(999);
    QVERIFY(small.forCloth(999) == nullptr);
    small.endFrame(1.0);
    QVERIFY(!small.choice.settled());
    QCOMPARE(small.choice.twoThreads(), true);
}

QTEST_GUILESS_MAIN(TestSolverThreads)
#include "tst_solverthreads.moc"
