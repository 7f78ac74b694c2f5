// rope_heatmap_figures.hpp — RoPE's two heatmaps: the angle (position * theta_i) mod 2 pi per
// position and pair, and the scores q_m . k_n for m, n < L. Part of the RoPE view
// (rope_figures.hpp).
//
// Large tables are never drawn cell by cell: the *Sample functions reduce the visible window to at
// most one texel per pixel. Scores are averaged (block means, exact, from the 2L-1 distinct
// offsets); angles are *sampled* (exact representative rows), because the mean of angles mod 2 pi
// is not an angle of anything.
#pragma once

#include <vector>

#include "poslab/analysis/similarity.hpp"
#include "poslab/base/heatmap_sample.hpp"
#include "poslab/encodings/rope.hpp"
#include "poslab/figure/plot.hpp"

namespace poslab {

// ---- Angle heatmap
// Rows are positions, columns pairs. Zoomed in, texels are exact angles m*theta_i mod 2 pi.
// Zoomed out, texel (u, v) is the circular mean of the angles of the cells under it (the
// direction of the mean unit vector), or -inf ("mixed") when they spread over more than half a
// turn, where no single angle would be honest.
HeatmapSample ropeAngleSample(const RopeFrequencies& freqs, long long positions, CellWindow window,
                              int maxRows, int maxCols);
struct RopeAngleOptions {
    CellWindow window;                           // zoom; empty counts mean everything
    ColormapId colormap = ColormapId::Twilight;  // cyclic, so 0 and 2 pi look the same
    int trainingLength = 0;                      // > 0: mark it and shade the positions beyond
    std::vector<double> queryKey;  // {m, n}: drawn as lines in the q and k colours; or empty
    friend bool operator==(const RopeAngleOptions&,
                           const RopeAngleOptions&) = default;  // member-wise: caches key on it
};
// The data area drawRopeAngles will use in `area`: sample at most this many texels, so that no
// texel is minified (blending neighbouring angles) on screen or in files.
Box ropeAnglePlotBox(Box area, const RopeParams& params, const RopeAngleOptions& options,
                     const Theme& theme);
void drawRopeAngles(Figure& figure, Box area, const RopeParams& params,
                    const RopeAngleOptions& options, const Theme& theme,
                    const HeatmapSample* sample, PlotFrame* frame = nullptr);

// ---- Score heatmap
// Texel means of the L x L matrix rotate(q, m) . rotate(k, n) over the window, computed from
// offsetScores (ropeOffsetScores: entry t is the score at m - n = t - (L - 1)) in O(1) per texel.
HeatmapSample ropeScoreSample(const std::vector<double>& offsetScores, int seqLen,
                              CellWindow window, int maxRows, int maxCols);
// The work the score views may do per sample or range: pair terms (pairs x offsets evaluated).
inline constexpr long long kRopeScoreBudget = kProfileBudget;
// The same texel means straight from q and k, for when the 2L-1 scores cost too much (L = 2^20
// at head_dim 8192 is 2^32 pair terms): profileSample of ropeScoreProfile (similarity.hpp), which
// evaluates one sum per corner offset of the texel grid and, past the budget, averages slightly
// larger blocks (rowsPerTexel / colsPerTexel say which). Exact either way.
HeatmapSample ropeScoreSample(const std::vector<double>& q, const std::vector<double>& k,
                              int seqLen, const RopeFrequencies& freqs, RopePairing pairing,
                              CellWindow window, int maxRows, int maxCols,
                              long long budget = kRopeScoreBudget);
// The colour range of the score heatmap: the largest |score| and the lowest and highest score
// over every offset m - n when (2L - 1) x pairs fits the budget, else over the offsets nearest
// zero, |m - n| < offsetsCovered (where RoPE's scores are largest), which the caption states.
struct RopeScoreRange {
    double largest = 1, low = -1, high = 1;
    long long offsetsCovered = 0;  // |m - n| < offsetsCovered were evaluated
    bool allOffsets = true;        // offsetsCovered reaches L: every score was seen
};
RopeScoreRange ropeScoreRange(const std::vector<double>& q, const std::vector<double>& k,
                              int seqLen, const RopeFrequencies& freqs, RopePairing pairing,
                              long long budget = kRopeScoreBudget);
struct RopeScoreOptions {
    std::vector<double> q, k;  // head_dim entries each
    CellWindow window;
    ColormapId colormap = ColormapId::BlueWhiteRed;
    ValueRange range{0, 0};        // low == high: +-max |score| over all offsets (ropeScoreRange)
    long long rangeOffsets = 0;    // > 0: the given range covers only |m - n| < this (a caption)
    int trainingLength = 0;        // > 0: box the training-length square
    std::vector<double> queryKey;  // {m, n}: a marker there and its constant-offset diagonal
    friend bool operator==(const RopeScoreOptions&,
                           const RopeScoreOptions&) = default;  // member-wise: caches key on it
};
Box ropeScorePlotBox(Box area, const RopeParams& params, const RopeScoreOptions& options,
                     const Theme& theme);  // as ropeAnglePlotBox
// sample: a cached sample of the visible window, or nullptr to compute one for the plot box.
void drawRopeScores(Figure& figure, Box area, const RopeParams& params,
                    const RopeScoreOptions& options, const Theme& theme,
                    const HeatmapSample* sample, PlotFrame* frame = nullptr);

}  // namespace poslab
