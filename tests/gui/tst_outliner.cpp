// Building a scene in the editor: every kind of object added from the Add menu, the Outliner's
// rename, hide, duplicate, reorder and delete with undo and redo, selection from the viewport,
// hidden objects drawn like absent ones, File ▸ New on an empty scene, and the user's presets
// saved, listed, opened, renamed and deleted. A scene composed only in the editor saves, reloads and simulates headless to the
// same state hash as in the editor.
#include "actions/addactions.h"
#include "actions/fileactions.h"
#include "actions/importmeshdialog.h"
#include "actions/newscenedialog.h"
#include "actions/presetactions.h"
#include "docks/outlinerdock.h"
#include "docks/parametersdock.h"
#include "docks/scenedock.h"
#include "document/document.h"
#include "document/presetcatalog.h"
#include "document/simulationcontroller.h"
#include "mainwindow.h"
#include "record/framerenderer.h"
#include "render/resources.h"
#include "render/viewport.h"
#include "scene/scenefile.h"
#include "scene/userpresets.h"
#include "tools/viewportmenu.h"
#include "widgets/messagebanner.h"

#include "../cli/drapeprocess.h"

#include <algorithm>

#include <QAction>
#include <QComboBox>
#include <QLabel>
#include <QListWidget>
#include <QMenu>
#include <QMimeData>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QSurfaceFormat>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>
#include <QUndoStack>

using namespace drape;

namespace {

using Kind = SceneObject::Kind;

QAction *actionNamed(QMenu *menu, const QString &prefix)
{
    for (QAction *a : menu->actions())
        if (a->text().remove(QLatin1Char('&')).startsWith(prefix))
            return a;
    return nullptr;
}

QStringList names(const QTreeWidget *tree, int group)
{
    QStringList out;
    for (int i = 0; i < tree->topLevelItem(group)->childCount(); ++i)
        out << tree->topLevelItem(group)->child(i)->text(0);
    return out;
}

// A window on the empty scene (File ▸ New ▸ Empty scene).
void startEmpty(MainWindow &window)
{
    QVERIFY(window.fileActions()->startNew(QString()));
    QVERIFY(window.document());
    QCOMPARE(window.document()->scene().cloths.size(), std::size_t(0));
    QCOMPARE(window.document()->scene().colliders.size(), std::size_t(1)); // the ground
}

} // namespace

class TestOutliner : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void everyKindFromTheAddMenu();
    void renameHideDuplicateReorderDelete();
    void viewportMenuSelectsCollidersAndAdds();
    void composedSceneSimulatesIdenticallyHeadless();
    void userPresetsSaveListOpenRenameDelete();
    void importDialogShowsRepairsWithCounts();
    void hiddenObjectsDrawLikeRemovedOnes();

private:
    QTemporaryDir m_data; ///< XDG_DATA_HOME: user presets never reach the real home
};

void TestOutliner::initTestCase()
{
    QVERIFY(m_data.isValid());
    qputenv("XDG_DATA_HOME", QFile::encodeName(m_data.path()));
    QStandardPaths::setTestModeEnabled(true);
    initResources();
}

