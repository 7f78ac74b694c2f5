#include "poslab/analysis/rope_precision.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numbers>
#include <string>
#include <vector>

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

// roundToFormat by bit operations where the result is a normal number of the format (every
// position, every angle and nearly every cos/sin the scan rounds): round-to-nearest-even of the
// double's 52-bit fraction to significandBits - 1 bits, a carry moving into the exponent. Zero,
// the format's subnormal range, infinities and NaN go through roundToFormat. Same results bit for
// bit (RopePrecisionTest checks both against each other and the scan against a scalar one).
class FastRounder {
  public:
    explicit FastRounder(FloatFormat format)
        : format_(format),
          limits_(limitsOf(format)),
          shift_(53 - limits_.significandBits),
          smallestNormal_(std::ldexp(1.0, limits_.minExponent + limits_.significandBits - 1)) {}
    double operator()(double value) const {
        const double magnitude = std::abs(value);
        if (!(magnitude >= smallestNormal_ && magnitude <= std::numeric_limits<double>::max())) {
            return roundToFormat(value, format_);
        }
        auto bits = std::bit_cast<std::uint64_t>(value);
        bits += ((std::uint64_t{1} << (shift_ - 1)) - 1) + ((bits >> shift_) & 1);
        bits &= ~((std::uint64_t{1} << shift_) - 1);
        const double rounded = std::bit_cast<double>(bits);
        if (std::abs(rounded) > limits_.maxFinite) {
            return std::copysign(std::numeric_limits<double>::infinity(), value);
        }
        return rounded;
    }
    int significandBits() const { return limits_.significandBits; }
    double smallestNormal() const { return smallestNormal_; }
    double maxFinite() const { return limits_.maxFinite; }

  private:
    FloatFormat format_;
    FormatLimits limits_;
    int shift_;
    double smallestNormal_;
};

// The cos/sin error of one position exactly as the definition reads (std::cos, std::sin).
double cosSinError(long long position, double theta, double roundedTheta, FloatFormat format) {
    const double exact = double(position) * theta;
    const double angle =
        roundToFormat(roundToFormat(double(position), format) * roundedTheta, format);
    const double cosError = std::abs(roundToFormat(std::cos(angle), format) - std::cos(exact));
    const double sinError = std::abs(roundToFormat(std::sin(angle), format) - std::sin(exact));
    return std::max(cosError, sinError);
}

// Round-to-nearest-even to `shift` fewer fraction bits, without branches: right for normal
// results only (the caller checks the range), so that a loop of them vectorises.
inline double roundFractionBits(double value, int shift) {
    auto bits = std::bit_cast<std::uint64_t>(value);
    bits += ((std::uint64_t{1} << (shift - 1)) - 1) + ((bits >> shift) & 1);
    bits &= ~((std::uint64_t{1} << shift) - 1);
    return std::bit_cast<double>(bits);
}

