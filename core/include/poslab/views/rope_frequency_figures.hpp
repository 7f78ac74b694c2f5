// rope_frequency_figures.hpp — RoPE's wavelength ladder: 2 pi / theta_i per pair on a log axis,
// the context and training lengths marked, the pairs that never complete a turn highlighted and a
// scaling's thresholds drawn. Part of the RoPE view (rope_figures.hpp).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "poslab/base/enum_names.hpp"
#include "poslab/base/result.hpp"
#include "poslab/encodings/rope.hpp"
#include "poslab/figure/plot.hpp"

namespace poslab {

// ---- Frequency ladder
enum class RopeTurnReference { Context, Training };  // what "never completes a turn" refers to
inline constexpr EnumNames<RopeTurnReference, 2> kTurnReferenceNames{
    {{RopeTurnReference::Context, "context"}, {RopeTurnReference::Training, "training"}}};
std::string_view turnReferenceName(RopeTurnReference reference);  // "context", "training"
Result<RopeTurnReference> parseTurnReference(std::string_view name);
struct RopeFrequencyOptions {
    RopeTurnReference incompleteWithin = RopeTurnReference::Context;
    friend bool operator==(const RopeFrequencyOptions&,
                           const RopeFrequencyOptions&) = default;  // member-wise: caches key on it
};
// x: pair index; y: wavelength 2 pi / theta_i in positions (log). Context length = params.seqLen,
// training length = originalMaxPositions(params). With a scaling, the unscaled wavelengths are
// drawn underneath. Pairs whose (scaled) wavelength exceeds the chosen length are highlighted;
// scaled and judged by the training length, the pairs that reach angles at the context the model
// never saw in training instead (ropeUnseenAngles), as the Extrapolation view counts them.
// The scaling's thresholds, as vertical markers at (fractional) pair indices, when params' scaling
// has them: Llama 3's band edges, the pairs whose unscaled wavelength is L0/high_freq_factor
// (below: kept) and L0/low_freq_factor (above: divided by s); YaRN's correction range, the pairs
// where the ramp starts (beta_fast) and ends (beta_slow). Empty for other scalings.
std::vector<Marker> ropeScalingThresholds(const RopeParams& params, const Theme& theme);
void drawRopeFrequencies(Figure& figure, Box area, const RopeParams& params,
                         const RopeFrequencyOptions& options, const Theme& theme,
                         PlotFrame* frame = nullptr);

}  // namespace poslab
