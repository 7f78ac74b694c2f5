// rope_decay_figures.cpp — RoFormer's long-term decay (views/rope_decay_figures.hpp): the
// relative upper bound against distance, on a linear or a log axis.
#include "poslab/views/rope_decay_figures.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "poslab/base/limits.hpp"
#include "poslab/base/phase_grid.hpp"
#include "poslab/base/validate.hpp"
#include "poslab/figure/layout.hpp"
#include "poslab/views/rope_figures.hpp"

namespace poslab {

namespace {

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

}  // namespace

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

// "Su et al." with no-break spaces: a title wrapped at a narrow width (one column in print)
// broke it as "Su et / al." (and with one, "Su / et al.").
std::string decayTitle(int rotatedDims, double base) {
    return "Long-term decay of RoPE (RoFormer, Su\u00a0et\u00a0al. 2021, Fig. 2) — d = " +
           std::to_string(rotatedDims) + ", base " + formatValue(base, 6);
}

void drawLogRopeDecay(Figure& figure, Box area, int rotatedDims, double base, int maxDistance,
                      const Theme& theme, PlotFrame* frame) {
    LinePlotSpec spec;
    spec.title = decayTitle(rotatedDims, base);
    spec.x = {"relative distance m − n (log scale)", 1, std::max(10.0, double(maxDistance)), true};
    spec.legend = false;
    spec.autoRangeY = false;
    const int columns = texelBudget(area.width);
    const std::vector<double> distances = logDecayDistances(maxDistance, columns);
    std::vector<double> logDistances, bounds;
    double top = (rotatedDims / 2 + 1) / 2.0;  // the bound at distance 0, its largest value
    // ropeDecayBoundAt's numbers, with the frequencies and phase buffers made once, not per
    // distance (this is most of the figure's cost: columns x 4 distances x d/2 phases).
    const std::vector<double> theta = defaultInverseFrequencies(rotatedDims, base);
    std::vector<double> cosines(theta.size()), sines(theta.size());
    for (double d : distances) {
        logDistances.push_back(std::log10(d));
        for (std::size_t i = 0; i < theta.size(); ++i) {
            cosines[i] = std::cos(d * theta[i]);
            sines[i] = std::sin(d * theta[i]);
        }
        bounds.push_back(decayBoundFromPhases(cosines.data(), sines.data(), theta.size()));
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
        fitText("$(1/(d/2))\\,Σ_j|S_j|$,   $S_j = Σ_{k<j}\\mathrm{exp}(i·r·θ_k)$", theme.fontSize,
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
    spec.title = decayTitle(rotatedDims, base);
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
        "$(1/(d/2))\\,Σ_j|S_j|$,   $S_j = Σ_{k<j}\\mathrm{exp}(i·r·θ_k)$", theme.fontSize, room);
    figure.add(makeText({x, y}, shownFormula.text, shownFormula.size, theme.text,
                        HorizontalAlign::Right, VerticalAlign::Top));
    std::string note = "$θ_k = \\mathrm{base}^{-2k/d}$, $r = m - n$";
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
