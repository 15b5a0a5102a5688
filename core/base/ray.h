// A ray in world space, as produced by the camera through a pixel and consumed by picking
// and cutting.
#pragma once

#include "base/vec3.h"

namespace drape {

struct Ray {
    Vec3 origin;                    ///< m
    Vec3 direction{0.f, 0.f, -1.f}; ///< unit vector

    Vec3 at(float t) const { return origin + direction * t; }
};

} // namespace drape
