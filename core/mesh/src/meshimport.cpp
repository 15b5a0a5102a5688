// Mesh files through assimp (the Open Asset Import Library, Debian's libassimp-dev). Only this
// file sees assimp: the rest of the core gets plain arrays. Node transforms are baked into the
// vertices (aiProcess_PreTransformVertices) and polygons triangulated; vertices are not joined by
// assimp, because cleanMesh() welds by position alone so a UV seam does not cut a cloth apart.
#include "mesh/meshimport.h"
#include "scene/scenebudget.h"

#include <assimp/Importer.hpp>
#include <assimp/config.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>

#include <cmath>
#include <filesystem>
#include <system_error>

namespace drape {

void toSceneAxes(MeshGeometry &mesh, float scale, UpAxis up)
{
    for (Vec3 &p : mesh.positions) {
        // Z up → Y up is a rotation of −90° about X: (x, y, z) → (x, z, −y), keeping handedness
        // and so the triangles' winding.
        if (up == UpAxis::Z)
            p = { p.x, p.z, -p.y };
        p *= scale;
    }
}

MeshImport importMesh(const std::string &path, const MeshImportOptions &options)
{
    MeshImport out;
    std::error_code ec;
    const auto size = std::filesystem::file_size(path, ec);
    if (ec) {
        out.error = path + ": cannot read the file (" + ec.message() + ")";
        return out;
    }
    if (size == 0) {
        out.error = path + ": the file is empty";
        return out;
    }
    if (!(options.scale > 0.f) || !std::isfinite(options.scale)) {
        out.error = path + ": scale " + std::to_string(options.scale) + " is not a positive number";
        return out;
    }

    Assimp::Importer importer;
    // The user chooses the up axis; COLLADA's own <up_axis> would otherwise rotate it first.
    importer.SetPropertyBool(AI_CONFIG_IMPORT_COLLADA_IGNORE_UP_DIRECTION, true);
    importer.SetPropertyInteger(AI_CONFIG_PP_SBP_REMOVE, aiPrimitiveType_POINT | aiPrimitiveType_LINE);
    const aiScene *scene = importer.ReadFile(
        path, aiProcess_Triangulate | aiProcess_PreTransformVertices | aiProcess_SortByPType);
    if (!scene || !scene->mRootNode) {
        out.error
            = path + ": not a mesh file assimp can read (" + std::string(importer.GetErrorString()) + ")";
        return out;
    }

    std::size_t triangles = 0;
    for (unsigned m = 0; m < scene->mNumMeshes; ++m)
        for (unsigned f = 0; f < scene->mMeshes[m]->mNumFaces; ++f)
            triangles += scene->mMeshes[m]->mFaces[f].mNumIndices == 3 ? 1 : 0;
    if (triangles == 0) {
        out.error = path + ": the file has no triangles";
        return out;
    }
    if (triangles > options.maxTriangles) {
        out.error = path + ": " + groupDigits(triangles) + " triangles, more than the "
            + groupDigits(options.maxTriangles)
            + " allowed; simplify the mesh first (e.g. Blender's Decimate)";
        return out;
    }

    MeshGeometry &mesh = out.mesh;
    std::size_t skipped = 0;
    bool anyUv = false;
    for (unsigned m = 0; m < scene->mNumMeshes; ++m)
        anyUv = anyUv || scene->mMeshes[m]->HasTextureCoords(0);
    for (unsigned m = 0; m < scene->mNumMeshes; ++m) {
        const aiMesh *am = scene->mMeshes[m];
        const auto base = std::uint32_t(mesh.positions.size());
        for (unsigned v = 0; v < am->mNumVertices; ++v) {
            const aiVector3D &p = am->mVertices[v];
            mesh.positions.push_back({ p.x, p.y, p.z });
            if (anyUv) {
                const bool has = am->HasTextureCoords(0);
                mesh.uv.push_back(
                    { has ? am->mTextureCoords[0][v].x : 0.f, has ? am->mTextureCoords[0][v].y : 0.f });
            }
        }
        for (unsigned f = 0; f < am->mNumFaces; ++f) {
            const aiFace &face = am->mFaces[f];
            if (face.mNumIndices != 3) {
                ++skipped;
                continue;
            }
            mesh.triangles.push_back(
                { { base + face.mIndices[0], base + face.mIndices[1], base + face.mIndices[2] } });
        }
    }
    toSceneAxes(mesh, options.scale, options.up);
    out.report = cleanMesh(mesh, defaultWeldTolerance(mesh));
    out.report.skippedPrimitives = skipped;
    if (mesh.triangles.empty())
        out.error = path + ": no usable triangles are left after removing "
            + std::to_string(out.report.degenerateTriangles) + " degenerate, "
            + std::to_string(out.report.duplicateTriangles) + " duplicate and the triangles of "
            + std::to_string(out.report.nonFiniteVertices) + " non-finite vertices";
    return out;
}

} // namespace drape