void TestOutliner::everyKindFromTheAddMenu()
{
    MainWindow window;
    startEmpty(window);
    Document *doc = window.document();
    QTreeWidget *tree = window.outlinerDock()->tree();
    QMenu *menu = window.addMenu();
    struct Case {
        const char *entry;
        Kind kind;
        const char *kindText;
    };
    const Case cases[] = { { "Hanging Sheet", Kind::Cloth, "hanging sheet" }, { "Lying Sheet", Kind::Cloth, "lying sheet" },
        { "Rope", Kind::Cloth, "rope" }, { "Disc Panel", Kind::Cloth, "mesh cloth" },
        { "Hexagon Panel", Kind::Cloth, "mesh cloth" }, { "Plane", Kind::Collider, "plane" },
        { "Sphere", Kind::Collider, "sphere" }, { "Box", Kind::Collider, "box" }, { "Capsule", Kind::Collider, "capsule" } };
    window.objectActions()->setPanelEdgeLength(0.1);
    int steps = doc->undoStack()->count();
    for (const Case &c : cases) {
        const QString entry = QString::fromLatin1(c.entry);
        if (entry.endsWith(QLatin1String("Panel"))) {
            // The menu entry asks for the edge length first; the addition is the same call.
            QVERIFY(actionNamed(menu, entry));
            QVERIFY(window.objectActions()->add(entry.startsWith('D') ? AddActions::Object::Disc
                                                                      : AddActions::Object::Polygon));
        } else {
            QAction *a = actionNamed(menu, entry);
            QVERIFY2(a, c.entry);
            a->trigger();
        }
        QCOMPARE(doc->undoStack()->count(), ++steps);
        const std::size_t count = c.kind == Kind::Cloth ? doc->scene().cloths.size() : doc->scene().colliders.size();
        const SceneObject added { c.kind, int(count) - 1 };
        // Listed with its kind and a size, and selected; the Parameters dock edits it.
        QTreeWidgetItem *item = window.outlinerDock()->itemOf(added);
        QVERIFY2(item, c.entry);
        QCOMPARE(item->text(1), QString::fromLatin1(c.kindText));
        QVERIFY2(!item->text(2).isEmpty(), c.entry);
        QCOMPARE(window.outlinerDock()->selectedObjects(), std::vector<SceneObject> { added });
        if (c.kind == Kind::Cloth)
            QCOMPARE(window.parametersDock()->currentCloth(), added.index);
        else
            QCOMPARE(window.parametersDock()->currentCollider(), added.index);
    }
    QCOMPARE(tree->topLevelItem(0)->childCount(), 5);
    QCOMPARE(tree->topLevelItem(1)->childCount(), 5);
    // A disc panel is a triangulated cloth lying at the focus, particles in a circle of 0.5 m.
    const ClothDesc &disc = doc->scene().cloths[3];
    QCOMPARE(disc.source, ClothSource::Explicit);
    const Vec3 focus = window.viewport()->camera().desc().target;
    for (const Vec3 &p : disc.explicitData.rest)
        QVERIFY(length(p - focus) <= 0.5f + 1e-4f);
    // The pins summary of the hanging sheet: its top row of 24.
    window.outlinerDock()->select({ { Kind::Cloth, 0 } });
    QCOMPARE(window.parametersDock()->pinsSummary()->text(), QStringLiteral("24 pinned of 576 particles"));
    // Undo takes them all away again, redo brings them back.
    for (std::size_t i = 0; i < std::size(cases); ++i)
        doc->undoStack()->undo();
    doc->waitUntilSettled(); // an undo that re-simulates arrives from the worker
    QCOMPARE(doc->scene().cloths.size(), std::size_t(0));
    QCOMPARE(tree->topLevelItem(0)->childCount(), 0);
    for (std::size_t i = 0; i < std::size(cases); ++i)
        doc->undoStack()->redo();
    doc->waitUntilSettled();
    QCOMPARE(tree->topLevelItem(0)->childCount(), 5);
    QCOMPARE(tree->topLevelItem(1)->childCount(), 5);
}

