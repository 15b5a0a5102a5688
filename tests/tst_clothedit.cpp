// Exact undo records: for every editing operation, apply() then revert() gives back the
// original cloth bit for bit (array order included) and revert() then apply() the edited
// one; index maps point every surviving record at an equal one; bad input is refused with a
// message and changes nothing.
#include "sim/builders.h"
#include "edit/clothedit.h"
#include "edit/cut.h"

#include <QTest>

#include <bit>
#include <cmath>
#include <cstring>
#include <functional>
#include <random>

using namespace drape;

namespace {

// Whether a read of records R can be written to (a template, so that "no" is an answer).
template <class R> constexpr bool recordAssignable = requires(R r, DistanceConstraint c)
{
    r[0] = c;
};
template <class R> constexpr bool fieldAssignable = requires(R r)
{
    r[0].compliance = 1.f;
};
template <class R> constexpr bool iteratorAssignable = requires(R r, DistanceConstraint c)
{
    *r.begin() = c;
};

template <class T>
bool sameBytes(const std::vector<T> &a, const std::vector<T> &b)
{
    return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}

// Bit-exact comparison of everything a cloth holds (memcmp also tells -0 from +0).
QString difference(const Cloth &a, const Cloth &b)
{
    const Particles &p = a.particles, &q = b.particles;
    if (!sameBytes(p.position, q.position))
        return "position";
    if (!sameBytes(p.previous, q.previous))
        return "previous";
    if (!sameBytes(p.velocity, q.velocity))
        return "velocity";
    if (!sameBytes(p.rest, q.rest))
        return "rest";
    if (!sameBytes(p.mass, q.mass))
        return "mass";
    if (!sameBytes(p.invMass, q.invMass))
        return "invMass";
    if (p.kind != q.kind)
        return "kind";
    if (a.constraints != b.constraints)
        return "constraints";
    if (a.triangles != b.triangles)
        return "triangles";
    if (a.tearMode != b.tearMode || a.thickness != b.thickness || a.name != b.name)
        return "cloth settings";
    return {};
}

// A hanging 6×5 grid in a non-trivial state (every particle moving differently, one pin).
Cloth testCloth()
{
    GridSpec g;
    g.across = 6;
    g.down = 5;
    Cloth c = makeGrid(g);
    for (std::size_t i = 0; i < c.particles.size(); ++i) {
        const float s = float(i);
        c.particles.position[i] += Vec3{0.01f * std::sin(s), 0.02f * std::cos(s), 0.003f * s};
        c.particles.previous[i] = c.particles.position[i] - Vec3{0.001f * s, 0.f, -0.002f};
        c.particles.velocity[i] = Vec3{0.1f * s, -0.2f, 0.05f * std::sin(3.f * s)};
    }
    c.particles.setKind(2, ParticleKind::Static);
    return c;
}

} // namespace

class TestClothEdit : public QObject {
    Q_OBJECT

private:
    // apply → edited (differs from original), revert → original bit for bit, apply → edited again.
    void checkRoundTrip(const Cloth &original, const ClothEditResult &r)
    {
        QVERIFY2(r.ok(), r.error.c_str());
        QVERIFY(!r.edit.empty());
        Cloth c = original;
        QCOMPARE(QString::fromStdString(apply(c, r.edit)), QString());
        QVERIFY2(!difference(c, original).isEmpty(), "the edit changed nothing");
        const Cloth edited = c;
        QCOMPARE(QString::fromStdString(revert(c, r.edit)), QString());
        QCOMPARE(difference(c, original), QString());
        QCOMPARE(QString::fromStdString(apply(c, r.edit)), QString());
        QCOMPARE(difference(c, edited), QString());
        if (r.edit.changesTopology())
            QVERIFY(c.topologyRevision > original.topologyRevision);
        // The index maps hold for every operation (identity when nothing is added or removed).
        if (r.edit.changedConstraints.empty())
            checkMap(original.constraints.records(), c.constraints.records(),
                constraintIndexMap(r.edit, original.constraints.size()), r.edit.removedConstraints.size());
        checkMap(original.triangles, c.triangles, triangleIndexMap(r.edit, original.triangles.size()),
                 r.edit.removedTriangles.size());
    }

