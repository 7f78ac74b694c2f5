// linear_shift_figures.cpp — the linear shift T_k and why it needs sin AND cos
// (views/linear_shift_figures.hpp).
#include "poslab/views/linear_shift_figures.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <string>
#include <vector>

#include "poslab/base/limits.hpp"
#include "poslab/base/validate.hpp"
#include "poslab/figure/colormap.hpp"
#include "poslab/figure/layout.hpp"
#include "poslab/figure/panel_grid.hpp"
#include "poslab/views/print_room.hpp"
#include "poslab/views/sinusoidal_figures.hpp"

namespace poslab {

namespace {

// The linear-shift figures' three areas: the matrix (top left, near square), the vectors beside
// it and the residual plot below; `topShare` of the height goes to the top row. Stacked in a
// file, each part asks for `stackedEm` font sizes of height.
struct ShiftLayout {
    Box matrix, vectors, residual;
};
// Shown one at a time (a projector's fonts leave no room for three parts), the selected part
// fills the area and the others are empty boxes; one column of them, each takes its cell.
ShiftLayout shiftLayout(Box area, float topShare, float stackedEm, const Theme& theme, int panel) {
    const PanelGrid grid = linearShiftPanels(area, theme, panel);
    // Too narrow for two columns, a file (a one-column print) stacks all three: each part as
    // tall as its title's wrapped lines, its tick labels and a y label along the plot need (the
    // grid's own minimum left the matrix's y label and the residual's title cut).
    const PanelShape& shape = kLinearShiftPanels;
    if (theme.focusPanel <= 0 && area.width < theme.fontSize * shape.minWidthEm * 2 + shape.gap)
        askForHeight(theme, 3 * theme.fontSize * stackedEm + 2 * shape.gap - area.height);
    if (grid.columns < 2) return {grid.cell(0), grid.cell(1), grid.cell(2)};
    const Box top{area.x, area.y, area.width, std::floor(area.height * topShare)};
    const Box matrix{top.x, top.y, std::min(top.height + 90, std::floor(top.width * 0.42f)),
                     top.height};
    return {matrix,
            {matrix.right() + 10, top.y, top.right() - matrix.right() - 10, top.height},
            {area.x, top.bottom() + 8, area.width, area.bottom() - top.bottom() - 8}};
}

// The residual plot's parts both figures share.
// Which positions were checked: "for every p", or "at N evenly spaced p of M".
std::string checkedPositions(const std::vector<int>& positions, int checkedOf) {
    if (int(positions.size()) == checkedOf) return "for every p";
    return "at " + std::to_string(positions.size()) + " evenly spaced p of " +
           std::to_string(checkedOf);
}

// Where the residual axis starts, and what an exact residual (0) is drawn at: five decades
// under double epsilon (2.2e-16), which the residuals of the rotation sit just above, so that
// the line's label has room on the line's side away from the curve: at 1e-18 the band under the
// line was thinner than the label at one column, and the label went above the curve (#28).
constexpr double kResidualFloor = 1e-21;

// Residuals at `positions` on the log axis x (floored at kResidualFloor), reduced to `pixels`
// columns; a lone position is drawn as a marker.
LineSeries residualCurve(const std::vector<int>& positions, const std::vector<double>& residuals,
                         const AxisSpec& x, int pixels) {
    LineSeries curve;
    std::vector<double> xs(positions.size()), ys(positions.size());
    for (std::size_t i = 0; i < positions.size(); ++i) {
        xs[i] = double(positions[i]);
        ys[i] = std::max(residuals[i], kResidualFloor);
    }
    envelope(xs, ys, x.low, x.high, pixels, curve.x, curve.y);
    curve.markers = positions.size() == 1;
    return curve;
}

// A horizontal line at double's machine epsilon: residuals below it are rounding.
Marker doubleEpsilonMarker(const Theme& theme) {
    Marker epsilon;
    epsilon.vertical = false;
    epsilon.value = 2.220446049250313e-16;
    epsilon.label = "double epsilon";
    epsilon.color = theme.mutedText;
    return epsilon;
}

}  // namespace

PanelGrid linearShiftPanels(Box area, const Theme& theme, int panel) {
    return reflowOrFocus(area, kLinearShiftPanels, theme, panel);
}

namespace {

// T_k's top-left shown x shown corner.
void drawShiftMatrix(Figure& figure, Box matrixBox, const LinearShiftOptions& options,
                     const SparseRows& t, int shown, const Theme& theme) {
    const int d = options.sinusoidal.dModel;
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
            ", mean of " + std::to_string(rpt) + " × " + std::to_string(cpt) + " entries";
    }
    drawHeatmap(figure, matrixBox, spec, theme);
}

// PE(p), PE(p + k) and T_k·PE(p) over the shown dimensions.
void drawShiftedVectors(Figure& figure, Box vectorBox, const LinearShiftOptions& options,
                        const SparseRows& t, int shown, const Theme& theme) {
    const int d = options.sinusoidal.dModel;
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
    before.name = "PE($p$)";
    target.name = "PE($p+k$)";
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
}

// The residual of T_k·PE(p) = PE(p + k) at every position checked.
void drawShiftResidual(Figure& figure, Box bottom, const SampledShiftCheck& check,
                       const Theme& theme) {
    LinePlotSpec residual;
    const std::string which = checkedPositions(check.positions, check.checkedOf);
    residual.title = "residual $\\mathrm{max}_c$ |$T_k$·PE($p$) − PE($p+k$)| " + which +
                     ": largest " + formatValue(check.maxResidual, 3) +
                     " (at p = " + std::to_string(check.worstPosition) + ", dim " +
                     std::to_string(check.worstColumn) + ")";
    residual.x = integerAxis("position p", 0, double(std::max(check.checkedOf, 2) - 1));
    residual.y = {"residual", kResidualFloor, 10, true};
    residual.autoRangeY = false;
    const int pixels = std::max(16, texelBudget(bottom.width) - 80);
    residual.series = {residualCurve(check.positions, check.residual, residual.x, pixels)};
    residual.markers = {doubleEpsilonMarker(theme)};
    residual.legend = false;
    drawLinePlot(figure, bottom, residual, theme);
}

}  // namespace

