// The Record dock: format, frame rate, size, quality, length or frame range, overlays and background of the
// scene's RecordSettings (edited through undoable commands, saved with the scene), the output
// path (the user's Videos / Pictures folder by default), Record / Stop / Cancel, and progress
// with frame k of N and the time left. Video formats are disabled with an explanation when
// ffmpeg is not installed; PNG and OBJ sequences never need it. Right click in the dock opens
// the output folder in the file manager or copies the output path.
#pragma once

#include "scene/scene.h"

#include <QDockWidget>
#include <QPointer>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QSpinBox;

namespace drape {

class Document;
class Recorder;
class SimulationController;
class Viewport;

class RecordDock : public QDockWidget {
    Q_OBJECT
public:
    explicit RecordDock(QWidget *parent = nullptr);
    ~RecordDock() override;

    void setDocument(Document *document);
    void setViewport(Viewport *viewport);
    void setController(SimulationController *controller);
    Recorder *recorder() const { return m_recorder; }

    /// The output path the next recording writes to.
    QString outputPath() const;
    void setOutputPath(const QString &path);
    /// The folder the output goes to: the path itself for a frame sequence, else its folder.
    QString outputFolder() const;
    /// Shows the output folder in the desktop's file manager; false (with a message) when it
    /// does not exist yet.
    bool openOutputFolder();
    /// Whether ffmpeg was found (video formats enabled).
    bool hasFfmpeg() const { return !m_ffmpeg.isEmpty(); }

public slots:
    void startRecording();
    void stopRecording();
    void cancelRecording();

signals:
    /// One-line outcome for the status bar.
    void message(const QString &text);

private:
    void buildUi();
    void refreshFromScene();
    void commit(const QString &field, const RecordSettings &settings);
    void updateEnabled();
    void updateNotes();
    void onFinished(bool ok, const QString &text);
    void browse();

    QPointer<Document> m_document;
    QPointer<Viewport> m_viewport;
    Recorder *m_recorder = nullptr;
    QString m_ffmpeg;
    bool m_outputEdited = false; ///< the user chose a path: keep it when the format changes
    bool m_updating = false;

    QComboBox *m_format = nullptr;
    QComboBox *m_size = nullptr;
    QWidget *m_customSize = nullptr; ///< the width × height row, shown for a custom size
    QSpinBox *m_width = nullptr;
    QSpinBox *m_height = nullptr;
    QSpinBox *m_fps = nullptr;
    QSpinBox *m_quality = nullptr;
    QSpinBox *m_length = nullptr;
    QComboBox *m_lengthUnit = nullptr;
    QSpinBox *m_startFrame = nullptr; ///< record.startFrame
    QSpinBox *m_endFrame = nullptr;   ///< record.endFrame (0: the length decides)
    QCheckBox *m_overlays = nullptr;
    QCheckBox *m_transparent = nullptr;
    QCheckBox *m_restart = nullptr;
    QLineEdit *m_output = nullptr;
    QPushButton *m_browse = nullptr;
    QLabel *m_notes = nullptr;
    QPushButton *m_record = nullptr;
    QPushButton *m_stop = nullptr;
    QPushButton *m_cancel = nullptr;
    QProgressBar *m_progress = nullptr;
    QLabel *m_status = nullptr;
};

} // namespace drape
