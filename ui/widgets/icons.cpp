#include "widgets/icons.h"

#include <QGuiApplication>
#include <QImageReader>
#include <QPalette>
#include <QPainter>
#include <QPainterPath>
#include <QPixmap>

namespace drape {

namespace {

QString resourcePath(IconId id)
{
    switch (id) {
    case IconId::App: return QStringLiteral(":/icons/drape.svg");
    case IconId::Play: return QStringLiteral(":/icons/play.svg");
    case IconId::Pause: return QStringLiteral(":/icons/pause.svg");
    case IconId::Step: return QStringLiteral(":/icons/step.svg");
    case IconId::Reset: return QStringLiteral(":/icons/reset.svg");
    }
    return {};
}

/// The SVG shapes, painted on a 24-unit canvas (the viewBox of the files).
void paintShape(QPainter &p, IconId id)
{
    // The theme's text colour, so the glyphs read on light and dark palettes alike.
    const QColor ink = QGuiApplication::palette().color(QPalette::WindowText);
    p.setRenderHint(QPainter::Antialiasing);
    p.setPen(Qt::NoPen);
    p.setBrush(ink);
    switch (id) {
    case IconId::Play: {
        QPainterPath path;
        path.moveTo(7, 4.5);
        path.lineTo(19.5, 12);
        path.lineTo(7, 19.5);
        path.closeSubpath();
        p.drawPath(path);
        break;
    }
    case IconId::Pause:
        p.drawRoundedRect(QRectF(6, 4.5, 4, 15), 1, 1);
        p.drawRoundedRect(QRectF(14, 4.5, 4, 15), 1, 1);
        break;
    case IconId::Step: {
        QPainterPath path;
        path.moveTo(5, 4.5);
        path.lineTo(15, 12);
        path.lineTo(5, 19.5);
        path.closeSubpath();
        p.drawPath(path);
        p.drawRoundedRect(QRectF(16, 4.5, 3.5, 15), 1, 1);
        break;
    }
    case IconId::Reset: {
        p.setBrush(Qt::NoBrush);
        p.setPen(QPen(ink, 2.4, Qt::SolidLine, Qt::RoundCap));
        p.drawArc(QRectF(5, 5, 14, 14), 100 * 16, 290 * 16);
        p.setPen(Qt::NoPen);
        p.setBrush(ink);
        QPainterPath head;
        head.moveTo(6.5, 2.5);
        head.lineTo(12.5, 5.5);
        head.lineTo(7, 9.5);
        head.closeSubpath();
        p.drawPath(head);
        break;
    }
    case IconId::App: {
        p.setBrush(QColor(0x2b, 0x30, 0x3a));
        p.drawRoundedRect(QRectF(1, 1, 22, 22), 4, 4);
        QPainterPath cloth;
        cloth.moveTo(4.5, 5);
        cloth.cubicTo(9, 7, 15, 3, 19.5, 5);
        cloth.lineTo(19.5, 17);
        cloth.cubicTo(16, 20.5, 12, 15.5, 8, 19);
        cloth.cubicTo(6.5, 20, 5.5, 19.5, 4.5, 19);
        cloth.closeSubpath();
        p.setBrush(QColor(0xcc, 0x40, 0x33));
        p.drawPath(cloth);
        p.setBrush(QColor(0xf2, 0xd9, 0x8c));
        p.drawEllipse(QPointF(4.5, 5), 1.6, 1.6);
        p.drawEllipse(QPointF(19.5, 5), 1.6, 1.6);
        break;
    }
    }
}

QIcon paintedIcon(IconId id)
{
    QIcon result;
    for (int size : {16, 24, 32, 48, 64, 128}) {
        QPixmap pixmap(size, size);
        pixmap.fill(Qt::transparent);
        QPainter p(&pixmap);
        p.scale(size / 24.0, size / 24.0);
        paintShape(p, id);
        p.end();
        result.addPixmap(pixmap);
    }
    return result;
}

} // namespace

QIcon icon(IconId id)
{
    static const bool svg = QImageReader::supportedImageFormats().contains("svg");
    if (svg) {
        QIcon fromFile(resourcePath(id));
        if (!fromFile.isNull())
            return fromFile;
    }
    return paintedIcon(id);
}

} // namespace drape
