#version 330 core
in vec3 vWorld;
in vec3 vNormal;

uniform vec3 uEye;
uniform vec4 uColor;

out vec4 fragColor;

const vec3 kKeyDir = normalize(vec3(0.45, 0.8, 0.55));

void main()
{
    vec3 n = normalize(vNormal);
    if (!gl_FrontFacing)
        n = -n;
    vec3 v = normalize(uEye - vWorld);
    float key = max(dot(n, kKeyDir), 0.0);
    float hemi = 0.5 + 0.5 * n.y;
    vec3 h = normalize(kKeyDir + v);
    float spec = pow(max(dot(n, h), 0.0), 32.0) * 0.15;
    vec3 color = uColor.rgb * (0.25 + 0.15 * hemi + 0.7 * key) + vec3(spec);
    fragColor = vec4(pow(color, vec3(1.0 / 2.2)), uColor.a);
}
