// compare_ab_figures.hpp — two RoPE configurations A/B as one figure: each pair's wavelength, the
// expected q.k against offset for both, and their difference. Used by the Compare view's RoPE A/B
// tab and `poslab render compare-ab`; every encoding at once is compare_figures.hpp.
#pragma once

#include <string>

#include "poslab/encodings/rope.hpp"
#include "poslab/figure/panel_grid.hpp"
#include "poslab/figure/plot.hpp"

namespace poslab {

// A/B: two RoPE configurations (e.g. two config.json files, or base 10000 vs 500000).
struct RopeConfiguration {
    std::string label;  // "A: Llama-2 (base 10000)"
    RopeParams rope;
    friend bool operator==(const RopeConfiguration&,
                           const RopeConfiguration&) = default;  // member-wise: caches key on it
};
// Wavelength per pair, expected q.k against offset for both, and their difference B - A: two
// plots over a wide one while they have room (kAbPanels), else one column, else `panel` alone.
// samplesPerColumn: offsets evaluated per pixel column of the figure, at most (every offset
// while there are fewer); each curve is drawn as its min/max per column of them. The default is
// the exact picture; the GUI passes kAbCoarseSamples while a slider moves (an eighth of the work).
inline constexpr PanelShape kAbPanels{3, 2, 20, 13, 16};
inline constexpr int kAbExactSamples = 16;
inline constexpr int kAbCoarseSamples = 2;
Status drawAbComparison(Figure& figure, Box area, const RopeConfiguration& a,
                        const RopeConfiguration& b, int maxOffset, const Theme& theme,
                        int panel = 0, int samplesPerColumn = kAbExactSamples);
Result<Figure> abComparisonFigure(const RopeConfiguration& a, const RopeConfiguration& b,
                                  int maxOffset, float width, float height, const Theme& theme,
                                  int panel = 0, int samplesPerColumn = kAbExactSamples);
// Where abComparisonFigure puts its panels in a figure of that size (the GUI's selector).
PanelGrid abComparisonPanels(float width, float height, const Theme& theme, int panel = 0);

}  // namespace poslab
