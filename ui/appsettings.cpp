#include "appsettings.h"

#include <QDir>
#include <QFileInfo>
#include <QMainWindow>
#include <QSettings>

namespace drape {

namespace {

const char kRecentKey[] = "recentFiles";
const char kLastDirKey[] = "lastDirectory";
const char kGeometryKey[] = "window/geometry";
const char kStateKey[] = "window/state";

} // namespace

QStringList AppSettings::recentFiles() { return QSettings().value(kRecentKey).toStringList(); }

void AppSettings::addRecentFile(const QString &path)
{
    const QString absolute = QFileInfo(path).absoluteFilePath();
    QStringList files = recentFiles();
    files.removeAll(absolute);
    files.prepend(absolute);
    while (files.size() > kMaxRecentFiles)
        files.removeLast();
    QSettings().setValue(kRecentKey, files);
}

void AppSettings::removeRecentFile(const QString &path)
{
    QStringList files = recentFiles();
    files.removeAll(path);
    QSettings().setValue(kRecentKey, files);
}

void AppSettings::clearRecentFiles() { QSettings().remove(kRecentKey); }

QString AppSettings::lastDirectory()
{
    const QString dir = QSettings().value(kLastDirKey).toString();
    return !dir.isEmpty() && QDir(dir).exists() ? dir : QDir::homePath();
}

void AppSettings::setLastDirectory(const QString &dir) { QSettings().setValue(kLastDirKey, dir); }

void AppSettings::saveWindow(const QMainWindow *window)
{
    QSettings settings;
    settings.setValue(kGeometryKey, window->saveGeometry());
    settings.setValue(kStateKey, window->saveState(kLayoutVersion));
}

bool AppSettings::restoreWindow(QMainWindow *window)
{
    QSettings settings;
    const QByteArray geometry = settings.value(kGeometryKey).toByteArray();
    const QByteArray state = settings.value(kStateKey).toByteArray();
    bool restored = false;
    if (!geometry.isEmpty())
        restored = window->restoreGeometry(geometry);
    if (!state.isEmpty())
        restored = window->restoreState(state, kLayoutVersion) && restored;
    return restored;
}

} // namespace drape
