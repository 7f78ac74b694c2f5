// rope_figures.hpp — the RoPE views as figures: the rotation of each dimension pair, the angle
// and score heatmaps, the wavelength ladder and RoFormer's long-term decay. Used by the GUI panel,
// `poslab render` and the panel's file export, so all three show the same thing.
//
//   drawRopeRotation     a grid of small 2-D panels, one per chosen pair: q rotated by m theta_i,
//                        k by n theta_i, the angle between them and a fading trail
//   drawRopeAngles       position x pair, (position * theta_i) mod 2 pi on a cyclic colormap
//   drawRopeScores       q_m . k_n for m, n < L (rows m, columns n)
//   drawRopeFrequencies  wavelength 2 pi / theta_i per pair on a log axis, context and training
//                        length marked, pairs without a full turn highlighted
//   drawRopeDecay        RoFormer's relative upper bound against relative distance (Su et al. Fig.
//   2)
//
// Large tables are never drawn cell by cell: the *Sample functions reduce the visible window to at
// most one texel per pixel. Scores are averaged (block means, exact, from the 2L-1 distinct
// offsets); angles are *sampled* (exact representative rows), because the mean of angles mod 2 pi
// is not an angle of anything.
#pragma once

#include <string>
#include <vector>

#include "poslab/analysis/similarity.hpp"
#include "poslab/base/enum_names.hpp"
#include "poslab/base/heatmap_sample.hpp"
#include "poslab/encodings/rope.hpp"
#include "poslab/figure/plot.hpp"

namespace poslab {

// ---- Titles
std::string ropeScalingSummary(const RopeParams& params);  // "no scaling", "llama3 x8", ...
std::string ropeTitle(const RopeParams& params);  // "head_dim 128, base 10000, half pairs, ..."

// ---- Colours of q and k in every RoPE figure (Okabe-Ito blue and orange, per theme)
Rgba ropeQueryColor(const Theme& theme);
Rgba ropeKeyColor(const Theme& theme);

// ---- Rotation animation
// All pairs when there are at most maxPanels, else maxPanels pairs spread evenly from the first
// (fastest) to the last (slowest), both included.
std::vector<int> ropeRotationPairs(int pairCount, int maxPanels);

struct RopeRotationOptions {
    std::vector<double> q, k;  // head_dim entries each (rotated dims first, as the pairing says)
    double m = 0, n = 0;       // query and key positions (fractional during animation)
    std::vector<int> pairs;    // pairs with a panel; empty: ropeRotationPairs(pairCount, 16)
    int trail = 8;             // earlier whole positions drawn as fading dots, 0..64
    friend bool operator==(const RopeRotationOptions&, const RopeRotationOptions&) = default;  // member-wise: caches key on it
};
struct RopeRotationCell {  // where a pair's panel landed, for hover
    Box box;
    int pair = 0;
};
// Angle of the rotated q pair minus that of the rotated k pair, in (-pi, pi]: it depends on
// m - n only (plus the unrotated angles of the two pairs).
double ropePairAngleBetween(const std::vector<double>& q, const std::vector<double>& k, double m,
                            double n, const RopeFrequencies& freqs, RopePairing pairing, int pair);
// This pair's share of rotate(q, m) . rotate(k, n); the shares plus the unrotated tail sum to it.
double ropePairScore(const std::vector<double>& q, const std::vector<double>& k, double m, double n,
                     const RopeFrequencies& freqs, RopePairing pairing, int pair);
void drawRopeRotation(Figure& figure, Box area, const RopeParams& params,
                      const RopeRotationOptions& options, const Theme& theme,
                      std::vector<RopeRotationCell>* cells = nullptr);

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
    friend bool operator==(const RopeAngleOptions&, const RopeAngleOptions&) = default;  // member-wise: caches key on it
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
    friend bool operator==(const RopeScoreOptions&, const RopeScoreOptions&) = default;  // member-wise: caches key on it
};
Box ropeScorePlotBox(Box area, const RopeParams& params, const RopeScoreOptions& options,
                     const Theme& theme);  // as ropeAnglePlotBox
