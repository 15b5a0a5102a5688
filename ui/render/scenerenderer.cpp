#include "render/scenerenderer.h"

#include "render/backdropcache.h"
#include "render/fabrictexture.h"
#include "render/glprogram.h"
#include "render/scenerenderer_p.h"
#include "render/shadowmap.h"

#include <epoxy/gl.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <utility>

namespace drape {

using render_detail::groundHeight;
using render_detail::placedModel;
using render_detail::planeModel;
using render_detail::translateScale;
using render_detail::translation;

namespace {

Vec3 toDisplay(const Vec3 &linear)
{
    // The shaders output gamma-encoded colour; the clear colour must match.
    return {std::pow(linear.x, 1.f / 2.2f), std::pow(linear.y, 1.f / 2.2f), std::pow(linear.z, 1.f / 2.2f)};
}

void setVec3(int location, const Vec3 &v) { glUniform3f(location, v.x, v.y, v.z); }

constexpr int kFabricImageUnit = 2; ///< the shadow map takes unit 1

/// cloth.frag's compile-time switches (and lighting.glsl's).
std::vector<GlProgramVariants::Switch> clothSwitches(int shadowFilter, bool contact, int fabric, bool flat,
    bool strain)
{
    return {{"SHADOW_FILTER", shadowFilter}, {"CONTACT", contact ? 1 : 0}, {"FABRIC", fabric}, {"FLAT", flat ? 1 : 0},
        {"STRAIN", strain ? 1 : 0}};
}


/// The warp of cloth `index` in rest space (the v direction of its derived UVs).
Vec3 clothWarp(const Scene &scene, std::size_t index)
{
    return index < scene.cloths.size() ? warpAxis(scene.cloths[index]) : Vec3{};
}

} // namespace

SceneRenderer::SceneRenderer() = default;

SceneRenderer::~SceneRenderer() = default;

bool SceneRenderer::initialize(QString *error)
{
    release();
    m_clothPrograms = std::make_unique<GlProgramVariants>(QStringLiteral(":/shaders/cloth.vert"), QStringLiteral(":/shaders/cloth.frag"));
    m_solidPrograms = std::make_unique<GlProgramVariants>(QStringLiteral(":/shaders/solid.vert"), QStringLiteral(":/shaders/solid.frag"));
    m_lineProgram = std::make_unique<GlProgram>();
    // The variants a frame draws with are made when first needed; compile each switch's
    // settings once here, so a shader error shows when the view opens.
    bool compiled = m_lineProgram->load(QStringLiteral(":/shaders/line.vert"), QStringLiteral(":/shaders/line.frag"), error);
    for (int filter : {0, 1, 3}) {
        compiled = compiled && m_solidPrograms->get({{"SHADOW_FILTER", filter}, {"CONTACT", 0}}, error)
            && m_clothPrograms->get(clothSwitches(filter, true, 0, false, false), error);
    }
    for (int fabric : {1, 2, 3})
        compiled = compiled && m_clothPrograms->get(clothSwitches(0, true, fabric, false, false), error);
    compiled = compiled && m_clothPrograms->get(clothSwitches(0, true, 0, true, false), error)
        && m_clothPrograms->get(clothSwitches(0, true, 0, false, true), error);
    if (!compiled) {
        m_initialized = true; // so release() frees whatever was made
        release();
        return false;
    }
    m_fabricImage = std::make_unique<FabricTexture>();
    m_backdrop = std::make_unique<BackdropCache>();
    m_lastBackdropKey.clear();
    m_shadow = std::make_unique<ShadowMap>();
    if (!m_shadow->initialize(error)) {
        m_initialized = true;
        release();
        return false;
    }

    m_sphere = std::make_unique<Mesh>();
    m_box = std::make_unique<Mesh>();
    m_quad = std::make_unique<Mesh>();
    createMesh(*m_sphere, makeSphereMesh(48, 24));
    createMesh(*m_box, makeBoxMesh());
    createMesh(*m_quad, makeQuadMesh());

    const std::vector<LineVertex> grid = makeGridLines(5.f, 0.25f, 4);
    m_gridVertexCount = GLsizei(grid.size());
    glGenVertexArrays(1, &m_gridVao);
    glGenBuffers(1, &m_gridVbo);
    glBindVertexArray(m_gridVao);
    glBindBuffer(GL_ARRAY_BUFFER, m_gridVbo);
    glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(grid.size() * sizeof(LineVertex)), grid.data(), GL_STATIC_DRAW);
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, sizeof(LineVertex), nullptr);
    glEnableVertexAttribArray(1);
    glVertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, sizeof(LineVertex), reinterpret_cast<void *>(offsetof(LineVertex, r)));

    glGenVertexArrays(1, &m_dynamicVao);
    glGenBuffers(1, &m_dynamicVbo);
    glBindVertexArray(m_dynamicVao);
    glBindBuffer(GL_ARRAY_BUFFER, m_dynamicVbo);
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, sizeof(LineVertex), nullptr);
    glEnableVertexAttribArray(1);
    glVertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, sizeof(LineVertex), reinterpret_cast<void *>(offsetof(LineVertex, r)));
    glBindVertexArray(0);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    m_dynamicCapacity = 0;
    m_allocations = 0;
    m_topologyUploads = 0;
    m_positionUploads = 0;
    m_shadowPasses = 0;
    m_backdropCopies = 0;
    m_shadowStale = true;
    m_initialized = true;
    return true;
}

