// plot.hpp — axes, ticks, colour bars and legends, laid out into a Figure.
//
// Usage, in the order a view makes the calls:
//   HeatmapSpec spec;                       // title, axes in data units, values, colormap, range
//   PlotFrame frame;                        // receives the plot area, for hover and markers
//   drawHeatmap(figure, area, spec, theme, &frame);
//   auto [x, y] = frame.toData(mouse);      // which cell is under the mouse
// A view that shows several plots (a grid of heads, small multiples) calls draw* once per area.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "poslab/base/enum_names.hpp"
#include "poslab/base/format.hpp"  // formatValue, for tick labels
#include "poslab/figure/figure.hpp"
#include "poslab/figure/ticks.hpp"  // Tick, linearTicks, logTicks, piTicks, tickCountFor

namespace poslab {

// ---- Themes
enum class ThemeId { Dark, Paper };
// Paper controls (`poslab render --legend/--title/--aspect/--panel`, the export dialog): the
// drawing functions below read them, so the screen, PNG, SVG and PDF agree.
enum class LegendPlacement { Auto, Outside, None };   // auto: the corner hiding the least data
enum class TitleMode { Auto, Replace, Hidden };       // the view's title, Theme::titleText, none
enum class AspectMode { Auto, Square };               // square: plot boxes as wide as tall
enum class TitleTarget { FigureTitle, PanelTitles };  // what TitleMode::Replace replaces
struct Theme {
    ThemeId id = ThemeId::Dark;
    Rgba background, plotBackground, text, mutedText, axis, grid, masked, accent;
    float fontSize = 14;   // tick labels and legends
    float titleSize = 17;  // plot titles
    float fontScale = 1;   // what scaledTheme multiplied fontSize and titleSize by, in total
    LegendPlacement legend = LegendPlacement::Auto;
    TitleMode titleMode = TitleMode::Auto;
    std::string titleText;  // TitleMode::Replace: the title drawn instead of the view's
    TitleTarget titleTarget = TitleTarget::FigureTitle;  // set by buildWithControls
    AspectMode aspect = AspectMode::Auto;
    int focusPanel = 0;   // > 0: panel N (1-based) drawn over the whole figure (figure_controls)
    float lineScale = 1;  // line widths, tick lengths, markers and legend swatches (1: 1 px)
};
Theme darkTheme();   // the screen theme
Theme paperTheme();  // white background, black text: for print
Theme themeFor(ThemeId id);
inline constexpr EnumNames<ThemeId, 2> kThemeNames{
    {{ThemeId::Dark, "dark"}, {ThemeId::Paper, "paper"}}};
inline constexpr EnumNames<LegendPlacement, 3> kLegendPlacementNames{
    {{LegendPlacement::Auto, "auto"},
     {LegendPlacement::Outside, "outside"},
     {LegendPlacement::None, "none"}}};
inline constexpr EnumNames<AspectMode, 2> kAspectNames{
    {{AspectMode::Auto, "auto"}, {AspectMode::Square, "square"}}};
Result<LegendPlacement> parseLegendPlacement(std::string_view name);  // "auto", "outside", "none"
Result<AspectMode> parseAspect(std::string_view name);                // "auto", "square"
inline constexpr float kMinFontScale = 0.5f, kMaxFontScale = 3.0f;    // --font-scale
std::string_view themeName(ThemeId id);                               // "dark", "paper"
Result<ThemeId> parseTheme(std::string_view name);
// Fonts, line widths, tick lengths, markers and swatches scaled together (presentation mode,
// HiDPI): a figure at factor 2 looks like the same figure twice the size.
Theme scaledTheme(Theme theme, float factor);
float strokeWidth(const Theme& theme, float width);  // width (px at scale 1) at the theme's scale
Rgba seriesColor(int index);                         // line colours, colourblind-friendly order
Rgba seriesColor(int index, const Theme& theme);     // the same, black for yellow on paper
Rgba withAlpha(Rgba color, std::uint8_t alpha);

// ---- Axes and ticks
struct AxisSpec {
    std::string label;
    double low = 0, high = 1;  // data range shown; for cell axes [first cell, last cell + 1)
    bool logarithmic = false;  // base-10 ticks; low must be > 0
    bool cells = false;        // integer cell indices: tick i sits at the centre of cell i
    bool integers = false;     // an integer quantity (pair, position): ticks at integers only
};
// An axis of an integer quantity (pair, position, head, offset): ticks at integers only.
inline AxisSpec integerAxis(std::string label, double low, double high) {
    return {std::move(label), low, high, false, false, true};
}
// Layout estimate, no font needed: 0.56 em per character, markup's scripts at their own size.
float estimateTextWidth(std::string_view text, float size);
// Text made to fit maxWidth (by estimate): first a smaller size, down to minScale * size, then
// cut at a character boundary with "…" appended. Titles of narrow plots stay inside them.
struct FittedText {
    std::string text;
    float size = 0;
};
FittedText fitText(std::string_view text, float size, float maxWidth, float minScale = 0.75f);
// The minScale for fitText that keeps text readable: 75 % of size on a screen or page; in a
// theme scaled up (presentation mode, fontScale > 1) down to kReadableTextPx (the screen's own
// text size, presentation's floor) but never below it.
inline constexpr float kReadableTextPx = 14;
float readableMinScale(float size, const Theme& theme);
// Words wrapped to maxWidth (by estimate) at `size`, never inside $...$ markup: the lines in
// order (one word wider than maxWidth is a line of its own, for fitText to shrink).
std::vector<std::string> wrapText(std::string_view text, float size, float maxWidth);
// Where a title of two lines breaks: the space nearest the middle with a word of letters or
// digits on each side ("j - i" stays whole); npos when there is none.
std::size_t titleBreak(std::string_view title);

// ---- Plot frames: the mapping between data and pixels of one plot area
struct PlotFrame {
    Box plot;  // the data area in pixels
    AxisSpec x, y;
    bool yDown = false;  // heatmaps put y.low at the top; line plots at the bottom
    Box legendColumn;    // LegendPlacement::Outside: the column right of the plot kept for it
    Box legend;          // the legend drawLinePlot drew (width 0: none), for labels to avoid
    Point toPixel(double xValue, double yValue) const;
    std::pair<double, double> toData(Point pixel) const;
};

// ---- Markers and annotations
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
    bool showColorbar = true;
    bool angleTicks = false;             // colour bar ticked at multiples of π (radians)
    bool squareCells = false;            // cells as wide as tall (L x L matrices)
    bool showMaskedLegend = false;       // a swatch saying what masked (-inf) cells look like
    std::string maskedLabel = "masked";  // the swatch's label
    std::vector<Marker> markers;
};
void drawHeatmap(Figure& figure, Box area, const HeatmapSpec& spec, const Theme& theme,
                 PlotFrame* frame = nullptr);

