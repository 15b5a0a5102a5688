#include "docks/outlinerdock.h"

#include "docks/objectsummary.h"

#include <QAction>
#include <QDropEvent>
#include <QMimeData>
#include <QHeaderView>
#include <QMenu>
#include <QTimer>
#include <QTreeWidget>

#include <algorithm>
#include <optional>

namespace drape {

namespace {

constexpr int kKindRole = Qt::UserRole;      ///< SceneObject::Kind as int
constexpr int kIndexRole = Qt::UserRole + 1; ///< index in its list

bool isObject(const QTreeWidgetItem *item)
{
    return item && item->data(0, kIndexRole).isValid();
}

SceneObject objectOf(const QTreeWidgetItem *item)
{
    return { SceneObject::Kind(item->data(0, kKindRole).toInt()), item->data(0, kIndexRole).toInt() };
}

} // namespace

OutlinerDock::OutlinerDock(QWidget *parent) : QDockWidget(tr("Outliner"), parent)
{
    setObjectName(QStringLiteral("OutlinerDock"));
    m_tree = new QTreeWidget(this);
    m_tree->setObjectName(QStringLiteral("Outliner"));
    m_tree->setColumnCount(3);
    m_tree->setHeaderLabels({ tr("Object"), tr("Kind"), tr("Size") });
    m_tree->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    m_tree->header()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    m_tree->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_tree->setEditTriggers(QAbstractItemView::EditKeyPressed | QAbstractItemView::DoubleClicked);
    m_tree->setContextMenuPolicy(Qt::CustomContextMenu);
    m_tree->setToolTip(tr("Every cloth and collider; the check box shows or hides it in the viewport"));
    // Drag to reorder: the drop is handled here (eventFilter) as one undoable move, never as
    // the tree moving its own items.
    m_tree->setDragDropMode(QAbstractItemView::InternalMove);
    m_tree->viewport()->installEventFilter(this);
    setWidget(m_tree);
    createActions();
    connect(m_tree, &QTreeWidget::customContextMenuRequested, this, &OutlinerDock::showMenu);
    connect(m_tree, &QTreeWidget::itemChanged, this, &OutlinerDock::onItemChanged);
    connect(m_tree, &QTreeWidget::itemSelectionChanged, this, &OutlinerDock::updateActions);
    connect(m_tree, &QTreeWidget::currentItemChanged, this, [this](QTreeWidgetItem *item) {
        if (!m_refreshing && isObject(item))
            emit objectChosen(objectOf(item));
    });
    setEnabled(false);
}

void OutlinerDock::createActions()
{
    auto make = [this](const QString &text, const QString &name, const QKeySequence &key, const QString &tip,
                       void (OutlinerDock::*slot)()) {
        auto *a = new QAction(text, m_tree);
        a->setObjectName(name);
        a->setShortcut(key);
        a->setShortcutContext(Qt::WidgetWithChildrenShortcut);
        a->setToolTip(tip);
        if (slot)
            connect(a, &QAction::triggered, this, slot);
        m_tree->addAction(a);
        return a;
    };
    m_rename = make(tr("Rename"), QStringLiteral("RenameObject"), QKeySequence(Qt::Key_F2),
                    tr("Rename the object in place"), nullptr);
    connect(m_rename, &QAction::triggered, this, [this] {
        if (QTreeWidgetItem *item = m_tree->currentItem(); isObject(item))
            m_tree->editItem(item, 0);
    });
    m_duplicate = make(tr("Duplicate"), QStringLiteral("DuplicateObject"), QKeySequence(QStringLiteral("Ctrl+D")),
                       tr("Copies of the selected objects, in the same place (the playhead returns to the start)"),
                       &OutlinerDock::duplicateSelected);
    m_hide = make(tr("Hide / Show"), QStringLiteral("HideObject"), QKeySequence(QStringLiteral("Ctrl+H")),
                  tr("Hide the selected objects from the viewport, or show them again (they still simulate)"),
                  &OutlinerDock::toggleHidden);
    m_moveUp = make(tr("Move Up"), QStringLiteral("MoveObjectUp"), QKeySequence(QStringLiteral("Alt+Up")),
                    tr("Earlier in its list"), nullptr);
    connect(m_moveUp, &QAction::triggered, this, [this] { moveCurrent(-1); });
    m_moveDown = make(tr("Move Down"), QStringLiteral("MoveObjectDown"), QKeySequence(QStringLiteral("Alt+Down")),
                      tr("Later in its list"), nullptr);
    connect(m_moveDown, &QAction::triggered, this, [this] { moveCurrent(1); });
    m_delete = make(tr("Delete"), QStringLiteral("DeleteObject"), QKeySequence::Delete,
                    tr("Delete the selected objects (undoable; the playhead returns to the start)"),
                    &OutlinerDock::deleteSelected);
    updateActions();
}

void OutlinerDock::setDocument(Document *document)
{
    if (m_document)
        disconnect(m_document, nullptr, this, nullptr);
    m_document = document;
    m_cloths = m_document ? m_document->scene().cloths.size() : 0;
    m_colliders = m_document ? m_document->scene().colliders.size() : 0;
    setEnabled(m_document != nullptr);
    if (m_document) {
        connect(m_document, &Document::changed, this, [this](Change what) {
            if (what & (Change::Cloths | Change::Colliders | Change::Topology | Change::Pins | Change::View
                        | Change::Parameters))
                refresh();
        });
        connect(m_document, &Document::simulationReset, this, &OutlinerDock::refresh);
    }
    refresh();
}

void OutlinerDock::refresh()
{
    std::vector<SceneObject> selected = selectedObjects();
    const QTreeWidgetItem *currentItem = m_tree->currentItem();
    std::optional<SceneObject> current
        = isObject(currentItem) ? std::optional<SceneObject>(objectOf(currentItem)) : std::nullopt;
    std::vector<SceneObject> appended;
    if (m_document) {
        const std::size_t cloths = m_document->scene().cloths.size();
        const std::size_t colliders = m_document->scene().colliders.size();
        for (std::size_t i = m_cloths; i < cloths && colliders >= m_colliders; ++i)
            appended.push_back({ SceneObject::Kind::Cloth, int(i) });
        for (std::size_t i = m_colliders; i < colliders && cloths >= m_cloths; ++i)
            appended.push_back({ SceneObject::Kind::Collider, int(i) });
        m_cloths = cloths;
        m_colliders = colliders;
    }
    m_refreshing = true;
    m_tree->clear();
    m_clothGroup = m_colliderGroup = nullptr;
    if (m_document) {
        const Scene &scene = m_document->scene();
        auto group = [this](const QString &title, std::size_t count) {
            auto *g = new QTreeWidgetItem(m_tree, { title, QString::number(count) });
            g->setFlags(Qt::ItemIsEnabled);
            return g;
        };
        auto add = [](QTreeWidgetItem *parent, SceneObject o, const std::string &name, bool hidden,
                      const QString &kind, const QString &size) {
            auto *item = new QTreeWidgetItem(parent, { QString::fromStdString(name), kind, size });
            item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemIsEditable | Qt::ItemIsUserCheckable
                           | Qt::ItemIsDragEnabled);
            item->setCheckState(0, hidden ? Qt::Unchecked : Qt::Checked);
            item->setData(0, kKindRole, int(o.kind));
            item->setData(0, kIndexRole, o.index);
            item->setToolTip(2, size);
            if (hidden)
                for (int c = 0; c < 3; ++c)
                    item->setForeground(c, QPalette().brush(QPalette::Disabled, QPalette::Text));
        };
        m_clothGroup = group(tr("Cloths"), scene.cloths.size());
        for (std::size_t i = 0; i < scene.cloths.size(); ++i) {
            const ClothDesc &c = scene.cloths[i];
            add(m_clothGroup, { SceneObject::Kind::Cloth, int(i) }, c.name, c.hidden, clothKindText(c), clothSizeText(c));
        }
        m_colliderGroup = group(tr("Colliders"), scene.colliders.size());
        for (std::size_t i = 0; i < scene.colliders.size(); ++i) {
            const Collider &c = scene.colliders[i];
            add(m_colliderGroup, { SceneObject::Kind::Collider, int(i) }, c.name, c.hidden, colliderKindText(c),
                colliderSizeText(c));
        }
        m_tree->expandAll();
        if (current)
            if (QTreeWidgetItem *item = itemOf(*current))
                m_tree->setCurrentItem(item, 0, QItemSelectionModel::NoUpdate);
        for (const SceneObject &o : selected)
            if (QTreeWidgetItem *item = itemOf(o))
                item->setSelected(true);
    }
    m_refreshing = false;
    updateActions();
    if (!appended.empty())
        select(appended); // tells the Parameters dock too
}

