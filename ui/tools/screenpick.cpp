#include "tools/screenpick.h"

#include "sim/simulation.h"
#include "document/document.h"
#include "tools/tool.h"
#include "render/viewport.h"

#include <QLineF>

#include <algorithm>
#include <cmath>

namespace drape {

float distanceToSegment(const QPointF &p, const QPointF &a, const QPointF &b)
{
    const QPointF ab = b - a;
    const double len2 = QPointF::dotProduct(ab, ab);
    double t = len2 > 0.0 ? QPointF::dotProduct(p - a, ab) / len2 : 0.0;
    t = std::clamp(t, 0.0, 1.0);
    return float(QLineF(p, a + ab * t).length());
}

ScreenProjection::ScreenProjection(const Viewport &viewport, const Simulation &sim) : m_sim(sim)
{
    m_cloths.resize(sim.cloths.size());
    for (std::size_t c = 0; c < sim.cloths.size(); ++c) {
        const Particles &p = sim.cloths[c].particles;
        Projected &out = m_cloths[c];
        out.pos.resize(p.size());
        out.depth.resize(p.size(), 1.f);
        out.visible.resize(p.size(), false);
        for (std::size_t i = 0; i < p.size(); ++i) {
            float depth = 1.f;
            const bool ok = viewport.project(p.position[i], &out.pos[i], &depth);
            out.visible[i] = ok && depth >= 0.f && depth <= 1.f;
            out.depth[i] = depth;
        }
    }
}

bool ScreenProjection::projected(int cloth, std::uint32_t particle, QPointF *pos) const
{
    if (cloth < 0 || cloth >= int(m_cloths.size()))
        return false;
    const Projected &pr = m_cloths[std::size_t(cloth)];
    if (particle >= pr.pos.size() || !pr.visible[particle])
        return false;
    *pos = pr.pos[particle];
    return true;
}

PickHit ScreenProjection::nearestParticle(const QPointF &pos, float tolerancePx) const
{
    PickHit best;
    for (std::size_t c = 0; c < m_cloths.size(); ++c) {
        const Projected &pr = m_cloths[c];
        for (std::size_t i = 0; i < pr.pos.size(); ++i) {
            if (!pr.visible[i])
                continue;
            const float d = float(QLineF(pos, pr.pos[i]).length());
            if (d > tolerancePx)
                continue;
            // Prefer the nearer particle on screen; among particles about as near, the front one
            // (a folded cloth puts several under the cursor).
            const bool better = !best.valid() || d < best.distancePx - 1.f
                                || (d <= best.distancePx + 1.f && pr.depth[i] < best.depth);
            if (better)
                best = {int(c), std::uint32_t(i), d, pr.depth[i]};
        }
    }
    return best;
}

PickHit ScreenProjection::nearestConstraint(const QPointF &pos, float tolerancePx, ConstraintKindMask kinds) const
{
    PickHit best;
    for (std::size_t c = 0; c < m_cloths.size(); ++c) {
        const Projected &pr = m_cloths[c];
        const auto &constraints = m_sim.cloths[c].constraints;
        for (std::size_t k = 0; k < constraints.size(); ++k) {
            const DistanceConstraint &dc = constraints[k];
            if (!(kinds & (1u << unsigned(dc.kind))) || dc.a >= pr.pos.size() || dc.b >= pr.pos.size())
                continue;
            if (!pr.visible[dc.a] || !pr.visible[dc.b])
                continue;
            const float d = distanceToSegment(pos, pr.pos[dc.a], pr.pos[dc.b]);
            if (d > tolerancePx)
                continue;
            const float depth = 0.5f * (pr.depth[dc.a] + pr.depth[dc.b]);
            const bool better = !best.valid() || d < best.distancePx - 0.5f
                                || (d <= best.distancePx + 0.5f && depth < best.depth);
            if (better)
                best = {int(c), std::uint32_t(k), d, depth};
        }
    }
    return best;
}

std::vector<PickHit> ScreenProjection::particlesIn(const QRectF &rect, int cloth) const
{
    std::vector<PickHit> hits;
    const QRectF r = rect.normalized();
    for (std::size_t c = 0; c < m_cloths.size(); ++c) {
        if (cloth >= 0 && int(c) != cloth)
            continue;
        const Projected &pr = m_cloths[c];
        for (std::size_t i = 0; i < pr.pos.size(); ++i) {
            if (pr.visible[i] && r.contains(pr.pos[i]))
                hits.push_back({int(c), std::uint32_t(i), 0.f, pr.depth[i]});
        }
    }
    return hits;
}

std::vector<PickHit> ScreenProjection::constraintsIn(const QRectF &rect, ConstraintKindMask kinds, int cloth) const
{
    std::vector<PickHit> hits;
    const QRectF r = rect.normalized();
    for (std::size_t c = 0; c < m_cloths.size(); ++c) {
        if (cloth >= 0 && int(c) != cloth)
            continue;
        const Projected &pr = m_cloths[c];
        const auto &constraints = m_sim.cloths[c].constraints;
        for (std::size_t k = 0; k < constraints.size(); ++k) {
            const DistanceConstraint &dc = constraints[k];
            if (!(kinds & (1u << unsigned(dc.kind))) || dc.a >= pr.pos.size() || dc.b >= pr.pos.size())
                continue;
            if (pr.visible[dc.a] && pr.visible[dc.b] && r.contains(pr.pos[dc.a]) && r.contains(pr.pos[dc.b]))
                hits.push_back({int(c), std::uint32_t(k), 0.f, 0.f});
        }
    }
    return hits;
}

} // namespace drape
