#include "poslab/views/intuition_figures.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <string>

#include "poslab/base/limits.hpp"
#include "poslab/base/validate.hpp"
#include "poslab/figure/colormap.hpp"
#include "poslab/figure/layout.hpp"
#include "poslab/figure/panel_grid.hpp"
#include "poslab/views/sinusoidal_figures.hpp"

namespace poslab {

namespace {

constexpr double kTwoPi = 2 * std::numbers::pi;

}  // namespace

void drawBinaryClock(Figure& figure, Box area, const BinaryClockOptions& options,
                     const Theme& theme, int panel) {
    const int bits = std::clamp(options.bits, 1, 12);
    const int positions = std::clamp(options.positions, 2, 4096);
    const PanelGrid grid = reflowPanels(area, kBinaryClockPanels, theme, panel);
    Box left = grid.cell(0), middle = grid.cell(1), right = grid.cell(2);
    if (grid.columns == 3) {  // side by side: the curves take the most room
        left = {area.x, area.y, std::floor(area.width * 0.22f), area.height};
        middle = {left.right() + 6, area.y, std::floor(area.width * 0.25f), area.height};
        right = {middle.right() + 10, area.y, area.right() - middle.right() - 10, area.height};
    }

    HeatmapSpec binary = matrixSpec("bits of the position", binaryTable(positions, bits).value(),
                                    left, ColormapId::Cividis, {0, 1});
    binary.x.label = "bit (fastest first)";
    binary.y.label = "position";
    binary.colorbarLabel = "bit";
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
    // As many bits as have room for a title, ticks and a plot (about 5.5 lines each).
    const int fit = int(right.height / (theme.fontSize * 5.5f));
    const int shown = std::clamp(fit, 1, std::min(bits, 6));
    const int curvePositions = std::min(positions, 64);
    for (int b = 0; b < shown; ++b) {
        const Box cell = gridCell(right, shown, 1, b, 0, gap);
        const double period = std::ldexp(1.0, b + 1);
        const int k = nearestFrequencyIndex(table, period);
        const double wavelength =
            k >= 0 ? kTwoPi / sinusoidalFrequencies(table)[std::size_t(k)] : 0;
        LinePlotSpec curves;
        curves.title = "bit " + std::to_string(b) + ": period " + formatValue(period) +
                       (k >= 0 ? "; nearest PE pair " + std::to_string(k) + " has wavelength " +
                                     formatValue(wavelength, 3)
                               : "");
        curves.x = {b == shown - 1 ? "position" : "", 0, double(curvePositions)};
        curves.y = {"", -1.3, 1.3};
        curves.autoRangeY = false;
        curves.legend = b == 0;
        LineSeries square, smooth;
        square.name = "2·bit − 1";
        smooth.name = "sinusoid, same period";
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
}

namespace {

// The linear-shift figures' three areas: the matrix (top left, near square), the vectors beside
// it and the residual plot below; `topShare` of the height goes to the top row.
struct ShiftLayout {
    Box matrix, vectors, residual;
};
ShiftLayout shiftLayout(Box area, float topShare) {
    const Box top{area.x, area.y, area.width, std::floor(area.height * topShare)};
    const Box matrix{top.x, top.y, std::min(top.height + 90, std::floor(top.width * 0.42f)),
                     top.height};
    return {matrix,
            {matrix.right() + 10, top.y, top.right() - matrix.right() - 10, top.height},
            {area.x, top.bottom() + 8, area.width, area.bottom() - top.bottom() - 8}};
}

}  // namespace

Status drawLinearShift(Figure& figure, Box area, const LinearShiftOptions& options,
                       const SampledShiftCheck& check, const Theme& theme) {
    // T_k stays sparse: dense, it is d x d (512 MB at d = 8192) for a corner and a product.
    if (auto s = requireIntInRange("d_model", options.sinusoidal.dModel, 1, kMaxDModel); !s)
        return s;
    if (auto s = requireInRange("base", options.sinusoidal.base, 1.0, 1e12, false); !s) return s;
    if (auto s = requireFinite("shift", options.shift); !s) return s;
    const SparseRows t = sparseShift(options.sinusoidal, options.shift);
    const int d = options.sinusoidal.dModel;
    const int shown = std::clamp(options.shownDims, 2, d);
    const auto [matrixBox, vectorBox, bottom] = shiftLayout(area, 0.58f);

    // The corner's block means straight from the sparse rows (what matrixSpec would draw from
    // the dense corner, which at 8192 dims is 512 MB of mostly zeros).
    const long long rpt = cellsPerTexel(shown, texelBudget(matrixBox.height));
    const long long cpt = cellsPerTexel(shown, texelBudget(matrixBox.width));
    Matrix corner(std::size_t((shown + rpt - 1) / rpt), std::size_t((shown + cpt - 1) / cpt));
    for (int r = 0; r < shown; ++r) {
        for (const auto& [c, w] : t[std::size_t(r)]) {
            if (c < shown) corner(std::size_t(r / rpt), std::size_t(c / cpt)) += w;
        }
    }
    for (std::size_t u = 0; u < corner.rows; ++u) {
        const long long rows = std::min<long long>(rpt, shown - (long long)u * rpt);
        for (std::size_t v = 0; v < corner.cols; ++v) {
            const long long cols = std::min<long long>(cpt, shown - (long long)v * cpt);
            corner(u, v) /= double(rows * cols);
        }
    }
    HeatmapSpec spec;
    spec.title =
        "$T_k$ for $k$ = " + formatValue(options.shift) +
        (shown < d ? " (first " + std::to_string(shown) + " of " + std::to_string(d) + " dims)"
                   : "");
    spec.x = {"", 0, double(shown), false, true};
    spec.y = {"", 0, double(shown), false, true};
    if (rpt > 1 || cpt > 1) {
        spec.valuesRowSpan = double((long long)corner.rows * rpt);
        spec.valuesColSpan = double((long long)corner.cols * cpt);
    }
    spec.values = share(std::move(corner));
    spec.version = nextMatrixVersion();
    spec.colormap = ColormapId::BlueWhiteRed;
    spec.range = {-1, 1};
    spec.x.label = "input dimension";
    spec.y.label = "output dimension";
    spec.colorbarLabel = "entry";
    if (rpt > 1 || cpt > 1) {
        spec.colorbarLabel +=
            ", mean of " + std::to_string(rpt) + " x " + std::to_string(cpt) + " entries";
    }
    drawHeatmap(figure, matrixBox, spec, theme);

    std::vector<double> now(static_cast<std::size_t>(d)), later(now.size());
    sinusoidalRow(options.sinusoidal, options.position, now.data());
    sinusoidalRow(options.sinusoidal, options.position + options.shift, later.data());
    const std::vector<double> moved = applySparse(t, now);
    LinePlotSpec vectors;
    vectors.title = "$T_k$ · PE(" + std::to_string(options.position) + ") lands on PE(" +
                    formatValue(options.position + options.shift) + ")";
    vectors.x = {"dimension", -0.5, double(shown) - 0.5};
    vectors.y = {"value", -1.15, 1.15};
    vectors.autoRangeY = false;
    LineSeries before, target, result;
    before.name = "PE(p)";
    target.name = "PE(p + k)";
    result.name = "$T_k$ · PE($p$)";
    // At most two points per pixel column (the min and max there) and markers only while they
    // stay apart: 8192 dims are not 8192 circles.
    const int vectorPixels = std::max(16, texelBudget(vectorBox.width) - 80);
    std::vector<double> dims(static_cast<std::size_t>(shown));
    for (int c = 0; c < shown; ++c) dims[std::size_t(c)] = c;
    auto shownPart = [&](const std::vector<double>& v) {
        return std::vector<double>(v.begin(), v.begin() + shown);
    };
    envelope(dims, shownPart(now), -0.5, shown - 0.5, vectorPixels, before.x, before.y);
    envelope(dims, shownPart(later), -0.5, shown - 0.5, vectorPixels, target.x, target.y);
    envelope(dims, shownPart(moved), -0.5, shown - 0.5, vectorPixels, result.x, result.y);
    before.color = theme.mutedText;
    before.width = 1.2f;
    target.width = 5;
    target.color = withAlpha(seriesColor(1), 160);
    result.markers = shown * 6 <= vectorPixels;
    result.color = seriesColor(0);
    vectors.series = {before, target, result};
    drawLinePlot(figure, vectorBox, vectors, theme);

    LinePlotSpec residual;
    const std::string which = check.everyPosition()
                                  ? "for every p"
                                  : "at " + std::to_string(check.positions.size()) +
                                        " evenly spaced p of " + std::to_string(check.checkedOf);
    residual.title = "residual $\\mathrm{max}_c$ |$T_k$·PE($p$) − PE($p+k$)| " + which +
                     ": largest " + formatValue(check.maxResidual, 3) +
                     " (at p = " + std::to_string(check.worstPosition) + ", dim " +
                     std::to_string(check.worstColumn) + ")";
    residual.x = integerAxis("position p", 0, double(std::max(check.checkedOf, 2) - 1));
    residual.y = {"residual", 1e-18, 10, true};
    residual.autoRangeY = false;
    LineSeries r;
    r.name = "";
    r.markers = check.positions.size() == 1;
    const int pixels = std::max(16, texelBudget(bottom.width) - 80);
    std::vector<double> xs(check.residual.size()), ys(check.residual.size());
    for (std::size_t p = 0; p < check.residual.size(); ++p) {
        xs[p] = double(check.positions[p]);
        ys[p] = std::max(check.residual[p], 1e-18);
    }
    envelope(xs, ys, residual.x.low, residual.x.high, pixels, r.x, r.y);
    residual.series = {r};
    Marker epsilon;
    epsilon.vertical = false;
    epsilon.value = 2.220446049250313e-16;
    epsilon.label = "double epsilon";
    epsilon.color = theme.mutedText;
    residual.markers = {epsilon};
    residual.legend = false;
    drawLinePlot(figure, bottom, residual, theme);
    return success();
}

PanelGrid binaryClockPanels(float width, float height, const Theme& theme, int panel) {
    const float titleHeight = titleBandHeight(theme);  // as binaryClockFigure's
    return reflowPanels({0, titleHeight, width, height - titleHeight}, kBinaryClockPanels, theme,
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
    const float titleHeight = titleBandHeight(theme);
    drawTitle(
        figure, {0, 0, width, titleHeight},
        "Sinusoids as a smooth binary clock: each bit flips twice as slowly as the one before",
        theme);
    drawBinaryClock(figure, {0, titleHeight, width, height - titleHeight}, options, theme, panel);
    return figure;
}

Result<Figure> linearShiftFigure(const LinearShiftOptions& options, float width, float height,
                                 const Theme& theme) {
    if (auto s = validate(options); !s) return s.error();
    auto check = sampledShiftCheck(options.sinusoidal, options.shift, options.positions);
    if (!check) return check.error();
    Figure figure = emptyFigure(width, height, theme);
    const float titleHeight = titleBandHeight(theme);
    drawTitle(figure, {0, 0, width, titleHeight}, linearShiftTitle(options), theme);
    const Box area{0, titleHeight, width, height - titleHeight};
    if (options.sinOnly) {
        auto fit = sineOnlyShiftFit(options.sinusoidal, options.shift, options.positions,
                                    kShiftCheckSamples, kSineOnlyRidge);
        if (!fit) return fit.error();
        if (auto s = drawSineOnlyShift(figure, area, options, *check, *fit, theme); !s)
            return s.error();
        return figure;
    }
    if (auto s = drawLinearShift(figure, area, options, *check, theme); !s) return s.error();
    return figure;
}

}  // namespace poslab

// ---------------------------------------------------------------------------------------------
// Why sin AND cos
// ---------------------------------------------------------------------------------------------

namespace poslab {

Status validate(const LinearShiftOptions& options) {
    const int dLimit = options.sinOnly ? kMaxSineOnlyDModel : kMaxDModel;
    if (auto s = requireIntInRange("d_model", options.sinusoidal.dModel, 1, dLimit); !s) return s;
    if (auto s = requireInRange("base", options.sinusoidal.base, 1.0, 1e12, false); !s) return s;
    if (auto s = requireFinite("shift", options.shift); !s) return s;
    if (auto s = requireIntInRange("position", options.position, 0, kMaxSeqLen); !s) return s;
    if (auto s = requireIntInRange("positions", options.positions, 1, kMaxSeqLen); !s) return s;
    return success();  // shownDims is clamped where it is drawn
}

std::string linearShiftTitle(const LinearShiftOptions& options) {
    return options.sinOnly
               ? "Why sin AND cos: sin ω(p+k) = cos ωk · sin ωp + sin ωk · cos ωp needs cos ωp"
               : "Linear shift: one block-diagonal matrix $T_k$ moves every PE($p$) to PE($p+k$)";
}

Status drawSineOnlyShift(Figure& figure, Box area, const LinearShiftOptions& options,
                         const SampledShiftCheck& exact, const SineOnlyShiftFit& fit,
                         const Theme& theme) {
    const int m = int(fit.columns.size());
    if (m == 0 || fit.map.rows != std::size_t(m)) return Error{"the sine-only fit is empty"};
    const int shown = std::clamp(options.shownDims, 1, m);
    const auto [matrixBox, vectorBox, bottom] = shiftLayout(area, 0.55f);

    Matrix corner(static_cast<std::size_t>(shown), static_cast<std::size_t>(shown));
    for (int r = 0; r < shown; ++r) {
        for (int c = 0; c < shown; ++c) corner(std::size_t(r), std::size_t(c)) = fit.map(std::size_t(r), std::size_t(c));
    }
    // A ridge fit (kSineOnlyRidge): plain least squares leans on nearly parallel slow sines with
    // entries in the millions, colour-clipped into noise; the ridge keeps them near 1 and misses
    // each slow sine by about |sin ωk|. A fixed ±1.5 scale; the caption names any entry beyond.
    const double largest = maxAbs(fit.map);
    constexpr double kReach = 1.5;
    HeatmapSpec spec =
        matrixSpec(std::string(fit.ridge > 0 ? "best T on the sines alone (ridge least squares)"
                                             : "best T on the sines alone (least squares)") +
                       (shown < m ? ", first " + std::to_string(shown) + " of " + std::to_string(m)
                                  : std::string()),
                   corner, matrixBox, ColormapId::BlueWhiteRed, {-kReach, kReach});
    spec.x = {"input sine component", 0, double(shown), false, true};
    spec.y = {"output sine component", 0, double(shown), false, true};
    spec.colorbarLabel =
        largest > kReach ? "entry (clipped; largest " + formatValue(largest, 2) + ")" : "entry";
    drawHeatmap(figure, matrixBox, spec, theme);

    const std::vector<double> now = sineOnlyRow(options.sinusoidal, options.position);
    const std::vector<double> later = sineOnlyRow(options.sinusoidal, options.position + options.shift);
    LinePlotSpec vectors;
    vectors.title = "T · s(" + std::to_string(options.position) + ") misses s(" +
                    formatValue(options.position + options.shift) + ")";
    vectors.x = {"sine component (fastest first)", -0.5, double(shown) - 0.5};
    vectors.y = {"value", -1.6, 1.6};
    vectors.autoRangeY = false;
    LineSeries target, result;
    target.name = "s(p + k): the sines k later";
    result.name = "T · s(p): the best a matrix can do";
    for (int c = 0; c < shown; ++c) {
        double value = 0;
        for (int j = 0; j < m; ++j) value += fit.map(std::size_t(c), std::size_t(j)) * now[std::size_t(j)];
        target.x.push_back(c), target.y.push_back(later[std::size_t(c)]);
        result.x.push_back(c), result.y.push_back(std::clamp(value, -1.6, 1.6));
    }
    target.width = 5;
    target.color = withAlpha(seriesColor(1), 160);
    result.color = seriesColor(0);
    result.markers = shown <= 64;
    vectors.series = {target, result};
    drawLinePlot(figure, vectorBox, vectors, theme);

    LinePlotSpec residual;
    const std::string which = fit.everyPosition() ? "for every p"
                                                  : "at " + std::to_string(fit.positions.size()) +
                                                        " evenly spaced p of " + std::to_string(fit.checkedOf);
    residual.title = "residual " + which + ": sin+cos exact rotation ≤ " +
                     formatValue(exact.maxResidual, 2) + ";  sin only, best fit: up to " +
                     formatValue(fit.maxResidual, 3) + " (rms " + formatValue(fit.rmsResidual, 3) + ")";
    residual.x = integerAxis("position p", 0, double(std::max(fit.checkedOf, 2) - 1));
    residual.y = {"max_c |T·PE(p) − PE(p+k)|", 1e-18, 10, true};
    residual.autoRangeY = false;
    const int pixels = std::max(16, texelBudget(bottom.width) - 80);
    auto curve = [&](const std::vector<int>& at, const std::vector<double>& values,
                     const std::string& name, Rgba color) {
        LineSeries s;
        s.name = name;
        s.color = color;
        std::vector<double> xs(at.size()), ys(at.size());
        for (std::size_t i = 0; i < at.size(); ++i) {
            xs[i] = double(at[i]);
            ys[i] = std::max(values[i], 1e-18);
        }
        envelope(xs, ys, residual.x.low, residual.x.high, pixels, s.x, s.y);
        s.markers = at.size() == 1;
        return s;
    };
    residual.series = {
        curve(exact.positions, exact.residual, "sin + cos: $T_k$, a rotation", seriesColor(0)),
        curve(fit.positions, fit.residual, "sin only: least-squares T", seriesColor(3))};
    Marker epsilon;
    epsilon.vertical = false;
    epsilon.value = 2.220446049250313e-16;
    epsilon.label = "double epsilon";
    epsilon.color = theme.mutedText;
    residual.markers = {epsilon};
    drawLinePlot(figure, bottom, residual, theme);
    return success();
}

// ---------------------------------------------------------------------------------------------
// Why position at all
// ---------------------------------------------------------------------------------------------

namespace {

Rgba readableOn(ColormapId colormap, double t) {
    const Rgba c = sampleColormap(colormap, t);
    const double luminance = 0.299 * c.r + 0.587 * c.g + 0.114 * c.b;
    return luminance > 140 ? Rgba{0, 0, 0, 255} : Rgba{255, 255, 255, 255};
}

float widestText(const std::vector<std::string>& texts, float size) {
    float widest = 0;
    for (const std::string& t : texts) widest = std::max(widest, estimateTextWidth(t, size));
    return widest;
}

// A small matrix with words along its rows (and, when given, its columns), a fitted title, and
// each value printed in its cell when the cell has room. Returns the box the cells took.
Box drawWordMatrix(Figure& figure, Box box, const std::string& title,
                   const std::vector<std::string>& rows, const std::vector<std::string>& cols,
                   const Matrix& values, ColormapId colormap, ValueRange range,
                   const std::string& xLabel, const Theme& theme) {
    // A title or axis label too long for a narrow matrix (a projector's font) wraps between
    // words instead of ending in "…" ("attention, se…", "output dime…" at 1024x768 F5), when the
    // box is at least 9 lines tall: a shorter one (under a lesson card) keeps its cells instead.
    const bool roomy = box.height >= 9 * theme.fontSize;
    const float titleSize = theme.fontSize * 1.05f, titleStep = titleSize * 1.15f;
    const std::vector<std::string> titleLines =
        roomy ? wrapText(title, titleSize, box.width) : std::vector<std::string>{title};
    const float titleHeight = theme.fontSize * 1.6f + titleStep * float(std::max<std::size_t>(titleLines.size(), 1) - 1);
    for (std::size_t i = 0; i < titleLines.size(); ++i) {
        const FittedText fitted = fitText(titleLines[i], titleSize, box.width);
        figure.add(centredText({box.x + box.width / 2, box.y + titleStep * float(i)}, fitted.text, fitted.size,
                               theme.text));
    }
    const float xLabelSize = theme.fontSize * 0.9f, xLabelStep = xLabelSize * 1.15f;
    const float n = float(std::max<std::size_t>(values.rows, 1));
    const float available = box.height - titleHeight - theme.fontSize * 1.6f;
    const float labelSize = std::clamp(available / n * 0.8f, 0.f, theme.fontSize);
    const bool rowLabels = labelSize >= 7;
    // Words whole beside their rows: up to 55 % of the box ("chased", "mouse" at F5).
    const float rowLabelWidth = rowLabels ? std::min(widestText(rows, labelSize) + 6, box.width * 0.55f) : 0;
    float colLabelHeight = 0;
    bool rotated = false;
    const float cellGuess = (box.width - rowLabelWidth) / float(std::max<std::size_t>(values.cols, 1));
    if (!cols.empty() && rowLabels) {
        if (widestText(cols, labelSize) + 4 <= cellGuess) {
            colLabelHeight = labelSize * 1.4f;
        } else if (cellGuess >= labelSize) {  // narrower cells get no column labels
            rotated = true;
            colLabelHeight = std::min(widestText(cols, labelSize) + 6, available * 0.35f);
        }
    }
    const std::vector<std::string> xLabelLines =
        xLabel.empty()  ? std::vector<std::string>{}
        : roomy ? wrapText(xLabel, xLabelSize, box.width - rowLabelWidth)
                : std::vector<std::string>{xLabel};
    const float bottomLabel =
        xLabelLines.empty() ? 0 : theme.fontSize * 1.5f + xLabelStep * float(xLabelLines.size() - 1);
    Box cells{box.x + rowLabelWidth, box.y + titleHeight + colLabelHeight, box.width - rowLabelWidth,
              box.height - titleHeight - colLabelHeight - bottomLabel};
    if (cells.width < 4 || cells.height < 4) return cells;
    const float cellW = cells.width / float(values.cols), cellH = cells.height / float(values.rows);
    HeatmapItem heat;
    heat.box = cells;
    heat.values = share(values);
    heat.colormap = colormap;
    heat.range = range;
    heat.version = nextMatrixVersion();
    figure.add(heat);
    figure.add(filledRect(cells, {0, 0, 0, 0}, theme.axis));
    if (rowLabels) {
        for (std::size_t r = 0; r < values.rows && r < rows.size(); ++r) {
            const FittedText label = fitText(rows[r], labelSize, rowLabelWidth - 4, 0.75f);
            figure.add(makeText({cells.x - 4, cells.y + (float(r) + 0.5f) * cellH}, label.text, label.size,
                                theme.text, HorizontalAlign::Right, VerticalAlign::Middle));
        }
        for (std::size_t c = 0; colLabelHeight > 0 && c < values.cols && c < cols.size(); ++c) {
            const float x = cells.x + (float(c) + 0.5f) * cellW;
            if (rotated) {
                if (cellW < labelSize) continue;
                const FittedText label = fitText(cols[c], labelSize, colLabelHeight - 4, 0.9f);
                figure.add(makeText({x, cells.y - 3}, label.text, label.size, theme.text,
                                    HorizontalAlign::Left, VerticalAlign::Middle, true));
            } else {
                figure.add(makeText({x, cells.y - 3}, cols[c], labelSize, theme.text,
                                    HorizontalAlign::Center, VerticalAlign::Bottom));
            }
        }
    }
    // The numbers themselves, where a cell holds "0.00" comfortably.
    const float valueSize = std::min(theme.fontSize * 0.85f, cellH * 0.5f);
    if (valueSize >= 8 && estimateTextWidth("0.00", valueSize) + 4 <= cellW) {
        for (std::size_t r = 0; r < values.rows; ++r) {
            for (std::size_t c = 0; c < values.cols; ++c) {
                const double v = values(r, c);
                const double t = rangeFraction(v, range.low, range.high);
                char text[32];
                std::snprintf(text, sizeof text, "%.2f", v);
                figure.add(makeText({cells.x + (float(c) + 0.5f) * cellW, cells.y + (float(r) + 0.5f) * cellH},
                                    text, valueSize, readableOn(colormap, t), HorizontalAlign::Center,
                                    VerticalAlign::Middle));
            }
        }
    }
    for (std::size_t i = 0; i < xLabelLines.size(); ++i) {
        const FittedText label = fitText(xLabelLines[i], xLabelSize, cells.width);
        figure.add(centredText({cells.x + cells.width / 2, cells.bottom() + 3 + xLabelStep * float(i)}, label.text,
                               label.size, theme.mutedText));
    }
    return cells;
}

std::string positionSentence(ToyPosition position) {
    switch (position) {
        case ToyPosition::None: return "no position signal";
        case ToyPosition::Sinusoidal: return "sinusoidal PE added to the word vectors";
        case ToyPosition::Learned: return "a seeded learned table added to the word vectors";
        case ToyPosition::Rope: return "RoPE rotating q and k by position";
        case ToyPosition::Alibi: return "ALiBi's −½|i − j| added to the scores";
    }
    return "";
}

}  // namespace

void drawAttentionShuffle(Figure& figure, Box area, const ShuffleComparison& c,
                          const ToyAttentionParams& params, const Theme& theme) {
    const std::size_t n = c.words.size();
    // ---- The reordering: the sentence above, the shuffled sentence below, a line per word.
    const float diagramHeight = std::clamp(area.height * 0.22f, 3.2f * theme.fontSize, 9.f * theme.fontSize);
    const Box diagram{area.x, area.y, area.width, diagramHeight};
    const float captionWidth = std::min(estimateTextWidth("shuffled", theme.fontSize) + 12, area.width * 0.2f);
    const float slot = (diagram.width - captionWidth) / float(n);
    const float wordSize = std::min(theme.fontSize * 1.15f, diagram.height * 0.25f);
    auto slotX = [&](std::size_t i) { return diagram.x + captionWidth + (float(i) + 0.5f) * slot; };
    const float topY = diagram.y + 2, bottomY = diagram.bottom() - wordSize - 4;
    for (const auto& [caption, y] : {std::pair{"sentence", topY}, std::pair{"shuffled", bottomY}}) {
        const FittedText text = fitText(caption, theme.fontSize * 0.9f, captionWidth - 6, 0.6f);
        figure.add(makeText({diagram.x, y + wordSize / 2}, text.text, text.size, theme.mutedText,
                            HorizontalAlign::Left, VerticalAlign::Middle));
    }
    for (std::size_t i = 0; i < n; ++i) {
        const FittedText above = fitText(c.words[i], wordSize, slot - 6, 0.6f);
        figure.add(centredText({slotX(i), topY}, above.text, above.size, theme.text));
        const FittedText below = fitText(c.shuffledWords[i], wordSize, slot - 6, 0.6f);
        figure.add(centredText({slotX(i), bottomY}, below.text, below.size, theme.text));
    }
    for (std::size_t k = 0; k < n; ++k) {
        const std::size_t from = std::size_t(c.permutation[k]);
        const Rgba color = from == k ? withAlpha(theme.mutedText, 160) : seriesColor(int(from % 8));
        figure.add(LineItem{{slotX(from), topY + wordSize + 3}, {slotX(k), bottomY - 3}, color,
                            from == k ? 1.2f : 2.f, false});
    }

    // ---- The verdict (drawn last, below the matrices).
    const bool merelyPermuted = c.outputDeviation < 1e-12;
    // The number first: a small figure drops the paragraph's last lines.
    const std::string deviation = c.outputDeviation == 0 ? std::string("0")
                                  : merelyPermuted
                                      ? formatValue(c.outputDeviation, 2) + ", rounding"
                                      : formatValue(c.outputDeviation, 3);
    const std::string verdict =
        "Max |output(shuffled word) − output(same word in the sentence)| = " + deviation +
        " (outputs up to " + formatValue(c.outputScale, 2) + ") with " +
        positionSentence(params.position) + ". " +
        (merelyPermuted ? "The head sees a bag of words: reorder them and each word's output only "
                          "moves with it, so both sentences mean the same to it."
                        : "The same word at another place now gets another output: order reaches "
                          "the model.");
    // Room for the whole verdict (at F5 its last line was cut), up to 30 % of the height, when
    // the matrices keep at least 9 lines of height; else as before, the paragraph shrunk or cut.
    const float verdictLines = float(wrapText(verdict, theme.fontSize, area.width).size());
    const float usualVerdict = std::clamp(area.height * 0.16f, 2.4f * theme.fontSize, 5.f * theme.fontSize);
    const float wholeVerdict = std::min(verdictLines * theme.fontSize * 1.3f + 8, area.height * 0.3f);
    const float verdictHeight =
        area.bottom() - diagram.bottom() - 8 - wholeVerdict >= 9 * theme.fontSize
            ? std::max(usualVerdict, wholeVerdict)
            : usualVerdict;

    // ---- Attention weights and outputs, each for both word orders.
    const Box panels{area.x, diagram.bottom() + 8, area.width,
                     area.bottom() - diagram.bottom() - 8 - verdictHeight};
    const ValueRange weightRange{0, 1};
    const double scale = std::max(c.outputScale, 1e-12);
    const ValueRange outputRange{-scale, scale};
    const float barWidth = barWidthFor(theme);
    const float barHeight = std::max(10.f, panels.height - 4 * theme.fontSize);
    const float weightBar = barWidth + colorbarTickWidth(weightRange, barHeight, theme) + 10;
    const float outputBar = barWidth + colorbarTickWidth(outputRange, barHeight, theme) + 10;
    const float deviationWidth = estimateTextWidth("Δ 0.000", theme.fontSize * 0.8f) + 8;
    const float gap = 10;
    const float free = panels.width - weightBar - outputBar - deviationWidth - 4 * gap;
    const float attentionWidth = std::floor(free * 0.22f), outputWidth = std::floor(free * 0.28f);
    float x = panels.x;
    auto next = [&](float width) {
        const Box b{x, panels.y, width, panels.height};
        x += width + gap;
        return b;
    };
    const std::string by = "query × key";
    const Box cellsA = drawWordMatrix(figure, next(attentionWidth), "attention, sentence", c.words, c.words,
                                      c.original.weights, ColormapId::Viridis, weightRange, by, theme);
    drawWordMatrix(figure, next(attentionWidth), "attention, shuffled", c.shuffledWords, c.shuffledWords,
                   c.shuffled.weights, ColormapId::Viridis, weightRange, by, theme);
    const Box weightBarBox{x - gap + 4, cellsA.y, barWidth, cellsA.height};
    if (weightBarBox.height > 8) drawColorbar(figure, weightBarBox, ColormapId::Viridis, weightRange, theme);
    x += weightBar - gap + 4;
    const std::string dims = "output dimension 0.." + std::to_string(params.dModel - 1);
    drawWordMatrix(figure, next(outputWidth), "output, sentence", c.words, {}, c.original.output,
                   ColormapId::BlueWhiteRed, outputRange, dims, theme);
    const Box cellsD = drawWordMatrix(figure, next(outputWidth), "output, shuffled", c.shuffledWords, {},
                                      c.shuffled.output, ColormapId::BlueWhiteRed, outputRange, dims, theme);
    // Per shuffled word: how far its output is from the same word's output in the sentence.
    const float rowHeight = cellsD.height / float(n);
    const float deviationSize = std::min(theme.fontSize * 0.8f, rowHeight * 0.8f);
    if (deviationSize >= 7) {
        figure.add(makeText({cellsD.right() + 4, cellsD.y - 3}, "Δ", theme.fontSize * 0.8f, theme.mutedText,
                            HorizontalAlign::Left, VerticalAlign::Bottom));
        for (std::size_t i = 0; i < n; ++i) {
            const double d = c.tokenDeviation[i];
            figure.add(makeText({cellsD.right() + 4, cellsD.y + (float(i) + 0.5f) * rowHeight},
                                d < 1e-12 ? "0" : formatValue(d, 2), deviationSize,
                                d < 1e-12 ? theme.mutedText : theme.accent, HorizontalAlign::Left,
                                VerticalAlign::Middle));
        }
    }
    const Box outputBarBox{cellsD.right() + deviationWidth, cellsD.y, barWidth, cellsD.height};
    if (outputBarBox.height > 8) drawColorbar(figure, outputBarBox, ColormapId::BlueWhiteRed, outputRange, theme);

    drawParagraph(figure, {area.x, panels.bottom() + 6, area.width, verdictHeight - 6}, verdict, theme,
                  theme.fontSize, merelyPermuted ? theme.text : theme.accent);
}

Result<Figure> attentionShuffleFigure(const ToyAttentionParams& params, float width, float height,
                                      const Theme& theme) {
    auto comparison = compareShuffle(params);
    if (!comparison) return comparison.error();
    Figure figure = emptyFigure(width, height, theme);
    const float titleHeight = titleBandHeight(theme);
    drawTitle(figure, {0, 0, width, titleHeight},
              "Why position at all: without it, reordering the words only reorders the outputs",
              theme);
    drawAttentionShuffle(figure, {8, titleHeight, width - 16, height - titleHeight - 4}, *comparison,
                         params, theme);
    return figure;
}

// ---------------------------------------------------------------------------------------------
// Why different frequencies
// ---------------------------------------------------------------------------------------------

PanelGrid frequencyResolutionPanels(Box area, const Theme& theme, int panel) {
    return reflowPanels(area, kFrequencyResolutionPanels, theme, panel);
}

void drawFrequencyResolution(Figure& figure, Box area, const FrequencyResolution& r,
                             const FrequencyResolutionParams& params, const Theme& theme,
                             int panel) {
    // Both plots, the distances taller; or the one a small canvas shows alone, over all of it.
    const PanelGrid grid = frequencyResolutionPanels(area, theme, panel);
    const bool alone = grid.oneAtATime();
    Box top{area.x, area.y, area.width, std::floor(area.height * 0.58f)};
    Box bottom{area.x, top.bottom() + 8, area.width, area.bottom() - top.bottom() - 8};
    if (alone) top = bottom = area;
    const int n = params.positions;
    const double wavelength = 2 * std::numbers::pi / r.sharedFrequency;

    LinePlotSpec distance;
    distance.title = "|PE(p+D) − PE(p)|: " + std::to_string(r.frequencies.size()) +
                     " frequencies: closest " + formatValue(r.standardMinimum, 3) + " (D = " +
                     std::to_string(r.standardMinimumOffset) + ");  one frequency: closest " +
                     formatValue(r.sharedMinimum, 2) + " (D = " + std::to_string(r.sharedMinimumOffset) +
                     "), " + std::to_string(r.collidingPairs) + " position pairs closer than that";
    distance.x = {"offset D (log)", 1, double(std::max(n - 1, 2)), true};
    distance.y = {"distance", 0, 1};
    const int pixels = std::max(16, texelBudget(top.width) - 80);
    auto series = [&](const std::vector<double>& values, const std::string& name, Rgba color) {
        LineSeries s;
        s.name = name;
        s.color = color;
        std::vector<double> xs, ys;
        for (int offset = 1; offset < n; ++offset) {
            xs.push_back(std::log10(double(offset)));
            ys.push_back(values[std::size_t(offset)]);
        }
        envelope(xs, ys, 0, std::log10(double(std::max(n - 1, 2))), pixels, s.x, s.y);
        for (double& v : s.x) v = std::pow(10.0, v);
        s.markers = n <= 24;
        return s;
    };
    distance.series = {series(r.standardDistance,
                              "standard: pair $i$ at $ω_i=\\mathrm{base}^{-2i/d}$", seriesColor(0)),
                       series(r.sharedDistance,
                              "every pair at $ω_{" + std::to_string(params.sharedPair) +
                                  "}$ (wavelength " + formatValue(wavelength, 3) + ")",
                              seriesColor(3))};
    Marker closest;
    closest.vertical = false;
    closest.value = r.standardMinimum;
    closest.label = "standard table's closest pair";
    closest.color = theme.mutedText;
    distance.markers = {closest};
    if (!alone || grid.shows(0)) drawLinePlot(figure, top, distance, theme);

    LinePlotSpec pairs;
    pairs.title = "one pair on its own: fast pairs separate neighbours, slow pairs far positions";
    // Cell axis: integer ticks at pair centres (i + 0.5 in data units).
    pairs.x = {"pair i (fastest first)", 0, double(r.frequencies.size()), false, true};
    pairs.y = {"distance in pair i", 0, 2.1};
    pairs.autoRangeY = false;
    LineSeries near, far;
    near.name = "neighbours, D = 1";
    far.name = "far apart, D = " + std::to_string(r.farOffset);
    for (std::size_t i = 0; i < r.frequencies.size(); ++i) {
        near.x.push_back(double(i) + 0.5), near.y.push_back(r.neighbourByPair[i]);
        far.x.push_back(double(i) + 0.5), far.y.push_back(r.farByPair[i]);
    }
    near.markers = far.markers = r.frequencies.size() <= 64;
    near.color = seriesColor(0);
    far.color = seriesColor(2);
    pairs.series = {near, far};
    Marker shared;
    shared.value = params.sharedPair + 0.5;
    shared.label = "shared";
    shared.color = seriesColor(3);
    pairs.markers = {shared};
    if (!alone || grid.shows(1)) drawLinePlot(figure, bottom, pairs, theme);
}

Result<Figure> frequencyResolutionFigure(const FrequencyResolutionParams& params, float width,
                                         float height, const Theme& theme, int panel) {
    auto resolution = frequencyResolution(params);
    if (!resolution) return resolution.error();
    Figure figure = emptyFigure(width, height, theme);
    const float titleHeight = titleBandHeight(theme);
    drawTitle(figure, {0, 0, width, titleHeight},
              "Why many frequencies: one frequency repeats itself, a ladder of them keeps positions apart",
              theme);
    drawFrequencyResolution(figure, {0, titleHeight, width, height - titleHeight}, *resolution,
                            params, theme, panel);
    return figure;
}

}  // namespace poslab
