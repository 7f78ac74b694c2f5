#version 330 core
// One triangle that covers the viewport, which is set to the heatmap's rectangle on screen.
// heatmap.frag finds its cell from gl_FragCoord, so no interpolated coordinate is needed.
void main() {
    vec2 corner = vec2((gl_VertexID << 1) & 2, gl_VertexID & 2);
    gl_Position = vec4(corner * 2.0 - 1.0, 0.0, 1.0);
}
