#version 330 core
// Copies a heatmap's colourised cells (one RGBA8 texel per cell, colourised on the CPU) onto the
// screen inside the heatmap's rectangle. -inf cells arrive transparent, so the panel's masked
// colour shows through where blending is on.
uniform sampler2D image;    // one texel per heatmap cell, row 0 = the top row
uniform vec4 rect;          // the heatmap in framebuffer pixels: left, bottom, width, height
out vec4 color;
void main() {
    // The cell under this pixel's centre, computed from the pixel position alone: exact and
    // the same for every pixel of a cell (interpolated coordinates can round differently on
    // the two triangles of a quad and leave specks along its diagonal).
    vec2 fraction = (gl_FragCoord.xy - rect.xy) / rect.zw;
    ivec2 size = textureSize(image, 0);
    ivec2 cell = ivec2(floor(vec2(fraction.x, 1.0 - fraction.y) * vec2(size)));
    color = texelFetch(image, clamp(cell, ivec2(0), size - 1), 0);
}
