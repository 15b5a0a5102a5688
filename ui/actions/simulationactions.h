// Simulation menu and toolbar: Play/Pause (Space), Step one frame, Reset to the scene's start,
// and the playback speed (slow motion 0.25×, 0.5×, real time).
#pragma once

#include <QObject>

class QAction;
class QActionGroup;
class QMenu;
class QToolBar;

namespace drape {

class SimulationController;

class SimulationActions : public QObject {
    Q_OBJECT
public:
    SimulationActions(SimulationController *controller, QObject *parent);

    void populate(QMenu *menu);
    void populate(QToolBar *toolBar);

    QAction *playAction() const { return m_play; }
    QAction *stepAction() const { return m_step; }
    QAction *resetAction() const { return m_reset; }
    QAction *startHereAction() const { return m_startHere; }

signals:
    /// A message for the status bar (an action that could not be done).
    void statusMessage(const QString &text);

private:
    void updatePlayAction(bool playing);

    SimulationController *m_controller;
    QAction *m_play;
    QAction *m_step;
    QAction *m_reset;
    QAction *m_startHere;
    QActionGroup *m_speeds;
};

} // namespace drape
