// rope_figures.hpp — the RoPE view's figures, one header per figure, and what they share.
// Used by the GUI panel, `poslab render` and the panel's file export, so all three show the same
// thing. Including this header includes them all:
//
//   rope_rotation_figures.hpp   drawRopeRotation: a grid of small 2-D panels, one per chosen
//                               pair: q rotated by m theta_i, k by n theta_i, the angle between
//                               them and a fading trail
//   rope_heatmap_figures.hpp    drawRopeAngles: position x pair, (position * theta_i) mod 2 pi on
//                               a cyclic colormap; drawRopeScores: q_m . k_n for m, n < L
//   rope_frequency_figures.hpp  drawRopeFrequencies: wavelength 2 pi / theta_i per pair on a log
//                               axis, context and training length marked, pairs without a full
//                               turn highlighted
//   rope_decay_figures.hpp      drawRopeDecay: RoFormer's relative upper bound against relative
//                               distance (Su et al. Fig. 2)
//
// Here: the titles, the q and k colours, and the two checks every figure starts with. (A legend
// goes under a plot by drawLinePlot's one rule, line_plot.hpp.)
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "poslab/encodings/rope.hpp"
#include "poslab/figure/plot.hpp"
#include "poslab/views/rope_decay_figures.hpp"
#include "poslab/views/rope_frequency_figures.hpp"
#include "poslab/views/rope_heatmap_figures.hpp"
#include "poslab/views/rope_rotation_figures.hpp"

namespace poslab {

// ---- Titles
std::string ropeScalingSummary(const RopeParams& params);  // "no scaling", "llama3 x8", ...
std::string ropeTitle(const RopeParams& params);  // "head_dim 128, base 10000, half pairs, ..."

// ---- Colours of q and k in every RoPE figure (Okabe-Ito blue and orange, per theme)
Rgba ropeQueryColor(const Theme& theme);
Rgba ropeKeyColor(const Theme& theme);

// ---- What every figure checks first
// RoPE's frequencies for params, or nothing after drawing the reason there are none into area.
std::optional<RopeFrequencies> ropeFrequenciesOrNote(Figure& figure, Box area,
                                                     const RopeParams& params, const Theme& theme);
// q and k can be rotated with freqs: the same length, at least two entries per pair.
bool ropeVectorsFit(const std::vector<double>& q, const std::vector<double>& k,
                    const RopeFrequencies& freqs);

}  // namespace poslab
