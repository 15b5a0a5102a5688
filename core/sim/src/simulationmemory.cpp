// Simulation::memoryBytes(): the heap a simulation (or a copy of it, a timeline snapshot)
// holds, so the frame cache can keep to its memory budget with measured figures instead of
// guesses. Counted from vector capacities (what the allocator handed out, less its own
// bookkeeping of a few bytes per block).
#include "sim/simulation.h"

namespace drape {

namespace {

template <typename T> std::size_t bytesOf(const std::vector<T> &v)
{
    return v.capacity() * sizeof(T);
}

template <typename... V> std::size_t bytesOf(const V &...vs)
{
    return (bytesOf(vs) + ...);
}

std::size_t clothBytes(const Cloth &c)
{
    const Particles &p = c.particles;
    return sizeof(Cloth) + c.name.capacity()
        + bytesOf(p.position, p.previous, p.velocity, p.force, p.rest, p.mass, p.invMass, p.kind)
        + bytesOf(c.constraints, c.triangles);
}

std::size_t cacheBytes(const detail::ClothSolverCache &k)
{
    const detail::XpbdBatches &x = k.xpbd;
    return sizeof k
        + bytesOf(k.order, k.batchStart, k.adjacencyStart, k.adjacency, k.preVelocity, k.contactNormal)
        + bytesOf(k.contactCollider, k.springStiffness, k.stiffnessSum, k.dampingSum, k.endPosition)
        + bytesOf(k.kinematic, k.kinematicStart, k.kinematicTarget, k.cellStart, k.cellEntries, k.cellOf)
        + bytesOf(k.cellCursor, k.splitsThisFrame)
        + bytesOf(x.start, x.conflictFree, x.chunkBegin, x.chunkColour, x.colourFirstChunk, x.a, x.b)
        + bytesOf(x.source, x.restLength, x.alphaTilde, x.gamma, x.lambda);
}

} // namespace

std::size_t Simulation::memoryBytes() const
{
    std::size_t total = sizeof(Simulation) + bytesOf(colliders, m_colliderStates, m_tearScratch);
    for (const Cloth &c : cloths)
        total += clothBytes(c);
    for (const detail::ClothSolverCache &k : m_caches)
        total += cacheBytes(k);
    for (const Snapshot &s : m_lastGood)
        total += sizeof s + bytesOf(s.position, s.previous, s.velocity);
    for (const Collider &k : colliders)
        total += k.name.capacity();
    return total;
}

} // namespace drape
