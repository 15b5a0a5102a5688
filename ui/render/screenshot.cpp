#include "render/screenshot.h"

#include "appsettings.h"
#include "render/viewport.h"

#include <QAction>
#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QImageWriter>
#include <QStandardPaths>
#include <QStatusBar>

namespace drape {

ScreenshotAction::ScreenshotAction(Viewport *viewport, QStatusBar *statusBar, QObject *parent)
    : QObject(parent), m_viewport(viewport), m_statusBar(statusBar)
{
    m_action = new QAction(tr("Save &Screenshot"), this);
    m_action->setObjectName(QStringLiteral("actionScreenshot"));
    m_action->setShortcut(QKeySequence(Qt::Key_F12));
    m_action->setShortcutContext(Qt::WindowShortcut);
    m_action->setStatusTip(tr("Save the 3D view as a PNG in your Pictures folder"));
    connect(m_action, &QAction::triggered, this, &ScreenshotAction::trigger);
}

QString ScreenshotAction::folder()
{
    if (const QString chosen = AppSettings::exportFolder(); !chosen.isEmpty())
        return chosen; // Preferences ▸ Default export folder
    const QString pictures = QStandardPaths::writableLocation(QStandardPaths::PicturesLocation);
    return pictures.isEmpty() ? QDir::homePath() : pictures;
}

QString ScreenshotAction::save(const QString &targetFolder, QString *error)
{
    if (!m_viewport) {
        *error = tr("There is no 3D view to save.");
        return {};
    }
    if (!QDir().mkpath(targetFolder)) {
        *error = tr("Cannot create the folder %1.").arg(QDir::toNativeSeparators(targetFolder));
        return {};
    }
    // grabFramebuffer() renders the view again (scene and overlays) and returns it top row
    // first; the view is opaque, so drop the alpha channel.
    const QImage image = m_viewport->grabFramebuffer().convertToFormat(QImage::Format_RGB32);
    if (image.isNull()) {
        *error = tr("The 3D view could not be read back.");
        return {};
    }
    const QString stem = QStringLiteral("drape-") + QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-HHmmss"));
    const QDir dir(targetFolder);
    QString path = dir.filePath(stem + QStringLiteral(".png"));
    for (int n = 2; QFileInfo::exists(path); ++n)
        path = dir.filePath(QStringLiteral("%1-%2.png").arg(stem).arg(n));
    QImageWriter writer(path, "png");
    if (!writer.write(image)) {
        *error = tr("Cannot write %1: %2").arg(QDir::toNativeSeparators(path), writer.errorString());
        QFile::remove(path);
        return {};
    }
    return path;
}

void ScreenshotAction::trigger()
{
    QString error;
    const QString path = save(folder(), &error);
    if (m_statusBar)
        m_statusBar->showMessage(path.isEmpty() ? error : tr("Screenshot saved to %1").arg(QDir::toNativeSeparators(path)),
                                 path.isEmpty() ? 0 : 8000);
}

} // namespace drape
