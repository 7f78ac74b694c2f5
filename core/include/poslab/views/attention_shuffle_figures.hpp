// attention_shuffle_figures.hpp — why position at all: one seeded attention head over a sentence
// and over its reordering; without positions the outputs are the same words' outputs reordered.
// Part of the Intuition view (intuition_figures.hpp).
#pragma once

#include "poslab/analysis/toy_attention.hpp"
#include "poslab/base/result.hpp"
#include "poslab/figure/plot.hpp"

namespace poslab {

// The figure's title (the GUI's and the file's): short enough for one line at a projector's
// title size on 1024 px (a longer one was squeezed to 22 px, below presentation's 23.8).
inline constexpr const char* kAttentionShuffleTitle =
    "Why position at all: without it, reordering words only reorders outputs";
// Its band: 1.45 title sizes when the title keeps one line (no tick label above the word diagram
// to keep clear of, as plots' 1.8 do; the rows below get the height: lesson 1's words at the
// projector's size), else the band titleBandHeight keeps for its wrapped lines (one line in a
// figure under a lesson card).
float attentionShuffleTitleBand(float width, float height, const Theme& theme);
void drawAttentionShuffle(Figure& figure, Box area, const ShuffleComparison& comparison,
                          const ToyAttentionParams& params, const Theme& theme);
Result<Figure> attentionShuffleFigure(const ToyAttentionParams& params, float width, float height,
                                      const Theme& theme);

}  // namespace poslab
