#include "document/selection.h"

#include "edit/editdocument.h"

#include <algorithm>
#include <unordered_map>

namespace drape {

namespace {

void sortUnique(std::vector<std::uint32_t> &v)
{
    std::sort(v.begin(), v.end());
    v.erase(std::unique(v.begin(), v.end()), v.end());
}

std::uint64_t pairKey(std::uint32_t a, std::uint32_t b)
{
    if (a > b)
        std::swap(a, b);
    return (std::uint64_t(a) << 32) | b;
}

} // namespace

Selection::Selection(QObject *parent) : QObject(parent) {}

bool Selection::containsConstraint(int cloth, std::uint32_t index) const
{
    return cloth == m_cloth && std::binary_search(m_constraints.begin(), m_constraints.end(), index);
}

void Selection::rebuildPairs(const Cloth &cloth)
{
    std::vector<std::uint32_t> kept;
    m_pairs.clear();
    for (std::uint32_t c : m_constraints) {
        if (c >= cloth.constraints.size())
            continue;
        kept.push_back(c);
        m_pairs.push_back({cloth.constraints[c].a, cloth.constraints[c].b});
    }
    m_constraints = std::move(kept);
}

void Selection::setConstraints(const Cloth &cloth, int clothIndex, std::vector<std::uint32_t> indices)
{
    if (clothIndex != m_cloth)
        m_particles.clear();
    m_cloth = clothIndex;
    sortUnique(indices);
    m_constraints = std::move(indices);
    rebuildPairs(cloth);
    emit changed();
}

void Selection::addConstraints(const Cloth &cloth, int clothIndex, const std::vector<std::uint32_t> &indices,
                               bool toggle)
{
    std::vector<std::uint32_t> next = clothIndex == m_cloth ? m_constraints : std::vector<std::uint32_t>{};
    for (std::uint32_t c : indices) {
        auto it = std::lower_bound(next.begin(), next.end(), c);
        if (it != next.end() && *it == c) {
            if (toggle)
                next.erase(it);
        } else {
            next.insert(it, c);
        }
    }
    setConstraints(cloth, clothIndex, std::move(next));
}

void Selection::setParticles(int clothIndex, std::vector<std::uint32_t> indices)
{
    if (clothIndex != m_cloth) {
        m_constraints.clear();
        m_pairs.clear();
    }
    m_cloth = clothIndex;
    sortUnique(indices);
    m_particles = std::move(indices);
    emit changed();
}

void Selection::clear()
{
    if (m_cloth < 0 && isEmpty())
        return;
    m_cloth = -1;
    m_constraints.clear();
    m_pairs.clear();
    m_particles.clear();
    emit changed();
}

void Selection::remapConstraints(int clothIndex, const std::vector<std::uint32_t> &oldToNew)
{
    if (clothIndex != m_cloth || m_constraints.empty())
        return;
    std::vector<std::uint32_t> next;
    std::vector<Pair> pairs;
    for (std::size_t i = 0; i < m_constraints.size(); ++i) {
        const std::uint32_t c = m_constraints[i];
        if (c < oldToNew.size() && oldToNew[c] != kRemoved) {
            next.push_back(oldToNew[c]);
            pairs.push_back(m_pairs[i]);
        }
    }
    // Keep the pairs parallel to the indices while sorting.
    std::vector<std::size_t> order(next.size());
    for (std::size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    std::sort(order.begin(), order.end(), [&](std::size_t l, std::size_t r) { return next[l] < next[r]; });
    m_constraints.clear();
    m_pairs.clear();
    for (std::size_t i : order) {
        m_constraints.push_back(next[i]);
        m_pairs.push_back(pairs[i]);
    }
    emit changed();
}

void Selection::remapGrid(int clothIndex, const GridDesc &from, const GridDesc &to)
{
    if (clothIndex != m_cloth || isEmpty())
        return;
    const auto one = [&](std::uint32_t i) {
        const std::vector<std::uint32_t> mapped = remapGridIndices(from, to, {i});
        return mapped.empty() ? kRemoved : mapped.front();
    };
    std::vector<std::uint32_t> particles;
    for (std::uint32_t p : m_particles)
        if (const std::uint32_t q = one(p); q != kRemoved)
            particles.push_back(q);
    sortUnique(particles);
    m_particles = std::move(particles);
    // The constraints are found again by their new pairs (revalidate) once the cloth is built.
    for (std::size_t i = 0; i < m_pairs.size(); ++i) {
        m_pairs[i] = {one(m_pairs[i].a), one(m_pairs[i].b)};
        m_constraints[i] = kRemoved - 1; // no longer names the right record
    }
    emit changed();
}

void Selection::revalidate(const std::vector<Cloth> &cloths)
{
    if (m_cloth < 0)
        return;
    if (m_cloth >= int(cloths.size())) {
        clear();
        return;
    }
    const Cloth &cloth = cloths[std::size_t(m_cloth)];
    bool dirty = false;
    std::unordered_map<std::uint64_t, std::uint32_t> byPair; // built only when needed
    std::vector<std::uint32_t> next;
    std::vector<Pair> pairs;
    for (std::size_t i = 0; i < m_constraints.size(); ++i) {
        const std::uint32_t c = m_constraints[i];
        const Pair p = m_pairs[i];
        if (c < cloth.constraints.size() && pairKey(cloth.constraints[c].a, cloth.constraints[c].b) == pairKey(p.a, p.b)) {
            next.push_back(c);
            pairs.push_back(p);
            continue;
        }
        dirty = true;
        if (byPair.empty()) {
            for (std::uint32_t k = 0; k < cloth.constraints.size(); ++k)
                byPair.emplace(pairKey(cloth.constraints[k].a, cloth.constraints[k].b), k);
        }
        if (auto it = byPair.find(pairKey(p.a, p.b)); it != byPair.end()) {
            next.push_back(it->second);
            pairs.push_back(p);
        }
    }
    std::vector<std::uint32_t> particles;
    for (std::uint32_t v : m_particles) {
        if (v < cloth.particles.size())
            particles.push_back(v);
        else
            dirty = true;
    }
    if (!dirty)
        return;
    m_particles = std::move(particles);
    m_constraints = std::move(next);
    m_pairs = std::move(pairs);
    // Re-resolution may have produced an unsorted list; rebuild sorted with pairs re-read.
    sortUnique(m_constraints);
    rebuildPairs(cloth);
    emit changed();
}

} // namespace drape
