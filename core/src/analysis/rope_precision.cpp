#include "poslab/analysis/rope_precision.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <string>

#include "poslab/base/parallel.hpp"
#include "poslab/base/validate.hpp"

namespace poslab {

namespace {

struct FormatLimits {
    int significandBits;  // including the implicit leading 1
    int minExponent;      // exponent of the smallest subnormal's ulp: value = k * 2^minExponent
    double maxFinite;
};

FormatLimits limitsOf(FloatFormat format) {
    switch (format) {
        case FloatFormat::Float32:
            return {24, -149, double(std::numeric_limits<float>::max())};
        case FloatFormat::BFloat16:
            return {8, -133, std::ldexp(255.0, 120)};  // (2 - 2^-7) * 2^127
        case FloatFormat::Float16:
            return {11, -24, 65504.0};
    }
    return {53, -1074, std::numeric_limits<double>::max()};
}

PairPrecision scanPair(double theta, FloatFormat format, long long maxPosition, double threshold) {
    PairPrecision pair;
    pair.theta = theta;
    const double roundedTheta = roundToFormat(theta, format);
    for (long long m = 0; m <= maxPosition; ++m) {
        const double exact = double(m) * theta;
        const double angle = roundToFormat(roundToFormat(double(m), format) * roundedTheta, format);
        double error = std::numeric_limits<double>::infinity();
        if (std::isfinite(angle)) {
            error = std::abs(std::remainder(angle - exact, 2.0 * std::numbers::pi));
            const double cosError =
                std::abs(roundToFormat(std::cos(angle), format) - std::cos(exact));
            const double sinError =
                std::abs(roundToFormat(std::sin(angle), format) - std::sin(exact));
            pair.maxCosSinError = std::max({pair.maxCosSinError, cosError, sinError});
        } else {
            pair.maxCosSinError = std::numeric_limits<double>::infinity();
        }
        pair.maxPhaseError = std::max(pair.maxPhaseError, error);
        if (pair.firstPositionOver < 0 && error > threshold) pair.firstPositionOver = m;
    }
    return pair;
}

}  // namespace

std::string_view floatFormatName(FloatFormat format) {
    return enumName(kFloatFormatNames, format);
}

double roundToFormat(double value, FloatFormat format) {
    if (!std::isfinite(value) || value == 0.0) return value;
    const FormatLimits limits = limitsOf(format);
    int exponent = 0;
    std::frexp(value, &exponent);  // |value| = f * 2^exponent, f in [0.5, 1)
    const int ulpExponent = std::max(exponent - limits.significandBits, limits.minExponent);
    // Scaling by a power of two is exact, and nearbyint rounds ties to even in the default mode.
    const double rounded = std::ldexp(std::nearbyint(std::ldexp(value, -ulpExponent)), ulpExponent);
    if (std::abs(rounded) > limits.maxFinite) {
        return std::copysign(std::numeric_limits<double>::infinity(), value);
    }
    return rounded;
}

Result<RopePrecisionReport> ropePrecision(const RopeFrequencies& freqs, FloatFormat format,
                                          long long maxPosition, double threshold) {
    if (freqs.inverse.empty()) return Error{"the RoPE frequencies are empty"};
    if (auto s = requireIntInRange("max_position", maxPosition, 1, 1LL << 24); !s) {
        return s.error();
    }
    if (auto s = requireInRange("threshold", threshold, 0.0, std::numbers::pi, false); !s) {
        return s.error();
    }
    RopePrecisionReport report;
    report.format = format;
    report.maxPosition = maxPosition;
    report.threshold = threshold;
    // Pairs are independent: split them between the cores (each pair scans every position).
    report.pairs.resize(freqs.inverse.size());
    parallelFor(static_cast<long long>(freqs.inverse.size()), 1,
                [&](long long first, long long last) {
                    for (long long i = first; i < last; ++i) {
                        report.pairs[std::size_t(i)] =
                            scanPair(freqs.inverse[std::size_t(i)], format, maxPosition, threshold);
                    }
                });
    for (std::size_t i = 0; i < report.pairs.size(); ++i) {
        const PairPrecision& pair = report.pairs[i];
        if (pair.firstPositionOver >= 0 &&
            (report.firstPositionOver < 0 || pair.firstPositionOver < report.firstPositionOver)) {
            report.firstPositionOver = pair.firstPositionOver;
            report.firstPair = int(i);
        }
    }
    return report;
}

Result<std::vector<BasePrecision>> ropePrecisionByBase(int headDim,
                                                       const std::vector<double>& bases,
                                                       FloatFormat format, long long maxPosition,
                                                       double threshold) {
    std::vector<BasePrecision> out;
    for (double base : bases) {
        RopeParams params;
        params.headDim = headDim;
        params.base = base;
        auto freqs = ropeFrequencies(params);
        if (!freqs) return freqs.error();
        auto report = ropePrecision(*freqs, format, maxPosition, threshold);
        if (!report) return report.error();
        out.push_back({base, report->firstPositionOver, report->firstPair});
    }
    return out;
}

}  // namespace poslab
