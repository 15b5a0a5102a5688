#include "widgets/messagebanner.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QStyle>
#include <QToolButton>

namespace drape {

MessageBanner::MessageBanner(QWidget *host)
    : QFrame(host)
{
    setObjectName(QStringLiteral("MessageBanner"));
    setAutoFillBackground(true);
    setFrameShape(QFrame::StyledPanel);
    m_label = new QLabel(this);
    m_label->setWordWrap(true);
    m_label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_close = new QToolButton(this);
    m_close->setObjectName(QStringLiteral("MessageBannerClose"));
    m_close->setAutoRaise(true);
    m_close->setIcon(style()->standardIcon(QStyle::SP_TitleBarCloseButton));
    m_close->setToolTip(tr("Dismiss"));
    connect(m_close, &QToolButton::clicked, this, &QWidget::hide);
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(10, 6, 4, 6);
    layout->addWidget(m_label, 1);
    layout->addWidget(m_close, 0, Qt::AlignTop);
    host->installEventFilter(this);
    hide();
}

void MessageBanner::showMessage(const QString &text, Kind kind)
{
    // Pale amber or red with the theme's dark text: readable on light and dark palettes alike,
    // because the banner sets both its background and its text colour.
    QPalette pal = palette();
    pal.setColor(QPalette::Window, kind == Kind::Error ? QColor(0xf6, 0xd5, 0xd1) : QColor(0xfb, 0xec, 0xc4));
    pal.setColor(QPalette::WindowText, QColor(0x20, 0x20, 0x20));
    setPalette(pal);
    m_label->setPalette(pal);
    m_label->setText(text);
    place();
    show();
    raise();
}

QString MessageBanner::text() const
{
    return isVisible() ? m_label->text() : QString();
}

bool MessageBanner::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == parentWidget() && event->type() == QEvent::Resize)
        place();
    return QFrame::eventFilter(watched, event);
}

void MessageBanner::place()
{
    const QWidget *host = parentWidget();
    const int margin = 8;
    const int width = std::max(120, host->width() - 2 * margin);
    setFixedWidth(width);
    const int height = layout()->hasHeightForWidth() ? layout()->heightForWidth(width) : sizeHint().height();
    setGeometry(margin, margin, width, std::max(height, sizeHint().height()));
}

} // namespace drape
