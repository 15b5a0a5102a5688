#include "actions/playbackactions.h"

#include "document/document.h"
#include "document/simulationcontroller.h"

#include <QAction>
#include <QMenu>

#include <cmath>

namespace drape {

PlaybackActions::PlaybackActions(SimulationController *controller, QObject *parent)
    : QObject(parent), m_controller(controller)
{
    m_backward = make(tr("Play &Backward"), QKeySequence(QStringLiteral("Shift+Space")),
                      tr("Play backwards over the cached frames (Shift+Space)"));
    m_backward->setCheckable(true);
    connect(m_backward, &QAction::triggered, m_controller, [this](bool on) {
        if (on)
            m_controller->playBackward();
        else
            m_controller->setPlaying(false);
    });
    auto syncBackward = [this] { m_backward->setChecked(m_controller->direction() < 0); };
    connect(m_controller, &SimulationController::playingChanged, this, syncBackward);
    connect(m_controller, &SimulationController::directionChanged, this, syncBackward);

    m_loop = make(tr("&Loop Playback"), QKeySequence(Qt::Key_L),
                  tr("Playback wraps from the end frame to the start frame (L)"));
    m_loop->setCheckable(true);
    connect(m_loop, &QAction::toggled, m_controller, &SimulationController::setLoop);
    connect(m_controller, &SimulationController::loopChanged, m_loop, &QAction::setChecked);

    m_start = make(tr("Go to &Start"), QKeySequence(Qt::Key_Home), tr("Playhead to the playback start (Home)"));
    connect(m_start, &QAction::triggered, m_controller, &SimulationController::seekToStart);
    m_end = make(tr("Go to &End"), QKeySequence(Qt::Key_End),
                 tr("Playhead to the playback end, or to the end of the cache when no end is set (End)"));
    connect(m_end, &QAction::triggered, m_controller, &SimulationController::seekToEnd);
    m_previous = make(tr("Previous Frame"), QKeySequence(Qt::Key_Left), tr("One frame back (Left)"));
    connect(m_previous, &QAction::triggered, m_controller, [this] { m_controller->seekBy(-1); });
    m_next = make(tr("Next Frame"), QKeySequence(Qt::Key_Right), tr("One frame forward (Right)"));
    connect(m_next, &QAction::triggered, m_controller, [this] { m_controller->seekBy(1); });
    m_backSecond = make(tr("Back One Second"), QKeySequence(QStringLiteral("Shift+Left")),
                        tr("One second back (Shift+Left)"));
    connect(m_backSecond, &QAction::triggered, m_controller, [this] { m_controller->seekBy(-second()); });
    m_forwardSecond = make(tr("Forward One Second"), QKeySequence(QStringLiteral("Shift+Right")),
                           tr("One second forward (Shift+Right)"));
    connect(m_forwardSecond, &QAction::triggered, m_controller, [this] { m_controller->seekBy(second()); });

    m_rangeStart = make(tr("Set Playback Start Here"), QKeySequence(Qt::Key_BracketLeft),
                        tr("The playback range starts at the playhead ([)"));
    connect(m_rangeStart, &QAction::triggered, m_controller, [this] {
        m_controller->setRangeStartHere();
    });
    m_rangeEnd = make(tr("Set Playback End Here"), QKeySequence(Qt::Key_BracketRight),
                      tr("The playback range ends at the playhead (])"));
    connect(m_rangeEnd, &QAction::triggered, m_controller, [this] {
        m_controller->setRangeEndHere();
    });
    m_clearRange = make(tr("Clear Playback Range"), {}, tr("Play from frame 0 with no end"));
    connect(m_clearRange, &QAction::triggered, m_controller,
            [this] { m_controller->setRange(0, SimulationController::kNoEnd); });
}

QAction *PlaybackActions::make(const QString &text, const QKeySequence &key, const QString &tip)
{
    auto *action = new QAction(text, this);
    action->setShortcut(key);
    action->setToolTip(tip);
    return action;
}

qint64 PlaybackActions::second() const
{
    const Document *doc = m_controller->document();
    const double fps = doc ? doc->settings().solver.frameRate : 60.0;
    return std::max<qint64>(1, qint64(std::lround(fps)));
}

void PlaybackActions::populate(QMenu *menu)
{
    menu->addAction(m_backward);
    menu->addAction(m_loop);
    QMenu *go = menu->addMenu(tr("&Go To"));
    go->addActions({ m_start, m_end, m_previous, m_next, m_backSecond, m_forwardSecond });
    QMenu *range = menu->addMenu(tr("Playback &Range"));
    range->addActions({ m_rangeStart, m_rangeEnd, m_clearRange });
}

} // namespace drape