    // Every survivor maps to an index holding an equal record, removed ones to the sentinel,
    // and the map is strictly increasing (stable compaction).
    template <class T>
    void checkMap(const std::vector<T> &before, const std::vector<T> &after, const std::vector<std::uint32_t> &map,
                  std::size_t removed)
    {
        QCOMPARE(map.size(), before.size());
        std::size_t survivors = 0;
        std::uint32_t last = 0;
        bool first = true;
        for (std::size_t i = 0; i < map.size(); ++i) {
            if (map[i] == kRemovedIndex)
                continue;
            ++survivors;
            QVERIFY(map[i] < after.size());
            QVERIFY(after[map[i]] == before[i]);
            QVERIFY(first || map[i] > last);
            last = map[i];
            first = false;
        }
        QCOMPARE(survivors, before.size() - removed);
    }

private slots:
    void pinAndUnpin()
    {
        const Cloth original = testCloth();
        const std::uint32_t pins[] = {7, 3, 7, 2}; // duplicate and already pinned on purpose
        ClothEditResult pin = makeSetKind(original, pins, ParticleKind::Static);
        checkRoundTrip(original, pin);
        QCOMPARE(pin.edit.particles.size(), std::size_t(2)); // 3 and 7; 2 is already static
        Cloth c = original;
        apply(c, pin.edit);
        QCOMPARE(c.particles.kind[7], ParticleKind::Static);
        QCOMPARE(c.particles.invMass[7], 0.f);
        QCOMPARE(c.particles.mass[7], original.particles.mass[7]);
        QCOMPARE(c.topologyRevision, original.topologyRevision); // not a topology change

        const std::uint32_t unpin[] = {2};
        ClothEditResult u = makeSetKind(original, unpin, ParticleKind::Dynamic);
        checkRoundTrip(original, u);
        apply(c, u.edit);
        QCOMPARE(c.particles.kind[2], ParticleKind::Dynamic);
        QCOMPARE(c.particles.invMass[2], 1.f / original.particles.mass[2]);
    }

    void moveSetMassAndConstraintProperties()
    {
        const Cloth original = testCloth();
        const std::uint32_t ids[] = {2, 9};
        const Vec3 targets[] = {{0.1f, 2.f, 0.3f}, {-1.f, 0.5f, 0.f}};
        ClothEditResult move = makeMoveParticles(original, ids, targets);
        checkRoundTrip(original, move);
        Cloth c = original;
        apply(c, move.edit);
        QVERIFY(c.particles.position[9] == targets[1]);
        QVERIFY(c.particles.previous[9] == targets[1]);
        QVERIFY(c.particles.velocity[9] == Vec3{});

        ClothEditResult mass = makeSetMass(original, ids, 0.25f);
        checkRoundTrip(original, mass);
        c = original;
        apply(c, mass.edit);
        QCOMPARE(c.particles.mass[9], 0.25f);
        QCOMPARE(c.particles.invMass[9], 4.f);
        QCOMPARE(c.particles.invMass[2], 0.f); // pinned stays pinned

        const std::uint32_t cons[] = {0, 5, 40};
        ConstraintProps props;
        props.restLength = 0.3f;
        props.compliance = 1e-4f;
        props.damping = 0.5f;
        props.tearStrain = 0.25f;
        ClothEditResult change = makeChangeConstraints(original, cons, props);
        checkRoundTrip(original, change);
        c = original;
        apply(c, change.edit);
        QCOMPARE(c.constraints[40].restLength, 0.3f);
        QCOMPARE(c.constraints[40].tearStrain, 0.25f);
        QCOMPARE(c.constraints[40].a, original.constraints[40].a);
    }

    void addConstraint()
    {
        const Cloth original = testCloth();
        ClothEditResult add = makeAddConstraint(original, 0, 29);
        checkRoundTrip(original, add);
        Cloth c = original;
        apply(c, add.edit);
        QCOMPARE(c.constraints.size(), original.constraints.size() + 1);
        const DistanceConstraint &dc = c.constraints.back();
        QCOMPARE(dc.a, 0u);
        QCOMPARE(dc.b, 29u);
        QCOMPARE(dc.kind, ConstraintKind::User);
        QCOMPARE(dc.restLength, length(original.particles.position[0] - original.particles.position[29]));
        // Everything that was there keeps its index.
        checkMap(original.constraints.records(), c.constraints.records(),
            constraintIndexMap(add.edit, original.constraints.size()), 0);

        NewConstraintDef def;
        def.restLength = 0.5f;
        def.kind = ConstraintKind::Bend;
        ClothEditResult given = makeAddConstraint(original, 4, 17, def); // (4,0)-(5,2): not joined
        QVERIFY(given.ok());
        QCOMPARE(given.edit.addedConstraints.front().constraint.restLength, 0.5f);
        QCOMPARE(given.edit.addedConstraints.front().constraint.kind, ConstraintKind::Bend);
    }

