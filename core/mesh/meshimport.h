// Reading a mesh file (OBJ, PLY, STL, glTF/GLB, FBX, COLLADA and the other formats assimp
// knows) into a cleaned MeshGeometry, in the scene's units (metres) and axes (Y up).
#pragma once

#include "mesh/meshdata.h"

#include <cstddef>
#include <string>

namespace drape {

enum class UpAxis : std::uint8_t {
    Y = 0, ///< the file's +Y is up (glTF, most OBJ)
    Z = 1, ///< the file's +Z is up (CAD, Blender's own axes, many STL): rotated so +Z becomes +Y
};

struct MeshImportOptions {
    float scale = 1.f; ///< metres per file unit (0.01 for a file in centimetres)
    UpAxis up = UpAxis::Y;
    std::size_t maxTriangles = 250000; ///< larger files are refused with a message
};

struct MeshImport {
    MeshGeometry mesh; ///< cleaned, in metres, Y up
    MeshReport report;
    std::string error; ///< empty on success; otherwise names the file and the problem

    bool ok() const { return error.empty(); }
};

/// Reads `path` and cleans it (cleanMesh). Fails with a message for a missing, empty or
/// unreadable file, a file without triangles, one with more than maxTriangles, or one with
/// nothing left after cleaning.
MeshImport importMesh(const std::string &path, const MeshImportOptions &options = {});

/// Applies scale and up axis to positions read in file units (used by importMesh).
void toSceneAxes(MeshGeometry &mesh, float scale, UpAxis up);

} // namespace drape
