#include "tools/viewportmenu.h"

#include "document/document.h"
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
    menu->addAction(tr("Frame All"), viewport, &Viewport::frameAll);
    return menu;
}

} // namespace drape
