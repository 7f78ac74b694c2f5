// figure_background.hpp — where drawFigure paints a figure's background: everywhere except under
// the largest item drawn later that repaints its whole visible part opaquely (an opaque heatmap,
// or an opaque rectangle large enough to become a clear). On software GL every pixel written
// costs, and a heatmap covers most of its figure.
//
// Screen geometry only (no GL, no ImGui context), so that tests can check the hole and the strips
// around it pixel by pixel.
#pragma once

#include <imgui.h>

#include <algorithm>
#include <array>
#include <functional>

#include "poslab/figure/figure.hpp"

namespace poslab::gfx {

// [min, max) in screen coordinates; empty when max <= min on either axis.
struct ScreenRect {
    ImVec2 min, max;
    float area() const {
        return max.x > min.x && max.y > min.y ? (max.x - min.x) * (max.y - min.y) : 0.0f;
    }
    ScreenRect cut(const ScreenRect& clip) const {  // no clamping: may come out inverted
        return {ImVec2(std::max(min.x, clip.min.x), std::max(min.y, clip.min.y)),
                ImVec2(std::min(max.x, clip.max.x), std::min(max.y, clip.max.y))};
    }
};

// An opaque fill at least this large (screen pixels squared) is drawn as a scissored clear.
inline constexpr float kClearArea = 64 * 64;

struct BackgroundClears {
    ScreenRect hole;                   // left unpainted; area 0: paint the whole figure
    std::array<ScreenRect, 4> strips;  // the rest of `whole` (bands above and below, then the
                                       // hole's left and right); those of area 0 are not drawn
};

// The figure's background clears for a figure whose (0, 0) is at `origin` on screen, `scale`
// screen pixels per figure pixel, and whose rectangle is `whole` once cut to the clip rectangle
// it is drawn in (as Dear ImGui cut it). The hole is the largest part of an item that covers it
// in full, cut to the clip rectangles the item is drawn in, as PushClipRect(..., true) cuts them;
// the strips' edges are the hole's and whole's own coordinates, so rounded to pixels alike they
// meet it exactly. `drawsOpaque` tells whether a heatmap paints every pixel it shows (no
// transparent masked cells). Only for an opaque background (alpha 255).
BackgroundClears backgroundClears(const Figure& figure, Point origin, float scale, ScreenRect whole,
                                  const std::function<bool(const HeatmapItem&)>& drawsOpaque);

}  // namespace poslab::gfx
