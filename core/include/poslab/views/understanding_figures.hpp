// understanding_figures.hpp — the "understanding" views as figures: similarity between positions,
// how position and meaning coexist, the binary clock and the linear shift, extrapolation past the
// training length, and side-by-side comparisons. Used by the GUI panels, `poslab render` and the
// lessons of the guided tour: the same builders everywhere.
#pragma once

#include <string>
#include <vector>

#include "poslab/analysis/decomposition.hpp"
#include "poslab/analysis/intuition.hpp"
#include "poslab/analysis/similarity.hpp"
#include "poslab/base/heatmap_sample.hpp"
#include "poslab/encodings/alibi.hpp"
#include "poslab/encodings/rope.hpp"
#include "poslab/encodings/t5_bias.hpp"
#include "poslab/figure/plot.hpp"

namespace poslab {

// ---- Layout helpers shared by the composite figures
// Cell (row, col) of a rows x cols grid inside area, with `gap` pixels between cells.
Box gridCell(Box area, int rows, int cols, int row, int col, float gap = 8);
// Words wrapped to the box width (estimateTextWidth), one TextItem per line; returns the height
// used. Lines that do not fit the box height are dropped.
float drawParagraph(Figure& figure, Box box, const std::string& text, const Theme& theme,
                    float size = 0, Rgba color = {0, 0, 0, 0});

// ---- Similarity
struct SimilarityFigureOptions {
    ColormapId colormap = ColormapId::BlueWhiteRed;  // signed similarity, centred at zero
    CellWindow window;       // zoom of the heatmap; empty counts mean everything
    int reference = 0;       // the query position whose row the curve shows
    int maxOffset = 0;       // curve x range +-maxOffset (0: the whole sequence)
    int trainingLength = 0;  // > 0: marked on both figures
};
// Texels for the heatmap (block means at most one per pixel). Learned tables compute their
// O(L^2 d) Gram matrix here; the GUI caches it and calls matrixSample instead.
Result<HeatmapSample> similaritySample(const SimilarityParams& params, CellWindow window,
                                       int maxRows, int maxCols);
void drawSimilarityHeatmap(Figure& figure, Box area, const SimilarityParams& params,
                           const HeatmapSample& sample, const SimilarityFigureOptions& options,
                           const Theme& theme, PlotFrame* frame = nullptr);
void drawSimilarityCurve(Figure& figure, Box area, const SimilarityParams& params,
                         const SimilarityCurve& curve, const SimilarityFigureOptions& options,
                         const Theme& theme, PlotFrame* frame = nullptr);
// Learned tables: the figure holds the L x d table, so L x d is at most kMaxLearnedFigureCells
// (its generation dominates the time: 2^25 draws); the Gram matrix only while L^2 d / 2 is at most
// kGramBudget, else block means from the rows (tableSimilaritySample). This says so, in one line.
Status learnedFigureSize(long long seqLen, long long dModel);
// Heatmap on the left, curve on the right (the export and `poslab render similarity`).
Result<Figure> similarityFigure(const SimilarityParams& params,
                                const SimilarityFigureOptions& options, float width, float height,
                                const Theme& theme);

// ---- Position and meaning
// The logit terms as the heatmaps show them: means of b x b blocks of cells, at most maxTexels a
// side. A block mean is exact and cheap: the mean of x_i·p_j over i in I, j in J is
// mean_I(x) · mean_J(p), so the maps cost (L/b)^2 d, not L^2 d. Each term's RMS is over all L^2
// cells while that costs at most `budget` multiply-adds (all five terms), else over `rmsRows`
// evenly spaced query rows i (every key j), which the figure states.
inline constexpr long long kLogitTermBudget = 1LL << 28;
struct LogitTermMaps {
    LogitTerms means;             // cc, cp, pc, pp, total: ceil(L / b) square, divided by sqrt(d)
    int seqLen = 0;               // L
    long long cellsPerTexel = 1;  // b
    double rms[5] = {};           // cc, cp, pc, pp, total
    int rmsRows = 0;              // query rows the RMS is over (L: all, exact)
};
Result<LogitTermMaps> logitTermMaps(const MeaningParams& params, int maxTexels,
                                    long long budget = kLogitTermBudget);
// The texels a side drawLogitTerms' heatmaps have room for in `area` (one per pixel).
int logitTermTexels(Box area, int seqLen, const Theme& theme);
// cc, cp, pc, pp and their sum on one shared colour scale (so sizes compare), with the RMS of
// each term in its title.
// frames (optional) receives the five heatmaps' frames in that order, for hover.
void drawLogitTerms(Figure& figure, Box area, const MeaningParams& params,
                    const LogitTermMaps& maps, const Theme& theme,
                    std::vector<PlotFrame>* frames = nullptr);
// Histogram of cos(random vector, PE row) with the exact density and +-1/sqrt(d) marked; beside
// it the spread against d_model (1/sqrt(d)) with the current d marked. requested > drawn: the
// histogram holds the first `drawn` of `requested` draws, which the figure states.
void drawNearOrthogonality(Figure& figure, Box area, int dModel, const Histogram& histogram,
                           const Theme& theme, int drawn = 0, int requested = 0);
// The draws the near-orthogonality figure makes of `requested`: at most kOrthogonalityComponents
// random components in all (d each), never fewer than 100 vectors. The cosines are a prefix of
// the seeded stream, so the figure shows the first draws of exactly what was asked for.
inline constexpr long long kOrthogonalityComponents = 1LL << 24;
int nearOrthogonalitySamples(int dModel, int requested);
// Those draws: randomPositionCosines(dModel, 10000, nearOrthogonalitySamples(...), 4096, seed),
// value for value, at a fraction of the cost (each column's frequency computed once).
Result<std::vector<double>> nearOrthogonalityCosines(int dModel, int samples, std::uint64_t seed);
// Position read back from x + p as in positionRecoveryError, for `queries` evenly spaced query
// positions i (all of them when queries >= L): the mean |recovered - i| over those.
Result<double> sampledRecoveryError(const MeaningParams& params, int queries);
// The query positions the add-vs-concat figure reads back at width d: all L while L^2 d fits
// kRecoveryBudget multiply-adds, else as many evenly spaced ones as fit (at least 16).
inline constexpr long long kRecoveryBudget = 1LL << 27;
int recoveryQueries(int seqLen, int dModel);
// Addition versus concatenation: the two logits side by side, what each costs and contains.
// recoveryError < 0 hides the position read-back line.
void drawAddVersusConcat(Figure& figure, Box area, const MeaningParams& params,
                         const LogitTermMaps& maps, double recoveryError, const Theme& theme);
Result<Figure> meaningFigure(const MeaningParams& params, float width, float height,
                             const Theme& theme);  // the logit terms
Result<Figure> nearOrthogonalityFigure(int dModel, int samples, std::uint64_t seed, float width,
                                       float height, const Theme& theme);
Result<Figure> addVersusConcatFigure(const MeaningParams& params, float width, float height,
                                     const Theme& theme);

// ---- Intuitions
struct BinaryClockOptions {
    int bits = 5;        // bits shown, 1..12
    int positions = 64;  // positions 0..N-1, 2..4096
    SinusoidalParams sinusoidal{64, 64, 10000,
                                SinusoidalLayout::Interleaved};  // dims beside the bits
};
void drawBinaryClock(Figure& figure, Box area, const BinaryClockOptions& options,
                     const Theme& theme);

struct LinearShiftOptions {
    SinusoidalParams sinusoidal{16, 256, 10000, SinusoidalLayout::Interleaved};
    double shift = 5;     // k
    int position = 10;    // p for the vector comparison
    int positions = 256;  // residual checked for p = 0..N-1
    int shownDims = 16;   // the corner of T_k drawn
};
// checkShift's residual at `samples` evenly spaced positions of 0..positions-1 (all of them when
// positions <= samples; else 0 and positions-1 included), with T_k kept sparse (two entries a
// row): O(samples d) time and O(d) memory whatever d is, where the dense T_k at d = 8192 is 512 MB.
inline constexpr int kShiftCheckSamples = 2048;  // about two per pixel column of the figure
struct SampledShiftCheck {
    std::vector<int> positions;    // increasing
    std::vector<double> residual;  // max_c |(T_k PE(p))_c - PE(p+k)_c| at each
    double maxResidual = 0;
    int worstPosition = 0, worstColumn = 0;
    int checkedOf = 0;  // the N of 0..N-1 the positions were drawn from
    bool everyPosition() const { return int(positions.size()) == checkedOf; }
};
Result<SampledShiftCheck> sampledShiftCheck(const SinusoidalParams& params, double shift,
                                            int positions, int samples = kShiftCheckSamples);
Status drawLinearShift(Figure& figure, Box area, const LinearShiftOptions& options,
                       const SampledShiftCheck& check, const Theme& theme);
Result<Figure> binaryClockFigure(const BinaryClockOptions& options, float width, float height,
                                 const Theme& theme);
Result<Figure> linearShiftFigure(const LinearShiftOptions& options, float width, float height,
                                 const Theme& theme);

// ---- Extrapolation past the training length
struct ExtrapolationOptions {
    int trainingLength = 512;     // positions seen in training, 2..65536
    int evaluationLength = 2048;  // positions used now, > trainingLength, ..262144
    int dModel = 64;              // sinusoidal / learned width
    int headDim = 64;             // RoPE head dimension
    double ropeBase = 10000;
    int alibiHeads = 8;
    int t5Buckets = 32;
    int t5MaxDistance = 128;
};
Status validate(const ExtrapolationOptions& options);
// Six small multiples with two or three sentences each: sinusoidal, learned, RoPE (angles seen
// per pair), RoPE with each scaling, ALiBi, T5.
Status drawExtrapolation(Figure& figure, Box area, const ExtrapolationOptions& options,
                         const Theme& theme);
Result<Figure> extrapolationFigure(const ExtrapolationOptions& options, float width, float height,
                                   const Theme& theme);

// ---- Comparison
struct CompareOptions {
    int dModel = 64;      // sinusoidal / learned width and RoPE head dimension, 2..1024
    int seqLen = 128;     // positions, 2..2048
    double base = 10000;  // sinusoidal and RoPE base
    int alibiHeads = 8;   // the head shown is the first (steepest slope)
    int t5Buckets = 32;
    int t5MaxDistance = 128;
    std::uint64_t seed = 0;  // learned table, T5 bucket biases
};
Status validate(const CompareOptions& options);
// Top: what each encoding contributes, as heatmaps; bottom: what a query in the middle sees, as
// curves against offset (similarity for vector encodings, additive bias for bias encodings).
Status drawComparison(Figure& figure, Box area, const CompareOptions& options, const Theme& theme);
Result<Figure> comparisonFigure(const CompareOptions& options, float width, float height,
                                const Theme& theme);

// A/B: two RoPE configurations (e.g. two config.json files, or base 10000 vs 500000).
struct RopeConfiguration {
    std::string label;  // "A: Llama-2 (base 10000)"
    RopeParams rope;
};
// Wavelength per pair, expected q.k against offset for both, and their difference B - A.
Status drawAbComparison(Figure& figure, Box area, const RopeConfiguration& a,
                        const RopeConfiguration& b, int maxOffset, const Theme& theme);
Result<Figure> abComparisonFigure(const RopeConfiguration& a, const RopeConfiguration& b,
                                  int maxOffset, float width, float height, const Theme& theme);

}  // namespace poslab
