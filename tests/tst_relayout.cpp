// Topology changes without a full re-layout (docs/solvers.md, "XPBD constraint layout"): after
// a cut, a tear or a vertex split the constraints keep their colours (stored in their
// records) and the XPBD streams laid out before are fitted to the new constraint list. The
// layout is the solver's business only: a copy of the cloth given to a new simulation, whose
// streams are laid out from scratch, must step on bit for bit like the simulation that ran
// through the events. A fresh cloth is coloured by families, then greedily (freshColours).
#include "edit/clothedit.h"
#include "edit/cut.h"
#include "sanitizers.h"
#include "sim/builders.h"
#include "sim/simulation.h"
#include "solvercache.h"
#include "xpbdbatch.h"
#include "xpbdworker.h"

#include <QTest>

#include <algorithm>
#include <bit>
#include <cstring>
#include <map>
#include <numeric>
#include <random>

using namespace drape;
using namespace drape::detail;

namespace {

constexpr std::uint32_t kNone = ~std::uint32_t(0);

// Particles along each side of the sheet, and frames stepped: under the sanitizers the copies
// are made at frames 7, 17, 27 and 37, the four the test asks for.
constexpr int kSide = testing::kSanitizedBuild ? 14 : 24;
constexpr int kFrames = testing::kSanitizedBuild ? 40 : 60;

// The greedy step: constraint k takes the lowest colour used at neither of its particles
// (`used`, a bit per colour and particle), 63 when 0-62 are all taken.
int takeLowestFree(std::vector<std::uint64_t> &used, const DistanceConstraint &k)
{
    int c = 0;
    while (c < 63 && ((used[k.a] | used[k.b]) >> c & 1u))
        ++c;
    used[k.a] |= std::uint64_t(1) << c;
    used[k.b] |= std::uint64_t(1) << c;
    return c;
}

// The greedy colouring, written out on its own: in constraint order each constraint takes
// the lowest colour used at neither of its particles.
std::vector<std::uint8_t> greedyColours(const Cloth &cloth)
{
    std::vector<std::uint64_t> used(cloth.particles.size(), 0);
    std::vector<std::uint8_t> out;
    for (const DistanceConstraint &k : cloth.constraints)
        out.push_back(std::uint8_t(takeLowestFree(used, k)));
    return out;
}

// The colouring of a cloth none of whose constraints has a colour yet, written out on its
// own: when more than 64 constraints are to be coloured, the members of the (at most 8)
// largest families of at least max(64, m / 16) constraints (one kind, one index step d),
// numbered f = 0, 1, ... largest first (equal sizes by kind, then step), take colour
// 2 f + floor(lo / d) mod 2 in constraint order where it is free at both ends; the rest are
// coloured greedily after them.
std::vector<std::uint8_t> freshColours(const Cloth &cloth)
{
    const std::size_t m = cloth.constraints.size();
    if (m <= 64)
        return greedyColours(cloth);
    const auto familyOf = [](const DistanceConstraint &k) {
        const std::uint32_t lo = std::min(k.a, k.b);
        return std::pair<int, std::uint32_t>(int(k.kind), std::max(k.a, k.b) - lo);
    };
    std::map<std::pair<int, std::uint32_t>, std::size_t> sizes;
    for (const DistanceConstraint &k : cloth.constraints)
        if (k.a != k.b)
            ++sizes[familyOf(k)];
    std::vector<std::pair<std::size_t, std::pair<int, std::uint32_t>>> bySize;
    for (const auto &[family, size] : sizes)
        if (size >= std::max<std::size_t>(64, m / 16))
            bySize.push_back({ size, family });
    std::stable_sort(bySize.begin(), bySize.end(), [](const auto &x, const auto &y) { return x.first > y.first; });
    std::map<std::pair<int, std::uint32_t>, int> number;
    for (std::size_t i = 0; i < bySize.size() && i < 8; ++i)
        number[bySize[i].second] = int(i);
    std::vector<std::uint64_t> used(cloth.particles.size(), 0);
    std::vector<int> out(m, -1);
    for (std::size_t c = 0; c < m; ++c) {
        const DistanceConstraint &k = cloth.constraints[c];
        const auto it = k.a != k.b ? number.find(familyOf(k)) : number.end();
        if (it == number.end())
            continue;
        const std::uint32_t lo = std::min(k.a, k.b);
        const int colour = 2 * it->second + int(lo / it->first.second % 2);
        if (((used[k.a] | used[k.b]) >> colour & 1u) == 0) {
            used[k.a] |= std::uint64_t(1) << colour;
            used[k.b] |= std::uint64_t(1) << colour;
            out[c] = colour;
        }
    }
    for (std::size_t c = 0; c < m; ++c)
        if (out[c] < 0)
            out[c] = takeLowestFree(used, cloth.constraints[c]);
    return std::vector<std::uint8_t>(out.begin(), out.end());
}

std::vector<std::uint8_t> storedColours(const Cloth &cloth)
{
    std::vector<std::uint8_t> out;
    for (const DistanceConstraint &k : cloth.constraints)
        out.push_back(k.colour);
    return out;
}

// A 1 m × 1 m grid with structural, shear and bend constraints, not tearable.
Cloth grid(int across, int down)
{
    GridSpec g;
    g.across = across;
    g.down = down;
    return makeGrid(g);
}

// A vertical sheet pinned at its top corners, tearable in `mode`; the middle of its bottom
// row is grabbed (kinematic), so that pulling it tears the sheet.
Simulation sheet(TearMode mode, SolverKind solver = SolverKind::Xpbd)
{
    GridSpec g;
    g.across = kSide;
    g.down = kSide;
    g.structuralParams = { 1e-6f, 0.02f, mode == TearMode::None ? kNeverTear : 0.6f };
    g.shearParams = { 1e-5f, 0.f, mode == TearMode::None ? kNeverTear : 0.8f };
    Simulation sim;
    sim.solver.kind = solver;
    sim.solver.substeps = 8;
    sim.solver.iterations = 2;
    Cloth cloth = makeGrid(g);
    cloth.tearMode = mode;
    cloth.particles.setKind(gridIndex(g, 0, 0), ParticleKind::Static);
    cloth.particles.setKind(gridIndex(g, kSide - 1, 0), ParticleKind::Static);
    cloth.particles.setKind(gridIndex(g, kSide / 2, kSide - 1), ParticleKind::Kinematic);
    sim.cloths.push_back(std::move(cloth));
    return sim;
}

std::uint32_t grabbed()
{
    return std::uint32_t((kSide - 1) * kSide + kSide / 2);
}

// One scripted event, applied between frames (the same to every simulation it is given to):
// a knife segment across the sheet, constraints erased at random positions of the list, the
// grabbed particle pulled down, or constraints at random positions of the list retuned (their
// records written directly, with nothing told to the solver).
struct Event {
    enum Kind { Cut, Erase, Pull, Retune } kind = Cut;
    Vec3 p0, p1; ///< m, the knife segment (Cut)
    std::vector<float> at; ///< positions in [0, 1) of the constraint list (Erase, Retune)
    float pull = 0.f; ///< m, downwards (Pull)
    float scale = 1.f; ///< factor on compliance, damping and rest length (Retune)
};

std::vector<std::vector<Event>> script(std::uint32_t seed, bool cuts, bool pulls, bool retunes = false)
{
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> u(0.f, 1.f);
    std::vector<std::vector<Event>> frames(kFrames);
    for (int f = 1; f < kFrames; ++f) {
        if (cuts && u(rng) < 0.2f) {
            Event e;
            e.kind = Event::Cut;
            // Across the sheet (x in [-0.5, 0.5], y in [0.5, 1.5] at rest), somewhere.
            e.p0 = { -0.6f + 0.5f * u(rng), 0.6f + 0.8f * u(rng), 0.f };
            e.p1 = { e.p0.x + 0.2f + 0.4f * u(rng), e.p0.y + 0.3f * (u(rng) - 0.5f), 0.f };
            frames[std::size_t(f)].push_back(e);
        }
        if (cuts && u(rng) < 0.15f) {
            Event e;
            e.kind = Event::Erase;
            for (int i = 1 + int(u(rng) * 12.f); i > 0; --i)
                e.at.push_back(u(rng));
            frames[std::size_t(f)].push_back(e);
        }
        if (pulls && f % 4 == 0) {
            Event e;
            e.kind = Event::Pull;
            e.pull = 0.03f + 0.05f * u(rng);
            frames[std::size_t(f)].push_back(e);
        }
        if (retunes && u(rng) < 0.3f) {
            Event e;
            e.kind = Event::Retune;
            for (int i = 1 + int(u(rng) * 3.f); i > 0; --i)
                e.at.push_back(u(rng));
            e.scale = 0.9f + 0.2f * u(rng);
            frames[std::size_t(f)].push_back(e);
        }
    }
    return frames;
}

void apply(Simulation &sim, const Event &e)
{
    Cloth &cloth = sim.cloths[0];
    switch (e.kind) {
    case Event::Cut: {
        // The knife sweeps a thick segment through the sheet's plane wherever it hangs now.
        const ClothEditResult cut = makeCutSegment(cloth, e.p0 + Vec3 { 0.f, 0.f, -1.f }, e.p1 + Vec3 { 0.f, 0.f, 1.f }, 0.04f);
        QVERIFY2(cut.ok(), cut.error.c_str());
        QCOMPARE(QString::fromStdString(drape::apply(cloth, cut.edit)), QString());
        break;
    }
    case Event::Erase: {
        std::vector<std::uint32_t> gone;
        for (float a : e.at)
            gone.push_back(std::uint32_t(a * float(cloth.constraints.size())));
        std::sort(gone.begin(), gone.end());
        gone.erase(std::unique(gone.begin(), gone.end()), gone.end());
        std::size_t c = 0;
        cloth.constraints.eraseIf(
            [&](const DistanceConstraint &) { return std::binary_search(gone.begin(), gone.end(), c++); });
        cloth.touchTopology();
        break;
    }
    case Event::Pull:
        cloth.particles.position[grabbed()].y -= e.pull;
        break;
    case Event::Retune:
        for (float a : e.at) {
            cloth.constraints.modify(
                std::size_t(a * float(cloth.constraints.size())), [&](DistanceConstraint &k) {
                    k.compliance = k.compliance * e.scale + 1e-7f;
                    k.damping = k.damping * e.scale + 0.01f;
                    k.restLength *= e.scale;
                });
        }
        break;
    }
}

// A simulation in the same state with no solver history: the settings, cloths and colliders
// copied into a new simulation, which lays its streams out from the copied constraints.
Simulation freshCopy(const Simulation &sim, bool forgetColours = false)
{
    Simulation copy;
    copy.world = sim.world;
    copy.solver = sim.solver;
    copy.cloths = sim.cloths;
    copy.colliders = sim.colliders;
    if (forgetColours)
        copy.cloths[0].constraints.modifyAll(
            [&](DistanceConstraint &k) { k.colour = DistanceConstraint::kUncoloured; });
    copy.resumeAt(sim.time(), sim.frame());
    return copy;
}

template <typename T> bool sameBits(const std::vector<T> &a, const std::vector<T> &b)
{
    return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}

bool sameState(const Simulation &a, const Simulation &b)
{
    const Particles &p = a.cloths[0].particles, &q = b.cloths[0].particles;
    return a.stateHash() == b.stateHash() && sameBits(p.position, q.position) && sameBits(p.previous, q.previous)
        && sameBits(p.velocity, q.velocity) && a.cloths[0].constraints == b.cloths[0].constraints
        && storedColours(a.cloths[0]) == storedColours(b.cloths[0]);
}

// What the streams must be for the cloth, however they were made: every constraint in one
// slot of its own colour with its own particles, padding moving nothing, no particle in two
// windows of a colour, and no slot gathering a particle that a window of its colour holds.
void checkStreams(const Cloth &cloth, const XpbdBatches &s)
{
    const std::size_t n = cloth.particles.size();
    std::vector<int> seen(cloth.constraints.size(), 0);
    for (std::size_t c = 0; c + 1 < s.start.size(); ++c) {
        std::vector<int> written(n, 0);
        for (std::uint32_t k0 = s.start[c]; k0 < s.start[c + 1]; k0 += XpbdBatches::kLanes) {
            const std::size_t block = k0 / XpbdBatches::kLanes;
            const bool window = s.blockFetch[block] != XpbdBatches::Gather;
            for (std::uint32_t k = k0; k < k0 + XpbdBatches::kLanes; ++k) {
                const std::uint32_t src = s.source[k];
                if (src == kNone) {
                    QVERIFY(std::isnan(s.spanX[k]));
                    continue;
                }
                QVERIFY(src < cloth.constraints.size());
                ++seen[src];
                const DistanceConstraint &dc = cloth.constraints[src];
                QCOMPARE(std::size_t(dc.colour), c);
                QCOMPARE(s.ends(k).a, dc.a);
                QCOMPARE(s.ends(k).b, dc.b);
                if (!window && s.conflictFree[c]) {
                    QCOMPARE(written[dc.a]++, 0);
                    QCOMPARE(written[dc.b]++, 0);
                }
            }
            if (!window)
                continue;
            for (int w = 0; w < 2; ++w) {
                const std::uint32_t base = w ? s.windowSecond(block) : s.windowFirst(block);
                QVERIFY(base + XpbdBatches::kLanes <= n);
                for (std::uint32_t q = base; q < base + XpbdBatches::kLanes; ++q)
                    QCOMPARE(written[q]++, 0);
            }
        }
    }
    for (int v : seen)
        QCOMPARE(v, 1);
}

} // namespace