QTreeWidgetItem *OutlinerDock::itemOf(const SceneObject &object) const
{
    QTreeWidgetItem *group = object.kind == SceneObject::Kind::Cloth ? m_clothGroup : m_colliderGroup;
    if (!group || object.index < 0 || object.index >= group->childCount())
        return nullptr;
    return group->child(object.index);
}

std::vector<SceneObject> OutlinerDock::selectedObjects() const
{
    std::vector<SceneObject> out;
    for (QTreeWidgetItem *item : m_tree->selectedItems())
        if (isObject(item))
            out.push_back(objectOf(item));
    std::sort(out.begin(), out.end());
    return out;
}

void OutlinerDock::select(const std::vector<SceneObject> &objects)
{
    m_tree->clearSelection();
    bool first = true;
    for (const SceneObject &o : objects) {
        QTreeWidgetItem *item = itemOf(o);
        if (!item)
            continue;
        if (first) {
            m_tree->setCurrentItem(item); // emits objectChosen
            m_tree->scrollToItem(item);
            first = false;
        }
        item->setSelected(true);
    }
}

void OutlinerDock::updateActions()
{
    const std::vector<SceneObject> selected = selectedObjects();
    const bool any = m_document && !selected.empty();
    for (QAction *a : { m_duplicate, m_hide, m_delete })
        a->setEnabled(any);
    const QTreeWidgetItem *current = m_tree->currentItem();
    const bool one = m_document && isObject(current);
    m_rename->setEnabled(one);
    m_moveUp->setEnabled(one && current->parent()->indexOfChild(const_cast<QTreeWidgetItem *>(current)) > 0);
    m_moveDown->setEnabled(one
        && current->parent()->indexOfChild(const_cast<QTreeWidgetItem *>(current)) < current->parent()->childCount() - 1);
}

