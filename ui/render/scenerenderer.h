// Draws a scene and its running simulation with OpenGL 3.3 core, through libepoxy, so the
// same code renders in the viewport's Qt context and in a headless EGL context (`drape
// render`, the recorder). Neither Qt's QOpenGL* headers nor epoxy appear here.
//
// Lighting: a key light with a shadow map (shadowmap.h), contact darkening near colliders and
// the ground, and a tone curve (shaders/lighting.glsl).
//
// Buffers: per cloth, positions/normals are uploaded at the start of a frame (before the shadow
// pass, which draws the same buffers), and only when the positions differ from those the
// buffers hold, with glBufferSubData into buffers sized for the particle count (reallocated only
// when the count grows); strain ratios go up each frame they are shown. Triangle and edge index
// buffers and the texture coordinates of the fabric looks (renderdata.h, computeClothUvs) are
// rebuilt only when the cloth's topologyRevision (or its particle/triangle/constraint counts)
// change. The shadow map is drawn again only when a caster changed (updateShadowMap).
//
// Per pixel: the programs are compiled per combination of the features a frame uses
// (GlProgramVariants: shadow filter, contact shading, fabric look, flat shading, heat map), so
// a feature that is off costs nothing on a software renderer; the cloth is drawn before the
// colliders and the ground so that the depth test spares their shading where it covers them.
// Same inputs give the same pixels: nothing depends on wall-clock time.
#pragma once

#include "scene/camera.h"
#include "render/glprogram.h"
#include "render/renderdata.h"
#include "scene/scene.h"
#include "sim/simulation.h"

#include <QImage>
#include <QString>

#include <array>

#include <cstdint>
#include <map>
#include <memory>
#include <vector>

namespace drape {

struct RenderOptions {
    bool overlays = true;              ///< view settings' wireframe / particles / constraints / strain
    bool transparentBackground = false; ///< clear to alpha 0 (PNG export)
    float devicePixelRatio = 1.f;       ///< device pixels per logical pixel (point sizes)
    unsigned constraintKinds = 0xfu;    ///< bit (1 << ConstraintKind) shows that kind in the constraints overlay
    bool stress = false;                ///< stress heat map (N/m) on the cloth instead of the strain one
    float stressScale = 1.f;            ///< N/m at the top of the stress ramp
    /// The tension per constraint (Simulation::constraintTensions) of each cloth, for the
    /// stress map, when the caller already made it (the viewport, for the ramp's scale);
    /// null: the renderer makes it itself.
    const std::vector<std::vector<float>> *stressTension = nullptr;
    int shadowMapSize = 2048; ///< px per side of the key light's shadow map; 0 draws no shadows
    bool contactShading = true; ///< darken ambient light near colliders and the ground
    /// Keep the background and the ground planes between frames while the view, the size and
    /// the planes stay as they were, and copy them in instead of drawing them (BackdropCache;
    /// single-sampled targets only, the same pixels).
    bool stillBackdrop = false;
    /// The picture of the Image fabric look (render/fabrictexture.h); without one that look
    /// draws the plain colours.
    QImage fabricImage;
};

class BackdropCache;
class FabricTexture;
class ShadowMap;

class SceneRenderer {
public:
    SceneRenderer();
    ~SceneRenderer();
    SceneRenderer(const SceneRenderer &) = delete;
    SceneRenderer &operator=(const SceneRenderer &) = delete;

    /// Creates programs and static buffers; a context must be current. On failure (a shader
    /// that does not compile, a missing resource) returns false with a message naming the file.
    bool initialize(QString *error);
    /// Frees every GL object; the same context must be current.
    void release();
    bool isInitialized() const { return m_initialized; }

    /// Forgets cached cloth topology (a new document or a reset), so index buffers rebuild.
    void invalidate();

    void render(const Scene &scene, const Simulation &sim, const Camera &camera, unsigned framebuffer,
                int widthPx, int heightPx, const RenderOptions &options);

    /// Buffer (re)allocations since initialize(), for tests of the upload discipline.
    int bufferAllocations() const { return m_allocations; }
    /// Index buffer rebuilds since initialize().
    int topologyUploads() const { return m_topologyUploads; }
    /// Uploads of a cloth's positions and normals since initialize() (only when they changed).
    int positionUploads() const { return m_positionUploads; }
    /// Shadow passes drawn since initialize() (only when a caster changed).
    int shadowPasses() const { return m_shadowPasses; }
    /// Frames that copied the kept backdrop in instead of drawing it (RenderOptions::stillBackdrop).
    int backdropCopies() const { return m_backdropCopies; }

private:
    struct ClothBuffers;
    struct Mesh;