class TestRelayout : public QObject {
    Q_OBJECT

private slots:
    void freshClothIsColouredByFamilies()
    {
        Cloth cloth = grid(17, 11);
        ClothSolverCache cache;
        cache.ensure(cloth);
        QCOMPARE(storedColours(cloth), freshColours(cloth));
        // Six families (horizontal, vertical, two diagonals, two bend spans): twelve colours.
        const std::vector<std::uint8_t> colours = storedColours(cloth);
        QCOMPARE(*std::max_element(colours.begin(), colours.end()), std::uint8_t(11));
        // Holes made before the solver saw the cloth leave the survivors grouped as on the
        // whole sheet: the same colours, up to names (holes may swap the numbers of two
        // families of nearly equal size), where greedy colouring scatters them.
        for (std::uint32_t seed : { 1u, 2u, 3u }) {
            Cloth holes = grid(17, 11);
            std::mt19937 rng(seed);
            holes.constraints.eraseIf([&rng](const DistanceConstraint &) { return rng() % 10 == 0; });
            ClothSolverCache holesCache;
            holesCache.ensure(holes);
            QCOMPARE(storedColours(holes), freshColours(holes));
            QVERIFY(storedColours(holes) != greedyColours(holes));
            int renamed[64], named[64];
            std::fill(std::begin(renamed), std::end(renamed), -1);
            std::fill(std::begin(named), std::end(named), -1);
            for (const DistanceConstraint &k : holes.constraints) {
                const auto whole = std::find(cloth.constraints.begin(), cloth.constraints.end(), k);
                QVERIFY(whole != cloth.constraints.end());
                if (renamed[whole->colour] < 0 && named[k.colour] < 0) {
                    renamed[whole->colour] = k.colour;
                    named[k.colour] = whole->colour;
                }
                QCOMPARE(renamed[whole->colour], int(k.colour));
                QCOMPARE(named[k.colour], int(whole->colour));
            }
            checkStreams(holes, holesCache.xpbd);
        }
        // An irregular cloth (no family holds a sixteenth of the constraints) is greedy.
        Cloth scattered = grid(17, 11);
        std::vector<std::uint32_t> renumber(scattered.particles.size());
        std::iota(renumber.begin(), renumber.end(), 0u);
        std::shuffle(renumber.begin(), renumber.end(), std::mt19937(9));
        scattered.constraints.modifyAll([&](DistanceConstraint &k) {
            k.a = renumber[k.a];
            k.b = renumber[k.b];
        });
        ClothSolverCache scatteredCache;
        scatteredCache.ensure(scattered);
        QCOMPARE(storedColours(scattered), greedyColours(scattered));
        QCOMPARE(storedColours(scattered), freshColours(scattered));
        checkStreams(scattered, scatteredCache.xpbd);
        QCOMPARE(cache.layouts, std::uint64_t(1));
        checkStreams(cloth, cache.xpbd);
        // A particle with more than 63 constraints puts the rest in the catch-all colour 63.
        Cloth star;
        for (int i = 0; i < 80; ++i)
            star.particles.add({ float(i), 0.f, 0.f }, 1.f);
        for (std::uint32_t i = 1; i < 80; ++i)
            star.constraints.push_back({ .a = 0, .b = i, .restLength = float(i) });
        ClothSolverCache starCache;
        starCache.ensure(star);
        QCOMPARE(storedColours(star), greedyColours(star));
        QCOMPARE(star.constraints.back().colour, std::uint8_t(63));
        checkStreams(star, starCache.xpbd);
        // The catch-all colour is solved in constraint order: a removal there lays out afresh.
        star.constraints.erase(star.constraints.begin() + 5);
        star.touchTopology();
        starCache.ensure(star);
        QCOMPARE(starCache.layouts, std::uint64_t(2));
        QCOMPARE(starCache.remaps, std::uint64_t(0));
        checkStreams(star, starCache.xpbd);
    }

