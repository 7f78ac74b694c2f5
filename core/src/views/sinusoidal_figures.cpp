#include "poslab/views/sinusoidal_figures.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <variant>

#include "poslab/base/validate.hpp"
#include "poslab/figure/layout.hpp"

namespace poslab {

std::string sinusoidalTitle(const SinusoidalParams& params) {
    return "Sinusoidal encoding (" + std::string(layoutName(params.layout)) +
           "), $d_{model}$ = " + std::to_string(params.dModel) +
           ", base = " + formatValue(params.base, 6) + ", " + std::to_string(params.seqLen) +
           " positions";
}

HeatmapSample sinusoidalSampleForArea(const SinusoidalParams& params, CellWindow window, Box area,
                                      bool cellResolution) {
    // At most one texel per pixel: each pixel shows the mean of the cells under it. A vector
    // file's texels are the cells themselves, up to kMaxTexelsPerSide a side.
    return sinusoidalSample(params, window, texelBudget(area.height, cellResolution),
                            texelBudget(area.width, cellResolution));
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
                                           sinusoidalHeatmapPlotBox(area, params, options, theme),
                                           theme.cellResolution);
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
                             ? "value (mean, " + std::to_string(sample->rowsPerTexel) + "×" +
                                   std::to_string(sample->colsPerTexel) + " cells/px)"
                             : "value";
    if (options.trainingLength > 0) {
        spec.markers.push_back(trainingLengthMarker(options.trainingLength, theme));
    }
    drawHeatmap(figure, area, spec, theme, frame);
}

LineSeries sinusoidalCurve(const SinusoidalParams& params, int dimension, double first, double last,
                           int columns) {
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

namespace {

// Where a curve turns a whole cycle within every pixel column, its pixels are one solid band
// from -1 to 1 (a zig-zag of full-height strokes a pixel apart): the band is drawn as one
// rectangle in place of the curve's polylines, the same picture for a fraction of the triangles
// and of the rasterised area (eight such curves at 65,536 positions took hundreds of ms a frame
// on software GL). The plot is laid out with the curve itself, so the legend's place and the
// marks the layout checks read are those of the curve.
struct Band {
    double first = 0, last = 0;  // positions
};

std::vector<Band> solidBands(const SinusoidalParams& params, int dimension, double first,
                             double last, int columns) {
    std::vector<Band> bands;
    const SinusoidalColumn wave = sinusoidalColumn(params, dimension);
    if (wave.isZero || columns < 1) return bands;
    const double step = (last - first) / columns;
    // Every column is `step` wide (the last ends at `last`): all hold a cycle or none does.
    if (!(wave.frequency * step >= 2 * std::numbers::pi)) return bands;
    bands.push_back({first, last});
    return bands;
}

// Polylines drawLinePlot makes of a series: one per run of two or more finite points.
std::size_t polylinesOf(const LineSeries& series) {
    std::size_t lines = 0, run = 0;
    for (std::size_t i = 0; i <= series.x.size(); ++i) {
        const bool valid =
            i < series.x.size() && std::isfinite(series.x[i]) && std::isfinite(series.y[i]);
        if (valid) {
            ++run;
        } else {
            lines += run >= 2;
            run = 0;
        }
    }
    return lines;
}

}  // namespace

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
    std::vector<std::vector<Band>> bands;
    for (int dimension : options.dimensions) {
        if (dimension < 0 || dimension >= params.dModel) continue;
        spec.series.push_back(sinusoidalCurve(params, dimension, first, last, columns));
        bands.push_back(solidBands(params, dimension, first, last, columns));
    }
    const std::size_t before = figure.items.size();
    PlotFrame drawn;
    drawLinePlot(figure, area, spec, theme, &drawn);
    if (frame) *frame = drawn;
    // Each series' bands go just before its polylines: the same order of curves as before.
    std::size_t at = before;
    auto plotClip = [&](const FigureItem& item) {
        const ClipPush* clip = std::get_if<ClipPush>(&item);
        return clip && clip->box.x == drawn.plot.x && clip->box.y == drawn.plot.y &&
               clip->box.width == drawn.plot.width && clip->box.height == drawn.plot.height;
    };
    // The plot's clip that holds the curves (markers have one of their own before it): the
    // series' polylines follow it, one after another.
    std::size_t expected = 0;
    for (const LineSeries& series : spec.series) expected += polylinesOf(series);
    auto polylinesAfter = [&](std::size_t from) {
        std::size_t found = 0;
        while (from + found < figure.items.size() &&
               std::holds_alternative<PolylineItem>(figure.items[from + found]))
            ++found;
        return found;
    };
    while (at < figure.items.size() &&
           !(plotClip(figure.items[at]) && polylinesAfter(at + 1) == expected))
        ++at;
    if (at == figure.items.size()) return;  // not the items this expects: the curves as drawn
    ++at;                                   // past the plot's clip
    // Item by item from there: each series' polylines, in order; a banded series' become its
    // rectangle.
    std::vector<FigureItem> items;
    items.reserve(figure.items.size());
    for (std::size_t i = 0; i < at; ++i) items.push_back(std::move(figure.items[i]));
    for (std::size_t index = 0; index < spec.series.size(); ++index) {
        const LineSeries& series = spec.series[index];
        const std::size_t lines = polylinesOf(series);
        if (bands[index].empty()) {
            for (std::size_t i = at; i < at + lines; ++i)
                items.push_back(std::move(figure.items[i]));
        } else {
            const Rgba color = series.color.a == 0 ? seriesColor(int(index), theme) : series.color;
            const float half = strokeWidth(theme, series.width) / 2;
            for (const Band& band : bands[index]) {
                const Point a = drawn.toPixel(band.first, 1), b = drawn.toPixel(band.last, -1);
                const Box box{std::min(a.x, b.x) - half, std::min(a.y, b.y) - half,
                              std::abs(b.x - a.x) + 2 * half, std::abs(b.y - a.y) + 2 * half};
                items.emplace_back(std::in_place_type<RectItem>, filledRect(box, color));
            }
        }
        at += lines;
    }
    for (std::size_t i = at; i < figure.items.size(); ++i)
        items.push_back(std::move(figure.items[i]));
    figure.items = std::move(items);
}

}  // namespace poslab
