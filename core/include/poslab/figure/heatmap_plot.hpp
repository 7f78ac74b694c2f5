// heatmap_plot.hpp — a matrix drawn as cells with its axes, markers and colour bar.
//
// Usage:
//   HeatmapSpec spec;                       // title, axes in data units, values, colormap, range
//   PlotFrame frame;                        // receives the plot area, for hover and markers
//   drawHeatmap(figure, area, spec, theme, &frame);
//   auto [x, y] = frame.toData(mouse);      // which cell is under the mouse
//   HeatmapPlacement p = measureHeatmap(area, spec, theme);   // the same boxes, nothing drawn
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "poslab/base/matrix.hpp"
#include "poslab/figure/axes.hpp"
#include "poslab/figure/colormap.hpp"
#include "poslab/figure/figure.hpp"
#include "poslab/figure/theme.hpp"
#include "poslab/figure/ticks.hpp"

namespace poslab {

// ---- Heatmaps
struct HeatmapSpec {
    std::string title;
    AxisSpec x{"dimension", 0, 1, false, true};
    AxisSpec y{"position", 0, 1, false, true};
    std::shared_ptr<const Matrix> values;  // starts at (x.low, y.low); see the spans below
    double valuesColSpan = 0;              // data units the matrix columns cover (0: x.high-x.low)
    double valuesRowSpan = 0;              // data units the matrix rows cover (0: y.high-y.low)
    std::uint64_t version = 0;             // see HeatmapItem::version
    ColormapId colormap = ColormapId::Viridis;
    ValueRange range;
    std::string colorbarLabel;
    // The caption across the top of the bar, in the title's row, instead of rotated along it:
    // for maps in small cells (the Relative family), where a column of text beside each bar took
    // a quarter of every map. Not with labelled horizontal markers (their keys go above).
    bool colorbarLabelAbove = false;
    bool showColorbar = true;
    BarTicks barTicks = BarTicks::Numbers;  // Angles: multiples of π; Integers: whole values
    bool squareCells = false;            // cells as wide as tall (L x L matrices)
    float maxSquareSide = 0;             // squareCells: the plot's longer side at most (0: any)
    float plotTopAtLeast = 0;            // the plot this far below the area's top at least: maps
                                         // side by side start level though their titles differ
    bool titleWrapsAtFullSize = false;   // a title too long for one line at full size wraps onto
                                         // two rather than shrinking up to 10 %: maps in a row
                                         // keep one title size (Meaning's logit terms)
    bool showMaskedLegend = false;       // a swatch saying what masked (-inf) cells look like
    std::string maskedLabel = "masked";  // the swatch's label
    std::vector<Marker> markers;
};
void drawHeatmap(Figure& figure, Box area, const HeatmapSpec& spec, const Theme& theme,
                 PlotFrame* frame = nullptr);
// Where drawHeatmap puts the cells and the colour bar in `area` (bar: empty without one),
// without drawing: to size a family of maps alike (maxSquareSide), or to ask whether a bar
// leaves its map room enough. A focused panel is measured in the area it is drawn in.
struct HeatmapPlacement {
    Box plot;
    Box bar;
};
HeatmapPlacement measureHeatmap(Box area, const HeatmapSpec& spec, const Theme& theme);
// The height an area `width` wide needs for its map to be as wide as the area lets it be: a
// square-celled map's plot is bound by the height below it (a one-column print, where the canvas
// may grow: panel_grid's stackForPrint). A map without square cells fills any height: 0.
float heatmapHeightForWidth(float width, const HeatmapSpec& spec, const Theme& theme);

}  // namespace poslab
