// plot.hpp — everything a view draws a figure with: include this one header.
//
// Index (each header's own comments say more):
//   theme.hpp         Theme, darkTheme/paperTheme, scaledTheme, the paper controls, series colours
//   text_fit.hpp      estimateTextWidth, fitText, wrapText, titleBreak: text made to fit its room
//   ticks.hpp         linearTicks, logTicks, piTicks and their labels
//   axes.hpp          AxisSpec, PlotFrame (data <-> pixels), Marker
//   heatmap_plot.hpp  HeatmapSpec, drawHeatmap (cells, axes, markers, colour bar)
//   line_plot.hpp     LineSeries, LinePlotSpec, drawLinePlot
//   legend.hpp        LegendKey, drawLegendAfter, drawNoteLines: placed where they hide no data
//   titles.hpp        drawTitle, titleBandHeight, panelTitle
//   colorbar.hpp      the one colour bar, also on its own (not included here)
//   below             whole figures: emptyFigure, notes, figureOrNote
//
// Usage, in the order a view makes the calls:
//   HeatmapSpec spec;                       // title, axes in data units, values, colormap, range
//   PlotFrame frame;                        // receives the plot area, for hover and markers
//   drawHeatmap(figure, area, spec, theme, &frame);
//   auto [x, y] = frame.toData(mouse);      // which cell is under the mouse
// A view that shows several plots (a grid of heads, small multiples) calls draw* once per area.
#pragma once

#include <string>

#include "poslab/base/format.hpp"  // formatValue, for tick labels
#include "poslab/base/result.hpp"
#include "poslab/figure/axes.hpp"
#include "poslab/figure/figure.hpp"
#include "poslab/figure/heatmap_plot.hpp"
#include "poslab/figure/legend.hpp"
#include "poslab/figure/line_plot.hpp"
#include "poslab/figure/text_fit.hpp"
#include "poslab/figure/theme.hpp"
#include "poslab/figure/ticks.hpp"  // Tick, linearTicks, logTicks, piTicks, tickCountFor
#include "poslab/figure/titles.hpp"

namespace poslab {

// ---- Whole figures
Figure emptyFigure(float width, float height, const Theme& theme);
void drawNote(Figure& figure, Box area, const std::string& text,
              const Theme& theme);  // centred message
// A small muted note ("each pixel: mean of 4x4 cells") at the bottom right of a plot's area, on
// the x-axis label's line; too long, wrapped onto lines stacked up from there (under the plot,
// or beside it clear of a colour bar; else left of the label), and only when no wrapping fits
// shrunk, then cut with "…"; left out when less than a few characters fit. frame: the plot
// drawn in area (null: no label to avoid).
void drawCornerNote(Figure& figure, Box area, const PlotFrame* frame, const std::string& text,
                    const Theme& theme);
// The figure itself, or an empty figure of that size that shows why it could not be made.
Figure figureOrNote(Result<Figure> figure, float width, float height, const Theme& theme);

}  // namespace poslab
