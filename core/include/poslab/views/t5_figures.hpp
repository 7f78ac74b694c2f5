// t5_figures.hpp — the T5 view as figures: the bucket of every (query, key) pair, the learned bias
// it adds, and where the exact and logarithmic buckets meet. Used by the GUI panel, `poslab
// render t5` and File > Export, so all three draw the same thing.
//
// The bias depends only on the offset j - i, so the heatmaps are sampled from the 2L - 1 values
// per offset (relativeOffsetSample): no L x L matrix is built.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "poslab/base/heatmap_sample.hpp"
#include "poslab/encodings/t5_bias.hpp"
#include "poslab/figure/panel_grid.hpp"
#include "poslab/figure/plot.hpp"

namespace poslab {

// ---- T5
struct T5FigureOptions {
    T5Params params{160, 32, 128, true};
    std::vector<double> bucketBiases;  // numBuckets values; empty: seededBucketBiases(biasSeed)
    std::uint64_t biasSeed = 0;
    friend bool operator==(const T5FigureOptions&, const T5FigureOptions&) = default;  // member-wise: caches key on it
};
Status validate(const T5FigureOptions& options);
std::vector<double> t5EffectiveBiases(const T5FigureOptions& options);  // the values drawn
// "-inf..-64", "-7", "17..31": the relative positions (key - query) a bucket covers.
std::string t5RangeText(const BucketRange& range);
// The relative positions the edge charts span: -R..R with R = max(8, 1.25 max_distance).
int t5ChartReach(const T5Params& params);

// Causal buckets against distance d = i - j in 0..reach as a step curve (x = distance, y =
// bucket; each step at the first distance of the new bucket), from the buckets' exact ranges:
// O(buckets) points whatever the reach, no step missed or moved by sampling.
void t5StepsByDistance(int numBuckets, int maxDistance, int reach, std::vector<double>& x,
                       std::vector<double>& y);

// The four panels (bucket ids, bias matrix, bucket edges, bias curve) in two columns when each
// gets 20 x 13 font sizes (as ALiBi's four); else fewer columns or one at a time (panel_grid.hpp).
// At 12 a projector's 1010 x 630 (F5) took the grid: under a two-line title, ticks and axis label
// the edge chart was 4 font sizes tall, and its "exact below 8" and "max_distance 128" had no
// place but over its curve (#28).
inline constexpr PanelShape kT5Panels{4, 2, 20, 13, 12};
PanelGrid t5Panels(Box area, const Theme& theme, int panel = 0);

struct T5Layout {
    Box area;                   // a panel not shown has empty boxes
    Box buckets, bucketLegend;  // the id matrix and its discrete legend
    Box bias, edges, biasCurve;
    bool cellResolution = false;  // Theme::cellResolution: texels are cells
};
T5Layout t5Layout(Box area, const Theme& theme, int panel = 0);

struct T5FigureData {
    std::vector<BucketRange> ranges;  // every non-empty bucket
    std::vector<double> biases;       // per bucket
    HeatmapSample buckets;            // texels: bucket id mod 256 (Categorical, range 0..255)
    HeatmapSample bias;
    ValueRange biasRange;  // symmetric about zero
};
Result<T5FigureData> computeT5FigureData(const T5FigureOptions& options, const T5Layout& layout);

struct T5FigureFrames {
    PlotFrame buckets, bias, edges, biasCurve;
};
void drawT5Figure(Figure& figure, const T5Layout& layout, const T5FigureOptions& options,
                  const T5FigureData& data, const Theme& theme, T5FigureFrames* frames = nullptr);
Status drawT5Figure(Figure& figure, Box area, const T5FigureOptions& options, const Theme& theme,
                    int panel = 0);

}  // namespace poslab