    // A cut remaps streams whose α̃ the refresh kept as class bytes (a grid holds three
    // values of it): the padding it leaves takes a class, and the refresh after it classes
    // the slots again, each with its record's value.
    void cutKeepsTheAlphaClasses()
    {
        Cloth cloth = grid(30, 30);
        ClothSolverCache cache;
        cache.ensure(cloth);
        const float dt = 1.f / 600.f;
        const float invDt = 1.f / dt;
        QVERIFY(refreshXpbdBatches(cloth, dt, cache.xpbd));
        QVERIFY(cache.xpbd.alphaClassed);
        const ClothEditResult cut = makeCutSegment(cloth, { -0.4f, 1.f, -1.f }, { 0.3f, 1.1f, 1.f }, 0.05f);
        QVERIFY(cut.ok() && !cut.edit.removedConstraints.empty());
        QCOMPARE(QString::fromStdString(drape::apply(cloth, cut.edit)), QString());
        cache.ensure(cloth);
        QCOMPARE(cache.remaps, std::uint64_t(1));
        QVERIFY(cache.xpbd.alphaClassed);
        QCOMPARE(cache.xpbd.alphaClass.size(), cache.xpbd.slotCount());
        QVERIFY(refreshXpbdBatches(cloth, dt, cache.xpbd));
        QVERIFY(cache.xpbd.alphaClassed);
        for (std::size_t k = 0; k < cache.xpbd.slotCount(); ++k) {
            if (cache.xpbd.source[k] != ~std::uint32_t(0))
                QCOMPARE(cache.xpbd.alphaOf(k),
                    cloth.constraints[cache.xpbd.source[k]].compliance * (invDt * invDt));
        }
        checkStreams(cloth, cache.xpbd);
    }

