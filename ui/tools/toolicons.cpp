#include "tools/toolicons.h"

#include <QFile>
#include <QImageReader>
#include <QPainter>
#include <QPainterPath>
#include <QPixmap>

namespace drape {

namespace {

/// The SVG shapes, on the files' 24-unit viewBox.
void paintShape(QPainter &p, const QString &name)
{
    const QColor ink(0xe8, 0xea, 0xed);
    const QColor accent(0xf0, 0x8a, 0x4b);
    p.setRenderHint(QPainter::Antialiasing);
    p.setBrush(Qt::NoBrush);
    p.setPen(QPen(ink, 1.8, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin));
    if (name == QLatin1String("drag")) {
        // an open hand: palm and four fingers
        p.drawRoundedRect(QRectF(7, 11, 10, 9), 3, 3);
        for (int i = 0; i < 4; ++i)
            p.drawLine(QPointF(8 + i * 2.7, 11), QPointF(8 + i * 2.7, 5 + (i == 0 || i == 3 ? 2 : 0)));
    } else if (name == QLatin1String("push")) {
        p.drawLine(QPointF(4, 12), QPointF(18, 12));
        p.drawLine(QPointF(13, 7), QPointF(18, 12));
        p.drawLine(QPointF(13, 17), QPointF(18, 12));
        p.setPen(QPen(accent, 1.8, Qt::SolidLine, Qt::RoundCap));
        p.drawLine(QPointF(20.5, 6), QPointF(20.5, 18));
    } else if (name == QLatin1String("pin") || name == QLatin1String("pin-top") || name == QLatin1String("pin-corners")) {
        if (name == QLatin1String("pin")) {
            p.setBrush(accent);
            p.drawEllipse(QPointF(12, 8), 4, 4);
            p.setBrush(Qt::NoBrush);
            p.drawLine(QPointF(12, 12), QPointF(12, 21));
        } else {
            p.drawRect(QRectF(4, 6, 16, 14));
            p.setPen(Qt::NoPen);
            p.setBrush(accent);
            if (name == QLatin1String("pin-top")) {
                for (int i = 0; i < 4; ++i)
                    p.drawEllipse(QPointF(4 + i * 16.0 / 3.0, 6), 2, 2);
            } else {
                for (QPointF c : {QPointF(4, 6), QPointF(20, 6), QPointF(4, 20), QPointF(20, 20)})
                    p.drawEllipse(c, 2.2, 2.2);
            }
        }
    } else if (name == QLatin1String("unpin-all")) {
        p.drawEllipse(QPointF(12, 8), 4, 4);
        p.drawLine(QPointF(12, 12), QPointF(12, 21));
        p.setPen(QPen(accent, 2.0, Qt::SolidLine, Qt::RoundCap));
        p.drawLine(QPointF(5, 5), QPointF(19, 19));
    } else if (name == QLatin1String("cut")) {
        p.drawEllipse(QPointF(7, 17), 3, 3);
        p.drawEllipse(QPointF(17, 17), 3, 3);
        p.drawLine(QPointF(9, 15), QPointF(18, 3));
        p.drawLine(QPointF(15, 15), QPointF(6, 3));
    } else if (name == QLatin1String("constraint")) {
        p.setPen(QPen(ink, 1.8, Qt::DashLine, Qt::RoundCap));
        p.drawLine(QPointF(6, 18), QPointF(18, 6));
        p.setPen(Qt::NoPen);
        p.setBrush(accent);
        p.drawEllipse(QPointF(6, 18), 3, 3);
        p.drawEllipse(QPointF(18, 6), 3, 3);
    }
}

} // namespace

QIcon toolIcon(const QString &name)
{
    const QString path = QStringLiteral(":/icons/tool-%1.svg").arg(name);
    if (QImageReader::supportedImageFormats().contains("svg") && QFile::exists(path))
        return QIcon(path);
    QIcon icon;
    for (int size : {16, 24, 32, 48}) {
        QPixmap pm(size, size);
        pm.fill(Qt::transparent);
        QPainter p(&pm);
        p.scale(size / 24.0, size / 24.0);
        paintShape(p, name);
        p.end();
        icon.addPixmap(pm);
    }
    return icon;
}

} // namespace drape
