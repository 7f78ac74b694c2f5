// layout.hpp — layout and drawing helpers the composite views share: grid cells, wrapped
// paragraphs, heatmap specs of whole matrices and of samples, training-length markers, colour
// bars, and the min/max envelope that keeps fast oscillations honest on screen.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "poslab/base/heatmap_sample.hpp"
#include "poslab/base/matrix.hpp"
#include "poslab/figure/colorbar.hpp"  // bars beside a grid of heatmaps (drawColorbar with a caption)
#include "poslab/figure/figure.hpp"
#include "poslab/figure/plot.hpp"

namespace poslab {

// ---- Boxes
// Cell (row, col) of a rows x cols grid inside area, with `gap` pixels between cells.
Box gridCell(Box area, int rows, int cols, int row, int col, float gap = 8);
struct PlotAndText {
    Box plot, text;
};
// A plot box above a paragraph inside one small-multiple cell; the paragraph takes the bottom
// `textFraction` of the cell's height.
PlotAndText splitCell(Box cell, float textFraction);

// ---- Text and rectangles
// Words wrapped to the box width (estimateTextWidth), one TextItem per line; returns the height
// the whole text takes. Text too long for the box is set smaller, down to 80 % of `size`; lines
// that still do not fit are dropped and the last one shown ends in "…".
float drawParagraph(Figure& figure, Box box, const std::string& text, const Theme& theme,
                    float size = 0, Rgba color = {0, 0, 0, 0});
// A plot's title at the top of `area`, for a plot drawn below it with no title of its own: one
// line when the title fits at 90% size or more (as drawTitle draws it), else two lines split at
// the space nearest the middle, each shrunk (or cut with "…" only when even that fails). Returns
// the part of area left for the plot; a plot drawn there sits where it would under a one-line
// title of its own, lower by one line when the title wraps.
Box drawWrappedTitle(Figure& figure, Box area, const std::string& title, const Theme& theme);
// makeText with the labels' usual alignment: centred horizontally, hanging from `at`.
TextItem centredText(Point at, std::string text, float size, Rgba color,
                     HorizontalAlign h = HorizontalAlign::Center,
                     VerticalAlign v = VerticalAlign::Top, bool vertical90 = false);
RectItem filledRect(Box box, Rgba fill, Rgba stroke = {0, 0, 0, 0}, float strokeWidth = 1);

// ---- Heatmaps
std::shared_ptr<const Matrix> share(Matrix m);  // immutable, for HeatmapSpec::values
double maxAbs(const Matrix& m);                 // largest finite |value|; 0 when none
// A heatmap of a whole (small) matrix, block-averaged to at most one texel per pixel of area.
HeatmapSpec matrixSpec(const std::string& title, const Matrix& values, Box area,
                       ColormapId colormap, ValueRange range);
// A heatmap of a sample: axes span its window, texels its values (no title, colormap or range).
HeatmapSpec specFor(const HeatmapSample& sample, const std::string& xLabel,
                    const std::string& yLabel);
// The training length marked on an axis, with the region beyond it shaded.
Marker trainingMarker(double value, bool vertical, const Theme& theme, std::string label = "");

// ---- Curves
// Keeps at most 2 points per pixel column of [low, high]: the column's min and max at its
// centre, alternating min-max and max-min, so fast oscillations draw as a filled band instead of
// aliasing into a false slow wave. Data with no more than 2 points per column pass unchanged
// (points outside [low, high] are dropped); a non-finite y keeps its break in the line.
void envelope(const std::vector<double>& x, const std::vector<double>& y, double low, double high,
              int pixels, std::vector<double>& outX, std::vector<double>& outY);

}  // namespace poslab