void OutlinerDock::onItemChanged(QTreeWidgetItem *item, int column)
{
    if (m_refreshing || !m_document || column != 0 || !isObject(item))
        return;
    const SceneObject o = objectOf(item);
    const Scene &scene = m_document->scene();
    const bool cloth = o.kind == SceneObject::Kind::Cloth;
    const std::size_t count = cloth ? scene.cloths.size() : scene.colliders.size();
    if (std::size_t(o.index) >= count)
        return;
    const std::string name = cloth ? scene.cloths[std::size_t(o.index)].name : scene.colliders[std::size_t(o.index)].name;
    const bool hidden = cloth ? scene.cloths[std::size_t(o.index)].hidden : scene.colliders[std::size_t(o.index)].hidden;
    const QString newName = item->text(0);
    const bool newHidden = item->checkState(0) == Qt::Unchecked;
    // The edit rebuilds the list: not while the view is still inside the item's setData.
    QTimer::singleShot(0, this, [this, o, name, hidden, newName, newHidden] {
        if (!m_document)
            return;
        if (newName != QString::fromStdString(name)) {
            const QString error = m_document->rename(o, newName);
            if (!error.isEmpty()) {
                report(error);
                refresh(); // back to the name the scene has
            }
        }
        if (newHidden != hidden)
            report(m_document->setHidden({ o }, newHidden));
    });
}

