#include "widgets/statuswidgets.h"

#include <QEvent>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QStatusBar>
#include <QTimer>

namespace drape {

namespace {

QLabel *makeField(QStatusBar *bar, const QString &tip, int minWidthChars)
{
    auto *label = new QLabel(bar);
    label->setToolTip(tip);
    label->setMinimumWidth(label->fontMetrics().horizontalAdvance(QLatin1Char('0')) * minWidthChars);
    label->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    bar->addPermanentWidget(label);
    return label;
}

} // namespace

StatusWidgets::StatusWidgets(QStatusBar *bar) : QObject(bar), m_bar(bar)
{
    // The hint and transient messages share one label that wraps instead of cutting off: a
    // QStatusBar message is painted on one line and clipped by the permanent fields.
    m_hint = new QLabel(bar);
    m_hint->setObjectName(QStringLiteral("statusHint"));
    m_hint->setTextFormat(Qt::PlainText);
    m_hint->setWordWrap(true);
    m_hint->setMinimumWidth(0);
    // The status bar's layout does not ask a label for its height at its real width (a wrapped
    // label would claim the height it needs at its narrowest): the height is set here instead,
    // for the width the label got (fitHint()).
    m_hint->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Fixed);
    m_hint->installEventFilter(this);
    bar->addWidget(m_hint, 1);
    m_messageTimer = new QTimer(this);
    m_messageTimer->setSingleShot(true);
    connect(m_messageTimer, &QTimer::timeout, this, &StatusWidgets::clearMessage);
    // Anyone's QStatusBar::showMessage() lands in the wrapping label too.
    // (The text is copied: the signal passes a reference to the bar's own message, which
    // clearMessage() empties.)
    connect(bar, &QStatusBar::messageChanged, this, [this](QString text) {
        if (text.isEmpty())
            return;
        m_bar->clearMessage();
        showMessage(text);
    });

    m_badge = new QPushButton(bar);
    m_badge->setObjectName(QStringLiteral("blowUpBadge"));
    m_badge->setText(tr("Blown up — Reset"));
    m_badge->setCursor(Qt::PointingHandCursor);
    m_badge->setStyleSheet(QStringLiteral("QPushButton#blowUpBadge { background: #c62828; color: white; font-weight: bold;"
                                          " border: none; border-radius: 3px; padding: 1px 10px; }"
                                          "QPushButton#blowUpBadge:hover { background: #e53935; }"));
    m_badge->setVisible(false);
    bar->addPermanentWidget(m_badge);
    connect(m_badge, &QPushButton::clicked, this, &StatusWidgets::resetRequested);

    m_mode = makeField(bar,
                       tr("What an edit does now: at frame 0 it changes the scene (the start); later it is "
                          "recorded in the take at the playhead's frame"),
                       22);
    m_time = makeField(bar, tr("Simulated time (frame)"), 16);
    m_fps = makeField(bar, tr("Display frames per second"), 8);
    m_step = makeField(bar, tr("Solver time per simulated frame"), 11);
    m_realTime = makeField(bar, tr("Real-time factor: simulated seconds per wall-clock second while playing"), 8);
    m_counts = makeField(bar, tr("Particles and constraints in the scene"), 18);
    setHint({});
    setStats({});
}

QString StatusWidgets::cameraHint()
{
    return tr("Orbit: middle drag or Alt+left · Pan: Shift+middle · Zoom: wheel · F: frame all");
}

bool StatusWidgets::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_hint && event->type() == QEvent::Resize)
        fitHint();
    return QObject::eventFilter(watched, event);
}

void StatusWidgets::fitHint()
{
    // One line until the label has a real width; then as many lines as the text needs there.
    const int line = m_hint->fontMetrics().lineSpacing();
    const int height = m_hint->width() >= 200 ? m_hint->heightForWidth(m_hint->width()) : line;
    m_hint->setFixedHeight(std::max(height, line));
}

void StatusWidgets::setHint(const QString &hint)
{
    m_toolHint = hint;
    if (m_message.isEmpty()) {
        m_hint->setText(hint.isEmpty() ? cameraHint() : hint);
        fitHint();
    }
}

void StatusWidgets::showMessage(const QString &text, int timeoutMs)
{
    m_message = text;
    m_hint->setText(text);
    fitHint();
    m_messageTimer->start(timeoutMs);
}

void StatusWidgets::clearMessageIf(const QString &text)
{
    if (m_message == text)
        clearMessage();
}

void StatusWidgets::clearMessage()
{
    m_messageTimer->stop();
    m_message.clear();
    setHint(m_toolHint);
}

QString StatusWidgets::shownText() const
{
    return m_hint->text();
}

QString StatusWidgets::modeText() const
{
    return m_mode->text();
}

bool StatusWidgets::isBlowUpShown() const { return !m_badge->isHidden(); }

void StatusWidgets::setStats(const SimulationStats &s)
{
    const QLocale locale;
    m_time->setText(tr("t = %1 s (%2)").arg(s.simTime, 0, 'f', 2).arg(s.frame));
    m_mode->setText(s.mode);
    m_fps->setText(tr("%1 fps").arg(s.framesPerSecond, 0, 'f', 0));
    m_step->setText(tr("%1 ms/frame").arg(s.msPerStep, 0, 'f', s.msPerStep < 10 ? 2 : 1));
    m_realTime->setText(QStringLiteral("%1×").arg(s.realTimeFactor, 0, 'f', 2));
    m_realTime->setStyleSheet(s.realTimeFactor > 0.0 && s.realTimeFactor < 0.9 ? QStringLiteral("color: #e0a020;") : QString());
    m_counts->setText(tr("%1 particles · %2 constraints").arg(locale.toString(s.particles), locale.toString(s.constraints)));
    m_badge->setVisible(s.blownUp);
    m_badge->setToolTip(s.blownUp ? tr("The solver stopped: %1\nClick to reset the simulation.").arg(s.blowUpMessage)
                                  : QString());
}

} // namespace drape
