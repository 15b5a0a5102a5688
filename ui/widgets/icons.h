// The editor's icons: every one an SVG file in resources/icons/, drawn by Qt's SVG module.
// Strokes and fills written as `currentColor` take the theme's text colour when the icon is
// drawn, so the glyphs read on light and dark palettes alike and follow a palette change;
// accents and the application icon keep their own colours.
#pragma once

#include <QIcon>
#include <QString>

namespace drape {

enum class IconId { App, Play, Pause, Step, Reset };

QIcon icon(IconId id);
/// `name` is a file in resources/icons/ without ".svg": "play", "tool-drag", ...
QIcon icon(const QString &name);
/// A tool's icon: `name` is one of drag, push, pin, cut, constraint, pin-top, pin-corners, unpin-all.
QIcon toolIcon(const QString &name);

} // namespace drape
