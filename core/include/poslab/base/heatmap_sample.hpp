// heatmap_sample.hpp — what a heatmap shows at the current zoom: a window of cells reduced to at
// most one texel per screen pixel.
//
// Zoomed in, texels are exact cells. Zoomed out, each texel is the mean of the cells under it (an
// honest summary: fast oscillations average out instead of aliasing into false patterns).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "poslab/base/matrix.hpp"

namespace poslab {

struct CellWindow {
    long long firstRow = 0, rowCount = 0;  // rows shown
    long long firstCol = 0, colCount = 0;  // columns shown
    friend bool operator==(const CellWindow&, const CellWindow&) = default;  // member-wise: caches key on it
};

struct HeatmapSample {
    std::shared_ptr<const Matrix> values;  // texels, row-major
    CellWindow window;                     // the cells the axes show
    long long rowsPerTexel = 1, colsPerTexel = 1;
    double rowSpan = 0, colSpan = 0;       // cells the texels cover (>= window counts)
    std::uint64_t version = 0;             // fresh for every sample
};

std::uint64_t nextMatrixVersion();  // a fresh HeatmapSample / HeatmapItem version, unique in this process
long long cellsPerTexel(long long cells, int maxTexels);  // ceil(cells / maxTexels), at least 1
// Texels for a plot side of `pixels`: 1..kMaxTexelsPerSide, also for inf or NaN sizes (an int
// conversion of those is undefined behaviour). 4096 a side: a square heatmap of that many
// doubles is 128 MiB, and a 2-D view (T5, ALiBi) asked for an absurd area must stay within the
// memory a laptop has (65536 a side was 32 GiB, found by the sanitizer run); beyond 4096 screen
// pixels a texel covers two pixels, which no eye resolves.
inline constexpr int kMaxTexelsPerSide = 1 << 12;
int texelBudget(double pixels);
// The same, or kMaxTexelsPerSide with `cellResolution` (a vector file: Theme::cellResolution),
// so that a heatmap's texels are its cells, as many as that, not the means of the cells under
// each pixel.
int texelBudget(double pixels, bool cellResolution);
// What a reduced sample's texels hold, for a note beside its plot: "each pixel: " + summary +
// " 4x4 cells" (summary e.g. "mean of"); "" when every texel is one cell.
std::string blockNote(const HeatmapSample& sample, const std::string& summary);

// Means over groups of `colsPerTexel` adjacent columns (the last group may be partial).
Matrix averageColumns(const Matrix& values, long long colsPerTexel);
// Means over row blocks and column groups of any matrix (for encodings without a closed form).
Matrix averageBlocks(const Matrix& values, long long rowsPerTexel, long long colsPerTexel);

// Keeps the window inside [0, rows) x [0, cols) with at least one cell in each direction.
CellWindow clampWindow(CellWindow window, long long rows, long long cols);
// A sample of `window` in blocks of rowsPerTexel x colsPerTexel cells, without values yet: its
// spans (whole blocks) and a fresh version set, for a sampler that fills in the texels.
HeatmapSample emptyHeatmapSample(CellWindow window, long long rowsPerTexel, long long colsPerTexel);

// ---- Relative-position matrices
// A bias that depends only on the offset j - i (ALiBi, T5) is sampled from its 2L - 1 values per
// offset: no L x L matrix is built, and the work is O(L + texels) whatever L is (block sums come
// from prefix sums of prefix sums).
// How a texel summarises a block of cells when the matrix has more cells than pixels.
enum class BlockSummary {
    MeanOfUnmasked,  // mean over the block's cells that are not -inf; -inf only when all are.
                     // (A plain mean is -inf as soon as one cell is masked, which would paint
                     // the whole diagonal band of a causal matrix as masked.)
    CentreCell,      // the cell at the block's centre: for ids, where a mean means nothing
};
// Texels for the L x L matrix M[i][j] = byOffset[(j - i) + (L - 1)], within `window`, at most
// maxRows x maxCols of them. byOffset holds 2L - 1 values, each finite or -inf (masked).
HeatmapSample relativeOffsetSample(const std::vector<double>& byOffset, int length,
                                   CellWindow window, int maxRows, int maxCols,
                                   BlockSummary summary);

}  // namespace poslab
