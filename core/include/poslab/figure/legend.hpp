// legend.hpp — legends and in-plot notes, placed where they cover no mark (figure.hpp's marks):
// drawLinePlot's own legend, a legend a view draws after its own curves, and lines of notes.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "poslab/figure/axes.hpp"
#include "poslab/figure/figure.hpp"
#include "poslab/figure/theme.hpp"

namespace poslab {

// ---- Legends
// A legend row: a line (or dot) swatch and its text. drawLinePlot lists the named series, or
// these when LinePlotSpec::keys is set.
struct LegendKey {
    std::string text;
    Rgba color;
    bool dot = false;     // a dot instead of a line segment
    bool dashed = false;  // a dashed segment: a marker line whose label had no free place
    bool swatch = true;   // false: the text alone (a count of none has no marks to key)
};
// The width a legend box of these keys takes (swatch, gap, text, padding), by estimate.
float legendBoxWidth(const std::vector<LegendKey>& keys, const Theme& theme);
// A legend a view draws itself after its own curves, as the theme's LegendPlacement says: none
// (None), in frame.legendColumn (Outside, kept by spec.legendLater), else inside the plot at
// corner, topInset px below the plot's top (room for a marker label). A name too long for the
// room is wrapped onto more lines (narrower boxes are tried until one hides no data); rows that
// do not fit the plot's height (outside: down to the panel's bottom) are left out. Returns the
// box drawn, if any.
enum class LegendCorner { TopRight, BottomRight };
std::optional<Box> drawLegendAfter(Figure& figure, const PlotFrame& frame,
                                   const std::vector<LegendKey>& keys, LegendCorner corner,
                                   float topInset, const Theme& theme);

// Legends drawn over data (a RectItem marked legend covering a mark's visible part by more than
// `tolerance` px: what --check-layout counts as a legend hiding data), one entry per legend.
struct LegendOverMark {
    std::size_t legend = 0, mark = 0;  // indices into Figure::items (its box) and Figure::marks
};
std::vector<LegendOverMark> legendsOverMarks(const Figure& figure, float tolerance = 1);

// ---- Notes inside a plot
// Lines of text a view writes inside a plot ("sampled: mean 0.01, std 0.12"), drawn after
// everything else in it: where they hide no data and no text (placeFree from the top left, then
// the other corners), each line whole or wrapped to a half or a third of the plot's width; when
// no place is free, at the top left, wrapped to the plot. Returns the box the lines take.
struct NoteLine {
    std::string text;
    Rgba color;
};
Box drawNoteLines(Figure& figure, const PlotFrame& frame, const std::vector<NoteLine>& lines,
                  const Theme& theme);

}  // namespace poslab