void TestOutliner::renameHideDuplicateReorderDelete()
{
    MainWindow window;
    startEmpty(window);
    Document *doc = window.document();
    OutlinerDock *outliner = window.outlinerDock();
    QTreeWidget *tree = outliner->tree();
    window.resize(1280, 720);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    outliner->raise(); // its tab in front: the rows have places to drop on
    QVERIFY(window.objectActions()->add(AddActions::Object::VerticalGrid));
    QVERIFY(window.objectActions()->add(AddActions::Object::Rope));
    QVERIFY(window.objectActions()->add(AddActions::Object::Sphere));
    const int start = doc->undoStack()->count();
    const SceneObject sheet { Kind::Cloth, 0 }, rope { Kind::Cloth, 1 }, sphere { Kind::Collider, 1 };

    // Rename in place: the edited text becomes the cloth's name, one step, no replay.
    window.controller()->stepFrames(5);
    outliner->itemOf(sheet)->setText(0, QStringLiteral("Curtain"));
    QTRY_COMPARE(doc->scene().cloths[0].name, std::string("Curtain"));
    QCOMPARE(doc->frame(), std::uint64_t(5));
    QCOMPARE(doc->undoStack()->count(), start + 1);
    // An empty name is refused and the row shows the name again.
    outliner->itemOf(sheet)->setText(0, QString());
    QTRY_COMPARE(outliner->itemOf(sheet)->text(0), QStringLiteral("Curtain"));
    QCOMPARE(doc->undoStack()->count(), start + 1);

    // Hide with the check box, and two objects at once with the action.
    outliner->itemOf(sphere)->setCheckState(0, Qt::Unchecked);
    QTRY_VERIFY(doc->scene().colliders[1].hidden);
    outliner->select({ sheet, rope });
    outliner->hideAction()->trigger();
    QVERIFY(doc->scene().cloths[0].hidden && doc->scene().cloths[1].hidden);
    QCOMPARE(doc->undoStack()->count(), start + 3);
    outliner->hideAction()->trigger(); // all hidden: shows them
    QVERIFY(!doc->scene().cloths[0].hidden && !doc->scene().cloths[1].hidden);
    QCOMPARE(doc->frame(), std::uint64_t(5)); // still nothing replayed

    // Duplicate two objects: the copies appended and selected; a structural edit.
    outliner->select({ rope, sphere });
    outliner->duplicateAction()->trigger();
    QCOMPARE(doc->frame(), std::uint64_t(0));
    QCOMPARE(names(tree, 0), (QStringList { "Curtain", "Rope 1", "Rope 1 copy" }));
    QCOMPARE(names(tree, 1).last(), QStringLiteral("Sphere 1 copy"));
    QCOMPARE(outliner->selectedObjects(), (std::vector<SceneObject> { { Kind::Cloth, 2 }, { Kind::Collider, 2 } }));

    // Reorder: the copy up to the top.
    outliner->select({ { Kind::Cloth, 2 } });
    QVERIFY(!outliner->moveDownAction()->isEnabled());
    outliner->moveUpAction()->trigger();
    outliner->moveUpAction()->trigger();
    QCOMPARE(names(tree, 0), (QStringList { "Rope 1 copy", "Curtain", "Rope 1" }));
    QCOMPARE(outliner->selectedObjects(), (std::vector<SceneObject> { { Kind::Cloth, 0 } }));
    QVERIFY(!outliner->moveUpAction()->isEnabled());
    // Dragging a row onto another of its list moves it there (a file dropped in is refused).
    const int beforeDrag = doc->undoStack()->count();
    auto dropOn = [&](const SceneObject &target, const QString &format) {
        QMimeData data;
        data.setData(format, QByteArray());
        const QPoint at = tree->visualItemRect(outliner->itemOf(target)).center();
        // As a drag does: enter (which makes the list the drag's target), then drop.
        QDragEnterEvent enter(at, Qt::MoveAction, &data, Qt::LeftButton, Qt::NoModifier);
        QCoreApplication::sendEvent(tree->viewport(), &enter);
        QDropEvent drop(at, Qt::MoveAction, &data, Qt::LeftButton, Qt::NoModifier);
        QCoreApplication::sendEvent(tree->viewport(), &drop);
    };
    dropOn({ Kind::Cloth, 2 }, QStringLiteral("text/uri-list"));
    QTest::qWait(50); // a refused drop schedules nothing either
    QCOMPARE(doc->undoStack()->count(), beforeDrag);
    dropOn({ Kind::Cloth, 2 }, QStringLiteral("application/x-qabstractitemmodeldatalist"));
    QTRY_COMPARE(names(tree, 0), (QStringList { "Curtain", "Rope 1", "Rope 1 copy" })); // moved after the drop
    QCOMPARE(doc->undoStack()->count(), beforeDrag + 1);
    doc->undoStack()->undo();
    doc->waitUntilSettled();
    QCOMPARE(names(tree, 0), (QStringList { "Rope 1 copy", "Curtain", "Rope 1" }));

    // Delete a cloth and a collider together: one step.
    const int beforeDelete = doc->undoStack()->index();
    outliner->select({ { Kind::Cloth, 1 }, { Kind::Collider, 2 } });
    outliner->deleteAction()->trigger();
    QCOMPARE(doc->undoStack()->index(), beforeDelete + 1);
    QCOMPARE(names(tree, 0), (QStringList { "Rope 1 copy", "Rope 1" }));
    QCOMPARE(tree->topLevelItem(1)->childCount(), 2);

    // Undo everything back to the three added objects, then redo it all.
    const Scene end = doc->scene();
    while (doc->undoStack()->index() > start)
        doc->undoStack()->undo();
    doc->waitUntilSettled(); // an undo that re-simulates arrives from the worker
    QCOMPARE(names(tree, 0), (QStringList { "Sheet 1", "Rope 1" }));
    QCOMPARE(tree->topLevelItem(1)->childCount(), 2);
    QVERIFY(!doc->scene().colliders[1].hidden);
    QCOMPARE(outliner->itemOf(sphere)->checkState(0), Qt::Checked);
    while (doc->undoStack()->canRedo())
        doc->undoStack()->redo();
    doc->waitUntilSettled();
    QVERIFY(doc->scene() == end);
}

