#include "tools/transformtool.h"

#include "base/rotation.h"
#include "document/document.h"
#include "render/viewport.h"
#include "tools/screenpick.h"
#include "tools/toolmanager.h"
#include "widgets/icons.h"

#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>

#include <cmath>
#include <optional>

namespace drape {

namespace {

float snapped(float value, float step) { return std::round(value / step) * step; }

// Ray parameter of the first hit on a ball of radius r at c, if any.
std::optional<float> hitBall(const Ray &ray, const Vec3 &c, float r)
{
    const Vec3 w = ray.origin - c;
    const float b = dot(w, ray.direction);
    const float disc = b * b - (lengthSquared(w) - r * r);
    if (disc < 0.f)
        return std::nullopt;
    const float t = -b - std::sqrt(disc);
    return t >= 0.f ? t : -b + std::sqrt(disc);
}

// Where a click's ray meets a collider (the slab test in a box's frame; a capsule or a mesh
// by its bounding ball, which is close enough to choose it).
std::optional<float> hitCollider(const Ray &ray, const Collider &c)
{
    switch (c.kind) {
    case ColliderKind::Sphere:
        return hitBall(ray, c.center, c.radius);
    case ColliderKind::Capsule:
        return hitBall(ray, c.center, c.radius + c.halfLength);
    case ColliderKind::Mesh: {
        if (!c.mesh)
            return std::nullopt;
        const Aabb b = c.mesh->bounds();
        return hitBall(ray, c.center + (b.lo + b.hi) * 0.5f, length(b.hi - b.lo) * 0.5f);
    }
    case ColliderKind::Box: {
        const Mat3 r = rotationFromEuler(c.rotation);
        const Vec3 o = r.inverseTimes(ray.origin - c.center), d = r.inverseTimes(ray.direction);
        float lo = 0.f, hi = 1e30f;
        for (int a = 0; a < 3; ++a) {
            const float h = c.halfExtents[a];
            if (std::fabs(d[a]) < 1e-9f) {
                if (std::fabs(o[a]) > h)
                    return std::nullopt;
                continue;
            }
            float t0 = (-h - o[a]) / d[a], t1 = (h - o[a]) / d[a];
            if (t0 > t1)
                std::swap(t0, t1);
            lo = std::max(lo, t0);
            hi = std::min(hi, t1);
        }
        if (lo > hi)
            return std::nullopt;
        return lo;
    }
    case ColliderKind::Plane:
        break; // the ground is chosen in the Parameters dock: a click on it would hide everything else
    }
    return std::nullopt;
}

} // namespace

TransformTool::TransformTool(ToolManager *manager, QObject *parent)
    : Tool(tr("Transform"), toolIcon(QStringLiteral("transform")), parent), m_manager(manager)
{
}

bool TransformTool::targetValid() const
{
    const Document *doc = m_manager->document();
    if (!doc || m_index < 0)
        return false;
    if (m_target == Target::Cloth)
        return std::size_t(m_index) < doc->scene().cloths.size();
    if (m_target == Target::Collider)
        return std::size_t(m_index) < doc->settings().colliders.size();
    return false;
}

void TransformTool::setTarget(Target target, int index)
{
    if (m_handle != GizmoHandle::None)
        abort();
    m_target = target;
    m_index = target == Target::None ? -1 : index;
    m_hover = GizmoHandle::None;
    emit statusHintChanged(statusHint());
    emit overlayChanged();
}

void TransformTool::setMode(GizmoMode mode)
{
    if (m_handle != GizmoHandle::None)
        abort();
    m_mode = mode;
    m_hover = GizmoHandle::None;
    emit statusHintChanged(statusHint());
    emit overlayChanged();
}

Vec3 TransformTool::gizmoCentre() const
{
    const Document *doc = m_manager->document();
    if (!targetValid())
        return {};
    if (m_target == Target::Cloth)
        return placedCentre(doc->scene().cloths[std::size_t(m_index)]);
    return doc->settings().colliders[std::size_t(m_index)].baseCenter;
}

void TransformTool::deactivate()
{
    if (m_handle != GizmoHandle::None)
        abort();
    Tool::deactivate();
}

void TransformTool::pick(const QPointF &pos)
{
    const Document *doc = m_manager->document();
    const Viewport *vp = m_manager->viewport();
    if (!doc || !vp)
        return;
    const Ray ray = vp->rayAt(pos);
    Target target = Target::None;
    int index = -1;
    float nearest = 1e30f;
    const std::vector<Collider> &colliders = doc->simulation().colliders;
    for (std::size_t i = 0; i < colliders.size(); ++i) {
        const std::optional<float> t = hitCollider(ray, colliders[i]);
        if (t && *t < nearest) {
            nearest = *t;
            target = Target::Collider;
            index = int(i);
        }
    }
    const PickHit hit = ScreenProjection(*vp, doc->simulation()).nearestParticle(pos, 10.f);
    if (hit.valid()) {
        const Vec3 p = doc->simulation().cloths[std::size_t(hit.cloth)].particles.position[hit.index];
        if (dot(p - ray.origin, ray.direction) < nearest) {
            target = Target::Cloth;
            index = hit.cloth;
        }
    }
    setTarget(target, index);
    if (target != Target::None)
        emit targetChosen(target, index);
}

bool TransformTool::mousePress(QMouseEvent *event)
{
    const Viewport *vp = m_manager->viewport();
    Document *doc = m_manager->document();
    if (!vp || !doc)
        return false;
    if (event->button() == Qt::RightButton && m_handle != GizmoHandle::None) {
        abort();
        return true;
    }
    if (event->button() != Qt::LeftButton)
        return false;
    const QPointF pos = event->position();
    const GizmoHandle handle
        = targetValid() ? Gizmo(*vp, gizmoCentre(), m_mode).handleAt(pos) : GizmoHandle::None;
    if (handle == GizmoHandle::None) {
        pick(pos);
        return true;
    }
    m_handle = handle;
    m_press = pos;
    m_pressCentre = gizmoCentre();
    m_appliedScale = 1.f;
    if (m_target == Target::Cloth) {
        m_startCloth = doc->scene().cloths[std::size_t(m_index)].placement;
    } else {
        const Collider &c = doc->settings().colliders[std::size_t(m_index)];
        m_startCentre = c.baseCenter;
        m_startRotation = c.rotation;
    }
    doc->beginGesture();
    return true;
}

void TransformTool::dragTo(const QPointF &pos, bool snap)
{
    const Viewport *vp = m_manager->viewport();
    Document *doc = m_manager->document();
    if (!vp || !doc || !targetValid())
        return;
    // Measured with the gizmo as it was at the press, so the drag does not feed on itself.
    const Gizmo gizmo(*vp, m_pressCentre, m_mode);
    Vec3 move;
    Mat3 turn;
    float scale = 1.f;
    if (m_mode == GizmoMode::Move) {
        const std::optional<Vec3> d = gizmo.moveDelta(m_handle, m_press, pos);
        if (!d)
            return;
        move = snap ? Vec3 { snapped(d->x, kSnapMetres), snapped(d->y, kSnapMetres), snapped(d->z, kSnapMetres) } : *d;
    } else if (m_mode == GizmoMode::Rotate) {
        const std::optional<float> a = gizmo.rotation(m_handle, m_press, pos);
        if (!a)
            return;
        turn = axisRotation(Gizmo::axisOf(m_handle), snap ? snapped(*a / kDegree, kSnapDegrees) * kDegree : *a);
    } else {
        scale = gizmo.scaleFactor(m_press, pos);
        if (snap)
            scale = std::max(kSnapScale, snapped(scale, kSnapScale));
    }
    QString error;
    if (m_target == Target::Cloth) {
        Placement p = m_startCloth;
        p.offset = p.offset + move;
        if (m_mode == GizmoMode::Rotate)
            p.rotation = eulerFromRotation(turn * rotationFromEuler(p.rotation));
        p.scale = m_startCloth.scale * scale;
        error = doc->setPlacement(m_index, p);
    } else {
        const Vec3 rotation = m_mode == GizmoMode::Rotate
            ? eulerFromRotation(turn * rotationFromEuler(m_startRotation))
            : m_startRotation;
        error = doc->setColliderPlacement(m_index, m_startCentre + move, rotation, scale / m_appliedScale);
        if (error.isEmpty())
            m_appliedScale = scale;
    }
    if (!error.isEmpty())
        m_manager->reportError(error);
}

bool TransformTool::mouseMove(QMouseEvent *event)
{
    const Viewport *vp = m_manager->viewport();
    if (!vp)
        return false;
    if (m_handle != GizmoHandle::None) {
        dragTo(event->position(), event->modifiers() & Qt::ControlModifier);
        emit overlayChanged();
        return true;
    }
    const GizmoHandle hover
        = targetValid() ? Gizmo(*vp, gizmoCentre(), m_mode).handleAt(event->position()) : GizmoHandle::None;
    if (hover != m_hover) {
        m_hover = hover;
        m_manager->updateCursor();
        emit overlayChanged();
    }
    return false;
}

bool TransformTool::mouseRelease(QMouseEvent *event)
{
    if (m_handle == GizmoHandle::None || event->button() != Qt::LeftButton)
        return false;
    dragTo(event->position(), event->modifiers() & Qt::ControlModifier);
    m_handle = GizmoHandle::None;
    static const char *const kVerbs[] = { QT_TR_NOOP("Move"), QT_TR_NOOP("Rotate"), QT_TR_NOOP("Scale") };
    const QString what = m_target == Target::Cloth ? tr("Cloth") : tr("Collider");
    if (Document *doc = m_manager->document())
        doc->endGesture(QStringLiteral("%1 %2 #%3").arg(tr(kVerbs[int(m_mode)]), what).arg(m_index + 1));
    emit overlayChanged();
    return true;
}

bool TransformTool::keyPress(QKeyEvent *event)
{
    if (event->key() == Qt::Key_Escape && m_handle != GizmoHandle::None) {
        abort();
        return true;
    }
    if (event->modifiers() & (Qt::ControlModifier | Qt::AltModifier | Qt::MetaModifier))
        return false;
    switch (event->key()) {
    case Qt::Key_G: setMode(GizmoMode::Move); return true;
    case Qt::Key_R: setMode(GizmoMode::Rotate); return true;
    case Qt::Key_S: setMode(GizmoMode::Scale); return true;
    default: return false;
    }
}

void TransformTool::abort()
{
    m_handle = GizmoHandle::None;
    if (Document *doc = m_manager->document())
        doc->cancelGesture();
    emit overlayChanged();
}

void TransformTool::reset()
{
    // The document was replaced: its gesture is gone with it, and so is the target.
    m_handle = GizmoHandle::None;
    m_target = Target::None;
    m_index = -1;
    m_hover = GizmoHandle::None;
}

void TransformTool::paintOverlay(QPainter &painter)
{
    const Viewport *vp = m_manager->viewport();
    if (!vp || !targetValid())
        return;
    Gizmo(*vp, gizmoCentre(), m_mode).paint(painter, m_handle != GizmoHandle::None ? m_handle : m_hover);
}

QCursor TransformTool::cursor() const
{
    return m_hover != GizmoHandle::None || m_handle != GizmoHandle::None ? Qt::SizeAllCursor : Qt::ArrowCursor;
}

QString TransformTool::statusHint() const
{
    if (!targetValid())
        return tr("Click a cloth or a collider to place it");
    switch (m_mode) {
    case GizmoMode::Move:
        return tr("Drag an arrow or a square to move; R rotate, S scale; Ctrl snaps to %1 m").arg(double(kSnapMetres));
    case GizmoMode::Rotate:
        return tr("Drag a ring to rotate; G move, S scale; Ctrl snaps to %1°").arg(double(kSnapDegrees));
    case GizmoMode::Scale:
        return tr("Drag the centre or the circle to scale; G move, R rotate; Ctrl snaps to %1 %")
            .arg(double(kSnapScale) * 100.);
    }
    return {};
}

} // namespace drape