void SceneRenderer::createMesh(Mesh &mesh, const MeshData &data)
{
    glGenVertexArrays(1, &mesh.vao);
    glGenBuffers(1, &mesh.vbo);
    glGenBuffers(1, &mesh.ebo);
    glBindVertexArray(mesh.vao);
    glBindBuffer(GL_ARRAY_BUFFER, mesh.vbo);
    glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(data.vertices.size() * sizeof(float)), data.vertices.data(), GL_STATIC_DRAW);
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, 6 * sizeof(float), nullptr);
    glEnableVertexAttribArray(1);
    glVertexAttribPointer(1, 3, GL_FLOAT, GL_FALSE, 6 * sizeof(float), reinterpret_cast<void *>(3 * sizeof(float)));
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, mesh.ebo);
    glBufferData(GL_ELEMENT_ARRAY_BUFFER, GLsizeiptr(data.indices.size() * sizeof(std::uint32_t)), data.indices.data(),
                 GL_STATIC_DRAW);
    mesh.indexCount = data.indexCount();
    glBindVertexArray(0);
}

void SceneRenderer::releaseMesh(Mesh &mesh)
{
    glDeleteVertexArrays(1, &mesh.vao);
    glDeleteBuffers(1, &mesh.vbo);
    glDeleteBuffers(1, &mesh.ebo);
    mesh = {};
}

void SceneRenderer::invalidate()
{
    for (auto &c : m_cloths)
        c->topologyValid = false;
    m_shadowStale = true;
}

void SceneRenderer::release()
{
    if (!m_initialized)
        return;
    for (auto &c : m_cloths) {
        glDeleteVertexArrays(1, &c->vao);
        glDeleteVertexArrays(1, &c->lineVao);
        const GLuint buffers[] = {c->position, c->normal, c->uv, c->strain, c->triangles, c->edges};
        glDeleteBuffers(6, buffers);
    }
    m_cloths.clear();
    for (Mesh *mesh : {m_sphere.get(), m_box.get(), m_quad.get()}) {
        if (mesh)
            releaseMesh(*mesh);
    }
    m_sphere.reset();
    m_box.reset();
    m_quad.reset();
    for (auto &[key, mesh] : m_colliderMeshes)
        releaseMesh(*mesh);
    m_colliderMeshes.clear();
    for (auto &[key, mesh] : m_capsules)
        releaseMesh(*mesh);
    m_capsules.clear();
    if (m_gridVao) {
        glDeleteVertexArrays(1, &m_gridVao);
        glDeleteBuffers(1, &m_gridVbo);
        glDeleteVertexArrays(1, &m_dynamicVao);
        glDeleteBuffers(1, &m_dynamicVbo);
    }
    m_gridVao = m_gridVbo = m_dynamicVao = m_dynamicVbo = 0;
    m_dynamicCapacity = 0;
    for (GlProgramVariants *programs : {m_clothPrograms.get(), m_solidPrograms.get()}) {
        if (programs)
            programs->release();
    }
    if (m_lineProgram)
        m_lineProgram->release();
    m_clothPrograms.reset();
    m_solidPrograms.reset();
    m_lineProgram.reset();
    if (m_shadow)
        m_shadow->release();
    m_shadow.reset();
    if (m_fabricImage)
        m_fabricImage->release();
    m_fabricImage.reset();
    if (m_backdrop)
        m_backdrop->release();
    m_backdrop.reset();
    m_initialized = false;
}

