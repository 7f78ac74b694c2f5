// compare_figures.hpp — every encoding side by side as one figure (heatmaps of what each
// contributes, and what a query sees). Used by the Compare view's first tab, `poslab render
// compare` and the guided tour; two RoPE configurations A/B are compare_ab_figures.hpp.
#pragma once

#include <cstdint>
#include <string>

#include "poslab/base/enum_names.hpp"
#include "poslab/encodings/fire.hpp"
#include "poslab/encodings/kerple.hpp"
#include "poslab/encodings/rope.hpp"
#include "poslab/encodings/sandwich.hpp"
#include "poslab/figure/panel_grid.hpp"
#include "poslab/figure/plot.hpp"

namespace poslab {

// The bias encodings Compare can show in its two bias slots (heatmap 4 and 5, and the bias curves):
// ALiBi and T5 as before, and the relative-position family with its own parameters in
// CompareOptions (the Relative view's defaults: KERPLE power r1 0.5 r2 0.8 and log r1 1 r2 1,
// Sandwich d 128 H 8 head 0, FIRE c 0.1 L 512 with a seeded MLP, xPos gamma 0.4 scale_base 512)
// or DeBERTa-v2's c2p + p2c (256 buckets, max_position 512, seeded q, k, Kr, Qr). The family
// members are causal (key j <= query i), as in the Relative view; T5 and DeBERTa are bidirectional.
enum class CompareBias { Alibi, T5, KerplePower, KerpleLog, Sandwich, Fire, Xpos, Deberta };
inline constexpr EnumNames<CompareBias, 8> kCompareBiasNames{
    {{CompareBias::Alibi, "alibi"},
     {CompareBias::T5, "t5"},
     {CompareBias::KerplePower, "kerple-power"},
     {CompareBias::KerpleLog, "kerple-log"},
     {CompareBias::Sandwich, "sandwich"},
     {CompareBias::Fire, "fire"},
     {CompareBias::Xpos, "xpos"},
     {CompareBias::Deberta, "deberta"}}};
std::string_view compareBiasName(CompareBias bias);           // "kerple-log"
Result<CompareBias> parseCompareBias(std::string_view name);  // one line listing the names
std::string compareBiasLabel(CompareBias bias);               // "KERPLE (log)", for controls

struct CompareOptions {
    int dModel = 64;      // sinusoidal / learned width and RoPE head dimension, 2..1024
    int seqLen = 128;     // positions, 2..2048
    double base = 10000;  // sinusoidal and RoPE base
    int alibiHeads = 8;   // the head shown is the first (steepest slope)
    int t5Buckets = 32;
    int t5MaxDistance = 128;
    std::uint64_t seed = 0;  // learned table, T5 bucket biases, FIRE's MLP, DeBERTa's vectors
    CompareBias biasA = CompareBias::Alibi;  // the first bias slot (heatmap 4)
    CompareBias biasB = CompareBias::T5;     // the second (heatmap 5)
    // The relative members' own parameters, with the Relative view's defaults and ranges
    // (validate(RelativeFigureOptions)). xPos's head_dim and base are dModel and base above, and
    // FIRE's MLP is seeded by `seed` (fire.seed is not used).
    KerpleParams kerplePower{KerpleKernel::Power, 0.5, 0.8};
    KerpleParams kerpleLog{KerpleKernel::Logarithmic, 1.0, 1.0};
    SandwichParams sandwich;     // headDim, heads, head
    FireParams fire;             // c, threshold, mlpWidth, heads, head
    double xposGamma = 0.4;      // zeta_i = (2i/d + gamma)/(1 + gamma)
    double xposScaleBase = 512;  // the decay zeta^(r / scale_base)
    friend bool operator==(const CompareOptions&,
                           const CompareOptions&) = default;  // member-wise: caches key on it
};
// The parameters a relative-family member is drawn with in Compare (its own above, at Compare's
// length, width, base and seed), as its heatmap's title says them: "r1 1, r2 1"; "" for ALiBi
// and T5 (their sliders).
std::string compareBiasParameters(const CompareOptions& options, CompareBias bias);
Status validate(const CompareOptions& options);
// Top: what each encoding contributes, as heatmaps; bottom: what a query in the middle sees, as
// curves against offset (similarity for vector encodings, additive bias for bias encodings).
// Seven panels: the five heatmaps in rows of 5 (the designed layout), 3 or 2 above the two
// curves, the most columns for which every panel has the room kComparePanels asks for, no cell
// left empty (with two columns ALiBi and T5 share a cell); else `panel` alone.
inline constexpr PanelShape kComparePanels{7, 5, 15, 13, 10};
Status drawComparison(Figure& figure, Box area, const CompareOptions& options, const Theme& theme,
                      int panel = 0);
Result<Figure> comparisonFigure(const CompareOptions& options, float width, float height,
                                const Theme& theme, int panel = 0);
// One bias slot's curve along query row `query` (x: offset j - query, one point per key j): ALiBi
// and T5 as drawn before; the family members minus their value at the query itself (softmax
// ignores a constant per row; xPos: the log of its decay); DeBERTa's c2p + p2c. NaN where the
// encoding masks the key (the causal ones, j > query).
LineSeries compareBiasCurve(const CompareOptions& options, CompareBias bias, int query);
// Where drawComparison puts its panels in `area`: columns and rows of the heatmaps' grid plus
// the curves' row (the cells themselves are not a uniform grid), or one panel alone.
PanelGrid comparisonPanels(Box area, const Theme& theme, int panel = 0);
PanelGrid comparisonFigurePanels(const CompareOptions& options, float width, float height,
                                 const Theme& theme,
                                 int panel = 0);  // in comparisonFigure of that size

}  // namespace poslab
