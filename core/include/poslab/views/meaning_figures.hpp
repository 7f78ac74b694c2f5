// meaning_figures.hpp — how position and meaning coexist, as figures: the four logit terms, the
// near-orthogonality of random and position vectors, and addition versus concatenation. Used by
// the GUI panel, `poslab render` and the guided tour.
#pragma once

#include <cstdint>
#include <vector>

#include "poslab/analysis/meaning.hpp"
#include "poslab/figure/panel_grid.hpp"
#include "poslab/figure/plot.hpp"

namespace poslab {

// The logit terms' six panels (five heatmaps and a paragraph), 3 columns when they have room
// for their text, else fewer, else `panel` alone (panel_grid.hpp).
inline constexpr PanelShape kLogitTermPanels{6, 3, 20, 16, 10};
PanelGrid logitTermPanels(Box area, const Theme& theme, int panel = 0);
// The texels a side drawLogitTerms' heatmaps have room for in `area` (one per pixel).
int logitTermTexels(Box area, int seqLen, const Theme& theme, int panel = 0);
// cc, cp, pc, pp and their sum on one shared colour scale (so sizes compare), with the RMS of
// each term in its title, and a paragraph on what they show.
// frames (optional) receives the frames of the heatmaps drawn, in that order, for hover.
void drawLogitTerms(Figure& figure, Box area, const MeaningParams& params,
                    const LogitTermMaps& maps, const Theme& theme,
                    std::vector<PlotFrame>* frames = nullptr, int panel = 0);
// Histogram of cos(random vector, PE row) with the exact density and +-1/sqrt(d) marked; beside
// it the spread against d_model (1/sqrt(d)) with the current d marked. requested > drawn: the
// histogram holds the first `drawn` of `requested` draws, which the figure states.
void drawNearOrthogonality(Figure& figure, Box area, int dModel, const Histogram& histogram,
                           const Theme& theme, int drawn = 0, int requested = 0);
// Addition versus concatenation: the two logits side by side, what each costs and contains.
// recoveryError < 0 hides the position read-back line. Three columns of plot and paragraph
// while they have room (kAddConcatPanels), else fewer, else `panel` alone.
inline constexpr PanelShape kAddConcatPanels{3, 3, 18, 28, 16};
void drawAddVersusConcat(Figure& figure, Box area, const MeaningParams& params,
                         const LogitTermMaps& maps, double recoveryError, const Theme& theme,
                         int panel = 0);
Result<Figure> meaningFigure(const MeaningParams& params, float width, float height,
                             const Theme& theme, int panel = 0);  // the logit terms
Result<Figure> nearOrthogonalityFigure(int dModel, int samples, std::uint64_t seed, float width,
                                       float height, const Theme& theme);
Result<Figure> addVersusConcatFigure(const MeaningParams& params, float width, float height,
                                     const Theme& theme, int panel = 0);
// Where addVersusConcatFigure puts its columns in a figure of that size (the GUI's selector).
PanelGrid addVersusConcatPanels(float width, float height, const Theme& theme, int panel = 0);

}  // namespace poslab