Status drawLinearShift(Figure& figure, Box area, const LinearShiftOptions& options,
                       const SampledShiftCheck& check, const Theme& theme, int panel) {
    // T_k stays sparse: dense, it is d x d (512 MB at d = 8192) for a corner and a product.
    if (auto s = requireIntInRange("d_model", options.sinusoidal.dModel, 1, kMaxDModel); !s)
        return s;
    if (auto s = requireInRange("base", options.sinusoidal.base, 1.0, 1e12, false); !s) return s;
    if (auto s = requireFinite("shift", options.shift); !s) return s;
    const SparseRows t = sparseShift(options.sinusoidal, options.shift);
    const int d = options.sinusoidal.dModel;
    const int shown = std::clamp(options.shownDims, 2, d);
    figure.viewPanels = kLinearShiftPanels.count;  // --panel N: the GUI's panel N
    const auto [matrixBox, vectorBox, bottom] = shiftLayout(area, 0.58f, 15, theme, panel);

    if (matrixBox.width > 0) drawShiftMatrix(figure, matrixBox, options, t, shown, theme);
    if (vectorBox.width > 0) drawShiftedVectors(figure, vectorBox, options, t, shown, theme);
    if (bottom.width > 0) drawShiftResidual(figure, bottom, check, theme);
    return success();
}

Result<Figure> linearShiftFigure(const LinearShiftOptions& options, float width, float height,
                                 const Theme& theme, int panel) {
    if (auto s = validate(options); !s) return s.error();
    auto check = sampledShiftCheck(options.sinusoidal, options.shift, options.positions);
    if (!check) return check.error();
    Figure figure = emptyFigure(width, height, theme);
    // Two lines at full size where the figure has the height (1024x768 F5: one line was shrunk
    // below its panels' titles), as the Intuitions view's panel lays it out.
    const std::string title = linearShiftTitle(options);
    const float titleHeight = titleBandHeight(theme, title, width, height);
    drawTitle(figure, {0, 0, width, titleHeight}, title, theme);
    const Box area{0, titleHeight, width, height - titleHeight};
    if (options.sinOnly) {
        auto fit = sineOnlyShiftFit(options.sinusoidal, options.shift, options.positions,
                                    kShiftCheckSamples, kSineOnlyRidge);
        if (!fit) return fit.error();
        if (auto s = drawSineOnlyShift(figure, area, options, *check, *fit, theme, panel); !s)
            return s.error();
        return figure;
    }
    if (auto s = drawLinearShift(figure, area, options, *check, theme, panel); !s) return s.error();
    return figure;
}

// ---------------------------------------------------------------------------------------------
// Why sin AND cos
// ---------------------------------------------------------------------------------------------

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
               ? "Why sin AND cos: sin ω(p+k) = cos ωk·sin ωp + sin ωk·cos ωp needs cos ωp"
               : "Linear shift: one block-diagonal matrix $T_k$ moves every PE($p$) to PE($p+k$)";
}

