// attention_shuffle_figures.hpp — why position at all: one seeded attention head over a sentence
// and over its reordering; without positions the outputs are the same words' outputs reordered.
// Part of the Intuition view (intuition_figures.hpp).
#pragma once

#include "poslab/analysis/toy_attention.hpp"
#include "poslab/base/result.hpp"
#include "poslab/figure/plot.hpp"

namespace poslab {

void drawAttentionShuffle(Figure& figure, Box area, const ShuffleComparison& comparison,
                          const ToyAttentionParams& params, const Theme& theme);
Result<Figure> attentionShuffleFigure(const ToyAttentionParams& params, float width, float height,
                                      const Theme& theme);

}  // namespace poslab
