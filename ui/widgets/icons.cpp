#include "widgets/icons.h"

#include <QFile>
#include <QGuiApplication>
#include <QIconEngine>
#include <QImage>
#include <QPainter>
#include <QPalette>
#include <QSvgRenderer>

namespace drape {

namespace {

/// Draws an SVG with `currentColor` replaced by the palette's text colour for the icon's mode,
/// read at paint time (not when the icon is made).
class ThemedSvgEngine : public QIconEngine {
public:
    explicit ThemedSvgEngine(QByteArray svg)
        : m_svg(std::move(svg))
    { }

    void paint(QPainter *painter, const QRect &rect, QIcon::Mode mode, QIcon::State) override
    {
        QSvgRenderer renderer(colouredSvg(mode));
        renderer.render(painter, rect);
    }

    QPixmap pixmap(const QSize &size, QIcon::Mode mode, QIcon::State state) override
    {
        QImage image(size, QImage::Format_ARGB32_Premultiplied);
        image.fill(Qt::transparent);
        QPainter painter(&image);
        paint(&painter, QRect(QPoint(0, 0), size), mode, state);
        painter.end();
        return QPixmap::fromImage(image);
    }

    QIconEngine *clone() const override { return new ThemedSvgEngine(m_svg); }
    QString key() const override { return QStringLiteral("drape-themed-svg"); }
    bool isNull() override { return m_svg.isEmpty(); }

private:
    QByteArray colouredSvg(QIcon::Mode mode) const
    {
        const QPalette palette = QGuiApplication::palette();
        QColor ink = palette.color(QPalette::Active, QPalette::WindowText);
        if (mode == QIcon::Disabled)
            ink = palette.color(QPalette::Disabled, QPalette::WindowText);
        else if (mode == QIcon::Selected)
            ink = palette.color(QPalette::Active, QPalette::HighlightedText);
        QByteArray svg = m_svg;
        return svg.replace("currentColor", ink.name(QColor::HexRgb).toLatin1());
    }

    QByteArray m_svg;
};

} // namespace

QIcon icon(const QString &name)
{
    QFile file(QStringLiteral(":/icons/%1.svg").arg(name));
    if (!file.open(QIODevice::ReadOnly)) {
        qWarning("drape: no icon named %s", qPrintable(name));
        return {};
    }
    return QIcon(new ThemedSvgEngine(file.readAll()));
}

QIcon icon(IconId id)
{
    switch (id) {
    case IconId::App:
        return icon(QStringLiteral("drape"));
    case IconId::Play:
        return icon(QStringLiteral("play"));
    case IconId::Pause:
        return icon(QStringLiteral("pause"));
    case IconId::Step:
        return icon(QStringLiteral("step"));
    case IconId::Reset:
        return icon(QStringLiteral("reset"));
    }
    return {};
}

QIcon toolIcon(const QString &name)
{
    return icon(QStringLiteral("tool-") + name);
}

} // namespace drape
