#version 330 core
// Depth only: the rasteriser writes gl_FragCoord.z into the shadow map's depth texture.
void main()
{
}
