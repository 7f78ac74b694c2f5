#version 330 core
// Colourises a float value texture through a 256-entry colormap lookup table, straight onto the
// screen (or the offscreen target) inside the heatmap's rectangle.
// NaN: magenta (never silently a colour of the scale); -inf: transparent (masked cells, the
// panel's masked colour shows through); +inf: top of the scale.
uniform sampler2D values;   // R32F, one texel per heatmap cell, row 0 = the top row
uniform sampler2D lut;      // 256 x 1 RGBA8
uniform float low;
uniform float high;
uniform vec4 rect;          // the heatmap in framebuffer pixels: left, bottom, width, height
out vec4 color;
void main() {
    // The cell under this pixel's centre, computed from the pixel position alone: exact and
    // the same for every pixel of a cell (interpolated coordinates can round differently on
    // the two triangles of a quad and leave specks along its diagonal).
    vec2 fraction = (gl_FragCoord.xy - rect.xy) / rect.zw;
    ivec2 size = textureSize(values, 0);
    ivec2 cell = ivec2(floor(vec2(fraction.x, 1.0 - fraction.y) * vec2(size)));
    float v = texelFetch(values, clamp(cell, ivec2(0), size - 1), 0).r;
    if (isnan(v)) {
        color = vec4(1.0, 0.0, 1.0, 1.0);
    } else if (isinf(v) && v < 0.0) {
        color = vec4(0.0);
    } else {
        float span = high - low;
        float t = span != 0.0 ? clamp((v - low) / span, 0.0, 1.0) : 0.0;
        if (isinf(v)) t = 1.0;
        color = texelFetch(lut, ivec2(int(floor(t * 255.0 + 0.5)), 0), 0);
    }
}