void SceneRenderer::uploadCloth(ClothBuffers &b, const Cloth &cloth, const Vec3 &warp, bool strain)
{
    const std::size_t n = cloth.particles.size();
    if (!b.vao) {
        glGenVertexArrays(1, &b.vao);
        glGenVertexArrays(1, &b.lineVao);
        GLuint buffers[6];
        glGenBuffers(6, buffers);
        b.position = buffers[0];
        b.normal = buffers[1];
        b.uv = buffers[2];
        b.strain = buffers[3];
        b.triangles = buffers[4];
        b.edges = buffers[5];
    }
    bool reallocated = false;
    if (n > b.capacity) {
        // Grow geometrically so a tearing cloth (particles appended by splits) rarely reallocates.
        b.capacity = std::max(n, b.capacity + b.capacity / 2);
        for (auto [buffer, components] : {std::pair{b.position, 3}, {b.normal, 3}, {b.uv, 2}, {b.strain, 1}}) {
            glBindBuffer(GL_ARRAY_BUFFER, buffer);
            glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(b.capacity * components * sizeof(float)), nullptr, GL_DYNAMIC_DRAW);
        }
        ++m_allocations;
        reallocated = true;
        glBindVertexArray(b.vao);
        for (auto [location, buffer, components] :
             {std::tuple{0u, b.position, 3}, {1u, b.normal, 3}, {2u, b.uv, 2}, {3u, b.strain, 1}}) {
            glBindBuffer(GL_ARRAY_BUFFER, buffer);
            glEnableVertexAttribArray(location);
            glVertexAttribPointer(location, components, GL_FLOAT, GL_FALSE, 0, nullptr);
        }
        glBindVertexArray(b.lineVao);
        glBindBuffer(GL_ARRAY_BUFFER, b.position);
        glEnableVertexAttribArray(0);
        glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, 0, nullptr);
        glBindVertexArray(0);
    }

    const bool topologyChanged = !b.topologyValid || reallocated || b.revision != cloth.topologyRevision
        || b.particleCount != n || b.triangleCount != cloth.triangles.size()
        || b.constraintCount != cloth.constraints.size();

    // Positions and the normals derived from them go up only when they differ from what the
    // buffers hold: a paused scene seen from an orbiting camera uploads nothing.
    static_assert(sizeof(Vec3) == 3 * sizeof(float), "Vec3 arrays upload as packed xyz");
    const std::vector<Vec3> &positions = cloth.particles.position;
    if (topologyChanged || b.uploadedPositions.size() != n
        || !std::equal(positions.begin(), positions.end(), b.uploadedPositions.begin(),
            [](const Vec3 &p, const Vec3 &q) { return p.x == q.x && p.y == q.y && p.z == q.z; })) {
        glBindBuffer(GL_ARRAY_BUFFER, b.position);
        glBufferSubData(GL_ARRAY_BUFFER, 0, GLsizeiptr(n * sizeof(Vec3)), positions.data());
        computeVertexNormals(cloth, m_scratchNormals);
        m_scratchNormals.resize(n, Vec3{0.f, 0.f, 1.f});
        glBindBuffer(GL_ARRAY_BUFFER, b.normal);
        glBufferSubData(GL_ARRAY_BUFFER, 0, GLsizeiptr(n * sizeof(Vec3)), m_scratchNormals.data());
        b.uploadedPositions = positions;
        ++m_positionUploads;
        m_shadowStale = true; // the cloth casts its shadow from where it is now
    }
    if (strain) {
        computeStrainRatios(cloth, m_scratchStrain);
        glBindBuffer(GL_ARRAY_BUFFER, b.strain);
        glBufferSubData(GL_ARRAY_BUFFER, 0, GLsizeiptr(n * sizeof(float)), m_scratchStrain.data());
    }
    if (topologyChanged || !(b.warp == warp) || b.uvCount != cloth.uv.size()) {
        b.metresPerUv = computeClothUvs(cloth, warp, m_scratchUv);
        b.warp = warp;
        b.uvCount = cloth.uv.size();
        glBindBuffer(GL_ARRAY_BUFFER, b.uv);
        glBufferSubData(GL_ARRAY_BUFFER, 0, GLsizeiptr(m_scratchUv.size() * sizeof(float)), m_scratchUv.data());
    }
    if (topologyChanged) {
        // Element buffers are VAO state: bind them with the VAO that draws them.
        glBindVertexArray(b.vao);
        glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, b.triangles);
        glBufferData(GL_ELEMENT_ARRAY_BUFFER, GLsizeiptr(cloth.triangles.size() * sizeof(Triangle)),
                     cloth.triangles.data(), GL_DYNAMIC_DRAW);
        glBindVertexArray(b.lineVao);
        const std::vector<std::uint32_t> edges = triangleEdges(cloth);
        glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, b.edges);
        glBufferData(GL_ELEMENT_ARRAY_BUFFER, GLsizeiptr(edges.size() * sizeof(std::uint32_t)), edges.data(),
                     GL_DYNAMIC_DRAW);
        glBindVertexArray(0);
        b.triangleIndices = GLsizei(cloth.triangles.size() * 3);
        b.edgeIndices = GLsizei(edges.size());
        b.revision = cloth.topologyRevision;
        b.particleCount = n;
        b.triangleCount = cloth.triangles.size();
        b.constraintCount = cloth.constraints.size();
        b.topologyValid = true;
        ++m_topologyUploads;
    }
    glBindBuffer(GL_ARRAY_BUFFER, 0);
}

