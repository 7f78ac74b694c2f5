// axes.hpp — a plot's axes in data units, the frame that maps data to pixels (hover, markers,
// labels a view adds) and marker lines across a plot.
#pragma once

#include <string>
#include <utility>

#include "poslab/figure/figure.hpp"
#include "poslab/figure/theme.hpp"

namespace poslab {

// ---- Axes
struct AxisSpec {
    std::string label;
    double low = 0, high = 1;  // data range shown; for cell axes [first cell, last cell + 1)
    bool logarithmic = false;  // base-10 ticks; low must be > 0
    bool cells = false;        // integer cell indices: tick i sits at the centre of cell i
    bool integers = false;     // an integer quantity (pair, position): ticks at integers only
    // The x label's short form ("offset j − i" for "offset j − i (key − query)"), drawn instead
    // when the label does not fit the plot's width on one line at full size: rather than the
    // long one shrunk or wrapped. Empty: the label always.
    std::string shortLabel = "";
};
// An axis of an integer quantity (pair, position, head, offset): ticks at integers only.
inline AxisSpec integerAxis(std::string label, double low, double high) {
    return {std::move(label), low, high, false, false, true};
}

// ---- Plot frames: the mapping between data and pixels of one plot area
struct PlotFrame {
    Box plot;  // the data area in pixels
    AxisSpec x, y;
    bool yDown = false;     // heatmaps put y.low at the top; line plots at the bottom
    Box legendColumn;       // LegendPlacement::Outside: the column right of the plot kept for it
    Box legend;             // the legend drawLinePlot drew (width 0: none), for labels to avoid
    // A caller's legend (drawLegendAfter) in a column too short for its keys may wrap names side
    // by side: drawLinePlot clears it while whole names still fit below or beside a narrower plot.
    bool legendWrapNames = true;
    float xLabelReach = 0;  // how far past each side of the plot a cut x label may run (heatmaps)
    Point toPixel(double xValue, double yValue) const;
    std::pair<double, double> toData(Point pixel) const;
};

// ---- Markers
struct Marker {
    bool vertical = true;  // a line at x = value (else at y = value)
    double value = 0;
    std::string label;
    Rgba color{255, 120, 60, 255};
    bool shadeBeyond = false;  // shade everything past the line (e.g. beyond training length)
    bool dashed = true;
};
// The horizontal line at a model's training length on position-by-row heatmaps, with the rows
// past it shaded: positions the model never saw in training.
Marker trainingLengthMarker(int trainingLength, const Theme& theme);

}  // namespace poslab