void TestOutliner::viewportMenuSelectsCollidersAndAdds()
{
    MainWindow window;
    startEmpty(window);
    window.resize(1280, 720);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    Document *doc = window.document();
    QVERIFY(window.objectActions()->add(AddActions::Object::Sphere));
    const Vec3 centre = doc->scene().colliders[1].baseCenter;
    auto *menus = window.findChild<ViewportMenu *>();
    QVERIFY(menus);
    QPointF at;
    QVERIFY(window.viewport()->project(centre, &at));
    QCOMPARE(menus->colliderAt(at), 1);
    std::unique_ptr<QMenu> menu(menus->menuAt(at));
    QAction *select = actionNamed(menu.get(), QStringLiteral("Select Collider"));
    QVERIFY(select);
    window.outlinerDock()->select({ { Kind::Collider, 0 } });
    select->trigger();
    QCOMPARE(window.outlinerDock()->selectedObjects(), (std::vector<SceneObject> { { Kind::Collider, 1 } }));
    QCOMPARE(window.parametersDock()->currentCollider(), 1);
    // A plain left click on it (no tool takes a click off the cloth) selects it too.
    window.outlinerDock()->select({ { Kind::Collider, 0 } });
    QTest::mouseClick(window.viewport(), Qt::LeftButton, Qt::NoModifier, at.toPoint());
    QCOMPARE(window.outlinerDock()->selectedObjects(), (std::vector<SceneObject> { { Kind::Collider, 1 } }));
    // The Add menu is there too.
    QVERIFY(actionNamed(menu.get(), QStringLiteral("Add")));
    // A hidden sphere is not picked: the ground behind it is.
    QVERIFY(doc->setHidden({ { Kind::Collider, 1 } }, true).isEmpty());
    QCOMPARE(menus->colliderAt(at), 0);
}