void SceneRenderer::drawLines(const std::vector<LineVertex> &lines, const Mat4 &viewProjection, unsigned mode,
                              float pointSize)
{
    if (lines.empty())
        return;
    glBindBuffer(GL_ARRAY_BUFFER, m_dynamicVbo);
    if (lines.size() > m_dynamicCapacity) {
        m_dynamicCapacity = std::max(lines.size(), m_dynamicCapacity * 2);
        glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(m_dynamicCapacity * sizeof(LineVertex)), nullptr, GL_STREAM_DRAW);
        ++m_allocations;
    }
    glBufferSubData(GL_ARRAY_BUFFER, 0, GLsizeiptr(lines.size() * sizeof(LineVertex)), lines.data());
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    m_lineProgram->use();
    glUniformMatrix4fv(m_lineProgram->uniform("uViewProjection"), 1, GL_FALSE, viewProjection.m);
    glUniform1f(m_lineProgram->uniform("uPointSize"), pointSize);
    glUniform1i(m_lineProgram->uniform("uRoundPoints"), mode == GL_POINTS ? 1 : 0);
    glBindVertexArray(m_dynamicVao);
    glDrawArrays(mode, 0, GLsizei(lines.size()));
    glBindVertexArray(0);
}

void SceneRenderer::drawGround(const Scene &scene, const Mat4 &viewProjection)
{
    // Lift the grid a millimetre above the ground plane so it never z-fights with it.
    const Mat4 vp = viewProjection * translation({0.f, groundHeight(scene.colliders) + 0.001f, 0.f});
    m_lineProgram->use();
    glUniformMatrix4fv(m_lineProgram->uniform("uViewProjection"), 1, GL_FALSE, vp.m);
    glUniform1i(m_lineProgram->uniform("uRoundPoints"), 0);
    glBindVertexArray(m_gridVao);
    glDrawArrays(GL_LINES, 0, m_gridVertexCount);
    glBindVertexArray(0);
}

