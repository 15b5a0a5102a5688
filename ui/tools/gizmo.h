// The transform gizmo's geometry: its handles on screen (axis arrows and plane squares to
// move, rings to rotate, a centre square and circle to scale uniformly), which handle is
// under the cursor, how it is painted, and what a drag from one screen point to another
// means in the world. The axes are the world's; the size is fixed in pixels.
#pragma once

#include "base/vec3.h"

#include <QPointF>
#include <QPolygonF>

#include <optional>

class QPainter;

namespace drape {

class Viewport;

enum class GizmoMode { Move, Rotate, Scale };

enum class GizmoHandle { None, AxisX, AxisY, AxisZ, PlaneYZ, PlaneXZ, PlaneXY, RingX, RingY, RingZ, Uniform };

class Gizmo {
public:
    static constexpr float kArmPx = 90.f;  ///< px, length of an arrow and radius of a ring
    static constexpr float kPickPx = 7.f;  ///< px, how near the cursor must be to a handle

    Gizmo(const Viewport &viewport, const Vec3 &centre, GizmoMode mode);

    bool visible() const { return m_visible; }
    QPointF centreOnScreen() const { return m_centre2d; }
    /// m, the world length of kArmPx at the centre's depth.
    float armLength() const { return m_arm; }
    GizmoHandle handleAt(const QPointF &pos) const;
    void paint(QPainter &painter, GizmoHandle hot) const;

    /// The world axis of an arrow or ring, the normal of a plane square.
    static Vec3 axisOf(GizmoHandle handle);
    /// The displacement (m) a move handle's drag from `press` to `pos` gives: along the axis
    /// (the axis point nearest to the cursor's ray) or in the plane (where the ray meets it).
    /// Empty when the axis points at the viewer or the plane is seen edge-on.
    std::optional<Vec3> moveDelta(GizmoHandle handle, const QPointF &press, const QPointF &pos) const;
    /// The angle (radians, right-handed about the ring's axis) a ring's drag turns by.
    std::optional<float> rotation(GizmoHandle handle, const QPointF &press, const QPointF &pos) const;
    /// The factor a scale drag gives: the cursor's distance from the centre now over at the
    /// press (from the circle), or 1 + the rightward motion over kArmPx (from the centre square).
    float scaleFactor(const QPointF &press, const QPointF &pos) const;

private:
    std::optional<float> alongAxis(const Vec3 &axis, const QPointF &pos) const;
    std::optional<Vec3> onPlane(const Vec3 &normal, const QPointF &pos) const;
    /// The screen polygon of a plane square or the polyline of a ring.
    QPolygonF outline(GizmoHandle handle) const;

    const Viewport &m_viewport;
    Vec3 m_centre;
    GizmoMode m_mode;
    QPointF m_centre2d;
    float m_arm = 0.f;
    bool m_visible = false;
};

} // namespace drape