void OutlinerDock::deleteSelected()
{
    if (m_document)
        report(m_document->removeObjects(selectedObjects()));
}

void OutlinerDock::duplicateSelected()
{
    // The copies are appended: refresh() selects them.
    if (m_document)
        report(m_document->duplicate(selectedObjects()));
}

void OutlinerDock::toggleHidden()
{
    if (!m_document)
        return;
    const std::vector<SceneObject> objects = selectedObjects();
    const Scene &scene = m_document->scene();
    // Hide unless every selected object is hidden already.
    bool allHidden = true;
    for (const SceneObject &o : objects)
        allHidden = allHidden
            && (o.kind == SceneObject::Kind::Cloth ? scene.cloths[std::size_t(o.index)].hidden
                                                   : scene.colliders[std::size_t(o.index)].hidden);
    report(m_document->setHidden(objects, !allHidden));
}

void OutlinerDock::moveCurrent(int delta)
{
    QTreeWidgetItem *item = m_tree->currentItem();
    if (!m_document || !isObject(item))
        return;
    const SceneObject o = objectOf(item);
    const QString error = m_document->moveObject(o, o.index + delta);
    report(error);
    if (error.isEmpty())
        select({ { o.kind, o.index + delta } });
}

bool OutlinerDock::eventFilter(QObject *watched, QEvent *event)
{
    const QEvent::Type type = event->type();
    if (watched != m_tree->viewport()
        || (type != QEvent::DragEnter && type != QEvent::DragMove && type != QEvent::Drop))
        return QDockWidget::eventFilter(watched, event);
    auto *drop = static_cast<QDropEvent *>(event);
    const QTreeWidgetItem *dragged = m_tree->currentItem();
    const QTreeWidgetItem *target = m_tree->itemAt(drop->position().toPoint());
    // Only the list's own rows (the item model's drag format), not files dropped from elsewhere.
    const bool own = drop->mimeData() && drop->mimeData()->hasFormat(QStringLiteral("application/x-qabstractitemmodeldatalist"));
    // Entering, the list takes any of its rows (the drop then needs a row of the same kind).
    const bool fits = m_document && own && isObject(dragged)
        && (type == QEvent::DragEnter
            || (isObject(target) && objectOf(dragged).kind == objectOf(target).kind && dragged != target));
    if (!fits) {
        drop->ignore();
        return true; // nothing else may land in the list
    }
    drop->setDropAction(Qt::IgnoreAction); // the tree keeps its items; the document moves
    drop->accept();
    if (type == QEvent::Drop) {
        const SceneObject from = objectOf(dragged);
        const int to = objectOf(target).index;
        // The move rebuilds the list: not inside the view's drop handling.
        QTimer::singleShot(0, this, [this, from, to] {
            if (!m_document)
                return;
            const QString error = m_document->moveObject(from, to);
            report(error);
            if (error.isEmpty())
                select({ { from.kind, to } });
        });
    }
    return true;
}

void OutlinerDock::report(const QString &error)
{
    if (!error.isEmpty())
        emit statusMessage(error);
}

void OutlinerDock::showMenu(const QPoint &pos)
{
    QMenu menu(this);
    menu.addActions({ m_rename, m_duplicate, m_hide });
    menu.addSeparator();
    menu.addActions({ m_moveUp, m_moveDown });
    menu.addSeparator();
    menu.addAction(m_delete);
    if (m_addMenu) {
        menu.addSeparator();
        menu.addMenu(m_addMenu);
    }
    menu.exec(m_tree->viewport()->mapToGlobal(pos));
}

} // namespace drape
