// The scene: what a user authors, saves, undoes and reloads: the start of the document. A
// Simulation is built from it (buildSimulation) and played forward with the take (take.h,
// edit/player.h); the running state never feeds back into the scene, except when the user
// makes it the new start ("Set start here", a save with state).
#pragma once

#include "sim/builders.h"
#include "sim/cloth.h"
#include "sim/collider.h"
#include "sim/settings.h"
#include "sim/simulation.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace drape {

/// What makes a material tear (cloth.tearMode says how).
enum class TearCriterion : std::uint8_t {
    Strain = 0,  ///< stretched past tearStrain (the classic write-ups)
    Tension = 1, ///< pulled harder than tearTension per unit width
    Either = 2,  ///< whichever comes first
};

/// A fabric in physical units. The solver-specific numbers (per-constraint compliance,
/// spring stiffness, particle masses) are derived from it by materialParams(), so one
/// material behaves the same on every solver as far as the solver allows.
struct Material {
    std::string name = "cotton";
    float arealDensity = 0.15f;     ///< kg/m²
    float stretchStiffness = 2000.f; ///< N/m, membrane stiffness along the weft (force per unit width per unit strain)
    float shearStiffness = 200.f;    ///< N/m, in-plane shear stiffness
    /// N·m, bending rigidity per unit width B (Euler–Bernoulli plate: moment per unit width per
    /// unit curvature) for curvature across the warp, i.e. bending the weft threads
    float bendRigidity = 1e-5f;
    float damping = 0.02f;           ///< N·s/m per constraint, damping along the constraint
    float tearStrain = 0.5f;         ///< strain (stretch / rest length) at which the cloth tears
    float tearTension = 1000.f;      ///< N/m, tension per unit width at which the cloth tears (tearBy tension/either)
    TearCriterion tearBy = TearCriterion::Strain; ///< strain (default, as before), tension or either
    /// Woven fabric: stiffness along the warp (the grid's down / depth axis), in the units of
    /// the weft values above; 0 = the same as the weft (isotropic, as before).
    float warpStretchStiffness = 0.f;
    float warpBendRigidity = 0.f; ///< N·m, B for curvature along the warp (bending the warp threads); 0 = bendRigidity
    /// Read from a file that gave the bend stiffness in the old N/m units ("bendStiffness",
    /// docs/scene-format.md); such a material is saved back in them, so the file keeps its bytes.
    bool legacyBendUnits = false;

    bool operator==(const Material &) const = default;
};

/// The built-in fabrics (cotton, denim, silk, leather, rubber).
const std::vector<Material> &materialPresets();

/// Where a cloth's particles and constraints come from.
enum class ClothSource : std::uint8_t {
    Grid = 0,     ///< generated from `grid`
    Rope = 1,     ///< generated from `rope`
    Explicit = 2, ///< explicit lists (an edited, cut or torn cloth saves as this)
};

struct GridDesc {
    int across = 32;
    int down = 32;
    float width = 1.f;   ///< m
    float height = 1.f;  ///< m
    GridOrientation orientation = GridOrientation::Vertical;
    Vec3 origin{-0.5f, 1.5f, 0.f}; ///< m, top-left particle
    bool structural = true;
    bool shear = true;
    bool bend = true;         ///< dihedral bending with the material's bend rigidity (off: none)
    bool bendSprings = false; ///< legacy: also the distance constraints skipping one particle

    bool operator==(const GridDesc &) const = default;
};

struct RopeDesc {
    int count = 20;
    float length = 1.f;               ///< m
    Vec3 start{0.f, 1.5f, 0.f};       ///< m
    Vec3 direction{0.f, -1.f, 0.f};
    float linkMass = 0.01f;           ///< kg per particle

    bool operator==(const RopeDesc &) const = default;
};

/// A cloth's topology as explicit lists (rest positions, masses, kinds, constraints with
/// their own properties, triangles).
struct ExplicitDesc {
    std::vector<Vec3> rest;
    std::vector<float> mass;                     ///< kg per particle
    std::vector<ParticleKind> kind;
    std::vector<DistanceConstraint> constraints; ///< compliance, damping, tear: the material's, or their own
    std::vector<Triangle> triangles;
    std::vector<std::array<float, 2>> uv;        ///< texture coordinates per particle (optional, imported meshes)
    /// Constraints (ascending indices) that keep their own compliance, damping and tearing
    /// (sewn, or edited one by one); the others take them from the cloth's material, so a
    /// material change reaches them and rescales nothing. Absent (files written before the
    /// key): every constraint keeps its own.
    std::optional<std::vector<std::uint32_t>> own;
    /// m, the particle spacing the material's numbers are scaled by; 0 = the mean structural
    /// rest length. A grid made explicit keeps the grid's.
    float spacing = 0.f;
    /// The warp (thread) direction in rest space (a horizontal grid's is Z).
    Vec3 warp { 0.f, 1.f, 0.f };
    bool bending = true; ///< dihedral bending with the material's rigidity (false: a limp cloth, e.g. a torn net)

    bool operator==(const ExplicitDesc &) const = default;
};

