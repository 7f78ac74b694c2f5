// rope_scalings_figures.hpp — the core figure of a long-context paper: per RoPE pair, the ratio of
// the scaled to the unscaled frequency for every scaling at one factor, overlaid.
//
//   ropeScalingRatios  theta_i' / theta_i per pair for none, linear, NTK, dynamic NTK, YaRN,
//                      Llama 3 and (with rescale lists) LongRoPE, from encodings/rope_scaling
//   drawRopeScalings   those curves on a log y axis against the pair index or the wavelength
//
// The scalings' own settings (Llama 3's frequency factors, YaRN's betas, L0, LongRoPE's lists)
// come from RopeParams::scaling, e.g. a config.json's; each type reads only its own. The factor
// is the figure's, the same for all.
#pragma once

#include <string>
#include <vector>

#include "poslab/base/enum_names.hpp"
#include "poslab/base/result.hpp"
#include "poslab/encodings/rope.hpp"
#include "poslab/figure/plot.hpp"

namespace poslab {

enum class RopeScalingsAxis { Pair, Wavelength };  // x: pair index, or unscaled wavelength (log)
inline constexpr EnumNames<RopeScalingsAxis, 2> kScalingsAxisNames{
    {{RopeScalingsAxis::Pair, "pair"}, {RopeScalingsAxis::Wavelength, "wavelength"}}};
std::string_view scalingsAxisName(RopeScalingsAxis axis);           // "pair", "wavelength"
Result<RopeScalingsAxis> parseScalingsAxis(std::string_view name);  // its inverse

struct RopeScalingsOptions {
    double factor = 8;      // s for every scaling, 1..65536
    int dynamicSeqLen = 0;  // dynamic NTK (and LongRoPE's list) at this length; 0: see below
    RopeScalingsAxis axis = RopeScalingsAxis::Pair;
    friend bool operator==(const RopeScalingsOptions&,
                           const RopeScalingsOptions&) = default;  // member-wise: caches key on it
};

struct RopeScalingCurve {
    RopeScaling type = RopeScaling::None;
    std::string label;          // "YaRN (β 32 / 1)", "dynamic NTK at L = 65536"
    std::vector<double> ratio;  // theta_i' / theta_i, one per rotated pair
};
// The length dynamic NTK is evaluated at: options.dynamicSeqLen when set, else the context
// params.seqLen when it reaches past L0, else s * L0 (capped at kMaxRopePositions).
int ropeScalingsSeqLen(const RopeParams& params, const RopeScalingsOptions& options);
// One curve per scaling, in the order above; LongRoPE only when params.scaling has a long or
// short list of d/2 entries. Errors: params or factor invalid (the message names the field).
Result<std::vector<RopeScalingCurve>> ropeScalingRatios(const RopeParams& params,
                                                        const RopeScalingsOptions& options);
void drawRopeScalings(Figure& figure, Box area, const RopeParams& params,
                      const RopeScalingsOptions& options, const Theme& theme,
                      PlotFrame* frame = nullptr);

}  // namespace poslab
