// similarity_figures.hpp — similarity between positions as figures: the heatmap of every pair and
// the curve of one query against offset. Used by the GUI panel, `poslab render similarity` and the
// guided tour.
#pragma once

#include <string>

#include "poslab/analysis/similarity.hpp"
#include "poslab/base/heatmap_sample.hpp"
#include "poslab/figure/plot.hpp"

namespace poslab {

struct SimilarityFigureOptions {
    ColormapId colormap = ColormapId::BlueWhiteRed;  // signed similarity, centred at zero
    CellWindow window;       // zoom of the heatmap; empty counts mean everything
    int reference = 0;       // the query position whose row the curve shows
    int maxOffset = 0;       // curve x range +-maxOffset (0: the whole sequence)
    int trainingLength = 0;  // > 0: marked on both figures
    // Learned tables, cosine: rows with no direction (undefinedCosineRows). > 0: their masked
    // cells get an "undefined" legend swatch and a note saying how many rows (similarityFigure
    // counts them itself; the GUI sets this from the table it shows).
    long long undefinedRows = 0;
    friend bool operator==(const SimilarityFigureOptions&, const SimilarityFigureOptions&) = default;  // member-wise: caches key on it
};
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
// Where the GUI puts the map and the curve in a width x height figure area with `line` px text
// lines: the map's box (mapWidth x mapHeight from the area's top left) beside the curve, or
// over it, each the area's width (stacked), the curve taking the rest. Stacked when the map
// beside the curve would be under 16 lines wide, or when over it the square map is larger (a
// tall, narrow area: 1024x768 with the controls left the map 203 px wide above empty space).
struct SimilarityLayout {
    bool stacked = false;
    float mapWidth = 0, mapHeight = 0;
};
SimilarityLayout similarityLayout(float width, float height, float line);
// Heatmap on the left, curve on the right (the export and `poslab render similarity`).
Result<Figure> similarityFigure(const SimilarityParams& params,
                                const SimilarityFigureOptions& options, float width, float height,
                                const Theme& theme);

}  // namespace poslab
