// relative_figures.hpp — the relative-position family as figures: xPos, KERPLE (power and
// logarithmic), Sandwich and FIRE one tab each, and the family picture: every member's bias (or
// log-score) against distance on shared axes, beside a small-multiples grid of their L x L
// matrices. Used by the GUI's Relative view, `poslab render relative-*` and File > Export, so all
// three draw the same thing.
//
// Live at L = 65,536 and 2^20 in `render`: nothing builds an L x L matrix. ALiBi, T5 and KERPLE
// are sampled from their 2L - 1 values per offset (relativeOffsetSample, block means); the rotary
// members (Sandwich, xPos, RoPE) cost O(d) per distance, so their block means come from closed
// forms (relative_oscillators.hpp) and never visit every distance; FIRE depends on the query as
// well, so its texels show their centre cell. Curves (relative_family.hpp) are evaluated at about
// two distances per pixel column (every distance when they fit).
//
// Usage (the panel caches the data and redraws it every frame; `render` does all three at once):
//   RelativeLayout layout = relativeLayout(area, options, tab, theme);
//   auto data = computeRelativeFigureData(options, tab, layout);   // when options or area change
//   drawRelativeFigure(figure, layout, options, tab, *data, theme);
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "poslab/base/heatmap_sample.hpp"
#include "poslab/figure/panel_grid.hpp"
#include "poslab/figure/plot.hpp"
#include "poslab/views/relative_family.hpp"  // the options, members and curves

namespace poslab {

// ---- Layout
struct RelativeLayout {
    Box area;
    PanelGrid panels;                         // one to four panels, per tab
    std::array<Box, kFamilyMembers> cells{};  // Family: the small multiples inside panel 1
    bool wideLast = false;   // three panels in two columns: the last spans the bottom row
    bool cellResolution = false;  // Theme::cellResolution: the maps' texels are cells
    Box panel(int k) const;  // panel k's box (empty when not shown)
};
PanelShape relativePanelShape(RelativeTab tab);
RelativeLayout relativeLayout(Box area, RelativeTab tab, const Theme& theme, int panel = 0);

// ---- Data (cached by the panel; heatmaps sampled to the layout's pixels)
struct RelativeFigureData {
    std::vector<HeatmapSample> maps;  // per tab: the heatmaps in drawing order
    std::vector<ValueRange> ranges;   // one per map
    std::vector<LineSeries> curves;   // the tab's curves, sampled to its curve panel's width
};
// What a member's heatmap and curve were built from, kept between rebuilds so that moving one
// member's slider recomputes that member only (the GUI passes one; the rest of the family's
// heatmaps keep their versions, so their textures are not uploaded again either).
struct RelativeFigureMemo {
    struct Map {
        RelativeFigureOptions key;  // memberOptions() of the member
        int member = 0, variant = 0, rows = 0, cols = 0;
        HeatmapSample sample;
        ValueRange range;
    };
    std::vector<Map> maps;
    std::vector<FamilyCurveMemo> curves;
};
// Detail::Coarse (the GUI, while a control moves; built on the UI thread, so pass a memo of its
// own): a quarter of the texels a side (ALiBi, T5 and KERPLE at their centre cells instead of
// block means) and two curve samples a column instead of eight.
Result<RelativeFigureData> computeRelativeFigureData(const RelativeFigureOptions& options,
                                                     RelativeTab tab, const RelativeLayout& layout,
                                                     RelativeFigureMemo* memo = nullptr,
                                                     Detail detail = Detail::Exact);
// Texels of FIRE's causal matrix (phi, or the MLP bias when `bias`), each its centre cell.
HeatmapSample fireSample(const FireParams& params, int length, int maxRows, int maxCols, bool bias);

// ---- Drawing
void drawRelativeFigure(Figure& figure, const RelativeLayout& layout,
                        const RelativeFigureOptions& options, RelativeTab tab,
                        const RelativeFigureData& data, const Theme& theme);
// Layout, data and drawing in one call, for `poslab render` and File > Export.
Status drawRelativeFigure(Figure& figure, Box area, const RelativeFigureOptions& options,
                          RelativeTab tab, const Theme& theme, int panel = 0,
                          RelativeFigureMemo* memo = nullptr, Detail detail = Detail::Exact);

}  // namespace poslab
