#include "tools/toolbrush.h"

#include "document/document.h"
#include "tools/tool.h"
#include "render/viewport.h"

#include <QPainter>

#include <algorithm>
#include <cmath>

namespace drape::toolbrush {

PickSettings pickSettings(const Viewport &viewport, float pixels)
{
    const CameraDesc &cam = viewport.camera().desc();
    const float height = std::max(1.f, float(viewport.height()));
    PickSettings s;
    if (cam.orthographic) {
        s.radius = std::max(1e-5f, pixels * cam.orthoHeight / height);
        s.radiusPerMeter = 0.f;
    } else {
        // A pixel at distance t along the ray spans t · 2 tan(fovY / 2) / height metres.
        const float perMeter = 2.f * std::tan(cam.fovY * 0.5f * 3.14159265f / 180.f) / height;
        s.radius = 1e-5f;
        s.radiusPerMeter = pixels * perMeter;
    }
    return s;
}

SurfaceHit surfaceAt(const Viewport &viewport, const QPointF &pos, float pixels)
{
    SurfaceHit out;
    const Document *doc = viewport.document();
    if (!doc)
        return out;
    const ParticleHit hit = pickParticle(doc->simulation(), viewport.rayAt(pos), pickSettings(viewport, pixels));
    if (!hit.found)
        return out;
    out.found = true;
    out.cloth = hit.cloth;
    out.particle = hit.particle;
    out.point = hit.point;
    return out;
}

float pixelRadius(const Viewport &viewport, const Vec3 &centre, float radius)
{
    QPointF a;
    QPointF b;
    if (!viewport.project(centre, &a) || !viewport.project(centre + viewport.camera().right() * radius, &b))
        return 0.f;
    return float(std::hypot(b.x() - a.x(), b.y() - a.y()));
}

bool pointOnViewPlane(const Viewport &viewport, const QPointF &pos, const Vec3 &point, Vec3 *out)
{
    const Ray ray = viewport.rayAt(pos);
    const Vec3 n = viewport.camera().forward();
    const float denom = dot(ray.direction, n);
    if (std::abs(denom) < 1e-6f)
        return false;
    const float t = dot(point - ray.origin, n) / denom;
    if (!std::isfinite(t))
        return false;
    *out = ray.at(t);
    return isFinite(*out);
}

Vec3 fallbackCentre(const Viewport &viewport, const QPointF &pos)
{
    Vec3 p = viewport.camera().desc().target;
    pointOnViewPlane(viewport, pos, viewport.camera().desc().target, &p);
    return p;
}

void paintCircle(QPainter &painter, const QPointF &centre, float pixels, const QColor &colour)
{
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setBrush(Qt::NoBrush);
    painter.setPen(QPen(QColor(0, 0, 0, 120), 3.0));
    painter.drawEllipse(centre, pixels, pixels);
    painter.setPen(QPen(colour, 1.5));
    painter.drawEllipse(centre, pixels, pixels);
    painter.drawEllipse(centre, 1.5, 1.5);
    painter.restore();
}

void paintBox(QPainter &painter, const QPointF &from, const QPointF &to, const QColor &colour)
{
    painter.save();
    QColor fill = colour;
    fill.setAlpha(40);
    painter.setBrush(fill);
    painter.setPen(QPen(colour, 1.0, Qt::DashLine));
    painter.drawRect(QRectF(from, to).normalized());
    painter.restore();
}

} // namespace drape::toolbrush
