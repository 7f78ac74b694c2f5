// vision_rope_figures.hpp — RoPE for images: the multimodal RoPE of Qwen2-VL / Qwen2.5-VL /
// Qwen3-VL and 2-D axial RoPE of vision transformers. `poslab render mrope`, `poslab render
// axial-rope` and the GUI's Vision RoPE tab draw them.
//
//   drawMropeFigure       the three position streams (T, H, W) against token index, with the
//                         prompt's text, image and video segments shaded and named; below, the
//                         strip of rotary pairs coloured by the stream that drives each; last,
//                         one line per image or video saying how far it moved the position
//   mropeAdvanceLines     those lines ("image 1: 1x28x42 patches -> 14x21 = 294 tokens; the
//                         position advances by 21, not 294"), or brief ("image 1: 294 tokens
//                         (1x14x21), position +21 = max(14, 21), not +294") where the long
//                         ones would wrap (a projector)
//   drawAxialRopeFigure   the patch grid coloured by the query patch's score with every patch
#pragma once

#include <string>
#include <vector>

#include "poslab/encodings/axial_rope.hpp"
#include "poslab/encodings/multimodal_rope.hpp"
#include "poslab/figure/plot.hpp"

namespace poslab {

Rgba positionStreamColor(PositionStream stream);  // T, H, W: the same in the curves and strip

std::vector<std::string> mropeAdvanceLines(const std::vector<PromptSegment>& prompt,
                                           const MropePositions& positions, bool brief = false);

// Invalid input draws a note with the one-line error instead.
void drawMropeFigure(Figure& figure, Box area, const std::vector<PromptSegment>& prompt,
                     const MropeSettings& settings, const Theme& theme);

// frame: the heatmap's plot frame (for hover), when not null.
void drawAxialRopeFigure(Figure& figure, Box area, const AxialRopeParams& params,
                         const Theme& theme, PlotFrame* frame = nullptr);

}  // namespace poslab
