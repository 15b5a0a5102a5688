// Shared by cloth.frag and solid.frag (pulled in by GlProgram's #include): the key light's
// shadow, contact darkening and the tone curve.

const vec3 kKeyDir = normalize(vec3(0.45, 0.8, 0.55));

// Compile-time switches (GlProgramVariants; a software renderer would run a branch on a
// uniform whichever way it goes): SHADOW_FILTER 0 = no shadow map, 1 = one filtered lookup,
// 3 = 3 × 3 filtered lookups; CONTACT 0 or 1 = contact darkening off or on.

#if SHADOW_FILTER > 0
uniform sampler2DShadow uShadowMap; // depth from the key light, compared in hardware
uniform mat4 uLightViewProjection;
uniform float uShadowTexel;         // 1 / shadow map size
uniform float uShadowBias;          // depth units, against acne on the lit surface
#endif

// Fraction of the key light reaching `world` (1 = lit): 3 × 3 percentage-closer filtering
// (Reeves, Salesin & Cook 1987) for soft edges. The lookup point is pushed a little along the
// normal so a surface does not shadow itself.
float keyLight(vec3 world, vec3 n)
{
#if SHADOW_FILTER == 0
    return 1.0;
#else
    vec3 p = (uLightViewProjection * vec4(world + n * 0.006, 1.0)).xyz * 0.5 + 0.5;
    if (p.x <= 0.0 || p.y <= 0.0 || p.x >= 1.0 || p.y >= 1.0 || p.z >= 1.0)
        return 1.0;
#if SHADOW_FILTER == 1
    // One lookup: the linear filter's 2 × 2 comparison still softens the edge.
    return texture(uShadowMap, vec3(p.xy, p.z - uShadowBias));
#else
    float lit = 0.0;
    for (int y = -1; y <= 1; ++y)
        for (int x = -1; x <= 1; ++x)
            lit += texture(uShadowMap, vec3(p.xy + vec2(x, y) * uShadowTexel * 1.5, p.z - uShadowBias));
    return lit / 9.0;
#endif
#endif
}

// Contact darkening: ambient light is blocked near a collider's surface and near the ground,
// falling off as exp(-distance / 3 cm), a cheap stand-in for ambient occlusion.
uniform int uSphereCount;
uniform vec4 uSpheres[8]; // centre (m), radius (m)
uniform float uGroundY;   // m; far below the scene when there is no ground

float contactShade(vec3 world)
{
#if CONTACT == 0
    return 1.0;
#else
    float open = 1.0;
    for (int i = 0; i < uSphereCount; ++i) {
        float d = max(length(world - uSpheres[i].xyz) - uSpheres[i].w, 0.0);
        open *= 1.0 - 0.55 * exp(-d / 0.03);
    }
    open *= 1.0 - 0.45 * exp(-max(world.y - uGroundY, 0.0) / 0.03);
    return open;
#endif
}

// Linear light to display: an exposure of 1.25 and Reinhard's extended operator on luminance
// (Reinhard et al. 2002, eq. 4, white point 2.2), which keeps the hue and rolls highlights
// off smoothly so a white cloth under the key light keeps its folds instead of clipping;
// then the display's gamma of 2.2.
vec3 toDisplay(vec3 color)
{
    color *= 1.25;
    float l = dot(color, vec3(0.2126, 0.7152, 0.0722));
    const float white = 2.2;
    float mapped = l * (1.0 + l / (white * white)) / (1.0 + l);
    color *= l > 1e-5 ? mapped / l : 1.0;
    return pow(clamp(color, 0.0, 1.0), vec3(1.0 / 2.2));
}
