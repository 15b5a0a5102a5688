// Scene → simulation: materials in physical units become per-constraint solver numbers, cloth
// descriptions become cloths (through the shared builders), and a running simulation can be
// captured back into a scene (explicit topology, state) for saving.
#include "scene/scene.h"

#include "base/rotation.h"
#include "placement.h"

#include <algorithm>
#include <cmath>

namespace drape {

const std::vector<Material> &materialPresets()
{
    // Typical values, not measurements of one particular fabric. Areal densities are common
    // fabric weights (cotton shirting ~150 g/m², 12 oz denim ~400 g/m², silk habotai ~50 g/m²,
    // 1 mm leather ~900 g/m², 1 mm natural rubber sheet ~1.1 kg/m² at 1100 kg/m³).
    // Membrane stiffnesses are of the order of magnitude measured for woven fabrics in
    // Kawabata-style tensile tests (10²–10⁴ N/m; see e.g. Wang, O'Brien & Ramamoorthi 2011,
    // "Data-driven elastic models for cloth"), with rubber far softer and stretchier.
    // Bending rigidities (N·m per unit width) are of the order of KES-FB2 pure-bending
    // measurements, 0.01–2 gf·cm²/cm ≈ 1e-6–2e-4 N·m: silk habotai the limpest, shirting
    // cotton ~1e-5, denim a few times stiffer, 1 mm leather ~2e-4.
    // clang-format off
    static const std::vector<Material> presets = {
        // name     density  stretch  shear   bend    damping tear
        {"cotton",  0.15f,   2000.f,  200.f,  1e-5f,  0.02f,  0.5f},
        {"denim",   0.40f,   5000.f,  600.f,  4e-5f,  0.03f,  0.8f},
        {"silk",    0.05f,   800.f,   30.f,   1e-6f,  0.01f,  0.3f},
        {"leather", 0.90f,   10000.f, 3000.f, 2e-4f,  0.05f,  1.0f},
        {"rubber",  1.10f,   150.f,   60.f,   5e-6f,  0.01f,  3.0f},
        // Cotton canvas: a woven fabric whose warp is about three times stiffer than its weft
        // (warp yarns are sized and tensioned on the loom); tears by tension or strain.
        {"canvas",  0.35f,   4000.f,  300.f,  3e-5f,  0.03f,  0.6f,  3000.f, TearCriterion::Either, 12000.f, 9e-5f},
    };
    // clang-format on
    return presets;
}

namespace {

Vec3 unplacedWarp(const ClothDesc &desc)
{
    switch (desc.source) {
    case ClothSource::Grid:
        return desc.grid.orientation == GridOrientation::Horizontal ? Vec3 { 0.f, 0.f, 1.f } : Vec3 { 0.f, 1.f, 0.f };
    case ClothSource::Rope:
        return {};
    case ClothSource::Explicit:
        return desc.explicitData.warp;
    }
    return {};
}

} // namespace

Vec3 warpAxis(const ClothDesc &desc)
{
    return rotationFromEuler(desc.placement.rotation) * unplacedWarp(desc);
}

BendingParams bendingOf(const ClothDesc &desc)
{
    BendingParams b;
    if ((desc.source == ClothSource::Grid && !desc.grid.bend)
        || (desc.source == ClothSource::Explicit && !desc.explicitData.bending))
        return b;
    b.rigidity = desc.material.bendRigidity;
    b.warpRigidity = desc.material.warpBendRigidity;
    b.warpAxis = warpAxis(desc);
    return b;
}

float warpShareOf(const Vec3 &d, const Vec3 &axis)
{
    const float dd = lengthSquared(d), aa = lengthSquared(axis);
    if (!(dd > 0.f) || !(aa > 0.f))
        return 0.f;
    const float c = dot(d, axis);
    return std::clamp(c * c / (dd * aa), 0.f, 1.f);
}

ConstraintParams materialParams(const Material &m, ConstraintKind kind, float restLength, float spacing, float warpShare)
{
    // A constraint stands for a strip of the sheet about one particle spacing wide: a strip of
    // width w and length L of membrane stiffness K (N/m) has spring stiffness k = K·w/L (N/m),
    // so a structural edge of a square grid gets k = K. Compliance is 1/k (m/N).
    // Woven fabric: a constraint at angle φ to the warp gets K = K_weft sin²φ + K_warp cos²φ,
    // so edges along the threads take the thread's stiffness (the usual orthotropic
    // membrane's axial terms; shear keeps its own value).
    const float warpStretch = m.warpStretchStiffness > 0.f ? m.warpStretchStiffness : m.stretchStiffness;
    // Legacy bending springs (kind Bend) take the rigidity as an N/m stiffness through
    // kLegacyBendArea; dihedral bending (bendingOf) uses it as it is.
    const float warpBend = (m.warpBendRigidity > 0.f ? m.warpBendRigidity : m.bendRigidity) / kLegacyBendArea;
    float stiffness = m.stretchStiffness + (warpStretch - m.stretchStiffness) * warpShare;
    if (kind == ConstraintKind::Shear)
        stiffness = m.shearStiffness;
    else if (kind == ConstraintKind::Bend)
        stiffness = m.bendRigidity / kLegacyBendArea + (warpBend - m.bendRigidity / kLegacyBendArea) * warpShare;
    const float length = restLength > 1e-9f ? restLength : 1e-9f;
    const float width = spacing > 0.f ? spacing : length;
    const float k = stiffness * width / length;
    ConstraintParams p;
    p.compliance = k > 0.f ? 1.f / k : 0.f;
    p.damping = m.damping;
    // Tension threshold per constraint: the material's N/m over the strip width the
    // constraint stands for, the same width that scales its stiffness.
    p.tearStrain = m.tearBy == TearCriterion::Tension ? kNeverTear : m.tearStrain;
    p.tearForce = m.tearBy == TearCriterion::Strain ? kNeverTear : m.tearTension * width;
    return p;
}

std::size_t particleCount(const ClothDesc &desc)
{
    switch (desc.source) {
    case ClothSource::Grid:
        return desc.grid.across > 0 && desc.grid.down > 0
            ? std::size_t(desc.grid.across) * std::size_t(desc.grid.down)
            : 0;
    case ClothSource::Rope:
        return desc.rope.count > 0 ? std::size_t(desc.rope.count) : 0;
    case ClothSource::Explicit:
        return desc.explicitData.rest.size();
    }
    return 0;
}

namespace {

float unplacedSpacing(const ClothDesc &desc)
{
    switch (desc.source) {
    case ClothSource::Grid: {
        const float hx = desc.grid.width / float(std::max(1, desc.grid.across - 1));
        const float hy = desc.grid.height / float(std::max(1, desc.grid.down - 1));
        return std::sqrt(hx * hy);
    }
    case ClothSource::Rope:
        return desc.rope.length / float(std::max(1, desc.rope.count - 1));
    case ClothSource::Explicit: {
        if (desc.explicitData.spacing > 0.f)
            return desc.explicitData.spacing;
        double sum = 0.0, sumAll = 0.0;
        std::size_t n = 0, nAll = 0;
        for (const DistanceConstraint &c : desc.explicitData.constraints) {
            sumAll += c.restLength;
            ++nAll;
            if (c.kind == ConstraintKind::Structural) {
                sum += c.restLength;
                ++n;
            }
        }
        if (n > 0)
            return float(sum / double(n));
        return nAll > 0 ? float(sumAll / double(nAll)) : 0.f;
    }
    }
    return 0.f;
}

} // namespace

float clothSpacing(const ClothDesc &desc)
{
    return unplacedSpacing(desc) * desc.placement.scale;
}

void applyMaterial(Cloth &cloth, const Material &material, float spacing, const Vec3 &warp)
{
    const std::vector<Vec3> &rest = cloth.particles.rest;
    cloth.constraints.modifyAll([&](DistanceConstraint &c) {
        const float share = warpShareOf(rest[c.b] - rest[c.a], warp);
        const ConstraintParams p = materialParams(material, c.kind, c.restLength, spacing, share);
        c.compliance = p.compliance;
        c.damping = p.damping;
        c.tearStrain = p.tearStrain;
        c.tearForce = p.tearForce;
    });
}

FabricLook fabricLookOf(const ViewSettings &view)
{
    return view.shading == Shading::Checker ? FabricLook::Checker : view.fabric;
}

Scene withoutPresentation(Scene scene)
{
    scene.name.clear();
    scene.description.clear();
    scene.camera = {};
    scene.view = {};
    scene.record = {};
    // Names and visibility in the viewport change nothing a replay computes.
    for (ClothDesc &c : scene.cloths) {
        c.name.clear();
        c.hidden = false;
    }
    for (Collider &c : scene.colliders) {
        c.name.clear();
        c.hidden = false;
    }
    return scene;
}

bool ownsProperties(const ExplicitDesc &desc, std::uint32_t index)
{
    return !desc.own || std::binary_search(desc.own->begin(), desc.own->end(), index);
}

std::vector<std::uint32_t> constraintsWithOwnProperties(
    const Cloth &cloth, const Material &material, float spacing, const Vec3 &warp)
{
    std::vector<std::uint32_t> own;
    const std::vector<Vec3> &rest = cloth.particles.rest;
    for (std::uint32_t i = 0; i < cloth.constraints.size(); ++i) {
        const DistanceConstraint &c = cloth.constraints[i];
        const ConstraintParams p
            = materialParams(material, c.kind, c.restLength, spacing, warpShareOf(rest[c.b] - rest[c.a], warp));
        if (!(c.compliance == p.compliance && c.damping == p.damping && c.tearStrain == p.tearStrain
                && c.tearForce == p.tearForce))
            own.push_back(i);
    }
    return own;
}

ExplicitDesc explicitFor(const ClothDesc &desc, const Cloth &cloth)
{
    ExplicitDesc e = explicitFromCloth(cloth);
    if (desc.source == ClothSource::Explicit && !desc.explicitData.own)
        return e; // a file from before per-constraint ownership: every constraint keeps its own
    // The running rest positions are placed already, as are the spacing and the warp: the
    // caller clears the placement.
    e.spacing = clothSpacing(desc);
    e.warp = warpAxis(desc);
    e.own = constraintsWithOwnProperties(cloth, desc.material, e.spacing, e.warp);
    return e;
}

namespace {

Cloth buildExplicit(const ExplicitDesc &e)
{
    Cloth cloth;
    const std::size_t n = e.rest.size();
    for (std::size_t i = 0; i < n; ++i) {
        const float m = i < e.mass.size() ? e.mass[i] : 0.f;
        const ParticleKind k = i < e.kind.size() ? e.kind[i] : ParticleKind::Dynamic;
        cloth.particles.add(e.rest[i], m, k);
    }
    std::vector<DistanceConstraint> constraints = e.constraints;
    for (DistanceConstraint &c : constraints)
        c.colour = DistanceConstraint::kUncoloured; // a scene's cloth is coloured afresh
    cloth.constraints = std::move(constraints);
    cloth.triangles = e.triangles;
    if (e.uv.size() == n)
        cloth.uv = e.uv;
    return cloth;
}

} // namespace

namespace {

// The cloth as its generator or explicit lists give it, before placement.
Cloth buildUnplaced(const ClothDesc &desc)
{
    Cloth cloth;
    const float spacing = clothSpacing(desc);
    switch (desc.source) {
    case ClothSource::Grid: {
        GridSpec spec;
        spec.across = desc.grid.across;
        spec.down = desc.grid.down;
        spec.width = desc.grid.width;
        spec.height = desc.grid.height;
        spec.orientation = desc.grid.orientation;
        spec.origin = desc.grid.origin;
        spec.structural = desc.grid.structural;
        spec.shear = desc.grid.shear;
        spec.bend = desc.grid.bendSprings; // legacy skip-one springs only when asked for
        spec.arealDensity = desc.material.arealDensity;
        cloth = makeGrid(spec);
        applyMaterial(cloth, desc.material, spacing, warpAxis(desc));
        break;
    }
    case ClothSource::Rope: {
        RopeSpec spec;
        spec.count = desc.rope.count;
        spec.length = desc.rope.length;
        spec.start = desc.rope.start;
        spec.direction = desc.rope.direction;
        spec.linkMass = desc.rope.linkMass;
        cloth = makeRope(spec);
        applyMaterial(cloth, desc.material, spacing, warpAxis(desc));
        break;
    }
    case ClothSource::Explicit: {
        // Constraints that own their properties keep them; the others follow the material.
        cloth = buildExplicit(desc.explicitData);
        const Vec3 warp = warpAxis(desc);
        const std::vector<Vec3> &rest = cloth.particles.rest;
        for (std::uint32_t i = 0; i < cloth.constraints.size(); ++i) {
            if (ownsProperties(desc.explicitData, i))
                continue;
            DistanceConstraint c = cloth.constraints[i];
            const ConstraintParams p = materialParams(
                desc.material, c.kind, c.restLength, spacing, warpShareOf(rest[c.b] - rest[c.a], warp));
            c.compliance = p.compliance;
            c.damping = p.damping;
            c.tearStrain = p.tearStrain;
            c.tearForce = p.tearForce;
            cloth.constraints.set(i, c);
        }
        break;
    }
    }
    cloth.name = desc.name;
    cloth.tearMode = desc.tearMode;
    cloth.thickness = desc.thickness;
    cloth.tetherStretch = desc.tetherStretch;
    cloth.bending = bendingOf(desc);
    for (std::uint32_t p : desc.pins) {
        if (p < cloth.particles.size())
            cloth.particles.setKind(p, ParticleKind::Static);
    }
    return cloth;
}

} // namespace

Cloth buildCloth(const ClothDesc &desc)
{
    if (desc.placement.isIdentity())
        return buildUnplaced(desc);
    const Vec3 pivot = placementPivot(desc);
    ClothDesc plain = desc.placement.scale == 1.f ? desc : detail::scaledAbout(desc, pivot, desc.placement.scale);
    plain.placement = {};
    Cloth cloth = buildUnplaced(plain);
    detail::placeRigidly(cloth, desc.placement, pivot);
    return cloth;
}

Simulation buildSimulation(const Scene &scene)
{
    Simulation sim;
    sim.world = scene.world;
    sim.solver = scene.solver;
    sim.cloths.reserve(scene.cloths.size());
    for (const ClothDesc &desc : scene.cloths)
        sim.cloths.push_back(buildCloth(desc));
    sim.colliders = scene.colliders;
    const double t = scene.state ? scene.state->time : 0.0;
    for (Collider &c : sim.colliders) {
        c.center = c.baseCenter;
        c.velocity = {};
        if (c.motion.moving())
            c.updateMotion(t);
    }
    if (!scene.state)
        return sim;

    const SceneState &state = *scene.state;
    for (std::size_t i = 0; i < sim.cloths.size() && i < state.cloths.size(); ++i) {
        Particles &p = sim.cloths[i].particles;
        const ClothState &s = state.cloths[i];
        const std::size_t n = p.size();
        if (s.position.size() != n || s.previous.size() != n || s.velocity.size() != n || s.kind.size() != n)
            continue; // the loader rejects this; programmatic callers keep the rest state
        p.position = s.position;
        p.previous = s.previous;
        p.velocity = s.velocity;
        for (std::uint32_t j = 0; j < n; ++j)
            p.setKind(j, s.kind[j]);
    }
    for (std::size_t i = 0; i < sim.colliders.size() && i < state.colliderCenters.size(); ++i)
        sim.colliders[i].center = state.colliderCenters[i];
    // A state saved after stepping continues the solvers' history (bit-identical resume);
    // a state at frame 0 starts them afresh, like a new run.
    if (state.frame > 0)
        sim.resumeAt(state.time, state.frame);
    else
        sim.setTime(state.time, state.frame);
    return sim;
}

ExplicitDesc explicitFromCloth(const Cloth &cloth)
{
    ExplicitDesc e;
    e.rest = cloth.particles.rest;
    e.mass = cloth.particles.mass;
    e.kind = cloth.particles.kind;
    e.constraints = cloth.constraints.records();
    // The solver's colours are state of the run, not of the scene: a start made from a
    // running cloth is coloured afresh, as it would be after saving and opening it.
    for (DistanceConstraint &c : e.constraints)
        c.colour = DistanceConstraint::kUncoloured;
    e.triangles = cloth.triangles;
    if (cloth.uv.size() == cloth.particles.size())
        e.uv = cloth.uv;
    e.bending = cloth.bending.rigidity > 0.f || cloth.bending.warpRigidity > 0.f; // a limp cloth stays limp
    return e;
}

SceneState captureState(const Simulation &sim)
{
    SceneState s;
    s.time = sim.time();
    s.frame = sim.frame();
    s.cloths.reserve(sim.cloths.size());
    for (const Cloth &cloth : sim.cloths) {
        ClothState c;
        c.position = cloth.particles.position;
        c.previous = cloth.particles.previous;
        c.velocity = cloth.particles.velocity;
        c.kind = cloth.particles.kind;
        s.cloths.push_back(std::move(c));
    }
    s.colliderCenters.reserve(sim.colliders.size());
    for (const Collider &c : sim.colliders)
        s.colliderCenters.push_back(c.center);
    return s;
}

namespace {

// Kinds as authored: a grab (kinematic) is a transient interaction, not an edit.
std::vector<ParticleKind> authoredKinds(const std::vector<ParticleKind> &kinds)
{
    std::vector<ParticleKind> out = kinds;
    for (ParticleKind &k : out) {
        if (k == ParticleKind::Kinematic)
            k = ParticleKind::Dynamic;
    }
    return out;
}

bool sameTopology(const Cloth &built, const Cloth &running)
{
    return built.particles.size() == running.particles.size()
        && authoredKinds(built.particles.kind) == authoredKinds(running.particles.kind)
        && built.constraints == running.constraints && built.triangles == running.triangles;
}

} // namespace

Scene snapshotScene(const Scene &scene, const Simulation &sim, bool withState)
{
    Scene out = scene;
    out.state.reset();
    const std::size_t n = std::min(out.cloths.size(), sim.cloths.size());
    for (std::size_t i = 0; i < n; ++i) {
        ClothDesc &desc = out.cloths[i];
        const Cloth &running = sim.cloths[i];
        if (sameTopology(buildCloth(desc), running))
            continue;
        ExplicitDesc made = explicitFor(desc, running); // from the description as it was
        desc.source = ClothSource::Explicit;
        desc.grid = GridDesc {};
        desc.rope = RopeDesc {};
        desc.placement = {}; // the explicit lists are placed already
        desc.explicitData = std::move(made);
        desc.explicitData.kind = authoredKinds(desc.explicitData.kind);
        desc.pins.clear();
        for (std::uint32_t p = 0; p < desc.explicitData.kind.size(); ++p) {
            if (desc.explicitData.kind[p] == ParticleKind::Static)
                desc.pins.push_back(p);
        }
    }
    if (withState) {
        SceneState state = captureState(sim);
        state.cloths.resize(out.cloths.size());
        out.state = std::move(state);
    }
    return out;
}

} // namespace drape
