// learned_figures.hpp — the learned-table view as figures: the position x dimension heatmap, the
// cosine similarity between positions, and chosen dimensions against position. Used by the GUI
// panel, `poslab render learned` and File > Export.
//
// A learned table has nothing past its last row: position seqLen and beyond were never trained
// and have no vector at all (the extrapolation failure of learned absolute positions). When more
// positions are shown than the table has, every figure marks that region "undefined: beyond the
// trained table" and draws no values there.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "poslab/base/heatmap_sample.hpp"
#include "poslab/encodings/learned.hpp"
#include "poslab/figure/panel_grid.hpp"
#include "poslab/figure/plot.hpp"

namespace poslab {

inline constexpr const char* kBeyondTableLabel = "undefined: beyond the trained table";

// ---- Cosine similarity between positions
// cos(a, b) = <x_a, x_b> / (|x_a| |x_b|) for rows a, b of the first `positions` rows of `table`.
// Rows that are all zero (padding) or hold a non-finite value have no direction: their
// similarities are kUndefinedCosine (-inf, drawn as masked cells, with a note giving how many
// rows: analysis/similarity.hpp), never NaN, and they are left out of block means.
double cosineSimilarity(const Matrix& table, std::size_t a, std::size_t b);
// Texels of the positions x positions cosine matrix, at most maxTexels per side. A texel is the
// exact mean of the similarities in its block, computed as the dot product of the blocks' mean
// unit vectors (the mean of u_a . u_b over a in A, b in B is mean(u_A) . mean(u_B)), so the cost
// is O(positions x d + texels^2 x d) instead of O(positions^2 x d).
HeatmapSample cosineSimilaritySample(const Matrix& table, long long positions, int maxTexels);

// ---- Figure options
struct LearnedFigureOptions {
    std::shared_ptr<const Matrix> table;  // rows = positions, columns = dimensions; required
    std::string source;                   // for titles: "seed 0, std 0.02" or "emb.npy"
    int positionsShown = 0;               // 0: the table's rows; may exceed them, 1..kMaxSeqLen
    int firstCurveDimension = 0;          // the curves plot dims first..first+count-1
    int curveCount = 4;                   // 1..8
    ColormapId colormap = ColormapId::BlueWhiteRed;
    friend bool operator==(const LearnedFigureOptions&,
                           const LearnedFigureOptions&) = default;  // member-wise: caches key on it
};
Status validate(const LearnedFigureOptions& options);
int learnedPositionsShown(const LearnedFigureOptions& options);  // 0 resolved to the table rows
std::string learnedSourceText(const LearnedParams& params);      // "seed 0, std 0.02"
// The table as the figure shows it: positionsShown rows, NaN past the table's end.
Result<Matrix> learnedShownTable(const LearnedFigureOptions& options);

// The three panels (table, cosine similarity, curves): the table and the similarity side by side
// above the curves when each gets 20 x 12 font sizes; else one column or one at a time
// (panel_grid.hpp), which the GUI steps through. (At 11 font sizes a projector's 1024x768 F5
// kept all three: the heatmaps under their two-line titles were 130 px tall, the curves 90.)
inline constexpr PanelShape kLearnedPanels{3, 2, 20, 12, 12};
PanelGrid learnedPanels(Box area, const Theme& theme, int panel = 0);

struct LearnedLayout {
    Box area;
    Box table, cosine, curves;  // empty: the panel is not shown
    bool cellResolution = false;  // Theme::cellResolution: heatmap texels are cells
};
LearnedLayout learnedLayout(Box area, const Theme& theme, int panel = 0);

struct LearnedCurve {
    int dimension = 0;
    std::vector<double> x, y;  // positions and values (block means when positions > pixels)
};
struct LearnedFigureData {
    HeatmapSample table;
    ValueRange tableRange;  // symmetric about zero
    HeatmapSample cosine;
    std::vector<LearnedCurve> curves;
    long long positionsPerPoint = 1;           // curve points are means of this many positions
    long long undefinedCosineRows = 0;         // shown rows with no direction (zero or non-finite)
    std::size_t tableRows = 0, tableCols = 0;  // the table's shape (drawing needs no table)
    long long rowStride = 1;  // > 1: the table and cosine texels use every rowStride-th position
};
// layout.cosine empty (width 0: not shown): data.cosine stays empty (no values).
Result<LearnedFigureData> computeLearnedFigureData(const LearnedFigureOptions& options,
                                                   const LearnedLayout& layout);
// A coarse stand-in while a control moves (the GUI's, until the exact data is in): the texels
// of every rowStride-th position, rowStride chosen so that at most maxValues values are read,
// and the cosine at kLearnedCoarseCosineTexels a side. Positions, spans and blocks are the
// table's (a texel of rowsPerTexel positions is the mean over the strided ones among them). The
// data depend on the visible rows (min(positionsShown, rows)), not on positionsShown past them.
inline constexpr long long kLearnedCoarseValues = 1LL << 19;
// A vector file's cosine map: every pair of positions up to this many a side (its cost grows as
// the square of that times d_model), block means beyond.
inline constexpr int kLearnedVectorCosineTexels = 1024;
// The cosine's texels a side for a map of `pixels`: one per pixel, or in a vector file
// (cellResolution) at least kLearnedVectorCosineTexels.
int learnedCosineBudget(double pixels, bool cellResolution);
inline constexpr int kLearnedCoarseCosineTexels = 64;
Result<LearnedFigureData> computeCoarseLearnedFigureData(
    const LearnedFigureOptions& options, const LearnedLayout& layout,
    long long maxValues = kLearnedCoarseValues);

// ---- The seeded table without the table (`render learned` at sizes up to 2^20 x 8192)
// The same data computed while learnedTable(params)'s values are drawn, one row at a time (memory
// O(d_model + texels)): the engine is walked through every value, but only the values a figure
// shows are turned into normal values. Tables of up to maxValues values give exactly
// computeLearnedFigureData's numbers; larger ones take the table and cosine texels from every
// rowStride-th position (the first of each stride; at least one row per texel), said in the
// corner notes, while the colour range (largest |value|: only pairs whose radius could exceed
// it are transformed) and the curves stay exact over every position.
inline constexpr long long kLearnedStreamedValues = 1LL << 24;
Result<LearnedFigureData> computeSeededLearnedFigureData(
    const LearnedParams& params, const LearnedFigureOptions& options, const LearnedLayout& layout,
    long long maxValues = kLearnedStreamedValues);  // options.table unused
Status drawSeededLearnedFigure(Figure& figure, Box area, const LearnedParams& params,
                               LearnedFigureOptions options, const Theme& theme, int panel = 0);

struct LearnedFigureFrames {
    PlotFrame table, cosine, curves;
};
void drawLearnedFigure(Figure& figure, const LearnedLayout& layout,
                       const LearnedFigureOptions& options, const LearnedFigureData& data,
                       const Theme& theme, LearnedFigureFrames* frames = nullptr);
Status drawLearnedFigure(Figure& figure, Box area, const LearnedFigureOptions& options,
                         const Theme& theme, int panel = 0);

}  // namespace poslab