void TestOutliner::composedSceneSimulatesIdenticallyHeadless()
{
    // From the empty scene: a hanging sheet (its top row pinned) and a sphere in front of it,
    // saved, reloaded, and simulated here and by `drape simulate`.
    MainWindow window;
    startEmpty(window);
    Document *doc = window.document();
    QVERIFY(window.objectActions()->add(AddActions::Object::VerticalGrid));
    QVERIFY(window.objectActions()->add(AddActions::Object::Sphere));
    QVERIFY(doc->setParameter("collider.radius", 1, 0.2).isEmpty());
    QVERIFY(doc->rename({ Kind::Collider, 1 }, QStringLiteral("Ball")).isEmpty());
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("composed.json"));
    QString error;
    QVERIFY2(doc->save(path, false, &error), qPrintable(error));
    std::unique_ptr<Document> back = Document::load(path, &error);
    QVERIFY2(back, qPrintable(error));
    QVERIFY(withoutPresentation(back->scene()) == withoutPresentation(doc->scene()));
    QCOMPARE(back->scene().colliders[1].name, std::string("Ball"));
    constexpr int kFrames = 40;
    doc->step(kFrames);
    back->step(kFrames);
    QCOMPARE(back->simulation().stateHash(), doc->simulation().stateHash());
    // Something happened: the ball (in the sheet's plane) pushed the sheet out of its rest shape.
    const Particles &p = doc->simulation().cloths[0].particles;
    float moved = 0.f;
    for (std::size_t i = 0; i < p.size(); ++i)
        moved = std::max(moved, length(p.position[i] - p.rest[i]));
    QVERIFY2(moved > 0.01f, qPrintable(QString::number(moved)));
    const DrapeRun r = runDrape({ QStringLiteral("simulate"), path, QStringLiteral("--frames"),
                                    QString::number(kFrames) }, dir.path());
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    const QString expected = QStringLiteral("state hash %1 at frame %2")
                                 .arg(qulonglong(doc->simulation().stateHash()), 16, 16, QLatin1Char('0'))
                                 .arg(kFrames);
    QVERIFY2(r.out.contains(expected), qPrintable(r.out + "\nexpected: " + expected));
}

void TestOutliner::userPresetsSaveListOpenRenameDelete()
{
    QVERIFY(QString::fromStdString(userDataDirectory()).startsWith(m_data.path())); // never the real home
    MainWindow window;
    startEmpty(window);
    Document *doc = window.document();
    QVERIFY(window.objectActions()->add(AddActions::Object::HorizontalGrid));
    QVERIFY(doc->rename({ Kind::Cloth, 0 }, QStringLiteral("Napkin")).isEmpty());
    PresetActions *presets = window.presetActions();
    QListWidget *list = window.sceneDock()->userPresetList();

    // A built-in name is refused; a new one is saved and listed.
    QVERIFY(!presets->saveScene(QStringLiteral("curtain"), false).isEmpty());
    const Scene saved = doc->scene();
    QCOMPARE(presets->saveScene(QStringLiteral("my napkin"), false), QString());
    QCOMPARE(list->count(), 1);
    QCOMPARE(list->item(0)->text(), QStringLiteral("my napkin"));
    QVERIFY(!presets->saveScene(QStringLiteral("my napkin"), false).isEmpty()); // no silent replace
    // File ▸ New offers the empty scene first, then the built-in presets, then this one.
    {
        NewSceneDialog dialog;
        QCOMPARE(dialog.choice(), QString()); // the empty scene
        const QList<QListWidgetItem *> mine = dialog.list()->findItems(QStringLiteral("my napkin"), Qt::MatchExactly);
        QCOMPARE(mine.size(), 1);
        QVERIFY(dialog.list()->row(mine[0]) > dialog.list()->row(
                    dialog.list()->findItems(QStringLiteral("Curtain"), Qt::MatchExactly).value(0)));
        dialog.list()->setCurrentItem(mine[0]);
        QCOMPARE(dialog.choice(), QStringLiteral("my napkin"));
    }

    // The fabric of the cloth, in the Parameters dock's fabric chooser.
    Material heavy = doc->scene().cloths[0].material;
    heavy.arealDensity = 0.4f;
    QVERIFY(doc->setMaterial(0, heavy).isEmpty());
    QCOMPARE(presets->saveFabric(QStringLiteral("heavy"), 0, false), QString());
    QComboBox *fabrics = window.parametersDock()->fabricSelector();
    QVERIFY(fabrics->findText(QStringLiteral("heavy (mine)")) >= 0);

    // Open it from the list: a new document with the saved scene.
    doc->undoStack()->setClean(); // nothing to ask about
    emit list->itemActivated(list->item(0));
    QCOMPARE(window.document()->scene().cloths.size(), std::size_t(1));
    QCOMPARE(window.document()->scene().cloths[0].name, std::string("Napkin"));
    QVERIFY(withoutPresentation(window.document()->scene()) == withoutPresentation(saved));

    // Rename and delete through the dock's list.
    QCOMPARE(presets->renameScene(QStringLiteral("my napkin"), QStringLiteral("napkin 2")), QString());
    QCOMPARE(list->item(0)->text(), QStringLiteral("napkin 2"));
    QCOMPARE(presets->deleteScene(QStringLiteral("napkin 2")), QString());
    QCOMPARE(list->item(0)->flags(), Qt::NoItemFlags); // "None yet"

    // A user file under a built-in name (put there by hand) is never used silently.
    const QString dirPath = QString::fromStdString(userPresetDirectory());
    QFile shadow(dirPath + QStringLiteral("/curtain.json"));
    QVERIFY(shadow.open(QIODevice::WriteOnly));
    shadow.write(serializeScene(saved).c_str());
    shadow.close();
    window.sceneDock()->refreshUserPresets();
    QVERIFY(list->item(0)->text().contains(QStringLiteral("built-in")));
    window.document()->undoStack()->setClean();
    window.show(); // the banner over the viewport shows only in a window on screen
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(window.fileActions()->newFromPreset(QStringLiteral("curtain")));
    QCOMPARE(window.document()->scene().name, std::string("Curtain"));
    QVERIFY2(window.banner()->text().contains(QStringLiteral("curtain")), qPrintable(window.banner()->text()));
    QVERIFY(shadow.remove());
}

