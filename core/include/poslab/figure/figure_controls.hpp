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
// Files in the paper theme are printed smaller than they are drawn. 1.6 (22.4 px tick labels:
// 9.4 pt at 0.42 pt a pixel, --width 600 in a 3.5 in column) is what one-column print needs, but
// at 1.6 the views' sampling notes (linear-shift, add-vs-concat, similarity, extrapolation at
// 1200 x 800) are cut or dropped until notes wrap instead (issue 28, placement): 1 until then.
inline constexpr float kPaperPrintScale = 1.0f;
Theme forFiles(Theme theme, float fontScale);  // withFontScale by fontScale x the print scale

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
