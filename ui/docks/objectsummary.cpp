#include "docks/objectsummary.h"

#include <QObject>

#include <algorithm>

namespace drape {

namespace {

QString metres(float v)
{
    return QString::number(double(v), 'g', 3);
}

QString extent(const Vec3 &lo, const Vec3 &hi)
{
    return QObject::tr("%1 × %2 × %3 m").arg(metres(hi.x - lo.x), metres(hi.y - lo.y), metres(hi.z - lo.z));
}

template <typename Points> QString boundsText(const Points &points)
{
    if (points.empty())
        return QObject::tr("empty");
    Vec3 lo = points.front(), hi = points.front();
    for (const Vec3 &p : points) {
        lo = { std::min(lo.x, p.x), std::min(lo.y, p.y), std::min(lo.z, p.z) };
        hi = { std::max(hi.x, p.x), std::max(hi.y, p.y), std::max(hi.z, p.z) };
    }
    return extent(lo, hi);
}

} // namespace

QString clothKindText(const ClothDesc &cloth)
{
    switch (cloth.source) {
    case ClothSource::Grid:
        return cloth.grid.orientation == GridOrientation::Vertical ? QObject::tr("hanging sheet")
                                                                   : QObject::tr("lying sheet");
    case ClothSource::Rope:
        return QObject::tr("rope");
    case ClothSource::Explicit:
        return QObject::tr("mesh cloth");
    }
    return {};
}

QString clothSizeText(const ClothDesc &cloth)
{
    switch (cloth.source) {
    case ClothSource::Grid:
        return QObject::tr("%1 × %2 m, %3 × %4 particles")
            .arg(metres(cloth.grid.width), metres(cloth.grid.height))
            .arg(cloth.grid.across)
            .arg(cloth.grid.down);
    case ClothSource::Rope:
        return QObject::tr("%1 m, %2 particles").arg(metres(cloth.rope.length)).arg(cloth.rope.count);
    case ClothSource::Explicit:
        return QObject::tr("%1, %2 particles")
            .arg(boundsText(cloth.explicitData.rest))
            .arg(cloth.explicitData.rest.size());
    }
    return {};
}

QString colliderKindText(const Collider &collider)
{
    switch (collider.kind) {
    case ColliderKind::Plane: return QObject::tr("plane");
    case ColliderKind::Sphere: return QObject::tr("sphere");
    case ColliderKind::Box: return collider.keepInside ? QObject::tr("box (inside)") : QObject::tr("box");
    case ColliderKind::Capsule: return QObject::tr("capsule");
    case ColliderKind::Mesh: return QObject::tr("mesh collider");
    }
    return {};
}

QString colliderSizeText(const Collider &c)
{
    switch (c.kind) {
    case ColliderKind::Plane:
        return QObject::tr("through y %1 m").arg(metres(c.baseCenter.y));
    case ColliderKind::Sphere:
        return QObject::tr("radius %1 m").arg(metres(c.radius));
    case ColliderKind::Box:
        return extent(c.halfExtents * -1.f, c.halfExtents);
    case ColliderKind::Capsule:
        return QObject::tr("radius %1 m, %2 m long").arg(metres(c.radius), metres(2.f * (c.halfLength + c.radius)));
    case ColliderKind::Mesh:
        if (!c.mesh)
            return QObject::tr("no mesh");
        return QObject::tr("%1, %2 triangles").arg(boundsText(c.mesh->vertices())).arg(c.mesh->triangles().size());
    }
    return {};
}

QString pinsText(const Cloth &cloth)
{
    const auto &kinds = cloth.particles.kind;
    const auto pins = std::count(kinds.begin(), kinds.end(), ParticleKind::Static);
    return QObject::tr("%1 pinned of %2 particles").arg(pins).arg(kinds.size());
}

} // namespace drape