    void cutIsFittedIntoTheStreams()
    {
        Cloth cloth = grid(30, 30);
        ClothSolverCache cache;
        cache.ensure(cloth);
        const std::vector<std::uint8_t> before = storedColours(cloth);
        const std::size_t slotsBefore = cache.xpbd.slotCount();
        const ClothEditResult cut = makeCutSegment(cloth, { -0.4f, 1.f, -1.f }, { 0.3f, 1.1f, 1.f }, 0.05f);
        QVERIFY(cut.ok() && !cut.edit.removedConstraints.empty());
        QCOMPARE(QString::fromStdString(drape::apply(cloth, cut.edit)), QString());
        cache.ensure(cloth);
        QCOMPARE(cache.remaps, std::uint64_t(1));
        QCOMPARE(cache.layouts, std::uint64_t(1));
        QCOMPARE(cache.xpbd.slotCount(), slotsBefore);
        checkStreams(cloth, cache.xpbd);
        // The survivors kept their colours.
        const std::vector<std::uint32_t> map = constraintIndexMap(cut.edit, before.size());
        for (std::size_t i = 0; i < map.size(); ++i)
            if (map[i] != kRemovedIndex)
                QCOMPARE(cloth.constraints[map[i]].colour, before[i]);

        // A constraint added (sewing) is coloured after the rest, which keep theirs, and takes
        // a padding lane of its colour.
        DistanceConstraint sewn { .a = 0, .b = 899, .restLength = 1.f, .kind = ConstraintKind::User };
        cloth.constraints.push_back(sewn);
        cloth.touchTopology();
        const std::vector<std::uint8_t> kept = storedColours(cloth);
        cache.ensure(cloth);
        QCOMPARE(cache.remaps, std::uint64_t(2));
        QCOMPARE(cache.layouts, std::uint64_t(1));
        QVERIFY(std::equal(kept.begin(), kept.end() - 1, storedColours(cloth).begin()));
        QVERIFY(cloth.constraints.back().colour < 63);
        checkStreams(cloth, cache.xpbd);

        // Many added at once (the cut undone) are laid out from scratch.
        cloth.constraints.pop_back();
        cloth.touchTopology();
        cache.ensure(cloth);
        QCOMPARE(cache.remaps, std::uint64_t(3));
        QVERIFY(cut.edit.removedConstraints.size() > 64);
        QCOMPARE(QString::fromStdString(revert(cloth, cut.edit)), QString());
        cache.ensure(cloth);
        QCOMPARE(cache.layouts, std::uint64_t(2));
        checkStreams(cloth, cache.xpbd);
    }

