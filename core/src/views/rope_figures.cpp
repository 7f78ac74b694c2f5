// rope_figures.cpp — what every RoPE figure shares: titles, the q and k colours, and the
// frequencies or a note saying why there are none. The figures themselves are in
// rope_rotation_figures.cpp, rope_heatmap_figures.cpp, rope_frequency_figures.cpp and
// rope_decay_figures.cpp.
#include "poslab/views/rope_figures.hpp"

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "poslab/encodings/rope_scaling.hpp"

namespace poslab {

// ---------------------------------------------------------------------------------------------
// Titles and colours
// ---------------------------------------------------------------------------------------------

std::string ropeScalingSummary(const RopeParams& params) {
    const RopeScalingParams& s = params.scaling;
    if (s.type == RopeScaling::None) return "no scaling";
    if (s.type == RopeScaling::Proportional) {
        // p-RoPE (Gemma 4): the share of pairs that rotate says more than a factor of 1.
        std::string text = "p-RoPE " + formatValue(100 * s.ropeProportion, 4) + "% rotating";
        if (s.factor != 1.0) text += " ×" + formatValue(s.factor, 4);
        return text;
    }
    return std::string(scalingName(s.type)) + " ×" + formatValue(s.factor, 4);
}

std::string ropeTitle(const RopeParams& params) {
    std::string title = "head_dim " + std::to_string(params.headDim);
    const int d = rotatedDims(params);
    if (d != params.headDim) title += " (" + std::to_string(d) + " rotated)";
    title += ", base " + formatValue(params.base, 6) + ", " +
             std::string(pairingName(params.pairing)) + " pairs";
    if (params.scaling.type != RopeScaling::None) title += ", " + ropeScalingSummary(params);
    return title;
}

Rgba ropeQueryColor(const Theme& theme) {
    return theme.id == ThemeId::Paper ? Rgba{0, 114, 178, 255} : Rgba{86, 180, 233, 255};
}

Rgba ropeKeyColor(const Theme& theme) {
    return theme.id == ThemeId::Paper ? Rgba{213, 94, 0, 255} : Rgba{230, 159, 0, 255};
}

bool ropeVectorsFit(const std::vector<double>& q, const std::vector<double>& k,
                    const RopeFrequencies& freqs) {
    return q.size() >= 2 * freqs.inverse.size() && q.size() == k.size();
}

std::optional<RopeFrequencies> ropeFrequenciesOrNote(Figure& figure, Box area,
                                                     const RopeParams& params, const Theme& theme) {
    auto freqs = ropeFrequencies(params);
    if (!freqs) {
        drawNote(figure, area, freqs.error().message, theme);
        return std::nullopt;
    }
    return std::move(freqs).value();
}

}  // namespace poslab
