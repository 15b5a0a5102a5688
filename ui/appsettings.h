// What the editor remembers between runs (QSettings): window geometry and dock layout,
// recent files, the last directory used in file dialogs.
#pragma once

#include <QStringList>

class QMainWindow;

namespace drape {

class AppSettings {
public:
    static constexpr int kMaxRecentFiles = 10;

    static QStringList recentFiles();
    /// Moves `path` to the top of the recent files (absolute path, no duplicates).
    static void addRecentFile(const QString &path);
    static void removeRecentFile(const QString &path);
    static void clearRecentFiles();

    static QString lastDirectory();
    static void setLastDirectory(const QString &dir);

    /// saveGeometry()/saveState() of the window, versioned so a changed layout is not restored wrongly.
    static void saveWindow(const QMainWindow *window);
    /// Returns false when nothing was saved (first run): the caller keeps its default layout.
    static bool restoreWindow(QMainWindow *window);

    static constexpr int kLayoutVersion = 1;
};

} // namespace drape
