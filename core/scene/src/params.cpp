// The parameter table. Each entry reads and writes one scalar of a Scene through a small
// accessor lambda returning a reference to the field, so getter and setter can never disagree.
// Defaults are read from the in-class defaults of the settings structs (never repeated here).
#include "scene/params.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>
#include <unordered_map>

namespace drape {

namespace {

// v clamped to [min, max] and rounded to a float that still lies inside the range (a bound
// such as 2π is not a float; rounding it up would make the value fail validation on load).
float clampedFloat(double v, double min, double max)
{
    float f = float(std::clamp(v, min, max));
    if (double(f) > max)
        f = std::nextafter(f, -std::numeric_limits<float>::infinity());
    if (double(f) < min)
        f = std::nextafter(f, std::numeric_limits<float>::infinity());
    return f;
}

template <typename T> double toDouble(const T &v)
{
    if constexpr (std::is_enum_v<T>)
        return double(std::underlying_type_t<T>(v));
    else
        return double(v);
}

template <typename T> T fromDouble(double v, double min, double max)
{
    v = std::clamp(v, min, max);
    if constexpr (std::is_same_v<T, bool>)
        return v != 0.0;
    else if constexpr (std::is_enum_v<T>)
        return T(std::underlying_type_t<T>(std::llround(v)));
    else if constexpr (std::is_integral_v<T>)
        return T(std::llround(v));
    else
        return T(clampedFloat(v, min, max));
}

struct Range {
    double min;
    double max;
};

ParamDesc makeDesc(
    std::string key, std::string label, std::string unit, ParamGroup group, Range r, std::string help)
{
    ParamDesc p;
    p.key = std::move(key);
    p.label = std::move(label);
    p.unit = std::move(unit);
    p.group = group;
    p.min = r.min;
    p.max = r.max;
    p.help = std::move(help);
    return p;
}

// `ref` is a generic lambda returning a reference to the field within a Scene.
template <typename Ref>
ParamDesc sceneParam(std::string key, std::string label, std::string unit, ParamGroup group, Range r,
    std::string help, Ref ref)
{
    ParamDesc p = makeDesc(std::move(key), std::move(label), std::move(unit), group, r, std::move(help));
    p.get = [ref](const Scene &s, int) { return toDouble(ref(s)); };
    p.set = [ref, r](Scene &s, int, double v) {
        using T = std::remove_cvref_t<decltype(ref(s))>;
        ref(s) = fromDouble<T>(v, r.min, r.max);
    };
    return p;
}

// `ref` returns a reference to a field of a ClothDesc.
template <typename Ref>
ParamDesc clothParam(std::string key, std::string label, std::string unit, ParamGroup group, Range r,
    std::string help, Ref ref)
{
    ParamDesc p = makeDesc(std::move(key), std::move(label), std::move(unit), group, r, std::move(help));
    p.get = [ref](const Scene &s, int i) {
        return i >= 0 && std::size_t(i) < s.cloths.size() ? toDouble(ref(s.cloths[std::size_t(i)])) : 0.0;
    };
    p.set = [ref, r](Scene &s, int i, double v) {
        if (i < 0 || std::size_t(i) >= s.cloths.size())
            return;
        ClothDesc &c = s.cloths[std::size_t(i)];
        using T = std::remove_cvref_t<decltype(ref(c))>;
        ref(c) = fromDouble<T>(v, r.min, r.max);
    };
    return p;
}

template <typename Ref>
ParamDesc colliderParam(
    std::string key, std::string label, std::string unit, Range r, std::string help, Ref ref)
{
    ParamDesc p = makeDesc(
        std::move(key), std::move(label), std::move(unit), ParamGroup::Collider, r, std::move(help));
    p.get = [ref](const Scene &s, int i) {
        return i >= 0 && std::size_t(i) < s.colliders.size() ? toDouble(ref(s.colliders[std::size_t(i)]))
                                                             : 0.0;
    };
    p.set = [ref, r](Scene &s, int i, double v) {
        if (i < 0 || std::size_t(i) >= s.colliders.size())
            return;
        Collider &c = s.colliders[std::size_t(i)];
        using T = std::remove_cvref_t<decltype(ref(c))>;
        ref(c) = fromDouble<T>(v, r.min, r.max);
    };
    return p;
}

// A material parameter. On an explicit cloth the per-constraint values (and masses) are
// rescaled new/old, so edits of single constraints survive a material change.
ParamDesc materialParam(
    std::string key, std::string label, std::string unit, Range r, std::string help, float Material::*field)
{
    ParamDesc p = makeDesc(
        std::move(key), std::move(label), std::move(unit), ParamGroup::Material, r, std::move(help));
    p.logScale = field != &Material::damping;
    p.get = [field](const Scene &s, int i) {
        return i >= 0 && std::size_t(i) < s.cloths.size() ? double(s.cloths[std::size_t(i)].material.*field)
                                                          : 0.0;
    };
    p.set = [field, r](Scene &s, int i, double v) {
        if (i < 0 || std::size_t(i) >= s.cloths.size())
            return;
        ClothDesc &c = s.cloths[std::size_t(i)];
        const float oldValue = c.material.*field;
        const float newValue = clampedFloat(v, r.min, r.max);
        c.material.*field = newValue;
        if (c.source != ClothSource::Explicit || oldValue == newValue)
            return;
        // An explicit cloth's masses are authored per particle: they follow the density in
        // proportion. Its constraints need nothing: those that follow the material are
        // derived from it when built, those with their own properties keep them.
        if (field == &Material::arealDensity && oldValue > 0.f)
            for (float &m : c.explicitData.mass)
                m *= newValue / oldValue;
    };
    return p;
}

// What makes the material tear. Constraints that follow the material follow this too.
ParamDesc tearCriterionParam()
{
    ParamDesc p = makeDesc("material.tearBy", "Tears by", "", ParamGroup::Material, { 0, 2 },
        "Tear past the tear strain, past the tear tension, or whichever comes first");
    p.integer = true;
    p.enumNames = { "strain", "tension", "either" };
    p.get = [](const Scene &s, int i) {
        return i >= 0 && std::size_t(i) < s.cloths.size() ? double(s.cloths[std::size_t(i)].material.tearBy) : 0.0;
    };
    p.set = [](Scene &s, int i, double v) {
        if (i < 0 || std::size_t(i) >= s.cloths.size())
            return;
        ClothDesc &c = s.cloths[std::size_t(i)];
        c.material.tearBy = fromDouble<TearCriterion>(v, 0, 2);
    };
    return p;
}

bool isGrid(const Scene &s, int i)
{
    return i >= 0 && std::size_t(i) < s.cloths.size() && s.cloths[std::size_t(i)].source == ClothSource::Grid;
}
bool isRope(const Scene &s, int i)
{
    return i >= 0 && std::size_t(i) < s.cloths.size() && s.cloths[std::size_t(i)].source == ClothSource::Rope;
}
bool colliderIs(const Scene &s, int i, ColliderKind k)
{
    return i >= 0 && std::size_t(i) < s.colliders.size() && s.colliders[std::size_t(i)].kind == k;
}

constexpr double kTwoPi = 6.283185307179586;

std::vector<ParamDesc> makeTable()
{
    using G = ParamGroup;
    std::vector<ParamDesc> t;
    const char *axes[3] = { "x", "y", "z" };
    const char *axisLabels[3] = { "X", "Y", "Z" };

    // World.
    for (int a = 0; a < 3; ++a) {
        t.push_back(sceneParam(
            std::string("world.gravity.") + axes[a], std::string("Gravity ") + axisLabels[a], "m/s²",
            G::World, { -100, 100 }, "Gravitational acceleration", [a](auto &s) -> auto & {
                return a == 0 ? s.world.gravity.x : a == 1 ? s.world.gravity.y : s.world.gravity.z;
            }));
    }
    t.push_back(sceneParam(
        "world.airDamping", "Air damping", "1/s", G::World, { 0, 10 },
        "Linear velocity damping (drag on every particle)",
        [](auto &s) -> auto & { return s.world.airDamping; }));

    // Wind.
    for (int a = 0; a < 3; ++a) {
        t.push_back(sceneParam(
            std::string("world.wind.direction.") + axes[a], std::string("Wind direction ") + axisLabels[a],
            "", G::Wind, { -1, 1 }, "Wind direction (normalised on use)", [a](auto &s) -> auto & {
                auto &d = s.world.wind.direction;
                return a == 0 ? d.x : a == 1 ? d.y : d.z;
            }));
    }
    t.push_back(sceneParam(
        "world.wind.speed", "Wind speed", "m/s", G::Wind, { 0, 100 }, "Mean wind speed",
        [](auto &s) -> auto & { return s.world.wind.speed; }));
    t.push_back(sceneParam(
        "world.wind.gustStrength", "Gust strength", "", G::Wind, { 0, 1 },
        "Gust amplitude as a fraction of the wind speed",
        [](auto &s) -> auto & { return s.world.wind.gustStrength; }));
    t.push_back(sceneParam(
        "world.wind.gustFrequency", "Gust frequency", "Hz", G::Wind, { 0, 20 },
        "Typical rate at which gusts change", [](auto &s) -> auto & { return s.world.wind.gustFrequency; }));
    t.push_back(sceneParam(
        "world.wind.seed", "Gust seed", "", G::Wind, { 0, 4294967295.0 },
        "Seed of the gust noise (same seed, same gusts)",
        [](auto &s) -> auto & { return s.world.wind.seed; }));
    t.back().integer = true;
    t.push_back(sceneParam(
        "world.wind.airDensity", "Air density", "kg/m³", G::Wind, { 0, 10 },
        "Density of the air (1.2 kg/m³ at sea level)",
        [](auto &s) -> auto & { return s.world.wind.airDensity; }));
    t.push_back(sceneParam(
        "world.wind.dragCoefficient", "Drag coefficient", "", G::Wind, { 0, 5 },
        "Pressure drag normal to the cloth", [](auto &s) -> auto & { return s.world.wind.dragCoefficient; }));
    t.push_back(sceneParam(
        "world.wind.liftCoefficient", "Lift coefficient", "", G::Wind, { 0, 5 }, "Lift across the flow",
        [](auto &s) -> auto & { return s.world.wind.liftCoefficient; }));

    // Solver.
    t.push_back(sceneParam(
        "solver.kind", "Solver", "", G::Solver, { 0, 2 }, "Time integration and constraint scheme",
        [](auto &s) -> auto & { return s.solver.kind; }));
    t.back().integer = true;
    t.back().enumNames = { "xpbd", "verlet", "springs" };
    t.push_back(sceneParam(
        "solver.frameRate", "Frame rate", "Hz", G::Solver, { 1, 1000 },
        "Frames per simulated second; one step advances 1/frameRate",
        [](auto &s) -> auto & { return s.solver.frameRate; }));
    t.push_back(sceneParam(
        "solver.substeps", "Substeps", "", G::Solver, { 1, 1000 }, "Substeps per frame",
        [](auto &s) -> auto & { return s.solver.substeps; }));
    t.back().integer = true;
    t.push_back(sceneParam(
        "solver.iterations", "Iterations", "", G::Solver, { 1, 1000 },
        "Constraint passes per substep (Verlet: relaxation passes)",
        [](auto &s) -> auto & { return s.solver.iterations; }));
    t.back().integer = true;
    t.push_back(sceneParam(
        "solver.integrator", "Spring integrator", "", G::Solver, { 0, 1 },
        "Integration scheme of the springs solver", [](auto &s) -> auto & { return s.solver.integrator; }));
    t.back().integer = true;
    t.back().enumNames = { "semi-implicit-euler", "explicit-euler" };
    t.push_back(sceneParam(
        "solver.maxSplitsPerStep", "Max splits per step", "", G::Solver, { 0, 100000 },
        "Cap on vertex splits per substep", [](auto &s) -> auto & { return s.solver.maxSplitsPerStep; }));
    t.back().integer = true;
    t.push_back(sceneParam(
        "solver.selfCollision", "Self collision", "", G::Solver, { 0, 1 },
        "Particle-particle collision within each cloth",
        [](auto &s) -> auto & { return s.solver.selfCollision; }));
    t.back().integer = true;
    t.back().toggle = true;
    t.push_back(sceneParam(
        "solver.clothCollision", "Cloth collision", "", G::Solver, { 0, 1 },
        "Keep different cloths apart (each cloth's particles against the others' triangles)",
        [](auto &s) -> auto & { return s.solver.clothCollision; }));
    t.back().integer = true;
    t.back().toggle = true;
    t.push_back(sceneParam(
        "solver.maxSpeed", "Max speed", "m/s", G::Solver, { 0.1, 1e6 },
        "A particle faster than this flags a blow-up", [](auto &s) -> auto & { return s.solver.maxSpeed; }));
    t.back().logScale = true;

    // Material (per cloth).
    t.push_back(materialParam("material.arealDensity", "Areal density", "kg/m²", { 0.001, 100 },
        "Mass per unit area", &Material::arealDensity));
    t.push_back(materialParam("material.stretchStiffness", "Stretch stiffness", "N/m", { 0.01, 1e8 },
        "Membrane stiffness along the weave", &Material::stretchStiffness));
    t.push_back(materialParam("material.warpStretchStiffness", "Warp stretch stiffness", "N/m", { 0, 1e8 },
        "Membrane stiffness along the warp (grid down/depth axis); 0 = same as the weft (stretch stiffness)",
        &Material::warpStretchStiffness));
    t.push_back(materialParam("material.shearStiffness", "Shear stiffness", "N/m", { 0.001, 1e8 },
        "In-plane shear stiffness", &Material::shearStiffness));
    t.push_back(materialParam("material.bendRigidity", "Bend rigidity", "N·m", { 1e-11, 1000 },
        "Bending rigidity per unit width (moment per unit curvature), as an Euler–Bernoulli plate; "
        "fabrics 1e-6 (silk) .. 1e-4 (denim)",
        &Material::bendRigidity));
    t.push_back(materialParam("material.warpBendRigidity", "Warp bend rigidity", "N·m", { 0, 1000 },
        "Bend rigidity for curvature along the warp; 0 = same as the weft (bend rigidity)",
        &Material::warpBendRigidity));
    t.push_back(materialParam("material.damping", "Damping", "N·s/m", { 0, 100 },
        "Damping along each constraint", &Material::damping));
    t.push_back(materialParam("material.tearStrain", "Tear strain", "", { 0.001, 1000 },
        "Stretch (relative to rest length) at which the cloth tears", &Material::tearStrain));
    t.push_back(materialParam("material.tearTension", "Tear tension", "N/m", { 0.001, 1e9 },
        "Tension per unit width at which the cloth tears (when it tears by tension)", &Material::tearTension));
    t.push_back(tearCriterionParam());

    // Cloth.
    t.push_back(clothParam(
        "cloth.tearMode", "Tearing", "", G::Cloth, { 0, 2 }, "What happens past the tear strain",
        [](auto &c) -> auto & { return c.tearMode; }));
    t.back().integer = true;
    t.back().enumNames = { "none", "remove-constraint", "split-vertex" };
    t.push_back(clothParam(
        "cloth.thickness", "Thickness", "m", G::Cloth, { 0, 0.5 }, "Collision half-thickness of the sheet",
        [](auto &c) -> auto & { return c.thickness; }));
    t.push_back(clothParam(
        "cloth.tetherStretch", "Tethers", "", G::Cloth, { 0, 10 },
        "Long-range attachments: max distance to the nearest pin as a multiple of the rest distance "
        "along the cloth (e.g. 1.05); 0 = off",
        [](auto &c) -> auto & { return c.tetherStretch; }));
    struct GridInt {
        const char *key, *label, *help;
        int GridDesc::*field;
    };
    for (const GridInt &g : { GridInt { "cloth.grid.across", "Particles across",
                                  "Grid resolution along the width", &GridDesc::across },
             GridInt { "cloth.grid.down", "Particles down", "Grid resolution along the height",
                 &GridDesc::down } }) {
        auto f = g.field;
        t.push_back(clothParam(
            g.key, g.label, "", G::Cloth, { 2, 1024 }, g.help, [f](auto &c) -> auto & { return c.grid.*f; }));
        t.back().integer = true;
    }
    t.push_back(clothParam(
        "cloth.grid.width", "Width", "m", G::Cloth, { 0.001, 1000 }, "Grid width",
        [](auto &c) -> auto & { return c.grid.width; }));
    t.push_back(clothParam(
        "cloth.grid.height", "Height", "m", G::Cloth, { 0.001, 1000 }, "Grid height (depth when horizontal)",
        [](auto &c) -> auto & { return c.grid.height; }));
    struct GridFlag {
        const char *key, *label, *help;
        bool GridDesc::*field;
    };
    for (const GridFlag &g :
        { GridFlag { "cloth.grid.structural", "Structural", "Edge constraints", &GridDesc::structural },
            GridFlag { "cloth.grid.shear", "Shear", "Quad diagonal constraints", &GridDesc::shear },
            GridFlag { "cloth.grid.bend", "Bend", "Dihedral bending with the material's bend rigidity",
                &GridDesc::bend },
            GridFlag { "cloth.grid.bendSprings", "Bend springs (legacy)",
                "Also the old distance constraints skipping one particle", &GridDesc::bendSprings } }) {
        auto f = g.field;
        t.push_back(clothParam(
            g.key, g.label, "", G::Cloth, { 0, 1 }, g.help, [f](auto &c) -> auto & { return c.grid.*f; }));
        t.back().integer = true;
        t.back().toggle = true;
    }
    t.push_back(clothParam(
        "cloth.rope.count", "Particles", "", G::Cloth, { 2, 100000 }, "Particles along the rope",
        [](auto &c) -> auto & { return c.rope.count; }));
    t.back().integer = true;
    t.push_back(clothParam(
        "cloth.rope.length", "Length", "m", G::Cloth, { 0.001, 1000 }, "Rest length of the rope",
        [](auto &c) -> auto & { return c.rope.length; }));
    t.push_back(clothParam(
        "cloth.rope.linkMass", "Link mass", "kg", G::Cloth, { 1e-6, 1000 }, "Mass of each rope particle",
        [](auto &c) -> auto & { return c.rope.linkMass; }));
    t.back().logScale = true;
    for (ParamDesc &p : t) {
        if (p.key.starts_with("cloth.grid.")) {
            p.needsRebuild = true;
            p.appliesTo = isGrid;
        } else if (p.key.starts_with("cloth.rope.")) {
            p.needsRebuild = true;
            p.appliesTo = isRope;
        }
    }

    // Placement of a cloth: moves its rest geometry, so a structural edit (a rebuild).
    for (int a = 0; a < 3; ++a) {
        t.push_back(clothParam(std::string("cloth.placement.offset.") + axes[a],
            std::string("Position ") + axisLabels[a], "m", G::Cloth, { -10000, 10000 },
            "Moves the cloth's rest shape and pins", [a](auto &c) -> auto & {
                return a == 0 ? c.placement.offset.x : a == 1 ? c.placement.offset.y : c.placement.offset.z;
            }));
        t.back().needsRebuild = true;
    }
    for (int a = 0; a < 3; ++a) {
        t.push_back(clothParam(std::string("cloth.placement.rotation.") + axes[a],
            std::string("Rotation ") + axisLabels[a], "°", G::Cloth, { -360, 360 },
            "Turns the cloth's rest shape about its centre (X, then Y, then Z)", [a](auto &c) -> auto & {
                return a == 0 ? c.placement.rotation.x : a == 1 ? c.placement.rotation.y : c.placement.rotation.z;
            }));
        t.back().needsRebuild = true;
    }
    t.push_back(clothParam("cloth.placement.scale", "Scale", "", G::Cloth, { 0.001, 1000 },
        "Scales the cloth's rest shape about its centre (masses follow the area)",
        [](auto &c) -> auto & { return c.placement.scale; }));
    t.back().needsRebuild = true;
    t.back().logScale = true;

    // Colliders.
    t.push_back(colliderParam(
        "collider.kind", "Shape", "", { 0, 4 }, "Plane, sphere, box, capsule or triangle mesh",
        [](auto &c) -> auto & { return c.kind; }));
    t.back().integer = true;
    t.back().enumNames = { "plane", "sphere", "box", "capsule", "mesh" };
    for (int a = 0; a < 3; ++a) {
        // The authored centre is the rest centre; the current centre follows it.
        ParamDesc p
            = makeDesc(std::string("collider.center.") + axes[a], std::string("Centre ") + axisLabels[a], "m",
                G::Collider, { -10000, 10000 }, "Centre (rest centre of a moving collider)");
        p.get = [a](const Scene &s, int i) {
            return i >= 0 && std::size_t(i) < s.colliders.size()
                ? double(s.colliders[std::size_t(i)].baseCenter[a])
                : 0.0;
        };
        p.set = [a](Scene &s, int i, double v) {
            if (i < 0 || std::size_t(i) >= s.colliders.size())
                return;
            Collider &c = s.colliders[std::size_t(i)];
            const float f = clampedFloat(v, -10000.0, 10000.0);
            (a == 0 ? c.baseCenter.x : a == 1 ? c.baseCenter.y : c.baseCenter.z) = f;
            (a == 0 ? c.center.x : a == 1 ? c.center.y : c.center.z) = f;
        };
        t.push_back(std::move(p));
    }
    for (int a = 0; a < 3; ++a) {
        t.push_back(colliderParam(std::string("collider.rotation.") + axes[a],
            std::string("Rotation ") + axisLabels[a], "°", { -360, 360 },
            "Turns the collider about its centre (X, then Y, then Z)", [a](auto &c) -> auto & {
                return a == 0 ? c.rotation.x : a == 1 ? c.rotation.y : c.rotation.z;
            }));
        t.back().appliesTo = [](const Scene &s, int i) { return !colliderIs(s, i, ColliderKind::Sphere); };
    }
    for (int a = 0; a < 3; ++a) {
        t.push_back(colliderParam(
            std::string("collider.normal.") + axes[a], std::string("Normal ") + axisLabels[a], "", { -1, 1 },
            "Plane normal (normalised on use)", [a](auto &c) -> auto & {
                return a == 0 ? c.normal.x : a == 1 ? c.normal.y : c.normal.z;
            }));
        t.back().appliesTo = [](const Scene &s, int i) { return colliderIs(s, i, ColliderKind::Plane); };
    }
    t.push_back(colliderParam(
        "collider.radius", "Radius", "m", { 0.001, 1000 }, "Sphere or capsule radius",
        [](auto &c) -> auto & { return c.radius; }));
    t.back().appliesTo = [](const Scene &s, int i) {
        return colliderIs(s, i, ColliderKind::Sphere) || colliderIs(s, i, ColliderKind::Capsule);
    };
    t.push_back(colliderParam(
        "collider.halfLength", "Half length", "m", { 0, 1000 },
        "Capsule: half the length of its core segment", [](auto &c) -> auto & { return c.halfLength; }));
    t.back().appliesTo = [](const Scene &s, int i) { return colliderIs(s, i, ColliderKind::Capsule); };
    for (int a = 0; a < 3; ++a) {
        t.push_back(colliderParam(
            std::string("collider.axis.") + axes[a], std::string("Axis ") + axisLabels[a], "", { -1, 1 },
            "Capsule axis (normalised on use)", [a](auto &c) -> auto & {
                return a == 0 ? c.axis.x : a == 1 ? c.axis.y : c.axis.z;
            }));
        t.back().appliesTo = [](const Scene &s, int i) { return colliderIs(s, i, ColliderKind::Capsule); };
    }
    for (int a = 0; a < 3; ++a) {
        t.push_back(colliderParam(
            std::string("collider.halfExtents.") + axes[a], std::string("Half extent ") + axisLabels[a], "m",
            { 0.001, 10000 }, "Box half size", [a](auto &c) -> auto & {
                return a == 0 ? c.halfExtents.x : a == 1 ? c.halfExtents.y : c.halfExtents.z;
            }));
        t.back().appliesTo = [](const Scene &s, int i) { return colliderIs(s, i, ColliderKind::Box); };
    }
    t.push_back(colliderParam(
        "collider.keepInside", "Keep inside", "", { 0, 1 }, "Box: the cloth stays inside (bouncing bounds)",
        [](auto &c) -> auto & { return c.keepInside; }));
    t.back().integer = true;
    t.back().toggle = true;
    t.back().appliesTo = [](const Scene &s, int i) { return colliderIs(s, i, ColliderKind::Box); };
    t.push_back(colliderParam(
        "collider.thickness", "Margin", "m", { 0, 1 }, "Extra distance kept between cloth and surface",
        [](auto &c) -> auto & { return c.thickness; }));
    t.push_back(colliderParam(
        "collider.friction", "Friction", "", { 0, 10 }, "Kinetic Coulomb friction coefficient (sliding)",
        [](auto &c) -> auto & { return c.friction; }));
    t.push_back(colliderParam(
        "collider.staticFriction", "Static friction", "", { -1, 10 },
        "Static Coulomb friction coefficient: cloth at rest holds on slopes below atan(μs); -1 = same as Friction",
        [](auto &c) -> auto & { return c.staticFriction; }));
    t.push_back(colliderParam(
        "collider.restitution", "Restitution", "", { 0, 1 }, "Fraction of normal speed kept on bounce",
        [](auto &c) -> auto & { return c.restitution; }));
    for (int a = 0; a < 3; ++a) {
        t.push_back(colliderParam(
            std::string("collider.motion.amplitude.") + axes[a],
            std::string("Motion amplitude ") + axisLabels[a], "m", { -1000, 1000 },
            "Amplitude of the sinusoidal motion", [a](auto &c) -> auto & {
                auto &m = c.motion.amplitude;
                return a == 0 ? m.x : a == 1 ? m.y : m.z;
            }));
    }
    t.push_back(colliderParam(
        "collider.motion.frequency", "Motion frequency", "Hz", { 0, 100 },
        "Frequency of the motion (0 = still)", [](auto &c) -> auto & { return c.motion.frequency; }));
    t.push_back(colliderParam(
        "collider.motion.phase", "Motion phase", "rad", { -kTwoPi, kTwoPi }, "Phase of the motion",
        [](auto &c) -> auto & { return c.motion.phase; }));

    // Defaults from the in-class defaults, read through the getters.
    Scene defaults;
    defaults.cloths.emplace_back();
    defaults.colliders.emplace_back();
    for (ParamDesc &p : t) {
        p.defaultValue = p.get(defaults, 0);
        if (p.group == G::Material && p.key != "material.damping" && p.enumNames.empty())
            p.logScale = true;
        if (p.key.find("Stiffness") != std::string::npos)
            p.logScale = true;
        if (p.key.find("warp") != std::string::npos)
            p.logScale = false; // 0 (= as the weft) must stay reachable
    }
    return t;
}

} // namespace

const char *paramGroupName(ParamGroup group)
{
    switch (group) {
    case ParamGroup::World:
        return "World";
    case ParamGroup::Wind:
        return "Wind";
    case ParamGroup::Solver:
        return "Solver";
    case ParamGroup::Material:
        return "Material";
    case ParamGroup::Cloth:
        return "Cloth";
    case ParamGroup::Collider:
        return "Collider";
    }
    return "";
}

const std::vector<ParamDesc> &sceneParams()
{
    static const std::vector<ParamDesc> table = makeTable();
    return table;
}

const ParamDesc *findParam(const std::string &key)
{
    for (const ParamDesc &p : sceneParams()) {
        if (p.key == key)
            return &p;
    }
    return nullptr;
}

namespace {

struct ConstraintKey {
    std::uint32_t a, b;
    ConstraintKind kind;
    bool operator==(const ConstraintKey &) const = default;
};

struct ConstraintKeyHash {
    std::size_t operator()(const ConstraintKey &k) const
    {
        return (std::size_t(k.a) * 0x9E3779B97F4A7C15ull) ^ (std::size_t(k.b) << 3) ^ std::size_t(k.kind);
    }
};

ConstraintKey keyOf(const DistanceConstraint &c)
{
    return { std::min(c.a, c.b), std::max(c.a, c.b), c.kind };
}

// Explicit cloth: each running constraint that the description lists as owning its
// properties (found by its particles) keeps the description's values; every other one takes
// the material's, as a generated cloth does. Constraints only the running cloth has (a vertex
// split re-joins particles) follow the material too, unless the description predates
// per-constraint ownership, in which case they keep what they have: nothing is inferred.
void applyExplicit(const ClothDesc &desc, Cloth &cloth)
{
    const ExplicitDesc &e = desc.explicitData;
    std::unordered_map<ConstraintKey, std::uint32_t, ConstraintKeyHash> index;
    index.reserve(e.constraints.size());
    for (std::uint32_t i = 0; i < e.constraints.size(); ++i)
        index.emplace(keyOf(e.constraints[i]), i);
    const float spacing = clothSpacing(desc);
    const Vec3 warp = warpAxis(desc);
    const std::vector<Vec3> &rest = cloth.particles.rest;
    cloth.constraints.modifyAll([&](DistanceConstraint &c) {
        const auto it = index.find(keyOf(c));
        const bool known = it != index.end();
        if (known ? ownsProperties(e, it->second) : (!e.own || c.kind == ConstraintKind::User)) {
            if (known) {
                const DistanceConstraint &d = e.constraints[it->second];
                c.compliance = d.compliance;
                c.damping = d.damping;
                c.tearStrain = d.tearStrain;
                c.tearForce = d.tearForce;
            }
            return;
        }
        const ConstraintParams p = materialParams(
            desc.material, c.kind, c.restLength, spacing, c.a < rest.size() && c.b < rest.size()
                ? warpShareOf(rest[c.b] - rest[c.a], warp)
                : 0.f);
        c.compliance = p.compliance;
        c.damping = p.damping;
        c.tearStrain = p.tearStrain;
        c.tearForce = p.tearForce;
    });
}

// Total mass the description gives the cloth, kg (areal density edits scale the masses).
double authoredMass(const ClothDesc &desc)
{
    // Placement scales an area by s² and a rope's length by s (placement.h).
    const double s = desc.placement.scale;
    switch (desc.source) {
    case ClothSource::Grid:
        return double(desc.material.arealDensity) * double(desc.grid.width) * double(desc.grid.height) * s * s;
    case ClothSource::Rope:
        return double(desc.rope.linkMass) * double(desc.rope.count) * s;
    case ClothSource::Explicit: {
        double sum = 0.0;
        for (float m : desc.explicitData.mass)
            sum += m;
        return sum * s * s;
    }
    }
    return 0.0;
}

void applyCollider(const Collider &authored, Collider &running, double time)
{
    running = authored;
    running.center = running.baseCenter;
    running.velocity = {};
    if (running.motion.moving())
        running.updateMotion(time);
}

} // namespace

void applySceneSettings(const Scene &scene, Simulation &sim)
{
    sim.world = scene.world;
    sim.solver = scene.solver;

    sim.colliders.resize(scene.colliders.size());
    for (std::size_t i = 0; i < scene.colliders.size(); ++i)
        applyCollider(scene.colliders[i], sim.colliders[i], sim.time());

    const std::size_t n = std::min(scene.cloths.size(), sim.cloths.size());
    for (std::size_t i = 0; i < n; ++i) {
        const ClothDesc &desc = scene.cloths[i];
        Cloth &cloth = sim.cloths[i];
        cloth.name = desc.name;
        cloth.tearMode = desc.tearMode;
        cloth.thickness = desc.thickness;
        cloth.tetherStretch = desc.tetherStretch;
        cloth.bending = bendingOf(desc);
        if (desc.source == ClothSource::Explicit)
            applyExplicit(desc, cloth);
        else
            applyMaterial(cloth, desc.material, clothSpacing(desc), warpAxis(desc));

        const double current = cloth.totalMass();
        const double wanted = authoredMass(desc);
        if (current > 0.0 && wanted > 0.0 && std::abs(wanted / current - 1.0) > 1e-6) {
            const float ratio = float(wanted / current);
            for (std::uint32_t p = 0; p < cloth.particles.size(); ++p)
                cloth.particles.setMass(p, cloth.particles.mass[p] * ratio);
        }
    }
}

} // namespace drape
