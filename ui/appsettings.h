// What the editor remembers between runs (QSettings): window geometry and dock layout,
// recent files, the last directory used in file dialogs, the Preferences dialog's choices, and
// the picture of the Image fabric look (a scene says which look, never which file).
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

    /// How much memory (MiB) the timeline's cached frames may take (never unlimited).
    static int cacheBudgetMiB();
    static constexpr int kMinCacheBudgetMiB = 64;
    static void setCacheBudgetMiB(int mib);
    /// Where screenshots and recordings go by default (empty: Pictures / Videos).
    static QString exportFolder();
    static void setExportFolder(const QString &folder);
    /// How lengths and masses are shown in the parameter rows.
    enum class Units { SI = 0, CentimetreGram = 1 };
    static Units units();
    static void setUnits(Units units);
    /// Viewport quality on a software OpenGL renderer (Mesa llvmpipe): Fast draws no
    /// anti-aliasing and no shadows, Balanced anti-aliases edges, Full draws as on a GPU.
    enum class SoftwareQuality { Fast = 0, Balanced = 1, Full = 2 };
    static SoftwareQuality softwareQuality();
    static void setSoftwareQuality(SoftwareQuality quality);

    /// The image file the Image fabric look draws on cloths (empty: none chosen yet).
    static QString fabricImage();
    static void setFabricImage(const QString &path);

    static constexpr int kLayoutVersion = 2; // 2: every dock in one column at the right
};

} // namespace drape
