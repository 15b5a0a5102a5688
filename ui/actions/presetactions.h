// The user's own presets (core/scene/userpresets.h) in the editor: File ▸ Save as Preset…
// keeps the open scene, or only the fabric of the cloth the Parameters dock shows, in the
// user's data folder; the Scene dock lists the scene presets and renames or deletes them
// through here. A name a built-in preset has is refused, so nothing is shadowed silently.
#pragma once

#include <QObject>

class QAction;

namespace drape {

class MainWindow;

class PresetActions : public QObject {
    Q_OBJECT
public:
    explicit PresetActions(MainWindow *window);

    QAction *saveAsPresetAction() const { return m_saveAsPreset; }

    /// Saves the open scene (without state) as scene preset `id`; an existing one is replaced
    /// only when `replace`. Returns an error naming the problem, or an empty string.
    QString saveScene(const QString &id, bool replace);
    /// Saves the material of cloth `cloth` as fabric preset `id`.
    QString saveFabric(const QString &id, int cloth, bool replace);
    QString renameScene(const QString &from, const QString &to);
    QString deleteScene(const QString &id);

public slots:
    /// Asks for a name and what to keep (the scene or the current cloth's fabric), then saves.
    void saveAsPreset();
    /// Asks for a new name of scene preset `id`.
    void askRename(const QString &id);
    /// Asks before deleting scene preset `id`.
    void askDelete(const QString &id);

signals:
    /// A preset was saved, renamed or deleted: lists of presets re-read them.
    void presetsChanged();

private:
    MainWindow *m_window;
    QAction *m_saveAsPreset;
};

} // namespace drape
