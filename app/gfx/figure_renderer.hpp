// figure_renderer.hpp — replays a poslab::Figure into a Dear ImGui draw list.
//
// The same call draws the live views and the headless `poslab render` output, so the two agree.
#pragma once

#include <vector>

#include "poslab/figure/figure.hpp"

struct ImDrawList;

namespace poslab::gfx {

class FontSet;
class HeatmapTextures;
class FigureLayers;
class DotSprites;

struct FigureTarget {
    ImDrawList* drawList = nullptr;
    Point origin;        // screen position of the figure's (0, 0)
    float scale = 1.0f;  // figure pixels to screen pixels (HiDPI, export scale)
    const FontSet* fonts = nullptr;
    HeatmapTextures* heatmaps = nullptr;
    FigureLayers* layers = nullptr;  // set: an unchanged figure is copied (figure_layers.hpp)
    DotSprites* dots = nullptr;      // set: small filled circles are sprites (dot_sprites.hpp)
};

void drawFigure(const FigureTarget& target, const Figure& figure);

// ---- Where each item may change pixels (figure_layers.cpp splits a moving figure by these).
// [x0, x1) x [y0, y1) in screen pixels; empty when x1 <= x0 or y1 <= y0.
struct ItemBox {
    float x0 = 0, y0 = 0, x1 = 0, y1 = 0;
    bool empty() const { return !(x1 > x0 && y1 > y0); }
    bool overlaps(const ItemBox& o) const {
        return !empty() && !o.empty() && x0 < o.x1 && o.x0 < x1 && y0 < o.y1 && o.y0 < y1;
    }
};
// For each item of `figure` drawn at `target` (into target.drawList's current clip rectangle):
// a box holding every pixel its drawing may touch, cut to the clip rectangle it is drawn in.
// Generous, never short: triangles with their anti-aliased fringe, Dear ImGui's mitred joins
// (up to ten half-widths), glyphs past their advance, a slant, raised and lowered runs. Clip items
// get an empty box (they touch no pixel).
std::vector<ItemBox> itemFootprints(const FigureTarget& target, const Figure& figure);

}  // namespace poslab::gfx
