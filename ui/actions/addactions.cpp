#include "actions/addactions.h"

#include "document/document.h"
#include "mesh/meshobject.h"
#include "mesh/panel.h"
#include "render/viewport.h"
#include "scene/scenebudget.h"

#include <QAction>
#include <QInputDialog>
#include <QMenu>

namespace drape {

namespace {

// "Sphere 2" when the scene already has a collider or cloth named "Sphere 1".
template <typename List> std::string numbered(const List &list, const QString &base)
{
    for (int n = 1;; ++n) {
        const std::string name = QStringLiteral("%1 %2").arg(base).arg(n).toStdString();
        bool taken = false;
        for (const auto &item : list)
            taken = taken || item.name == name;
        if (!taken)
            return name;
    }
}

} // namespace

AddActions::AddActions(Viewport *viewport, std::function<Document *()> document, QObject *parent)
    : QObject(parent), m_viewport(viewport), m_document(std::move(document))
{
}

void AddActions::populate(QMenu *menu)
{
    struct Entry {
        Object what;
        const char *text;
        const char *tip;
    };
    static const Entry entries[] = {
        {Object::VerticalGrid, QT_TR_NOOP("&Hanging Sheet"), QT_TR_NOOP("A 1 × 1 m sheet of 24 × 24 particles, its top row pinned")},
        {Object::HorizontalGrid, QT_TR_NOOP("&Lying Sheet"), QT_TR_NOOP("A 1 × 1 m sheet of 24 × 24 particles, lying flat, free")},
        {Object::Rope, QT_TR_NOOP("&Rope"), QT_TR_NOOP("A 1 m rope of 20 particles, its first one pinned")},
        {Object::Disc, QT_TR_NOOP("&Disc Panel…"), QT_TR_NOOP("A disc 1 m across, lying flat, triangulated at the edge length you choose")},
        {Object::Polygon, QT_TR_NOOP("He&xagon Panel…"), QT_TR_NOOP("A hexagon 1 m across, lying flat, triangulated at the edge length you choose")},
        {Object::Plane, QT_TR_NOOP("&Plane"), QT_TR_NOOP("A floor through the focus point")},
        {Object::Sphere, QT_TR_NOOP("&Sphere"), QT_TR_NOOP("A ball of radius 0.25 m")},
        {Object::Box, QT_TR_NOOP("&Box"), QT_TR_NOOP("A 0.5 m cube")},
        {Object::Capsule, QT_TR_NOOP("&Capsule"), QT_TR_NOOP("A capsule 0.5 m long, radius 0.1 m")},
    };
    menu->addSection(tr("Cloth"));
    for (const Entry &e : entries) {
        if (e.what == Object::Plane)
            menu->addSection(tr("Collider"));
        QAction *a = menu->addAction(tr(e.text), this, [this, what = e.what] {
            if (what == Object::Disc || what == Object::Polygon) {
                bool ok = false;
                const double length = QInputDialog::getDouble(m_viewport, tr("Panel"),
                    tr("Edge length of the triangles (m):"), m_edgeLength, 0.005, 0.5, 3, &ok, Qt::WindowFlags(), 0.005);
                if (!ok)
                    return;
                m_edgeLength = length;
            }
            add(what);
        });
        a->setToolTip(tr(e.tip));
        a->setStatusTip(tr(e.tip));
    }
    menu->addSeparator();
    QAction *mesh = menu->addAction(tr("From &Mesh File…"), this, &AddActions::importMeshRequested);
    mesh->setObjectName(QStringLiteral("AddFromMeshFile"));
    mesh->setStatusTip(tr("A mesh file (OBJ, PLY, STL, glTF, FBX, COLLADA) as a cloth or a collider"));
}

bool AddActions::add(Object what)
{
    Document *doc = m_document();
    if (!doc)
        return false;
    const Vec3 focus = m_viewport ? m_viewport->camera().desc().target : Vec3{0.f, 1.f, 0.f};
    QString error;
    switch (what) {
    case Object::VerticalGrid:
    case Object::HorizontalGrid: {
        ClothDesc c;
        c.name = numbered(doc->scene().cloths, tr("Sheet"));
        c.source = ClothSource::Grid;
        c.grid.across = 24;
        c.grid.down = 24;
        c.grid.width = 1.f;
        c.grid.height = 1.f;
        if (what == Object::VerticalGrid) {
            c.grid.orientation = GridOrientation::Vertical;
            c.grid.origin = focus + Vec3{-0.5f, 0.5f, 0.f}; // centred on the focus, hanging down
            for (std::uint32_t i = 0; i < 24; ++i)
                c.pins.push_back(i);
        } else {
            c.grid.orientation = GridOrientation::Horizontal;
            c.grid.origin = focus + Vec3{-0.5f, 0.f, -0.5f};
        }
        error = doc->addCloth(c);
        break;
    }
    case Object::Disc:
        error = addPanel(*doc, 48, tr("Disc"), focus);
        break;
    case Object::Polygon:
        error = addPanel(*doc, 6, tr("Hexagon"), focus);
        break;
    case Object::Rope: {
        ClothDesc c;
        c.name = numbered(doc->scene().cloths, tr("Rope"));
        c.source = ClothSource::Rope;
        c.rope.count = 20;
        c.rope.length = 1.f;
        c.rope.start = focus + Vec3{0.f, 0.5f, 0.f};
        c.rope.direction = {1.f, 0.f, 0.f};
        c.pins = {0};
        error = doc->addCloth(c);
        break;
    }
    default: {
        Collider k;
        k.center = k.baseCenter = focus;
        switch (what) {
        case Object::Plane:
            k.kind = ColliderKind::Plane;
            k.name = numbered(doc->scene().colliders, tr("Plane"));
            k.normal = {0.f, 1.f, 0.f};
            break;
        case Object::Sphere:
            k.kind = ColliderKind::Sphere;
            k.name = numbered(doc->scene().colliders, tr("Sphere"));
            k.radius = 0.25f;
            break;
        case Object::Box:
            k.kind = ColliderKind::Box;
            k.name = numbered(doc->scene().colliders, tr("Box"));
            k.halfExtents = {0.25f, 0.25f, 0.25f};
            break;
        default:
            k.kind = ColliderKind::Capsule;
            k.name = numbered(doc->scene().colliders, tr("Capsule"));
            k.radius = 0.1f;
            k.halfLength = 0.25f;
            k.axis = {1.f, 0.f, 0.f};
            break;
        }
        error = doc->addCollider(k);
        break;
    }
    }
    if (!error.isEmpty()) {
        emit statusMessage(tr("Could not add the object: %1").arg(error));
        return false;
    }
    return true;
}

QString AddActions::addPanel(Document &doc, int corners, const QString &base, const Vec3 &focus)
{
    PanelSpec spec;
    spec.outline = discOutline(0.5f, corners);
    spec.edgeLength = float(m_edgeLength);
    spec.horizontal = true;
    spec.origin = focus;
    std::string error;
    const MeshGeometry mesh = makePanelMesh(spec, &error);
    if (mesh.triangles.empty())
        return QString::fromStdString(error);
    ClothDesc cloth = meshToCloth(mesh, Material {}, numbered(doc.scene().cloths, base));
    const std::string over = checkBudget(sceneTotals([&] {
        Scene next = doc.scene();
        next.cloths.push_back(cloth);
        return next;
    }()), doc.budget());
    if (!over.empty())
        return QString::fromStdString(over);
    return doc.addCloth(cloth);
}

} // namespace drape
