#version 330 core
// Two-sided cloth shading: a key light (shadowed through the shadow map), a fill from the
// opposite side, hemispheric ambient and a soft rim (both darkened near contacts), tone mapped
// in lighting.glsl, with distinct front and back colours (gl_FrontFacing). Compile-time
// switches (GlProgramVariants; see lighting.glsl for the lighting's): FLAT 0 smooth shading
// (vertex normals), 1 flat (face normal from screen-space derivatives); FABRIC, the look
// drawn through the texture coordinates so the pattern follows the cloth as it moves:
// 0 none, 1 checker, 2 a procedural plain weave, 3 the user's image; STRAIN 1 draws the
// heat map (tear risk or stress) instead of the cloth's colours.
in vec3 vWorld;
in vec3 vNormal;
in vec2 vUv;
in float vStrain;

uniform vec3 uEye;
uniform vec3 uFrontColor;
uniform vec3 uBackColor;
uniform float uWeaveThreads; // threads per unit of texture space, each way
#if FABRIC == 3
uniform sampler2D uFabricImage;
#endif

out vec4 fragColor;

#include "lighting.glsl"

const vec3 kFillDir = normalize(vec3(-0.6, 0.25, -0.5));

vec3 heat(float t)
{
    // Blue (slack) -> green -> yellow -> red (at the tear strain), a perceptually ordered ramp.
    t = clamp(t, 0.0, 1.0);
    vec3 c0 = vec3(0.15, 0.30, 0.85);
    vec3 c1 = vec3(0.20, 0.75, 0.35);
    vec3 c2 = vec3(0.95, 0.85, 0.20);
    vec3 c3 = vec3(0.90, 0.15, 0.10);
    if (t < 0.33) return mix(c0, c1, t / 0.33);
    if (t < 0.66) return mix(c1, c2, (t - 0.33) / 0.33);
    return mix(c2, c3, (t - 0.66) / 0.34);
}

// A plain weave: warp threads run along v, weft threads along u, and each passes over one
// thread of the other and under the next, so the thread on top alternates from crossing to
// crossing like a checkerboard. The visible thread is rounded across its width and bulges
// over the crossing; the gaps between threads are dark. Where a thread gets narrower than
// about two pixels the pattern fades to its mean brightness instead of shimmering.
float weave(vec2 uv)
{
    vec2 t = uv * uWeaveThreads;
    vec2 f = fract(t) - 0.5;
    bool warpOnTop = mod(floor(t.x) + floor(t.y), 2.0) < 1.0;
    float across = warpOnTop ? f.x : f.y;
    float along = warpOnTop ? f.y : f.x;
    float thread = 1.0 - smoothstep(0.36, 0.48, abs(across));
    float lit = (0.62 + 0.38 * cos(across * 3.14159)) * (0.82 + 0.18 * cos(along * 3.14159));
    float value = mix(0.3, lit * (warpOnTop ? 1.0 : 0.86), thread);
    vec2 w = fwidth(t);
    return mix(value, 0.7, smoothstep(0.3, 0.6, max(w.x, w.y)));
}

vec3 fabricAlbedo(vec3 albedo)
{
#if FABRIC == 1
    vec2 cell = floor(vUv * 8.0);
    return albedo * mix(1.0, 0.62, mod(cell.x + cell.y, 2.0));
#elif FABRIC == 2
    return albedo * weave(vUv);
#elif FABRIC == 3 // image rows top down; v grows upwards
    return pow(texture(uFabricImage, vec2(vUv.x, 1.0 - vUv.y)).rgb, vec3(2.2));
#else
    return albedo;
#endif
}

void main()
{
#if FLAT == 1
    vec3 n = normalize(cross(dFdx(vWorld), dFdy(vWorld))); // derivative normals face the viewer
#else
    vec3 n = normalize(vNormal);
    if (!gl_FrontFacing)
        n = -n;
#endif
#if STRAIN == 1
    vec3 albedo = heat(vStrain);
#else
    vec3 albedo = fabricAlbedo(gl_FrontFacing ? uFrontColor : uBackColor);
#endif

    vec3 v = normalize(uEye - vWorld);
#if FLAT == 0
    if (dot(n, v) < 0.0)
        n = normalize(n - 1.01 * dot(n, v) * v); // a normal facing away (thin folds) still lit sensibly
#endif
    float shadow = keyLight(vWorld, n);
    float open = contactShade(vWorld);
    float key = max(dot(n, kKeyDir), 0.0) * shadow;
    float fill = max(dot(n, kFillDir), 0.0) * open;
    float hemi = 0.5 + 0.5 * n.y;
    vec3 ambient = mix(vec3(0.16, 0.15, 0.14), vec3(0.30, 0.32, 0.36), hemi) * open;
    vec3 h = normalize(kKeyDir + v);
    float spec = pow(max(dot(n, h), 0.0), 24.0) * 0.12 * shadow;
    float rim = pow(1.0 - max(dot(n, v), 0.0), 3.0) * 0.25 * open;
    vec3 color = albedo * (ambient + 0.85 * key + 0.25 * fill) + vec3(spec + rim * 0.6);
    fragColor = vec4(toDisplay(color), 1.0);
}
