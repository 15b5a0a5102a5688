#version 330 core
// Colliders and the ground: key light with the shadow map's shadows, hemispheric ambient.
in vec3 vWorld;
in vec3 vNormal;

uniform vec3 uEye;
uniform vec4 uColor;

out vec4 fragColor;

#include "lighting.glsl"

void main()
{
    vec3 n = normalize(vNormal);
    if (!gl_FrontFacing)
        n = -n;
    vec3 v = normalize(uEye - vWorld);
    float shadow = keyLight(vWorld, n);
    float key = max(dot(n, kKeyDir), 0.0) * shadow;
    float hemi = 0.5 + 0.5 * n.y;
    vec3 h = normalize(kKeyDir + v);
    float spec = pow(max(dot(n, h), 0.0), 32.0) * 0.15 * shadow;
    vec3 color = uColor.rgb * (0.25 + 0.15 * hemi + 0.7 * key) + vec3(spec);
    fragColor = vec4(toDisplay(color), uColor.a);
}