// sample: a cached sample of the visible window, or nullptr to compute one for the plot box.
void drawRopeScores(Figure& figure, Box area, const RopeParams& params,
                    const RopeScoreOptions& options, const Theme& theme,
                    const HeatmapSample* sample, PlotFrame* frame = nullptr);

// ---- Frequency ladder
enum class RopeTurnReference { Context, Training };  // what "never completes a turn" refers to
inline constexpr EnumNames<RopeTurnReference, 2> kTurnReferenceNames{
    {{RopeTurnReference::Context, "context"}, {RopeTurnReference::Training, "training"}}};
std::string_view turnReferenceName(RopeTurnReference reference);  // "context", "training"
Result<RopeTurnReference> parseTurnReference(std::string_view name);
struct RopeFrequencyOptions {
    RopeTurnReference incompleteWithin = RopeTurnReference::Context;
    friend bool operator==(const RopeFrequencyOptions&, const RopeFrequencyOptions&) = default;  // member-wise: caches key on it
};
// x: pair index; y: wavelength 2 pi / theta_i in positions (log). Context length = params.seqLen,
// training length = originalMaxPositions(params). With a scaling, the unscaled wavelengths are
// drawn underneath. Pairs whose (scaled) wavelength exceeds the chosen length are highlighted;
// scaled and judged by the training length, the pairs that reach angles at the context the model
// never saw in training instead (ropeUnseenAngles), as the Extrapolation view counts them.
// The scaling's thresholds, as vertical markers at (fractional) pair indices, when params' scaling
// has them: Llama 3's band edges, the pairs whose unscaled wavelength is L0/high_freq_factor
// (below: kept) and L0/low_freq_factor (above: divided by s); YaRN's correction range, the pairs
// where the ramp starts (beta_fast) and ends (beta_slow). Empty for other scalings.
std::vector<Marker> ropeScalingThresholds(const RopeParams& params, const Theme& theme);
void drawRopeFrequencies(Figure& figure, Box area, const RopeParams& params,
                         const RopeFrequencyOptions& options, const Theme& theme,
                         PlotFrame* frame = nullptr);

// ---- Long-term decay (RoFormer Fig. 2)
// The bound at the distances a plot `columns` pixels wide can show: every distance 0..R when
// there are at most kDecaySamplesPerColumn per column, else the grid 0, s, 2s, ... and R, with s
// the smallest step that keeps to that many (R = 2^20 at head_dim 8192 would be 2^32 terms).
inline constexpr int kDecaySamplesPerColumn = 16;
struct RopeDecayCurve {
    std::vector<double> distances;  // increasing: 0 first, maxDistance last
    std::vector<double> bounds;     // the bound at each distance
    long long step = 1;             // 1: every distance
};
Result<RopeDecayCurve> ropeDecayCurve(int rotatedDims, double base, int maxDistance, int columns);
double ropeDecayBoundAt(int rotatedDims, double base, double distance);  // one distance, O(d)
// curve: a cached ropeDecayCurve(d, base, maxDistance, >= area width), or nullptr to compute
// one. More distances than pixels are drawn as the min and max over each pixel column (of the
// grid's distances, when it skips some: the caption says which).
// Logarithmic: distances 1..maxDistance on a log axis, each decade as wide as the next, so the
// first few hundred distances (where the bound falls) are not squeezed into a few pixels. The
// bound is then computed at log-spaced distances (kLogDecaySamplesPerColumn per pixel column)
// and drawn as each column's min and max; `curve` is not used.
enum class DistanceAxis { Linear, Logarithmic };
inline constexpr int kLogDecaySamplesPerColumn = 4;
// The distances a log axis of `columns` pixels samples: integers 1..maxDistance, increasing,
// about kLogDecaySamplesPerColumn per column, every distance where the columns hold fewer.
std::vector<double> logDecayDistances(int maxDistance, int columns);
void drawRopeDecay(Figure& figure, Box area, int rotatedDims, double base, int maxDistance,
                   const Theme& theme, const RopeDecayCurve* curve, PlotFrame* frame = nullptr,
                   DistanceAxis axis = DistanceAxis::Linear);

}  // namespace poslab
