#include "poslab/views/rope_figures.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <numbers>
#include <optional>
#include <vector>

#include "poslab/analysis/similarity.hpp"
#include "poslab/base/angle.hpp"
#include "poslab/base/limits.hpp"
#include "poslab/base/parallel.hpp"
#include "poslab/base/phase_grid.hpp"
#include "poslab/base/validate.hpp"
#include "poslab/encodings/rope_scaling.hpp"
#include "poslab/figure/layout.hpp"
#include "poslab/figure/text_boxes.hpp"

namespace poslab {

namespace {

constexpr double kPi = std::numbers::pi;
constexpr double kTwoPi = 2.0 * std::numbers::pi;

// The dimensions of pair i (as in rope.cpp; repeated here because the figures label them).
struct PairDims {
    std::size_t first, second;
};
PairDims pairDims(RopePairing pairing, std::size_t pairs, std::size_t i) {
    if (pairing == RopePairing::Half) return {i, i + pairs};
    return {2 * i, 2 * i + 1};
}

// x mod 2 pi, into (-pi, pi].
double wrapAngle(double x) {
    x = std::fmod(x, kTwoPi);
    if (x > kPi) x -= kTwoPi;
    if (x <= -kPi) x += kTwoPi;
    return x;
}

std::string printf1(const char* format, double value) {
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, format, value);
    return buffer;
}

// Whole positions without decimals, animated ones with two.
std::string positionText(double p) {
    return p == std::floor(p) ? printf1("%.0f", p) : printf1("%.2f", p);
}

bool vectorsFit(const std::vector<double>& q, const std::vector<double>& k,
                const RopeFrequencies& freqs) {
    return q.size() >= 2 * freqs.inverse.size() && q.size() == k.size();
}

// A line with a filled triangular head at `tip`.
void drawArrow(Figure& figure, Point from, Point tip, Rgba color, float width, float head) {
    const float dx = tip.x - from.x, dy = tip.y - from.y;
    const float length = std::hypot(dx, dy);
    if (length < 1) {
        CircleItem dot;
        dot.center = tip;
        dot.radius = width;
        dot.fill = color;
        figure.add(dot);
        return;
    }
    const float ux = dx / length, uy = dy / length;
    head = std::min(head, length * 0.6f);
    const Point base{tip.x - ux * head, tip.y - uy * head};
    figure.add(LineItem{from, {base.x + ux * 1.5f, base.y + uy * 1.5f}, color, width, false});
    PolygonItem triangle;
    triangle.points = {tip,
                       {base.x - uy * head * 0.45f, base.y + ux * head * 0.45f},
                       {base.x + uy * head * 0.45f, base.y - ux * head * 0.45f}};
    triangle.fill = color;
    figure.add(triangle);
}

// Legend rows: colour swatches (line segments) or plain text, each row centred on centreX.
// Entries that would pass maxWidth start a new row below (rowHeight apart), so a narrow figure
// wraps its legend instead of clipping it. Returns the number of rows drawn.
struct LegendEntry {
    std::string text;
    Rgba swatch{0, 0, 0, 0};  // alpha 0: no swatch
    bool dot = false;         // a dot instead of a line segment
};
int drawLegendRows(Figure& figure, float centreX, float firstY, float maxWidth, float rowHeight,
                   const std::vector<LegendEntry>& entries, const Theme& theme) {
    if (theme.legend == LegendPlacement::None) return 0;
    const float size = theme.fontSize;
    const float swatchWidth = size * 1.6f, gap = size * 1.4f;
    // An entry wider than a whole row is set smaller, or cut with "…": never past the edge.
    std::vector<FittedText> texts;
    for (const LegendEntry& e : entries) {
        texts.push_back(fitText(e.text, size, maxWidth - (e.swatch.a ? swatchWidth + 6 : 0)));
    }
    auto entryWidth = [&](std::size_t i) {
        return estimateTextWidth(texts[i].text, texts[i].size) +
               (entries[i].swatch.a ? swatchWidth + 6 : 0);
    };
    // Greedy rows: [begin, end) of entries, with the row's width.
    std::vector<std::pair<std::size_t, float>> rows;  // (first entry of the row, its width)
    for (std::size_t i = 0; i < entries.size(); ++i) {
        const float w = entryWidth(i);
        if (!rows.empty() && rows.back().second + gap + w <= maxWidth) {
            rows.back().second += gap + w;
        } else {
            rows.push_back({i, w});
        }
    }
    for (std::size_t r = 0; r < rows.size(); ++r) {
        const std::size_t end = r + 1 < rows.size() ? rows[r + 1].first : entries.size();
        const float y = firstY + rowHeight * float(r);
        float x = centreX - rows[r].second / 2;
        for (std::size_t i = rows[r].first; i < end; ++i) {
            const LegendEntry& e = entries[i];
            if (e.swatch.a) {
                if (e.dot) {
                    CircleItem dot;
                    dot.center = {x + swatchWidth / 2, y};
                    dot.radius = size * 0.3f;
                    dot.fill = e.swatch;
                    figure.add(dot);
                } else {
                    figure.add(LineItem{{x, y}, {x + swatchWidth, y}, e.swatch, 3, false});
                }
                x += swatchWidth + 6;
            }
            figure.add(makeText({x, y}, texts[i].text, texts[i].size, theme.text,
                                HorizontalAlign::Left, VerticalAlign::Middle));
            x += estimateTextWidth(texts[i].text, texts[i].size) + gap;
        }
    }
    return int(rows.size());
}

std::string cellsNote(long long rows, long long cols) {
    return std::to_string(rows) + " × " + std::to_string(cols) + " cells per pixel";
}

// RoPE's frequencies for params, or nothing after drawing why there are none into area.
std::optional<RopeFrequencies> frequenciesOrNote(Figure& figure, Box area, const RopeParams& params,
                                                 const Theme& theme) {
    auto freqs = ropeFrequencies(params);
    if (!freqs) {
        drawNote(figure, area, freqs.error().message, theme);
        return std::nullopt;
    }
    return std::move(freqs).value();
}

// ---- Heatmap samples: what the angle and score heatmaps share

// A sample's geometry without its values: the window kept inside rows x cols, at most
// maxRows x maxCols texels, the cells those texels cover, and a fresh version.
struct SampleShape {
    HeatmapSample sample;
    long long texelRows = 0, texelCols = 0;
};
SampleShape sampleShape(CellWindow window, long long rows, long long cols, int maxRows,
                        int maxCols) {
    SampleShape shape;
    HeatmapSample& sample = shape.sample;
    sample.window = clampWindow(window, rows, cols);
    const CellWindow& w = sample.window;
    sample.rowsPerTexel = cellsPerTexel(w.rowCount, maxRows);
    sample.colsPerTexel = cellsPerTexel(w.colCount, maxCols);
    shape.texelRows = (w.rowCount + sample.rowsPerTexel - 1) / sample.rowsPerTexel;
    shape.texelCols = (w.colCount + sample.colsPerTexel - 1) / sample.colsPerTexel;
    sample.rowSpan = double(shape.texelRows * sample.rowsPerTexel);
    sample.colSpan = double(shape.texelCols * sample.colsPerTexel);
    sample.version = nextMatrixVersion();
    return shape;
}

// The plot box `draw` (drawRopeAngles, drawRopeScores) gives a heatmap of `window` in `area`.
// The margins depend only on the axes and labels, so it lays the heatmap out once, without
// values, into a scratch figure.
template <class Options>
Box heatmapPlotBox(Box area, CellWindow window,
                   void (*draw)(Figure&, Box, const RopeParams&, const Options&, const Theme&,
                                const HeatmapSample*, PlotFrame*),
                   const RopeParams& params, const Options& options, const Theme& theme) {
    HeatmapSample layout;
    layout.window = window;
    Figure scratch;
    PlotFrame frame;
    frame.plot = area;
    draw(scratch, area, params, options, theme, &layout, &frame);
    return frame.plot;
}

// At most one texel per pixel of the plot box, in each direction.
int texelLimit(float pixels) {
    return texelBudget(pixels);
}

// The decay bound from the phases of one distance: (1/(d/2)) sum_j |sum_{k<j} e^(i r theta_k)|.
double decayBoundFromPhases(const double* cosines, const double* sines, std::size_t pairs) {
    double re = 0, im = 0, total = 0;
    for (std::size_t j = 0; j < pairs; ++j) {
        re += cosines[j];
        im += sines[j];
        total += std::sqrt(re * re + im * im);
    }
    return total / double(pairs);
}

// A heatmap of `sample`: the axes span its window, the texels cover its spans.
HeatmapSpec sampleSpec(const HeatmapSample& sample, std::string title, std::string xLabel,
                       std::string yLabel, ColormapId colormap, ValueRange range) {
    const CellWindow& w = sample.window;
    HeatmapSpec spec;
    spec.title = std::move(title);
    spec.x = {std::move(xLabel), double(w.firstCol), double(w.firstCol + w.colCount), false, true};
    spec.y = {std::move(yLabel), double(w.firstRow), double(w.firstRow + w.rowCount), false, true};
    spec.values = sample.values;
    spec.version = sample.version;
    spec.valuesRowSpan = sample.rowSpan;
    spec.valuesColSpan = sample.colSpan;
    spec.colormap = colormap;
    spec.range = range;
    return spec;
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Titles and colours
// ---------------------------------------------------------------------------------------------

std::string ropeScalingSummary(const RopeParams& params) {
    const RopeScalingParams& s = params.scaling;
    if (s.type == RopeScaling::None) return "no scaling";
    if (s.type == RopeScaling::Proportional) {
        // p-RoPE (Gemma 4): the share of pairs that rotate says more than a factor of 1.
        std::string text = "p-RoPE " + formatValue(100 * s.ropeProportion, 4) + "% rotating";
        if (s.factor != 1.0) text += " ×" + formatValue(s.factor, 4);
        return text;
    }
    return std::string(scalingName(s.type)) + " ×" + formatValue(s.factor, 4);
}

std::string ropeTitle(const RopeParams& params) {
    std::string title = "head_dim " + std::to_string(params.headDim);
    const int d = rotatedDims(params);
    if (d != params.headDim) title += " (" + std::to_string(d) + " rotated)";
    title += ", base " + formatValue(params.base, 6) + ", " +
             std::string(pairingName(params.pairing)) + " pairs";
    if (params.scaling.type != RopeScaling::None) title += ", " + ropeScalingSummary(params);
    return title;
}

Rgba ropeQueryColor(const Theme& theme) {
    return theme.id == ThemeId::Paper ? Rgba{0, 114, 178, 255} : Rgba{86, 180, 233, 255};
}

Rgba ropeKeyColor(const Theme& theme) {
    return theme.id == ThemeId::Paper ? Rgba{213, 94, 0, 255} : Rgba{230, 159, 0, 255};
}

// ---------------------------------------------------------------------------------------------
// Rotation
// ---------------------------------------------------------------------------------------------

std::vector<int> ropeRotationPairs(int pairCount, int maxPanels) {
    std::vector<int> pairs;
    if (pairCount <= 0 || maxPanels <= 0) return pairs;
    if (pairCount <= maxPanels) {
        for (int i = 0; i < pairCount; ++i) pairs.push_back(i);
        return pairs;
    }
    if (maxPanels == 1) return {0};
    for (int j = 0; j < maxPanels; ++j) {
        const int pair = int(std::lround(double(j) * (pairCount - 1) / (maxPanels - 1)));
        if (pairs.empty() || pairs.back() != pair) pairs.push_back(pair);
    }
    return pairs;
}

double ropePairAngleBetween(const std::vector<double>& q, const std::vector<double>& k, double m,
                            double n, const RopeFrequencies& freqs, RopePairing pairing, int pair) {
    const std::size_t pairs = freqs.inverse.size();
    const PairDims dims = pairDims(pairing, pairs, std::size_t(pair));
    const double unrotated =
        std::atan2(q[dims.second], q[dims.first]) - std::atan2(k[dims.second], k[dims.first]);
    // Through m - n, so shifting both positions leaves the result bit for bit the same.
    return wrapAngle(unrotated + wrapAngle((m - n) * freqs.inverse[std::size_t(pair)]));
}

double ropePairScore(const std::vector<double>& q, const std::vector<double>& k, double m, double n,
                     const RopeFrequencies& freqs, RopePairing pairing, int pair) {
    const std::size_t pairs = freqs.inverse.size();
    const PairDims dims = pairDims(pairing, pairs, std::size_t(pair));
    const double q1 = q[dims.first], q2 = q[dims.second];
    const double k1 = k[dims.first], k2 = k[dims.second];
    const double angle = (m - n) * freqs.inverse[std::size_t(pair)];
    const double gain = freqs.attentionFactor * freqs.attentionFactor;
    return gain * ((q1 * k1 + q2 * k2) * std::cos(angle) - (q2 * k1 - q1 * k2) * std::sin(angle));
}

void drawRopeRotation(Figure& figure, Box area, const RopeParams& params,
                      const RopeRotationOptions& options, const Theme& theme,
                      std::vector<RopeRotationCell>* cells) {
    if (cells) cells->clear();
    const std::optional<RopeFrequencies> freqs = frequenciesOrNote(figure, area, params, theme);
    if (!freqs) return;
    if (!vectorsFit(options.q, options.k, *freqs)) {
        drawNote(figure, area,
                 "q and k need " + std::to_string(params.headDim) + " entries each (got " +
                     std::to_string(options.q.size()) + " and " + std::to_string(options.k.size()) +
                     ")",
                 theme);
        return;
    }
    const int pairCount = int(freqs->inverse.size());
    std::vector<int> pairs;
    for (int pair : options.pairs.empty() ? ropeRotationPairs(pairCount, 16) : options.pairs) {
        if (pair >= 0 && pair < pairCount) pairs.push_back(pair);
    }
    if (pairs.empty()) pairs = ropeRotationPairs(pairCount, 16);
    const double m = options.m, n = options.n;
    const double score = ropeScore(options.q, options.k, m, n, *freqs, params.pairing);
    const Rgba qColor = ropeQueryColor(theme), kColor = ropeKeyColor(theme);

    // The title, on two lines (split after the dash) when one would not fit.
    const std::string heading = "RoPE rotates each pair by position × $θ_i$";
    const std::string setup = ropeTitle(params);
    const float pad = 8;
    float titleBottom = area.y + titleBandHeight(theme, 1.75f);
    if (theme.titleMode == TitleMode::Hidden) {
        // No title: the legend and circles take its room.
    } else if (estimateTextWidth(heading + " — " + setup, theme.titleSize) <=
               area.width - 2 * pad) {
        drawTitle(figure, area, heading + " — " + setup, theme);
    } else {
        drawTitle(figure, area, heading, theme);
        const float second = theme.titleSize * 1.25f;
        drawTitle(figure, {area.x, area.y + second, area.width, area.height - second}, setup,
                  theme);
        titleBottom += second;
    }
    const float legendY = titleBottom + theme.fontSize * 0.6f;
    const float legendRow = theme.fontSize * 1.45f;
    const std::string shown =
        int(pairs.size()) == pairCount
            ? "all " + std::to_string(pairCount) + " pairs"
            : std::to_string(pairs.size()) + " of " + std::to_string(pairCount) + " pairs";
    const int legendRows =
        drawLegendRows(figure, area.x + area.width / 2, legendY, area.width - 2 * pad, legendRow,
                       {{"q at m = " + positionText(m), qColor},
                        {"k at n = " + positionText(n), kColor},
                        {"m − n = " + positionText(m - n)},
                        // Two entries, so a narrow figure puts the remark on a row of its own.
                        {"q·k = " + formatValue(score, 6)},
                        {freqs->attentionFactor != 1.0
                             ? "(× attention factor² " +
                                   formatValue(freqs->attentionFactor * freqs->attentionFactor, 4) +
                                   "; depends on m − n only)"
                             : "(depends on m − n only)"},
                        {shown}},
                       theme);
    const float legendBottom = legendY + legendRow * float(legendRows - 1);

    // Grid: the column count that gives the largest circles.
    const Box grid{area.x + pad, legendBottom + theme.fontSize * 1.2f, area.width - 2 * pad,
                   area.bottom() - legendBottom - theme.fontSize * 1.2f - pad};
    if (grid.width < 20 || grid.height < 20) return;
    const int count = int(pairs.size());
    const float labelSize = theme.fontSize * 0.92f;
    const float textRows = labelSize * 2.9f;  // a label above the circle and one below
    int columns = 1;
    float best = -1;
    for (int c = 1; c <= count; ++c) {
        const int rows = (count + c - 1) / c;
        const float diameter = std::min(grid.width / c, grid.height / rows - textRows);
        if (diameter > best) best = diameter, columns = c;
    }
    const int rows = (count + columns - 1) / columns;
    const float cellWidth = grid.width / columns, cellHeight = grid.height / rows;
    const bool showText = cellHeight > textRows + 30;
    const float gap = 5;
    // One label format for every panel, chosen by the widest possible text, so that panels read
    // alike (2 = long, 1 = short, 0 = bare).
    const float textWidth = cellWidth - gap - 8;
    auto fits = [&](const std::string& text) {
        return estimateTextWidth(text, labelSize) <= textWidth;
    };
    const std::string widestPair = "pair " + std::to_string(pairCount - 1);
    const int topFormat = fits(widestPair + " · θ = 0.000123 rad/pos") ? 2
                          : fits(widestPair + "  θ = 0.000123")        ? 1
                                                                       : 0;
    const int bottomFormat = fits("Δ -180.0°   adds -12.35 to q·k") ? 2 : 1;

    for (int index = 0; index < count; ++index) {
        const int pair = pairs[std::size_t(index)];
        const Box cell{grid.x + cellWidth * float(index % columns) + gap / 2,
                       grid.y + cellHeight * float(index / columns) + gap / 2, cellWidth - gap,
                       cellHeight - gap};
        if (cells) cells->push_back({cell, pair});
        RectItem frame;
        frame.box = cell;
        frame.fill = theme.plotBackground;
        frame.stroke = theme.grid;
        figure.add(frame);

        const double theta = freqs->inverse[std::size_t(pair)];
        const PairDims dims = pairDims(params.pairing, std::size_t(pairCount), std::size_t(pair));
        const double q1 = options.q[dims.first], q2 = options.q[dims.second];
        const double k1 = options.k[dims.first], k2 = options.k[dims.second];
        const double qNorm = std::hypot(q1, q2), kNorm = std::hypot(k1, k2);
        const double largest = std::max({qNorm, kNorm, 1e-300});

        const float top = showText ? labelSize * 1.45f : 4;
        const float bottom = showText ? labelSize * 1.45f : 4;
        const float radius =
            std::max(2.f, std::min(cell.width - 16, cell.height - top - bottom - 10) / 2);
        const Point centre{cell.x + cell.width / 2,
                           cell.y + top + (cell.height - top - bottom) / 2};
        auto onCircle = [&](double angle, double r) {
            return Point{centre.x + float(r * std::cos(angle)),
                         centre.y - float(r * std::sin(angle))};  // y points down
        };

        // Axes and the unit circle.
        figure.add(LineItem{
            {centre.x - radius, centre.y}, {centre.x + radius, centre.y}, theme.grid, 1, false});
        figure.add(LineItem{
            {centre.x, centre.y - radius}, {centre.x, centre.y + radius}, theme.grid, 1, false});
        CircleItem circle;
        circle.center = centre;
        circle.radius = radius;
        circle.stroke = theme.axis;
        circle.strokeWidth = 1;
        figure.add(circle);

        const double qAngle = std::atan2(q2, q1) + wrapAngle(m * theta);
        const double kAngle = std::atan2(k2, k1) + wrapAngle(n * theta);
        const double qLength = radius * qNorm / largest, kLength = radius * kNorm / largest;

        // Trails: where the tips were at the previous whole positions, fading with age.
        const int trail = std::clamp(options.trail, 0, 64);
        for (int j = trail; j >= 1; --j) {
            const std::uint8_t alpha = std::uint8_t(40 + 150 * (trail - j + 1) / trail);
            for (int which = 0; which < 2; ++which) {
                const double position = which == 0 ? m : n;
                const double earlier = std::ceil(position - 1) - (j - 1);
                if (earlier < 0) continue;
                const double base = which == 0 ? std::atan2(q2, q1) : std::atan2(k2, k1);
                CircleItem dot;
                dot.center =
                    onCircle(base + wrapAngle(earlier * theta), which == 0 ? qLength : kLength);
                dot.radius = std::clamp(radius * 0.045f, 2.f, 3.5f);
                dot.fill = withAlpha(which == 0 ? qColor : kColor, alpha);
                figure.add(dot);
            }
        }

        // The angle between the two arrows: an arc from k to q.
        const double between =
            ropePairAngleBetween(options.q, options.k, m, n, *freqs, params.pairing, pair);
        const double arcRadius = radius * 0.28;
        if (std::abs(between) > 1e-3 && arcRadius > 3) {
            PolylineItem arc;
            const int steps = 2 + int(std::abs(between) / (kPi / 24));
            for (int s = 0; s <= steps; ++s) {
                arc.points.push_back(onCircle(kAngle + between * s / steps, arcRadius));
            }
            arc.color = withAlpha(theme.text, 190);
            arc.width = 2;
            figure.add(arc);
        }
        const float head = std::clamp(radius * 0.17f, 6.f, 14.f);
        const float width = radius > 40 ? 3.f : 2.f;
        drawArrow(figure, centre, onCircle(kAngle, kLength), kColor, width, head);
        drawArrow(figure, centre, onCircle(qAngle, qLength), qColor, width, head);

        if (!showText) continue;
        std::string label = "pair " + std::to_string(pair);
        if (topFormat == 2) label += " · θ = " + formatValue(theta, 3) + " rad/pos";
        if (topFormat == 1) label += "  θ = " + formatValue(theta, 3);
        figure.add(makeText({cell.x + cell.width / 2, cell.y + 3}, label, labelSize, theme.text,
                            HorizontalAlign::Center, VerticalAlign::Top));
        const double degrees = between * 180.0 / kPi;
        std::string lower = "Δ " + printf1("%+.1f°", degrees == 0 ? 0.0 : degrees);
        if (bottomFormat == 2) {
            lower += "   adds " +
                     printf1("%+.3g", ropePairScore(options.q, options.k, m, n, *freqs,
                                                    params.pairing, pair)) +
                     " to q·k";
        }
        figure.add(makeText({cell.x + cell.width / 2, cell.bottom() - 3}, lower, labelSize,
                            theme.mutedText, HorizontalAlign::Center, VerticalAlign::Bottom));
    }
}

// ---------------------------------------------------------------------------------------------
// Angle heatmap
// ---------------------------------------------------------------------------------------------

HeatmapSample ropeAngleSample(const RopeFrequencies& freqs, long long positions, CellWindow window,
                              int maxRows, int maxCols) {
    const long long pairs = static_cast<long long>(freqs.inverse.size());
    auto [sample, texelRows, texelCols] = sampleShape(window, positions, pairs, maxRows, maxCols);
    const CellWindow& w = sample.window;
    auto values = std::make_shared<Matrix>(std::size_t(texelRows), std::size_t(texelCols));
    // Each texel is the circular mean of the angles under it: the direction of the mean of the
    // unit vectors e^(i m theta). Over s consecutive positions centred on c that sum is
    // e^(i c theta) sin(s theta / 2) / sin(theta / 2), so a texel costs one term per pair.
    // When the angles spread over more than half a turn (mean length below 2/pi, that of a
    // uniform half-turn arc) there is no honest single angle: the texel is masked ("mixed").
    constexpr double kHalfTurnResultant = 2.0 / kPi;
    constexpr int kAnchorEvery = 64;  // exact phases every 64 texel rows, rotations between
    const std::size_t n = std::size_t(w.colCount);
    const long long per = sample.rowsPerTexel;
    auto gainFor = [](double theta, long long rows) {
        const double half = std::sin(0.5 * theta);
        return rows == 1 || std::abs(half) < 1e-300 ? double(rows)
                                                    : std::sin(0.5 * theta * double(rows)) / half;
    };
    const long long columns = texelCols, pairsPerTexel = sample.colsPerTexel;
    auto pairsOf = [&](long long v) {  // the pairs [first, last) under texel column v
        const std::size_t k0 = std::size_t(v * pairsPerTexel);
        return std::pair{k0, std::min(n, k0 + std::size_t(pairsPerTexel))};
    };
    // The threshold a texel's summed vector must reach, for `rows` positions of `pairs` pairs.
    auto thresholdFor = [](long long rows, std::size_t pairs) {
        return kHalfTurnResultant * double(rows) * double(pairs) * (1 - 1e-12);
    };
    // Per visible pair: the gain of a full block, e^(i c theta) at the current row's centre and
    // the rotation by one block (per * theta). A live pan recomputes this every frame: libm
    // calls per pair and anchor row instead of per texel cell.
    std::vector<double> theta(n), fullGain(n), stepCos(n), stepSin(n);
    for (std::size_t k = 0; k < n; ++k) {
        theta[k] = freqs.inverse[std::size_t(w.firstCol) + k];
        fullGain[k] = gainFor(theta[k], per);
    }
    // A column whose pairs turn so fast that even perfectly aligned block sums (the sum of the
    // gains' sizes bounds the summed vector) stay below the threshold is mixed on every full
    // block, whatever the phases: its phases are never needed. Zoomed out, that is most of
    // the fast pairs, and most of a frame's work.
    std::vector<char> alwaysMixed(static_cast<std::size_t>(columns));
    std::vector<std::pair<std::size_t, std::size_t>> livePairs;  // ranges the other columns use
    for (long long v = 0; v < columns; ++v) {
        const auto [k0, k1] = pairsOf(v);
        double bound = 0;
        for (std::size_t k = k0; k < k1; ++k) bound += std::abs(fullGain[k]);
        alwaysMixed[std::size_t(v)] = bound < thresholdFor(per, k1 - k0) * (1 - 1e-9);
        if (alwaysMixed[std::size_t(v)]) continue;
        if (!livePairs.empty() && livePairs.back().second == k0) {
            livePairs.back().second = k1;
        } else {
            livePairs.emplace_back(k0, k1);
        }
    }
    for (const auto& [k0, k1] : livePairs) {
        for (std::size_t k = k0; k < k1; ++k) {
            stepCos[k] = std::cos(theta[k] * double(per));
            stepSin[k] = std::sin(theta[k] * double(per));
        }
    }
    const std::vector<std::pair<std::size_t, std::size_t>> allPairs{{0, n}};
    // Texel rows split between the cores; each part starts from exact phases.
    auto rowsFrom = [&](long long firstRow, long long lastRow) {
        std::vector<double> phaseCos(n), phaseSin(n), lastGain;
        for (long long u = firstRow; u < lastRow; ++u) {
            const long long first = w.firstRow + u * per;
            const long long rows = std::min(per, w.firstRow + w.rowCount - first);
            const double centre = double(first) + 0.5 * double(rows - 1);
            const double* gain = fullGain.data();
            const bool fullBlock = rows == per;
            if (!fullBlock) {  // the window's last, shorter block: its own gains, every pair
                lastGain.resize(n);
                for (std::size_t k = 0; k < n; ++k) lastGain[k] = gainFor(theta[k], rows);
                gain = lastGain.data();
            }
            const auto& used = fullBlock ? livePairs : allPairs;
            if (u == firstRow || u % kAnchorEvery == 0 || !fullBlock) {
                // libm reduces large arguments by the true 2 pi (fmod by the double 2 pi would
                // be less exact, and slower).
                for (const auto& [k0, k1] : used) {
                    for (std::size_t k = k0; k < k1; ++k) {
                        phaseCos[k] = std::cos(centre * theta[k]);
                        phaseSin[k] = std::sin(centre * theta[k]);
                    }
                }
            } else {
                for (const auto& [k0, k1] : used) {
                    for (std::size_t k = k0; k < k1; ++k) {
                        const double c = phaseCos[k], s = phaseSin[k];
                        phaseCos[k] = c * stepCos[k] - s * stepSin[k];
                        phaseSin[k] = s * stepCos[k] + c * stepSin[k];
                    }
                }
            }
            double* out = values->row(std::size_t(u));
            for (long long v = 0; v < columns; ++v) {
                if (fullBlock && alwaysMixed[std::size_t(v)]) {
                    out[v] = -std::numeric_limits<double>::infinity();
                    continue;
                }
                const auto [k0, k1] = pairsOf(v);
                double sumCos = 0, sumSin = 0;
                for (std::size_t k = k0; k < k1; ++k) {
                    sumCos += gain[k] * phaseCos[k];
                    sumSin += gain[k] * phaseSin[k];
                }
                const double threshold = thresholdFor(rows, k1 - k0);
                // Squared lengths: no overflow at these sizes, and hypot is slow.
                if (sumCos * sumCos + sumSin * sumSin < threshold * threshold) {
                    out[v] = -std::numeric_limits<double>::infinity();
                    continue;
                }
                out[v] = directionAngle(sumSin, sumCos);
            }
        }
    };
    parallelFor(texelRows, (1 << 15) / std::max<long long>(1, w.colCount) + 1, rowsFrom);
    sample.values = std::move(values);
    return std::move(sample);  // a structured binding: not moved implicitly
}

Box ropeAnglePlotBox(Box area, const RopeParams& params, const RopeAngleOptions& options,
                     const Theme& theme) {
    const CellWindow window =
        clampWindow(options.window, params.seqLen, std::max(1, rotatedDims(params) / 2));
    return heatmapPlotBox(area, window, drawRopeAngles, params, options, theme);
}

void drawRopeAngles(Figure& figure, Box area, const RopeParams& params,
                    const RopeAngleOptions& options, const Theme& theme,
                    const HeatmapSample* sample, PlotFrame* frame) {
    const std::optional<RopeFrequencies> freqs = frequenciesOrNote(figure, area, params, theme);
    if (!freqs) return;
    HeatmapSample computed;
    if (!sample) {
        const Box plot = ropeAnglePlotBox(area, params, options, theme);
        computed = ropeAngleSample(*freqs, params.seqLen, options.window, texelLimit(plot.height),
                                   texelLimit(plot.width));
        sample = &computed;
    }
    HeatmapSpec spec =
        sampleSpec(*sample, "Rotation angle $m·θ_i$ mod 2π — " + ropeTitle(params),
                   "pair i  (fast → slow)", "position m", options.colormap, {0, kTwoPi});
    spec.colorbarLabel = "angle (radians)";
    spec.angleTicks = true;  // 0, π/2, π, 3π/2, 2π: where the cyclic map's colours sit
    if (sample->rowsPerTexel > 1 || sample->colsPerTexel > 1) {
        // Zoomed out: circular means, and "mixed" where a pixel's angles spread too far.
        spec.colorbarLabel += ", circular mean of " + std::to_string(sample->rowsPerTexel) + " x " +
                              std::to_string(sample->colsPerTexel) + " cells a pixel";
        spec.showMaskedLegend = true;
        spec.maskedLabel = "mixed";
    }
    if (options.trainingLength > 0) {
        spec.markers.push_back(trainingLengthMarker(options.trainingLength, theme));
    }
    if (options.queryKey.size() == 2) {
        const char* names[] = {"m (q)", "n (k)"};
        const Rgba colors[] = {ropeQueryColor(theme), ropeKeyColor(theme)};
        for (int i = 0; i < 2; ++i) {
            Marker marker;
            marker.vertical = false;
            marker.value = options.queryKey[std::size_t(i)] + 0.5;  // the centre of the row
            marker.label = names[i];
            marker.color = colors[i];
            marker.dashed = false;
            spec.markers.push_back(marker);
        }
    }
    drawHeatmap(figure, area, spec, theme, frame);
}

// ---------------------------------------------------------------------------------------------
// Score heatmap
// ---------------------------------------------------------------------------------------------

HeatmapSample ropeScoreSample(const std::vector<double>& offsetScores, int seqLen,
                              CellWindow window, int maxRows, int maxCols) {
    const long long length = std::max(seqLen, 1);
    auto [sample, texelRows, texelCols] = sampleShape(window, length, length, maxRows, maxCols);
    const CellWindow& w = sample.window;
    const long long a = sample.rowsPerTexel, b = sample.colsPerTexel;
    if (offsetScores.size() != std::size_t(2 * length - 1)) {
        sample.values = std::make_shared<const Matrix>();
        return std::move(sample);
    }
    auto values = std::make_shared<Matrix>(std::size_t(texelRows), std::size_t(texelCols));
    const double* s = offsetScores.data();  // s[m - n + L - 1]
    if (a == 1 && b == 1) {
        for (long long u = 0; u < texelRows; ++u) {
            double* out = values->row(std::size_t(u));
            const long long m = w.firstRow + u;
            for (long long v = 0; v < texelCols; ++v) out[v] = s[m - (w.firstCol + v) + length - 1];
        }
    } else {
        // Block sums of a Toeplitz matrix from two prefix sums: with P[k] = s[0] + ... + s[k-1],
        // sum over n in [n0, n1) of s(m - n) = P[m - n0 + L] - P[m - n1 + L], and with
        // Q[x] = P[0] + ... + P[x-1] the sum over m in [m0, m1) of P[m + c] = Q[m1 + c] - Q[m0 +
        // c]. The mean is taken out first: the scores oscillate about it, so P stays small and Q
        // grows slowly, and the differences of Q keep double's precision.
        const std::size_t count = offsetScores.size();
        double mean = 0;
        for (std::size_t i = 0; i < count; ++i) mean += s[i];
        mean /= double(count);
        std::vector<double> prefix(count + 1, 0.0), second(count + 2, 0.0);
        for (std::size_t i = 0; i < count; ++i) prefix[i + 1] = prefix[i] + (s[i] - mean);
        for (std::size_t i = 0; i <= count; ++i) second[i + 1] = second[i] + prefix[i];
        const double* q = second.data() + length;  // q[x] = Q[x + L]
        for (long long u = 0; u < texelRows; ++u) {
            const long long m0 = w.firstRow + u * a, m1 = std::min(length, m0 + a);
            double* out = values->row(std::size_t(u));
            for (long long v = 0; v < texelCols; ++v) {
                const long long n0 = w.firstCol + v * b, n1 = std::min(length, n0 + b);
                const double sum = (q[m1 - n0] - q[m0 - n0]) - (q[m1 - n1] - q[m0 - n1]);
                out[v] = mean + sum / double((m1 - m0) * (n1 - n0));
            }
        }
    }
    sample.values = std::move(values);
    return std::move(sample);  // a structured binding: not moved implicitly
}

HeatmapSample ropeScoreSample(const std::vector<double>& q, const std::vector<double>& k,
                              int seqLen, const RopeFrequencies& freqs, RopePairing pairing,
                              CellWindow window, int maxRows, int maxCols, long long budget) {
    if (!vectorsFit(q, k, freqs)) {
        const long long length = std::max(seqLen, 1);
        HeatmapSample sample = sampleShape(window, length, length, maxRows, maxCols).sample;
        sample.values = std::make_shared<const Matrix>();
        return sample;
    }
    return profileSample(ropeScoreProfile(q, k, seqLen, freqs, pairing), window, maxRows, maxCols,
                         budget);
}

RopeScoreRange ropeScoreRange(const std::vector<double>& q, const std::vector<double>& k,
                              int seqLen, const RopeFrequencies& freqs, RopePairing pairing,
                              long long budget) {
    RopeScoreRange range;
    const long long length = std::max(seqLen, 1);
    if (!vectorsFit(q, k, freqs)) return range;
    const OffsetProfile profile = ropeScoreProfile(q, k, seqLen, freqs, pairing);
    const long long pairs = std::max<long long>(1, (long long)freqs.inverse.size());
    // Offsets -(T-1)..T-1, nearest zero first: RoPE's scores are largest there (its decay).
    const long long covered = std::clamp(budget / (2 * pairs), 1LL, length);
    double largest = 0, low = INFINITY, high = -INFINITY;
    for (double v : profileValues(profile, double(-(covered - 1)), 1, 2 * covered - 1)) {
        if (!std::isfinite(v)) continue;
        largest = std::max(largest, std::abs(v));
        low = std::min(low, v);
        high = std::max(high, v);
    }
    range.largest = largest > 0 ? largest : 1;
    range.low = std::isfinite(low) ? low : -1;
    range.high = std::isfinite(high) ? high : 1;
    range.offsetsCovered = covered;
    range.allOffsets = covered >= length;
    return range;
}

Box ropeScorePlotBox(Box area, const RopeParams& params, const RopeScoreOptions& options,
                     const Theme& theme) {
    RopeScoreOptions withRange = options;
    if (withRange.range.low == withRange.range.high) withRange.range = {-1, 1};
    withRange.queryKey.clear();
    const CellWindow window = clampWindow(options.window, params.seqLen, params.seqLen);
    return heatmapPlotBox(area, window, drawRopeScores, params, withRange, theme);
}

void drawRopeScores(Figure& figure, Box area, const RopeParams& params,
                    const RopeScoreOptions& options, const Theme& theme,
                    const HeatmapSample* sample, PlotFrame* frame) {
    const std::optional<RopeFrequencies> freqs = frequenciesOrNote(figure, area, params, theme);
    if (!freqs) return;
    ValueRange range = options.range;
    long long rangeOffsets = options.rangeOffsets;
    HeatmapSample computed;
    if (!sample || range.low == range.high) {
        if (!vectorsFit(options.q, options.k, *freqs)) {
            drawNote(figure, area,
                     "q and k need " + std::to_string(params.headDim) + " entries each (got " +
                         std::to_string(options.q.size()) + " and " +
                         std::to_string(options.k.size()) + ")",
                     theme);
            return;
        }
        if (auto valid = validateQueryKey(options.q, options.k); !valid) {
            drawNote(figure, area, valid.error().message, theme);  // not a NaN or inf heatmap
            return;
        }
        if (range.low == range.high) {
            // Diverging maps centre zero; sequential ones span the scores. Either way over all
            // offsets (or as many as the budget allows, nearest zero), so zooming keeps the
            // colours.
            const RopeScoreRange r =
                ropeScoreRange(options.q, options.k, params.seqLen, *freqs, params.pairing);
            range = isDiverging(options.colormap) || !(r.high > r.low)
                        ? ValueRange{-r.largest, r.largest}
                        : ValueRange{r.low, r.high};
            rangeOffsets = r.allOffsets ? 0 : r.offsetsCovered;
        }
        if (!sample) {
            RopeScoreOptions ranged = options;
            ranged.range = range;  // the colour-bar ticks take part in the layout
            ranged.rangeOffsets = rangeOffsets;
            const Box plot = ropeScorePlotBox(area, params, ranged, theme);
            computed =
                ropeScoreSample(options.q, options.k, params.seqLen, *freqs, params.pairing,
                                options.window, texelLimit(plot.height), texelLimit(plot.width));
            sample = &computed;
        }
    }
    const CellWindow& w = sample->window;
    HeatmapSpec spec = sampleSpec(*sample, "Attention score $q_m·k_n$ — " + ropeTitle(params),
                                  "key position n", "query position m", options.colormap, range);
    spec.colorbarLabel = "$q_m·k_n$  (constant along diagonals $m-n$)";
    spec.squareCells = true;  // query against key position
    if (sample->rowsPerTexel > 1 || sample->colsPerTexel > 1) {
        spec.colorbarLabel =
            "$q_m·k_n$, mean of " + cellsNote(sample->rowsPerTexel, sample->colsPerTexel);
    }
    if (rangeOffsets > 0) {
        spec.colorbarLabel += "; range from |m − n| < " + std::to_string(rangeOffsets);
    }
    if (freqs && freqs->attentionFactor != 1.0) {
        // HF scales cos and sin by attention_scaling, so every score carries its square.
        spec.colorbarLabel += "; × attention factor² " +
                              formatValue(freqs->attentionFactor * freqs->attentionFactor, 4);
    }
    if (options.trainingLength > 0 && options.trainingLength < params.seqLen) {
        for (bool vertical : {true, false}) {
            Marker marker;
            marker.vertical = vertical;
            marker.value = options.trainingLength;
            marker.label =
                vertical ? "training length " + std::to_string(options.trainingLength) : "";
            marker.color = theme.accent;
            spec.markers.push_back(marker);
        }
    }
    PlotFrame drawn;
    drawHeatmap(figure, area, spec, theme, &drawn);
    if (options.queryKey.size() == 2) {
        const double m = options.queryKey[0], n = options.queryKey[1];
        figure.add(ClipPush{drawn.plot});
        // The diagonal m - n = const: every cell on it has the same score.
        const double offset = m - n;
        const double x0 = double(w.firstCol), x1 = double(w.firstCol + w.colCount);
        figure.add(LineItem{drawn.toPixel(x0, x0 + offset), drawn.toPixel(x1, x1 + offset),
                            withAlpha(theme.text, 170), 1.5f, true});
        const Point at = drawn.toPixel(n + 0.5, m + 0.5);
        CircleItem dot;
        dot.center = at;
        dot.radius = 6;
        dot.stroke = theme.text;
        dot.strokeWidth = 2;
        dot.fill = withAlpha(ropeQueryColor(theme), 200);
        figure.add(dot);
        figure.add(ClipPop{});
    }
    if (frame) *frame = drawn;
}

// ---------------------------------------------------------------------------------------------
// Frequencies
// ---------------------------------------------------------------------------------------------

std::string_view turnReferenceName(RopeTurnReference reference) {
    return enumName(kTurnReferenceNames, reference);
}

Result<RopeTurnReference> parseTurnReference(std::string_view name) {
    return parseEnum(kTurnReferenceNames, name, "incomplete_within");
}

std::vector<Marker> ropeScalingThresholds(const RopeParams& params, const Theme& theme) {
    std::vector<Marker> markers;
    const RopeScalingParams& s = params.scaling;
    const int d = rotatedDims(params), L0 = originalMaxPositions(params);
    if (d < 2 || !(params.base > 1)) return markers;
    auto marker = [&](double pair, std::string label, Rgba color) {
        Marker m;
        m.vertical = true;
        m.value = pair;
        m.label = std::move(label);
        m.color = color;
        markers.push_back(std::move(m));
    };
    // Reddish purple, apart from the lengths' colours; lighter on the dark theme.
    const Rgba color = theme.id == ThemeId::Paper ? seriesColor(3) : Rgba{225, 150, 195, 255};
    if (s.type == RopeScaling::Llama3) {
        // 2 pi base^(2i/d) = lambda  <=>  i = (d/2) log(lambda / 2 pi) / log(base)
        auto pairOf = [&](double wavelength) {
            return double(d) / 2 * std::log(wavelength / (2 * std::numbers::pi)) /
                   std::log(params.base);
        };
        const double kept = double(L0) / s.highFreqFactor, divided = double(L0) / s.lowFreqFactor;
        marker(pairOf(kept),
               "λ = L0/" + formatValue(s.highFreqFactor, 3) + " = " + formatValue(kept, 6) +
                   ": kept below",
               color);
        marker(pairOf(divided),
               "λ = L0/" + formatValue(s.lowFreqFactor, 3) + " = " + formatValue(divided, 6) +
                   ": ÷s above",
               color);
    } else if (s.type == RopeScaling::Yarn) {
        const YarnCorrectionRange range =
            yarnCorrectionRange(s, {d, params.base, params.seqLen, L0});
        marker(range.low, "YaRN ramp starts (β_fast " + formatValue(s.betaFast, 3) + ")", color);
        marker(range.high, "ramp ends (β_slow " + formatValue(s.betaSlow, 3) + ")", color);
    }
    return markers;
}

void drawRopeFrequencies(Figure& figure, Box area, const RopeParams& params,
                         const RopeFrequencyOptions& options, const Theme& theme,
                         PlotFrame* frameOut) {
    auto freqs = ropeFrequencies(params);
    auto original = unscaledFrequencies(params);
    if (!freqs || !original) {
        drawNote(figure, area, (!freqs ? freqs : original).error().message, theme);
        return;
    }
    const std::vector<double> wavelengths = ropeWavelengths(*freqs);
    const std::vector<double> originalWavelengths = ropeWavelengths(*original);
    const int pairCount = int(wavelengths.size());
    const int context = params.seqLen, training = originalMaxPositions(params);
    const bool byTraining = options.incompleteWithin == RopeTurnReference::Training;
    const int reference = byTraining ? training : context;
    const bool scaled = params.scaling.type != RopeScaling::None;
    // Scaled and judged by training: what the scaled model meets at the context that the model
    // never saw in training (as Extrapolation's "angle at L ÷ angle seen"), not whether the
    // stretched pairs turn within the training length: that count rises with every scaling.
    const bool byAnglesSeen = byTraining && scaled;
    const std::vector<bool> incomplete =
        byAnglesSeen ? ropeUnseenAngles(*freqs, *original, context, training)
                     : ropeIncompleteTurns(*freqs, reference);
    const int incompleteCount = int(std::count(incomplete.begin(), incomplete.end(), true));

    LinePlotSpec spec;
    spec.title = "Wavelength $2π/θ_i$ of each pair — " + ropeTitle(params);
    spec.x = integerAxis("pair $i$  ($θ_i=\\mathrm{base}^{-2i/d}$, fast → slow)", -0.5,
                         std::max(pairCount, 1) - 0.5);
    double low = INFINITY, high = 0;
    for (std::size_t i = 0; i < wavelengths.size(); ++i) {
        low = std::min({low, wavelengths[i], originalWavelengths[i]});
        high = std::max({high, wavelengths[i], originalWavelengths[i]});
    }
    high = std::max({high, double(context), double(training)});
    spec.y = {"wavelength (positions)", low / 1.6, high * 1.6, true};
    spec.autoRangeY = false;
    spec.legend = false;
    spec.markers = ropeScalingThresholds(params, theme);

    std::vector<LegendEntry> legend;
    const bool dots = pairCount <= 160;
    if (scaled) {
        LineSeries plain;
        plain.x.resize(std::size_t(pairCount));
        for (int i = 0; i < pairCount; ++i) plain.x[std::size_t(i)] = i;
        plain.y = originalWavelengths;
        plain.color = theme.mutedText;
        plain.width = 2;
        spec.series.push_back(plain);
        legend.push_back({"unscaled ($\\mathrm{base}^{2i/d}$)", theme.mutedText});
    }
    LineSeries main;
    main.x.resize(std::size_t(pairCount));
    for (int i = 0; i < pairCount; ++i) main.x[std::size_t(i)] = i;
    main.y = wavelengths;
    main.color = ropeQueryColor(theme);
    main.width = 2;
    main.markers = dots;
    spec.series.push_back(main);
    legend.push_back(
        {scaled ? "scaled: " + ropeScalingSummary(params) : "$2π·\\mathrm{base}^{2i/d}$",
         ropeQueryColor(theme), dots});

    // The pairs without a full turn, drawn over the curve in the accent colour, one dot each.
    LineSeries highlight;
    highlight.x = main.x;
    highlight.y.assign(std::size_t(pairCount), NAN);
    for (int i = 0; i < pairCount; ++i) {
        if (incomplete[std::size_t(i)]) highlight.y[std::size_t(i)] = wavelengths[std::size_t(i)];
    }
    highlight.color = theme.accent;
    highlight.width = 3;
    highlight.markers = true;
    spec.series.push_back(highlight);
    legend.push_back(
        {byAnglesSeen
             ? std::to_string(incompleteCount) + " of " + std::to_string(pairCount) +
                   " pairs reach angles at " + std::to_string(context) + " not seen in training"
             : std::to_string(incompleteCount) + " of " + std::to_string(pairCount) +
                   " pairs never complete a turn within the " +
                   (byTraining ? "training length " : "context ") + std::to_string(reference),
         theme.accent, true});

    // drawLinePlot places the legend where it hides no pair (long names wrapped), else outside;
    // the lengths below keep clear of it.
    spec.legend = true;
    for (const LegendEntry& e : legend) spec.keys.push_back({e.text, e.swatch, e.dot});
    PlotFrame frame;
    drawLinePlot(figure, area, spec, theme, &frame);

    // The lengths, drawn here rather than as plot markers so that their labels sit at the left,
    // where the rising curve leaves room. Above the chosen one, a tint: no full turn in there.
    const Box& plot = frame.plot;
    figure.add(ClipPush{plot});
    const float referenceY = frame.toPixel(0, reference).y;
    // Scaled pairs are judged against their unscaled angles, not against a wavelength line.
    // Tint and lines go around the legend drawn inside the plot, not over its text.
    const Box legendBox = frame.legend;
    const bool legendInside = legendBox.width > 0 && legendBox.x < plot.right();
    if (referenceY > plot.y && !byAnglesSeen) {
        const Box tint{plot.x, plot.y, plot.width, std::min(referenceY, plot.bottom()) - plot.y};
        const Rgba fill = withAlpha(theme.accent, theme.id == ThemeId::Dark ? 34 : 22);
        for (const Box& piece : boxMinus(tint, legendInside ? legendBox : Box{}))
            figure.add(RectItem{piece, fill, {0, 0, 0, 0}, 1});
    }
    struct Length {
        int value;
        std::string label;
        Rgba color;
    };
    const std::string above = " — pairs above it never complete a turn";
    std::vector<Length> lengths;
    if (context == training) {
        lengths.push_back(
            {context, "context = training length " + std::to_string(context) + above, theme.text});
    } else {
        lengths.push_back({context,
                           "context length " + std::to_string(context) + (byTraining ? "" : above),
                           theme.text});
        lengths.push_back({training,
                           "training length " + std::to_string(training) +
                               (byTraining && !byAnglesSeen ? above : ""),
                           seriesColor(2)});
    }
    // Labels drawn so far and the legend: a close second line labels the other side.
    std::vector<Box> labelled;
    if (legendInside) labelled.push_back(legendBox);
    for (const Length& length : lengths) {
        const float y = frame.toPixel(0, length.value).y;
        const float left = legendInside && y >= legendBox.y && y <= legendBox.bottom()
                               ? legendBox.x
                               : plot.right();
        figure.add(LineItem{{plot.x, y}, {left, y}, length.color, 1.5f, true});
        if (left < plot.right())
            figure.add(
                LineItem{{legendBox.right(), y}, {plot.right(), y}, length.color, 1.5f, true});
        // The whole label, else its first words ("context length 4096"), at the left or the
        // right, above or below the line: the first place that hides no pair and no text.
        const std::string shortLabel = length.label.substr(0, length.label.find(" — "));
        auto place = [&](const std::string& label, bool below, bool right) {
            const FittedText fitted = fitText(label, theme.fontSize, plot.width - 16);
            return makeText({right ? plot.right() - 8 : plot.x + 8, below ? y + 3 : y - 3},
                            fitted.text, fitted.size, length.color,
                            right ? HorizontalAlign::Right : HorizontalAlign::Left,
                            below ? VerticalAlign::Top : VerticalAlign::Bottom);
        };
        auto clear = [&](const TextItem& text) {
            const Box box = textBox(text);
            if (box.y < plot.y || box.bottom() > plot.bottom()) return false;
            for (const Box& other : labelled)
                if (boxesOverlap(box, other, 0)) return false;
            return true;
        };
        const bool below = y - theme.fontSize * 1.2f < plot.y;
        std::optional<TextItem> chosen, firstClear;
        for (const std::string* label : {&length.label, &shortLabel}) {
            for (bool right : {false, true}) {
                for (bool side : {below, !below}) {
                    TextItem text = place(*label, side, right);
                    if (!clear(text)) continue;
                    if (!firstClear && label == &shortLabel) firstClear = text;
                    if (marksCovered(figure, textBox(text)) == 0) {
                        chosen = text;
                        break;
                    }
                }
                if (chosen) break;
            }
            if (chosen) break;
        }
        if (!chosen) chosen = firstClear;
        if (!chosen) continue;  // every side taken: the line and the legend say it
        labelled.push_back(textBox(*chosen));
        figure.add(*chosen);
    }
    figure.add(ClipPop{});
    if (frameOut) *frameOut = frame;
}

// ---------------------------------------------------------------------------------------------
// Decay
// ---------------------------------------------------------------------------------------------

Result<RopeDecayCurve> ropeDecayCurve(int rotatedDims, double base, int maxDistance, int columns) {
    // The checks (and messages) of ropeDecayBound.
    if (auto s = requireIntInRange("head_dim", rotatedDims, 2, kMaxDModel); !s) return s.error();
    if (rotatedDims % 2 != 0) {
        return Error{"head_dim must be even for the decay bound (got " +
                     std::to_string(rotatedDims) + ")"};
    }
    if (auto s = requireInRange("base", base, 1.0, 1e12, false); !s) return s.error();
    if (auto s = requireIntInRange("max_distance", maxDistance, 0, kMaxSeqLen); !s) {
        return s.error();
    }
    const long long count = (long long)maxDistance + 1;
    const long long budget = (long long)kDecaySamplesPerColumn * std::max(columns, 1);
    RopeDecayCurve curve;
    curve.step = count <= budget ? 1 : (count + budget - 1) / budget;
    const long long gridPoints = (count - 1) / curve.step + 1;  // 0, s, ..., <= maxDistance
    const std::vector<double> theta = defaultInverseFrequencies(rotatedDims, base);
    curve.distances.resize(std::size_t(gridPoints));
    curve.bounds.resize(std::size_t(gridPoints));
    forEachGridPhase(theta, 0, double(curve.step), gridPoints,
                     [&](long long j, const double* cosines, const double* sines) {
                         curve.distances[std::size_t(j)] = double(j * curve.step);
                         curve.bounds[std::size_t(j)] =
                             decayBoundFromPhases(cosines, sines, theta.size());
                     });
    if (curve.distances.back() != double(maxDistance)) {  // the axis ends on a computed value
        curve.distances.push_back(maxDistance);
        curve.bounds.push_back(ropeDecayBoundAt(rotatedDims, base, maxDistance));
    }
    return curve;
}

double ropeDecayBoundAt(int rotatedDims, double base, double distance) {
    if (rotatedDims < 2) return std::numeric_limits<double>::quiet_NaN();
    const std::vector<double> theta = defaultInverseFrequencies(rotatedDims, base);
    std::vector<double> cosines(theta.size()), sines(theta.size());
    for (std::size_t i = 0; i < theta.size(); ++i) {
        cosines[i] = std::cos(distance * theta[i]);
        sines[i] = std::sin(distance * theta[i]);
    }
    return decayBoundFromPhases(cosines.data(), sines.data(), theta.size());
}

std::vector<double> logDecayDistances(int maxDistance, int columns) {
    std::vector<double> distances;
    if (maxDistance < 1) return distances;
    const long long samples =
        std::max<long long>(2, (long long)std::max(1, columns) * kLogDecaySamplesPerColumn);
    const double top = std::log(double(maxDistance));
    for (long long s = 0; s <= samples; ++s) {
        const double d = std::round(std::exp(top * double(s) / double(samples)));
        if (distances.empty() || d > distances.back()) distances.push_back(d);
    }
    if (distances.back() < maxDistance) distances.push_back(maxDistance);
    return distances;
}

namespace {

void drawLogRopeDecay(Figure& figure, Box area, int rotatedDims, double base, int maxDistance,
                      const Theme& theme, PlotFrame* frame) {
    LinePlotSpec spec;
    spec.title = "Long-term decay of RoPE (RoFormer, Su et al. 2021, Fig. 2) — d = " +
                 std::to_string(rotatedDims) + ", base " + formatValue(base, 6);
    spec.x = {"relative distance m − n (log scale)", 1, std::max(10.0, double(maxDistance)), true};
    spec.legend = false;
    spec.autoRangeY = false;
    const int columns = texelBudget(area.width);
    const std::vector<double> distances = logDecayDistances(maxDistance, columns);
    std::vector<double> logDistances, bounds;
    double top = (rotatedDims / 2 + 1) / 2.0;  // the bound at distance 0, its largest value
    for (double d : distances) {
        logDistances.push_back(std::log10(d));
        bounds.push_back(ropeDecayBoundAt(rotatedDims, base, d));
    }
    spec.y = {"relative upper bound", 0, top * 1.06};
    // Min and max per pixel column, in log space, where the columns are evenly spaced.
    LineSeries series;
    envelope(logDistances, bounds, 0, std::log10(spec.x.high), columns, series.x, series.y);
    for (double& x : series.x) x = std::pow(10.0, x);
    series.color = ropeQueryColor(theme);
    series.width = 2;
    spec.series.push_back(std::move(series));
    PlotFrame drawn;
    drawLinePlot(figure, area, spec, theme, &drawn);
    const float x = drawn.plot.right() - 10, y = drawn.plot.y + 8;
    const FittedText formula =
        fitText("$(1/(d/2))\\,Σ_j|S_j|$,   $S_j=Σ_{k<j}\\mathrm{exp}(i·r·θ_k)$", theme.fontSize,
                drawn.plot.width - 20);
    figure.add(makeText({x, y}, formula.text, formula.size, theme.text, HorizontalAlign::Right,
                        VerticalAlign::Top));
    if (frame) *frame = drawn;
}

}  // namespace

void drawRopeDecay(Figure& figure, Box area, int rotatedDims, double base, int maxDistance,
                   const Theme& theme, const RopeDecayCurve* curve, PlotFrame* frame,
                   DistanceAxis axis) {
    if (axis == DistanceAxis::Logarithmic) {
        // The same limits as the linear curve (one column: a few bounds, a cheap check).
        if (auto check = ropeDecayCurve(rotatedDims, base, maxDistance, 1); !check) {
            drawNote(figure, area, check.error().message, theme);
            return;
        }
        drawLogRopeDecay(figure, area, rotatedDims, base, maxDistance, theme, frame);
        return;
    }
    RopeDecayCurve computed;
    if (!curve) {
        auto values = ropeDecayCurve(rotatedDims, base, maxDistance, texelBudget(area.width));
        if (!values) {
            drawNote(figure, area, values.error().message, theme);
            return;
        }
        computed = std::move(values.value());
        curve = &computed;
    }
    if (curve->bounds.empty()) return;
    const std::vector<double>& distances = curve->distances;
    const std::vector<double>& bounds = curve->bounds;
    LinePlotSpec spec;
    spec.title = "Long-term decay of RoPE (RoFormer, Su et al. 2021, Fig. 2) — d = " +
                 std::to_string(rotatedDims) + ", base " + formatValue(base, 6);
    const double last = distances.back();
    spec.x = integerAxis("relative distance m − n", 0, std::max(last, 1.0));
    double top = 0;  // the bound at distance 0, (d/2 + 1) / 2, is its largest value
    for (double v : bounds) top = std::max(top, v);
    spec.y = {"relative upper bound", 0, top * 1.06};
    spec.legend = false;
    spec.autoRangeY = false;

    const Rgba color = ropeQueryColor(theme);
    const bool band = last + 1 > double(std::max(64, texelBudget(area.width)));
    if (!band) {
        LineSeries series;
        series.x = distances;
        series.y = bounds;
        series.color = color;
        series.width = 2;
        spec.series.push_back(std::move(series));
    }
    PlotFrame drawn;
    drawLinePlot(figure, area, spec, theme, &drawn);
    if (band) {
        // More distances than pixels: per pixel column, a bar from the smallest to the largest
        // bound computed in it. Honest about the fast wiggle, and one primitive per pixel.
        const int columns = texelBudget(drawn.plot.width);
        const double span = last + 1;
        std::size_t next = 0;
        figure.add(ClipPush{drawn.plot});
        for (int c = 0; c < columns; ++c) {
            const double end = span * double(c + 1) / double(columns);
            double lo = INFINITY, hi = -INFINITY;
            for (; next < distances.size() && distances[next] < end; ++next) {
                lo = std::min(lo, bounds[next]);
                hi = std::max(hi, bounds[next]);
            }
            if (!(hi >= lo)) continue;  // no computed distance in this column
            const float x = drawn.plot.x + float(c) + 0.5f;
            const float yTop = drawn.toPixel(0, hi).y, yBottom = drawn.toPixel(0, lo).y;
            figure.add(LineItem{{x, yTop - 0.5f}, {x, yBottom + 0.5f}, color, 1, false});
        }
        figure.add(ClipPop{});
    }
    // What is plotted, in the paper's notation, where the curve has fallen away.
    // Fitted to the plot: a narrow one shows them smaller, or cut, never past its left edge.
    const float x = drawn.plot.right() - 10, y = drawn.plot.y + 8;
    const float room = drawn.plot.width - 20;
    const FittedText shownFormula = fitText(
        "$(1/(d/2))\\,Σ_j|S_j|$,   $S_j=Σ_{k<j}\\mathrm{exp}(i·r·θ_k)$", theme.fontSize, room);
    figure.add(makeText({x, y}, shownFormula.text, shownFormula.size, theme.text,
                        HorizontalAlign::Right, VerticalAlign::Top));
    std::string note = "$θ_k=\\mathrm{base}^{-2k/d}$, $r=m-n$";
    if (band) {
        note = "band: min to max over each pixel column";
        if (curve->step > 1) {
            note += " of " + std::to_string(distances.size()) + " distances, step " +
                    std::to_string(curve->step);
        }
    }
    const FittedText shownNote = fitText(note, theme.fontSize, room);
    figure.add(makeText({x, y + theme.fontSize * 1.4f}, shownNote.text, shownNote.size,
                        theme.mutedText, HorizontalAlign::Right, VerticalAlign::Top));
    if (frame) *frame = drawn;
}

}  // namespace poslab
