#include "poslab/views/t5_figures.hpp"

#include <algorithm>
#include <climits>
#include <cmath>
#include <limits>

#include "poslab/base/format.hpp"
#include "poslab/base/limits.hpp"
#include "poslab/base/validate.hpp"
#include "poslab/figure/colorbar.hpp"
#include "poslab/figure/layout.hpp"

namespace poslab {

namespace {

// Categorical ids are drawn as id mod 256 with range 0..255: the same colour as the id (the
// table repeats every 32, which divides 256) while staying inside the 256-entry table.
constexpr int kCategoricalWrap = kColormapSize;
constexpr ValueRange kCategoricalRange{0, 255};

}  // namespace

Status validate(const T5FigureOptions& options) {
    // The figures never build the L x L matrix, so only the range of seq_len is checked here,
    // not the memory the matrix would need.
    if (auto s = requireIntInRange("seq_len", options.params.seqLen, 1, kMaxSeqLen); !s) return s;
    T5Params shape = options.params;
    shape.seqLen = 1;
    if (auto s = validate(shape); !s) return s;
    if (!options.bucketBiases.empty()) {
        if (options.bucketBiases.size() != std::size_t(options.params.numBuckets)) {
            return Error{"bucket biases must have num_buckets = " +
                         std::to_string(options.params.numBuckets) + " values (got " +
                         std::to_string(options.bucketBiases.size()) + ")"};
        }
        for (std::size_t b = 0; b < options.bucketBiases.size(); ++b) {
            if (auto s = requireFinite("bucket bias " + std::to_string(b), options.bucketBiases[b]);
                !s) {
                return s;
            }
        }
    }
    return success();
}

std::vector<double> t5EffectiveBiases(const T5FigureOptions& options) {
    if (options.bucketBiases.size() == std::size_t(options.params.numBuckets)) {
        return options.bucketBiases;
    }
    return seededBucketBiases(options.params.numBuckets, options.biasSeed);
}

std::string t5RangeText(const BucketRange& range) {
    const std::string low = range.minUnbounded ? "-inf" : std::to_string(range.minDistance);
    const std::string high = range.maxUnbounded ? "+inf" : std::to_string(range.maxDistance);
    if (!range.minUnbounded && !range.maxUnbounded && range.minDistance == range.maxDistance) {
        return low;
    }
    return low + ".." + high;
}

int t5ChartReach(const T5Params& params) {
    return std::max(8, int(std::ceil(1.25 * double(params.maxDistance))));
}

void t5StepsByDistance(int numBuckets, int maxDistance, int reach, std::vector<double>& x,
                       std::vector<double>& y) {
    x.clear();
    y.clear();
    if (reach < 0) return;
    struct Span {
        long long low, high;  // distances
        int bucket;
    };
    std::vector<Span> spans;
    for (const BucketRange& r : t5BucketRanges({1, numBuckets, maxDistance, false})) {
        // Relative positions j - i in [-reach, 0] are distances 0..reach.
        const long long rpLow = r.minUnbounded ? -(long long)reach : r.minDistance;
        const long long rpHigh = r.maxUnbounded ? 0 : std::min<long long>(r.maxDistance, 0);
        const long long low = std::max<long long>(rpLow, -(long long)reach);
        if (low > rpHigh) continue;
        spans.push_back({-rpHigh, -low, r.bucket});
    }
    std::sort(spans.begin(), spans.end(),
              [](const Span& a, const Span& b) { return a.low < b.low; });
    for (std::size_t k = 0; k < spans.size(); ++k) {
        if (k > 0) x.push_back(double(spans[k].low)), y.push_back(spans[k - 1].bucket);
        x.push_back(double(spans[k].low)), y.push_back(spans[k].bucket);
    }
    if (!spans.empty()) x.push_back(double(reach)), y.push_back(spans.back().bucket);
}

PanelGrid t5Panels(Box area, const Theme& theme, int panel) {
    return reflowOrFocus(area, kT5Panels, theme, panel);
}

namespace {

float t5LegendWidth(const Theme& theme) {
    return std::floor(theme.fontSize * 5.0f);  // the bucket ids' strip beside their map
}

T5Layout t5LayoutIn(Box area, const PanelGrid& panels, const Theme& theme) {
    T5Layout layout;
    layout.area = area;
    layout.cellResolution = theme.cellResolution;
    const float legendWidth = t5LegendWidth(theme);
    if (panels.columns == 2) {
        const float topHeight = std::floor(area.height * 0.58f);
        const float half = std::floor(area.width * 0.5f);
        layout.buckets = {area.x, area.y, half - legendWidth, topHeight};
        layout.bucketLegend = {area.x + half - legendWidth, area.y, legendWidth, topHeight};
        layout.bias = {area.x + half, area.y, area.width - half, topHeight};
        layout.edges = {area.x, area.y + topHeight, half, area.height - topHeight};
        layout.biasCurve = {area.x + half, area.y + topHeight, area.width - half,
                            area.height - topHeight};
        return layout;
    }
    const Box ids = panels.cell(0);
    if (ids.width > 0) {
        layout.buckets = {ids.x, ids.y, ids.width - legendWidth, ids.height};
        layout.bucketLegend = {ids.right() - legendWidth, ids.y, legendWidth, ids.height};
    } else {
        layout.buckets = layout.bucketLegend = ids;
    }
    layout.bias = panels.cell(1);
    layout.edges = panels.cell(2);
    layout.biasCurve = panels.cell(3);
    return layout;
}

}  // namespace

T5Layout t5Layout(Box area, const Theme& theme, int panel) {
    return t5LayoutIn(area, t5Panels(area, theme, panel), theme);
}

Result<T5FigureData> computeT5FigureData(const T5FigureOptions& options, const T5Layout& layout) {
    if (auto status = validate(options); !status) return status.error();
    const T5Params& p = options.params;
    T5FigureData data;
    data.ranges = t5BucketRanges(p);
    data.biases = t5EffectiveBiases(options);

    const int length = p.seqLen;
    const long long reach = length - 1;
    std::vector<double> ids(std::size_t(2 * length - 1), -1.0), biases(ids.size());
    auto put = [&](long long relative, int bucket) {
        const std::size_t k = std::size_t(relative + reach);
        ids[k] = double(bucket % kCategoricalWrap);
        biases[k] = data.biases[std::size_t(bucket)];
    };
    // Each bucket is one interval of relative positions (t5BucketRanges), so the 2L - 1 offsets
    // are runs of one bucket each: no log per offset (131,071 of them at L 65,536, on the worker
    // that a moving max_distance keeps busy). An offset no range covers (none should) is asked
    // of the bucket function itself.
    for (const BucketRange& r : data.ranges) {
        const long long low = r.minUnbounded ? -reach : std::max<long long>(r.minDistance, -reach);
        const long long high = r.maxUnbounded ? reach : std::min<long long>(r.maxDistance, reach);
        for (long long relative = low; relative <= high; ++relative) put(relative, r.bucket);
    }
    for (long long relative = -reach; relative <= reach; ++relative) {
        if (ids[std::size_t(relative + reach)] >= 0) continue;
        put(relative,
            t5RelativePositionBucket(int(relative), p.bidirectional, p.numBuckets, p.maxDistance));
    }
    // Ids are categories: a texel shows the bucket of its centre cell, never a mean of ids.
    const bool cells = layout.cellResolution;
    data.buckets =
        relativeOffsetSample(ids, length, {}, texelBudget(layout.buckets.height, cells),
                             texelBudget(layout.buckets.width, cells), BlockSummary::CentreCell);
    data.bias =
        relativeOffsetSample(biases, length, {}, texelBudget(layout.bias.height, cells),
                             texelBudget(layout.bias.width, cells), BlockSummary::MeanOfUnmasked);
    double largest = 0;
    for (double b : data.biases) largest = std::max(largest, std::abs(b));
    data.biasRange = {-(largest > 0 ? largest : 1), largest > 0 ? largest : 1};
    return data;
}

namespace {

// Bucket ranges as steps over relative positions -reach..reach, left to right.
struct Step {
    long long low, high;
    int bucket;
};
std::vector<Step> stepsWithin(const std::vector<BucketRange>& ranges, int reach) {
    std::vector<Step> steps;
    for (const BucketRange& r : ranges) {
        const long long low = r.minUnbounded ? -reach : std::max<long long>(r.minDistance, -reach);
        const long long high = r.maxUnbounded ? reach : std::min<long long>(r.maxDistance, reach);
        if (high < low) continue;
        steps.push_back({low, high, r.bucket});
    }
    std::sort(steps.begin(), steps.end(),
              [](const Step& a, const Step& b) { return a.low < b.low; });
    return steps;
}

LineSeries stepSeries(const std::vector<Step>& steps, const std::vector<double>& valueOfBucket) {
    LineSeries series;
    for (const Step& s : steps) {
        const double value = valueOfBucket[std::size_t(s.bucket)];
        series.x.push_back(double(s.low) - 0.5);
        series.y.push_back(value);
        series.x.push_back(double(s.high) + 0.5);
        series.y.push_back(value);
    }
    series.width = 2;
    return series;
}

// Dashed lines where the exact buckets end (|j - i| = max_exact) and at max_distance, on each
// side that has buckets. With `labelled`, "exact below n" on the rightmost exact line and
// "max_distance m" on the left one: drawLinePlot places them where they hide no step of the
// curve (along the line, on its other side, above the plot) or lists them in a legend as dashed
// keys (a short plot: 480x320, where the hand-placed label sat on the curve).
void addEdgeMarkers(LinePlotSpec& spec, const T5Params& p, int maxExact, const Theme& theme,
                    bool labelled) {
    for (int side : {-1, 1}) {
        if (side > 0 && !p.bidirectional) continue;
        Marker exact;
        exact.value = side * (maxExact - 0.5);
        exact.color = theme.mutedText;
        if (labelled && side == (p.bidirectional ? 1 : -1))
            exact.label = "exact below " + std::to_string(maxExact);
        spec.markers.push_back(exact);
        Marker far;
        far.value = side * double(p.maxDistance);
        far.color = theme.accent;
        if (labelled && side < 0) far.label = "max_distance " + std::to_string(p.maxDistance);
        spec.markers.push_back(far);
    }
}

std::string directionText(const T5Params& p) {
    return p.bidirectional ? "bidirectional" : "causal";
}

HeatmapSpec bucketsSpec(const T5Params& p, const T5FigureData& data) {
    HeatmapSpec buckets = specFor(data.buckets, "key j", "query i");
    buckets.squareCells = true;  // L x L
    buckets.title = "Bucket of $j-i$ (" + std::to_string(p.numBuckets) + " buckets, max_distance " +
                    std::to_string(p.maxDistance) + ")";
    buckets.colormap = ColormapId::Categorical;
    buckets.range = kCategoricalRange;
    buckets.showColorbar = false;
    return buckets;
}

HeatmapSpec biasSpec(const T5FigureOptions& options, const T5FigureData& data) {
    const T5Params& p = options.params;
    HeatmapSpec bias = specFor(data.bias, "key j", "query i");
    bias.squareCells = true;
    const bool edited = options.bucketBiases.size() == std::size_t(p.numBuckets);
    bias.title =
        std::string("Bias = b[bucket($j-i$)], ") +
        (edited ? "edited values" : "b ~ N(0, 1), seed " + std::to_string(options.biasSeed));
    bias.colormap = ColormapId::BlueWhiteRed;
    bias.range = data.biasRange;
    bias.colorbarLabel = "bias";
    return bias;
}

}  // namespace

void drawT5Figure(Figure& figure, const T5Layout& layout, const T5FigureOptions& options,
                  const T5FigureData& data, const Theme& theme, T5FigureFrames* frames) {
    const T5Params& p = options.params;
    T5FigureFrames local;
    T5FigureFrames& out = frames ? *frames : local;

    // ---- Bucket ids with a discrete legend
    if (layout.buckets.width > 0) {
        const HeatmapSpec buckets = bucketsSpec(p, data);
        drawHeatmap(figure, layout.buckets, buckets, theme, &out.buckets);
        {
            const Box plot = out.buckets.plot;
            const Box& legend = layout.bucketLegend;
            const float width = barWidthFor(theme);
            // Beside the plot (square, so maybe narrower than its area), as a colour bar would be.
            const Box strip{
                std::min(plot.right() + theme.fontSize * 0.9f, legend.x + theme.fontSize * 0.4f),
                plot.y, width, plot.height};
            // Top row = highest bucket, as colour bars put high values on top.
            const int count = p.numBuckets;
            const int rows = std::min(count, texelBudget(plot.height));
            auto values = std::make_shared<Matrix>(std::size_t(rows), 1);
            const double perRow = double(count) / rows;
            for (int r = 0; r < rows; ++r) {
                const int bucket = count - 1 - int((r + 0.5) * perRow);
                (*values)(std::size_t(r), 0) = double(bucket % kCategoricalWrap);
            }
            HeatmapItem item;
            item.box = strip;
            item.values = std::move(values);
            item.colormap = ColormapId::Categorical;
            item.range = kCategoricalRange;
            // The legend depends on the bucket count and the strip height only.
            item.version =
                (std::uint64_t(1) << 62) | (std::uint64_t(count) << 20) | std::uint64_t(rows);
            figure.add(item);
            figure.add(filledRect(strip, {0, 0, 0, 0}, theme.axis));
            const float perBucket = strip.height / float(count);
            // Labels only, no tick marks: a mark before a number reads as a minus sign. Where
            // their spacing leaves fewer than three, the ids a colour bar's ticks would be
            // (three where they fit: 0 and 20 alone at one column).
            std::vector<Tick> ids =
                linearTicks(0, count - 1, tickCountFor(strip.height, theme.fontSize * 1.6f), true);
            if (ids.size() < 3)
                ids = colorbarTicks({0, double(count - 1)}, strip.height, theme.fontSize,
                                    BarTicks::Integers);
            float widest = 0;
            for (const Tick& t : ids) {
                widest = std::max(widest, estimateTextWidth(t.label, theme.fontSize));
                const float py = strip.bottom() - (float(t.value) + 0.5f) * perBucket;
                figure.add(centredText({strip.right() + 5, py}, t.label, theme.fontSize, theme.text,
                                       HorizontalAlign::Left, VerticalAlign::Middle));
            }
            const float captionX =
                std::min(legend.right() - theme.fontSize * 1.4f, strip.right() + 5 + widest + 8);
            figure.add(centredText({captionX, strip.y + strip.height / 2}, "bucket id",
                                   theme.fontSize, theme.mutedText, HorizontalAlign::Center,
                                   VerticalAlign::Top, true));
        }
        if (data.buckets.rowsPerTexel > 1 || data.buckets.colsPerTexel > 1) {
            drawCornerNote(
                figure,
                {layout.buckets.x, layout.buckets.y,
                 layout.buckets.width + layout.bucketLegend.width, layout.buckets.height},
                &out.buckets, "each pixel: the bucket of its centre cell", theme);
        }
    }

    // ---- Bias matrix
    if (layout.bias.width > 0) {
        const HeatmapSpec bias = biasSpec(options, data);
        drawHeatmap(figure, layout.bias, bias, theme, &out.bias);
        drawCornerNote(figure, layout.bias, &out.bias, blockNote(data.bias, "mean of"), theme);
    }

    // ---- Bucket edges and bias against relative position
    const int reach = t5ChartReach(p);
    const std::vector<Step> steps = stepsWithin(data.ranges, reach);
    // The bucket axis is a cell axis (integer ticks, tick b at the centre of row b), so bucket b
    // is drawn at b + 0.5.
    std::vector<double> idOf(std::size_t(p.numBuckets));
    for (int b = 0; b < p.numBuckets; ++b) idOf[std::size_t(b)] = b + 0.5;
    const int maxExact = t5MaxExact(p);

    LinePlotSpec edges;
    edges.title = "Bucket id against $j-i$ (" + directionText(p) + ")";
    edges.x = integerAxis("relative position $j-i$ (key − query)", -reach - 0.5, reach + 0.5);
    edges.y = {"bucket", 0, double(p.numBuckets), false, true};
    edges.autoRangeY = false;
    edges.legend = false;
    edges.series.push_back(stepSeries(steps, idOf));
    edges.series.back().color =
        theme.id == ThemeId::Dark ? Rgba{86, 180, 233, 255} : Rgba{0, 114, 178, 255};
    addEdgeMarkers(edges, p, maxExact, theme, true);
    if (layout.edges.width > 0) drawLinePlot(figure, layout.edges, edges, theme, &out.edges);

    LinePlotSpec curve;
    curve.title = "Bias against relative position $j-i$";
    curve.x = edges.x;
    curve.y = {"bias", 0, 1};
    curve.legend = false;
    curve.series.push_back(stepSeries(steps, data.biases));
    curve.series.back().color = theme.accent;
    addEdgeMarkers(curve, p, maxExact, theme, false);  // labelled on the bucket chart
    if (layout.biasCurve.width > 0)
        drawLinePlot(figure, layout.biasCurve, curve, theme, &out.biasCurve);
}

Status drawT5Figure(Figure& figure, Box area, const T5FigureOptions& options, const Theme& theme,
                    int panel) {
    if (auto status = validate(options); !status) return status;
    PanelGrid panels = t5Panels(area, theme, panel);
    T5Layout layout = t5LayoutIn(area, panels, theme);
    // The maps' rows are measured on texels of the pixels (their frames, not their cells, set
    // the height): a vector file's cells are sampled once, for the layout drawn.
    T5Layout measured = layout;
    measured.cellResolution = false;
    auto data = computeT5FigureData(options, theme.panelRoom ? measured : layout);
    if (!data) return data.error();
    // A one-column file: the two maps' rows as tall as makes them as wide as the column.
    const std::vector<float> wanted =
        !theme.panelRoom
            ? std::vector<float>{}
            : std::vector<float>{
                  heatmapHeightForWidth(panels.cell(0).width - t5LegendWidth(theme),
                                        bucketsSpec(options.params, *data), theme),
                  heatmapHeightForWidth(panels.cell(1).width, biasSpec(options, *data), theme)};
    if (PanelGrid stacked = stackForPrint(panels, kT5Panels, wanted, theme);
        !stacked.rowHeights.empty())
        layout = t5LayoutIn(area, stacked, theme);
    if (theme.panelRoom) data = computeT5FigureData(options, layout);
    if (!data) return data.error();
    figure.viewPanels = kT5Panels.count;  // --panel N: the GUI's panel N, with its own notes
    drawT5Figure(figure, layout, options, *data, theme);
    return success();
}

}  // namespace poslab