    void removeConstraintsAndTheirTriangles()
    {
        const Cloth original = testCloth();
        // Constraint 7 is the horizontal structural edge (2,1)-(3,1) of the 6-wide grid (rows
        // of 5 edges: 0..4 in row 0, 5..9 in row 1). It borders one triangle above and one below.
        const DistanceConstraint &edge = original.constraints[7];
        QCOMPARE(edge.kind, ConstraintKind::Structural);
        const std::uint32_t ids[] = {7, 1, 60, 7};
        ClothEditResult r = makeRemoveConstraints(original, ids);
        checkRoundTrip(original, r);
        QCOMPARE(r.edit.removedConstraints.size(), std::size_t(3));
        // Expected by brute force: the triangles having both ends of a removed constraint
        // as corners (the grid has no duplicate constraints, so none of those edges survives).
        auto spans = [](const Triangle &t, const DistanceConstraint &d) {
            int shared = 0;
            for (std::uint32_t v : t.v)
                shared += (v == d.a || v == d.b) ? 1 : 0;
            return shared == 2;
        };
        std::size_t expected = 0, aroundEdge = 0;
        for (const Triangle &t : original.triangles) {
            expected += (spans(t, original.constraints[1]) || spans(t, original.constraints[7]) ||
                         spans(t, original.constraints[60])) ? 1 : 0;
            aroundEdge += spans(t, edge) ? 1 : 0;
        }
        QCOMPARE(aroundEdge, std::size_t(2)); // an interior grid edge borders two triangles
        QCOMPARE(r.edit.removedTriangles.size(), expected);
        Cloth c = original;
        apply(c, r.edit);
        for (const Triangle &t : c.triangles)
            QVERIFY2(!spans(t, edge), "a triangle still spans the removed edge");
        checkMap(original.constraints.records(), c.constraints.records(),
            constraintIndexMap(r.edit, original.constraints.size()), 3);
        checkMap(original.triangles, c.triangles, triangleIndexMap(r.edit, original.triangles.size()), expected);

        const std::vector<std::uint32_t> selection{0, 1, 7, 8, 61};
        const std::vector<std::uint32_t> remapped =
            remapIndices(selection, constraintIndexMap(r.edit, original.constraints.size()));
        QCOMPARE(remapped, (std::vector<std::uint32_t>{0, 6, 58}));

        // An edge two records join is lost only with both: with a copy of edge 7 at the end
        // of the list, removing edge 7 removes no triangle, removing both the two around it.
        Cloth doubled = original;
        doubled.constraints.push_back(edge);
        const std::uint32_t copy = std::uint32_t(doubled.constraints.size() - 1);
        const std::uint32_t one[] = { 7 };
        QVERIFY(makeRemoveConstraints(doubled, one).edit.removedTriangles.empty());
        const std::uint32_t both[] = { 7, copy };
        const ClothEditResult gone = makeRemoveConstraints(doubled, both);
        QCOMPARE(gone.edit.removedTriangles.size(), std::size_t(2));
        for (const IndexedTriangle &t : gone.edit.removedTriangles)
            QVERIFY(spans(t.triangle, edge));
    }

    void removeAndInsertInOneEdit()
    {
        // Hand-made record with removals and insertions at arbitrary places, as a merge of a
        // cut and a sewing step would produce.
        const Cloth original = testCloth();
        ClothEdit e;
        e.removedConstraints = {{1, original.constraints[1]}, {4, original.constraints[4]}};
        DistanceConstraint x;
        x.a = 0;
        x.b = 11;
        x.restLength = 0.7f;
        x.kind = ConstraintKind::User;
        DistanceConstraint y = x;
        y.b = 12;
        e.addedConstraints = {{0, x}, {3, y}};
        e.removedTriangles = {{0, original.triangles[0]}};
        e.addedTriangles = {{5, Triangle{{0, 11, 12}}}};
        checkRoundTrip(original, {e, {}});
        Cloth c = original;
        apply(c, e);
        QCOMPARE(c.constraints[0], x);
        QCOMPARE(c.constraints[3], y);
        checkMap(original.constraints.records(), c.constraints.records(),
            constraintIndexMap(e, original.constraints.size()), 2);
        checkMap(original.triangles, c.triangles, triangleIndexMap(e, original.triangles.size()), 1);
    }

