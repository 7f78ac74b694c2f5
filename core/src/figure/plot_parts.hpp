// plot_parts.hpp — the pieces heatmap_plot, line_plot, legend and titles share, private to
// core/src/figure: axes with their ticks and labels, plot margins, markers, titles of one or two
// lines, the --panel scope of one plot and square plot boxes. Everything here draws into a Figure
// exactly as the public drawing functions (plot.hpp) need it; nothing outside figure/ calls it.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "poslab/figure/axes.hpp"
#include "poslab/figure/figure.hpp"
#include "poslab/figure/legend.hpp"
#include "poslab/figure/text_fit.hpp"
#include "poslab/figure/theme.hpp"
#include "poslab/figure/ticks.hpp"

namespace poslab::plot_parts {

// ---- Ticks and axes (axes.cpp)
// Which side of the plot an axis's labels sit on: x below (side by side), y left (stacked).
enum class AxisSide { X, Y };
// An axis's ticks for `pixels` of it: one per label's room (x: 5.5 em, at least 70 px; y: 2.6
// em) and, where that leaves fewer than three on the axis, the first finer nice step that shows
// three or more whose labels keep tickLabelClearance apart: two labels say where an axis ends,
// not how it runs (issue 28: pair 0 and 20, position 0 and 100 at one column).
std::vector<Tick> axisTicks(const AxisSpec& axis, float pixels, float fontSize, AxisSide side);
// The least room between two neighbouring tick labels: x half an em, y a quarter, 4 px at least.
float tickLabelClearance(float fontSize, AxisSide side);
double tickPosition(const AxisSpec& axis, double value);        // cell axes: the cell's centre
float widestLabel(const std::vector<Tick>& ticks, float size);  // by estimate
// Adds a tick label unless its box would overlap the last label kept on the same axis (2 px
// apart at least), one in `avoid` (the other axis's, at the corner), or leave `bounds`:
// crowded axes lose labels, never draw them over each other.
// Returns whether it was added.
bool addTickLabel(Figure& figure, TextItem label, std::optional<Box>& last, Box bounds,
                  const std::vector<Box>& avoid = {});
void drawAxes(Figure& figure, Box area, const PlotFrame& frame, const Theme& theme,
              bool grid);  // ticks, their labels, the outline; grid lines when asked
void drawAxisLabels(Figure& figure, Box area, const PlotFrame& frame,
                    const Theme& theme);  // fitted to the plot's sides, never cut when avoidable

// ---- Margins and plot boxes (axes.cpp)
// The margins around a plot: title on top, tick labels and axis labels left and below.
struct Margins {
    float left, top, right, bottom;
    float xLabelRows = 0;  // of bottom: the rows an x label wrapped past its first line takes
    float yTickWidth = 0;  // of left: the widest y tick label it was made for
};
// With approximateWidth (> 0), an x label longer than the plot is wide gets the rows it wraps
// onto (up to kAxisLabelLines), and a y label longer than the plot is tall a second column.
Margins plotMargins(const AxisSpec& x, const AxisSpec& y, bool hasTitle, const Theme& theme,
                    float approximateHeight, float approximateWidth = 0);
// The x label's rows again for the plot's width once the caller has widened m.right (a legend
// or colour bar beside the plot): a label that wraps onto more lines there gets their rows.
void fitXLabelRows(Margins& m, const AxisSpec& x, const Theme& theme, float areaWidth,
                   float areaHeight);
// The x label a plot `plotWidth` wide draws: AxisSpec::shortLabel when it has one and the label
// does not fit on one line at full size, else the label (fitXLabelRows and drawAxisLabels).
const std::string& xAxisLabel(const AxisSpec& x, float fontSize, float plotWidth);
inline constexpr int kAxisLabelLines = 3;  // an axis label wraps onto at most this many lines
inline constexpr float kAxisLabelLineStep = 1.15f;  // their baseline-to-baseline step, in sizes
// The y tick labels again for the plot's final height (a legend below, a second title line
// take rows after plotMargins): when they are wider ("10000" where "1e6" was not a tick), the
// left margin widens by the difference, so they stay clear of the y label.
void fitYTickWidth(Margins& m, const AxisSpec& y, const Theme& theme, float plotHeight);
// AspectMode::Square: the plot box shrinks to a square, centred across; the area shrinks with it
// so that axis labels stay beside the plot.
void makeSquare(Box& area, Box& plot);

// ---- Markers (axes.cpp)
// The markers' lines and shading, or their labels (drawn last, over the data, clear of the
// boxes in `avoid`: a legend). With `unplaced`, a label that would hide data or be cut short is
// not drawn but its marker's index added there (drawLinePlot lists it in the legend instead).
enum class MarkerPart { Lines, Labels };
void drawMarkers(Figure& figure, const PlotFrame& frame, const std::vector<Marker>& markers,
                 const Theme& theme, MarkerPart part, std::vector<Box> avoid = {},
                 std::vector<std::size_t>* unplaced = nullptr);

// ---- Titles (titles.cpp)
inline constexpr float kTitleBandLines = 1.8f;   // a one-line figure title's band, in title sizes
inline constexpr float kTitleLineStep = 1.15f;   // from one title line to the next, in title sizes
inline constexpr float kTitleWrapBelow = 0.85f;  // the least titleWrapBelow
inline constexpr int kTitleMaxLines = 3;         // a figure title wraps onto at most this many
// Plot titles (and a subtitle) are set at most this times the figure title's size: a step
// smaller, so the figure title and the plots' read as two levels, not one block (#28).
inline constexpr float kPlotTitleStep = 0.88f;
// The smallest size a plot title is capped to: the body text (and the theme's floors for print
// and presentation, scaledMinTextPx), so a title never reads smaller than the tick labels.
float plotTitleFloor(const Theme& theme);
// How far (a fraction of the title size) a figure title shrinks on one line before it wraps:
// where plot titles a step below it would reach plotTitleFloor; at least kTitleWrapBelow.
float titleWrapBelow(const Theme& theme);
// The size a plot title of `figure` is set at most: kPlotTitleStep x Figure::titleSize, not
// below plotTitleFloor nor above the figure title; 0 (no cap) before a figure title is drawn.
float plotTitleCap(const Figure& figure, const Theme& theme);
// A figure title on one line in `width`, shrunk as far as titles may (cut when even that fails:
// drawTitleText then sets it on two smaller lines).
FittedText fittedTitle(const std::string& title, float width, const Theme& theme);
// A figure title that one line in `width` would shrink below titleWrapBelow: its lines (two, or
// three, broken where titleBreak breaks) at the largest size from the title size down to
// titleWrapBelow that holds them; empty when one line will do or none fits (one line, shrunk as
// it must), and in a narrow window (under 24 title sizes) unless the file's height may grow.
struct WrappedTitle {
    std::vector<std::string> lines;
    float size = 0;
};
WrappedTitle wrappedTitleLines(const std::string& title, float width, const Theme& theme);
// The band those lines take: kTitleBandLines title sizes and a line step for each further line.
float wrappedTitleBand(const Theme& theme, const WrappedTitle& title);
// The title text itself, centred at the top of area (figure titles and plot titles alike);
// returns the lines drawn (2: wrapped).
int drawTitleText(Figure& figure, Box area, const std::string& title, const Theme& theme);
// A plot's title in `width`: one line when it fits at 90 % size or more (`wrapAtFullSize`: at
// full size); else two, split at the space nearest the middle, each shrunk (or cut with "…" only
// when even that fails), when the plot keeps at least `minPlot` pixels of height below the extra
// line. `extra`: the added line.
struct TitleLines {
    std::vector<FittedText> lines;
    float extra = 0;   // height the lines after the first add to the plot's top margin
    float step = 0;    // baseline to baseline
    bool cut = false;  // a line ends in "…" (the title did not fit even shrunk)
};
TitleLines plotTitleLines(const std::string& title, float width, float plotHeight,
                          const Theme& theme, bool wrapAtFullSize = false);
// The lines of plotTitleLines centred at the top of area, as drawTitleText places one.
void drawTitleLines(Figure& figure, Box area, const TitleLines& title, const Theme& theme);

// ---- Legends (legend.cpp)
// Where a w x h legend hides no data inside the plot: `first` if free, else the other corners
// (below topInset), else the free place nearest `first`; nullopt when the plot has none.
std::optional<Box> legendPlace(const Figure& figure, const PlotFrame& frame, float w, float h,
                               Box first, float topInset = 0);
// The height of a legend's rows laid out in a box `width` px wide (names wrapped to it).
float legendRowsHeight(const std::vector<LegendKey>& keys, const Theme& theme, float width);
// The width a column `height` px tall needs for every key, names whole: one column, else as few
// side by side as hold them; INFINITY when no number of columns does.
float legendColumnsWidth(const std::vector<LegendKey>& keys, const Theme& theme, float height);
// The legend's box and rows: in frame.legendColumn when there is one, else inside the plot where
// freePlace(w, h) finds room hiding no data: names whole on one line first, then wrapped to half
// and a third of the plot's width; when none is free, where fallback(w, h) says, names whole.
// A column too short for every key: whole names side by side, then (wrapColumns) wrapped names
// side by side. Keys that find no room are left out and recorded (Figure::leaveOut).
using FreePlace = std::function<std::optional<Box>(float w, float h)>;
using Fallback = std::function<Box(float w, float h)>;
std::optional<Box> drawLegendRows(Figure& figure, const PlotFrame& frame,
                                  const std::vector<LegendKey>& keys, const Theme& theme,
                                  const FreePlace& freePlace, const Fallback& fallback,
                                  float topInset = 0, bool wrapColumns = true);

// ---- One plot's items (--panel N)
// Records one plot's items as a PanelSpan. When the theme focuses this plot (--panel N), the plot
// is drawn over the whole figure instead of its area; figure_controls keeps only its items.
class PanelScope {
  public:
    PanelScope(Figure& figure, Box& area, const Theme& theme) : figure_(figure) {
        index_ = figure.panels.size();
        // A view that numbers its own panels (Figure::viewPanels) has drawn the focused one.
        focused_ = figure.viewPanels == 0 && theme.focusPanel == int(index_) + 1;
        if (focused_) area = {0, 0, figure.width, figure.height};
        figure.panels.push_back({area, figure.items.size(), figure.items.size()});
    }
    ~PanelScope() { figure_.panels[index_].end = figure_.items.size(); }
    PanelScope(const PanelScope&) = delete;
    PanelScope& operator=(const PanelScope&) = delete;
    bool focused() const { return focused_; }
    void setPlot(const Box& plot) const { figure_.panels[index_].plot = plot; }

  private:
    Figure& figure_;
    std::size_t index_ = 0;
    bool focused_ = false;
};

}  // namespace poslab::plot_parts
