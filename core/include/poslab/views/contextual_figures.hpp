// contextual_figures.hpp — the Context view as figures: CoPE (positions that count what the head
// gates on), DeBERTa's disentangled terms, NoPE and Llama 4's iRoPE, and randomized positions.
// Used by the GUI panel and `poslab render cope|deberta|nope|irope|randomized-positions`, so both
// draw the same thing.
//
// Matrix views never build an L x L matrix: DeBERTa's terms and the iRoPE chunk mask are
// evaluated at the centre cell of each texel (texelCentres), at most one texel per pixel, so
// L = 65,536 costs what the visible pixels cost. (A mean of random content scores over a block is
// ~0 and would hide the pattern; the centre cell shows a true value.)
#pragma once

#include <vector>

#include "poslab/analysis/cope_sentence.hpp"
#include "poslab/base/heatmap_sample.hpp"
#include "poslab/base/refining_memo.hpp"  // Detail
#include "poslab/encodings/attention_temperature.hpp"
#include "poslab/encodings/deberta.hpp"
#include "poslab/encodings/nope.hpp"
#include "poslab/encodings/randomized_positions.hpp"
#include "poslab/figure/panel_grid.hpp"
#include "poslab/figure/plot.hpp"

namespace poslab {

// ---- Sampling helpers
// The centre cell of each of ceil(count / per) texel blocks of `per` = cellsPerTexel(count,
// texels) cells: 0-based, the last clipped to count - 1.
std::vector<long long> texelCentres(long long count, int texels, long long* perTexel = nullptr);
// A DeBERTa term at the texel centres of an L x L matrix drawn in `plot` (Detail::Coarse: a
// quarter of the texels a side). With `cellResolution` (a vector file: Theme::cellResolution)
// every cell while texels² x head_dim is within kDebertaVectorTermBudget, up to
// kMaxTexelsPerSide a side (debertaTermTexelBudget).
inline constexpr long long kDebertaVectorTermBudget = 1LL << 29;
int debertaTermTexelBudget(double pixels, int headDim, bool cellResolution);
HeatmapSample debertaTermTexels(const DebertaParams& params, DebertaTerm term, Box plot,
                                Detail detail = Detail::Exact, DebertaSampleMemo* memo = nullptr,
                                bool cellResolution = false);
// The attention mask of one iRoPE layer over seqLen positions: 1 visible, -inf masked; one texel
// per cell with `cellResolution`, up to kMaxTexelsPerSide a side.
HeatmapSample iropeMaskTexels(const IropeParams& params, int layer, long long seqLen, Box plot,
                              bool cellResolution = false);

// ---- CoPE: gates, positions (matrix and the last query's row against token distance), bias
inline constexpr PanelShape kCopePanels{4, 2, 18, 12, 12};
Status drawCopeFigure(Figure& figure, Box area, const CopeSentenceParams& params,
                      const Theme& theme, int panel = 0);

// ---- DeBERTa: bucket curve, c2c, c2p, p2c
inline constexpr PanelShape kDebertaPanels{4, 2, 24, 12, 12};
int debertaChartReach(const DebertaParams& params);  // |delta| shown: 1.25 max_position, >= 8
// Detail::Coarse (the GUI while a slider moves): the three score panels at a quarter of the
// texels a side, each texel of d multiply-adds per term (the exact figure's texels cost the
// worker about a core's tenth of a second at L = 65,536 and d = 256).
// memo: what the GUI keeps between builds (one per detail), so that dragging position_buckets or
// max_position makes no vector and no dot product twice (deberta.hpp's DebertaSampleMemo).
struct DebertaFigureMemo {
    DebertaSampleMemo terms[3];  // c2c, c2p, p2c panels
};
Status drawDebertaFigure(Figure& figure, Box area, const DebertaParams& params, const Theme& theme,
                         int panel = 0, Detail detail = Detail::Exact,
                         DebertaFigureMemo* memo = nullptr);

// ---- NoPE and iRoPE: the recovered position, the layer stack, a chunk mask, the temperature
enum class NopeSections { All, Nope, Irope };  // both, the NoPE signal only, the iRoPE panels only
struct NopeFigureOptions {
    NopeSections sections = NopeSections::All;
    IropeParams irope;
    AttentionTemperatureParams temperature;  // floor_scale, attn_scale (Llama 4: 8192, 0.1)
    long long seqLen = 32768;                // positions in the mask and the curves, 2..kMaxSeqLen
    int maskLayer = 0;                       // the layer whose mask is drawn
    friend bool operator==(const NopeFigureOptions&,
                           const NopeFigureOptions&) = default;  // member-wise: caches key on it
};
Status validate(const NopeFigureOptions& options);
// Panels: the NoPE signal, the layer stack, one layer's mask, the temperature curve (All: 4 in
// 2 columns; Nope: the first; Irope: the last three).
PanelShape nopePanelShape(NopeSections sections);
// What drawNopeFigure keeps between builds (the GUI rebuilds it whenever a slider moves): the
// chunk mask's texels and the layer stack, reused while their own inputs stay, so dragging the
// temperature sliders neither recomputes nor re-uploads them (their versions stay).
struct NopeFigureMemo {
    struct Mask {
        IropeParams irope;
        int layer = -1, rows = 0, cols = 0;
        long long seqLen = 0;
        HeatmapSample sample;
    };
    struct Stack {
        IropeParams irope;
        int rows = 0, cols = 0;
        HeatmapSpec spec;  // its values, spans and version
    };
    std::vector<Mask> mask;    // at most one
    std::vector<Stack> stack;  // at most one
};
Status drawNopeFigure(Figure& figure, Box area, const NopeFigureOptions& options,
                      const Theme& theme, int panel = 0, NopeFigureMemo* memo = nullptr);

// ---- Randomized positions: a few draws, the order statistics against 0..L-1
inline constexpr PanelShape kRandomizedPanels{2, 2, 18, 12, 12};
// Detail::Coarse (the GUI while a slider moves): the same figure but for draw 0's positions in
// the second panel, one line through them instead of a dot each (a thousand dots are most of
// the figure's cost on a software rasteriser; the line follows the same points).
Status drawRandomizedFigure(Figure& figure, Box area, const RandomizedPositionsParams& params,
                            const Theme& theme, int panel = 0, Detail detail = Detail::Exact);

}  // namespace poslab