    void recordsAreWrittenOnlyThroughTheirMembers()
    {
        // A read gives a const value: assigning to it would change a copy and be lost, so it
        // must not compile; nor may a field of it be written.
        static_assert(!recordAssignable<ConstraintRecords>);
        static_assert(!fieldAssignable<ConstraintRecords>);
        static_assert(!iteratorAssignable<ConstraintRecords>);
        static_assert(recordAssignable<std::vector<DistanceConstraint>>); // the checks can tell
        // Random removals and insertions, against the same edits on a plain vector.
        std::mt19937 rng(5);
        std::vector<DistanceConstraint> expected;
        ConstraintRecords records;
        const auto record = [&rng](std::uint32_t serial) {
            DistanceConstraint c;
            c.a = serial;
            c.b = serial + 1;
            c.restLength = float(rng() % 1000) * 1e-3f;
            c.compliance = float(rng() % 7) * 1e-6f;
            return c;
        };
        std::uint32_t serial = 0;
        for (int round = 0; round < 200; ++round) {
            // Insert k records at ascending final indices.
            const std::size_t k = rng() % 6;
            std::vector<std::pair<std::size_t, DistanceConstraint>> added;
            std::size_t at = 0;
            for (std::size_t j = 0; j < k; ++j) {
                const std::size_t room = expected.size() + k - (k - j) - at; // places left before the rest
                at += rng() % (room + 1);
                added.push_back({ at++, record(serial++) });
            }
            for (const auto &[index, c] : added)
                expected.insert(expected.begin() + std::ptrdiff_t(index), c);
            records.insertSorted(
                added.size(), [&](std::size_t j) { return added[j].first; },
                [&](std::size_t j) { return added[j].second; });
            // Remove about one in thirty, and change one through modify().
            std::size_t i = 0;
            std::vector<bool> gone(expected.size());
            for (std::size_t j = 0; j < gone.size(); ++j)
                gone[j] = rng() % 30 == 0;
            std::erase_if(expected, [&](const DistanceConstraint &) { return gone[i++]; });
            i = 0;
            records.eraseIf([&](const DistanceConstraint &) { return gone[i++]; });
            if (!expected.empty()) {
                const std::size_t m = rng() % expected.size();
                expected[m].damping = 0.25f;
                records.modify(m, [](DistanceConstraint &c) { c.damping = 0.25f; });
            }
            QVERIFY2(records.records() == expected, qPrintable(QString("round %1").arg(round)));
        }
        QVERIFY(records.size() > 40);
    }

