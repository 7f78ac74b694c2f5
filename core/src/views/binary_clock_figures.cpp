// binary_clock_figures.cpp — the binary clock beside the sinusoidal dimensions
// (views/binary_clock_figures.hpp).
#include "poslab/views/binary_clock_figures.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <optional>
#include <string>
#include <vector>

#include "poslab/analysis/intuition.hpp"
#include "poslab/base/limits.hpp"
#include "poslab/base/validate.hpp"
#include "poslab/figure/colormap.hpp"
#include "poslab/figure/layout.hpp"
#include "poslab/figure/legend.hpp"
#include "poslab/figure/panel_grid.hpp"
#include "poslab/figure/text_fit.hpp"
#include "poslab/views/sinusoidal_figures.hpp"

namespace poslab {

namespace {

constexpr double kTwoPi = 2 * std::numbers::pi;
constexpr const char* kBitSquareKey = "2·bit − 1";                // the bit, as a square wave
constexpr const char* kBitSinusoidKey = "sinusoid, same period";  // its sinusoid

// Bit b's plot title: its period and the sinusoidal pair nearest to it (short: λ for
// "has wavelength").
std::string bitCaption(int b, const SinusoidalParams& table, bool shortForm) {
    const double period = std::ldexp(1.0, b + 1);
    const int k = nearestFrequencyIndex(table, period);
    const double wavelength = k >= 0 ? kTwoPi / sinusoidalFrequencies(table)[std::size_t(k)] : 0;
    if (k < 0) return "bit " + std::to_string(b) + ": period " + formatValue(period);
    return "bit " + std::to_string(b) + ": period " + formatValue(period) + "; nearest PE pair " +
           std::to_string(k) + (shortForm ? ", λ = " : " has wavelength ") +
           formatValue(wavelength, 3);
}

}  // namespace

void drawBinaryClock(Figure& figure, Box area, const BinaryClockOptions& options,
                     const Theme& theme, int panel) {
    const int bits = std::clamp(options.bits, 1, 12);
    const int positions = std::clamp(options.positions, 2, 4096);
    const PanelGrid grid = reflowOrFocus(area, kBinaryClockPanels, theme, panel);
    figure.viewPanels = kBinaryClockPanels.count;  // --panel N: the GUI's panel N
    Box left = grid.cell(0), middle = grid.cell(1), right = grid.cell(2);
    if (grid.columns == 3) {  // side by side: the curves take the most room
        left = {area.x, area.y, std::floor(area.width * 0.22f), area.height};
        middle = {left.right() + 6, area.y, std::floor(area.width * 0.25f), area.height};
        right = {middle.right() + 10, area.y, area.right() - middle.right() - 10, area.height};
    }

    HeatmapSpec binary = matrixSpec("bits of the position", binaryTable(positions, bits).value(),
                                    left, ColormapId::Cividis, {0, 1});
    binary.x.label = "bit";  // bit 0 first: the curves beside it name each one
    binary.y.label = "position";
    binary.colorbarLabel = "bit";
    binary.barTicks = BarTicks::Integers;  // a bit is 0 or 1: no 0.5 between them
    if (grid.shows(0)) drawHeatmap(figure, left, binary, theme);

    SinusoidalParams table = options.sinusoidal;
    table.seqLen = positions;
    SinusoidalHeatmapOptions heatmap;
    heatmap.window = {0, positions, 0, std::min<long long>(table.dModel, 2LL * bits + 8)};
    HeatmapSample sample = sinusoidalSampleForArea(table, heatmap.window, middle);
    HeatmapSpec spec;
    spec.title = "sinusoidal dims (fastest first)";
    spec.x = {"dimension", 0, double(heatmap.window.colCount), false, true};
    spec.y = {"position", 0, double(positions), false, true};
    spec.values = sample.values;
    spec.version = sample.version;
    spec.valuesRowSpan = sample.rowSpan;
    spec.valuesColSpan = sample.colSpan;
    spec.colormap = ColormapId::BlueWhiteRed;
    spec.range = {-1, 1};
    spec.colorbarLabel = "value";
    if (grid.shows(1)) drawHeatmap(figure, middle, spec, theme);
    if (!grid.shows(2)) return;

    const float gap = 4;
    // The bit plots stacked in `stack`, under the two curves' keys (drawn once above them: a
    // legend beside bit 0's plot made that plot narrower than the others, a fifth of it at one
    // column in print and at 1440x900; inside it, a few lines tall, it covered the curves).
    auto drawBits = [&](Box stack) {
        // As many bits as have room for a title, ticks and a plot (about 5.5 lines each).
        // The last one also holds the x axis' label ("position"): a row more, kept out of the
        // shared height (equal cells squeezed the last plot to a strip, 13 px at 1440x900 F5).
        const float perBit = theme.fontSize * 5.5f, labelRow = theme.fontSize * 1.6f;
        const int fit = int((stack.height - labelRow) / perBit);
        const int wanted = std::min(bits, 6);
        // Too short for every bit in one column (a projector's panel: bits 2-4 were left out
        // at 1024x768 F5): side-by-side columns where each stays wide enough to read.
        const int rows = std::clamp(fit, 1, wanted);
        const float columnGap = theme.fontSize * 1.5f, minColumn = theme.fontSize * 12;
        const int columnsFit =
            std::max(1, int((stack.width + columnGap) / (minColumn + columnGap)));
        const int columns = std::min(columnsFit, (wanted + rows - 1) / rows);
        const int shown = std::min(wanted, rows * columns);
        const float columnWidth =
            std::floor((stack.width - columnGap * float(columns - 1)) / float(columns));
        // A file that shows every panel (one column in print) grows its canvas for the bits
        // missing (the panel's share of the canvas grows with it: stacked panels, a third each).
        if (theme.panelRoom && shown < wanted && stack.height > 0) {
            const float lacking = (perBit * float(wanted) + theme.fontSize * 2 - stack.height) *
                                  area.height / stack.height;
            theme.panelRoom->missingHeight = std::max(theme.panelRoom->missingHeight, lacking);
        }
        const int curvePositions = std::min(positions, 64);
        const float cellHeight =
            std::max(1.f, (stack.height - labelRow - gap * float(rows - 1)) / float(rows));
        for (int b = 0; b < shown; ++b) {
            // Down each column first: bit order reads top to bottom, then the next column.
            const int column = b / rows, row = b % rows;
            const bool lastInColumn = row == rows - 1 || b == shown - 1;
            const Box cell{std::floor(stack.x + float(column) * (columnWidth + columnGap)),
                           std::floor(stack.y + float(row) * (cellHeight + gap)), columnWidth,
                           std::floor(cellHeight + (lastInColumn ? labelRow : 0))};
            LinePlotSpec curves;
            // The short form when the caption would be cut (one column in print): the plot has
            // no room for a second line. In a projector's columns, the bit and its period alone.
            auto fits = [&](const std::string& caption) {
                return estimateTextWidth(caption,
                                         std::max(theme.fontSize * 0.9f, theme.minTextSize)) <=
                       cell.width - theme.fontSize;
            };
            curves.title = bitCaption(b, table, false);
            if (!fits(curves.title)) curves.title = bitCaption(b, table, true);
            if (!fits(curves.title))
                curves.title =
                    "bit " + std::to_string(b) + ": period " + formatValue(std::ldexp(1.0, b + 1));
            curves.x = {lastInColumn ? "position" : "", 0, double(curvePositions)};
            curves.y = {"", -1.3, 1.3};
            curves.autoRangeY = false;
            curves.legend = false;  // the keys above the stack name the two curves
            LineSeries square, smooth;
            square.name = kBitSquareKey;
            smooth.name = kBitSinusoidKey;
            square.color = seriesColor(0, theme);
            smooth.color = seriesColor(1, theme);
            // Steps: a point where each run of equal bits starts and ends, none in between.
            for (int p = 0; p < curvePositions; ++p) {
                const double v = 2.0 * positionBit(p, b) - 1;
                if (p == 0 || positionBit(p - 1, b) != positionBit(p, b)) {
                    square.x.push_back(p), square.y.push_back(v);
                }
                if (p + 1 == curvePositions || positionBit(p + 1, b) != positionBit(p, b)) {
                    square.x.push_back(p + 1), square.y.push_back(v);
                }
            }
            const int samples = std::clamp(texelBudget(cell.width), 64, 1024);
            for (int i = 0; i <= samples; ++i) {
                const double p = double(curvePositions) * i / samples;
                smooth.x.push_back(p), smooth.y.push_back(bitSinusoid(p - 0.5, b));
            }
            curves.series = {square, smooth};
            Theme small = theme;
            small.titleSize = theme.fontSize;
            drawLinePlot(figure, cell, curves, small);
        }
    };
    // The two curves' keys once above `stack`, side by side (below a plot of no height: rows as
    // wide as it); returns where the plots below them start.
    auto drawKeysAbove = [&](Box stack) {
        PlotFrame row;
        row.plot = {stack.x, stack.y, stack.width, 0};
        row.legendColumn = stack;
        const std::vector<LegendKey> keys = {{kBitSquareKey, seriesColor(0, theme)},
                                             {kBitSinusoidKey, seriesColor(1, theme)}};
        const std::optional<Box> drawn =
            drawLegendAfter(figure, row, keys, LegendCorner::TopRight, 0, theme);
        return drawn ? drawn->bottom() + gap * 2 : stack.y;
    };
    // Every bit in one plot, a lane each (bit b's curves around y = b, the y axis counting
    // bits), its period beside its lane: on screen, where the stack is too short for a plot
    // per bit in one column (a projector's panel drew 65 px plots under their own titles and
    // ticks in three columns at 1024x768 F5; a 480x320 window left bits 3 and 4 out).
    const int wanted = std::min(bits, 6);
    const bool lanes = !theme.panelRoom && int((right.height - theme.fontSize * 1.6f) /
                                               (theme.fontSize * 5.5f)) < wanted;
    if (lanes) {
        const int curvePositions = std::min(positions, 64);
        LinePlotSpec plot;
        plot.title = "bit b: period $2^{b+1}$";
        plot.x = integerAxis("position", 0, double(curvePositions));
        plot.y = integerAxis("bit", -0.6, double(wanted) - 0.4);
        plot.autoRangeY = false;
        plot.legend = false;
        const float laneHalf = 0.38f;
        for (int b = 0; b < wanted; ++b) {
            LineSeries square, smooth;
            for (int p = 0; p < curvePositions; ++p) {
                const double v = b + laneHalf * (2.0 * positionBit(p, b) - 1);
                if (p == 0 || positionBit(p - 1, b) != positionBit(p, b))
                    square.x.push_back(p), square.y.push_back(v);
                if (p + 1 == curvePositions || positionBit(p + 1, b) != positionBit(p, b))
                    square.x.push_back(p + 1), square.y.push_back(v);
            }
            const int samples = std::clamp(texelBudget(right.width), 64, 1024);
            for (int i = 0; i <= samples; ++i) {
                const double p = double(curvePositions) * i / samples;
                smooth.x.push_back(p);
                smooth.y.push_back(b + laneHalf * bitSinusoid(p - 0.5, b));
            }
            square.color = seriesColor(0, theme);
            smooth.color = seriesColor(1, theme);
            plot.series.push_back(std::move(square));
            plot.series.push_back(std::move(smooth));
        }
        const float top = theme.legend == LegendPlacement::None ? right.y : drawKeysAbove(right);
        // Each lane's period to the right of the plot, where it is wide enough to spare the
        // column; else the title's rule says it.
        const float periodWidth =
            estimateTextWidth("period " + formatValue(std::ldexp(1.0, wanted)), theme.fontSize) +
            theme.fontSize * 0.6f;
        const bool periods = periodWidth <= right.width * 0.25f;
        Theme small = theme;
        small.titleSize = theme.fontSize;
        PlotFrame frame;
        drawLinePlot(figure,
                     {right.x, top, right.width - (periods ? periodWidth : 0),
                      std::max(1.f, right.bottom() - top)},
                     plot, small, &frame);
        for (int b = 0; periods && b < wanted; ++b) {
            figure.add(makeText(
                {frame.plot.right() + theme.fontSize * 0.5f, frame.toPixel(0, double(b)).y},
                "period " + formatValue(std::ldexp(1.0, b + 1)), theme.fontSize, theme.mutedText,
                HorizontalAlign::Left, VerticalAlign::Middle));
        }
        return;
    }
    const float top = theme.legend == LegendPlacement::None ? right.y : drawKeysAbove(right);
    drawBits({right.x, top, right.width, right.bottom() - top});
}

constexpr const char* kBinaryClockTitle =
    "Sinusoids as a smooth binary clock: each bit flips twice as slowly as the one before";

PanelGrid binaryClockPanels(float width, float height, const Theme& theme, int panel) {
    const float titleHeight = titleBandHeight(theme, kBinaryClockTitle, width);  // as the figure's
    return reflowOrFocus({0, titleHeight, width, height - titleHeight}, kBinaryClockPanels, theme,
                         panel);
}

Result<Figure> binaryClockFigure(const BinaryClockOptions& options, float width, float height,
                                 const Theme& theme, int panel) {
    if (auto s = requireIntInRange("bits", options.bits, 1, 12); !s) return s.error();
    if (auto s = requireIntInRange("positions", options.positions, 2, 4096); !s) return s.error();
    SinusoidalParams check = options.sinusoidal;
    check.seqLen = options.positions;
    if (auto s = validate(check); !s) return s.error();
    Figure figure = emptyFigure(width, height, theme);
    const float titleHeight = titleBandHeight(theme, kBinaryClockTitle, width);
    drawTitle(figure, {0, 0, width, titleHeight}, kBinaryClockTitle, theme);
    drawBinaryClock(figure, {0, titleHeight, width, height - titleHeight}, options, theme, panel);
    return figure;
}

}  // namespace poslab