    void addedConstraintsAreFittedIntoTheStreams()
    {
        // Sewn constraints between random particles: two interior particles of a grid use all
        // 12 colours, so most take a 13th colour appended after the others (and the last
        // colour grows in place); one whose colour has no padding lane left is laid out
        // afresh. Windows of their colour that hold the sewn particles as idle ones must
        // gather, or they would write them back over their corrections. Either way a fresh
        // copy steps to the same bits.
        Simulation sim = sheet(TearMode::None);
        sim.run(3);
        std::mt19937 rng(5);
        const auto n = std::uint32_t(sim.cloths[0].particles.size());
        std::uint32_t remaps = 0, layouts = 0;
        for (int round = 0; round < 6; ++round) {
            Cloth &cloth = sim.cloths[0];
            for (int k = 0; k < 5; ++k) {
                const std::uint32_t a = rng() % n, b = rng() % n;
                if (a == b)
                    continue;
                const float rest = length(cloth.particles.position[a] - cloth.particles.position[b]);
                cloth.constraints.push_back({ .a = a, .b = b, .restLength = 0.8f * rest, .compliance = 1e-6f,
                    .kind = ConstraintKind::User });
            }
            cloth.touchTopology();
            Simulation copy = freshCopy(sim);
            sim.step();
            remaps += sim.lastStepStats().streamRemaps;
            layouts += sim.lastStepStats().streamLayouts;
            copy.step();
            QVERIFY2(sameState(sim, copy), qPrintable(QString("round %1").arg(round)));
            sim.run(2);
            copy.run(2);
            QVERIFY2(sameState(sim, copy), qPrintable(QString("round %1, later").arg(round)));
        }
        QCOMPARE(remaps + layouts, 6u);
        QVERIFY2(remaps >= 3, qPrintable(QString("%1 of 6 fitted").arg(remaps)));
    }

