// The status bar's contents: simulated time, display frame rate, solver milliseconds per
// frame, real-time factor, particle and constraint counts, the active tool's (or the
// camera's) hint, and a red "Blown up — Reset" badge when the solver flagged a blow-up.
#pragma once

#include "document/simulationcontroller.h"

#include <QObject>

class QLabel;
class QPushButton;
class QStatusBar;
class QTimer;

namespace drape {

class StatusWidgets : public QObject {
    Q_OBJECT
public:
    explicit StatusWidgets(QStatusBar *bar);

    void setStats(const SimulationStats &stats);
    /// The hint shown at the left (tool instructions); empty shows the camera controls.
    void setHint(const QString &hint);
    /// A transient message (saved, screenshot, error) shown in place of the hint for a while.
    void showMessage(const QString &text, int timeoutMs = 8000);
    /// Drops the transient message (Reset clears a stale one) and shows the hint again.
    void clearMessage();
    /// Drops the transient message if it is still `text` (a message about something that ended).
    void clearMessageIf(const QString &text);
    /// What the hint label shows now, wrapped over as many lines as it needs.
    QString shownText() const;
    QLabel *hintLabel() const { return m_hint; }
    /// What an edit made now will do: "Editing the scene" or "Recording at frame N".
    QString modeText() const;

    QPushButton *blowUpBadge() const { return m_badge; }
    bool isBlowUpShown() const;

    static QString cameraHint();

signals:
    void resetRequested();

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void fitHint();

    QStatusBar *m_bar;
    QLabel *m_hint;
    QLabel *m_mode;
    QLabel *m_time;
    QLabel *m_fps;
    QLabel *m_step;
    QLabel *m_realTime;
    QLabel *m_counts;
    QPushButton *m_badge;
    QTimer *m_messageTimer;
    QString m_toolHint; ///< the active tool's instructions (empty: the camera controls)
    QString m_message; ///< a transient message over the hint, empty when none
};

} // namespace drape
