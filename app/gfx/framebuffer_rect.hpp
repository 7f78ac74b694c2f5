// framebuffer_rect.hpp — screen rectangles of the ImGui frame being rendered, in the framebuffer
// pixels glViewport and glScissor take. For draw callbacks (scissored clears, heatmaps).
#pragma once

#include <array>

namespace poslab::gfx {

struct FramebufferRect {
    long x = 0, y = 0;           // bottom-left corner, GL's origin
    long width = 0, height = 0;  // <= 0: nothing to draw
    bool empty() const { return width <= 0 || height <= 0; }
};

// [left, right) x [top, bottom) in ImGui screen coordinates, mapped as the OpenGL backend maps
// its clip rectangles; edges round to the nearest pixel, so the rectangle holds the pixels whose
// centres lie inside (the ones a filled rectangle covers). Call inside RenderDrawData only.
FramebufferRect framebufferRect(float left, float top, float right, float bottom);
FramebufferRect intersect(const FramebufferRect& a, const FramebufferRect& b);
// `whole` without `hole`: up to four non-overlapping rectangles (bands below and above the
// hole, then its left and right), empty ones included. `hole` must lie inside `whole`.
std::array<FramebufferRect, 4> subtract(const FramebufferRect& whole, const FramebufferRect& hole);

}  // namespace poslab::gfx
