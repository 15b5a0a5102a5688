// Screen-space picking for the tools: particles and constraints projected with the
// viewport's camera, so that "what is under the cursor" and box selections match what the
// user sees, in logical pixels. Ray picking against the cloth surface is a core operation
// (core/edit/pick.h); this complements it for points, segments and rectangles.
#pragma once

#include "sim/cloth.h"

#include <QPointF>
#include <QRectF>

#include <cstdint>
#include <vector>

namespace drape {

class Viewport;
class Simulation;

/// A particle or constraint of one cloth.
struct PickHit {
    int cloth = -1;             ///< cloth index, -1 = nothing hit
    std::uint32_t index = 0;    ///< particle or constraint index
    float distancePx = 0.f;     ///< logical px from the query point
    float depth = 1.f;          ///< window depth of the hit, 0 = near plane

    bool valid() const { return cloth >= 0; }
};

/// Bit per ConstraintKind (1 << kind) for filters.
using ConstraintKindMask = unsigned;
constexpr ConstraintKindMask kAllConstraintKinds = 0xfu;

/// The projected particles of every cloth of a simulation, for one frame of queries.
class ScreenProjection {
public:
    ScreenProjection(const Viewport &viewport, const Simulation &sim);

    /// The front-most particle within `tolerancePx` of `pos` (ties by depth within 1 px).
    PickHit nearestParticle(const QPointF &pos, float tolerancePx) const;
    /// The constraint whose projected segment passes closest to `pos`, within `tolerancePx`.
    PickHit nearestConstraint(const QPointF &pos, float tolerancePx, ConstraintKindMask kinds) const;
    /// Particles of `cloth` (all cloths when -1) whose projection lies inside `rect`.
    std::vector<PickHit> particlesIn(const QRectF &rect, int cloth = -1) const;
    /// Constraints of `cloth` (all when -1) with both ends projected inside `rect`.
    std::vector<PickHit> constraintsIn(const QRectF &rect, ConstraintKindMask kinds, int cloth = -1) const;

    bool projected(int cloth, std::uint32_t particle, QPointF *pos) const;

private:
    struct Projected {
        std::vector<QPointF> pos;
        std::vector<float> depth;
        std::vector<bool> visible;
    };
    const Simulation &m_sim;
    std::vector<Projected> m_cloths;
};

/// Distance from `p` to the segment [a, b], in the same units.
float distanceToSegment(const QPointF &p, const QPointF &a, const QPointF &b);

} // namespace drape
