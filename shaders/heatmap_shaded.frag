#version 330 core
// heatmap.frag for the part of a heatmap under a translucent shade (e.g. beyond the training
// length): the shade's source-over blend, rgb * (1 - alpha) + shade * alpha, done in this pass
// instead of a blended rectangle drawn over it.
uniform sampler2D image;  // one texel per heatmap cell, row 0 = the top row; GL_NEAREST
uniform float keep;       // 1 - alpha
uniform vec3 add;         // shade colour * alpha
in vec2 uv;
out vec4 color;
void main() {
    vec4 texel = texture(image, uv);
    color = vec4(texel.rgb * keep + add, texel.a);
}
