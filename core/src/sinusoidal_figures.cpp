#include "poslab/sinusoidal_figures.hpp"

#include <algorithm>
#include <cmath>

#include "poslab/validate.hpp"

namespace poslab {

std::string sinusoidalTitle(const SinusoidalParams& params) {
    return "Sinusoidal encoding (" + std::string(layoutName(params.layout)) +
           "), d_model = " + std::to_string(params.dModel) +
           ", base = " + formatValue(params.base, 6) + ", " + std::to_string(params.seqLen) +
           " positions";
}

HeatmapSample sinusoidalSampleForArea(const SinusoidalParams& params, CellWindow window, Box area) {
    // At most one texel per pixel: each pixel shows the mean of the cells under it.
    return sinusoidalSample(params, window, std::max(1, int(area.height)),
                            std::max(1, int(area.width)));
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
        Marker marker;
        marker.vertical = false;
        marker.value = options.trainingLength;
        marker.label = "training length " + std::to_string(options.trainingLength);
        marker.color = theme.accent;
        marker.shadeBeyond = true;
        spec.markers.push_back(marker);
    }
    drawHeatmap(figure, area, spec, theme, frame);
}

void drawSinusoidalCurves(Figure& figure, Box area, const SinusoidalParams& params,
                          const SinusoidalCurveOptions& options, const Theme& theme,
                          PlotFrame* frame) {
    LinePlotSpec spec;
    spec.title = "Dimensions against position (" + std::string(layoutName(params.layout)) +
                 ", d_model = " + std::to_string(params.dModel) + ")";
    const double first = options.firstPosition;
    const double last = std::max(options.lastPosition, first + 1);
    spec.x = {"position", first, last};
    spec.y = {"value", -1.1, 1.1};
    spec.autoRangeY = false;
    // One sample per pixel: smooth for waves longer than a few pixels; faster ones fill a band.
    const int samples = std::clamp(int(area.width), 64, 4096);
    for (int dimension : options.dimensions) {
        if (dimension < 0 || dimension >= params.dModel) continue;
        LineSeries series;
        const SinusoidalColumn wave = sinusoidalColumn(params, dimension);
        series.name = "dim " + std::to_string(dimension) +
                      (wave.isZero     ? " (zero pad)"
                       : wave.isCosine ? " (cos)"
                                       : " (sin)");
        series.x.resize(std::size_t(samples));
        series.y.resize(std::size_t(samples));
        for (int i = 0; i < samples; ++i) {
            const double p = first + (last - first) * i / (samples - 1);
            series.x[std::size_t(i)] = p;
            series.y[std::size_t(i)] = sinusoidalValue(params, p, dimension);
        }
        spec.series.push_back(std::move(series));
    }
    drawLinePlot(figure, area, spec, theme, frame);
}

}  // namespace poslab
