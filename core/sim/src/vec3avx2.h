// Eight Vec3s as x, y and z lanes of AVX2 registers, with base/vec3.h's arithmetic spelled
// the same way (dot left to right, the same cross), so that a kernel built on them and on
// -ffp-contract=off (core/CMakeLists.txt) gets the scalar code's bits lane by lane. Internal
// to the core's AVX2 kernels (bendingavx2.cpp, windavx2.cpp).
#pragma once

#include "base/vec3.h"

#include <immintrin.h>

namespace drape::detail::lanes8 {

#define DRAPE_LANES8_INLINE __attribute__((target("avx2"), always_inline)) inline

struct V3 {
    __m256 x, y, z;
};

/// The Vec3s at float offsets index3 (3 × the particle index) of `base`.
DRAPE_LANES8_INLINE V3 gather(const Vec3 *base, __m256i index3)
{
    const float *f = reinterpret_cast<const float *>(base);
    return { _mm256_i32gather_ps(f, index3, 4), _mm256_i32gather_ps(f + 1, index3, 4),
        _mm256_i32gather_ps(f + 2, index3, 4) };
}

DRAPE_LANES8_INLINE V3 sub(const V3 &a, const V3 &b)
{
    return { _mm256_sub_ps(a.x, b.x), _mm256_sub_ps(a.y, b.y), _mm256_sub_ps(a.z, b.z) };
}

DRAPE_LANES8_INLINE V3 add(const V3 &a, const V3 &b)
{
    return { _mm256_add_ps(a.x, b.x), _mm256_add_ps(a.y, b.y), _mm256_add_ps(a.z, b.z) };
}

/// a * s (Vec3::operator*).
DRAPE_LANES8_INLINE V3 scale(const V3 &a, __m256 s)
{
    return { _mm256_mul_ps(a.x, s), _mm256_mul_ps(a.y, s), _mm256_mul_ps(a.z, s) };
}

/// a / s (Vec3::operator/: three divisions).
DRAPE_LANES8_INLINE V3 divide(const V3 &a, __m256 s)
{
    return { _mm256_div_ps(a.x, s), _mm256_div_ps(a.y, s), _mm256_div_ps(a.z, s) };
}

DRAPE_LANES8_INLINE V3 negate(const V3 &a)
{
    const __m256 sign = _mm256_set1_ps(-0.f);
    return { _mm256_xor_ps(a.x, sign), _mm256_xor_ps(a.y, sign), _mm256_xor_ps(a.z, sign) };
}

/// b where `mask` is set, a elsewhere.
DRAPE_LANES8_INLINE V3 select(const V3 &a, const V3 &b, __m256 mask)
{
    return { _mm256_blendv_ps(a.x, b.x, mask), _mm256_blendv_ps(a.y, b.y, mask),
        _mm256_blendv_ps(a.z, b.z, mask) };
}

/// dot(a, b) = a.x b.x + a.y b.y + a.z b.z, left to right.
DRAPE_LANES8_INLINE __m256 dot(const V3 &a, const V3 &b)
{
    return _mm256_add_ps(
        _mm256_add_ps(_mm256_mul_ps(a.x, b.x), _mm256_mul_ps(a.y, b.y)), _mm256_mul_ps(a.z, b.z));
}

DRAPE_LANES8_INLINE V3 cross(const V3 &a, const V3 &b)
{
    return { _mm256_sub_ps(_mm256_mul_ps(a.y, b.z), _mm256_mul_ps(a.z, b.y)),
        _mm256_sub_ps(_mm256_mul_ps(a.z, b.x), _mm256_mul_ps(a.x, b.z)),
        _mm256_sub_ps(_mm256_mul_ps(a.x, b.y), _mm256_mul_ps(a.y, b.x)) };
}

} // namespace drape::detail::lanes8