/// Where a cloth is put: its rest geometry (and so its pins) scaled by `scale` and turned by
/// `rotation` about the centre of its untransformed rest bounds, then moved by `offset`.
/// The identity leaves the generated or explicit geometry as it is (files from before it).
struct Placement {
    Vec3 offset{0.f, 0.f, 0.f};   ///< m
    Vec3 rotation{0.f, 0.f, 0.f}; ///< degrees about X, then Y, then Z (base/rotation.h)
    float scale = 1.f;            ///< uniform; lengths scale by it, masses by its square (rope: itself)

    bool operator==(const Placement &) const = default;
    bool isIdentity() const { return *this == Placement {}; }
};

struct ClothDesc {
    std::string name = "cloth";
    ClothSource source = ClothSource::Grid;
    GridDesc grid;
    RopeDesc rope;
    ExplicitDesc explicitData;          ///< used when source == Explicit
    Material material;
    std::vector<std::uint32_t> pins;    ///< particle indices pinned (static), sorted, unique
    TearMode tearMode = TearMode::None;
    float thickness = 0.005f;           ///< m
    float tetherStretch = 0.f;          ///< max distance to the nearest pin over its rest geodesic distance; 0 = off
    Vec3 frontColor{0.80f, 0.25f, 0.20f}; ///< linear RGB 0..1
    Vec3 backColor{0.95f, 0.85f, 0.55f};  ///< linear RGB 0..1
    Placement placement;                ///< moves, turns and scales the rest geometry
    bool hidden = false;                ///< not drawn in the viewport (still simulated); presentation only

    bool operator==(const ClothDesc &) const = default;
};

struct CameraDesc {
    Vec3 target{0.f, 1.f, 0.f}; ///< m, orbit centre
    float yaw = 0.f;             ///< degrees, about +Y; 0 looks along -Z
    float pitch = 10.f;          ///< degrees, positive looks down
    float distance = 3.f;        ///< m
    float fovY = 45.f;           ///< degrees (perspective)
    bool orthographic = false;   ///< 2D scenes use an orthographic front view
    float orthoHeight = 2.f;     ///< m, visible height in orthographic mode

    bool operator==(const CameraDesc &) const = default;
};

/// How the cloth is lit. Checker is the older spelling of Smooth with the checker fabric look
/// (files keep it; the editor writes the look as `fabric` instead).
enum class Shading : std::uint8_t { Smooth = 0, Flat = 1, Checker = 2 };

/// The pattern drawn on a cloth through its texture coordinates (imported UVs, or coordinates
/// along the weft and the warp of its rest shape).
enum class FabricLook : std::uint8_t {
    None = 0,    ///< the cloth's plain colours
    Checker = 1, ///< eight squares across the cloth's texture space
    Weave = 2,   ///< a procedural plain weave, warp and weft threads passing over and under
    Image = 3,   ///< a picture the user chose (kept in the editor's settings, never in the scene)
};

struct ViewSettings {
    Shading shading = Shading::Smooth;
    FabricLook fabric = FabricLook::None;
    /// threads per metre of the weave look, each way; real cloth has 2000–5000, finer than a
    /// pixel at the distances a viewport shows, so the default draws them coarser to be seen
    float weaveDensity = 60.f;
    bool wireframe = false;
    bool showParticles = false;
    bool showConstraints = false;
    bool showStrain = false;     ///< strain / tear-risk heat map
    bool showPins = true;
    bool showGround = true;      ///< ground grid
    Vec3 background{0.16f, 0.17f, 0.19f}; ///< linear RGB 0..1

    bool operator==(const ViewSettings &) const = default;
};

/// The fabric look a view draws: `fabric`, or Checker for the older shading "checker".
FabricLook fabricLookOf(const ViewSettings &view);

enum class RecordFormat : std::uint8_t { Mp4 = 0, WebM = 1, Gif = 2, PngSequence = 3, ObjSequence = 4 };

struct RecordSettings {
    RecordFormat format = RecordFormat::Mp4;
    int fps = 30;            ///< frames per second of the output
    int width = 1280;        ///< px (0 = the viewport's size)
    int height = 720;        ///< px
    int quality = 80;        ///< 0..100
    int frames = 150;        ///< frames to record (0 = until stopped)
    bool overlays = false;   ///< include wireframe/strain overlays
    bool transparent = false; ///< PNG: transparent background
    int startFrame = 0;      ///< first document frame (solver frames since the start) of playback and export
    int endFrame = 0;        ///< last document frame of playback and export (> startFrame); 0 = no end (`frames` sets an export's length)

    bool operator==(const RecordSettings &) const = default;
};

/// A saved simulation state, so a paused scene resumes exactly where it was.
struct ClothState {
    std::vector<Vec3> position;
    std::vector<Vec3> previous;
    std::vector<Vec3> velocity;
    std::vector<ParticleKind> kind;

    bool operator==(const ClothState &) const = default;
};
struct SceneState {
    double time = 0.0;
    std::uint64_t frame = 0;
    std::vector<ClothState> cloths;
    std::vector<Vec3> colliderCenters;