    void recordBlocksKeepEveryRecord()
    {
        // The blocks of eight (sim/recordblocks.h) against a plain array, through records
        // that fit a description and records that just miss one: ends stepping by pairs and
        // jumping where a row ends, rest lengths 127 and 128 float spacings apart, colours 0
        // to 63 and uncoloured, materials up to the one the listed blocks' mark leaves out.
        std::mt19937 rng(11);
        const auto patterned = [&rng](std::size_t i, std::uint32_t a0, int aOdd, int aPair, float rest) {
            PackedConstraint p;
            const auto l = std::int32_t(i);
            p.a = a0 + std::uint32_t(l / 2 * aPair + l % 2 * aOdd);
            p.b = p.a + 17u;
            const std::uint32_t bits = std::bit_cast<std::uint32_t>(rest) + std::uint32_t(rng() % 128);
            p.restLength = std::bit_cast<float>(bits);
            p.materialAndColour = 2u | std::uint32_t(i % 2 ? 5 : 9) << PackedConstraint::kMaterialBits;
            return p;
        };
        const auto odd = [&rng](PackedConstraint p) {
            switch (rng() % 6) {
            case 0:
                p.a += 128u * 2u;
                break; // a step past a byte
            case 1:
                p.restLength = std::bit_cast<float>(std::bit_cast<std::uint32_t>(p.restLength) + 300u);
                break;
            case 2:
                p.materialAndColour = 0xFFFu;
                break; // the listed blocks' mark as a material
            case 3:
                p.materialAndColour = 3u | 64u << PackedConstraint::kMaterialBits;
                break; // colour 64
            case 4:
                p.materialAndColour = 2u | 0xFFu << PackedConstraint::kMaterialBits;
                break; // uncoloured
            default:
                p.b = p.a;
                break;
            }
            return p;
        };
        // A grid's horizontal links, rows of 19 (20 particles): record k links particle 20
        // (k / 19) + k % 19 to the next. Each block holds at most one row end; one in the
        // block's lanes 3 to 7 is a jump, one in lane 1 or 2 leaves the steps the first three
        // lanes set, and the block is listed.
        std::vector<PackedConstraint> expected;
        std::size_t rowEndsEarly = 0;
        for (std::size_t k = 0; k < 4000; ++k) {
            PackedConstraint p = patterned(0, 0, 0, 0, 0.01f);
            p.a = std::uint32_t(20 * (k / 19) + k % 19);
            p.b = p.a + 1;
            p.materialAndColour = 2u | std::uint32_t(k % 19 % 2) << PackedConstraint::kMaterialBits;
            expected.push_back(p);
            rowEndsEarly += k % 19 == 0 && (k % 8 == 1 || k % 8 == 2);
        }
        RecordBlocks blocks;
        blocks.assign(expected.data(), expected.size());
        QVERIFY(rowEndsEarly > 0);
        QCOMPARE(blocks.listedBlocks(), rowEndsEarly);
        QCOMPARE(blocks.bytes(), 500 * 32 + rowEndsEarly * 8 * sizeof(PackedConstraint));
        const auto same = [&](int round) {
            QVERIFY2(blocks.size() == expected.size(), qPrintable(QString("round %1").arg(round)));
            QVERIFY2(blocks.toVector() == expected, qPrintable(QString("round %1").arg(round)));
            for (int probe = 0; probe < 20 && !expected.empty(); ++probe) {
                const std::size_t i = rng() % expected.size();
                QVERIFY2(
                    blocks[i] == expected[i], qPrintable(QString("round %1, record %2").arg(round).arg(i)));
                const std::size_t n = std::min<std::size_t>(rng() % 40, expected.size() - i);
                std::vector<PackedConstraint> run(n);
                blocks.read(i, n, run.data());
                QVERIFY(std::equal(run.begin(), run.end(), expected.begin() + std::ptrdiff_t(i)));
            }
        };
        same(-1);
        for (int round = 0; round < 3000; ++round) {
            const std::size_t i = expected.empty() ? 0 : rng() % expected.size();
            switch (rng() % 10) {
            case 0:
            case 1:
            case 2: { // one record changed, to an odd one or back to the pattern
                if (expected.empty())
                    break;
                const PackedConstraint p
                    = rng() % 2 ? odd(expected[i]) : patterned(i % 8, expected[i - i % 8].a, 1, 1, 0.01f);
                expected[i] = p;
                blocks.set(i, p);
                break;
            }
            case 3:
            case 4: { // appended, in the pattern or not
                const std::size_t n = expected.size();
                const PackedConstraint p = patterned(n % 8, 7u + std::uint32_t(n / 8) * 3u, -1, 2, 0.5f);
                expected.push_back(rng() % 4 ? p : odd(p));
                blocks.push_back(expected.back());
                break;
            }
            case 5:
            case 6: // removed from the end
                if (!expected.empty()) {
                    expected.pop_back();
                    blocks.pop_back();
                }
                break;
            case 7: { // everything from a record on replaced (an edit's erase and insert)
                const std::size_t from = rng() % (expected.size() + 1);
                std::vector<PackedConstraint> tail(rng() % 40);
                for (std::size_t j = 0; j < tail.size(); ++j) {
                    const PackedConstraint p
                        = patterned((from + j) % 8, 9u * std::uint32_t((from + j) / 8), 2, 5, 0.25f);
                    tail[j] = rng() % 5 ? p : odd(p);
                }
                expected.resize(from);
                expected.insert(expected.end(), tail.begin(), tail.end());
                blocks.replaceFrom(from, tail.data(), tail.size());
                break;
            }
            case 8: { // the first colour that differs from a list
                std::vector<std::uint8_t> colours;
                for (const PackedConstraint &p : expected)
                    colours.push_back(p.colour());
                const std::size_t n = rng() % (colours.size() + 2);
                colours.resize(n, 0);
                std::size_t want = std::min(n, expected.size());
                if (rng() % 2 && want > 0) {
                    const std::size_t at = rng() % want;
                    colours[at] = std::uint8_t(colours[at] + 1 + rng() % 200);
                    want = at;
                }
                QCOMPARE(blocks.firstColourDifference(colours.data(), colours.size()), want);
                break;
            }
            default: // held afresh now and then
                if (rng() % 20 == 0)
                    blocks.assign(expected.data(), expected.size(), expected.size() + 64);
                break;
            }
            if (round % 50 == 0)
                same(round);
        }
        same(3000);
        // Every block back in its pattern: the listed records' room is given back as the
        // blocks turn described (once more than half of it is unused), so that none is left.
        for (std::size_t i = 0; i < expected.size(); ++i) {
            expected[i] = patterned(i % 8, 50u * std::uint32_t(i / 8), 3, -4, 1.f);
            blocks.set(i, expected[i]);
        }
        same(3001);
        QCOMPARE(blocks.listedBlocks(), std::size_t(0));
        QCOMPARE(blocks.bytes(), blocks.capacity() / RecordBlocks::kLanes * 32);
        // Uncoloured records in a described block read as uncoloured (0xFF), not colour 0.
        {
            std::vector<PackedConstraint> plain(16);
            for (std::size_t i = 0; i < plain.size(); ++i) {
                plain[i] = patterned(i % 8, 40u * std::uint32_t(i / 8), 1, 2, 0.75f);
                plain[i].materialAndColour = 2u | 0xFFu << PackedConstraint::kMaterialBits;
            }
            RecordBlocks uncoloured;
            uncoloured.assign(plain.data(), plain.size());
            QCOMPARE(uncoloured.listedBlocks(), std::size_t(0));
            std::vector<std::uint8_t> colours(plain.size(), 0xFF);
            QCOMPARE(uncoloured.firstColourDifference(colours.data(), colours.size()), plain.size());
            colours[9] = 0;
            QCOMPARE(uncoloured.firstColourDifference(colours.data(), colours.size()), std::size_t(9));
        }
        // A copy, and a move, read the same.
        RecordBlocks copy = blocks;
        QVERIFY(copy.toVector() == expected);
        RecordBlocks moved = std::move(copy);
        QVERIFY(moved.toVector() == expected);
        QCOMPARE(copy.size(), std::size_t(0));
    }