GlProgram *SceneRenderer::useLit(GlProgramVariants &programs, const std::vector<GlProgramVariants::Switch> &switches,
    const Scene &scene, const Simulation &sim, const Mat4 &viewProjection, const Vec3 &eye)
{
    // initialize() compiled every value of every switch, so a combination that does not
    // compile is a shader bug: said once, and nothing is drawn with it.
    QString error;
    GlProgram *program = programs.get(switches, &error);
    static bool said = false;
    if (!program) {
        if (!std::exchange(said, true))
            qWarning("drape: %s", qPrintable(error));
        return nullptr;
    }
    program->use();
    setLighting(*program, scene, sim);
    glUniformMatrix4fv(program->uniform("uViewProjection"), 1, GL_FALSE, viewProjection.m);
    setVec3(program->uniform("uEye"), eye);
    return program;
}

void SceneRenderer::drawColliders(const Scene &scene, const Simulation &sim, const Mat4 &viewProjection,
    const Vec3 &eye)
{
    m_scratchLines.clear();
    GlProgram *program
        = useLit(*m_solidPrograms, {{"SHADOW_FILTER", shadowFilter()}, {"CONTACT", 0}}, scene, sim, viewProjection, eye);
    if (!program)
        return;
    const int model = program->uniform("uModel");
    const int color = program->uniform("uColor");
    std::vector<const Vec3 *> usedMeshes;
    std::vector<std::pair<float, float>> usedCapsules;
    for (std::size_t i = 0; i < sim.colliders.size(); ++i) {
        const Collider &c = sim.colliders[i];
        if (colliderHidden(scene, i))
            continue;
        const Mesh *mesh = nullptr;
        Mat4 m;
        switch (c.kind) {
        case ColliderKind::Sphere:
            mesh = m_sphere.get();
            // Drawn slightly inside the contact surface (radius + thickness) so the cloth rests visibly on it.
            m = translateScale(c.center, Vec3{1, 1, 1} * c.radius);
            glUniform4f(color, 0.52f, 0.56f, 0.62f, 1.f);
            break;
        case ColliderKind::Plane:
            continue; // drawPlanes
        case ColliderKind::Box:
            if (c.keepInside) {
                appendBoxEdges(c.center, c.halfExtents, {0.65f, 0.70f, 0.78f}, m_scratchLines,
                               rotationFromEuler(c.rotation));
                continue;
            }
            mesh = m_box.get();
            m = placedModel(c.center, c.rotation, c.halfExtents);
            glUniform4f(color, 0.52f, 0.56f, 0.62f, 1.f);
            break;
        case ColliderKind::Capsule: {
            std::unique_ptr<Mesh> &cached = m_capsules[{c.radius, c.halfLength}];
            if (!cached) {
                cached = std::make_unique<Mesh>();
                createMesh(*cached, makeCapsuleMesh(c.radius, c.halfLength, 48, 24));
            }
            usedCapsules.push_back({c.radius, c.halfLength});
            mesh = cached.get();
            // A rotation taking +Y to the (turned) axis, then the centre.
            m = planeModel(c.center, rotationFromEuler(c.rotation) * c.axis, 1.f);
            glUniform4f(color, 0.52f, 0.56f, 0.62f, 1.f);
            break;
        }
        case ColliderKind::Mesh: {
            if (!c.mesh)
                continue;
            std::unique_ptr<Mesh> &cached = m_colliderMeshes[c.mesh.mesh];
            if (!cached) {
                cached = std::make_unique<Mesh>();
                createMesh(*cached, makeFlatMesh(c.mesh->vertices(), c.mesh->triangles()));
            }
            usedMeshes.push_back(c.mesh->vertices().data());
            mesh = cached.get();
            m = placedModel(c.center, c.rotation, {1.f, 1.f, 1.f});
            glUniform4f(color, 0.52f, 0.56f, 0.62f, 1.f);
            break;
        }
        }
        glUniformMatrix4fv(model, 1, GL_FALSE, m.m);
        glBindVertexArray(mesh->vao);
        glDrawElements(GL_TRIANGLES, mesh->indexCount, GL_UNSIGNED_INT, nullptr);
    }
    glBindVertexArray(0);
    // Free the GPU copies of meshes and capsules no collider draws any more (deleted, resized).
    std::erase_if(m_colliderMeshes, [&](auto &entry) {
        const bool unused = std::find(usedMeshes.begin(), usedMeshes.end(), entry.first->vertices().data()) == usedMeshes.end();
        if (unused)
            releaseMesh(*entry.second);
        return unused;
    });
    std::erase_if(m_capsules, [&](auto &entry) {
        const bool unused = std::find(usedCapsules.begin(), usedCapsules.end(), entry.first) == usedCapsules.end();
        if (unused)
            releaseMesh(*entry.second);
        return unused;
    });
}

