#include "actions/exportactions.h"

#include "appsettings.h"
#include "document/bake.h"
#include "document/document.h"
#include "document/frameexport.h"
#include "mainwindow.h"
#include "timeline/diskcache.h"

#include <QAction>
#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QMessageBox>
#include <QProgressDialog>
#include <QStatusBar>

#include <algorithm>

namespace drape {

ExportActions::ExportActions(MainWindow *window) : QObject(window), m_window(window)
{
    m_bake = new QAction(tr("&Bake to Folder"), this);
    m_bake->setObjectName(QStringLiteral("BakeToFolder"));
    m_bake->setStatusTip(tr("Write the simulated frames beside the scene file, so that it scrubs at once when it is "
                            "opened again"));
    connect(m_bake, &QAction::triggered, this, &ExportActions::bake);

    m_pointCache = new QAction(tr("Export &Point Cache…"), this);
    m_pointCache->setObjectName(QStringLiteral("ExportPointCache"));
    m_pointCache->setStatusTip(tr("Write the record range as a PC2 point cache for Blender, Maya or 3ds Max"));
    connect(m_pointCache, &QAction::triggered, this, &ExportActions::exportPointCache);

    connect(m_window, &MainWindow::documentChanged, this, &ExportActions::updateActions);
    updateActions();
}

void ExportActions::populate(QMenu *menu, QAction *before)
{
    menu->insertAction(before, m_bake);
    menu->insertAction(before, m_pointCache);
    menu->insertSeparator(before);
}

void ExportActions::updateActions()
{
    const bool haveDoc = m_window->document() != nullptr;
    m_bake->setEnabled(haveDoc);
    m_pointCache->setEnabled(haveDoc);
}

QProgressDialog *ExportActions::progressDialog(const QString &text, std::uint64_t total)
{
    auto *dialog = new QProgressDialog(text, tr("Cancel"), 0, int(std::min<std::uint64_t>(total, 1u << 30)), m_window);
    dialog->setWindowModality(Qt::WindowModal);
    dialog->setMinimumDuration(300);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    return dialog;
}

bool ExportActions::bake()
{
    Document *doc = m_window->document();
    if (!doc)
        return false;
    const std::uint64_t last = bakeEnd(*doc);
    QProgressDialog *progress = progressDialog(tr("Baking frames to %1…")
                                                   .arg(QDir::toNativeSeparators(QString::fromStdString(
                                                       diskCacheFolder(QFile::encodeName(doc->filePath()).toStdString())))),
                                               last + 1);
    const QString error = bakeToFolder(*doc, last, follow(progress));
    progress->close();
    if (!error.isEmpty()) {
        QMessageBox::warning(m_window, tr("Bake to Folder"), error);
        return false;
    }
    m_window->statusBar()->showMessage(tr("Baked frames 0 to %1 beside %2").arg(last).arg(doc->displayName()), 5000);
    return true;
}

bool ExportActions::exportPointCache()
{
    Document *doc = m_window->document();
    if (!doc)
        return false;
    std::uint64_t first = 0, last = 0;
    exportRange(*doc, &first, &last);
    QString path = QFileDialog::getSaveFileName(m_window, tr("Export Point Cache"), AppSettings::lastDirectory(),
                                                tr("PC2 point cache (*.pc2)"));
    if (path.isEmpty())
        return false;
    if (QFileInfo(path).suffix().isEmpty())
        path += QStringLiteral(".pc2");
    QProgressDialog *progress = progressDialog(tr("Writing %1…").arg(QFileInfo(path).fileName()), last - first + 1);
    const PointCacheExport result = drape::exportPointCache(*doc, path, first, last, follow(progress));
    progress->close();
    if (result.cancelled)
        return false;
    if (result.error.isEmpty()) {
        m_window->statusBar()->showMessage(tr("Wrote frames %1 to %2 (%3 points) to %4")
                                               .arg(first)
                                               .arg(last)
                                               .arg(result.points)
                                               .arg(QDir::toNativeSeparators(path)),
                                           5000);
        return true;
    }
    if (result.topologyChangedAt > last) {
        QMessageBox::warning(m_window, tr("Export Point Cache"), result.error);
        return false;
    }
    const auto answer = QMessageBox::question(
        m_window, tr("Export Point Cache"),
        tr("The cloth tears or is cut at frame %1, so its vertex count changes; a PC2 point cache holds a fixed "
           "vertex count and was not written.\n\nExport frames %2 to %3 as an OBJ sequence instead (one mesh per "
           "frame)?")
            .arg(result.topologyChangedAt)
            .arg(first)
            .arg(last),
        QMessageBox::Yes | QMessageBox::Cancel, QMessageBox::Yes);
    if (answer != QMessageBox::Yes)
        return false;
    const QString folder = QFileDialog::getExistingDirectory(m_window, tr("Folder for the OBJ sequence"),
                                                             QFileInfo(path).absolutePath());
    if (folder.isEmpty())
        return false;
    progress = progressDialog(tr("Writing OBJ meshes…"), last - first + 1);
    const QString error = exportObjSequence(*doc, folder, first, last, follow(progress));
    progress->close();
    if (!error.isEmpty()) {
        QMessageBox::warning(m_window, tr("Export OBJ Sequence"), error);
        return false;
    }
    m_window->statusBar()->showMessage(
        tr("Wrote OBJ meshes of frames %1 to %2 to %3").arg(first).arg(last).arg(QDir::toNativeSeparators(folder)),
        5000);
    return true;
}

ExportProgress ExportActions::follow(QProgressDialog *progress)
{
    return [progress](std::uint64_t done, std::uint64_t) {
        progress->setValue(int(std::min<std::uint64_t>(done, 1u << 30)));
        QCoreApplication::processEvents();
        return !progress->wasCanceled();
    };
}

} // namespace drape
