#include "actions/simulationactions.h"

#include "widgets/icons.h"
#include "document/document.h"
#include "document/simulationcontroller.h"

#include <QAction>
#include <QActionGroup>
#include <QMenu>
#include <QToolBar>

namespace drape {

SimulationActions::SimulationActions(SimulationController *controller, QObject *parent)
    : QObject(parent), m_controller(controller), m_play(new QAction(this)), m_step(new QAction(this)),
      m_reset(new QAction(this)), m_startHere(new QAction(this)), m_speeds(new QActionGroup(this))
{
    m_play->setShortcut(Qt::Key_Space);
    m_play->setCheckable(true);
    connect(m_play, &QAction::triggered, m_controller, &SimulationController::setPlaying);
    connect(m_controller, &SimulationController::playingChanged, this, &SimulationActions::updatePlayAction);
    updatePlayAction(false);

    m_step->setText(tr("&Step One Frame"));
    m_step->setIcon(icon(IconId::Step));
    m_step->setShortcut(QKeySequence(Qt::Key_Period));
    m_step->setToolTip(tr("Step one frame (.)"));
    connect(m_step, &QAction::triggered, m_controller, [this] { m_controller->stepFrames(1); });

    m_reset->setText(tr("&Reset to Start"));
    m_reset->setIcon(icon(IconId::Reset));
    m_reset->setShortcut(QKeySequence(QStringLiteral("Ctrl+R")));
    m_reset->setToolTip(tr("Reset the simulation to the scene's start (Ctrl+R)"));
    connect(m_reset, &QAction::triggered, m_controller, &SimulationController::reset);

    m_startHere->setText(tr("Set Start &Here"));
    m_startHere->setObjectName(QStringLiteral("SetStartHere"));
    m_startHere->setToolTip(tr("Make what the viewport shows the scene's start, and clear the take: keeps a "
                               "draped or torn result as the start of further work (undoable)"));
    connect(m_startHere, &QAction::triggered, this, [this] {
        Document *doc = m_controller->document();
        if (!doc)
            return;
        m_controller->setPlaying(false);
        if (const QString error = doc->setStartHere(); !error.isEmpty())
            emit statusMessage(error);
    });

    const struct { double speed; const char *text; } speeds[] = {
        {0.25, QT_TR_NOOP("Slow Motion 0.25×")}, {0.5, QT_TR_NOOP("Slow Motion 0.5×")}, {1.0, QT_TR_NOOP("Real Time 1×")}};
    for (const auto &s : speeds) {
        QAction *action = m_speeds->addAction(tr(s.text));
        action->setCheckable(true);
        action->setChecked(s.speed == m_controller->speed());
        action->setData(s.speed);
        connect(action, &QAction::triggered, m_controller, [this, speed = s.speed] { m_controller->setSpeed(speed); });
    }
    connect(m_controller, &SimulationController::speedChanged, this, [this](double speed) {
        for (QAction *a : m_speeds->actions())
            a->setChecked(qFuzzyCompare(a->data().toDouble(), speed));
    });
}

void SimulationActions::updatePlayAction(bool playing)
{
    m_play->setChecked(playing);
    m_play->setText(playing ? tr("&Pause") : tr("&Play"));
    m_play->setIcon(icon(playing ? IconId::Pause : IconId::Play));
    m_play->setToolTip(playing ? tr("Pause the simulation (Space)") : tr("Play the simulation (Space)"));
}

void SimulationActions::populate(QMenu *menu)
{
    menu->addAction(m_play);
    menu->addAction(m_step);
    menu->addAction(m_reset);
    menu->addAction(m_startHere);
    menu->addSeparator();
    QMenu *speed = menu->addMenu(tr("Spee&d"));
    speed->addActions(m_speeds->actions());
}

void SimulationActions::populate(QToolBar *toolBar)
{
    toolBar->addAction(m_play);
    toolBar->addAction(m_step);
    toolBar->addAction(m_reset);
}

} // namespace drape