    void addedConstraintLeavesNoWindowHoldingItsParticles()
    {
        // A constraint put in a colour where windows hold both its particles as idle ones
        // (given that colour directly, as the colouring would where it is the lowest free):
        // the windows must gather, or their stores would undo its corrections.
        Cloth cloth = grid(32, 32);
        ClothSolverCache cache;
        cache.ensure(cloth);
        const XpbdBatches &s = cache.xpbd;
        const std::size_t n = cloth.particles.size();
        std::uint32_t colour = kNone, q = kNone, r = kNone;
        for (std::uint32_t c = 0; c + 1 < s.start.size() && r == kNone; ++c) {
            std::vector<std::uint8_t> touched(n, 0);
            for (std::uint32_t k = s.start[c]; k < s.start[c + 1]; ++k)
                if (s.source[k] != kNone)
                    touched[s.ends(k).a] = touched[s.ends(k).b] = 1;
            q = kNone;
            for (std::uint32_t block = s.start[c] / 8; block < s.start[c + 1] / 8 && r == kNone; ++block) {
                if (s.blockFetch[block] == XpbdBatches::Gather)
                    continue;
                for (std::uint32_t p = s.windowFirst(block); p < s.windowFirst(block) + 8; ++p) {
                    if (touched[p] || (q != kNone && (q / 8 == p / 8)))
                        continue;
                    if (q == kNone)
                        q = p;
                    else if (p != q)
                        r = p;
                    if (r != kNone) {
                        colour = c;
                        break;
                    }
                }
            }
        }
        QVERIFY2(r != kNone, "no colour with two idle window particles");
        DistanceConstraint sewn { .a = q, .b = r, .restLength = 0.1f, .kind = ConstraintKind::User };
        sewn.colour = std::uint8_t(colour);
        const std::size_t oldCount = cloth.constraints.size();
        cloth.constraints.push_back(sewn);
        std::vector<std::uint8_t> colours = storedColours(cloth);
        std::uint32_t counts[64] = {};
        for (std::uint8_t c : colours)
            ++counts[c];
        QVERIFY(remapXpbdBatches(cloth, colours, counts, { std::uint32_t(oldCount) }, oldCount, n, cache.xpbd));
        checkStreams(cloth, cache.xpbd);
    }

