#include "poslab/views/sinusoidal_figures.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "poslab/base/validate.hpp"

namespace poslab {

std::string sinusoidalTitle(const SinusoidalParams& params) {
    return "Sinusoidal encoding (" + std::string(layoutName(params.layout)) +
           "), $d_{model}$ = " + std::to_string(params.dModel) +
           ", base = " + formatValue(params.base, 6) + ", " + std::to_string(params.seqLen) +
           " positions";
}

HeatmapSample sinusoidalSampleForArea(const SinusoidalParams& params, CellWindow window, Box area) {
    // At most one texel per pixel: each pixel shows the mean of the cells under it.
    return sinusoidalSample(params, window, texelBudget(area.height), texelBudget(area.width));
}

Box sinusoidalHeatmapPlotBox(Box area, const SinusoidalParams& params,
                             const SinusoidalHeatmapOptions& options, const Theme& theme) {
    // The layout does not depend on the values: lay the figure out once with none.
    Figure scratch;
    HeatmapSample layout;
    layout.window = clampWindow(options.window, params.seqLen, params.dModel);
    PlotFrame frame;
    drawSinusoidalHeatmap(scratch, area, params, options, theme, &layout, &frame);
    return frame.plot;
}

void drawSinusoidalHeatmap(Figure& figure, Box area, const SinusoidalParams& params,
                           const SinusoidalHeatmapOptions& options, const Theme& theme,
                           const HeatmapSample* sample, PlotFrame* frame) {
    HeatmapSample computed;
    if (!sample) {
        computed = sinusoidalSampleForArea(params, options.window,
                                           sinusoidalHeatmapPlotBox(area, params, options, theme));
        sample = &computed;
    }
    const CellWindow& w = sample->window;
    HeatmapSpec spec;
    spec.title = sinusoidalTitle(params);
    spec.x = {"dimension", double(w.firstCol), double(w.firstCol + w.colCount), false, true};
    spec.y = {"position", double(w.firstRow), double(w.firstRow + w.rowCount), false, true};
    spec.values = sample->values;
    spec.version = sample->version;
    spec.valuesRowSpan = sample->rowSpan;
    spec.valuesColSpan = sample->colSpan;
    spec.colormap = options.colormap;
    spec.range = {-1, 1};
    spec.colorbarLabel = sample->rowsPerTexel > 1 || sample->colsPerTexel > 1
                             ? "value (mean of " + std::to_string(sample->rowsPerTexel) + " x " +
                                   std::to_string(sample->colsPerTexel) + " cells per pixel)"
                             : "value";
    if (options.trainingLength > 0) {
        spec.markers.push_back(trainingLengthMarker(options.trainingLength, theme));
    }
    drawHeatmap(figure, area, spec, theme, frame);
}

LineSeries sinusoidalCurve(const SinusoidalParams& params, int dimension, double first,
                           double last, int columns) {
    LineSeries series;
    const SinusoidalColumn wave = sinusoidalColumn(params, dimension);
    series.name = "dim " + std::to_string(dimension) +
                  (wave.isZero     ? " (zero pad)"
                   : wave.isCosine ? " (cos)"
                                   : " (sin)");
    columns = std::max(columns, 1);
    const double step = (last - first) / columns;
    auto add = [&](double position) {
        series.x.push_back(position);
        series.y.push_back(sinusoidalValue(params, position, dimension));
    };
    // value = sin(w p + phase): extremes where w p + phase = pi/2 + k pi.
    const double w = wave.isZero ? 0.0 : wave.frequency;
    const double phase = wave.isCosine ? std::numbers::pi / 2 : 0.0;
    auto extremeIndex = [&](double position) {
        return (w * position + phase - std::numbers::pi / 2) / std::numbers::pi;
    };
    add(first);
    for (int c = 0; c < columns; ++c) {
        const double begin = first + step * c;
        const double end = c + 1 == columns ? last : first + step * (c + 1);
        if (w > 0) {
            const double lowK = std::ceil(extremeIndex(begin));
            const double highK = std::floor(extremeIndex(end));
            // Up to two extremes per column: a peak and a trough cover the whole swing.
            for (double k = lowK; k <= std::min(highK, lowK + 1); ++k) {
                const double position = (std::numbers::pi / 2 + k * std::numbers::pi - phase) / w;
                if (position > begin && position < end) add(position);
            }
        }
        add(end);
    }
    return series;
}

void drawSinusoidalCurves(Figure& figure, Box area, const SinusoidalParams& params,
                          const SinusoidalCurveOptions& options, const Theme& theme,
                          PlotFrame* frame) {
    LinePlotSpec spec;
    spec.title = "Dimensions against position (" + std::string(layoutName(params.layout)) +
                 ", $d_{model}$ = " + std::to_string(params.dModel) + ")";
    const double first = options.firstPosition;
    const double last = std::max(options.lastPosition, first + 1);
    spec.x = integerAxis("position", first, last);
    spec.y = {"value", -1.1, 1.1};
    spec.autoRangeY = false;
    const int columns = std::clamp(texelBudget(area.width), 64, 4096);
    for (int dimension : options.dimensions) {
        if (dimension < 0 || dimension >= params.dModel) continue;
        spec.series.push_back(sinusoidalCurve(params, dimension, first, last, columns));
    }
    drawLinePlot(figure, area, spec, theme, frame);
}

}  // namespace poslab