    void materialsAreSharedAndKeptExact()
    {
        // A grid's records share one material per kind.
        const Cloth grid = testCloth();
        QCOMPARE(grid.constraints.materials().size(), std::size_t(3));
        // Values come back bit for bit: -0 is not +0, and NaN payloads stay as they were.
        ConstraintRecords records = grid.constraints;
        const float payloadNan = std::bit_cast<float>(0x7fc00123u);
        records.modify(0, [](DistanceConstraint &c) { c.compliance = -0.f; });
        records.modify(1, [&](DistanceConstraint &c) { c.damping = payloadNan; });
        QVERIFY(std::signbit(records[0].compliance) && records[0].compliance == 0.f);
        QCOMPARE(std::bit_cast<std::uint32_t>(records[1].damping), 0x7fc00123u);
        QVERIFY(!std::signbit(records[2].compliance));
        QCOMPARE(records.materials().size(), std::size_t(5));
        // Every record given a material of its own, then all back to one: the table drops
        // what no record uses as new materials come, so it stays near the materials in use.
        const std::size_t m = records.size();
        std::uint32_t serial = 0;
        records.modifyAll([&](DistanceConstraint &c) { c.compliance = 1e-6f * float(++serial); });
        QVERIFY(records.materials().size() >= m);
        records.modifyAll([](DistanceConstraint &c) {
            c.compliance = 1e-3f;
            c.damping = 0.f;
        });
        for (int i = 0; i < 200; ++i) // new materials, each replacing the last
            records.modify(0, [&](DistanceConstraint &c) { c.damping = 0.01f * float(i + 1); });
        QVERIFY2(records.materials().size() <= 2 * std::max<std::size_t>(64, 8),
            qPrintable(QString::number(records.materials().size())));
        QCOMPARE(records[0].damping, 2.f);
        for (std::size_t i = 1; i < m; ++i)
            QCOMPARE(records[i].compliance, 1e-3f);
        // A copy reads the same and adds materials of its own without touching the original.
        ConstraintRecords copy = records;
        QVERIFY(copy == records);
        copy.modify(3, [](DistanceConstraint &c) { c.tearStrain = 0.5f; });
        QVERIFY(!(copy == records));
        QCOMPARE(records[3].tearStrain, grid.constraints[3].tearStrain);
    }

