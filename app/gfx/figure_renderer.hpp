// figure_renderer.hpp — replays a poslab::Figure into a Dear ImGui draw list.
//
// The same call draws the live views and the headless `poslab render` output, so the two agree.
#pragma once

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

}  // namespace poslab::gfx
