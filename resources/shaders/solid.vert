#version 330 core
// Colliders and the ground: a unit mesh placed by a model matrix.
layout(location = 0) in vec3 aPosition;
layout(location = 1) in vec3 aNormal;

uniform mat4 uViewProjection;
uniform mat4 uModel;

out vec3 vWorld;
out vec3 vNormal;

void main()
{
    vec4 world = uModel * vec4(aPosition, 1.0);
    vWorld = world.xyz;
    vNormal = mat3(uModel) * aNormal; // models are scale + translation only, no shear
    gl_Position = uViewProjection * world;
}
