// The tool icons. resources/icons/tool-*.svg are the source; when Qt's SVG image plugin is
// not installed the same shapes are painted with QPainter so the buttons never come up blank.
#pragma once

#include <QIcon>
#include <QString>

namespace drape {

/// `name` is one of drag, push, pin, cut, constraint, pin-top, pin-corners, unpin-all.
QIcon toolIcon(const QString &name);

} // namespace drape
