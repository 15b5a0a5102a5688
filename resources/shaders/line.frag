#version 330 core
in vec4 vColor;

uniform bool uRoundPoints;

out vec4 fragColor;

void main()
{
    if (uRoundPoints) {
        vec2 d = gl_PointCoord * 2.0 - 1.0;
        float r2 = dot(d, d);
        if (r2 > 1.0)
            discard;
        // A dark outline keeps points readable on any cloth colour.
        fragColor = r2 > 0.55 ? vec4(0.05, 0.05, 0.05, vColor.a) : vColor;
        return;
    }
    fragColor = vColor;
}