Status drawSineOnlyShift(Figure& figure, Box area, const LinearShiftOptions& options,
                         const SampledShiftCheck& exact, const SineOnlyShiftFit& fit,
                         const Theme& theme, int panel) {
    const int m = int(fit.columns.size());
    if (m == 0 || fit.map.rows != std::size_t(m)) return Error{"the sine-only fit is empty"};
    const int shown = std::clamp(options.shownDims, 1, m);
    figure.viewPanels = kLinearShiftPanels.count;  // --panel N: the GUI's panel N
    const auto [matrixBox, vectorBox, bottom] =
        shiftLayout(area, 0.55f, 19, theme, panel);  // longer labels

    if (matrixBox.width > 0) {  // the part shown (all three while they have room)
        Matrix corner(static_cast<std::size_t>(shown), static_cast<std::size_t>(shown));
        for (int r = 0; r < shown; ++r) {
            for (int c = 0; c < shown; ++c)
                corner(std::size_t(r), std::size_t(c)) = fit.map(std::size_t(r), std::size_t(c));
        }
        // A ridge fit (kSineOnlyRidge): plain least squares leans on nearly parallel slow sines
        // with entries in the millions, colour-clipped into noise; the ridge keeps them near 1 and
        // misses each slow sine by about |sin ωk|. A fixed ±1.5 scale; the caption names any entry
        // beyond.
        const double largest = maxAbs(fit.map);
        constexpr double kReach = 1.5;
        HeatmapSpec spec = matrixSpec(
            std::string(fit.ridge > 0 ? "best T on the sines alone (ridge least squares)"
                                      : "best T on the sines alone (least squares)") +
                (shown < m ? ", first " + std::to_string(shown) + " of " + std::to_string(m)
                           : std::string()),
            corner, matrixBox, ColormapId::BlueWhiteRed, {-kReach, kReach});
        spec.x = {"input sine component", 0, double(shown), false, true};
        spec.y = {"output sine component", 0, double(shown), false, true};
        spec.colorbarLabel =
            largest > kReach ? "entry (clipped; largest " + formatValue(largest, 2) + ")" : "entry";
        drawHeatmap(figure, matrixBox, spec, theme);
    }

    if (vectorBox.width > 0) {
        const std::vector<double> now = sineOnlyRow(options.sinusoidal, options.position);
        const std::vector<double> later =
            sineOnlyRow(options.sinusoidal, options.position + options.shift);
        LinePlotSpec vectors;
        vectors.title = "T · s(" + std::to_string(options.position) + ") misses s(" +
                        formatValue(options.position + options.shift) + ")";
        vectors.x = {"sine component (fastest first)", -0.5, double(shown) - 0.5};
        vectors.y = {"value", -1.6, 1.6};
        vectors.autoRangeY = false;
        LineSeries target, result;
        target.name = "s($p+k$): the sines $k$ later";
        result.name = "T · s($p$): the best a matrix can do";
        for (int c = 0; c < shown; ++c) {
            double value = 0;
            for (int j = 0; j < m; ++j)
                value += fit.map(std::size_t(c), std::size_t(j)) * now[std::size_t(j)];
            target.x.push_back(c), target.y.push_back(later[std::size_t(c)]);
            result.x.push_back(c), result.y.push_back(std::clamp(value, -1.6, 1.6));
        }
        target.width = 5;
        target.color = withAlpha(seriesColor(1), 160);
        result.color = seriesColor(0);
        result.markers = shown <= 64;
        vectors.series = {target, result};
        drawLinePlot(figure, vectorBox, vectors, theme);
    }

    if (bottom.width <= 0) return success();
    LinePlotSpec residual;
    const std::string which = checkedPositions(fit.positions, fit.checkedOf);
    residual.title = "residual " + which + ": sin+cos exact rotation ≤ " +
                     formatValue(exact.maxResidual, 2) + ";  sin only, best fit: up to " +
                     formatValue(fit.maxResidual, 3) + " (rms " + formatValue(fit.rmsResidual, 3) +
                     ")";
    residual.x = integerAxis("position p", 0, double(std::max(fit.checkedOf, 2) - 1));
    // On a projector the short name (the title says what is measured): the formula needs more
    // than the plot's height at 80 % of the body size, and was cut there.
    // Typeset as the other figure's title is: a plain "max_c" showed its underscore on screen.
    residual.y = {theme.fontScale > 1 ? "residual" : "$\\mathrm{max}_c$ |T·PE($p$) − PE($p+k$)|",
                  kResidualFloor, 10, true};
    residual.autoRangeY = false;
    const int pixels = std::max(16, texelBudget(bottom.width) - 80);
    auto curve = [&](const std::vector<int>& at, const std::vector<double>& values,
                     const std::string& name, Rgba color) {
        LineSeries s = residualCurve(at, values, residual.x, pixels);
        s.name = name;
        s.color = color;
        return s;
    };
    residual.series = {
        curve(exact.positions, exact.residual, "sin + cos: $T_k$, a rotation", seriesColor(0)),
        curve(fit.positions, fit.residual, "sin only: least-squares T", seriesColor(3))};
    residual.markers = {doubleEpsilonMarker(theme)};
    drawLinePlot(figure, bottom, residual, theme);
    return success();
}

}  // namespace poslab
