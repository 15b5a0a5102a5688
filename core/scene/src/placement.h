// How a cloth's placement (scene.h) reaches its rest geometry. Internal to the scene code.
#pragma once

#include "scene/scene.h"

namespace drape::detail {

/// `desc` with its geometry scaled by `s` about `pivot`: positions about the pivot, rest
/// lengths and spacing by s, masses by s² (a rope's by s, its mass per length being kept),
/// so the material's per-area numbers give the same fabric, only larger or smaller.
ClothDesc scaledAbout(ClothDesc desc, const Vec3 &pivot, float s);
/// Turns the rest geometry of `cloth` by `placement.rotation` about `pivot` and moves it by
/// `placement.offset` (current and previous positions follow; the cloth is at rest).
void placeRigidly(Cloth &cloth, const Placement &placement, const Vec3 &pivot);

} // namespace drape::detail
