// The Simulation menu's playhead and playback actions, window-wide shortcuts that work
// wherever the focus is except where the key edits text (a line edit or a spin box keeps its
// arrows, Home and End): Play Backward (Shift+Space), Loop (L), Go to Start / End (Home /
// End), one frame back / forward (Left / Right), one second back / forward (Shift+Left /
// Shift+Right), and the playback range: Set Start / End at the playhead ([ / ]) and Clear.
#pragma once

#include <QObject>

class QAction;
class QMenu;

namespace drape {

class SimulationController;

class PlaybackActions : public QObject {
    Q_OBJECT
public:
    PlaybackActions(SimulationController *controller, QObject *parent);

    void populate(QMenu *menu);

    QAction *playBackwardAction() const { return m_backward; }
    QAction *loopAction() const { return m_loop; }
    QAction *startAction() const { return m_start; }
    QAction *endAction() const { return m_end; }
    QAction *previousFrameAction() const { return m_previous; }
    QAction *nextFrameAction() const { return m_next; }
    QAction *backSecondAction() const { return m_backSecond; }
    QAction *forwardSecondAction() const { return m_forwardSecond; }
    QAction *setRangeStartAction() const { return m_rangeStart; }
    QAction *setRangeEndAction() const { return m_rangeEnd; }
    QAction *clearRangeAction() const { return m_clearRange; }

private:
    QAction *make(const QString &text, const QKeySequence &key, const QString &tip);
    qint64 second() const; ///< frames in one second of the document

    SimulationController *m_controller;
    QAction *m_backward;
    QAction *m_loop;
    QAction *m_start;
    QAction *m_end;
    QAction *m_previous;
    QAction *m_next;
    QAction *m_backSecond;
    QAction *m_forwardSecond;
    QAction *m_rangeStart;
    QAction *m_rangeEnd;
    QAction *m_clearRange;
};

} // namespace drape
