#include "poslab/figure/line_plot.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <unordered_set>
#include <variant>
#include <vector>

#include "plot_parts.hpp"
#include "poslab/figure/text_boxes.hpp"
#include "poslab/figure/titles.hpp"

namespace poslab {

namespace {

constexpr float kOutsideLegendShare = 0.36f;  // an outside legend's widest column, of the area
constexpr float kShortPlotLines = 1.5f;       // a legend goes below a plot keeping this many lines
constexpr int kListingTries = 8;  // drawLinePlot's tries that may list marker labels in the legend
// A legend's columns beside the plot leave it at least this share of the area's width.
constexpr float kNarrowPlotShare = 0.25f;
// The legend in rows under the plot (the one rule, drawLinePlot) keeps it this many lines of text
// tall; in a file whose height may grow, the canvas grows until it is.
constexpr float kRowsPlotLines = 6;
constexpr int kRowsExtensions = 3;  // trials of the rows on a taller area, at most

// The legend's rows: the keys given, or the named series in their colours.
std::vector<LegendKey> linePlotLegendKeys(const LinePlotSpec& spec, const Theme& theme) {
    std::vector<LegendKey> keys = spec.keys;
    if (keys.empty()) {
        for (std::size_t index = 0; index < spec.series.size(); ++index) {
            const LineSeries& s = spec.series[index];
            if (s.name.empty()) continue;
            keys.push_back(
                {s.name,
                 s.color.a == 0 ? seriesColor(int(index), theme) : lineColorOn(s.color, theme),
                 false});
        }
    }
    return keys;
}

// The width of a legend's rows under the plot: the area's, a few pixels in from its sides.
float belowRowsWidth(Box area) {
    return std::max(1.f, area.width - 8);
}

// Whether the legend drawn since item `from` in `legend` splits a name: more lines of text in it
// than it has keys (a name wrapped), or a line shrunk below the theme's size.
bool legendSplitsAName(const Figure& figure, std::size_t from, Box legend, std::size_t keys,
                       const Theme& theme) {
    if (legend.width <= 0) return false;
    std::size_t lines = 0;
    for (std::size_t i = from; i < figure.items.size(); ++i) {
        const auto* text = std::get_if<TextItem>(&figure.items[i]);
        if (!text || text->text.empty()) continue;
        const Box box = textBox(*text);
        if (!legend.contains({box.x + box.width / 2, box.y + box.height / 2})) continue;
        ++lines;
        if (text->size < theme.fontSize - 0.01f) return true;
    }
    return lines > keys;
}

// One try of drawLinePlot; *legendFits turns false when an inside legend found no free place,
// and `unplaced` lists the markers whose labels found none (drawMarkers).
// With legendBelow, the legend takes rows under the plot (and its x label) instead; with
// wideColumn, an outside legend's column is as wide as its keys need, names whole, side by side
// (the plot narrower, down to kNarrowPlotShare of the area and six lines of text), else that
// wide; with wrapNames, names wrapped side by side where whole ones do not fit. *laterLeftOut
// turns true when the caller's legend (legendLater) would leave keys out of the room kept for it.
void drawLinePlotOnce(Figure& figure, Box area, const LinePlotSpec& spec, const Theme& theme,
                      PlotFrame* frameOut, bool* legendFits, std::vector<std::size_t>* unplaced,
                      bool* laterLeftOut, bool legendBelow = false, bool wideColumn = false,
                      bool wrapNames = false) {
    const plot_parts::PanelScope panel(figure, area, theme);
    const std::string title = panelTitle(spec.title, theme);
    const std::vector<LegendKey> keys = linePlotLegendKeys(spec, theme);
    const bool legend = spec.legend && !keys.empty() && theme.legend != LegendPlacement::None;
    const bool outside = legend && theme.legend == LegendPlacement::Outside;
    const bool outsideLater =
        spec.legendLater && !keys.empty() && theme.legend == LegendPlacement::Outside;
    // The caller's legend, placed automatically: tried here, where the curves are drawn, and
    // moved beside or below the plot as the plot's own would be (legendFits).
    const bool autoLater =
        spec.legendLater && !keys.empty() && theme.legend == LegendPlacement::Auto;
    // Below the plot: also an outside legend whose column left keys out (drawLinePlot).
    const bool below = legendBelow && (legend || autoLater || outsideLater);
    const bool beside = (outside || outsideLater) && !below;
    AxisSpec y = spec.y;
    if (spec.autoRangeY) {
        double low = INFINITY, high = -INFINITY;
        for (const LineSeries& s : spec.series) {
            for (std::size_t i = 0; i < s.y.size() && i < s.x.size(); ++i) {
                if (!std::isfinite(s.y[i]) || !std::isfinite(s.x[i])) continue;
                if (s.x[i] < std::min(spec.x.low, spec.x.high) ||
                    s.x[i] > std::max(spec.x.low, spec.x.high))
                    continue;
                if (y.logarithmic && s.y[i] <= 0) continue;
                low = std::min(low, s.y[i]);
                high = std::max(high, s.y[i]);
            }
        }
        for (const BarSeries& b : spec.bars) {
            for (double h : b.heights) {
                if (!std::isfinite(h) || h <= 0) continue;
                low = std::min(low, y.logarithmic ? h : 0.0);
                high = std::max(high, h);
            }
        }
        if (!(low <= high)) low = 0, high = 1;
        if (y.logarithmic) {
            y.low = low / 1.5;
            y.high = std::min(high * 1.5, kLargestDouble);
        } else {
            const ValueRange padded = paddedRange(low, high, 0.06);
            y.low = padded.low;
            y.high = padded.high;
        }
    }
    const float gap = theme.fontSize * 0.8f;
    // Below: rows under the x label (their block centred, legend.cpp); the axes keep the area
    // above them, and their margins are made for it (a y label longer than that plot is tall
    // takes a second column, not "mean |DFT| /…"). As wide as the plot where every name fits
    // whole there, else as the area: a one-column print's y label and ticks took a sixth of
    // the width, and "18 of 64 pairs: no full turn in 4096" wrapped under the plot.
    Box rows{};
    bool rowsUnderPlot = false;
    if (below) {
        const plot_parts::Margins side =
            plot_parts::plotMargins(spec.x, y, !title.empty(), theme, area.height, area.width);
        const float plotWidth = std::max(1.f, area.width - side.left - side.right);
        // (Names too long for the area too are wrapped under the plot, as they would be.)
        rowsUnderPlot = legendBoxWidth(keys, theme) <= plotWidth ||
                        legendBoxWidth(keys, theme) > belowRowsWidth(area);
        const float width = rowsUnderPlot ? plotWidth : belowRowsWidth(area);
        const float height = plot_parts::legendRowsHeight(keys, theme, width);
        area.height = std::max(1.f, area.height - height - gap * 0.5f);
        rows = {rowsUnderPlot ? area.x + side.left : area.x + (area.width - width) / 2,
                area.bottom() + gap * 0.5f, width, height};
    }
    plot_parts::Margins m =
        plot_parts::plotMargins(spec.x, y, !title.empty(), theme, area.height, area.width);
    // Outside: the legend takes a column right of the plot, at most kOutsideLegendShare of the
    // area's width (longer names wrap).
    float outsideWidth =
        beside ? std::min(legendBoxWidth(keys, theme), area.width * kOutsideLegendShare) : 0;
    if (outsideWidth > 0) {
        // A column from the plot's top to the area's bottom too short for a key a row: the keys
        // side by side (legend.cpp), as many columns as the share allows.
        const float tall = area.height - m.top - 2, row = theme.fontSize * 1.35f;
        const double perColumn = std::max(1.0, std::floor(double(tall - 8) / double(row)));
        const double columns = std::ceil(double(keys.size()) / perColumn);
        if (columns > 1)
            outsideWidth = std::min(float(columns) * legendBoxWidth(keys, theme),
                                    area.width * kOutsideLegendShare);
        if (wideColumn) {
            // The share's column left keys out: as wide as every key needs, names whole, as far
            // as the plot keeps its least width; else that wide, the names wrapped in it.
            // (The column starts below the title's extra lines, added to m.top further down.)
            const float titled =
                tall -
                plot_parts::plotTitleLines(title, area.width, area.height - m.top - m.bottom, theme)
                    .extra;
            const float need = plot_parts::legendColumnsWidth(keys, theme, titled);
            const float most = area.width - m.left - m.right - gap -
                               std::max(area.width * kNarrowPlotShare, theme.fontSize * 6);
            outsideWidth = std::max(outsideWidth, std::min(need, most));
        }
    }
    if (beside) m.right += outsideWidth + gap;
    plot_parts::fitXLabelRows(m, spec.x, theme, area.width, area.height);  // the narrower plot
    plot_parts::TitleLines titleLines =
        plot_parts::plotTitleLines(title, area.width, area.height - m.top - m.bottom, theme);
    // The view's own shorter words rather than the title's head and "…" (a replaced title is
    // the user's: kept as it is).
    if (titleLines.cut && !spec.shortTitle.empty() && title == spec.title)
        titleLines = plot_parts::plotTitleLines(spec.shortTitle, area.width,
                                                area.height - m.top - m.bottom, theme);
    m.top += titleLines.extra;
    // Tick labels wider at the final height narrow the plot: the x label's rows for that width.
    const float left = m.left;
    plot_parts::fitYTickWidth(m, y, theme, area.height - m.top - m.bottom);
    if (m.left > left) plot_parts::fitXLabelRows(m, spec.x, theme, area.width, area.height);
    PlotFrame frame;
    frame.x = spec.x;
    frame.y = y;
    frame.plot = {area.x + m.left, area.y + m.top, std::max(1.f, area.width - m.left - m.right),
                  std::max(1.f, area.height - m.top - m.bottom)};
    const Box titleArea = area;
    if (theme.aspect == AspectMode::Square) plot_parts::makeSquare(area, frame.plot);
    // The column runs from the plot's top to the panel's bottom: nothing else is drawn there
    // (under a square plot too: a one-column square's column was its height and left keys out).
    // Rows under the plot start where it does (its margins made for its final height).
    if (rowsUnderPlot) rows.x = std::min(frame.plot.x, titleArea.right() - rows.width);
    if (rows.width > 0) frame.legendColumn = rows;
    if (beside)
        frame.legendColumn = {frame.plot.right() + gap, frame.plot.y, outsideWidth,
                              std::max(frame.plot.height, titleArea.bottom() - frame.plot.y - 2)};
    frame.legendWrapNames = wrapNames;
    if (!title.empty()) plot_parts::drawTitleLines(figure, titleArea, titleLines, theme);

    RectItem background;
    background.box = frame.plot;
    background.fill = theme.plotBackground;
    figure.add(background);
    plot_parts::drawAxes(figure, area, frame, theme, true);
    plot_parts::drawMarkers(figure, frame, spec.markers, theme, plot_parts::MarkerPart::Lines);
    std::vector<Point> drawnPoints;  // where the data is, for placing the legend

    figure.add(ClipPush{frame.plot});
    for (const BarSeries& bars : spec.bars) {
        // On a log axis the bars stand on its bottom, where 0 would be.
        const double base = y.logarithmic ? std::min(y.low, y.high) : 0.0;
        for (std::size_t b = 0; b < bars.heights.size() && b + 1 < bars.edges.size(); ++b) {
            const double height = bars.heights[b];
            if (!std::isfinite(height) || height <= 0) continue;
            const Point p0 = frame.toPixel(bars.edges[b], base),
                        p1 = frame.toPixel(bars.edges[b + 1], height);
            const float top = std::min(p0.y, p1.y), bottom = std::max(p0.y, p1.y);
            if (bottom - top < 0.5f) continue;  // under half a pixel: nothing a reader sees
            RectItem bar;  // a pixel's gap between neighbours keeps the bins apart
            bar.box = {std::min(p0.x, p1.x), top, std::max(1.f, std::abs(p1.x - p0.x) - 1),
                       bottom - top};
            bar.fill = bars.fill;
            figure.add(bar);
            figure.addMark(bar.box);
            // The legend's last-resort corner counts these: the bar's top and its middle.
            drawnPoints.push_back({bar.box.x, top});
            drawnPoints.push_back({bar.box.right(), top});
            drawnPoints.push_back({bar.box.x + bar.box.width / 2, top + bar.box.height / 2});
        }
    }
    for (std::size_t index = 0; index < spec.series.size(); ++index) {
        const LineSeries& s = spec.series[index];
        const Rgba color =
            s.color.a == 0 ? seriesColor(int(index), theme) : lineColorOn(s.color, theme);
        PolylineItem line;
        line.color = color;
        line.width = strokeWidth(theme, s.width);
        auto flush = [&] {
            if (line.points.size() >= 2 && s.segments) {
                for (std::size_t i = 1; i < line.points.size(); ++i)
                    figure.add(
                        LineItem{line.points[i - 1], line.points[i], color, line.width, false});
                figure.addCurveMark(line.points, line.width);
            } else if (line.points.size() >= 2) {
                figure.add(line);
            }
            line.points.clear();
        };
        // A series with more dots than the plot has pixel columns (16 draws of 4,096 positions
        // on 1,000 pixels) gets one dot per pixel it touches: the others would land on the same
        // pixel, and each dot costs a circle on screen and in every vector file.
        const bool dense = s.markers && double(s.x.size()) > double(frame.plot.width);
        std::unordered_set<std::uint64_t> dottedPixels;
        for (std::size_t i = 0; i < s.x.size() && i < s.y.size(); ++i) {
            const bool valid = std::isfinite(s.x[i]) && std::isfinite(s.y[i]) &&
                               (!spec.x.logarithmic || s.x[i] > 0) &&
                               (!y.logarithmic || s.y[i] > 0);
            if (!valid) {
                flush();
                continue;
            }
            const Point p = frame.toPixel(s.x[i], s.y[i]);
            line.points.push_back(p);
            drawnPoints.push_back(p);
            const auto pixel = [](float v) { return std::uint64_t(std::uint32_t(std::lround(v))); };
            if (s.markers &&
                (!dense || dottedPixels.insert(pixel(p.x) << 32 | pixel(p.y)).second)) {
                CircleItem dot;
                dot.center = p;
                dot.radius = strokeWidth(theme, 2.5f);
                dot.fill = color;
                figure.add(dot);
            }
        }
        flush();
    }
    figure.add(ClipPop{});

    if (autoLater && legendFits && rows.width <= 0) {
        // Would the caller's legend find a place hiding no curve? Laid out as it will be, then
        // taken back out.
        const Box& p = frame.plot;
        const std::size_t items = figure.items.size(), marks = figure.marks.size();
        bool free = true;
        plot_parts::drawLegendRows(
            figure, frame, keys, theme,
            [&](float w, float h) {
                return plot_parts::legendPlace(figure, frame, w, h,
                                               {p.right() - w - 6, p.bottom() - h - 6, w, h});
            },
            [&](float w, float h) {
                free = false;
                return Box{p.x, p.y, w, h};
            });
        figure.truncate(items, marks);
        if (!free) *legendFits = false;
    }
    std::optional<Box> legendBox;
    if (legend) {
        // A place that hides no data (corners first); else, when the caller lets it, the
        // legend goes outside (legendFits false: drawLinePlot redraws with it there); else the
        // corner that hides the fewest data points, top right when they tie.
        const Box& p = frame.plot;
        auto free = [&](float w, float h) {
            return plot_parts::legendPlace(figure, frame, w, h, {p.right() - w - 6, p.y + 6, w, h});
        };
        auto corner = [&](float w, float h) {
            if (legendFits) *legendFits = false;
            const Box corners[] = {{p.right() - w - 6, p.y + 6, w, h},
                                   {p.x + 6, p.y + 6, w, h},
                                   {p.right() - w - 6, p.bottom() - h - 6, w, h},
                                   {p.x + 6, p.bottom() - h - 6, w, h}};
            Box box = corners[0];
            double best = INFINITY;
            for (const Box& c : corners) {
                double cost = 0;
                for (Point q : drawnPoints) cost += c.contains(q);
                if (cost < best) best = cost, box = c;
            }
            return box;
        };
        // Names wrapped side by side only once whole ones had their chance beside a narrower
        // plot or below it (drawLinePlot): the last resort.
        legendBox =
            plot_parts::drawLegendRows(figure, frame, keys, theme, free, corner, 0, wrapNames);
        if (legendBox) frame.legend = *legendBox;
    }
    plot_parts::drawMarkers(figure, frame, spec.markers, theme, plot_parts::MarkerPart::Labels,
                            legendBox ? std::vector<Box>{*legendBox} : std::vector<Box>{},
                            unplaced);
    plot_parts::drawAxisLabels(figure, area, frame, theme);
    if (spec.legendLater && laterLeftOut && frame.legendColumn.width > 0 && !keys.empty()) {
        // The caller's legend in the room kept for it, laid out as drawLegendAfter will lay it
        // out and taken back out: keys it would leave out move it as the plot's own legend's
        // move (drawLinePlot: below, columns of whole names beside a narrower plot, wrapped).
        const std::size_t items = figure.items.size(), marks = figure.marks.size();
        const std::size_t left = figure.leftOut.size();
        plot_parts::drawLegendRows(
            figure, frame, keys, theme, [](float, float) { return std::optional<Box>{}; },
            [&](float w, float h) {
                return Box{frame.legendColumn.x, frame.legendColumn.y, w, h};
            },
            0, frame.legendWrapNames);
        *laterLeftOut = figure.leftOut.size() > left;
        figure.truncate(items, marks);
    }
    panel.setPlot(frame.plot);
    if (frameOut) *frameOut = frame;
}

}  // namespace

void drawLinePlot(Figure& figure, Box area, const LinePlotSpec& spec, const Theme& theme,
                  PlotFrame* frameOut) {
    const Figure::Checkpoint start = figure.checkpoint();
    const std::size_t leftOut = figure.leftOut.size();
    auto undo = [&] { figure.rollBack(start); };
    // In a file whose height may grow (`--width` alone, every panel shown): `more` px of the
    // area's height, grown in proportion, as a grid's rows grow with the canvas (the plot is
    // area.height of figure.height). For the rows' trial on a taller area (rowsMayGrow): a plot
    // that is most of the file, or a grid's panel unless its view budgets the file's height
    // (LinePlotSpec::rowsGrowGrid: Compare and Extrapolation at one column grew by a third);
    // for a plot left flatter than kRowsPlotLines (`flat`): any. Never a square plot, whose file
    // is sized to the square.
    const bool panelsMayGrow = theme.panelRoom != nullptr && theme.aspect != AspectMode::Square;
    const bool rowsMayGrow =
        panelsMayGrow && (area.height > 0.5f * figure.height || spec.rowsGrowGrid);
    auto askForPlotHeight = [&](float more, bool flat = false) {
        if (!(rowsMayGrow || (flat && panelsMayGrow)) || !(more > 0) || !(area.height > 0)) return;
        const float perPx =
            spec.canvasPerAreaPx > 0 ? spec.canvasPerAreaPx : figure.height / area.height;
        theme.panelRoom->missingHeight = std::max(theme.panelRoom->missingHeight, more * perPx);
    };
    // Redrawn (at most twice) when the first try leaves something in a poor place:
    // - a marker's label with no place that hides no data, whole: its line is listed in the
    //   legend instead (a dashed key in its colour), where the reader finds it by its style;
    // - an automatic legend that would hide data everywhere inside the plot: it moves outside
    //   (the plot narrows), when the area is wide enough for a column of its names beside a
    //   readable plot;
    // - an outside legend whose column left keys out: below the plot, else in columns as wide
    //   as the names need; only when neither holds them all do they stay out (recorded, and the
    //   layout check counts them as cut text);
    // - the one rule for an automatic legend beside the plot or with a name split over lines:
    //   rows under the plot instead, when they leave it more area, or show every name whole where
    //   it split one, with nothing cut or left out and the plot kRowsPlotLines tall (#28: views
    //   kept two copies of this rule, and the others squeezed one-column plots to half width).
    LinePlotSpec adjusted;
    const LinePlotSpec* current = &spec;
    Theme placed = theme;
    bool legendBelow = false, belowRefused = false;
    bool shortBelow = false;  // below by the short plot's rule (kShortPlotLines), not the first
    bool wideColumn = false;
    bool wrapInShare = false;  // the last resort: the first column, names wrapped side by side
    std::size_t shareCut = 0;  // texts cut short when the first column left keys out
    // The rows' trial: the placement the tries settled on, and their state to draw it again.
    enum class RowsTrial { Untried, Trying, Extending, Done } rowsTrial = RowsTrial::Untried;
    Box drawArea = area;  // the area drawn in: taller than `area` in the extended trial
    int extensions = 0;   // extended trials so far
    struct Settled {
        float area = 0, plotHeight = 0;
        std::size_t cut = 0, leftOut = 0;
        bool splits = false;
        Theme placed;
        bool legendBelow, belowRefused, shortBelow, wideColumn, wrapInShare;
        std::size_t shareCut;
        std::optional<LinePlotSpec> adjusted;  // set when the tries listed marker labels
    } settled;
    for (int attempt = 0;; ++attempt) {
        const bool canMove =
            placed.legend == LegendPlacement::Auto && (current->legendLater || current->legend);
        // Labels move into a legend the plot draws itself, in any try that moved it or the
        // plot (a label placed beside the wide plot of the first tries may find no place
        // beside the narrower one: DeBERTa's "identity up to 128" at one column was cut), up
        // to a bound: each listing takes labels out for good, so the tries end.
        const bool canList = attempt < kListingTries && !current->legendLater &&
                             placed.legend != LegendPlacement::None;
        bool legendFits = true, laterLeftOut = false;
        std::vector<std::size_t> unplaced;
        PlotFrame frame;
        drawLinePlotOnce(figure, drawArea, *current, placed, &frame,
                         canMove && !legendBelow ? &legendFits : nullptr,
                         canList ? &unplaced : nullptr, &laterLeftOut, legendBelow, wideColumn,
                         wideColumn || wrapInShare);
        // Keys left out of the room beside or below the plot: its own legend's, or the caller's.
        const bool keysLeftOut = figure.leftOut.size() > leftOut || laterLeftOut;
        if (frameOut) *frameOut = frame;
        // Below, it left the plot flatter than kShortPlotLines (more rows than measured: a
        // marker's label listed in it, a title that took a second line): back inside, where it
        // was; a plot too flat to read is no better than a legend on it.
        if (shortBelow && !belowRefused && frame.plot.height < placed.fontSize * kShortPlotLines) {
            undo();
            legendBelow = shortBelow = false;
            belowRefused = true;
            continue;
        }
        if (wideColumn && !legendBelow && cutTexts(figure).size() > shareCut) {
            // The narrower plot cut a text short (its title or x label had no room for a
            // second line): below a plot of at least kShortPlotLines (undone below when it is
            // flatter), else the first column back, the names wrapped side by side in it (the
            // order the keys left out of the column take: wrapped names are the last resort).
            undo();
            wideColumn = false;
            if (!belowRefused)
                legendBelow = shortBelow = true;
            else
                wrapInShare = true;
            continue;
        }
        if (keysLeftOut && unplaced.empty() && !legendBelow &&
            placed.legend != LegendPlacement::Auto && !(wideColumn && belowRefused) &&
            !wrapInShare) {
            // Keys left out of the column beside the plot: below it when the plot keeps most of
            // its height, else columns of whole names beside a narrower plot, else below a plot
            // of at least kShortPlotLines (undone above when it is flatter).
            const std::vector<LegendKey> keys = linePlotLegendKeys(*current, placed);
            const float rows = plot_parts::legendRowsHeight(keys, placed, frame.plot.width);
            const bool roomy =
                area.height - rows >= std::max(area.height * 0.6f, placed.fontSize * 8);
            if (!wideColumn) shareCut = cutTexts(figure).size();
            undo();
            if ((roomy || wideColumn) && !belowRefused)
                legendBelow = shortBelow = true;
            else
                wideColumn = true;
            continue;
        }
        bool moveLegend = false;
        if (!legendFits) {
            // A column too narrow for the names, or a few words of each, beside the plot: the
            // legend goes below it when the plot keeps most of its height (and eight lines of
            // text: fourteen, at a projector's font, ruled out every plot under a lesson
            // card, and the legend stayed on the data), else stays.
            const std::vector<LegendKey> keys = linePlotLegendKeys(*current, placed);
            const float column = area.width * kOutsideLegendShare;
            moveLegend = !(legendBoxWidth(keys, placed) > column &&
                           column < strokeWidth(placed, 18) + 16 + placed.fontSize * 6);
            if (!moveLegend && !legendBelow && !belowRefused) {
                // Below, its keys side by side: also when the plot keeps less than that but
                // still one and a half lines of text tall (a short plot in a small window), where
                // the legend inside would hide the data.
                const float rows = plot_parts::legendRowsHeight(keys, placed, area.width * 0.8f);
                // The rows as wide as the plot, where they go (drawLinePlotOnce).
                const float plotLeft = frame.plot.height - placed.fontSize * 0.4f -
                                       plot_parts::legendRowsHeight(keys, placed, frame.plot.width);
                legendBelow =
                    area.height - rows >= std::max(area.height * 0.6f, placed.fontSize * 8);
                shortBelow = !legendBelow && plotLeft >= placed.fontSize * kShortPlotLines;
                legendBelow = legendBelow || shortBelow;
                moveLegend = legendBelow;
            }
        }
        if (unplaced.empty() && !moveLegend) {
            const std::size_t keyCount = linePlotLegendKeys(*current, placed).size();
            const bool ownLegend = current->legend && frame.legend.width > 0;
            const bool splits =
                ownLegend && legendSplitsAName(figure, start.items, frame.legend, keyCount, placed);
            // (Not for a square plot: its file is sized to the square, which rows under it
            // make as wide as the file and the canvas as tall as it may be; beside, it is
            // smaller and the file shorter.)
            if (rowsTrial == RowsTrial::Untried && theme.legend == LegendPlacement::Auto &&
                theme.aspect != AspectMode::Square && !legendBelow) {
                const Box& legendBox = ownLegend ? frame.legend : frame.legendColumn;
                const bool beside = (ownLegend || current->legendLater) && legendBox.width > 0 &&
                                    legendBox.x >= frame.plot.right() - 1;
                if (beside || splits) {
                    settled.area = frame.plot.width * frame.plot.height;
                    settled.plotHeight = frame.plot.height;
                    settled.cut = cutTexts(figure).size();
                    settled.leftOut = figure.leftOut.size();
                    settled.splits = splits;
                    settled.placed = placed;
                    settled.legendBelow = legendBelow;
                    settled.belowRefused = belowRefused;
                    settled.shortBelow = shortBelow;
                    settled.wideColumn = wideColumn;
                    settled.wrapInShare = wrapInShare;
                    settled.shareCut = shareCut;
                    if (current == &adjusted) settled.adjusted = adjusted;
                    undo();
                    rowsTrial = RowsTrial::Trying;
                    legendBelow = true;
                    shortBelow = false;
                    placed.legend = LegendPlacement::Auto;
                    continue;
                }
            }
            if (rowsTrial == RowsTrial::Trying || rowsTrial == RowsTrial::Extending) {
                const bool extended = rowsTrial == RowsTrial::Extending;
                const bool kept = figure.leftOut.size() <= settled.leftOut && !splits;
                const bool uncut = cutTexts(figure).size() <= settled.cut;
                const bool tall = frame.plot.height >= kRowsPlotLines * placed.fontSize;
                const bool roomier = frame.plot.width * frame.plot.height > settled.area;
                const bool better = kept && uncut && tall && (roomier || settled.splits);
                if (better && !extended) {
                    rowsTrial = RowsTrial::Done;
                } else {
                    // Not better here. In a file whose height may grow, the rows are tried once
                    // more on an area as much taller as the plot needs to keep the height it had
                    // (kRowsPlotLines at least): taken there, the canvas grows by that and the
                    // next build takes the rows; this build keeps the settled placement.
                    const float target =
                        std::max(kRowsPlotLines * placed.fontSize, settled.plotHeight);
                    // (Again while the taller plot is still short of it: a title or label that
                    // took another line there took some of the height.)
                    const bool extend = !better && extensions < kRowsExtensions && kept &&
                                        rowsMayGrow && frame.plot.height < target;
                    if (extended && better) askForPlotHeight(drawArea.height - area.height);
                    const float taller = drawArea.height - area.height + target -
                                         frame.plot.height + placed.fontSize * 0.5f;
                    undo();
                    drawArea = area;
                    placed = settled.placed;
                    legendBelow = settled.legendBelow;
                    belowRefused = settled.belowRefused;
                    shortBelow = settled.shortBelow;
                    wideColumn = settled.wideColumn;
                    wrapInShare = settled.wrapInShare;
                    shareCut = settled.shareCut;
                    current = &spec;
                    if (settled.adjusted) {
                        adjusted = *settled.adjusted;
                        current = &adjusted;
                    }
                    rowsTrial = RowsTrial::Done;
                    if (extend) {
                        rowsTrial = RowsTrial::Extending;
                        ++extensions;
                        drawArea.height += taller;
                        legendBelow = true;
                        shortBelow = false;
                        placed.legend = LegendPlacement::Auto;
                    }
                    continue;
                }
            }
            // Rows below a plot flatter than kRowsPlotLines, in a file whose height may grow:
            // the canvas grows for it (as Frequencies and Scalings asked for themselves), also
            // for a grid's panel, which asks for no more than that (DeBERTa's buckets at one
            // column cut their title without it).
            if (legendBelow && frame.plot.height < kRowsPlotLines * placed.fontSize)
                askForPlotHeight(
                    kRowsPlotLines * placed.fontSize - frame.plot.height + placed.fontSize * 0.5f,
                    true);
            if (keysLeftOut && placed.panelRoom && frame.legendColumn.height > 0) {
                // A file whose height may grow (`--width` alone, every panel shown): the height
                // its keys lack, grown in proportion, as a grid's rows grow with the canvas (the
                // plot is area.height of figure.height), so the keys fit on the taller canvas.
                const std::vector<LegendKey> keys = linePlotLegendKeys(*current, placed);
                const float lacking =
                    plot_parts::legendRowsHeight(keys, placed, frame.legendColumn.width) -
                    frame.legendColumn.height;
                if (lacking > 0 && area.height > 0)
                    placed.panelRoom->missingHeight =
                        std::max(placed.panelRoom->missingHeight,
                                 (lacking + placed.fontSize) * figure.height / area.height);
            }
            return;
        }
        undo();
        if (moveLegend && !legendBelow) placed.legend = LegendPlacement::Outside;
        if (!unplaced.empty()) {
            if (current != &adjusted) {
                adjusted = spec;
                adjusted.keys =
                    current->legend ? linePlotLegendKeys(spec, theme) : std::vector<LegendKey>{};
                adjusted.legend = true;
                current = &adjusted;
            }
            for (std::size_t index : unplaced) {
                Marker& marker = adjusted.markers[index];
                adjusted.keys.push_back({marker.label, marker.color, false, marker.dashed});
                marker.label.clear();
            }
        }
    }
}

void dashSeries(LineSeries& series, double pixelsPerUnit, double centre) {
    if (!(pixelsPerUnit > 0) || !std::isfinite(pixelsPerUnit) || series.x.size() < 3) return;
    // The points' spacing in pixels: a dash holds two points at least, a gap one.
    double spacing = INFINITY;
    for (std::size_t i = 1; i < series.x.size(); ++i) {
        const double step = std::abs(series.x[i] - series.x[i - 1]) * pixelsPerUnit;
        if (step > 0 && std::isfinite(step)) spacing = std::min(spacing, step);
    }
    if (!std::isfinite(spacing)) return;
    const double on = std::max(kDashOnPixels, 2 * spacing);
    const double off = std::max(kDashOffPixels, spacing);
    const std::size_t n = std::min(series.x.size(), series.y.size());
    for (std::size_t i = 1; i + 1 < n; ++i) {
        const double along = std::abs(series.x[i] - centre) * pixelsPerUnit + on / 2;
        if (std::fmod(along, on + off) >= on) series.y[i] = NAN;
    }
}

}  // namespace poslab
