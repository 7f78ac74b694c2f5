// frequency_resolution_figures.hpp — why many frequencies: the distances between positions for
// the standard table and for one where every pair shares one frequency. Part of the Intuition
// view (intuition_figures.hpp).
#pragma once

#include "poslab/analysis/frequency_resolution.hpp"
#include "poslab/base/result.hpp"
#include "poslab/figure/panel_grid.hpp"
#include "poslab/figure/plot.hpp"

namespace poslab {

// Two plots (distances between positions; one pair on its own), one above the other while each
// has room (kFrequencyResolutionPanels: a projector's presentation fonts do not leave it), else
// `panel` alone. coarse: the distance curves' envelopes at a quarter of the pixel columns, for
// the frames while a slider moves (the one-frequency curve's dense band is a stroke per column
// from bottom to top, most of a frame's rasterising on software GL).
inline constexpr PanelShape kFrequencyResolutionPanels{2, 1, 24, 11, 8};
void drawFrequencyResolution(Figure& figure, Box area, const FrequencyResolution& resolution,
                             const FrequencyResolutionParams& params, const Theme& theme,
                             int panel = 0, bool coarse = false);
// Where drawFrequencyResolution puts its panels in `area` (the GUI's selector).
PanelGrid frequencyResolutionPanels(Box area, const Theme& theme, int panel = 0);
// The panels of frequencyResolutionFigure(width, height): below its title's band.
PanelGrid frequencyResolutionFigurePanels(float width, float height, const Theme& theme,
                                          int panel = 0);
Result<Figure> frequencyResolutionFigure(const FrequencyResolutionParams& params, float width,
                                         float height, const Theme& theme, int panel = 0);

}  // namespace poslab