    void movedEndIsFittedIntoTheStreams()
    {
        // A vertex split moves a constraint's end to a new particle in place; the slot takes the
        // new particle and its block gathers.
        GridSpec g;
        g.across = 20;
        g.down = 20;
        Simulation sim = sheet(TearMode::None);
        sim.cloths[0] = makeGrid(g);
        sim.run(3);
        Cloth &cloth = sim.cloths[0];
        const std::uint32_t p = gridIndex(g, 10, 10);
        const std::uint32_t q = cloth.particles.add(cloth.particles.position[p], 0.5f * cloth.particles.mass[p]);
        cloth.particles.previous[q] = cloth.particles.previous[p];
        cloth.particles.velocity[q] = cloth.particles.velocity[p];
        int moved = 0;
        cloth.constraints.modifyAll([&](DistanceConstraint &k) {
            if (k.a == p && k.b > p + 1) { // those below and to the right go to the new particle
                k.a = q;
                ++moved;
            }
        });
        QVERIFY(moved >= 3);
        cloth.touchTopology();
        Simulation copy = freshCopy(sim);
        sim.step();
        QCOMPARE(sim.lastStepStats().streamRemaps, 1u);
        QCOMPARE(sim.lastStepStats().streamLayouts, 0u);
        copy.step();
        QVERIFY(sameState(sim, copy));
        sim.run(5);
        copy.run(5);
        QVERIFY(sameState(sim, copy));
    }

    void copiesStepOnLikeTheRunThroughTheEvents_data()
    {
        QTest::addColumn<int>("solver");
        QTest::addColumn<int>("mode");
        QTest::addColumn<bool>("cuts");
        QTest::addColumn<bool>("pulls");
        QTest::addColumn<std::uint32_t>("seed");
        QTest::addColumn<bool>("twoThreads"); // the run through the events, not the copies
        QTest::addColumn<bool>("retunes");
        const int xpbd = int(SolverKind::Xpbd), verlet = int(SolverKind::Verlet);
        for (std::uint32_t seed : { 1u, 2u, 3u }) {
            const int none = int(TearMode::None), remove = int(TearMode::RemoveConstraint);
            QTest::addRow("cuts %u", seed) << xpbd << none << true << false << seed << false << false;
            QTest::addRow("tears %u", seed) << xpbd << remove << false << true << seed << false << false;
            QTest::addRow("tears and cuts %u", seed) << xpbd << remove << true << true << seed << false << false;
            QTest::addRow("splits and cuts %u", seed)
                << xpbd << int(TearMode::SplitVertex) << true << true << seed << false << false;
            QTest::addRow("verlet, tears and cuts %u", seed) << verlet << remove << true << true << seed << false << false;
            QTest::addRow("two threads, tears and cuts %u", seed) << xpbd << remove << true << true << seed << true << false;
            QTest::addRow("verlet, two threads, tears and cuts %u", seed)
                << verlet << remove << true << true << seed << true << false;
            // Parameters retuned between frames reach the streams (checkFrame's refresh is
            // skipped only while the records hash the same).
            QTest::addRow("retunes and tears %u", seed) << xpbd << remove << false << true << seed << false << true;
            QTest::addRow("verlet, retunes and cuts %u", seed) << verlet << none << true << false << seed << false << true;
            QTest::addRow("two threads, retunes and tears %u", seed)
                << xpbd << remove << false << true << seed << true << true;
        }
    }