void SceneRenderer::drawClothSurface(std::size_t index, const Scene &scene, const Simulation &sim,
    const Mat4 &viewProjection, const Vec3 &eye, const RenderOptions &options)
{
    const ViewSettings &view = scene.view;
    const bool stress = options.overlays && options.stress;
    const bool strain = (options.overlays && view.showStrain) || stress; // the same attribute and ramp
    ClothBuffers &b = *m_cloths[index];
    if (b.triangleIndices == 0)
        return;
    const ClothDesc fallback;
    const ClothDesc &desc = index < scene.cloths.size() ? scene.cloths[index] : fallback;
    if (stress) {
        const std::vector<float> *tension = &m_scratchTension;
        if (options.stressTension && index < options.stressTension->size())
            tension = &(*options.stressTension)[index];
        else
            sim.constraintTensions(index, m_scratchTension);
        computeStressRatios(
            sim.cloths[index], *tension, clothSpacing(desc), options.stressScale, m_scratchStrain);
        glBindBuffer(GL_ARRAY_BUFFER, b.strain);
        glBufferSubData(GL_ARRAY_BUFFER, 0, GLsizeiptr(m_scratchStrain.size() * sizeof(float)), m_scratchStrain.data());
    }
    FabricLook look = fabricLookOf(view);
    if (look == FabricLook::Image && !m_fabricImage->isValid())
        look = FabricLook::None;
    GlProgram *program = useLit(*m_clothPrograms,
        clothSwitches(shadowFilter(), options.contactShading, int(look), view.shading == Shading::Flat, strain), scene,
        sim, viewProjection, eye);
    if (!program)
        return;
    setVec3(program->uniform("uFrontColor"), desc.frontColor);
    setVec3(program->uniform("uBackColor"), desc.backColor);
    glUniform1f(program->uniform("uWeaveThreads"), view.weaveDensity * b.metresPerUv);
    if (look == FabricLook::Image) {
        m_fabricImage->bind(kFabricImageUnit);
        glUniform1i(program->uniform("uFabricImage"), kFabricImageUnit);
    }
    glEnable(GL_POLYGON_OFFSET_FILL);
    glPolygonOffset(1.f, 1.f); // overlays drawn on the surface win the depth test
    glBindVertexArray(b.vao);
    glDrawElements(GL_TRIANGLES, b.triangleIndices, GL_UNSIGNED_INT, nullptr);
    glDisable(GL_POLYGON_OFFSET_FILL);
    glBindVertexArray(0);
}

