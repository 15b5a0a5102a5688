// The timeline under the viewport, bound to the open document: its ruler shows the frames
// the document's timeline has cached (and those an edit made outdated), a marker for every
// event of the take, the playback range and the playhead. Dragging the playhead scrubs over
// the cache without simulating (SimulationController::seekTo; the document follows on
// release), a marker's menu deletes its event as an undo step. Beside the ruler: how far the
// cache is ahead while playing, the progress of a seek past the cache, and the memory used.
#pragma once

#include <QPointer>
#include <QWidget>

class QLabel;
class QTimer;

namespace drape {

class Document;
class SimulationController;
class TimelineWidget;

class TimelineBar : public QWidget {
    Q_OBJECT
public:
    TimelineBar(SimulationController *controller, QWidget *parent = nullptr);

    void setDocument(Document *document);
    TimelineWidget *ruler() const { return m_ruler; }
    /// Re-reads the cache status, the span and the markers (also every 250 ms).
    void refresh();
    /// Gives the document's timeline the cache budget of the preferences.
    void applyPreferences();

signals:
    void statusMessage(const QString &text);

private:
    void refreshMarkers();

    SimulationController *m_controller;
    QPointer<Document> m_document;
    TimelineWidget *m_ruler;
    QLabel *m_info;
    QTimer *m_poll;
};

} // namespace drape