void TestOutliner::importDialogShowsRepairsWithCounts()
{
    // The mesh from the Add menu's "From Mesh File…" goes through the import dialog, which says
    // what cleaning the file repaired before it is accepted.
    ImportMeshDialog dialog(QStringLiteral(DRAPE_TEST_DATA "/meshes/degenerate.obj"));
    QVERIFY2(dialog.readOk(), qPrintable(dialog.summary()));
    QVERIFY2(dialog.summary().contains(QRegularExpression(QStringLiteral("Warning: [1-9][0-9]* degenerate triangles"))),
             qPrintable(dialog.summary()));
    MainWindow window;
    QVERIFY(actionNamed(window.addMenu(), QStringLiteral("From Mesh File")));
}

void TestOutliner::hiddenObjectsDrawLikeRemovedOnes()
{
    // A hidden object is not drawn, nor does it cast a shadow or darken the light: the frame
    // is the one of the scene without it (and not the one with it).
    Viewport viewport;
    viewport.resize(320, 240);
    viewport.show();
    QVERIFY(QTest::qWaitForWindowExposed(&viewport));
    QTRY_VERIFY(viewport.renderer()->isInitialized());
    FrameRenderer frames;
    const Scene base = *loadPreset(QStringLiteral("tablecloth"), nullptr); // a cloth over a sphere
    auto render = [&](const Scene &scene) {
        viewport.makeCurrent();
        QImage image;
        QString error;
        const bool ok = frames.render(*viewport.renderer(), scene, buildSimulation(scene), Camera(base.camera),
                                      QSize(320, 240), RenderOptions {}, &image, &error);
        viewport.doneCurrent();
        if (!ok)
            qFatal("%s", qPrintable(error));
        return image;
    };
    const QImage shown = render(base);
    Scene hiddenSphere = base, noSphere = base;
    QCOMPARE(base.colliders[0].kind, ColliderKind::Sphere);
    hiddenSphere.colliders[0].hidden = true;
    noSphere.colliders.erase(noSphere.colliders.begin());
    const QImage withoutSphere = render(hiddenSphere);
    QVERIFY(withoutSphere == render(noSphere));
    QVERIFY(withoutSphere != shown);
    Scene hiddenCloth = base, noCloth = base;
    hiddenCloth.cloths[0].hidden = true;
    noCloth.cloths.clear();
    const QImage withoutCloth = render(hiddenCloth);
    QVERIFY(withoutCloth == render(noCloth));
    QVERIFY(withoutCloth != shown);
    viewport.makeCurrent(); // the offscreen target's GL objects go with their context
    frames.release();
    viewport.doneCurrent();
}

int main(int argc, char **argv)
{
    QSurfaceFormat::setDefaultFormat(Viewport::surfaceFormat());
    QApplication app(argc, argv);
    TestOutliner test;
    return QTest::qExec(&test, argc, argv);
}
#include "tst_outliner.moc"
