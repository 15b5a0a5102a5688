#include "mesh/meshscene.h"

#include "mesh/meshobject.h"

#include <cstdio>

namespace drape {

namespace {

template <typename T> std::string uniqueName(const std::vector<T> &objects, const std::string &base)
{
    const auto taken = [&](const std::string &n) {
        for (const T &o : objects)
            if (o.name == n)
                return true;
        return false;
    };
    std::string name = base.empty() ? "mesh" : base;
    for (int k = 2; taken(name); ++k)
        name = (base.empty() ? "mesh" : base) + " " + std::to_string(k);
    return name;
}

std::string number(float v)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.4g", double(v));
    return buf;
}

std::string vec(const Vec3 &v)
{
    return "[" + number(v.x) + ", " + number(v.y) + ", " + number(v.z) + "]";
}

} // namespace

MeshAddition addMeshToScene(
    Scene &scene, const MeshGeometry &mesh, MeshRole role, const std::string &name, const Material &fabric)
{
    MeshAddition a;
    a.role = role;
    a.vertices = mesh.positions.size();
    a.triangles = mesh.triangles.size();
    a.bounds = mesh.bounds();
    if (role == MeshRole::Cloth) {
        MeshClothCounts counts;
        ClothDesc cloth = meshToCloth(mesh, fabric, uniqueName(scene.cloths, name), &counts);
        a.structural = counts.structural;
        a.hinges = counts.hinges;
        a.name = cloth.name;
        a.index = scene.cloths.size();
        scene.cloths.push_back(std::move(cloth));
    } else {
        Collider c = meshToCollider(mesh, uniqueName(scene.colliders, name));
        a.name = c.name;
        a.index = scene.colliders.size();
        scene.colliders.push_back(std::move(c));
    }
    return a;
}

Scene emptySceneWithGround()
{
    Scene s;
    s.name = "Untitled";
    Collider ground;
    ground.name = "ground";
    ground.kind = ColliderKind::Plane;
    s.colliders.push_back(ground);
    return s;
}

std::string describe(const MeshAddition &a)
{
    std::string s = (a.role == MeshRole::Cloth ? "cloth \"" : "collider \"") + a.name
        + "\": " + std::to_string(a.vertices) + (a.role == MeshRole::Cloth ? " particles, " : " vertices, ")
        + std::to_string(a.triangles) + " triangles";
    if (a.role == MeshRole::Cloth)
        s += ", " + std::to_string(a.structural) + " edge constraints, " + std::to_string(a.hinges)
            + " bending hinges";
    const Vec3 size = a.bounds.hi - a.bounds.lo;
    s += ", bounds " + vec(a.bounds.lo) + " .. " + vec(a.bounds.hi) + " m (size " + number(size.x) + " × "
        + number(size.y) + " × " + number(size.z) + " m)";
    return s;
}

} // namespace drape
