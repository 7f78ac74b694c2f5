#version 330 core
// Copies a heatmap's colourised cells (one RGBA8 texel per cell, colourised on the CPU) onto the
// screen: nearest texel, nothing else, since on software GL every instruction is paid per pixel.
// -inf cells arrive in the figure's masked colour, or transparent where blending is on.
uniform sampler2D image;  // one texel per heatmap cell, row 0 = the top row; GL_NEAREST
in vec2 uv;
out vec4 color;
void main() {
    color = texture(image, uv);
}
