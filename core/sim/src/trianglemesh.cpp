// Triangle mesh for collisions: a bounding volume hierarchy and pseudo-normals.
//
// The hierarchy is a binary tree of axis-aligned boxes over the triangles, split at the median
// centroid along the longest axis (Ericson, "Real-Time Collision Detection", 2005, §6.2), with up
// to four triangles per leaf, stored as a flat array in depth-first order. A closest-point query
// descends only into boxes nearer than the best distance found so far, so its cost grows with
// the part of the mesh near the particle, not with the mesh size.
//
// Inside/outside comes from the angle-weighted pseudo-normal of the feature (face, edge or
// vertex) that holds the closest point (Bærentzen & Aanæs, "Signed Distance Computation Using the
// Angle Weighted Pseudonormal", IEEE TVCG 2005): the sign of dot(p − closest, pseudo-normal) is
// the side of a closed manifold mesh that p is on, also at edges and corners where the nearest
// face's normal alone would give the wrong answer.
#include "sim/trianglemesh.h"

#include "meshquery.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <numeric>
#include <unordered_map>

namespace drape {

void Aabb::grow(const Vec3 &p)
{
    lo = { std::min(lo.x, p.x), std::min(lo.y, p.y), std::min(lo.z, p.z) };
    hi = { std::max(hi.x, p.x), std::max(hi.y, p.y), std::max(hi.z, p.z) };
}

void Aabb::grow(const Aabb &b)
{
    grow(b.lo);
    grow(b.hi);
}

float Aabb::distanceSquared(const Vec3 &p) const
{
    const float dx = std::max({ lo.x - p.x, 0.f, p.x - hi.x });
    const float dy = std::max({ lo.y - p.y, 0.f, p.y - hi.y });
    const float dz = std::max({ lo.z - p.z, 0.f, p.z - hi.z });
    return dx * dx + dy * dy + dz * dz;
}

bool Aabb::overlaps(const Aabb &b) const
{
    return lo.x <= b.hi.x && b.lo.x <= hi.x && lo.y <= b.hi.y && b.lo.y <= hi.y && lo.z <= b.hi.z
        && b.lo.z <= hi.z;
}

namespace {

constexpr std::uint32_t kLeafSize = 4;
// A vertex is sharp when an adjacent face normal is more than acos(0.82) ≈ 35° from its normal.
constexpr float kSharpCos = 0.82f;

float cornerAngle(const Vec3 &a, const Vec3 &b, const Vec3 &c)
{
    const Vec3 u = normalized(b - a, {}), v = normalized(c - a, {});
    return std::acos(std::clamp(dot(u, v), -1.f, 1.f));
}

} // namespace

TriangleMesh::TriangleMesh(std::vector<Vec3> vertices, std::vector<Triangle> triangles)
    : m_vertices(std::move(vertices))
    , m_triangles(std::move(triangles))
{
    const std::size_t nt = m_triangles.size();
    m_faceNormal.resize(nt);
    m_vertexNormal.assign(m_vertices.size(), Vec3 {});
    m_edgeNormal.assign(nt * 3, Vec3 {});
    std::vector<Aabb> boxes(nt);
    std::unordered_map<std::uint64_t, std::uint32_t> firstEdge; // undirected edge → triangle*3 + k
    firstEdge.reserve(nt * 2);
    for (std::size_t t = 0; t < nt; ++t) {
        const Triangle &tri = m_triangles[t];
        const Vec3 &a = m_vertices[tri.v[0]], &b = m_vertices[tri.v[1]], &c = m_vertices[tri.v[2]];
        const Vec3 n = normalized(cross(b - a, c - a), {});
        m_faceNormal[t] = n;
        m_vertexNormal[tri.v[0]] += n * cornerAngle(a, b, c);
        m_vertexNormal[tri.v[1]] += n * cornerAngle(b, c, a);
        m_vertexNormal[tri.v[2]] += n * cornerAngle(c, a, b);
        for (int k = 0; k < 3; ++k) {
            const std::uint32_t i = tri.v[k], j = tri.v[(k + 1) % 3];
            const std::uint64_t key = (std::uint64_t(std::min(i, j)) << 32) | std::max(i, j);
            const auto [it, fresh] = firstEdge.emplace(key, std::uint32_t(t * 3 + std::size_t(k)));
            m_edgeNormal[t * 3 + std::size_t(k)] = n;
            if (!fresh) {
                // Second face on this edge: both records get the sum (a non-manifold third face
                // keeps its own normal, which is the best a fan of faces can offer).
                const Vec3 sum = m_edgeNormal[it->second] + n;
                m_edgeNormal[it->second] = sum;
                m_edgeNormal[t * 3 + std::size_t(k)] = sum;
            }
        }
        boxes[t].grow(a);
        boxes[t].grow(b);
        boxes[t].grow(c);
    }
    for (Vec3 &n : m_vertexNormal)
        n = normalized(n, {});
    for (Vec3 &n : m_edgeNormal)
        n = normalized(n, {});
    build(m_nodes, m_order, boxes);

    // Sharp vertices: convex tips and ridges, where a face turns away from the vertex normal.
    std::vector<float> minCos(m_vertices.size(), 1.f);
    for (std::size_t t = 0; t < nt; ++t)
        for (std::uint32_t v : m_triangles[t].v)
            minCos[v] = std::min(minCos[v], dot(m_faceNormal[t], m_vertexNormal[v]));
    std::vector<Aabb> points;
    for (std::size_t v = 0; v < m_vertices.size(); ++v) {
        if (minCos[v] < kSharpCos && lengthSquared(m_vertexNormal[v]) > 0.f) {
            m_sharp.push_back(std::uint32_t(v));
            Aabb b;
            b.grow(m_vertices[v]);
            points.push_back(b);
        }
    }
    build(m_sharpNodes, m_sharpOrder, points);
}

void TriangleMesh::build(
    std::vector<Node> &nodes, std::vector<std::uint32_t> &order, const std::vector<Aabb> &boxes)
{
    nodes.clear();
    order.resize(boxes.size());
    std::iota(order.begin(), order.end(), 0u);
    if (boxes.empty())
        return;
    std::vector<Vec3> centre(boxes.size());
    for (std::size_t i = 0; i < boxes.size(); ++i)
        centre[i] = (boxes[i].lo + boxes[i].hi) * 0.5f;
    nodes.reserve(2 * boxes.size() / kLeafSize + 2);
    nodes.push_back({});
    struct Task {
        std::uint32_t node, first, count;
    };
    std::vector<Task> tasks { { 0, 0, std::uint32_t(boxes.size()) } };
    while (!tasks.empty()) {
        const Task task = tasks.back();
        tasks.pop_back();
        Aabb box, centres;
        for (std::uint32_t k = task.first; k < task.first + task.count; ++k) {
            box.grow(boxes[order[k]]);
            centres.grow(centre[order[k]]);
        }
        nodes[task.node].box = box;
        if (task.count <= kLeafSize) {
            nodes[task.node].first = task.first;
            nodes[task.node].count = task.count;
            continue;
        }
        const Vec3 ext = centres.hi - centres.lo;
        const int axis = ext.x >= ext.y && ext.x >= ext.z ? 0 : (ext.y >= ext.z ? 1 : 2);
        const std::uint32_t half = task.count / 2;
        auto first = order.begin() + task.first;
        std::nth_element(first, first + half, first + task.count,
            [&](std::uint32_t a, std::uint32_t b) { return centre[a][axis] < centre[b][axis]; });
        const auto left = std::uint32_t(nodes.size());
        nodes.push_back({});
        nodes.push_back({});
        nodes[task.node].first = left;
        nodes[task.node].count = 0;
        tasks.push_back({ left, task.first, half });
        tasks.push_back({ left + 1, task.first + half, task.count - half });
    }
}

bool TriangleMesh::testTriangle(const Vec3 &p, std::uint32_t t, float &best, MeshHit &hit) const
{
    const Triangle &tri = m_triangles[t];
    const detail::TrianglePoint q
        = detail::closestOnTriangle(p, m_vertices[tri.v[0]], m_vertices[tri.v[1]], m_vertices[tri.v[2]]);
    const float d2 = lengthSquared(p - q.point);
    // Ties go to the lower triangle index, so the answer does not depend on the visiting order
    // (nor on the hint): a run resumed with an empty hint cache continues bit for bit.
    if (d2 > best || (d2 == best && t >= hit.triangle))
        return false;
    best = d2;
    hit.triangle = t;
    hit.point = q.point;
    hit.distanceSquared = d2;
    switch (q.feature) {
    case detail::TriangleFeature::Face:
        hit.normal = m_faceNormal[t];
        break;
    case detail::TriangleFeature::Vertex0:
        hit.normal = m_vertexNormal[tri.v[0]];
        break;
    case detail::TriangleFeature::Vertex1:
        hit.normal = m_vertexNormal[tri.v[1]];
        break;
    case detail::TriangleFeature::Vertex2:
        hit.normal = m_vertexNormal[tri.v[2]];
        break;
    case detail::TriangleFeature::Edge01:
        hit.normal = m_edgeNormal[t * 3 + 0];
        break;
    case detail::TriangleFeature::Edge12:
        hit.normal = m_edgeNormal[t * 3 + 1];
        break;
    case detail::TriangleFeature::Edge20:
        hit.normal = m_edgeNormal[t * 3 + 2];
        break;
    }
    return true;
}

bool TriangleMesh::closestPoint(
    const Vec3 &p, float radius, MeshHit &hit, std::uint32_t *work, std::uint32_t hint) const
{
    if (work)
        *work = 0;
    if (m_nodes.empty())
        return false;
    float best = radius * radius;
    hit.triangle = ~0u;
    bool found = hint < m_triangles.size() && testTriangle(p, hint, best, hit);
    std::uint32_t stack[64];
    int top = 0;
    stack[top++] = 0;
    while (top > 0) {
        const Node &n = m_nodes[stack[--top]];
        if (work)
            ++*work;
        if (n.box.distanceSquared(p) > best)
            continue;
        if (n.count == 0) {
            assert(top + 2 <= 64);
            // Nearer child last, so it is searched first and shrinks `best` early.
            const float dl = m_nodes[n.first].box.distanceSquared(p);
            const float dr = m_nodes[n.first + 1].box.distanceSquared(p);
            stack[top++] = dl < dr ? n.first + 1 : n.first;
            stack[top++] = dl < dr ? n.first : n.first + 1;
            continue;
        }
        if (work)
            *work += n.count;
        for (std::uint32_t k = 0; k < n.count; ++k) {
            const std::uint32_t t = m_order[n.first + k];
            if (t != hint)
                found = testTriangle(p, t, best, hit) || found;
        }
    }
    return found;
}

std::size_t TriangleMesh::memoryBytes() const
{
    return m_vertices.size() * sizeof(Vec3) * 2
        + m_triangles.size() * (sizeof(Triangle) + 4 * sizeof(Vec3) + 4) + m_nodes.size() * sizeof(Node);
}

MeshRef makeMeshRef(std::vector<Vec3> vertices, std::vector<Triangle> triangles)
{
    return { std::make_shared<const TriangleMesh>(std::move(vertices), std::move(triangles)) };
}

} // namespace drape
