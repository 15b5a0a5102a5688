// Random edit sessions on the scene + take document (core/edit/editdocument.h), shared by
// the quick property test (tests/tst_take.cpp) and its long soak variant
// (tests/soak/tst_takesoak.cpp).
#pragma once

#include "edit/editdocument.h"
#include "edit/player.h"
#include "scene/presets.h"
#include "scene/scenefile.h"

#include <QtTest>

#include <random>

namespace drape::testing {

inline Scene preset(const char *id)
{
    SceneLoadResult r = loadPreset(id);
    if (!r.ok())
        qFatal("preset %s: %s", id, r.error.c_str());
    return *r.scene;
}

// Everything the document shows and holds.
struct Seen {
    Scene scene;
    Take take;
    std::uint64_t playhead = 0;
    std::uint64_t hash = 0;
};

inline Seen seen(const EditDocument &doc)
{
    return { doc.scene(), doc.take(), doc.playhead(), doc.simulation().stateHash() };
}

inline bool same(const Seen &a, const Seen &b)
{
    return a.scene == b.scene && a.take == b.take && a.playhead == b.playhead && a.hash == b.hash;
}

inline std::vector<std::uint32_t> randomParticles(std::mt19937 &rng, const Cloth &cloth, int count)
{
    std::uniform_int_distribution<std::uint32_t> pick(0, std::uint32_t(cloth.particles.size() - 1));
    std::vector<std::uint32_t> out;
    for (int i = 0; i < count; ++i)
        out.push_back(pick(rng));
    return out;
}

// One random edit of the document: a scene edit at frame 0, an event otherwise, now and then
// a drag, a structural grid change, an added or removed cloth or collider, or "Set start
// here". Returns true when it pushed a step.
inline bool randomEdit(std::mt19937 &rng, EditDocument &doc)
{
    const Simulation &sim = doc.simulation();
    const int cloth = std::uniform_int_distribution<int>(0, int(sim.cloths.size()) - 1)(rng);
    const Cloth &c = sim.cloths[std::size_t(cloth)];
    const std::size_t before = doc.undoIndex();
    switch (std::uniform_int_distribution<int>(0, 18)(rng)) {
    case 0:
        doc.setKind(cloth, randomParticles(rng, c, 3), ParticleKind::Static);
        break;
    case 1:
        doc.setKind(cloth, randomParticles(rng, c, 4), ParticleKind::Dynamic);
        break;
    case 2:
        if (!c.constraints.empty()) {
            std::uniform_int_distribution<std::uint32_t> k(0, std::uint32_t(c.constraints.size() - 1));
            doc.removeConstraints(cloth, { k(rng), k(rng), k(rng) }, true);
        }
        break;
    case 3: {
        const auto p = randomParticles(rng, c, 2);
        if (p[0] != p[1])
            doc.sew(cloth, p[0], p[1]);
        break;
    }
    case 4:
        if (!c.constraints.empty()) {
            std::uniform_int_distribution<std::uint32_t> k(0, std::uint32_t(c.constraints.size() - 1));
            ConstraintProps props;
            props.compliance = std::uniform_real_distribution<float>(1e-5f, 1e-3f)(rng);
            doc.changeConstraints(cloth, { k(rng), k(rng) }, props);
        }
        break;
    case 5:
        doc.setParameter("world.gravity.y", 0, std::uniform_real_distribution<double>(-15.0, -3.0)(rng));
        break;
    case 6: {
        const auto p = randomParticles(rng, c, 1);
        const Vec3 centre = c.particles.position[p[0]];
        if (doc.beginDrag(cloth, p, centre).empty()) {
            const int frames = std::uniform_int_distribution<int>(1, 5)(rng);
            for (int f = 0; f < frames; ++f) {
                doc.dragTo(centre + Vec3 { 0.05f * float(f), 0.03f * float(f), 0.f });
                doc.step();
            }
            doc.endDrag();
        }
        break;
    }
    case 7: {
        const ClothDesc &desc = doc.scene().cloths[std::size_t(cloth)];
        if (desc.source == ClothSource::Grid && std::uniform_int_distribution<int>(0, 2)(rng) == 0) {
            GridDesc g = desc.grid;
            g.across = std::max(4, g.across + std::uniform_int_distribution<int>(-6, 6)(rng));
            doc.setGrid(cloth, g);
        }
        break;
    }
    case 8:
        if (std::uniform_int_distribution<int>(0, 3)(rng) == 0)
            doc.setStartHere();
        break;
    case 9: {
        Material m = doc.scene().cloths[std::size_t(cloth)].material;
        m.damping *= 1.5f;
        doc.setMaterial(cloth, m);
        break;
    }
    case 10: {
        // A pushed stroke over three frames, one undo step.
        const auto p = randomParticles(rng, c, 1);
        const Vec3 at = c.particles.position[p[0]];
        doc.beginGroup();
        for (int f = 0; f < 3; ++f) {
            doc.push(at + Vec3 { 0.02f * float(f), 0.f, 0.f }, 0.1f, Vec3 { 0.02f, 0.f, 0.f }, 1.f);
            doc.step();
        }
        doc.endGroup("Push");
        break;
    }
    case 11: {
        // Two scrubbed values of one parameter: one undo step.
        doc.setParameter("world.airDamping", 0, std::uniform_real_distribution<double>(0.0, 0.5)(rng));
        doc.setParameter("world.airDamping", 0, std::uniform_real_distribution<double>(0.0, 0.5)(rng));
        if (doc.undoIndex() == before + 2)
            doc.mergeLast("Set air damping");
        break;
    }
    case 12: {
        // Pins dragged to new places (curtain hooks); refused unless the particles are pinned.
        const auto p = randomParticles(rng, c, 2);
        std::vector<Vec3> to;
        for (std::uint32_t i : p)
            to.push_back(c.particles.position[i] + Vec3 { 0.04f, -0.02f, 0.01f });
        doc.beginGroup(); // pin and move: one step, as the Pin tool's drag of a new pin
        doc.setKind(cloth, p, ParticleKind::Static);
        doc.movePins(cloth, p, to);
        doc.endGroup("Move pins");
        break;
    }
    case 13:
        // The timeline marker menu's Delete.
        if (!doc.take().events.empty())
            doc.removeEvent(std::uniform_int_distribution<std::size_t>(0, doc.take().events.size() - 1)(rng));
        break;
    case 14: {
        // A change that does not touch the simulation (the scene's name and camera).
        Scene next = doc.scene();
        next.name += "*";
        next.camera.yaw += 10.f;
        doc.setPresentation("Rename", next);
        break;
    }
    case 15: {
        // A small grid added above the others: a structural edit, the playhead back to 0.
        ClothDesc added;
        added.name = "added";
        added.grid.across = added.grid.down = 5;
        added.grid.width = added.grid.height = 0.3f;
        added.grid.origin = { std::uniform_real_distribution<float>(-0.5f, 0.5f)(rng), 2.f, 0.f };
        added.pins = { 0, 4 };
        doc.addCloth(added);
        break;
    }
    case 16:
        if (doc.scene().cloths.size() > 1) // randomEdit needs a cloth to pick
            doc.removeCloth(cloth);
        break;
    case 17: {
        Collider sphere;
        sphere.name = "added sphere";
        sphere.radius = 0.15f;
        sphere.baseCenter = sphere.center = { std::uniform_real_distribution<float>(-0.5f, 0.5f)(rng), 0.6f, 0.2f };
        doc.addCollider(sphere);
        break;
    }
    case 18:
        if (!doc.scene().colliders.empty())
            doc.removeCollider(std::uniform_int_distribution<int>(0, int(doc.scene().colliders.size()) - 1)(rng));
        break;
    }
    return doc.undoIndex() != before;
}

/// Makes `edits` random edits at random frames on preset `id`, then checks: undoing each
/// step gives back exactly what was shown before it; after undoing all, the document is the
/// start and Reset shows the start's state hash; redoing each step gives exactly what was
/// shown after it; saving and reloading replays to the same state hash, and saves the same
/// bytes again. Reports through QTest (check QTest::currentTestFailed()).
inline void checkRandomSession(const char *id, std::uint32_t seed, int edits)
{
    std::mt19937 rng(seed);
    EditDocument doc(preset(id));
    const Seen start = seen(doc);
    std::vector<Seen> before, forward; // what was shown before and after each step
    for (int edit = 0; edit < edits; ++edit) {
        const int frames = std::uniform_int_distribution<int>(0, 6)(rng);
        if (frames == 0 && doc.playhead() > 0 && std::uniform_int_distribution<int>(0, 2)(rng) == 0)
            doc.reset();
        doc.run(frames);
        const Seen pre = seen(doc);
        if (randomEdit(rng, doc)) {
            before.push_back(pre);
            forward.push_back(seen(doc));
        }
    }
    QVERIFY(!forward.empty());
    QCOMPARE(doc.undoIndex(), forward.size());
    for (std::size_t i = forward.size(); i-- > 0;) {
        doc.undo();
        QVERIFY2(same(seen(doc), before[i]),
            qPrintable(QString("undo of step %1 (%2)").arg(i).arg(QString::fromStdString(doc.undoText(i)))));
    }
    QVERIFY(doc.scene() == start.scene);
    QVERIFY(doc.take() == start.take);
    doc.reset();
    QCOMPARE(doc.simulation().stateHash(), start.hash);
    for (std::size_t i = 0; i < forward.size(); ++i) {
        doc.redo();
        QVERIFY2(same(seen(doc), forward[i]),
            qPrintable(QString("redo of step %1 (%2)").arg(i).arg(QString::fromStdString(doc.undoText(i)))));
    }
    // Saved and reloaded, the document replays to the same state; saving again gives the same bytes.
    doc.run(5);
    const std::string text = serializeScene(doc.scene(), SaveOptions { true, &doc.take() });
    const SceneLoadResult r = parseScene(text, "saved.json");
    QVERIFY2(r.ok(), r.error.c_str());
    QCOMPARE(serializeScene(*r.scene, SaveOptions { true, &r.take }), text);
    EditDocument reopened(*r.scene, r.take);
    reopened.seek(doc.playhead());
    QCOMPARE(reopened.simulation().stateHash(), doc.simulation().stateHash());
}

} // namespace drape::testing
