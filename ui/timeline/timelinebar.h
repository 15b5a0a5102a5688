// The timeline under the viewport, bound to the open document: its ruler shows the frames
// the document's timeline has cached (and those an edit made outdated), a marker for every
// event of the take, and the playhead. Dragging the playhead scrubs (Document::seek, from
// the cache's nearest state), a marker's menu deletes its event as an undo step.
//
// The document's timeline worker fills the cache ahead of the playhead while the editor is
// paused; while it plays, the editor steps the document itself and the worker rests, so the
// two never simulate the same frames on a 2-core machine at once.
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
    void onPlayingChanged(bool playing);

    SimulationController *m_controller;
    QPointer<Document> m_document;
    TimelineWidget *m_ruler;
    QLabel *m_info;
    QTimer *m_poll;
};

} // namespace drape
