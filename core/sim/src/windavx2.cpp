// The wind on a cloth's triangles (forces.cpp, addWindForces) eight triangles at a time in
// AVX2: the force of each triangle with the scalar loop's IEEE operations in the same order
// (this file is compiled with -ffp-contract=off, core/CMakeLists.txt), then added to its
// corners lane by lane in the triangles' order, so that every particle sums its shares in
// the same order and the forces keep their bits (tests/tst_wind.cpp compares them).
#include "forces.h"
#include "vec3avx2.h"

#include <immintrin.h>

#include <cstddef>
#include <cstdint>

namespace drape::detail {

using namespace lanes8;

__attribute__((target("avx2"))) std::size_t addWindForcesAvx2(const Triangle *triangles, std::size_t count,
    const Vec3 *position, const Vec3 *velocity, Vec3 *force, const WindFactors &k)
{
    static_assert(sizeof(Triangle) == 12, "the gathers read three indices per triangle");
    const __m256i stride = _mm256_setr_epi32(0, 3, 6, 9, 12, 15, 18, 21);
    const __m256i three = _mm256_set1_epi32(3);
    const V3 wind { _mm256_set1_ps(k.wind.x), _mm256_set1_ps(k.wind.y), _mm256_set1_ps(k.wind.z) };
    const __m256 third = _mm256_set1_ps(1.f / 3.f);
    std::size_t t = 0;
    for (; t + 8 <= count; t += 8) {
        const int *corners = reinterpret_cast<const int *>(triangles + t);
        const __m256i a = _mm256_i32gather_epi32(corners, stride, 4);
        const __m256i b = _mm256_i32gather_epi32(corners + 1, stride, 4);
        const __m256i c = _mm256_i32gather_epi32(corners + 2, stride, 4);
        const __m256i a3 = _mm256_mullo_epi32(a, three), b3 = _mm256_mullo_epi32(b, three),
                      c3 = _mm256_mullo_epi32(c, three);
        const V3 pa = gather(position, a3);
        const V3 areaNormal = cross(sub(gather(position, b3), pa), sub(gather(position, c3), pa)); // 2A n
        const __m256 twiceArea = _mm256_sqrt_ps(dot(areaNormal, areaNormal));
        // The scalar loop skips a triangle when twiceArea < 1e-12 or speed < 1e-9 (NaN goes on).
        __m256 live = _mm256_cmp_ps(twiceArea, _mm256_set1_ps(1e-12f), _CMP_NLT_UQ);
        const V3 n = divide(areaNormal, twiceArea);
        const __m256 area = _mm256_mul_ps(_mm256_set1_ps(0.5f), twiceArea);
        const V3 vTri
            = scale(add(add(gather(velocity, a3), gather(velocity, b3)), gather(velocity, c3)), third);
        const V3 vRel = sub(wind, vTri);
        const __m256 speed = _mm256_sqrt_ps(dot(vRel, vRel));
        live = _mm256_and_ps(live, _mm256_cmp_ps(speed, _mm256_set1_ps(1e-9f), _CMP_NLT_UQ));
        const int lanes = _mm256_movemask_ps(live);
        if (!lanes)
            continue;
        const __m256 vn = dot(vRel, n);
        V3 f = scale(
            n, _mm256_mul_ps(_mm256_mul_ps(_mm256_mul_ps(_mm256_set1_ps(k.halfRhoDrag), area), vn), speed));
        if (k.lift) {
            const V3 vHat = divide(vRel, speed);
            const __m256 downstream = _mm256_cmp_ps(vn, _mm256_setzero_ps(), _CMP_GE_OQ);
            const V3 nFlow = select(negate(n), n, downstream);
            const __m256 cosT = dot(nFlow, vHat);
            const V3 across = sub(nFlow, scale(vHat, cosT));
            const __m256 sinT = _mm256_sqrt_ps(dot(across, across));
            const __m256 lifts = _mm256_cmp_ps(sinT, _mm256_set1_ps(1e-6f), _CMP_GT_OQ);
            const __m256 liftScale = _mm256_mul_ps(
                _mm256_mul_ps(
                    _mm256_mul_ps(_mm256_mul_ps(_mm256_set1_ps(k.halfRhoLift), area), speed), speed),
                cosT);
            const V3 lifted = add(f, scale(across, liftScale));
            f = select(f, lifted, lifts);
        }
        const V3 share = scale(f, third);
        alignas(32) float sx[8], sy[8], sz[8];
        _mm256_store_ps(sx, share.x);
        _mm256_store_ps(sy, share.y);
        _mm256_store_ps(sz, share.z);
        for (int lane = 0; lane < 8; ++lane) {
            if (!(lanes & (1 << lane)))
                continue;
            const Vec3 s(sx[lane], sy[lane], sz[lane]);
            const Triangle &tri = triangles[t + std::size_t(lane)];
            force[tri.v[0]] += s;
            force[tri.v[1]] += s;
            force[tri.v[2]] += s;
        }
    }
    return t;
}

} // namespace drape::detail
