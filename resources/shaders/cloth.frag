#version 330 core
// Two-sided cloth shading: a key light (shadowed through the shadow map), a fill from the
// opposite side, hemispheric ambient and a soft rim (both darkened near contacts), tone mapped
// in lighting.glsl, with distinct front and back colours (gl_FrontFacing). Shading modes:
// 0 smooth (vertex normals), 1 flat (face normal from screen-space derivatives), 2 checker
// (procedural squares from the rest position, so the pattern follows the cloth as it moves).
in vec3 vWorld;
in vec3 vNormal;
in vec3 vRest;
in float vStrain;

uniform vec3 uEye;
uniform vec3 uFrontColor;
uniform vec3 uBackColor;
uniform int uShading;
uniform float uCheckerSize;  // m
uniform bool uShowStrain;

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

void main()
{
    vec3 n = normalize(vNormal);
    if (uShading == 1)
        n = normalize(cross(dFdx(vWorld), dFdy(vWorld)));
    else if (!gl_FrontFacing)
        n = -n; // derivative normals already face the viewer
    vec3 albedo = gl_FrontFacing ? uFrontColor : uBackColor;
    if (uShading == 2) {
        vec3 cell = floor(vRest / uCheckerSize + 0.5);
        float parity = mod(cell.x + cell.y + cell.z, 2.0);
        albedo *= mix(1.0, 0.62, parity);
    }
    if (uShowStrain)
        albedo = heat(vStrain);

    vec3 v = normalize(uEye - vWorld);
    if (dot(n, v) < 0.0 && uShading != 1)
        n = normalize(n - 1.01 * dot(n, v) * v); // a normal facing away (thin folds) still lit sensibly
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
