// A bending patch (sim/bending.h) linearised at the current positions: the constraint
// C = (S_uu, S_vv, √2 S_uv) (1/m) and its gradient per particle slot. Internal to the core.
#pragma once

#include "sim/bending.h"

namespace drape::bendpatch {

struct Linearised {
    float c[3] = { 0.f, 0.f, 0.f }; ///< 1/m
    Vec3 grad[3][6] = {}; ///< ∂C_k/∂x_slot, 1/m²
};

inline float wrapAngle(float a)
{
    constexpr float pi = 3.14159265358979f;
    while (a > pi)
        a -= 2.f * pi;
    while (a <= -pi)
        a += 2.f * pi;
    return a;
}

/// Fills `out` for `patch` at the slot positions x[0..count) (any common origin).
/// C_k = Σ_i coeff[k][i] (θ_i − θ̄_i), ∇C_k = Σ_i coeff[k][i] ∇θ_i; a degenerate hinge adds nothing.
inline void linearise(const BendModel &model, const BendPatch &patch, const Vec3 *x, Linearised &out)
{
    out = {};
    for (int i = 0; i < 3; ++i) {
        if (patch.hinge[i] == kNoHinge)
            continue;
        const BendHinge &h = model.hinges[patch.hinge[i]];
        const std::uint8_t *slot = patch.slot[i];
        float angle = 0.f;
        Vec3 g[4];
        if (!bendAngle(x[slot[0]], x[slot[1]], x[slot[2]], x[slot[3]], angle, g))
            continue;
        const float d = wrapAngle(angle - h.restAngle);
        for (int k = 0; k < 3; ++k) {
            const float a = patch.coeff[k][i];
            out.c[k] += a * d;
            for (int c = 0; c < 4; ++c)
                out.grad[k][slot[c]] += g[c] * a;
        }
    }
}

} // namespace drape::bendpatch
