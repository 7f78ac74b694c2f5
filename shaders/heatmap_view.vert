#version 330 core
// One triangle that covers the viewport, which is set to the heatmap's rectangle on screen, with
// texture coordinates running 0..1 across it (row 0 of the texture at the top). u depends on x
// alone and v on y alone, so every pixel of a column (row) samples the same texel column (row):
// no seam where two triangles would interpolate differently. An interpolated coordinate costs
// software GL (llvmpipe) far less per pixel than one computed from gl_FragCoord.
out vec2 uv;
void main() {
    vec2 corner = vec2((gl_VertexID << 1) & 2, gl_VertexID & 2);  // (0,0), (2,0), (0,2)
    uv = corner;
    gl_Position = vec4(corner.x * 2.0 - 1.0, 1.0 - corner.y * 2.0, 0.0, 1.0);
}
