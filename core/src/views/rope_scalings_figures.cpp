#include "poslab/views/rope_scalings_figures.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <vector>

#include "poslab/base/format.hpp"
#include "poslab/base/validate.hpp"
#include "poslab/encodings/rope_scaling.hpp"
#include "poslab/views/rope_figures.hpp"

namespace poslab {

std::string_view scalingsAxisName(RopeScalingsAxis axis) {
    return enumName(kScalingsAxisNames, axis);
}

Result<RopeScalingsAxis> parseScalingsAxis(std::string_view name) {
    return parseEnum(kScalingsAxisNames, name, "x-axis");
}

int ropeScalingsSeqLen(const RopeParams& params, const RopeScalingsOptions& options) {
    if (options.dynamicSeqLen > 0) return options.dynamicSeqLen;
    if (params.seqLen > originalMaxPositions(params)) return params.seqLen;  // the context
    const double length = std::ceil(options.factor * double(originalMaxPositions(params)));
    return int(std::clamp(length, 1.0, double(kMaxRopePositions)));
}

Result<std::vector<RopeScalingCurve>> ropeScalingRatios(const RopeParams& params,
                                                        const RopeScalingsOptions& options) {
    if (auto s = requireInRange("factor", options.factor, 1.0, 65536.0, true); !s) return s.error();
    RopeParams plain = params;
    plain.scaling = RopeScalingParams{};
    if (auto s = validate(plain); !s) return s.error();
    auto unscaled = unscaledFrequencies(plain);
    if (!unscaled) return unscaled.error();
    const int seqLen = ropeScalingsSeqLen(params, options);
    const int original = originalMaxPositions(params);
    const std::size_t pairs = unscaled->inverse.size();

    std::vector<RopeScalingCurve> curves;
    auto add = [&](RopeScaling type, std::string label) -> Status {
        RopeParams scaled = params;
        scaled.scaling.type = type;
        scaled.scaling.factor = options.factor;
        scaled.scaling.originalMaxPositions = original;
        scaled.seqLen = seqLen;
        if (auto s = validate(scaled); !s) return s.error();
        auto freqs = ropeFrequencies(scaled);
        if (!freqs) return freqs.error();
        RopeScalingCurve curve{type, std::move(label), {}};
        curve.ratio.resize(pairs);
        for (std::size_t i = 0; i < pairs && i < freqs->inverse.size(); ++i)
            curve.ratio[i] = freqs->inverse[i] / unscaled->inverse[i];
        curves.push_back(std::move(curve));
        return success();
    };
    const RopeScalingParams& s = params.scaling;
    const std::string L = std::to_string(seqLen);
    for (const Status& status :
         {add(RopeScaling::None, "none"), add(RopeScaling::Linear, "linear (PI): θ/s"),
          add(RopeScaling::Ntk, "NTK-aware: $\\mathrm{base}·s^{d/(d-2)}$"),
          add(RopeScaling::DynamicNtk, "dynamic NTK at L = " + L),
          add(RopeScaling::Yarn,
              // β_fast and β_slow as the YaRN paper sets them (and Frequencies' ramp labels),
              // each beside its value, joined by no-break spaces.
              "YaRN ($β_{\\mathrm{fast}}$\u00a0" + formatValue(s.betaFast, 3) +
                  ", $β_{\\mathrm{slow}}$\u00a0" + formatValue(s.betaSlow, 3) + ")"),
          add(RopeScaling::Llama3, "Llama 3 (low " + formatValue(s.lowFreqFactor, 3) + ", high " +
                                       formatValue(s.highFreqFactor, 3) + ")")}) {
        if (!status) return status.error();
    }
    const bool lists = s.longFactor.size() == pairs || s.shortFactor.size() == pairs;
    if (lists) {
        const bool useLong = longRopeListFor(seqLen, original) == LongRopeList::Long;
        if (auto status = add(RopeScaling::LongRope, std::string("LongRoPE (") +
                                                         (useLong ? "long" : "short") +
                                                         " list at L = " + L + ")");
            !status)
            return status.error();
    }
    return curves;
}

void drawRopeScalings(Figure& figure, Box area, const RopeParams& params,
                      const RopeScalingsOptions& options, const Theme& theme, PlotFrame* frameOut) {
    auto curves = ropeScalingRatios(params, options);
    if (!curves) {
        drawNote(figure, area, curves.error().message, theme);
        return;
    }
    RopeParams plain = params;
    plain.scaling = RopeScalingParams{};
    const std::vector<double> wavelengths = ropeWavelengths(*unscaledFrequencies(plain));
    const int pairCount = int(wavelengths.size());
    const bool byWavelength = options.axis == RopeScalingsAxis::Wavelength;

    LinePlotSpec spec;
    spec.title = "Scaled ÷ unscaled frequency $θ′_i/θ_i$ per pair at factor " +
                 formatValue(options.factor, 4) + " — head_dim " + std::to_string(params.headDim) +
                 ", base " + formatValue(params.base, 6) + ", L0 " +
                 std::to_string(originalMaxPositions(params));
    if (byWavelength) {
        spec.x = {"unscaled wavelength $2π/θ_i$ (positions)", wavelengths.front() / 1.3,
                  wavelengths.back() * 1.3, true};
    } else {
        spec.x = integerAxis("pair $i$  (fast → slow)", -0.5, std::max(pairCount, 1) - 0.5);
    }
    double low = 1;
    for (const RopeScalingCurve& c : *curves)
        for (double r : c.ratio)
            if (r > 0 && std::isfinite(r)) low = std::min(low, r);
    // Log ticks fall on powers of ten: reach down to 0.1 when the curves stay above it (s < 10),
    // so that the axis has a second tick.
    spec.y = {"$θ′_i/θ_i$", std::min(low / 1.6, 0.08), 1.6, true};
    spec.autoRangeY = false;
    for (std::size_t index = 0; index < curves->size(); ++index) {
        const RopeScalingCurve& c = (*curves)[index];
        LineSeries series;
        series.name = c.label;
        series.y = c.ratio;
        series.x.resize(c.ratio.size());
        for (std::size_t i = 0; i < c.ratio.size(); ++i)
            series.x[i] = byWavelength ? wavelengths[i] : double(i);
        // Okabe-Ito, without the yellow that vanishes on paper; LongRoPE in the text colour.
        static constexpr int kOrder[] = {5, 1, 2, 6, 3, 0};
        series.color = c.type == RopeScaling::None     ? theme.mutedText
                       : index - 1 < std::size(kOrder) ? seriesColor(kOrder[index - 1])
                                                       : theme.text;
        series.width = c.type == RopeScaling::None ? 1.5f : 2.2f;
        spec.series.push_back(std::move(series));
    }
    // One column in print: six keys in a column beside the plot wrapped "YaRN (β / 32 / 1)" and
    // left it under half the width; drawLinePlot's rule puts them in rows under it there.
    drawLinePlot(figure, area, spec, theme, frameOut);
}

}  // namespace poslab