    void createMesh(Mesh &mesh, const MeshData &data);
    void releaseMesh(Mesh &mesh);
    /// `warp`: the cloth's warp axis in rest space, the v direction of derived UVs.
    void uploadCloth(ClothBuffers &buffers, const Cloth &cloth, const Vec3 &warp, bool strain);
    void drawGround(const Scene &scene, const Mat4 &viewProjection);
    /// The depth pass from the key light: colliders and cloths cast shadows.
    void drawShadowCasters(const Scene &scene, const Simulation &sim, int sizePx);
    /// Makes the program of `programs` with `switches` current with its lighting, view and eye
    /// uniforms set; nullptr (said once) if that combination does not compile.
    GlProgram *useLit(GlProgramVariants &programs, const std::vector<GlProgramVariants::Switch> &switches,
        const Scene &scene, const Simulation &sim, const Mat4 &viewProjection, const Vec3 &eye);
    /// Shadow map and contact uniforms of a program that includes lighting.glsl.
    void setLighting(GlProgram &program, const Scene &scene, const Simulation &sim);
    /// lighting.glsl's SHADOW_FILTER for this frame: 0 when no shadow map was drawn.
    int shadowFilter() const;
    /// The solid colliders but the planes; the edges of keep-inside boxes are left in m_scratchLines.
    void drawColliders(const Scene &scene, const Simulation &sim, const Mat4 &viewProjection, const Vec3 &eye);
    /// The plane colliders (the ground), drawn after everything that may cover them so the depth
    /// test spares their shading there: with shadow lookups only inside shadowedRect(), without
    /// them around it (the same pixels: outside it the key light reaches every point).
    /// `backdrop`: the planes without shadows are in the target already (useBackdrop), only
    /// their shadows are drawn.
    void drawPlanes(const Scene &scene, const Simulation &sim, const Mat4 &viewProjection, const Vec3 &eye,
        int widthPx, int heightPx, bool backdrop);
    /// Fills the bound target `framebuffer` with the cached backdrop (the background, the planes
    /// without shadows) instead of clearing it, keeping it first when the view was the same in
    /// the frame before; false when it did not (the frame draws everything).
    bool useBackdrop(const Scene &scene, const Simulation &sim, unsigned framebuffer, const Mat4 &viewProjection,
        const Vec3 &eye, int widthPx, int heightPx);
    /// The plane colliders with lighting.glsl's SHADOW_FILTER `filter`.
    void drawPlaneColliders(const Scene &scene, const Simulation &sim, const Mat4 &viewProjection, const Vec3 &eye,
        int filter);
    /// Pixels of a widthPx × heightPx target (x, y, width, height; y up, as glScissor) outside
    /// which no plane collider can be in shadow: the casters' box, grown by the reach of the
    /// shadow lookups, cast along the key light onto each plane and projected into the view.
    /// The whole target when that cannot be bounded (a point behind the eye, light grazing a plane).
    std::array<int, 4> shadowedRect(
        const Scene &scene, const Simulation &sim, const Mat4 &viewProjection, int widthPx, int heightPx) const;
    /// The shadow pass when its casters changed (a cloth moved, a collider moved or was hidden,
    /// another size); otherwise the map keeps what it holds. `sizePx` 0: no shadows.
    void updateShadowMap(const Scene &scene, const Simulation &sim, int sizePx);
    void drawClothSurface(std::size_t index, const Scene &scene, const Simulation &sim, const Mat4 &viewProjection,
        const Vec3 &eye, const RenderOptions &options);
    /// Wireframe, particles, constraint lines and pins, drawn after every surface.
    void drawClothOverlays(std::size_t index, const Scene &scene, const Simulation &sim, const Mat4 &viewProjection,
        const RenderOptions &options);
    void drawLines(const std::vector<LineVertex> &lines, const Mat4 &viewProjection, unsigned mode, float pointSize);

    bool m_initialized = false;
    std::unique_ptr<GlProgramVariants> m_clothPrograms;
    std::unique_ptr<GlProgramVariants> m_solidPrograms;
    std::unique_ptr<GlProgram> m_lineProgram;
    std::unique_ptr<ShadowMap> m_shadow;
    std::unique_ptr<FabricTexture> m_fabricImage;
    std::unique_ptr<BackdropCache> m_backdrop;
    std::vector<float> m_lastBackdropKey; ///< what the backdrop of the last frame depended on
    bool m_shadowsDrawn = false; ///< this frame's shadow map holds the scene
    bool m_shadowStale = true;   ///< a cloth moved or changed since the last shadow pass
    bool m_shadowHolds = false;  ///< the last shadow pass drew casters
    std::vector<float> m_shadowKey; ///< the other casters' state and the size of the last pass
    Vec3 m_casterLo, m_casterHi; ///< m, the box around what the last shadow pass drew
    std::unique_ptr<Mesh> m_sphere;
    std::unique_ptr<Mesh> m_box;
    std::unique_ptr<Mesh> m_quad;
    /// GPU copies of mesh colliders (keyed by the shared mesh, which the key keeps alive) and of
    /// capsules (keyed by radius and half length), made on first draw, dropped when unused.
    std::map<std::shared_ptr<const TriangleMesh>, std::unique_ptr<Mesh>> m_colliderMeshes;
    std::map<std::pair<float, float>, std::unique_ptr<Mesh>> m_capsules;
    unsigned m_gridVao = 0, m_gridVbo = 0;
    int m_gridVertexCount = 0;
    unsigned m_dynamicVao = 0, m_dynamicVbo = 0; ///< per-frame lines/points (constraints, box edges)
    std::size_t m_dynamicCapacity = 0;           ///< vertices
    std::vector<std::unique_ptr<ClothBuffers>> m_cloths;
    std::vector<LineVertex> m_scratchLines;
    std::vector<Vec3> m_scratchNormals;
    std::vector<float> m_scratchStrain;
    std::vector<float> m_scratchTension; ///< N per constraint, for the stress map
    std::vector<float> m_scratchUv;
    std::vector<std::uint32_t> m_scratchIndices;
    int m_allocations = 0;
    int m_topologyUploads = 0;
    int m_positionUploads = 0;
    int m_shadowPasses = 0;
    int m_backdropCopies = 0;
};

} // namespace drape
