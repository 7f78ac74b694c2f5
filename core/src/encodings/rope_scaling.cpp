#include "poslab/encodings/rope_scaling.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>
#include <utility>

#include "poslab/base/format.hpp"
#include "poslab/base/limits.hpp"
#include "poslab/base/validate.hpp"

namespace poslab {

namespace {

constexpr double kTwoPi = 2.0 * std::numbers::pi;

bool readsOriginalLength(RopeScaling type) {
    return type == RopeScaling::DynamicNtk || type == RopeScaling::Yarn ||
           type == RopeScaling::Llama3 || type == RopeScaling::LongRope;
}

// LongRoPE's short/long factors and the attention factor (yarn, longrope): kMinRopeFactor..
// kMaxRopeFactor, attention_factor kMinRopeFactor..1000. Configs use 1..64 and 1..1.2; 5e-324
// made every inverse frequency inf and the attention gain underflow to 0 (NaN similarities).
constexpr double kMinRopeFactor = 1e-6;
constexpr double kMaxRopeFactor = 1e6;

Status validateFactorList(std::string_view name, const std::vector<double>& factors) {
    if (factors.empty()) return Error{std::string(name) + " must be a non-empty list of numbers"};
    for (std::size_t i = 0; i < factors.size(); ++i) {
        if (!std::isfinite(factors[i]) || !(factors[i] >= kMinRopeFactor) ||
            factors[i] > kMaxRopeFactor) {
            return Error{std::string(name) + "[" + std::to_string(i) + "] must be " +
                         formatNumber(kMinRopeFactor) + ".." + formatNumber(kMaxRopeFactor) +
                         " (got " + formatNumber(factors[i]) + ")"};
        }
    }
    return success();
}

// Both NTK variants raise to d/(d-2), which needs d > 2 (HF divides by zero for d = 2).
bool changesBase(RopeScaling type) {
    return type == RopeScaling::Ntk || type == RopeScaling::DynamicNtk;
}

Status validateOptional(std::string_view name, const std::optional<double>& value, double low,
                        double high, bool lowInclusive) {
    if (!value) return success();
    return requireInRange(name, *value, low, high, lowInclusive);
}

Status validateContext(const RopeScalingParams& scaling, const RopeScalingContext& context) {
    const int minDims = changesBase(scaling.type) ? 4 : 2;
    const int d = context.rotatedDims;
    if (d < minDims || d > kMaxDModel || d % 2 != 0) {
        std::string message = "rotated dims must be an even number in " + std::to_string(minDims) +
                              ".." + std::to_string(kMaxDModel);
        if (minDims == 4) message += " for " + std::string(scalingName(scaling.type));
        return Error{message + " (got " + std::to_string(d) + ")"};
    }
    if (auto s = requireInRange("base", context.base, 1.0, 1e12, false); !s) return s;
    if (auto s = requireIntInRange("seq_len", context.seqLen, 1, kMaxRopePositions); !s) return s;
    if (auto s = requireIntInRange("original_max_positions", context.originalMaxPositions, 1,
                                   kMaxRopePositions);
        !s) {
        return s;
    }
    if (scaling.type == RopeScaling::LongRope) {
        // HF multiplies the d/2 frequencies by the list elementwise: any other length fails there.
        const std::size_t pairs = std::size_t(d / 2);
        for (const auto& [name, list] : {std::pair{"short_factor", &scaling.shortFactor},
                                         std::pair{"long_factor", &scaling.longFactor}}) {
            if (list->size() != pairs) {
                return Error{std::string(name) +
                             " must have rotated dims / 2 = " + std::to_string(pairs) +
                             " entries (got " + std::to_string(list->size()) + ")"};
            }
        }
    }
    return success();
}

std::vector<double> longRopeFrequencies(const RopeScalingParams& scaling,
                                        const RopeScalingContext& context, LongRopeList list) {
    // HF: 1 / (ext_factors * base^(2i/d)): the list divides the default frequencies.
    std::vector<double> inverse = defaultInverseFrequencies(context.rotatedDims, context.base);
    const std::vector<double>& factors =
        list == LongRopeList::Long ? scaling.longFactor : scaling.shortFactor;
    for (std::size_t i = 0; i < inverse.size(); ++i) inverse[i] /= factors[i];
    return inverse;
}

std::vector<double> yarnFrequencies(const RopeScalingParams& scaling,
                                    const RopeScalingContext& context) {
    const int d = context.rotatedDims;
    const int pairs = d / 2;
    const std::vector<double> ramp = yarnRamp(yarnCorrectionRange(scaling, context), pairs);
    std::vector<double> inverse(std::size_t(pairs), 0.0);
    for (int i = 0; i < pairs; ++i) {
        // HF: pos_freqs = base^(2i/d); extrapolation 1 / pos_freqs (theta unchanged),
        // interpolation 1 / (factor * pos_freqs), blended with inv_freq_extrapolation_factor =
        // 1 - ramp, which is 1 for the fast pairs below the correction range.
        const double posFreq = std::pow(context.base, double(2 * i) / double(d));
        const double extrapolation = 1.0 / posFreq;
        const double interpolation = 1.0 / (scaling.factor * posFreq);
        const double keep = 1.0 - ramp[i];
        inverse[i] = interpolation * (1.0 - keep) + extrapolation * keep;
    }
    return inverse;
}

std::vector<double> llama3Frequencies(const RopeScalingParams& scaling,
                                      const RopeScalingContext& context) {
    std::vector<double> inverse = defaultInverseFrequencies(context.rotatedDims, context.base);
    const double oldContext = context.originalMaxPositions;
    const double low = scaling.lowFreqFactor, high = scaling.highFreqFactor;
    for (double& theta : inverse) {
        const double wavelength = kTwoPi / theta;
        switch (llama3Band(wavelength, scaling, context.originalMaxPositions)) {
            case Llama3Band::Kept:
                break;
            case Llama3Band::Divided:
                theta /= scaling.factor;
                break;
            case Llama3Band::Smoothed: {
                // In this band HF's inv_freq_llama is still theta (not divided), so the blend
                // runs from theta / s at wavelength L0/low to theta at L0/high.
                const double smooth = (oldContext / wavelength - low) / (high - low);
                theta = (1.0 - smooth) * theta / scaling.factor + smooth * theta;
                break;
            }
        }
    }
    return inverse;
}

}  // namespace

std::string_view scalingName(RopeScaling type) {
    return enumName(kScalingNames, type);
}

Result<RopeScaling> parseScaling(std::string_view name) {
    // Only the types a few numbers describe (the first six): longrope needs its factor lists and
    // proportional its head layout, so they come from a config.json (hf_config.hpp), never from a
    // name alone.
    return parseEnum(kScalingNames, name, "scaling", 6);
}

Status validate(const RopeScalingParams& scaling) {
    if (scaling.type == RopeScaling::None) return success();
    if (scaling.type == RopeScaling::Proportional) {
        if (auto s = requireInRange("factor", scaling.factor, 1.0, 65536.0); !s) return s;
        return requireInRange("rope_proportion", scaling.ropeProportion, 0.0, 1.0, false);
    }
    if (auto s = requireInRange("factor", scaling.factor, 1.0, 65536.0); !s) return s;
    if (readsOriginalLength(scaling.type)) {
        if (auto s = requireIntInRange("original_max_positions", scaling.originalMaxPositions, 0,
                                       kMaxRopePositions);
            !s) {
            return s;
        }
    }
    if (scaling.type == RopeScaling::Llama3) {
        if (auto s = requireGreaterThan("low_freq_factor", scaling.lowFreqFactor, 0.0); !s) {
            return s;
        }
        if (!std::isfinite(scaling.highFreqFactor) ||
            !(scaling.highFreqFactor >= scaling.lowFreqFactor)) {
            // Equal factors are valid (Llama 4 ships 1 and 1): the smoothed band is then empty
            // and llama3Band() never reaches the division by high - low.
            return Error{"high_freq_factor must be finite and >= low_freq_factor " +
                         formatNumber(scaling.lowFreqFactor) + " (got " +
                         formatNumber(scaling.highFreqFactor) + ")"};
        }
    }
    if (scaling.type == RopeScaling::Yarn) {
        // HF takes any beta and clamps only the correction range it gives; but a beta so small
        // or large that L0 / (2 pi beta) is 0 or inf makes that range inf and the ramp NaN.
        // Real configs use 1..64; the range refused here is far outside, where HF gives NaN.
        if (auto s = requireInRange("beta_fast", scaling.betaFast, kMinYarnBeta, kMaxYarnBeta);
            !s) {
            return s;
        }
        if (auto s = requireInRange("beta_slow", scaling.betaSlow, kMinYarnBeta, kMaxYarnBeta);
            !s) {
            return s;
        }
        if (auto s = validateOptional("attention_factor", scaling.attentionFactor, kMinRopeFactor,
                                      1000.0, true);
            !s) {
            return s;
        }
        if (auto s = validateOptional("mscale", scaling.mscale, 0.0, 1000.0, true); !s) return s;
        if (auto s = validateOptional("mscale_all_dim", scaling.mscaleAllDim, 0.0, 1000.0, true);
            !s) {
            return s;
        }
    }
    if (scaling.type == RopeScaling::LongRope) {
        if (auto s = validateFactorList("short_factor", scaling.shortFactor); !s) return s;
        if (auto s = validateFactorList("long_factor", scaling.longFactor); !s) return s;
        if (auto s = validateOptional("attention_factor", scaling.attentionFactor, kMinRopeFactor,
                                      1000.0, true);
            !s) {
            return s;
        }
    }
    return success();
}

LongRopeList longRopeListFor(int seqLen, int originalMaxPositions) {
    return seqLen > originalMaxPositions ? LongRopeList::Long : LongRopeList::Short;
}

double longRopeAttentionFactor(double factor, int originalMaxPositions) {
    if (factor <= 1.0) return 1.0;
    return std::sqrt(1.0 + std::log(factor) / std::log(double(originalMaxPositions)));
}

int proportionalRotatedPairs(int headDim, double proportion) {
    // HF: int(partial_rotary_factor * head_dim // 2), i.e. floor(p * head_dim / 2).
    const double pairs = std::floor(proportion * double(std::max(headDim, 0)) / 2.0);
    return std::clamp(int(pairs), 0, std::max(headDim, 0) / 2);
}

std::vector<double> proportionalInverseFrequencies(int headDim, double base, double proportion) {
    const int rotated = proportionalRotatedPairs(headDim, proportion);
    std::vector<double> inverse(std::size_t(std::max(headDim, 0) / 2), 0.0);
    for (int i = 0; i < rotated; ++i) {
        // The exponent's denominator stays head_dim: the rotating pairs keep exactly the
        // frequencies they have in full RoPE, and the slow tail is dropped, not re-spread.
        inverse[i] = 1.0 / std::pow(base, double(2 * i) / double(headDim));
    }
    return inverse;
}

std::vector<double> defaultInverseFrequencies(int rotatedDims, double base) {
    // HF: 1.0 / (base ** (torch.arange(0, dim, 2) / dim)): the exponent is the even dimension
    // index over the rotated dims d, not over head_dim.
    const int pairs = std::max(rotatedDims, 0) / 2;
    std::vector<double> inverse(std::size_t(pairs), 0.0);
    for (int i = 0; i < pairs; ++i) {
        inverse[i] = 1.0 / std::pow(base, double(2 * i) / double(rotatedDims));
    }
    return inverse;
}

double ntkScaledBase(double base, double factor, int rotatedDims) {
    const double d = rotatedDims;
    return base * std::pow(factor, d / (d - 2.0));
}

double dynamicNtkBase(double base, double factor, int rotatedDims, int seqLen,
                      int originalMaxPositions) {
    // HF: seq_len = max(seq_len, max_position_embeddings), so nothing changes until the input
    // outgrows the original context, and the multiplier is exactly 1 at seq_len = L0.
    const double length = std::max(seqLen, originalMaxPositions);
    const double d = rotatedDims;
    const double stretch = (factor * length / originalMaxPositions) - (factor - 1.0);
    return base * std::pow(stretch, d / (d - 2.0));
}

double yarnMscale(double scale, double mscale) {
    if (scale <= 1.0) return 1.0;
    return 0.1 * mscale * std::log(scale) + 1.0;
}

double yarnAttentionFactor(const RopeScalingParams& scaling) {
    if (scaling.attentionFactor) return *scaling.attentionFactor;
    // HF tests `if mscale and mscale_all_dim`: a 0 counts as absent, like a missing key.
    if (scaling.mscale.value_or(0.0) != 0.0 && scaling.mscaleAllDim.value_or(0.0) != 0.0) {
        return yarnMscale(scaling.factor, *scaling.mscale) /
               yarnMscale(scaling.factor, *scaling.mscaleAllDim);
    }
    return yarnMscale(scaling.factor);
}

double yarnCorrectionDim(double rotations, int rotatedDims, double base, int originalMaxPositions) {
    // Pair i turns L0 / (2 pi base^(2i/d)) times in L0 positions; solve that for i.
    return (rotatedDims * std::log(originalMaxPositions / (rotations * kTwoPi))) /
           (2.0 * std::log(base));
}

YarnCorrectionRange yarnCorrectionRange(const RopeScalingParams& scaling,
                                        const RopeScalingContext& context) {
    double low = yarnCorrectionDim(scaling.betaFast, context.rotatedDims, context.base,
                                   context.originalMaxPositions);
    double high = yarnCorrectionDim(scaling.betaSlow, context.rotatedDims, context.base,
                                    context.originalMaxPositions);
    if (scaling.truncate) {
        low = std::floor(low);
        high = std::ceil(high);
    }
    return {std::max(low, 0.0), std::min(high, double(context.rotatedDims - 1))};
}

std::vector<double> yarnRamp(const YarnCorrectionRange& range, int pairs) {
    // validate() keeps the range finite; clamped to [0, pairs] anyway so that no ramp is NaN.
    const double limit = std::max(pairs, 1);
    const double low = std::isnan(range.low) ? 0 : std::clamp(range.low, -limit, 2 * limit);
    double high = std::isnan(range.high) ? limit : std::clamp(range.high, -limit, 2 * limit);
    if (low == high) high += 0.001;
    std::vector<double> ramp(std::size_t(std::max(pairs, 0)), 0.0);
    for (int i = 0; i < pairs; ++i) ramp[i] = std::clamp((i - low) / (high - low), 0.0, 1.0);
    return ramp;
}

Llama3Band llama3Band(double wavelength, const RopeScalingParams& scaling,
                      int originalMaxPositions) {
    // HF compares strictly on both sides, so the two threshold wavelengths themselves are
    // smoothed (where the blend already equals theta and theta / s respectively).
    const double lowFrequencyWavelength = originalMaxPositions / scaling.lowFreqFactor;
    const double highFrequencyWavelength = originalMaxPositions / scaling.highFreqFactor;
    if (wavelength < highFrequencyWavelength) return Llama3Band::Kept;
    if (wavelength > lowFrequencyWavelength) return Llama3Band::Divided;
    // low_freq_factor == high_freq_factor (Llama 4): the band is the single wavelength L0/f,
    // where HF's smoothing is 0/0 (NaN). No real wavelength lands there exactly; keep theta.
    if (!(scaling.highFreqFactor > scaling.lowFreqFactor)) return Llama3Band::Kept;
    return Llama3Band::Smoothed;
}

Result<RopeFrequencies> scaledFrequencies(const RopeScalingParams& scaling,
                                          const RopeScalingContext& context) {
    if (auto s = validate(scaling); !s) return s.error();
    if (auto s = validateContext(scaling, context); !s) return s.error();

    const int d = context.rotatedDims;
    RopeFrequencies result;
    result.rotatedDims = d;
    switch (scaling.type) {
        case RopeScaling::None:
            result.inverse = defaultInverseFrequencies(d, context.base);
            break;
        case RopeScaling::Linear:
            // Dividing theta by s is position interpolation: m * theta / s = (m / s) * theta.
            result.inverse = defaultInverseFrequencies(d, context.base);
            for (double& theta : result.inverse) theta /= scaling.factor;
            break;
        case RopeScaling::Ntk:
            result.inverse =
                defaultInverseFrequencies(d, ntkScaledBase(context.base, scaling.factor, d));
            break;
        case RopeScaling::DynamicNtk:
            result.inverse = defaultInverseFrequencies(
                d, dynamicNtkBase(context.base, scaling.factor, d, context.seqLen,
                                  context.originalMaxPositions));
            break;
        case RopeScaling::Yarn:
            result.inverse = yarnFrequencies(scaling, context);
            result.attentionFactor = yarnAttentionFactor(scaling);
            break;
        case RopeScaling::Llama3:
            result.inverse = llama3Frequencies(scaling, context);
            break;
        case RopeScaling::LongRope: {
            const LongRopeList list = longRopeListFor(context.seqLen, context.originalMaxPositions);
            result.inverse = longRopeFrequencies(scaling, context, list);
            result.attentionFactor = scaling.attentionFactor.value_or(
                longRopeAttentionFactor(scaling.factor, context.originalMaxPositions));
            result.longRopeList = list;
            break;
        }
        case RopeScaling::Proportional:
            result.inverse =
                proportionalInverseFrequencies(d, context.base, scaling.ropeProportion);
            for (double& theta : result.inverse) theta /= scaling.factor;  // HF: inv_freq /= factor
            result.zeroFrequencyPairs = d / 2 - proportionalRotatedPairs(d, scaling.ropeProportion);
            break;
    }
    return result;
}

}  // namespace poslab