// ---- Colour bars: figure/colorbar.hpp (the heatmaps' own, on their own, beside a grid)

// ---- Line plots
struct LineSeries {
    std::string name;
    std::vector<double> x, y;  // same length; non-finite points break the line
    Rgba color{0, 0, 0, 0};    // alpha 0: seriesColor(index)
    float width = 1.8f;
    bool markers = false;  // a dot at each point
};
// A legend row: a line (or dot) swatch and its text. drawLinePlot lists the named series, or
// these when LinePlotSpec::keys is set.
struct LegendKey {
    std::string text;
    Rgba color;
    bool dot = false;  // a dot instead of a line segment
};
// The width a legend box of these keys takes (swatch, gap, text, padding), by estimate.
float legendBoxWidth(const std::vector<LegendKey>& keys, const Theme& theme);
struct LinePlotSpec {
    std::string title;
    AxisSpec x, y;
    std::vector<LineSeries> series;
    std::vector<Marker> markers;
    bool legend = true;
    bool legendLater = false;     // the caller draws keys' legend (drawLegendAfter), not the plot;
                                  // LegendPlacement::Outside still reserves its column here
    std::vector<LegendKey> keys;  // the legend's rows; empty: one per named series
    bool autoRangeY = true;       // y.low/high from the data (with a margin)
};
void drawLinePlot(Figure& figure, Box area, const LinePlotSpec& spec, const Theme& theme,
                  PlotFrame* frame = nullptr);
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

// ---- Whole figures
Figure emptyFigure(float width, float height, const Theme& theme);
// A figure's title, as the theme's TitleMode says (replaced, or left out: returns false).
bool drawTitle(Figure& figure, Box area, const std::string& title, const Theme& theme);
// The height of the band a figure keeps above its panels for drawTitle: lines * titleSize, or 0
// when the theme hides the title (TitleMode::Hidden gives the room back to the panels).
float titleBandHeight(const Theme& theme, float lines = 1.8f);
// The title a plot (drawHeatmap, drawLinePlot) draws for spec.title under the theme's TitleMode:
// the same, theme.titleText (when Replace targets panel titles), or "" (Hidden).
std::string panelTitle(const std::string& title, const Theme& theme);
void drawNote(Figure& figure, Box area, const std::string& text,
              const Theme& theme);  // centred message
// A small muted note ("each pixel: mean of 4x4 cells") at the bottom right of a plot's area, on
// the x-axis label's line: shrunk, then cut with "…", to keep clear of that label; left out when
// less than a few characters fit. frame: the plot drawn in area (null: no label to avoid).
void drawCornerNote(Figure& figure, Box area, const PlotFrame* frame, const std::string& text,
                    const Theme& theme);
// The figure itself, or an empty figure of that size that shows why it could not be made.
Figure figureOrNote(Result<Figure> figure, float width, float height, const Theme& theme);

}  // namespace poslab