void SceneRenderer::drawClothOverlays(std::size_t index, const Scene &scene, const Simulation &sim,
    const Mat4 &viewProjection, const RenderOptions &options)
{
    const Cloth &cloth = sim.cloths[index];
    const ViewSettings &view = scene.view;
    const bool strain = (options.overlays && view.showStrain) || (options.overlays && options.stress);
    const ClothBuffers &b = *m_cloths[index];
    const ClothDesc fallback;
    const ClothDesc &desc = index < scene.cloths.size() ? scene.cloths[index] : fallback;
    const float dpr = std::max(options.devicePixelRatio, 0.5f);

    m_lineProgram->use();
    glUniformMatrix4fv(m_lineProgram->uniform("uViewProjection"), 1, GL_FALSE, viewProjection.m);
    glUniform1i(m_lineProgram->uniform("uRoundPoints"), 0);
    glBindVertexArray(b.lineVao);
    if (options.overlays && view.wireframe && b.edgeIndices > 0) {
        glVertexAttrib4f(1, 0.05f, 0.05f, 0.06f, 0.55f);
        glDrawElements(GL_LINES, b.edgeIndices, GL_UNSIGNED_INT, nullptr);
    }
    if (options.overlays && view.showParticles) {
        glUniform1f(m_lineProgram->uniform("uPointSize"), 5.f * dpr);
        glUniform1i(m_lineProgram->uniform("uRoundPoints"), 1);
        glVertexAttrib4f(1, 0.92f, 0.92f, 0.95f, 1.f);
        glDrawArrays(GL_POINTS, 0, GLsizei(cloth.particles.size()));
    }
    glBindVertexArray(0);

    // Constraint lines: the overlay (coloured by kind, or by tear risk with the heat map), and
    // always for a cloth without triangles (a rope would otherwise be invisible).
    const bool constraintsOverlay = options.overlays && view.showConstraints;
    if (constraintsOverlay || b.triangleIndices == 0) {
        m_scratchLines.clear();
        const auto &p = cloth.particles.position;
        for (const DistanceConstraint &c : cloth.constraints) {
            Vec3 color = desc.frontColor;
            if (constraintsOverlay) {
                if (!(options.constraintKinds & (1u << unsigned(c.kind))))
                    continue;
                color = constraintKindColor(c.kind);
                if (strain) {
                    const float t = std::clamp(tearRisk(cloth, c), 0.f, 1.f);
                    color = lerp(Vec3{0.2f, 0.75f, 0.35f}, Vec3{0.95f, 0.15f, 0.1f}, t);
                }
            } else if (c.kind != ConstraintKind::Structural && c.kind != ConstraintKind::User) {
                continue;
            }
            m_scratchLines.push_back({p[c.a].x, p[c.a].y, p[c.a].z, color.x, color.y, color.z, 1.f});
            m_scratchLines.push_back({p[c.b].x, p[c.b].y, p[c.b].z, color.x, color.y, color.z, 1.f});
        }
        drawLines(m_scratchLines, viewProjection, GL_LINES, 1.f);
        if (b.triangleIndices == 0 && !(options.overlays && view.showParticles)) {
            m_scratchLines.clear();
            for (const Vec3 &q : p)
                m_scratchLines.push_back({q.x, q.y, q.z, desc.frontColor.x, desc.frontColor.y, desc.frontColor.z, 1.f});
            drawLines(m_scratchLines, viewProjection, GL_POINTS, 4.f * dpr);
        }
    }

    if (view.showPins) {
        m_scratchLines.clear();
        const auto &kinds = cloth.particles.kind;
        for (std::size_t i = 0; i < kinds.size(); ++i) {
            if (kinds[i] == ParticleKind::Dynamic)
                continue;
            const Vec3 &q = cloth.particles.position[i];
            const Vec3 color = kinds[i] == ParticleKind::Static ? Vec3{1.f, 0.82f, 0.2f} : Vec3{0.3f, 0.9f, 1.f};
            m_scratchLines.push_back({q.x, q.y, q.z, color.x, color.y, color.z, 1.f});
        }
        glDisable(GL_DEPTH_TEST); // pins stay visible through the cloth they hold
        drawLines(m_scratchLines, viewProjection, GL_POINTS, 9.f * dpr);
        glEnable(GL_DEPTH_TEST);
    }
}

