// figure_controls.hpp — the paper controls applied to a whole figure: title replaced or left out,
// legends outside or none, square plots, larger or smaller text, one panel of a multi-panel view.
// The drawing functions of plot.hpp read the controls from the Theme; this file adds what needs
// the whole figure: which title `--title` replaces, and `--panel N`.
//
// Usage, as `poslab render` and the export dialog call it:
//   Theme theme = withFontScale(paperTheme(), 1.5f);
//   theme.titleMode = TitleMode::Replace;  theme.titleText = "Figure 3";
//   theme.focusPanel = 2;
//   Result<Figure> figure = buildWithControls([&](const Theme& t) { return build(t); }, theme);
#pragma once

#include <functional>

#include "poslab/base/result.hpp"
#include "poslab/figure/figure.hpp"
#include "poslab/figure/plot.hpp"

namespace poslab {

// ---- Controls
Status checkFontScale(double scale);            // kMinFontScale..kMaxFontScale ("font_scale ...")
Theme withFontScale(Theme theme, float scale);  // scaledTheme, after checkFontScale
// Files in the paper theme are sized for print. A figure pixel is taken to print at 0.42 pt:
// `--width 600` across a 3.5 in (252 pt) column, `--width 1200` across a 7 in (504 pt) page. A
// TextItem's size is the font's line height; its em (the pt size a reader measures, the
// font-size Cairo and SVG write) is 0.859 of it (DejaVu Sans: 2048 / (1901 + 483) units).
// Text is drawn 1.6 times the screen's: tick labels and legends 22.4 px (em 19.2 px = 8.1 pt),
// titles 27.2 px (9.8 pt); nothing is below 8 pt (22.2 px): smaller notes and marker labels
// are raised to it and fitted text shrinks no further (Theme::minTextSize). Dark theme: 1.
inline constexpr float kPrintPointsPerPixel = 252.f / 600.f;
inline constexpr float kEmPerLineHeight = 2048.f / (1901.f + 483.f);  // DejaVu Sans
inline constexpr float kPrintMinTextPt = 8;
inline constexpr float kPaperPrintScale = 1.6f;
// withFontScale by fontScale x the print scale; paper: minTextSize 8 pt x fontScale.
Theme forFiles(Theme theme, float fontScale);

// ---- Building
using ThemedBuild = std::function<Result<Figure>(const Theme&)>;
// Builds the figure under theme's controls. TitleMode::Replace replaces the figure's own title
// (drawTitle) when the view draws one, else the title of its plot(s). focusPanel N > 0 keeps plot
// N alone, drawn over the whole figure with its own title and colour bar: the error "panel must be
// 1..K (got N)" names the view's plot count K (a view of one plot, or of drawings that are not
// plots, has K = 1: the whole figure). The build may run twice (to find out which title to
// replace); it must be deterministic.
Result<Figure> buildWithControls(const ThemedBuild& build, Theme theme);
// ---- Canvas fitted to the content
// `--aspect square` and `--legend outside` leave room no plot uses. The canvas keeps its width,
// and its height becomes what the content needs: the figure is built again taller when its
// content is narrower than the width (square plots limited by the height), then cut to the
// content's top and bottom with `margin` pixels to spare. Returns the figure built last.
using SizedBuild = std::function<Result<Figure>(const Theme&, float width, float height)>;
Result<Figure> buildFittedToContent(const SizedBuild& build, const Theme& theme, float width,
                                    float height, float maxHeight, float margin = 8);
// ---- Every panel (files)
// A multi-panel view whose grid would show one panel at a time on this canvas (a one-column
// `--width 600` at print sizes) shows them all (Theme::panelRoom): when the height is derived
// (`--width` alone: growHeight), the figure is built again as much taller as its grids asked for
// (up to maxHeight), more rows than columns; else its panels are squeezed into the canvas.
Result<Figure> buildWithAllPanels(const SizedBuild& build, const Theme& theme, float width,
                                  float height, bool growHeight, float maxHeight);
bool fitsCanvasToContent(const Theme& theme);  // AspectMode::Square or LegendPlacement::Outside
// The box the figure's visible items cover (text by estimate, clipped items within their clip),
// in figure pixels; an empty box at the origin when nothing is drawn.
Box contentBounds(const Figure& figure);
// The figure cut to rows [top, top + height): items moved up by top, height set.
Figure cropRows(Figure figure, float top, float height);

// The panels `--panel` numbers: Figure::viewPanels when the view numbers them, else its plots.
std::size_t panelCount(const Figure& figure);
// Only panel `index` (0-based, < figure.panels.size()) of figure: its items, the background kept.
Figure keepPanel(const Figure& figure, std::size_t index);

}  // namespace poslab
