// line_plot.hpp — curves over axes, with markers and a legend placed where it hides no data
// (inside the plot when a free place exists, else in a column beside it).
#pragma once

#include <string>
#include <vector>

#include "poslab/figure/axes.hpp"
#include "poslab/figure/figure.hpp"
#include "poslab/figure/legend.hpp"  // LegendKey
#include "poslab/figure/theme.hpp"

namespace poslab {

// ---- Line plots
struct LineSeries {
    std::string name;
    std::vector<double> x, y;  // same length; non-finite points break the line
    Rgba color{0, 0, 0, 0};    // alpha 0: seriesColor(index)
    float width = 1.8f;
    bool markers = false;   // a dot at each point
    bool segments = false;  // drawn as separate line segments, no joins: noise, whose sharp
                            // angles break a polyline's anti-aliased joins up (Learned curves)
};
// Filled bars standing on y = 0 (a histogram's bins): drawn under the curves and recorded as the
// figure's marks, so the legend, marker labels and notes are placed clear of them.
struct BarSeries {
    std::vector<double> edges;    // bin edges, one more than heights, increasing
    std::vector<double> heights;  // a non-finite or non-positive height draws no bar
    Rgba fill;
};
struct LinePlotSpec {
    std::string title;
    std::string shortTitle;  // drawn instead where the title would be cut with "…" (a plot too
                             // short to give it a second line); empty: the title, cut
    AxisSpec x, y;
    std::vector<LineSeries> series;
    std::vector<BarSeries> bars;  // under the series
    std::vector<Marker> markers;
    bool legend = true;
    bool legendLater = false;     // the caller draws keys' legend (drawLegendAfter), not the plot;
                                  // LegendPlacement::Outside still reserves its column here
    std::vector<LegendKey> keys;  // the legend's rows; empty: one per named series
    bool autoRangeY = true;       // y.low/high from the data (with a margin)
    // A panel of a grid in a file whose height may grow: its legend's rows under it may grow the
    // file (every row grows with it, several times what the panel gains). False in a view of
    // many stacked plots whose file's height is budgeted (Compare, Extrapolation at one column):
    // there the rows go under the plot only where it keeps its height without growth.
    bool rowsGrowGrid = true;
    // The px the canvas grows by for each px this plot's area gains, where its view gives the
    // canvas's growth to a few rows (Compare's one-column stack: its two curve rows, 2); 0: the
    // area grows with the canvas in proportion (figure height / area height).
    float canvasPerAreaPx = 0;
};
void drawLinePlot(Figure& figure, Box area, const LinePlotSpec& spec, const Theme& theme,
                  PlotFrame* frame = nullptr);

// ---- Dashes
// A series has no dash style of its own: dashSeries breaks it into dashes kDashOnPixels long
// with kDashOffPixels gaps along x (pixelsPerUnit px per x unit), one dash centred on x =
// `centre`, by making the points in each gap non-finite. Points further apart than that keep two
// a dash and one a gap (a dash of one point draws nothing). The first and last points stay, so
// the curve still shows where it starts and ends. For a curve drawn over another it coincides
// with, so that the one under it shows through (Compare's RoPE over sinusoidal, FIRE's queries).
inline constexpr double kDashOnPixels = 7, kDashOffPixels = 5;
void dashSeries(LineSeries& series, double pixelsPerUnit, double centre = 0);

}  // namespace poslab
