#include "actions/fileactions.h"

#include "actions/exportactions.h"
#include "actions/importmeshdialog.h"
#include "actions/newscenedialog.h"
#include "actions/openscene.h"

#include "appsettings.h"
#include "document/document.h"
#include "mainwindow.h"
#include "document/presetcatalog.h"
#include "document/simulationcontroller.h"
#include "mesh/meshscene.h"
#include "widgets/messagebanner.h"

#include <QAction>
#include <QDir>
#include <QStatusBar>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QMessageBox>

namespace drape {

namespace {

const QString kFilter = QStringLiteral("Drape scenes (*.json);;All files (*)");

} // namespace

FileActions::FileActions(MainWindow *window) : QObject(window), m_window(window), m_export(new ExportActions(window))
{
    m_new = new QAction(tr("&New…"), this);
    m_new->setObjectName(QStringLiteral("NewScene"));
    m_new->setShortcut(QKeySequence::New);
    m_new->setStatusTip(tr("Start a new scene: empty (a ground plane) or from a preset"));
    connect(m_new, &QAction::triggered, this, &FileActions::newScene);

    m_open = new QAction(tr("&Open…"), this);
    m_open->setShortcut(QKeySequence::Open);
    m_open->setStatusTip(tr("Open a scene file"));
    connect(m_open, &QAction::triggered, this, &FileActions::open);

    m_save = new QAction(tr("&Save"), this);
    m_save->setShortcut(QKeySequence::Save);
    connect(m_save, &QAction::triggered, this, &FileActions::save);

    m_saveAs = new QAction(tr("Save &As…"), this);
    // QKeySequence::SaveAs is empty on some desktops (e.g. KDE on X11): give it an explicit fallback.
    const QList<QKeySequence> saveAsKeys = QKeySequence::keyBindings(QKeySequence::SaveAs);
    m_saveAs->setShortcuts(saveAsKeys.isEmpty() ? QList<QKeySequence>{QKeySequence(QStringLiteral("Ctrl+Shift+S"))} : saveAsKeys);
    connect(m_saveAs, &QAction::triggered, this, &FileActions::saveAs);

    m_saveWithState = new QAction(tr("Save with Simulation &State…"), this);
    m_saveWithState->setStatusTip(
        tr("Save the scene with the cloth's current positions and velocities, so it reopens where it is now"));
    connect(m_saveWithState, &QAction::triggered, this, &FileActions::saveWithState);

    m_importMesh = new QAction(tr("&Import Mesh…"), this);
    m_importMesh->setObjectName(QStringLiteral("ImportMesh"));
    m_importMesh->setStatusTip(tr("Add a mesh file (OBJ, PLY, STL, glTF, FBX, COLLADA) to the scene as a cloth or a "
                                  "collider"));
    connect(m_importMesh, &QAction::triggered, this, &FileActions::importMesh);

    m_revert = new QAction(tr("&Revert"), this);
    m_revert->setStatusTip(tr("Discard unsaved changes and reload the file"));
    connect(m_revert, &QAction::triggered, this, &FileActions::revert);

    m_quit = new QAction(tr("&Quit"), this);
    const QList<QKeySequence> quitKeys = QKeySequence::keyBindings(QKeySequence::Quit);
    m_quit->setShortcuts(quitKeys.isEmpty() ? QList<QKeySequence>{QKeySequence(QStringLiteral("Ctrl+Q"))} : quitKeys);
    m_quit->setMenuRole(QAction::QuitRole);
    connect(m_quit, &QAction::triggered, m_window, &QWidget::close);

    connect(m_window, &MainWindow::documentChanged, this, [this](Document *document) {
        if (document)
            connect(document, &Document::modifiedChanged, this, &FileActions::updateActions);
        updateActions();
    });
}

void FileActions::importMesh()
{
    Document *doc = m_window->document();
    if (!doc)
        return;
    const QString path = QFileDialog::getOpenFileName(
        m_window, tr("Import Mesh"), QString(),
        tr("Meshes (*.obj *.ply *.stl *.gltf *.glb *.fbx *.dae);;All files (*)"));
    if (path.isEmpty())
        return;
    ImportMeshDialog dialog(path, m_window);
    if (dialog.exec() != QDialog::Accepted)
        return;
    if (const QString error = dialog.addTo(*doc); !error.isEmpty())
        QMessageBox::warning(m_window, tr("Import Mesh"), error);
}

void FileActions::populate(QMenu *menu)
{
    menu->addAction(m_new);
    m_presetMenu = menu->addMenu(tr("New from &Preset"));
    for (const PresetInfo &preset : builtinPresets()) {
        QAction *action = m_presetMenu->addAction(preset.name);
        action->setStatusTip(preset.description);
        action->setToolTip(preset.description);
        const QString key = preset.key;
        connect(action, &QAction::triggered, this, [this, key] { newFromPreset(key); });
    }
    menu->addAction(m_open);
    m_recentMenu = menu->addMenu(tr("Open &Recent"));
    connect(m_recentMenu, &QMenu::aboutToShow, this, &FileActions::updateRecentMenu);
    updateRecentMenu();
    menu->addAction(m_importMesh);
    menu->addSeparator();
    menu->addAction(m_save);
    menu->addAction(m_saveAs);
    menu->addAction(m_saveWithState);
    menu->addAction(m_revert);
    menu->addSeparator();
    menu->addAction(m_quit);
    m_export->populate(menu, m_quit);
    updateActions();
}

void FileActions::updateActions()
{
    Document *doc = m_window->document();
    m_save->setEnabled(doc != nullptr);
    m_saveAs->setEnabled(doc != nullptr);
    m_saveWithState->setEnabled(doc != nullptr);
    m_revert->setEnabled(doc && !doc->filePath().isEmpty() && doc->isModified());
}

void FileActions::updateRecentMenu()
{
    m_recentMenu->clear();
    const QStringList files = AppSettings::recentFiles();
    int n = 1;
    for (const QString &path : files) {
        const QString label = n <= 9 ? QStringLiteral("&%1 %2").arg(n).arg(QFileInfo(path).fileName())
                                     : QFileInfo(path).fileName();
        QAction *action = m_recentMenu->addAction(label);
        action->setStatusTip(path);
        action->setToolTip(path);
        connect(action, &QAction::triggered, this, [this, path] { openFile(path); });
        ++n;
    }
    if (files.isEmpty()) {
        m_recentMenu->addAction(tr("No recent files"))->setEnabled(false);
        return;
    }
    m_recentMenu->addSeparator();
    connect(m_recentMenu->addAction(tr("Clear List")), &QAction::triggered, this, [this] {
        AppSettings::clearRecentFiles();
        emit recentFilesChanged();
    });
}

bool FileActions::maybeSave()
{
    Document *doc = m_window->document();
    if (!doc || !doc->isModified())
        return true;
    const auto answer = QMessageBox::warning(
        m_window, tr("Unsaved Changes"),
        tr("\"%1\" has unsaved changes.\nDo you want to save them?").arg(doc->displayName()),
        QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
    if (answer == QMessageBox::Save)
        return save();
    return answer == QMessageBox::Discard;
}

void FileActions::newScene()
{
    NewSceneDialog dialog(m_window);
    if (dialog.exec() == QDialog::Accepted)
        startNew(dialog.choice());
}

bool FileActions::startNew(const QString &choice)
{
    if (!choice.isEmpty())
        return newFromPreset(choice);
    if (!maybeSave())
        return false;
    Scene scene = emptySceneWithGround();
    scene.name = tr("Untitled").toStdString();
    m_window->setDocument(std::make_unique<Document>(std::move(scene)));
    return true;
}

bool FileActions::newFromPreset(const QString &key)
{
    QString error;
    QStringList warnings;
    Take take;
    std::optional<Scene> scene = loadPreset(key, &error, &warnings, &take);
    if (!scene) {
        QMessageBox::critical(m_window, tr("New from Preset"), error);
        return false;
    }
    if (!maybeSave())
        return false;
    m_window->setDocument(std::make_unique<Document>(std::move(*scene), QString(), nullptr, std::move(take)));
    if (!warnings.isEmpty())
        m_window->banner()->showMessage(warnings.join(QLatin1Char('\n')), MessageBanner::Kind::Warning);
    return true;
}

void FileActions::open()
{
    // The unsaved-changes prompt comes in openFile(), once the chosen file has loaded.
    const QString path = QFileDialog::getOpenFileName(m_window, tr("Open Scene"), AppSettings::lastDirectory(), kFilter);
    if (!path.isEmpty())
        openFile(path);
}

bool FileActions::openFile(const QString &path)
{
    QString error;
    QStringList warnings;
    std::unique_ptr<Document> doc = openSceneAsking(m_window, path, &error, &warnings);
    if (!doc) {
        QMessageBox::critical(m_window, tr("Open Scene"), tr("The scene could not be opened.\n\n%1").arg(error));
        if (!QFileInfo::exists(path)) {
            AppSettings::removeRecentFile(path);
            emit recentFilesChanged();
        }
        return false;
    }
    // The prompt comes after the load succeeded, so a bad file never costs the open scene.
    if (!maybeSave())
        return false;
    m_window->setDocument(std::move(doc));
    AppSettings::addRecentFile(path);
    AppSettings::setLastDirectory(QFileInfo(path).absolutePath());
    emit recentFilesChanged();
    if (!warnings.isEmpty()) {
        QMessageBox box(QMessageBox::Information, tr("Open Scene"), tr("The scene was opened with warnings."),
                        QMessageBox::Ok, m_window);
        box.setDetailedText(warnings.join(QLatin1Char('\n')));
        box.exec();
    }
    return true;
}

bool FileActions::saveTo(const QString &path, bool withState)
{
    Document *doc = m_window->document();
    if (withState)
        m_window->controller()->setPlaying(false); // the state saved is the frame on screen
    QString error;
    if (!doc->save(path, withState, &error)) {
        QMessageBox::critical(m_window, tr("Save Scene"),
                              tr("The scene was not saved; the file on disk is unchanged.\n\n%1").arg(error));
        return false;
    }
    AppSettings::addRecentFile(path);
    AppSettings::setLastDirectory(QFileInfo(path).absolutePath());
    emit recentFilesChanged();
    m_window->statusBar()->showMessage(tr("Saved %1").arg(QDir::toNativeSeparators(path)), 4000);
    updateActions();
    return true;
}

bool FileActions::save()
{
    Document *doc = m_window->document();
    if (!doc)
        return false;
    if (doc->filePath().isEmpty())
        return saveAs();
    return saveTo(doc->filePath());
}

bool FileActions::saveAs()
{
    if (!m_window->document())
        return false;
    const QString path = askSavePath(tr("Save Scene As"));
    return !path.isEmpty() && saveTo(path);
}

bool FileActions::saveWithState()
{
    if (!m_window->document())
        return false;
    const QString path = askSavePath(tr("Save Scene with Simulation State"));
    return !path.isEmpty() && saveTo(path, /*withState=*/true);
}

QString FileActions::askSavePath(const QString &title)
{
    Document *doc = m_window->document();
    QString suggestion = doc->filePath();
    if (suggestion.isEmpty()) {
        QString base = QString::fromStdString(doc->scene().name).toLower().replace(QLatin1Char(' '), QLatin1Char('-'));
        suggestion = AppSettings::lastDirectory() + QLatin1Char('/') + (base.isEmpty() ? QStringLiteral("scene") : base)
            + QStringLiteral(".json");
    }
    QString path = QFileDialog::getSaveFileName(m_window, title, suggestion, kFilter);
    if (!path.isEmpty() && QFileInfo(path).suffix().isEmpty())
        path += QStringLiteral(".json");
    return path;
}

void FileActions::revert()
{
    Document *doc = m_window->document();
    if (!doc || doc->filePath().isEmpty())
        return;
    const auto answer = QMessageBox::question(m_window, tr("Revert"),
                                              tr("Discard all changes to \"%1\" and reload it from disk?").arg(doc->displayName()),
                                              QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Cancel);
    if (answer != QMessageBox::Discard)
        return;
    QString error;
    std::unique_ptr<Document> reloaded = Document::load(doc->filePath(), &error, nullptr, doc->budget());
    if (!reloaded) {
        QMessageBox::critical(m_window, tr("Revert"), tr("The file could not be reloaded; your changes are kept.\n\n%1").arg(error));
        return;
    }
    m_window->setDocument(std::move(reloaded));
}

} // namespace drape
