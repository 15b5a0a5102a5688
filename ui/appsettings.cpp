#include "appsettings.h"

#include <QDir>
#include <QFileInfo>
#include <QMainWindow>
#include <QSettings>

#include <algorithm>

namespace drape {

namespace {

const char kRecentKey[] = "recentFiles";
const char kLastDirKey[] = "lastDirectory";
const char kGeometryKey[] = "window/geometry";
const char kStateKey[] = "window/state";
const char kCacheBudgetKey[] = "preferences/cacheBudgetMiB";
const char kExportFolderKey[] = "preferences/exportFolder";
const char kUnitsKey[] = "preferences/units";
const char kSoftwareQualityKey[] = "preferences/softwareQuality";
const char kFabricImageKey[] = "view/fabricImage";

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

int AppSettings::cacheBudgetMiB()
{
    return std::max(kMinCacheBudgetMiB, QSettings().value(kCacheBudgetKey, 1024).toInt());
}
void AppSettings::setCacheBudgetMiB(int mib)
{
    QSettings().setValue(kCacheBudgetKey, std::max(kMinCacheBudgetMiB, mib));
}

QString AppSettings::exportFolder()
{
    return QSettings().value(kExportFolderKey).toString();
}
void AppSettings::setExportFolder(const QString &folder)
{
    QSettings().setValue(kExportFolderKey, folder);
}

AppSettings::Units AppSettings::units()
{
    return QSettings().value(kUnitsKey, 0).toInt() == 1 ? Units::CentimetreGram : Units::SI;
}
void AppSettings::setUnits(Units units)
{
    QSettings().setValue(kUnitsKey, int(units));
}

AppSettings::SoftwareQuality AppSettings::softwareQuality()
{
    return SoftwareQuality(std::clamp(QSettings().value(kSoftwareQualityKey, 1).toInt(), 0, 2));
}
void AppSettings::setSoftwareQuality(SoftwareQuality quality)
{
    QSettings().setValue(kSoftwareQualityKey, int(quality));
}

QString AppSettings::fabricImage() { return QSettings().value(kFabricImageKey).toString(); }

void AppSettings::setFabricImage(const QString &path) { QSettings().setValue(kFabricImageKey, path); }

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
