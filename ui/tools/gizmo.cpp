#include "tools/gizmo.h"

#include "render/viewport.h"
#include "tools/screenpick.h"

#include <QPainter>
#include <QPainterPath>

#include <cmath>
#include <numbers>

namespace drape {

namespace {

constexpr int kRingSegments = 64;
constexpr float kPlaneNear = 0.25f; ///< of the arm length, the plane squares' inner corner
constexpr float kPlaneFar = 0.45f;  ///< and outer corner
constexpr float kUniformPx = 8.f;   ///< px, half the centre square of the scale handle

bool isAxis(GizmoHandle h) { return h == GizmoHandle::AxisX || h == GizmoHandle::AxisY || h == GizmoHandle::AxisZ; }
bool isPlane(GizmoHandle h) { return h == GizmoHandle::PlaneYZ || h == GizmoHandle::PlaneXZ || h == GizmoHandle::PlaneXY; }
bool isRing(GizmoHandle h) { return h == GizmoHandle::RingX || h == GizmoHandle::RingY || h == GizmoHandle::RingZ; }

QColor colourOf(const Vec3 &axis)
{
    return axis.x != 0.f ? QColor(230, 70, 60) : axis.y != 0.f ? QColor(110, 200, 70) : QColor(70, 130, 240);
}

// Two unit vectors spanning the plane normal to the world axis `n`.
void planeAxes(const Vec3 &n, Vec3 &u, Vec3 &v)
{
    u = n.x != 0.f ? Vec3 { 0.f, 1.f, 0.f } : Vec3 { 1.f, 0.f, 0.f };
    v = cross(n, u);
}

} // namespace

Gizmo::Gizmo(const Viewport &viewport, const Vec3 &centre, GizmoMode mode)
    : m_viewport(viewport), m_centre(centre), m_mode(mode)
{
    m_visible = viewport.project(centre, &m_centre2d);
    if (!m_visible)
        return;
    // The world length of kArmPx at the centre: its distance from the ray kArmPx to the side.
    const Ray side = viewport.rayAt(m_centre2d + QPointF(kArmPx, 0.));
    const Vec3 w = centre - side.origin;
    m_arm = length(w - side.direction * dot(w, side.direction));
    m_visible = m_arm > 0.f && std::isfinite(m_arm);
}

Vec3 Gizmo::axisOf(GizmoHandle h)
{
    switch (h) {
    case GizmoHandle::AxisX: case GizmoHandle::PlaneYZ: case GizmoHandle::RingX: return { 1.f, 0.f, 0.f };
    case GizmoHandle::AxisY: case GizmoHandle::PlaneXZ: case GizmoHandle::RingY: return { 0.f, 1.f, 0.f };
    case GizmoHandle::AxisZ: case GizmoHandle::PlaneXY: case GizmoHandle::RingZ: return { 0.f, 0.f, 1.f };
    case GizmoHandle::None: case GizmoHandle::Uniform: break;
    }
    return {};
}

QPolygonF Gizmo::outline(GizmoHandle h) const
{
    QPolygonF poly;
    Vec3 u, v;
    planeAxes(axisOf(h), u, v);
    auto add = [&](const Vec3 &p) {
        QPointF s;
        if (m_viewport.project(p, &s))
            poly << s;
    };
    if (isPlane(h)) {
        const float a = kPlaneNear * m_arm, b = kPlaneFar * m_arm;
        for (const Vec3 &p : { u * a + v * a, u * b + v * a, u * b + v * b, u * a + v * b })
            add(m_centre + p);
    } else {
        for (int i = 0; i <= kRingSegments; ++i) {
            const float t = 2.f * std::numbers::pi_v<float> * float(i) / kRingSegments;
            add(m_centre + (u * std::cos(t) + v * std::sin(t)) * m_arm);
        }
    }
    return poly;
}

GizmoHandle Gizmo::handleAt(const QPointF &pos) const
{
    if (!m_visible)
        return GizmoHandle::None;
    const QPointF d = pos - m_centre2d;
    const float fromCentre = float(std::hypot(d.x(), d.y()));
    switch (m_mode) {
    case GizmoMode::Move: {
        for (GizmoHandle h : { GizmoHandle::PlaneYZ, GizmoHandle::PlaneXZ, GizmoHandle::PlaneXY })
            if (outline(h).containsPoint(pos, Qt::OddEvenFill))
                return h;
        GizmoHandle best = GizmoHandle::None;
        float bestDist = kPickPx;
        for (GizmoHandle h : { GizmoHandle::AxisX, GizmoHandle::AxisY, GizmoHandle::AxisZ }) {
            QPointF tip;
            if (!m_viewport.project(m_centre + axisOf(h) * m_arm, &tip))
                continue;
            const float dist = distanceToSegment(pos, m_centre2d, tip);
            if (dist < bestDist) {
                best = h;
                bestDist = dist;
            }
        }
        return best;
    }
    case GizmoMode::Rotate: {
        GizmoHandle best = GizmoHandle::None;
        float bestDist = kPickPx;
        for (GizmoHandle h : { GizmoHandle::RingX, GizmoHandle::RingY, GizmoHandle::RingZ }) {
            const QPolygonF ring = outline(h);
            for (int i = 1; i < ring.size(); ++i) {
                const float dist = distanceToSegment(pos, ring[i - 1], ring[i]);
                if (dist < bestDist) {
                    best = h;
                    bestDist = dist;
                }
            }
        }
        return best;
    }
    case GizmoMode::Scale:
        if ((std::fabs(d.x()) <= kUniformPx && std::fabs(d.y()) <= kUniformPx)
            || std::fabs(fromCentre - kArmPx) <= kPickPx)
            return GizmoHandle::Uniform;
        return GizmoHandle::None;
    }
    return GizmoHandle::None;
}

void Gizmo::paint(QPainter &painter, GizmoHandle hot) const
{
    if (!m_visible)
        return;
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing);
    const QColor hotColour(250, 220, 60);
    auto penFor = [&](GizmoHandle h, float width) {
        return QPen(h == hot ? hotColour : colourOf(axisOf(h)), width, Qt::SolidLine, Qt::RoundCap);
    };
    switch (m_mode) {
    case GizmoMode::Move:
        for (GizmoHandle h : { GizmoHandle::PlaneYZ, GizmoHandle::PlaneXZ, GizmoHandle::PlaneXY }) {
            QColor fill = h == hot ? hotColour : colourOf(axisOf(h));
            fill.setAlpha(h == hot ? 160 : 90);
            painter.setPen(penFor(h, 1.f));
            painter.setBrush(fill);
            painter.drawPolygon(outline(h));
        }
        for (GizmoHandle h : { GizmoHandle::AxisX, GizmoHandle::AxisY, GizmoHandle::AxisZ }) {
            QPointF tip;
            if (!m_viewport.project(m_centre + axisOf(h) * m_arm, &tip))
                continue;
            painter.setPen(penFor(h, 3.f));
            painter.drawLine(m_centre2d, tip);
            painter.setBrush(painter.pen().color());
            painter.drawEllipse(tip, 5., 5.);
        }
        break;
    case GizmoMode::Rotate:
        painter.setBrush(Qt::NoBrush);
        for (GizmoHandle h : { GizmoHandle::RingX, GizmoHandle::RingY, GizmoHandle::RingZ }) {
            painter.setPen(penFor(h, 2.5f));
            painter.drawPolyline(outline(h));
        }
        break;
    case GizmoMode::Scale: {
        const QColor c = hot == GizmoHandle::Uniform ? hotColour : QColor(235, 235, 235);
        painter.setPen(QPen(c, 2.f));
        painter.setBrush(Qt::NoBrush);
        painter.drawEllipse(m_centre2d, double(kArmPx), double(kArmPx));
        painter.setBrush(c);
        painter.drawRect(QRectF(m_centre2d - QPointF(kUniformPx, kUniformPx), QSizeF(2 * kUniformPx, 2 * kUniformPx)));
        break;
    }
    }
    painter.restore();
}

