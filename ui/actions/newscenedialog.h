// File ▸ New: choose what the new scene starts from — an empty scene (a ground plane, the
// default camera and settings) or a preset, built in or the user's own.
#pragma once

#include <QDialog>

class QLabel;
class QListWidget;

namespace drape {

class NewSceneDialog : public QDialog {
    Q_OBJECT
public:
    explicit NewSceneDialog(QWidget *parent = nullptr);

    /// The chosen preset's key, or an empty string for the empty scene.
    QString choice() const;
    QListWidget *list() const { return m_list; }

private:
    QListWidget *m_list;
    QLabel *m_description;
};

} // namespace drape