    void cutsRoundTrip()
    {
        const Cloth original = testCloth();
        // Orthographic stroke across the middle of the hanging grid.
        const Ray r0{{-1.f, 1.1f, 1.f}, {0.f, 0.f, -1.f}};
        const Ray r1{{1.f, 1.1f, 1.f}, {0.f, 0.f, -1.f}};
        ClothEditResult cut = makeCutStroke(original, r0, r1);
        checkRoundTrip(original, cut);
        QVERIFY(!cut.edit.removedTriangles.empty());
        Cloth c = original;
        apply(c, cut.edit);
        checkMap(original.constraints.records(), c.constraints.records(),
            constraintIndexMap(cut.edit, original.constraints.size()), cut.edit.removedConstraints.size());

        ClothEditResult seg = makeCutSegment(original, {-0.5f, 1.25f, 0.f}, {0.f, 1.25f, 0.f}, 0.05f);
        checkRoundTrip(original, seg);
    }

    void refusesBadInput()
    {
        const Cloth original = testCloth();
        const std::uint32_t n = std::uint32_t(original.particles.size());
        const std::uint32_t outOfRange[] = {0, n};
        QVERIFY(!makeSetKind(original, outOfRange, ParticleKind::Static).ok());
        QVERIFY(QString::fromStdString(makeSetKind(original, outOfRange, ParticleKind::Static).error)
                    .contains(QString::number(n)));
        const std::uint32_t one[] = {3};
        const Vec3 nan[] = {{std::nanf(""), 0.f, 0.f}};
        QVERIFY(!makeMoveParticles(original, one, nan).ok());
        QVERIFY(!makeMoveParticles(original, one, {}).ok());
        QVERIFY(!makeSetMass(original, one, -1.f).ok());
        QVERIFY(!makeSetMass(original, one, 0.f).ok());
        QVERIFY(!makeSetMass(original, one, std::nanf("")).ok());
        QVERIFY(!makeAddConstraint(original, 3, 3).ok());
        QVERIFY(!makeAddConstraint(original, 3, n).ok());
        NewConstraintDef neg;
        neg.compliance = -1.f;
        QVERIFY(makeAddConstraint(original, 0, n - 1).ok()); // far corners: not joined yet
        QVERIFY(!makeAddConstraint(original, 0, n - 1, neg).ok());
        // A second constraint between an already joined pair (either order) is refused by name.
        const DistanceConstraint &joined = original.constraints[5];
        const ClothEditResult twice = makeAddConstraint(original, joined.b, joined.a);
        QVERIFY(!twice.ok());
        QVERIFY(QString::fromStdString(twice.error).contains(QStringLiteral("already joined by constraint 5")));
        const std::uint32_t badConstraint[] = {std::uint32_t(original.constraints.size())};
        QVERIFY(!makeRemoveConstraints(original, badConstraint).ok());
        ConstraintProps props;
        props.tearStrain = 0.f;
        QVERIFY(!makeChangeConstraints(original, one, props).ok());
        QVERIFY(!makeCutStroke(original, Ray{{0, 0, 0}, {0, 0, 0}}, Ray{}).ok());
        CutSettings negative;
        negative.radius = -0.1f;
        QVERIFY(!makeCutStroke(original, Ray{}, Ray{}, negative).ok());
        QVERIFY(!makeCutSegment(original, {}, {}, 0.f).ok());

        // An edit that does not fit the cloth is refused as a whole; nothing changes.
        ClothEdit wrong;
        wrong.particles.push_back({1, {}, {}});
        wrong.removedConstraints.push_back({std::uint32_t(original.constraints.size()) + 5, {}});
        Cloth c = original;
        QVERIFY(!apply(c, wrong).empty());
        QCOMPARE(difference(c, original), QString());
        QVERIFY(!revert(c, wrong).empty());
        QCOMPARE(difference(c, original), QString());
    }
};

QTEST_APPLESS_MAIN(TestClothEdit)
#include "tst_clothedit.moc"
