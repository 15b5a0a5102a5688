#include "timeline/timelinebar.h"

#include "appsettings.h"
#include "document/document.h"
#include "document/simulationcontroller.h"
#include "timeline/timelinewidget.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QTimer>

#include <algorithm>

namespace drape {

namespace {

constexpr quint64 kMinimumSpan = 250; // frames the ruler shows at least

QString describe(const Event &e)
{
    const QString name = QString::fromUtf8(eventName(e.data));
    QString what = name.left(1).toUpper() + name.mid(1);
    if (const auto *d = std::get_if<DragEvent>(&e.data))
        what += QObject::tr(", %n particle(s) for %1 frames", nullptr, int(d->particles.size())).arg(d->targets.size());
    else if (const auto *r = std::get_if<RemoveConstraintsEvent>(&e.data))
        what += QObject::tr(", %n constraint(s)", nullptr, int(r->constraints.size()));
    else if (const auto *p = std::get_if<PinEvent>(&e.data))
        what += QObject::tr(", %n particle(s)", nullptr, int(p->particles.size()));
    else if (const auto *v = std::get_if<ParameterEvent>(&e.data))
        what += QStringLiteral(" %1 = %2").arg(QString::fromStdString(v->key)).arg(v->value);
    return QObject::tr("%1 at frame %2").arg(what).arg(e.frame);
}

} // namespace

TimelineBar::TimelineBar(SimulationController *controller, QWidget *parent)
    : QWidget(parent), m_controller(controller), m_ruler(new TimelineWidget(this)), m_info(new QLabel(this)),
      m_poll(new QTimer(this))
{
    setObjectName(QStringLiteral("TimelineBar"));
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(4, 0, 4, 2);
    layout->addWidget(m_ruler, 1);
    layout->addWidget(m_info);
    m_info->setToolTip(tr("Frames the timeline holds and the memory they use (the budget is in Preferences)"));
    m_poll->setInterval(250);
    connect(m_poll, &QTimer::timeout, this, &TimelineBar::refresh);
    m_poll->start();
    // Scrubbing shows cached frames without simulating; the document follows on release.
    connect(m_ruler, &TimelineWidget::playheadRequested, m_controller,
            [this](quint64 frame) { m_controller->seekTo(frame, true); });
    connect(m_ruler, &TimelineWidget::scrubbingChanged, m_controller, &SimulationController::setScrubbing);
    connect(m_ruler, &TimelineWidget::markerDeleteRequested, this, [this](int index) {
        if (!m_document || index < 0)
            return;
        const QString error = m_document->removeEvent(std::size_t(index));
        if (!error.isEmpty())
            emit statusMessage(error);
    });
    connect(m_controller, &SimulationController::rangeChanged, this, [this] { refresh(); });
    connect(m_controller, &SimulationController::waitingChanged, this, [this] { refresh(); });
}

void TimelineBar::setDocument(Document *document)
{
    if (m_document)
        disconnect(m_document, nullptr, this, nullptr);
    m_document = document;
    if (document) {
        connect(document, &Document::simulationStepped, this, [this] { m_ruler->setPlayhead(m_document->playhead()); });
        connect(document, &Document::playheadMoved, m_ruler, &TimelineWidget::setPlayhead);
        connect(document, &Document::simulationReset, this, [this] { m_ruler->setPlayhead(m_document->playhead()); });
        connect(document, &Document::changed, this, [this] { refreshMarkers(); });
        connect(document, &Document::preparingChanged, this, [this] { refresh(); });
        m_ruler->setFrameRate(document->settings().solver.frameRate);
        applyPreferences();
    }
    refreshMarkers();
    refresh();
}

void TimelineBar::applyPreferences()
{
    if (!m_document)
        return;
    CacheSettings settings = m_document->timeline().settings();
    settings.budgetBytes = std::size_t(AppSettings::cacheBudgetMiB()) << 20;
    m_document->timeline().setSettings(settings);
}

void TimelineBar::refreshMarkers()
{
    QVector<TimelineMarker> markers;
    if (m_document)
        for (const Event &e : m_document->take().events)
            markers.push_back({quint64(e.frame), describe(e)});
    m_ruler->setMarkers(std::move(markers));
}

void TimelineBar::refresh()
{
    if (!m_document) {
        m_ruler->setCache({}, {});
        m_info->clear();
        return;
    }
    const TimelineStatus status = m_document->timeline().status();
    const bool openEnd = m_controller->rangeEnd() == SimulationController::kNoEnd;
    quint64 last = std::max<quint64>({kMinimumSpan, quint64(status.knownEnd), quint64(m_document->playhead()),
                                      quint64(m_document->take().lastFrame())});
    if (!openEnd)
        last = std::max<quint64>(last, m_controller->rangeEnd());
    const quint64 span = (last / 50 + 1) * 50; // a round end, a little past what is known
    if (span != m_ruler->spanLast())
        m_ruler->setSpan(0, span);
    m_ruler->setPlaybackRange(m_controller->rangeStart(), openEnd ? span : m_controller->rangeEnd());
    m_ruler->setFrameRate(m_document->settings().solver.frameRate);
    m_ruler->setPlayhead(m_document->playhead());
    m_ruler->setCache(status.cached, status.stale);
    const QLocale locale;
    QString text = tr("%1 frames · %2 of %3")
                       .arg(status.frames)
                       .arg(locale.formattedDataSize(qint64(status.bytes)))
                       .arg(locale.formattedDataSize(qint64(status.budgetBytes)));
    // While playing, how far the worker is ahead of the playhead (0: playback waits for it).
    if (const QString wait = m_controller->waitText(); !wait.isEmpty())
        text = wait + QStringLiteral(" · ") + text;
    else if (m_controller->isPlaying())
        text = tr("%n frame(s) ahead", nullptr, int(m_controller->cachedAhead())) + QStringLiteral(" · ") + text;
    m_info->setText(text);
}

} // namespace drape
