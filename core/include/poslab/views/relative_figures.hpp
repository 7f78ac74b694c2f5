// relative_figures.hpp — the relative-position family as figures: xPos, KERPLE (power and
// logarithmic), Sandwich and FIRE one tab each, and the family picture: every member's bias (or
// log-score) against distance on shared axes, beside a small-multiples grid of their L x L
// matrices. Used by the GUI's Relative view, `poslab render relative-*` and File > Export, so all
// three draw the same thing.
//
// Live at L = 65,536: nothing builds an L x L matrix. The Toeplitz members (ALiBi, T5, KERPLE,
// Sandwich, xPos, RoPE) are sampled from their 2L - 1 values per offset (relativeOffsetSample,
// block means); FIRE depends on the query as well, so its texels show their centre cell. Curves
// are evaluated at about two distances per pixel column (every distance when they fit).
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
#include "poslab/encodings/fire.hpp"
#include "poslab/encodings/kerple.hpp"
#include "poslab/encodings/sandwich.hpp"
#include "poslab/encodings/t5_bias.hpp"
#include "poslab/encodings/xpos.hpp"
#include "poslab/figure/panel_grid.hpp"
#include "poslab/figure/plot.hpp"

namespace poslab {

// ---- What is shown
enum class RelativeTab { Family, Xpos, Kerple, Sandwich, Fire };
// The members of the family picture, in legend order.
enum class FamilyMember { Alibi, T5, KerplePower, KerpleLog, Sandwich, Fire, Xpos, Rope };
inline constexpr int kFamilyMembers = 8;
std::string familyMemberName(FamilyMember member);  // "ALiBi", "KERPLE power", ...

struct RelativeFigureOptions {
    int seqLen = 2048;  // L of every matrix and the reach of the distance axes: 2..kMaxSeqLen
    int trainingLength = 512;  // marked on the distance axes: 1..kMaxSeqLen
    bool logDistance = false;  // family curves: log distance axis (from 1) instead of linear
    double biasFloor = -20;    // family curves: lowest value shown, -1e6..-0.1 (cut below)
    XposParams xpos;
    KerpleParams kerplePower{KerpleKernel::Power, 0.5, 0.8};
    KerpleParams kerpleLog{KerpleKernel::Logarithmic, 1.0, 1.0};
    SandwichParams sandwich;
    FireParams fire;
    int alibiHeads = 8, alibiHead = 0;  // the ALiBi member: fairseq slopes of that many heads
    T5Params t5{1, 32, 128, false};     // the T5 member (seqLen unused), decoder buckets
    std::uint64_t t5Seed = 0;           // its bucket values (seededBucketBiases)
    friend bool operator==(const RelativeFigureOptions&,
                           const RelativeFigureOptions&) = default;  // caches key on it
};
Status validate(
    const RelativeFigureOptions& options);  // every member's params and the ranges above

// ---- Curves against distance r = i - j (query i, key j <= i)
// Each member's value minus its value at r = 0 (softmax ignores a constant per row, so only the
// shape matters): ALiBi -m r; T5 b[bucket(-r)]; KERPLE both kernels; Sandwich; FIRE's MLP bias
// for the query at r_max (the last row, so every distance exists); xPos log(mean_i
// zeta_i^(r/sb)), the log of the decay it multiplies RoPE by; RoPE log(B(r)/B(0)) with B
// RoFormer's long-term decay bound (Su et al. Fig. 2) for xPos's head_dim and base.
double familyValue(const RelativeFigureOptions& options, FamilyMember member, double distance);
// The distances a curve is evaluated at for a plot `columns` pixels wide over 0..maxDistance
// (log: 1..maxDistance, log-spaced): every integer when there are at most 2 per column.
std::vector<double> familyDistances(int maxDistance, int columns, bool logarithmic);
// byOffset[(j - i) + (L - 1)] of a member's L x L matrix: the value at distance i - j for j <= i,
// -inf after (causal). FIRE has no such form (use fireSample).
std::vector<double> toeplitzByOffset(const RelativeFigureOptions& options, FamilyMember member,
                                     int length);

// ---- Layout
struct RelativeLayout {
    Box area;
    PanelGrid panels;                         // one to four panels, per tab
    std::array<Box, kFamilyMembers> cells{};  // Family: the small multiples inside panel 1
    bool wideLast = false;   // three panels in two columns: the last spans the bottom row
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
    struct Curve {
        RelativeFigureOptions key;
        int member = 0, columns = 0;
        bool logarithmic = false;
        LineSeries series;  // before the cut at the bias floor
    };
    std::vector<Map> maps;
    std::vector<Curve> curves;
};
// The options with everything but `member`'s own parameters (and seqLen) at their defaults.
RelativeFigureOptions memberOptions(const RelativeFigureOptions& options, FamilyMember member);
Result<RelativeFigureData> computeRelativeFigureData(const RelativeFigureOptions& options,
                                                     RelativeTab tab, const RelativeLayout& layout,
                                                     RelativeFigureMemo* memo = nullptr);
// Texels of FIRE's causal matrix (phi, or the MLP bias when `bias`), each its centre cell.
HeatmapSample fireSample(const FireParams& params, int length, int maxRows, int maxCols, bool bias);

// ---- Drawing
void drawRelativeFigure(Figure& figure, const RelativeLayout& layout,
                        const RelativeFigureOptions& options, RelativeTab tab,
                        const RelativeFigureData& data, const Theme& theme);
// Layout, data and drawing in one call, for `poslab render` and File > Export.
Status drawRelativeFigure(Figure& figure, Box area, const RelativeFigureOptions& options,
                          RelativeTab tab, const Theme& theme, int panel = 0,
                          RelativeFigureMemo* memo = nullptr);

}  // namespace poslab
