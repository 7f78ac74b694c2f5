// rope_figures.cpp — what every RoPE figure shares: titles, the q and k colours, a legend under
// the plot, and the frequencies or a note saying why there are none. The figures themselves are in
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

// ---------------------------------------------------------------------------------------------
// A legend under the plot
// ---------------------------------------------------------------------------------------------

float legendKeyWidth(const LegendKey& key, const Theme& theme) {
    return strokeWidth(theme, 18) + 11 + estimateTextWidth(key.text, theme.fontSize);
}
LegendRows legendRowsBelow(const std::vector<LegendKey>& keys, const Theme& theme, float width) {
    LegendRows rows;
    rows.rowHeight = theme.fontSize * 1.35f;
    const float gap = theme.fontSize * 1.2f;
    for (std::size_t k = 0; k < keys.size(); ++k) {
        const float w = legendKeyWidth(keys[k], theme);
        if (!rows.rows.empty() && rows.rows.back().second + gap + w <= width)
            rows.rows.back().second += gap + w;
        else
            rows.rows.push_back({k, w});
    }
    return rows;
}
void drawLegendBelow(Figure& figure, const std::vector<LegendKey>& keys, const LegendRows& rows,
                     Box band, const Theme& theme) {
    const bool recording = figure.recordingMarks;
    figure.recordingMarks = false;
    const float swatch = strokeWidth(theme, 18), gap = theme.fontSize * 1.2f;
    // Rows left-aligned in a block centred under the plot.
    float widest = 0;
    for (const auto& row : rows.rows) widest = std::max(widest, row.second);
    for (std::size_t r = 0; r < rows.rows.size(); ++r) {
        const std::size_t end = r + 1 < rows.rows.size() ? rows.rows[r + 1].first : keys.size();
        const float cy = band.y + rows.rowHeight * (float(r) + 0.5f);
        float x = band.x + std::max(0.f, (band.width - widest) / 2);
        for (std::size_t k = rows.rows[r].first; k < end; ++k) {
            const LegendKey& key = keys[k];
            if (!key.swatch) {
            } else if (key.dot) {
                CircleItem dot;
                dot.center = {x + swatch / 2, cy};
                dot.radius = strokeWidth(theme, 4);
                dot.fill = key.color;
                figure.add(dot);
            } else {
                figure.add(LineItem{{x, cy},
                                    {x + swatch, cy},
                                    key.color,
                                    strokeWidth(theme, key.dashed ? 1.5f : 2.5f),
                                    key.dashed});
            }
            figure.add(makeText({x + swatch + 5, cy}, key.text, theme.fontSize, theme.text,
                                HorizontalAlign::Left, VerticalAlign::Middle));
            x += legendKeyWidth(key, theme) + gap;
        }
    }
    figure.recordingMarks = recording;
}

}  // namespace poslab
