// The scene dock: built-in presets with their descriptions, the user's own presets (open,
// rename, delete), Open / Save / Save As / Revert and recent files. What the open scene
// contains is the Outliner's (outlinerdock.h).
#pragma once

#include "document/document.h"
#include <QDockWidget>
#include <QPointer>

class QLabel;
class QListWidget;
class QPushButton;

namespace drape {

class Document;
class MainWindow;

class SceneDock : public QDockWidget {
    Q_OBJECT
public:
    explicit SceneDock(MainWindow *window);

    QListWidget *presetList() const { return m_presets; }
    QListWidget *userPresetList() const { return m_userPresets; }

public slots:
    void refreshRecent();
    /// Re-reads the user's scene presets.
    void refreshUserPresets();

signals:
    void statusMessage(const QString &text);

private:
    void setDocument(Document *document);
    void refreshContents();

    MainWindow *m_window;
    QPointer<Document> m_document;
    QListWidget *m_presets;
    QListWidget *m_userPresets;
    QListWidget *m_recent;
    QLabel *m_title;
    QPushButton *m_revert;
};

} // namespace drape
