// rope_rotation_figures.cpp — the rotation of each dimension pair
// (views/rope_rotation_figures.hpp): small 2-D panels of q and k turned by m theta_i and n theta_i,
// with the angle between them.
#include "poslab/views/rope_rotation_figures.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <optional>
#include <string>
#include <vector>

#include "poslab/figure/layout.hpp"
#include "poslab/figure/text_boxes.hpp"
#include "poslab/views/rope_figures.hpp"

namespace poslab {

namespace {

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
    x = std::fmod(x, 2 * std::numbers::pi);
    if (x > std::numbers::pi) x -= 2 * std::numbers::pi;
    if (x <= -std::numbers::pi) x += 2 * std::numbers::pi;
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

}  // namespace

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

namespace {

// The pairs given a circle: options.pairs (those in range), else 16 spread over all pairs.
std::vector<int> chosenPairs(const RopeRotationOptions& options, int pairCount) {
    std::vector<int> pairs;
    for (int pair : options.pairs.empty() ? ropeRotationPairs(pairCount, 16) : options.pairs) {
        if (pair >= 0 && pair < pairCount) pairs.push_back(pair);
    }
    if (pairs.empty()) pairs = ropeRotationPairs(pairCount, 16);
    return pairs;
}

// The sizes the grid of circles is laid out with.
struct CircleText {
    float labelSize = 0;       // "pair 5 · θ = …" above a circle, "Δ +12.0°" below
    float textRows = 0;        // both labels' rows
    float shortestLabels = 0;  // the narrowest column that holds the shortest labels
};
CircleText circleText(int pairCount, const Theme& theme) {
    CircleText t;
    t.labelSize = atLeastMinText(theme.fontSize * 0.92f, theme);
    t.textRows = t.labelSize * 2.9f;
    // Only columns wide enough for the shortest labels ("pair 63", "Δ -180.0°"): narrower cells
    // would push them past their cell and, at the edge, past the figure (one column in print).
    t.shortestLabels =
        std::max(
            estimateTextWidth("pair " + std::to_string(std::max(0, pairCount - 1)), t.labelSize),
            estimateTextWidth("Δ -180.0°", t.labelSize)) +
        5 + 8;
    return t;
}

constexpr float kCellGap = 5;  // between two circles' cells
// Between a circle and its labels, above and below together (a label's box ends a line and a
// quarter under its top, 3 px above the row's end).
constexpr float kCircleMargin = 4;

// Whether a cell this tall has rows for its circle's labels ("pair 5", "Δ +12.0°").
bool cellShowsText(float cellHeight, const CircleText& text) {
    return cellHeight > text.textRows + 30;
}

// A circle's diameter in a grid cell of this size (the cell's frame, labels and margins off).
float circleDiameter(float cellWidth, float cellHeight, const CircleText& text) {
    const float labels = cellShowsText(cellHeight, text) ? text.textRows : 8;
    return std::max(
        4.f, std::min(cellWidth - kCellGap - 16, cellHeight - kCellGap - labels - kCircleMargin));
}

// The column count that gives `count` circles the largest cells (the cell's width, or its
// height less the labels' rows), and the diameter the circles then have.
struct GridShape {
    int columns = 1, rows = 1;
    float room = 0;      // the smaller of the cell's width and its height less the labels
    float diameter = 0;  // circleDiameter
    bool labelled = false;  // cellShowsText: the circles have their labels
};
GridShape bestGrid(Box grid, int count, const CircleText& text) {
    GridShape best;
    for (int c = 1; c <= std::max(1, count); ++c) {
        if (c > 1 && grid.width / float(c) < text.shortestLabels) break;
        const int rows = (count + c - 1) / c;
        const float room =
            std::min(grid.width / float(c), grid.height / float(rows) - text.textRows);
        if (c == 1 || room > best.room) best = {c, rows, room, 0};
    }
    best.diameter =
        circleDiameter(grid.width / float(best.columns), grid.height / float(best.rows), text);
    best.labelled = cellShowsText(grid.height / float(best.rows), text);
    return best;
}

// The title and the legend (into `live`: its values follow m and n); returns the box left for
// the circles.
Box drawRotationHeader(Figure& figure, Figure& live, Box area, const RopeParams& params,
                       const RopeRotationOptions& options, const RopeFrequencies& freqs,
                       int shownPairs, const Theme& theme) {
    const int pairCount = int(freqs.inverse.size());
    const double m = options.m, n = options.n;
    const double score = ropeScore(options.q, options.k, m, n, freqs, params.pairing);
    // The title, on two lines (split after the dash) when one would not fit; a title given for
    // the figure (--title) replaces both.
    const std::string heading = "RoPE rotates each pair by position × $θ_i$";
    const std::string setup = ropeTitle(params);
    const float pad = 8;
    float titleBottom = area.y + titleBandHeight(theme, 1.75f);
    if (theme.titleMode == TitleMode::Hidden) {
        // No title: the legend and circles take its room.
    } else if (theme.titleMode == TitleMode::Replace) {
        // As a figure title or as its one panel's (--panel 1), the text given.
        drawTitle(figure, area, panelTitle(heading, theme), theme);
    } else if (estimateTextWidth(heading + " — " + setup, theme.titleSize) <=
               area.width - 2 * pad) {
        drawTitle(figure, area, heading + " — " + setup, theme);
    } else if (Figure probe = emptyFigure(area.right(), area.bottom(), theme);
               drawTitle(probe, area, heading, theme) == 1) {
        // The heading on its line, the setup on the next.
        drawTitle(figure, area, heading, theme);
        const float second = theme.titleSize * 1.25f;
        drawTitle(figure, {area.x, area.y + second, area.width, area.height - second}, setup,
                  theme);
        titleBottom += second;
    } else {
        // A heading too long even for its own line (a 480x320 window's 237 px) and the setup
        // run on as one text wrapped at the size titles.cpp wraps a long title in: three lines
        // where the heading's two and the setup's two took four, and the circles the room.
        const float size = atLeastMinText(theme.titleSize * 0.74f, theme);
        const std::vector<std::string> lines =
            wrapText(heading + " — " + setup, size, area.width - theme.titleSize);
        const float top = area.y + theme.titleSize * 0.2f, step = size * 1.15f;
        for (std::size_t i = 0; i < lines.size(); ++i)
            figure.add(makeText({area.x + area.width / 2, top + step * float(i)}, lines[i], size,
                                theme.text, HorizontalAlign::Center, VerticalAlign::Top));
        titleBottom = top + step * float(lines.size()) + theme.titleSize * 0.3f;
    }
    const float legendY = titleBottom + theme.fontSize * 0.6f;
    const float legendRow = theme.fontSize * 1.3f;
    const std::string shown =
        shownPairs == pairCount
            ? "all " + std::to_string(pairCount) + " pairs"
            : std::to_string(shownPairs) + " of " + std::to_string(pairCount) + " pairs";
    const int legendRows =
        drawLegendRows(live, area.x + area.width / 2, legendY, area.width - 2 * pad, legendRow,
                       {{"q at m = " + positionText(m), ropeQueryColor(theme)},
                        {"k at n = " + positionText(n), ropeKeyColor(theme)},
                        {"m − n = " + positionText(m - n)},
                        // Two entries, so a narrow figure puts the remark on a row of its own.
                        {"q·k = " + withMinusSign(formatValue(score, 6))},
                        {freqs.attentionFactor != 1.0
                             ? "(× attention factor² " +
                                   formatValue(freqs.attentionFactor * freqs.attentionFactor, 4) +
                                   "; depends on m − n only)"
                             : "(depends on m − n only)"},
                        {shown}},
                       theme);
    const float legendBottom = legendY + legendRow * float(legendRows - 1);
    const float gridTop = legendBottom + theme.fontSize * 0.9f;
    return {area.x + pad, gridTop, area.width - 2 * pad, area.bottom() - gridTop - pad};
}

}  // namespace

float ropeRotationLeastCircle(const Theme& theme) {
    return std::max(60.f, theme.fontSize * 4.5f);
}

float ropeRotationSmallestCircle(const Theme& theme) {
    return std::max(40.f, theme.fontSize * 3);
}

RopeRotationPaging ropeRotationPaging(Box area, const RopeParams& params,
                                      const RopeRotationOptions& options, const Theme& theme) {
    RopeRotationPaging paging;
    const auto freqs = ropeFrequencies(params);
    if (!freqs || !ropeVectorsFit(options.q, options.k, *freqs)) return paging;
    const int pairCount = int(freqs->inverse.size());
    const int count = int(chosenPairs(options, pairCount).size());
    paging.perPage = count;
    // The legend as it reads between whole positions ("q at m = 6.25"), which may take a row
    // more than "q at m = 6": the page count stays as it is while m and n play.
    RopeRotationOptions between = options;
    between.m = std::floor(options.m) + 0.25;
    between.n = std::floor(options.n) + 0.25;
    Figure probe = emptyFigure(area.right(), area.bottom(), theme);
    const Box grid = drawRotationHeader(probe, probe, area, params, between, *freqs, count, theme);
    if (grid.width < 20 || grid.height < 20) return paging;  // no circles drawn at all
    const CircleText text = circleText(pairCount, theme);
    // Pages of at most perPage pairs (16 in three: 6, 6 and 4), as few as give each circle
    // `diameter` and its labels, up to mostPages of them.
    auto fewestPages = [&](float diameter, int mostPages) -> std::optional<RopeRotationPaging> {
        for (int pages = 1; pages <= std::min(count, mostPages); ++pages) {
            const int perPage = (count + pages - 1) / pages;
            const GridShape shape = bestGrid(grid, perPage, text);
            if ((shape.labelled && shape.diameter >= diameter) || perPage == 1)
                return RopeRotationPaging{perPage, (count + perPage - 1) / perPage};
        }
        return std::nullopt;
    };
    // A window too small for that in four pages (480x320 took eight pages of two) steps through
    // four of smaller circles rather than eight, as long as they stay readable.
    if (auto few = fewestPages(ropeRotationLeastCircle(theme), kRopeRotationFewPages)) return *few;
    if (auto few = fewestPages(ropeRotationSmallestCircle(theme), kRopeRotationFewPages))
        return *few;
    return fewestPages(ropeRotationLeastCircle(theme), count).value_or(paging);
}

void drawRopeRotation(Figure& figure, Box area, const RopeParams& params,
                      const RopeRotationOptions& options, const Theme& theme,
                      std::vector<RopeRotationCell>* cells, Figure* moving, Figure* trails) {
    if (cells) cells->clear();
    Figure& live = moving ? *moving : figure;       // what follows m and n
    Figure& trailDots = trails ? *trails : figure;  // what follows whole positions
    const std::optional<RopeFrequencies> freqs = ropeFrequenciesOrNote(figure, area, params, theme);
    if (!freqs) return;
    if (!ropeVectorsFit(options.q, options.k, *freqs)) {
        drawNote(figure, area,
                 "q and k need " + std::to_string(params.headDim) + " entries each (got " +
                     std::to_string(options.q.size()) + " and " + std::to_string(options.k.size()) +
                     ")",
                 theme);
        return;
    }
    const int pairCount = int(freqs->inverse.size());
    std::vector<int> pairs = chosenPairs(options, pairCount);
    const int chosen = int(pairs.size());
    // One page of them: the GUI steps through the pages (panel_grid's selector), `--panel N`
    // would name one; a file shows every pair.
    const int perPage = options.perPage > 0 ? std::min(options.perPage, chosen) : chosen;
    const int pages = (chosen + perPage - 1) / perPage;
    const int page = std::clamp(options.page, 0, pages - 1);
    pairs.assign(pairs.begin() + page * perPage,
                 pairs.begin() + std::min(chosen, (page + 1) * perPage));
    figure.viewPanels = pages;  // --panel N: the page the GUI numbers N (a file has one)
    const double m = options.m, n = options.n;
    const Rgba qColor = ropeQueryColor(theme), kColor = ropeKeyColor(theme);
    const Box grid = drawRotationHeader(figure, live, area, params, options, *freqs, chosen, theme);
    if (grid.width < 20 || grid.height < 20) return;

    // Grid: the column count that gives the largest circles.
    const int count = int(pairs.size());
    const CircleText text = circleText(pairCount, theme);
    const float labelSize = text.labelSize, textRows = text.textRows;
    const float shortestLabels = text.shortestLabels;
    const GridShape shape = bestGrid(grid, count, text);
    const int columns = shape.columns, rows = shape.rows;
    // A file that may grow its canvas (one column in print: --width alone) asks for the height
    // that gives every circle room for its labels.
    const float smallestCircle = std::max(60.f, labelSize * 4);
    if (theme.panelRoom && shape.room < smallestCircle) {
        // As many columns as the labels allow, each circle as wide as its column (or no smaller
        // than smallestCircle).
        int most = 1;
        while (most < count && grid.width / float(most + 1) >= shortestLabels) ++most;
        const float circle = std::max(smallestCircle, grid.width / float(most) - 16);
        const int lines = (count + most - 1) / most;
        theme.panelRoom->missingHeight = std::max(
            theme.panelRoom->missingHeight, float(lines) * (textRows + circle + 8) - grid.height);
    }
    const float cellWidth = grid.width / columns, cellHeight = grid.height / rows;
    const bool showText = cellShowsText(cellHeight, text);
    const float gap = kCellGap;
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
        const std::size_t firstItem = figure.items.size();
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
        const float radius = std::max(
            2.f, std::min(cell.width - 16, cell.height - top - bottom - kCircleMargin) / 2);
        const Point centre{cell.x + cell.width / 2,
                           cell.y + top + (cell.height - top - bottom) / 2};
        auto onCircle = [&](double angle, double r) {
            return Point{centre.x + float(r * std::cos(angle)),
                         centre.y - float(r * std::sin(angle))};  // y points down
        };
        // The circle is this pair's plot: the layout and tour checks see its size (a circle
        // ~30 px across at 1024x768 F5 passed unseen, #28). Its labels are not plot titles.
        const Box circleBox{centre.x - radius, centre.y - radius, 2 * radius, 2 * radius};
        figure.panels.push_back({circleBox, firstItem, firstItem, circleBox});
        PanelSpan& span = figure.panels.back();

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
                trailDots.add(dot);
            }
        }

        // The angle between the two arrows: an arc from k to q.
        const double between =
            ropePairAngleBetween(options.q, options.k, m, n, *freqs, params.pairing, pair);
        const double arcRadius = radius * 0.28;
        if (std::abs(between) > 1e-3 && arcRadius > 3) {
            PolylineItem arc;
            const int steps = 2 + int(std::abs(between) / (std::numbers::pi / 24));
            for (int s = 0; s <= steps; ++s) {
                arc.points.push_back(onCircle(kAngle + between * s / steps, arcRadius));
            }
            arc.color = withAlpha(theme.text, 190);
            arc.width = 2;
            live.add(arc);
        }
        const float head = std::clamp(radius * 0.17f, 6.f, 14.f);
        const float width = radius > 40 ? 3.f : 2.f;
        drawArrow(live, centre, onCircle(kAngle, kLength), kColor, width, head);
        drawArrow(live, centre, onCircle(qAngle, qLength), qColor, width, head);

        if (!showText) {
            span.end = figure.items.size();
            continue;
        }
        std::string label = "pair " + std::to_string(pair);
        if (topFormat == 2) label += " · θ = " + formatValue(theta, 3) + " rad/pos";
        if (topFormat == 1) label += "  θ = " + formatValue(theta, 3);
        figure.add(makeText({cell.x + cell.width / 2, cell.y + 3}, label, labelSize, theme.text,
                            HorizontalAlign::Center, VerticalAlign::Top));
        const double degrees = between * 180.0 / std::numbers::pi;
        std::string lower = "Δ " + withMinusSign(printf1("%+.1f°", degrees == 0 ? 0.0 : degrees));
        if (bottomFormat == 2) {
            lower += "   adds " +
                     withMinusSign(printf1("%+.3g", ropePairScore(options.q, options.k, m, n,
                                                                  *freqs, params.pairing, pair))) +
                     " to q·k";
        }
        live.add(makeText({cell.x + cell.width / 2, cell.bottom() - 3}, lower, labelSize,
                          theme.mutedText, HorizontalAlign::Center, VerticalAlign::Bottom));
        span.end = figure.items.size();
    }
}

}  // namespace poslab
