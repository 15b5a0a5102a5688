#include "tools/viewportmenu.h"

#include "document/document.h"
#include "edit/pick.h"
#include "render/viewport.h"
#include "tools/screenpick.h"
#include "tools/toolmanager.h"

#include <QMenu>

namespace drape {

namespace {

constexpr float kPickTolerancePx = 14.f; ///< a particle this close to the click is "under the cursor"

} // namespace

ViewportMenu::ViewportMenu(ToolManager *tools, QObject *parent)
    : QObject(parent)
    , m_tools(tools)
{
    Viewport *viewport = tools->viewport();
    connect(viewport, &Viewport::contextMenuRequested, this, [this, viewport](const QPointF &pos) {
        QMenu *menu = menuAt(pos);
        menu->setAttribute(Qt::WA_DeleteOnClose);
        menu->popup(viewport->mapToGlobal(pos.toPoint()));
    });
    // A plain left click that no tool took selects the cloth or collider under the cursor.
    connect(viewport, &Viewport::clicked, this, [this, viewport](const QPointF &pos) {
        Document *doc = m_tools->document();
        if (!doc)
            return;
        const PickHit hit = ScreenProjection(*viewport, doc->simulation()).nearestParticle(pos, kPickTolerancePx);
        if (hit.valid() && !doc->scene().cloths[std::size_t(hit.cloth)].hidden)
            emit clothChosen(hit.cloth);
        else if (const int collider = colliderAt(pos); collider >= 0)
            emit colliderChosen(collider);
    });
}

QMenu *ViewportMenu::menuAt(const QPointF &pos)
{
    Viewport *viewport = m_tools->viewport();
    auto *menu = new QMenu(viewport);
    menu->setObjectName(QStringLiteral("ViewportMenu"));
    Document *doc = m_tools->document();
    PickHit hit;
    if (doc)
        hit = ScreenProjection(*viewport, doc->simulation()).nearestParticle(pos, kPickTolerancePx);
    // Hidden cloths are not drawn: nothing of theirs is under the cursor.
    if (hit.valid() && doc->scene().cloths[std::size_t(hit.cloth)].hidden)
        hit = PickHit {};
    if (hit.valid()) {
        const int cloth = hit.cloth;
        const std::uint32_t particle = hit.index;
        const Cloth &c = doc->simulation().cloths[std::size_t(cloth)];
        const bool pinned = c.particles.kind[particle] == ParticleKind::Static;
        const QString name = QString::fromStdString(doc->scene().cloths[std::size_t(cloth)].name);
        menu->addSection(tr("%1, particle %2").arg(name).arg(particle));
        menu->addAction(
            pinned ? tr("Unpin Particle") : tr("Pin Particle"), this, [this, cloth, particle, pinned] {
                Document *d = m_tools->document();
                if (!d || std::size_t(cloth) >= d->simulation().cloths.size())
                    return;
                m_tools->reportError(
                    d->setKind(cloth, {particle}, !pinned, pinned ? tr("Unpin Particle") : tr("Pin Particle")));
            });
        menu->addAction(tr("Select Cloth “%1”").arg(name), this, [this, cloth] { emit clothChosen(cloth); });
        menu->addAction(
            tr("Frame Cloth “%1”").arg(name), viewport, [viewport, cloth] { viewport->frameCloth(cloth); });
        menu->addSeparator();
    }
    if (const int collider = hit.valid() ? -1 : colliderAt(pos); collider >= 0) {
        const QString name = QString::fromStdString(doc->scene().colliders[std::size_t(collider)].name);
        menu->addSection(name);
        menu->addAction(tr("Select Collider “%1”").arg(name), this, [this, collider] { emit colliderChosen(collider); });
        menu->addSeparator();
    }
    menu->addAction(tr("Frame All"), viewport, &Viewport::frameAll);
    if (m_addMenu) {
        menu->addSeparator();
        menu->addMenu(m_addMenu);
    }
    return menu;
}

int ViewportMenu::colliderAt(const QPointF &pos) const
{
    Document *doc = m_tools->document();
    if (!doc)
        return -1;
    std::vector<bool> hidden;
    for (const Collider &c : doc->scene().colliders)
        hidden.push_back(c.hidden);
    const ColliderHit hit = pickCollider(doc->simulation(), m_tools->viewport()->rayAt(pos), hidden);
    return hit.found ? hit.collider : -1;
}

} // namespace drape
