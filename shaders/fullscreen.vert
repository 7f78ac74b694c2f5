#version 330 core
// One triangle that covers the viewport, with uv running 0..1 across it in texture-memory order,
// so the colourised target keeps the value texture's rows where they were (row 0 first).
out vec2 uv;
void main() {
    vec2 corner = vec2((gl_VertexID << 1) & 2, gl_VertexID & 2);
    uv = corner;
    gl_Position = vec4(corner * 2.0 - 1.0, 0.0, 1.0);
}