std::optional<float> Gizmo::alongAxis(const Vec3 &a, const QPointF &pos) const
{
    // The point c + a t of the axis nearest to the ray o + d s.
    const Ray r = m_viewport.rayAt(pos);
    const Vec3 w = m_centre - r.origin;
    const float b = dot(a, r.direction);
    const float denom = 1.f - b * b;
    if (denom < 1e-4f)
        return std::nullopt;
    return (b * dot(r.direction, w) - dot(a, w)) / denom;
}

std::optional<Vec3> Gizmo::onPlane(const Vec3 &n, const QPointF &pos) const
{
    const Ray r = m_viewport.rayAt(pos);
    const float dn = dot(r.direction, n);
    if (std::fabs(dn) < 1e-3f)
        return std::nullopt;
    return r.at(dot(m_centre - r.origin, n) / dn);
}

std::optional<Vec3> Gizmo::moveDelta(GizmoHandle h, const QPointF &press, const QPointF &pos) const
{
    const Vec3 a = axisOf(h);
    if (isAxis(h)) {
        const std::optional<float> t0 = alongAxis(a, press), t1 = alongAxis(a, pos);
        if (!t0 || !t1)
            return std::nullopt;
        return a * (*t1 - *t0);
    }
    if (isPlane(h)) {
        const std::optional<Vec3> p0 = onPlane(a, press), p1 = onPlane(a, pos);
        if (!p0 || !p1)
            return std::nullopt;
        Vec3 d = *p1 - *p0;
        (a.x != 0.f ? d.x : a.y != 0.f ? d.y : d.z) = 0.f; // exactly in the plane
        return d;
    }
    return std::nullopt;
}

std::optional<float> Gizmo::rotation(GizmoHandle h, const QPointF &press, const QPointF &pos) const
{
    if (!isRing(h))
        return std::nullopt;
    const Vec3 n = axisOf(h);
    const std::optional<Vec3> p0 = onPlane(n, press), p1 = onPlane(n, pos);
    if (!p0 || !p1)
        return std::nullopt;
    const Vec3 v0 = *p0 - m_centre, v1 = *p1 - m_centre;
    if (lengthSquared(v0) < 1e-12f || lengthSquared(v1) < 1e-12f)
        return std::nullopt;
    return std::atan2(dot(cross(v0, v1), n), dot(v0, v1));
}

float Gizmo::scaleFactor(const QPointF &press, const QPointF &pos) const
{
    const QPointF a = press - m_centre2d, b = pos - m_centre2d;
    const double from = std::hypot(a.x(), a.y());
    if (from <= 2.0 * double(kUniformPx)) // from the centre square: a ring's radius to the right doubles
        return float(std::max(0.01, 1.0 + (pos.x() - press.x()) / double(kArmPx)));
    return float(std::max(0.01, std::hypot(b.x(), b.y()) / from));
}

} // namespace drape
