// extrapolation_figures.hpp — what each encoding does past the training length, as six small
// multiples. Used by the GUI panel, `poslab render extrapolation` and the guided tour. The
// relative-family set's panels and its table are extrapolation_family_figures.hpp.
#pragma once

#include <string>
#include <vector>

#include "poslab/base/enum_names.hpp"
#include "poslab/figure/panel_grid.hpp"
#include "poslab/figure/plot.hpp"

namespace poslab {

// Which six encodings the view shows: the textbook ones (sinusoidal, learned, RoPE, its scalings,
// ALiBi, T5) or the relative-position family (KERPLE, Sandwich, FIRE, xPos, DeBERTa and all of
// them on shared axes, with the Relative view's default parameters; xPos and the RoPE bound use
// head_dim and base below).
enum class ExtrapolationSet { Textbook, RelativeFamily };
inline constexpr EnumNames<ExtrapolationSet, 2> kExtrapolationSetNames{
    {{ExtrapolationSet::Textbook, "textbook"}, {ExtrapolationSet::RelativeFamily, "relative"}}};
std::string_view extrapolationSetName(ExtrapolationSet set);
Result<ExtrapolationSet> parseExtrapolationSet(std::string_view name);  // "set must be ..."

struct ExtrapolationOptions {
    int trainingLength = 512;     // positions seen in training, 2..65536
    int evaluationLength = 2048;  // positions used now, > trainingLength, ..262144
    int dModel = 64;              // sinusoidal / learned width
    int headDim = 64;             // RoPE head dimension
    double ropeBase = 10000;
    int alibiHeads = 8;
    int t5Buckets = 32;
    int t5MaxDistance = 128;
    ExtrapolationSet set = ExtrapolationSet::Textbook;
    friend bool operator==(const ExtrapolationOptions&,
                           const ExtrapolationOptions&) = default;  // member-wise: caches key on it
};
Status validate(const ExtrapolationOptions& options);
// Six small multiples with two or three sentences each: sinusoidal, learned, RoPE (angles seen
// per pair), RoPE with each scaling, ALiBi, T5; or (set RelativeFamily) KERPLE's two kernels,
// Sandwich per head, FIRE's phi with and without its progressive normaliser, xPos's decay beside
// RoPE's bound, DeBERTa's buckets and the index its gather clamps, and the whole family. In 3
// columns while each panel has room for its paragraph (kExtrapolationPanels), else fewer, else
// `panel` alone (panel_grid.hpp).
inline constexpr PanelShape kExtrapolationPanels{6, 3, 22, 26, 14};
Status drawExtrapolation(Figure& figure, Box area, const ExtrapolationOptions& options,
                         const Theme& theme, int panel = 0);
Result<Figure> extrapolationFigure(const ExtrapolationOptions& options, float width, float height,
                                   const Theme& theme, int panel = 0);
// The ALiBi panel's sentences: how many heads push every key beyond the training length below
// kAlibiForgottenBias (e^-10 of the weight: softmax ignores it, so a longer text looks like a
// window seen in training) and how far the gentlest head still reaches past it.
inline constexpr double kAlibiForgottenBias = -10;
std::string alibiExtrapolationCaption(const std::vector<double>& slopes, int trainingLength);
// Where extrapolationFigure puts its panels in a figure of that size (the GUI's panel selector);
// the options' lengths are in the title, whose lines the panels go below.
PanelGrid extrapolationPanels(float width, float height, const Theme& theme, int panel = 0,
                              const ExtrapolationOptions& options = {});

}  // namespace poslab
