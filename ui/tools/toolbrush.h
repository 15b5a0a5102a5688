// The brush shared by the tools: a radius in metres around the point under the cursor,
// drawn as a circle with its projected size, and the conversions between pixels on screen
// and metres at a depth that picking and grabbing need.
#pragma once

#include "edit/pick.h"
#include "base/vec3.h"

#include <QColor>
#include <QPointF>

class QPainter;

namespace drape {

class Viewport;

/// What the cursor is over: the particle picked under it (if any) and its world position.
struct SurfaceHit {
    bool found = false;
    int cloth = -1;
    std::uint32_t particle = 0;
    Vec3 point; ///< m
};

namespace toolbrush {

/// Pick tolerance that corresponds to `pixels` logical pixels around the cursor, at every
/// depth (perspective: grows with distance along the ray; orthographic: constant).
PickSettings pickSettings(const Viewport &viewport, float pixels);
/// The particle under `pos` (within `pixels`) of the viewport's document.
SurfaceHit surfaceAt(const Viewport &viewport, const QPointF &pos, float pixels);
/// Logical pixels covered by `radius` metres at world point `centre`.
float pixelRadius(const Viewport &viewport, const Vec3 &centre, float radius);
/// Where the ray through `pos` meets the plane through `point` that faces the camera.
bool pointOnViewPlane(const Viewport &viewport, const QPointF &pos, const Vec3 &point, Vec3 *out);
/// A point at the depth of the camera target, for brushes drawn off the cloth.
Vec3 fallbackCentre(const Viewport &viewport, const QPointF &pos);
/// Draws the brush circle (and a dot in its middle).
void paintCircle(QPainter &painter, const QPointF &centre, float pixels, const QColor &colour);
/// Draws a selection rectangle.
void paintBox(QPainter &painter, const QPointF &from, const QPointF &to, const QColor &colour);

} // namespace toolbrush
} // namespace drape