void SceneRenderer::render(const Scene &scene, const Simulation &sim, const Camera &camera, unsigned framebuffer,
                           int widthPx, int heightPx, const RenderOptions &options)
{
    if (!m_initialized || widthPx <= 0 || heightPx <= 0)
        return;

    // Upload first: the shadow pass and the main pass draw the same cloth buffers.
    while (m_cloths.size() > sim.cloths.size()) {
        ClothBuffers &c = *m_cloths.back();
        glDeleteVertexArrays(1, &c.vao);
        glDeleteVertexArrays(1, &c.lineVao);
        const GLuint buffers[] = { c.position, c.normal, c.uv, c.strain, c.triangles, c.edges };
        glDeleteBuffers(6, buffers);
        m_cloths.pop_back();
    }
    while (m_cloths.size() < sim.cloths.size())
        m_cloths.push_back(std::make_unique<ClothBuffers>());
    // The stress map fills the same attribute in drawClothSurface.
    const bool strain = options.overlays && scene.view.showStrain && !options.stress;
    for (std::size_t i = 0; i < sim.cloths.size(); ++i) {
        if (!sim.cloths[i].particles.empty())
            uploadCloth(*m_cloths[i], sim.cloths[i], clothWarp(scene, i), strain);
    }
    m_fabricImage->update(fabricLookOf(scene.view) == FabricLook::Image ? options.fabricImage : QImage());
    updateShadowMap(scene, sim, options.shadowMapSize);

    glBindFramebuffer(GL_FRAMEBUFFER, framebuffer);
    glViewport(0, 0, widthPx, heightPx);
    const Vec3 bg = toDisplay(scene.view.background);
    // Transparent: clear to zero so the framebuffer holds premultiplied colour (the blend
    // below keeps it so), and multisample edges resolve without a halo of the background.
    if (options.transparentBackground)
        glClearColor(0.f, 0.f, 0.f, 0.f);
    else
        glClearColor(bg.x, bg.y, bg.z, 1.f);
    glDepthMask(GL_TRUE);
    glEnable(GL_DEPTH_TEST);
    glDepthFunc(GL_LEQUAL);
    glDisable(GL_CULL_FACE); // cloth is two-sided
    // Premultiplied-friendly alpha so a transparent export keeps correct coverage.
    glBlendFuncSeparate(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ONE, GL_ONE_MINUS_SRC_ALPHA);
    glEnable(GL_PROGRAM_POINT_SIZE);
    glDisable(GL_BLEND);
    glDisable(GL_SCISSOR_TEST); // clears and copies fill the whole target

    const Mat4 viewProjection = camera.projection(float(widthPx) / float(heightPx)) * camera.view();
    const Vec3 eye = camera.eye();
    const bool backdrop = options.stillBackdrop && !options.transparentBackground
        && useBackdrop(scene, sim, framebuffer, viewProjection, eye, widthPx, heightPx);
    if (!options.stillBackdrop)
        m_lastBackdropKey.clear();
    if (backdrop)
        ++m_backdropCopies;
    else
        glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);

    // Opaque cloth first: it is usually in front of the colliders and the ground, and the
    // depth test then skips their shading wherever it covers them (a software renderer shades
    // every fragment it does not reject). Overlays come last, over everything they mark.
    // The surfaces are opaque (alpha 1): blending them would give the same pixels and cost a
    // software renderer a read of the framebuffer per pixel. Lines and points blend.
    const auto drawn = [&](std::size_t i) { return !sim.cloths[i].particles.empty() && !clothHidden(scene, i); };
    for (std::size_t i = 0; i < sim.cloths.size(); ++i) {
        if (drawn(i))
            drawClothSurface(i, scene, sim, viewProjection, eye, options);
    }
    drawColliders(scene, sim, viewProjection, eye);
    drawPlanes(scene, sim, viewProjection, eye, widthPx, heightPx, backdrop);
    glEnable(GL_BLEND);
    drawLines(m_scratchLines, viewProjection, GL_LINES, 1.f); // the edges of keep-inside boxes
    if (scene.view.showGround)
        drawGround(scene, viewProjection);
    for (std::size_t i = 0; i < sim.cloths.size(); ++i) {
        if (drawn(i))
            drawClothOverlays(i, scene, sim, viewProjection, options);
    }

    glBindVertexArray(0);
    glUseProgram(0);
    glDisable(GL_DEPTH_TEST);
    glDisable(GL_BLEND);
    glDisable(GL_PROGRAM_POINT_SIZE);
}

} // namespace drape
