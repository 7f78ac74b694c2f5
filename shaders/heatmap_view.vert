#version 330 core
// One triangle that covers the viewport (set to the heatmap's rectangle on screen). uv.y runs
// from the top of the rectangle down, so texel row 0 (the matrix's first row) is drawn at the
// top, as the figure's axes expect.
out vec2 uv;
void main() {
    vec2 corner = vec2((gl_VertexID << 1) & 2, gl_VertexID & 2);
    uv = vec2(corner.x, 1.0 - corner.y);
    gl_Position = vec4(corner * 2.0 - 1.0, 0.0, 1.0);
}
