#include "poslab/analysis/rope_precision.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numbers>
#include <string>
#include <utility>
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

// Every position of one pair, in blocks of 64. Most positions cannot change any result: their
// phase error is below both the running maximum's reach and the threshold, and a cheap upper
// bound of their cos/sin error (Taylor with Lagrange remainder, below) is under a value the
// maximum is already known to reach. A first, branch-free pass over the block finds them with a
// handful of multiplications each; only the others ("open" positions) take the careful path:
//   the phase error exactly (|angle - exact| < pi needs no remainder; past that an estimate
//   decides whether the exact remainder can matter);
//   the cos/sin error as an estimate with a proven bound on its distance from the exact value:
//   cos/sin of the exact angle m theta by angle addition from the block's first position (one
//   std::cos/sin per block) and a table of cos/sin of j theta, j < 64; cos/sin of the
//   low-precision angle from a cache (bfloat16 and float16 repeat an angle over long runs of
//   positions) or, in float32, by angle addition with Taylor series of the small difference,
//   rounded, and trusted only when no rounding boundary lies within the error.
// Only positions whose estimate could still be the maximum are recomputed exactly, so every
// number is the one a direct scan finds (RopePrecisionTest compares them bit for bit).
PairPrecision scanPair(double theta, FloatFormat format, long long maxPosition, double threshold,
                       const std::atomic<bool>* cancelled) {
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
    // The largest rounding error of a value in [-1, 1]: half an ulp of [0.5, 1).
    const double halfUlpOfOne = std::ldexp(1.0, -round.significandBits() - 1);
    std::array<double, kBlock> stepCos{}, stepSin{};
    for (int j = 0; j < kBlock; ++j) {
        stepCos[std::size_t(j)] = std::cos(double(j) * theta);
        stepSin[std::size_t(j)] = std::sin(double(j) * theta);
    }
    std::array<double, kBlock> exactAngle{}, lowAngle{}, cosExact{}, sinExact{}, settledPhase{};
    std::array<double, kBlock> errorBound{};  // of the cos/sin error
    std::array<double, kBlock> open{};        // 1: the position takes the careful path
    std::array<int, kBlock> openIndex{};
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
        if (cancelled && (first & 0xFFFF) == 0 && cancelled->load(std::memory_order_relaxed)) {
            return pair;  // thrown away by the caller
        }
        const int count = int(std::min<long long>(kBlock, maxPosition - first + 1));
        const double firstCos = std::cos(double(first) * theta);
        const double firstSin = std::sin(double(first) * theta);
        const double reachedBefore = bestLowerBound;
        // A position's phase error is settled here when it is |difference| itself (under pi)
        // and cannot be the first over the threshold.
        const bool firstKnown = pair.firstPositionOver >= 0;
        const double settledPhaseLimit = firstKnown ? kPi : threshold;
        const double phaseBefore = pair.maxPhaseError;
        // The last angle whose rounded cos/sin were computed exactly: bfloat16 and float16 keep
        // one angle over long runs of positions, so its exact error bound settles them too.
        const double knownAngle = cachedAngle, knownCos = cachedCos, knownSin = cachedSin;
        double settledPhaseMax = 0;
        const double firstPosition = double(first);
        // Branch-free over independent positions, with bool conditions and double results only
        // (an int from a double comparison, or a long long to double conversion, keeps GCC from
        // vectorising it on plain x86-64).
        for (int j = 0; j < count; ++j) {
            const std::size_t i = std::size_t(j);
            const double m = firstPosition + double(j);
            const double exact = m * theta;
            exactAngle[i] = exact;
            // round(round(m) * roundedTheta), right where both results are normal (or zero) and
            // finite; the rest (m = 0 aside: none in practice but float16's overflow and tiny
            // thetas) on the careful path.
            const double roundedM = roundFractionBits(m, shift);
            const double product = roundedM * roundedTheta;
            const double angle = roundFractionBits(product, shift);
            lowAngle[i] = angle;
            // Bitwise, not logical, operators here and below: no branch, so the loop vectorises
            // (the int casts say so to the compiler).
            const bool fast = int(roundedM <= maxFinite) & int(std::abs(angle) <= maxFinite) &
                              (int(std::abs(product) >= smallestFormatNormal) | int(product == 0));
            const double c = firstCos * stepCos[i] - firstSin * stepSin[i];
            const double s = firstSin * stepCos[i] + firstCos * stepSin[i];
            cosExact[i] = c;
            sinExact[i] = s;
            // |cos(e + d) - cos(e)| <= |d| |sin e| + d^2 / 2 (Lagrange remainder), likewise for
            // sin; plus the format's rounding of the result and the slack of c, s and libm.
            const double d = angle - exact;
            const double absD = std::abs(d);
            const double taylorBound = absD * (std::max(std::abs(c), std::abs(s)) + argumentSlack) +
                                       0.5 * d * d + halfUlpOfOne + 2 * argumentSlack + 1e-12;
            errorBound[i] = taylorBound;
            // A wrapped difference: its remainder estimated as below (nearest multiple of 2 pi
            // by the 1.5 * 2^52 trick, which rounds ties to even like nearbyint for |x| < 2^51),
            // settled when even its bound changes neither the maximum nor the first position.
            constexpr double kRoundingShift = 6755399441055744.0;  // 1.5 * 2^52
            const double turns = (d * kInverseTwoPi + kRoundingShift) - kRoundingShift;
            const double wrappedBound = std::abs(d - turns * kTwoPi) + 1e-12 + 1e-15 * absD;
            const bool phaseDirect = (absD < kPi) & (absD <= settledPhaseLimit);
            const bool phaseWrapped = (absD >= kPi) & (absD < 0x1p50) &
                                      (wrappedBound < phaseBefore) &
                                      (firstKnown | (wrappedBound <= threshold));
            // Settled but for the cos/sin bound: 1 with the phase error |d|, 2 wrapped.
            settledPhase[i] = (fast & phaseDirect) ? absD : -1.0;
            open[i] = (fast & phaseWrapped) ? 0.0 : 1.0;
        }
        // The run of one low-precision angle (separately: with it the pass above would not
        // vectorise).
        if (format != FloatFormat::Float32) {
            for (int j = 0; j < count; ++j) {
                const std::size_t i = std::size_t(j);
                const double knownBound =
                    std::max(std::abs(knownCos - cosExact[i]), std::abs(knownSin - sinExact[i])) +
                    argumentSlack;
                const double bound = lowAngle[i] == knownAngle ? knownBound : errorBound[i];
                errorBound[i] = std::min(errorBound[i], bound);
            }
        }
        for (int j = 0; j < count; ++j) {
            const std::size_t i = std::size_t(j);
            const bool boundBelow = errorBound[i] < reachedBefore;
            const bool direct = settledPhase[i] >= 0;
            const bool wrapped = open[i] == 0;
            open[i] = (boundBelow & (direct | wrapped)) ? 0.0 : 1.0;
            settledPhase[i] = (boundBelow & direct) ? settledPhase[i] : 0.0;
        }
        for (int j = 0; j < count; ++j) {  // (a max reduction of its own: the pass vectorises)
            settledPhaseMax = std::max(settledPhaseMax, settledPhase[std::size_t(j)]);
        }
        pair.maxPhaseError = std::max(pair.maxPhaseError, settledPhaseMax);
        int openCount = 0;
        for (int j = 0; j < count; ++j) {
            if (open[std::size_t(j)] != 0) openIndex[std::size_t(openCount++)] = j;
        }
        for (int k = 0; k < openCount; ++k) {
            const std::size_t i = std::size_t(openIndex[std::size_t(k)]);
            const long long m = first + openIndex[std::size_t(k)];
            // (bit for bit the fast rounding where that applies, so recomputing is always right)
            lowAngle[i] = round(round(double(m)) * roundedTheta);
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
            bool known = false;
            if (angle == cachedAngle) {
                roundedCos = cachedCos;
                roundedSin = cachedSin;
                known = true;
            } else if (format == FloatFormat::Float32 && std::abs(difference) <= kTaylorLimit) {
                // Taylor series of the small difference to d^14 and d^13.
                const double d = difference;
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
                roundedCos = roundFractionBits(cosAngle, shift);
                roundedSin = roundFractionBits(sinAngle, shift);
                // Trusted when both values are normal float32 numbers and no rounding boundary
                // lies within the estimate's error.
                known = std::abs(cosAngle) >= smallestNormal &&
                        std::abs(sinAngle) >= smallestNormal &&
                        roundFractionBits(cosAngle - taylorSlack, shift) == roundedCos &&
                        roundFractionBits(cosAngle + taylorSlack, shift) == roundedCos &&
                        roundFractionBits(sinAngle - taylorSlack, shift) == roundedSin &&
                        roundFractionBits(sinAngle + taylorSlack, shift) == roundedSin;
            }
            if (!known) {
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

// The report's first failing position over its pairs, and the pair.
void setFirstPair(RopePrecisionReport& report) {
    for (std::size_t i = 0; i < report.pairs.size(); ++i) {
        const PairPrecision& pair = report.pairs[i];
        if (pair.firstPositionOver >= 0 &&
            (report.firstPositionOver < 0 || pair.firstPositionOver < report.firstPositionOver)) {
            report.firstPositionOver = pair.firstPositionOver;
            report.firstPair = int(i);
        }
    }
}

// The checked options, as an empty report both scans fill.
Result<RopePrecisionReport> emptyReport(const RopeFrequencies& freqs, FloatFormat format,
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
    return report;
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
                                          long long maxPosition, double threshold,
                                          const std::atomic<bool>* cancelled) {
    auto started = emptyReport(freqs, format, maxPosition, threshold);
    if (!started) return started.error();
    RopePrecisionReport report = std::move(*started);
    // Pairs are independent, but their costs differ (the fast pairs' angles wrap, float16's
    // scan stops at its overflow): each worker takes the next pair not yet taken, so the cores
    // finish together. (parallelFor runs one worker on the calling thread where there are no
    // threads.)
    report.pairs.resize(freqs.inverse.size());
    const long long pairCount = static_cast<long long>(freqs.inverse.size());
    std::atomic<long long> nextPair{0};
    parallelFor(pairCount, 1, [&](long long, long long) {
        for (long long i = nextPair++; i < pairCount; i = nextPair++) {
            report.pairs[std::size_t(i)] =
                scanPair(freqs.inverse[std::size_t(i)], format, maxPosition, threshold, cancelled);
        }
    });
    setFirstPair(report);
    return report;
}

std::vector<long long> ropePrecisionSamplePositions(long long maxPosition) {
    constexpr long long kEveryPositionUpTo = 512;
    constexpr int kPerOctave = 32;
    constexpr long long kFloat16Overflow = 65520;  // the first position float16 rounds to inf
    std::vector<long long> positions;
    for (long long m = 0; m <= std::min(maxPosition, kEveryPositionUpTo); ++m) {
        positions.push_back(m);
    }
    for (long long octave = kEveryPositionUpTo; octave < maxPosition; octave *= 2) {
        positions.push_back(octave + 1);
        for (int step = 0; step < kPerOctave; ++step) {
            positions.push_back(
                std::llround(double(octave) * std::exp2(double(step) / kPerOctave)));
        }
    }
    positions.push_back(kFloat16Overflow);
    positions.push_back(maxPosition);
    std::erase_if(positions, [&](long long m) { return m > maxPosition; });
    std::sort(positions.begin(), positions.end());
    positions.erase(std::unique(positions.begin(), positions.end()), positions.end());
    return positions;
}

Result<RopePrecisionReport> ropePrecisionSampled(const RopeFrequencies& freqs, FloatFormat format,
                                                 long long maxPosition, double threshold) {
    auto started = emptyReport(freqs, format, maxPosition, threshold);
    if (!started) return started.error();
    RopePrecisionReport report = std::move(*started);
    const std::vector<long long> positions = ropePrecisionSamplePositions(maxPosition);
    const FastRounder round(format);
    const int shift = 53 - round.significandBits();
    const double maxFinite = round.maxFinite(), smallestFormatNormal = round.smallestNormal();
    const std::size_t count = positions.size();
    std::vector<double> at(count), roundedAt(count);  // m and round(m), the same for every pair
    for (std::size_t k = 0; k < count; ++k) {
        at[k] = double(positions[k]);
        roundedAt[k] = round(at[k]);
    }
    constexpr double kPi = std::numbers::pi;
    constexpr std::size_t kBlock = 64;
    std::array<double, kBlock> settled{};
    for (double theta : freqs.inverse) {
        PairPrecision pair;
        pair.theta = theta;
        const double roundedTheta = round(theta);
        for (std::size_t first = 0; first < count && pair.firstPositionOver < 0; first += kBlock) {
            const std::size_t n = std::min(kBlock, count - first);
            // Branch-free (it vectorises): the error is |difference| itself where the product
            // and the angle are normal and finite and it stays within the threshold; a block
            // with any other position takes the careful path below, position by position.
            double blockMax = 0, anyOpen = 0;
            for (std::size_t j = 0; j < n; ++j) {
                const double product = roundedAt[first + j] * roundedTheta;
                const double angle = roundFractionBits(product, shift);
                const double error = std::abs(angle - at[first + j] * theta);
                const bool fast =
                    int(std::abs(angle) <= maxFinite) &
                    (int(std::abs(product) >= smallestFormatNormal) | int(product == 0)) &
                    int(error <= threshold);
                settled[j] = fast ? error : 0.0;
                anyOpen = std::max(anyOpen, fast ? 0.0 : 1.0);
                blockMax = std::max(blockMax, settled[j]);
            }
            if (anyOpen == 0) {
                pair.maxPhaseError = std::max(pair.maxPhaseError, blockMax);
                continue;
            }
            for (std::size_t j = 0; j < n; ++j) {
                // The phase error as ropePrecision defines it: remainder(angle - m theta, 2 pi).
                const double angle = round(roundedAt[first + j] * roundedTheta);
                const double d = angle - at[first + j] * theta;
                double error = std::numeric_limits<double>::infinity();  // an overflowed angle
                if (std::isfinite(angle)) {
                    error = std::abs(d);
                    if (!(error < kPi)) error = std::abs(std::remainder(d, 2 * kPi));
                }
                pair.maxPhaseError = std::max(pair.maxPhaseError, error);
                if (error > threshold) {
                    pair.firstPositionOver = positions[first + j];
                    break;
                }
            }
        }
        report.pairs.push_back(pair);
    }
    setFirstPair(report);
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
