#include "poslab/views/intuition_figures.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>

#include "poslab/base/limits.hpp"
#include "poslab/base/validate.hpp"
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
    const Box top{area.x, area.y, area.width, std::floor(area.height * 0.58f)};
    const Box bottom{area.x, top.bottom() + 8, area.width, area.bottom() - top.bottom() - 8};
    const Box matrixBox{top.x, top.y, std::min(top.height + 90, std::floor(top.width * 0.42f)),
                        top.height};
    const Box vectorBox{matrixBox.right() + 10, top.y, top.right() - matrixBox.right() - 10,
                        top.height};

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
        "T_k for k = " + formatValue(options.shift) +
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
    vectors.title = "T_k · PE(" + std::to_string(options.position) + ") lands on PE(" +
                    formatValue(options.position + options.shift) + ")";
    vectors.x = {"dimension", -0.5, double(shown) - 0.5};
    vectors.y = {"value", -1.15, 1.15};
    vectors.autoRangeY = false;
    LineSeries before, target, result;
    before.name = "PE(p)";
    target.name = "PE(p + k)";
    result.name = "T_k · PE(p)";
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
    residual.title = "residual max_c |T_k·PE(p) − PE(p+k)| " + which + ": largest " +
                     formatValue(check.maxResidual, 3) +
                     " (at p = " + std::to_string(check.worstPosition) + ", dim " +
                     std::to_string(check.worstColumn) + ")";
    residual.x = {"position p", 0, double(std::max(check.checkedOf, 2) - 1)};
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
    const float titleHeight = theme.titleSize * 1.8f;  // as binaryClockFigure's
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
    const float titleHeight = theme.titleSize * 1.8f;
    drawTitle(
        figure, {0, 0, width, titleHeight},
        "Sinusoids as a smooth binary clock: each bit flips twice as slowly as the one before",
        theme);
    drawBinaryClock(figure, {0, titleHeight, width, height - titleHeight}, options, theme, panel);
    return figure;
}

Result<Figure> linearShiftFigure(const LinearShiftOptions& options, float width, float height,
                                 const Theme& theme) {
    auto check = sampledShiftCheck(options.sinusoidal, options.shift, options.positions);
    if (!check) return check.error();
    Figure figure = emptyFigure(width, height, theme);
    const float titleHeight = theme.titleSize * 1.8f;
    drawTitle(figure, {0, 0, width, titleHeight},
              "Linear shift: one block-diagonal matrix T_k moves every PE(p) to PE(p + k)", theme);
    if (auto s = drawLinearShift(figure, {0, titleHeight, width, height - titleHeight}, options,
                                 *check, theme);
        !s) {
        return s.error();
    }
    return figure;
}

}  // namespace poslab
