// A static triangle mesh a cloth collides with, with the bounding volume hierarchy and the
// normals that the queries need. Built once and shared, immutable, between the scene, its
// copies and the running simulation (a mesh collider of 50,000 triangles is never copied
// per substep).
#pragma once

#include "base/vec3.h"
#include "sim/cloth.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace drape {

struct Aabb {
    Vec3 lo { 1e30f, 1e30f, 1e30f };
    Vec3 hi { -1e30f, -1e30f, -1e30f };

    void grow(const Vec3 &p);
    void grow(const Aabb &b);
    /// Squared distance from p to the box (0 inside).
    float distanceSquared(const Vec3 &p) const;
    bool overlaps(const Aabb &b) const;
};

/// The closest point of a mesh to a query point, and which feature of the triangle holds it.
struct MeshHit {
    std::uint32_t triangle = 0;
    Vec3 point; ///< m, in mesh coordinates
    Vec3 normal; ///< outward pseudo-normal of the feature (face, edge or vertex) holding `point`
    float distanceSquared = 0.f; ///< m²
};

class TriangleMesh {
public:
    /// Takes the mesh as it is (indices must be in range, as checked by the scene reader or
    /// the importer); builds the hierarchy and the pseudo-normals.
    TriangleMesh(std::vector<Vec3> vertices, std::vector<Triangle> triangles);

    const std::vector<Vec3> &vertices() const { return m_vertices; }
    const std::vector<Triangle> &triangles() const { return m_triangles; }
    const Aabb &bounds() const { return m_nodes.empty() ? m_empty : m_nodes[0].box; }

    /// Closest point of the mesh to `p` if it is nearer than `radius` (m); visits only the
    /// nodes whose boxes come within `radius`, so a far particle costs one box test.
    /// `work`, when given, receives the number of nodes and triangles visited. `hint`, a
    /// triangle likely to be nearest (last time's answer), is tested first so the search
    /// ball starts at its distance; any value is safe (out of range is ignored).
    bool closestPoint(const Vec3 &p, float radius, MeshHit &hit, std::uint32_t *work = nullptr,
        std::uint32_t hint = ~0u) const;

    /// Vertices where the surface folds sharply outward (the outward normals of the triangles
    /// around them differ by more than ~35° from the vertex normal): the tips and ridges a coarse
    /// sheet could slide through between its particles.
    const std::vector<std::uint32_t> &sharpVertices() const { return m_sharp; }
    const Vec3 &vertexNormal(std::uint32_t v) const { return m_vertexNormal[v]; }
    /// Calls visit(vertex) for every sharp vertex inside `box`.
    template <typename F> void forSharpVerticesIn(const Aabb &box, F &&visit) const;

    std::size_t memoryBytes() const;
    bool operator==(const TriangleMesh &o) const
    {
        return m_vertices == o.m_vertices && m_triangles == o.m_triangles;
    }

private:
    struct Node {
        Aabb box;
        std::uint32_t first = 0; ///< leaf: first item in the item order; inner: left child (right = left + 1)
        std::uint32_t count = 0; ///< leaf: number of items; inner: 0
    };
    // Updates `hit` and `best` (squared distance) when triangle t is nearer than `best`.
    bool testTriangle(const Vec3 &p, std::uint32_t t, float &best, MeshHit &hit) const;
    // One hierarchy over boxes: median split along the longest axis of the centroids.
    static void build(
        std::vector<Node> &nodes, std::vector<std::uint32_t> &order, const std::vector<Aabb> &boxes);

    std::vector<Vec3> m_vertices;
    std::vector<Triangle> m_triangles;
    std::vector<Vec3> m_faceNormal; ///< unit, counter-clockwise
    std::vector<Vec3> m_vertexNormal; ///< angle-weighted pseudo-normal
    std::vector<Vec3> m_edgeNormal; ///< per triangle edge k (v[k] → v[k+1]): sum of the adjacent face normals
    std::vector<Node> m_nodes;
    std::vector<std::uint32_t> m_order;
    std::vector<std::uint32_t> m_sharp;
    std::vector<Node> m_sharpNodes;
    std::vector<std::uint32_t> m_sharpOrder;
    Aabb m_empty;
};

template <typename F> void TriangleMesh::forSharpVerticesIn(const Aabb &box, F &&visit) const
{
    if (m_sharpNodes.empty())
        return;
    std::uint32_t stack[64];
    int top = 0;
    stack[top++] = 0;
    while (top > 0) {
        const Node &n = m_sharpNodes[stack[--top]];
        if (!n.box.overlaps(box))
            continue;
        if (n.count > 0) {
            for (std::uint32_t k = 0; k < n.count; ++k)
                visit(m_sharp[m_sharpOrder[n.first + k]]);
        } else {
            // Median splits keep the depth at most log2(count) + 1, far below the stack size.
            stack[top++] = n.first;
            stack[top++] = n.first + 1;
        }
    }
}

/// A shared, immutable mesh; equality compares the geometry, so scenes that hold the same mesh
/// in different copies compare equal.
struct MeshRef {
    std::shared_ptr<const TriangleMesh> mesh;

    bool operator==(const MeshRef &o) const { return mesh == o.mesh || (mesh && o.mesh && *mesh == *o.mesh); }
    explicit operator bool() const { return bool(mesh); }
    const TriangleMesh *operator->() const { return mesh.get(); }
};

MeshRef makeMeshRef(std::vector<Vec3> vertices, std::vector<Triangle> triangles);

} // namespace drape