    void copiesStepOnLikeTheRunThroughTheEvents()
    {
        QFETCH(int, solver);
        QFETCH(int, mode);
        QFETCH(bool, cuts);
        QFETCH(bool, pulls);
        QFETCH(std::uint32_t, seed);
        QFETCH(bool, twoThreads);
        QFETCH(bool, retunes);
        const std::vector<std::vector<Event>> events = script(seed, cuts, pulls, retunes);
        const std::size_t oneThread = xpbdTwoThreadConstraints();
        Simulation sim = sheet(TearMode(mode), SolverKind(solver));
        std::vector<Simulation> copies;
        Simulation forgetful; // a copy that lost its colours, coloured afresh
        bool recoloured = false; // whether the fresh colouring of that copy differs
        std::uint32_t splitBeforeForgetting = 0; // particles split before that copy was made
        std::uint32_t layouts = 0, remaps = 0, torn = 0, split = 0;
        const std::size_t constraintsBefore = sim.cloths[0].constraints.size();
        for (int f = 0; f < kFrames; ++f) {
            for (const Event &e : events[std::size_t(f)]) {
                apply(sim, e);
                for (Simulation &c : copies)
                    apply(c, e);
                if (!forgetful.cloths.empty())
                    apply(forgetful, e);
            }
            // Copies right after the events (their colours not yet updated) and after a step.
            if (f % 10 == 5 && !events[std::size_t(f)].empty())
                copies.push_back(freshCopy(sim));
            if (twoThreads)
                setXpbdTwoThreadConstraints(0); // every cloth takes the second thread
            sim.step();
            setXpbdTwoThreadConstraints(oneThread);
            QVERIFY2(!sim.status().blownUp, sim.status().message.c_str());
            layouts += sim.lastStepStats().streamLayouts;
            remaps += sim.lastStepStats().streamRemaps;
            torn += sim.lastStepStats().tornConstraints;
            split += sim.lastStepStats().splitParticles;
            for (Simulation &c : copies)
                c.step();
            if (!forgetful.cloths.empty())
                forgetful.step();
            if (f % 10 == 7)
                copies.push_back(freshCopy(sim));
            if (f == kFrames / 3) {
                recoloured = freshColours(sim.cloths[0]) != storedColours(sim.cloths[0]);
                splitBeforeForgetting = split;
                forgetful = freshCopy(sim, true);
            }
        }
        QVERIFY(sim.cloths[0].constraints.size() < constraintsBefore);
        if (pulls && mode == int(TearMode::RemoveConstraint))
            QVERIFY(torn > 0);
        if (pulls && mode == int(TearMode::SplitVertex))
            QVERIFY(split > 0);
        QVERIFY(copies.size() >= 4);
        for (std::size_t i = 0; i < copies.size(); ++i)
            QVERIFY2(sameState(sim, copies[i]), qPrintable(QString("copy %1").arg(i)));
        // The kept colours are what make the copies agree: coloured afresh after the events,
        // the same cloth steps to other bits wherever its colours change (vertex splits move
        // constraints out of their families; a grid's holes alone keep the family colours).
        if (splitBeforeForgetting > 0)
            QVERIFY(recoloured);
        if (recoloured)
            QVERIFY(!sameState(sim, forgetful));
        else
            QVERIFY(sameState(sim, forgetful));
        // Removals were fitted into the streams laid out before (vertex splits that duplicate
        // an edge add a constraint, which is laid out afresh).
        QVERIFY(layouts >= 1);
        QVERIFY2(remaps > layouts, qPrintable(QString("%1 remaps, %2 layouts").arg(remaps).arg(layouts)));
    }
};

QTEST_GUILESS_MAIN(TestRelayout)
#include "tst_relayout.moc"
