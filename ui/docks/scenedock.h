// The scene dock: built-in presets with their descriptions, Open / Save / Save As / Revert,
// recent files, and what the open scene contains (its cloths and colliders).
#pragma once

#include "document/document.h"
#include <QDockWidget>
#include <QPointer>

class QLabel;
class QListWidget;
class QPushButton;
class QTreeWidget;

namespace drape {

class Document;
class MainWindow;

class SceneDock : public QDockWidget {
    Q_OBJECT
public:
    explicit SceneDock(MainWindow *window);

    QListWidget *presetList() const { return m_presets; }
    QTreeWidget *contents() const { return m_contents; }

public slots:
    void refreshRecent();
    /// Deletes the cloth or collider selected in the "In this scene" list (an undo step).
    void deleteCurrentObject();

signals:
    void statusMessage(const QString &text);

private:
    void setDocument(Document *document);
    void refreshContents();

    MainWindow *m_window;
    QPointer<Document> m_document;
    QListWidget *m_presets;
    QListWidget *m_recent;
    QTreeWidget *m_contents;
    QLabel *m_title;
    QPushButton *m_revert;
};

} // namespace drape
