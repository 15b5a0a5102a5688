// The editor's icons. The SVG files in resources/icons/ are the source (the installed desktop
// icon is drape.svg); when Qt's SVG image plugin is not installed the same shapes are painted
// with QPainter, so toolbar buttons never come up blank.
#pragma once

#include <QIcon>

namespace drape {

enum class IconId { App, Play, Pause, Step, Reset };

QIcon icon(IconId id);

} // namespace drape