// Every position of one pair, in blocks of 64. The phase error is exact per position (cheap:
// roundings by bit operations, and |angle - exact| < pi needs no remainder). The cos/sin error
// needs four trigonometric calls per position if done directly, which made the scan take
// seconds; instead each position gets an estimate with a proven bound on its distance from the
// exact value:
//   cos/sin of the exact angle m theta by angle addition from the block's first position (one
//   std::cos/sin per block) and a table of cos/sin of j theta, j < 64;
//   cos/sin of the low-precision angle from a cache (bfloat16 and float16 repeat an angle over
//   long runs of positions) or, in float32, by angle addition with Taylor series of the small
//   difference, rounded, and trusted only when no rounding boundary lies within the error.
// Only positions whose estimate could still be the maximum are recomputed exactly, so the
// maximum is the one a direct scan finds.
PairPrecision scanPair(double theta, FloatFormat format, long long maxPosition, double threshold) {
    constexpr double kPi = std::numbers::pi;
    constexpr double kTwoPi = 2.0 * std::numbers::pi;
    constexpr double kInverseTwoPi = 0.5 / std::numbers::pi;
    constexpr double kInfinity = std::numeric_limits<double>::infinity();
    constexpr int kBlock = 64;
    constexpr double kTaylorLimit = 0.5;  // |difference| up to which the series below are used
    PairPrecision pair;
    pair.theta = theta;
    const FastRounder round(format);
    const int shift = 53 - round.significandBits();
    const double smallestNormal = std::ldexp(1.0, -126);  // float32's
    const double roundedTheta = roundToFormat(theta, format);
    // Distance of the estimated cos/sin from std::cos/sin(double(m) * theta): a few ulp of
    // rounding plus the rounding of the arguments (2^-53 of m theta each); over-estimated.
    const double argumentSlack = 1e-12 + 1e-15 * double(maxPosition) * std::abs(theta);
    // The same for cos/sin of the low-precision angle by angle addition (series truncation
    // under 1e-15 for |d| <= 0.5).
    const double taylorSlack = 2 * argumentSlack + 1e-14;
    std::array<double, kBlock> stepCos{}, stepSin{};
    for (int j = 0; j < kBlock; ++j) {
        stepCos[std::size_t(j)] = std::cos(double(j) * theta);
        stepSin[std::size_t(j)] = std::sin(double(j) * theta);
    }
    std::array<double, kBlock> exactAngle{}, lowAngle{}, cosExact{}, sinExact{};
    std::array<double, kBlock> taylorCos{}, taylorSin{};
    std::array<unsigned char, kBlock> taylorTrusted{}, fastAngle{};
    const double maxFinite = round.maxFinite(), smallestFormatNormal = round.smallestNormal();
    double cachedAngle = std::numeric_limits<double>::quiet_NaN(), cachedCos = 0, cachedSin = 0;
    struct Candidate {
        long long position;
        double upperBound;
    };
    std::vector<Candidate> candidates;
    std::size_t compactAt = 64;
    double bestLowerBound = 0;  // the maximum is at least this (and at least 0)
    bool overflowed = false;
    for (long long first = 0; first <= maxPosition && !overflowed; first += kBlock) {
        const int count = int(std::min<long long>(kBlock, maxPosition - first + 1));
        const double firstCos = std::cos(double(first) * theta);
        const double firstSin = std::sin(double(first) * theta);
        for (int j = 0; j < count; ++j) {  // independent positions: they overlap in the CPU
            const std::size_t i = std::size_t(j);
            const double m = double(first + j);
            exactAngle[i] = m * theta;
            // round(round(m) * roundedTheta), branch-free where both results are normal (or
            // zero) and finite; the rest (m = 0 aside: none in practice but float16's overflow
            // and tiny thetas) below.
            const double roundedM = roundFractionBits(m, shift);
            const double product = roundedM * roundedTheta;
            const double angle = roundFractionBits(product, shift);
            lowAngle[i] = angle;
            fastAngle[i] = int(roundedM <= maxFinite) & int(std::abs(angle) <= maxFinite) &
                           (int(std::abs(product) >= smallestFormatNormal) | int(product == 0));
            cosExact[i] = firstCos * stepCos[i] - firstSin * stepSin[i];
            sinExact[i] = firstSin * stepCos[i] + firstCos * stepSin[i];
        }
        for (int j = 0; j < count; ++j) {
            const std::size_t i = std::size_t(j);
            if (!fastAngle[i]) lowAngle[i] = round(round(double(first + j)) * roundedTheta);
        }
        if (format == FloatFormat::Float32) {
            for (int j = 0; j < count; ++j) {  // branch-free, so it vectorises
                const std::size_t i = std::size_t(j);
                const double d = lowAngle[i] - exactAngle[i];
                // Taylor series to d^14 and d^13, multiplications only.
                const double d2 = d * d;
                const double cosD =
                    1 + d2 * (-1.0 / 2 +
                              d2 * (1.0 / 24 +
                                    d2 * (-1.0 / 720 +
                                          d2 * (1.0 / 40320 +
                                                d2 * (-1.0 / 3628800 +
                                                      d2 * (1.0 / 479001600 +
                                                            d2 * (-1.0 / 87178291200.0)))))));
                const double sinD =
                    d * (1 + d2 * (-1.0 / 6 +
                                   d2 * (1.0 / 120 +
                                         d2 * (-1.0 / 5040 +
                                               d2 * (1.0 / 362880 + d2 * (-1.0 / 39916800 +
                                                                          d2 / 6227020800.0))))));
                const double cosAngle = cosExact[i] * cosD - sinExact[i] * sinD;
                const double sinAngle = sinExact[i] * cosD + cosExact[i] * sinD;
                const double roundedCos = roundFractionBits(cosAngle, shift);
                const double roundedSin = roundFractionBits(sinAngle, shift);
                taylorCos[i] = roundedCos;
                taylorSin[i] = roundedSin;
                // Trusted: the series applies, both values are normal float32 numbers, and no
                // rounding boundary lies within the estimate's error.
                // (int: & of all terms, no short-circuit branches, so the loop vectorises.)
                taylorTrusted[i] =
                    int(std::abs(d) <= kTaylorLimit) & int(std::abs(cosAngle) >= smallestNormal) &
                    int(std::abs(sinAngle) >= smallestNormal) &
                    int(roundFractionBits(cosAngle - taylorSlack, shift) == roundedCos) &
                    int(roundFractionBits(cosAngle + taylorSlack, shift) == roundedCos) &
                    int(roundFractionBits(sinAngle - taylorSlack, shift) == roundedSin) &
                    int(roundFractionBits(sinAngle + taylorSlack, shift) == roundedSin);
            }
        }
        for (int j = 0; j < count; ++j) {
            const std::size_t i = std::size_t(j);
            const long long m = first + j;
            const double angle = lowAngle[i];
            if (!std::isfinite(angle)) {
                // As in a direct scan: error infinite here, so every maximum is infinite from
                // now on and the first position over the threshold is known.
                pair.maxPhaseError = kInfinity;
                if (pair.firstPositionOver < 0) pair.firstPositionOver = m;
                overflowed = true;
                break;
            }
            const double difference = angle - exactAngle[i];
            // remainder(x, 2 pi) is x itself for |x| < pi. Past that (wrapped angles) an
            // estimate decides whether the exact remainder can matter: a new maximum, or the
            // first position over the threshold.
            double error = std::abs(difference);
            if (!(error < kPi)) {
                const double estimate =
                    std::abs(difference - std::nearbyint(difference * kInverseTwoPi) * kTwoPi);
                // Its error: a few roundings of numbers the size of the difference.
                const double bound = estimate + 1e-12 + 1e-15 * error;
                if (bound >= pair.maxPhaseError ||
                    (pair.firstPositionOver < 0 && bound > threshold)) {
                    error = std::abs(std::remainder(difference, kTwoPi));
                } else {
                    error = 0;  // below both: changes neither
                }
            }
            pair.maxPhaseError = std::max(pair.maxPhaseError, error);
            if (pair.firstPositionOver < 0 && error > threshold) pair.firstPositionOver = m;

            double roundedCos = 0, roundedSin = 0;
            if (angle == cachedAngle) {
                roundedCos = cachedCos;
                roundedSin = cachedSin;
            } else if (format == FloatFormat::Float32 && taylorTrusted[i]) {
                roundedCos = taylorCos[i];
                roundedSin = taylorSin[i];
            } else {
                cachedAngle = angle;
                cachedCos = roundedCos = round(std::cos(angle));
                cachedSin = roundedSin = round(std::sin(angle));
            }
            const double estimate =
                std::max(std::abs(roundedCos - cosExact[i]), std::abs(roundedSin - sinExact[i]));
            if (estimate + argumentSlack < bestLowerBound) continue;
            bestLowerBound = std::max(bestLowerBound, estimate - argumentSlack);
            candidates.push_back({m, estimate + argumentSlack});
            if (candidates.size() >= compactAt) {
                std::erase_if(candidates,
                              [&](const Candidate& c) { return c.upperBound < bestLowerBound; });
                compactAt = std::max<std::size_t>(64, 2 * candidates.size());
            }
        }
    }
    if (overflowed) {
        pair.maxCosSinError = kInfinity;
        return pair;
    }
    for (const Candidate& candidate : candidates) {
        if (candidate.upperBound < bestLowerBound) continue;
        pair.maxCosSinError = std::max(
            pair.maxCosSinError, cosSinError(candidate.position, theta, roundedTheta, format));
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