    bool operator==(const SceneState &) const = default;
};

struct Scene {
    std::string name = "Untitled";
    std::string description;
    WorldSettings world;
    SolverSettings solver;
    std::vector<ClothDesc> cloths;
    std::vector<Collider> colliders;
    CameraDesc camera;
    ViewSettings view;
    RecordSettings record;
    std::optional<SceneState> state; ///< present when saved with state

    bool operator==(const Scene &) const = default;
};

/// m², the area that converts between the bend rigidity B (N·m) and the N/m stiffness of the
/// legacy bending springs (distance constraints of kind Bend) and of scene files written
/// before bending was dihedral: K = B / kLegacyBendArea. Skip-one springs have no linear
/// bending stiffness (a fold of θ changes their length by ∝ θ²), so no exact conversion
/// exists; (2.24 mm)² maps the old built-in fabrics onto measured rigidities (cotton shirting
/// 2 N/m → 1e-5 N·m, about 0.1 gf·cm²/cm in KES-FB2 terms). See docs/scene-format.md.
constexpr float kLegacyBendArea = 5e-6f;

/// The dihedral bending of a cloth described by `desc` (material rigidities, warp axis; none
/// for a grid with bending switched off).
BendingParams bendingOf(const ClothDesc &desc);

/// Per-constraint numbers derived from a material for a constraint of `kind` and `restLength`,
/// in a cloth whose particle spacing is `spacing` (m). `warpShare` = cos² of the angle between
/// the constraint and the warp: stretch and bend stiffness blend weft (0) and warp (1) values.
ConstraintParams materialParams(
    const Material &m, ConstraintKind kind, float restLength, float spacing, float warpShare = 0.f);

/// The warp (thread) direction of a cloth in its rest space: a grid's down axis (Y when
/// vertical, Z when horizontal), Y for explicit cloths; zero (isotropic) for a rope; turned
/// by the cloth's placement.
Vec3 warpAxis(const ClothDesc &desc);
/// cos² of the angle between the rest direction `d` and `axis` (0 when either is zero).
float warpShareOf(const Vec3 &d, const Vec3 &axis);

/// `scene` without what the simulation does not read (name, description, camera, view and
/// recording settings, the names of cloths and colliders and whether they are hidden): two scenes that compare equal this way simulate the same.
Scene withoutPresentation(Scene scene);

/// True when constraint `index` of an explicit description keeps its own properties.
bool ownsProperties(const ExplicitDesc &desc, std::uint32_t index);
/// The constraints of `cloth` whose properties are not the ones `material` gives them (at
/// `spacing`, warp along `warp`): exactly equal values follow the material, others are their own.
std::vector<std::uint32_t> constraintsWithOwnProperties(
    const Cloth &cloth, const Material &material, float spacing, const Vec3 &warp);
/// `desc` made explicit from the running `cloth` (cut, sewn, pinned at the start): the
/// grid's spacing and warp are kept, and only constraints whose properties differ from the
/// material's are marked as their own.
ExplicitDesc explicitFor(const ClothDesc &desc, const Cloth &cloth);

/// The point a cloth's placement turns and scales about: the centre of the bounds of its
/// rest geometry before placement (m).
Vec3 placementPivot(const ClothDesc &desc);
/// Where the placed cloth's pivot is (the pivot moved by the offset): the gizmo's centre.
inline Vec3 placedCentre(const ClothDesc &desc) { return placementPivot(desc) + desc.placement.offset; }

/// Builds the simulated cloth of a description (generated or explicit, placed, pins applied).
Cloth buildCloth(const ClothDesc &desc);
/// Builds the whole simulation; applies `scene.state` when present.
Simulation buildSimulation(const Scene &scene);
/// Snapshot of a running cloth's topology as explicit lists (what an edited cloth saves as).
ExplicitDesc explicitFromCloth(const Cloth &cloth);
/// Snapshot of a running simulation's state.
SceneState captureState(const Simulation &sim);

/// Number of particles a description builds (grid across·down, rope count, explicit list size).
std::size_t particleCount(const ClothDesc &desc);
/// Typical particle spacing of a cloth (m): the strip width that materialParams() gives each
/// constraint. Grid: √(cell width · cell height); rope: link length; explicit: the mean
/// rest length of its structural constraints (of all constraints when it has none); times
/// the placement's scale.
float clothSpacing(const ClothDesc &desc);
/// Sets every constraint's compliance, damping and tear strain from `material`.
/// Each constraint's warp share comes from its rest direction (Particles::rest) and `warp`.
void applyMaterial(Cloth &cloth, const Material &material, float spacing, const Vec3 &warp = {});

/// What a save writes: a copy of `scene` in which every cloth whose running topology
/// (particle count, kinds, constraints, triangles) no longer matches what its description
/// builds is replaced by explicit lists taken from `sim` (cut, torn, sewn or pinned cloth);
/// with `withState` the running state (positions, velocities, time, collider centres) too.
Scene snapshotScene(const Scene &scene, const Simulation &sim, bool withState);

} // namespace drape
