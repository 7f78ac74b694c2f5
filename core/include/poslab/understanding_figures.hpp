// understanding_figures.hpp — the "understanding" views as figures: similarity between positions,
// how position and meaning coexist, the binary clock and the linear shift, extrapolation past the
// training length, and side-by-side comparisons. Used by the GUI panels, `poslab render` and the
// lessons of the guided tour: the same builders everywhere.
#pragma once

#include <string>
#include <vector>

#include "poslab/alibi.hpp"
#include "poslab/decomposition.hpp"
#include "poslab/heatmap_sample.hpp"
#include "poslab/intuition.hpp"
#include "poslab/plot.hpp"
#include "poslab/rope.hpp"
#include "poslab/similarity.hpp"
#include "poslab/t5_bias.hpp"

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
// Heatmap on the left, curve on the right (the export and `poslab render similarity`).
Result<Figure> similarityFigure(const SimilarityParams& params,
                                const SimilarityFigureOptions& options, float width, float height,
                                const Theme& theme);

// ---- Position and meaning
// cc, cp, pc, pp and their sum on one shared colour scale (so sizes compare), with the RMS of
// each term in its title.
// frames (optional) receives the five heatmaps' frames in that order, for hover.
void drawLogitTerms(Figure& figure, Box area, const MeaningParams& params, const LogitTerms& terms,
                    const Theme& theme, std::vector<PlotFrame>* frames = nullptr);
// Histogram of cos(random vector, PE row) with the exact density and +-1/sqrt(d) marked; beside
// it the spread against d_model (1/sqrt(d)) with the current d marked.
void drawNearOrthogonality(Figure& figure, Box area, int dModel, const Histogram& histogram,
                           const Theme& theme);
// Addition versus concatenation: the two logits side by side, what each costs and contains.
// recoveryError < 0 hides the position read-back line.
void drawAddVersusConcat(Figure& figure, Box area, const MeaningParams& params,
                         const LogitTerms& terms, double recoveryError, const Theme& theme);
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
Status drawLinearShift(Figure& figure, Box area, const LinearShiftOptions& options,
                       const ShiftCheck& check, const Theme& theme);
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
