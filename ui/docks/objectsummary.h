// What the Outliner and the Properties rows say about a cloth or a collider: its kind in
// words, its size in metres and its pins, from the scene's description (and the running
// cloth for the pins, which the take may have changed).
#pragma once

#include "scene/scene.h"

#include <QString>

namespace drape {

QString clothKindText(const ClothDesc &cloth);
/// "1 × 1 m, 24 × 24 particles"; a rope's length and count; an explicit cloth's extent.
QString clothSizeText(const ClothDesc &cloth);
QString colliderKindText(const Collider &collider);
/// "radius 0.25 m", "0.5 × 0.5 × 0.5 m", …; a plane has no size.
QString colliderSizeText(const Collider &collider);
/// "24 pinned of 576 particles" for the running cloth (pins the take added or removed counted).
QString pinsText(const Cloth &cloth);

} // namespace drape
