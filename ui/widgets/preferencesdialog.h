// Edit ▸ Preferences: the replay cache's memory budget, the default export folder, how units are
// shown, and the viewport quality on a software OpenGL renderer. Stored with QSettings
// (AppSettings) when the dialog is accepted.
#pragma once

#include <QDialog>

class QComboBox;
class QLineEdit;
class QSpinBox;

namespace drape {

class PreferencesDialog : public QDialog {
    Q_OBJECT
public:
    explicit PreferencesDialog(QWidget *parent = nullptr);

    QSpinBox *cacheBudget() const { return m_cache; }
    QLineEdit *exportFolder() const { return m_folder; }
    QComboBox *units() const { return m_units; }
    QComboBox *softwareQuality() const { return m_quality; }

    /// Writes the fields to AppSettings (called on OK).
    void save() const;

private:
    QSpinBox *m_cache;
    QLineEdit *m_folder;
    QComboBox *m_units;
    QComboBox *m_quality;
};

} // namespace drape
