// titles.hpp — a figure's title and its plots' titles, as the theme's TitleMode says (the view's,
// replaced by Theme::titleText, or hidden, giving the room back to the panels).
#pragma once

#include <string>

#include "poslab/figure/figure.hpp"
#include "poslab/figure/theme.hpp"

namespace poslab {

// ---- Titles
// A figure's title, as the theme's TitleMode says (replaced, or left out). Returns the lines
// drawn: 0 when left out, 2 when too long for one line even shrunk (a narrow window, a print).
int drawTitle(Figure& figure, Box area, const std::string& title, const Theme& theme);
// The height of the band a figure keeps above its panels for drawTitle: lines * titleSize, or 0
// when the theme hides the title (TitleMode::Hidden gives the room back to the panels).
float titleBandHeight(const Theme& theme, float lines = 1.8f);
// The band for this title over a figure `width` wide: one more line (1.15 title sizes) when one
// line would shrink it below 85 % and two lines fit at full size, which drawTitle then draws;
// not in a figure under 15 title sizes high (under a lesson card), whose panels need the line.
float titleBandHeight(const Theme& theme, const std::string& title, float width,
                      float height = 1e9f);
// A figure title at the top of `area`, in the band titleBandHeight(theme, title, area.width,
// area.height) keeps for it: wrapped onto two or three lines where one line would shrink it
// (views that kept a one-line band shrank a long title instead, #28). Returns the area below the
// band, where the view lays out its panels.
Box drawTitleBand(Figure& figure, Box area, const std::string& title, const Theme& theme);
// The area drawTitleBand leaves below the band, without drawing: what the GUI's panel selector
// lays the same panels out in.
Box belowTitleBand(Box area, const std::string& title, const Theme& theme);
// The title a plot (drawHeatmap, drawLinePlot) draws for spec.title under the theme's TitleMode:
// the same, theme.titleText (when Replace targets panel titles), or "" (Hidden).
std::string panelTitle(const std::string& title, const Theme& theme);

}  // namespace poslab
