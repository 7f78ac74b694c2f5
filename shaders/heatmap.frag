#version 330 core
// Colourises a float value texture through a 256-entry colormap lookup table, straight onto the
// screen (or the offscreen target) inside the heatmap's rectangle.
// NaN: magenta (never silently a colour of the scale); -inf: transparent (masked cells, the
// panel's masked colour shows through); +inf: top of the scale.
uniform sampler2D values;   // R32F, one texel per heatmap cell
uniform sampler2D lut;      // 256 x 1 RGBA8
uniform float low;
uniform float high;
in vec2 uv;
out vec4 color;
void main() {
    float v = texture(values, uv).r;
    if (isnan(v)) {
        color = vec4(1.0, 0.0, 1.0, 1.0);
    } else if (isinf(v) && v < 0.0) {
        color = vec4(0.0);
    } else {
        float span = high - low;
        float t = span != 0.0 ? clamp((v - low) / span, 0.0, 1.0) : 0.0;
        if (isinf(v)) t = 1.0;
        color = texture(lut, vec2((floor(t * 255.0 + 0.5) + 0.5) / 256.0, 0.5));
    }
}
