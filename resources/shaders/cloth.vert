#version 330 core
// Cloth surface: world-space position and normal per particle, texture coordinates for the
// fabric looks (render/renderdata.h, computeClothUvs), and a per-vertex strain ratio for the
// tear-risk heat map.
layout(location = 0) in vec3 aPosition;
layout(location = 1) in vec3 aNormal;
layout(location = 2) in vec2 aUv;
layout(location = 3) in float aStrain;

uniform mat4 uViewProjection;

out vec3 vWorld;
out vec3 vNormal;
out vec2 vUv;
out float vStrain;

void main()
{
    vWorld = aPosition;
    vNormal = aNormal;
    vUv = aUv;
    vStrain = aStrain;
    gl_Position = uViewProjection * vec4(aPosition, 1.0);
}
