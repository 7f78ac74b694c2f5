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

// ---- Building
using ThemedBuild = std::function<Result<Figure>(const Theme&)>;
// Builds the figure under theme's controls. TitleMode::Replace replaces the figure's own title
// (drawTitle) when the view draws one, else the title of its plot(s). focusPanel N > 0 keeps plot
// N alone, drawn over the whole figure with its own title and colour bar: the error "panel must be
// 1..K (got N)" names the view's plot count K (a view of one plot, or of drawings that are not
// plots, has K = 1: the whole figure). The build may run twice (to find out which title to
// replace); it must be deterministic.
Result<Figure> buildWithControls(const ThemedBuild& build, Theme theme);
// Only panel `index` (0-based, < figure.panels.size()) of figure: its items, the background kept.
Figure keepPanel(const Figure& figure, std::size_t index);

}  // namespace poslab
