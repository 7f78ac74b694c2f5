// rope_precision.hpp — how far low-precision RoPE angles drift from float64.
//
// Frameworks that build cos/sin in a narrow type round three times: the inverse frequency theta_i,
// the position m, and their product m * theta_i; cos and sin of that angle are rounded again. The
// phase error is the distance, modulo 2 pi, between that angle and m * theta_i in float64. It
// grows with m (the product's ulp grows with its size) and is worst for the fast pairs, whose
// angles are largest. float16 also overflows: positions above 65519 round to infinity.
// (HF transformers computes the angle in float32 even for bf16 models, with autocast disabled.)
#pragma once

#include <atomic>
#include <string_view>
#include <vector>

#include "poslab/base/enum_names.hpp"
#include "poslab/base/result.hpp"
#include "poslab/encodings/rope.hpp"

namespace poslab {

enum class FloatFormat { Float32, BFloat16, Float16 };

inline constexpr EnumNames<FloatFormat, 3> kFloatFormatNames{{{FloatFormat::Float32, "float32"},
                                                              {FloatFormat::BFloat16, "bfloat16"},
                                                              {FloatFormat::Float16, "float16"}}};
std::string_view floatFormatName(FloatFormat format);  // "float32", "bfloat16", "float16"
// Round a double to the nearest value of the format, ties to even, with subnormals, and to
// +-infinity past the largest finite value (float16: 65504; bfloat16: about 3.39e38).
double roundToFormat(double value, FloatFormat format);


struct PairPrecision {
    double theta = 0;                  // float64 inverse frequency
    long long firstPositionOver = -1;  // first m with phase error > threshold; -1: none up to max
    double maxPhaseError = 0;          // over positions 0..max (inf if the format overflowed)
    double maxCosSinError = 0;         // max |round(cos(angle)) - cos(m theta)|, same for sin
};
struct RopePrecisionReport {
    FloatFormat format = FloatFormat::Float32;
    long long maxPosition = 0;
    double threshold = 0.1;
    std::vector<PairPrecision> pairs;  // one per pair of freqs
    long long firstPositionOver = -1;  // min over pairs (-1: none)
    int firstPair = -1;                // the pair where that happens first
};
// Scans every position 0..maxPosition (<= 1<<24) for each pair; O(pairs * maxPosition).
// `cancelled` (may be null), once set, stops the scan early: its report is then meaningless.
Result<RopePrecisionReport> ropePrecision(const RopeFrequencies& freqs, FloatFormat format,
                                          long long maxPosition = 1 << 20, double threshold = 0.1,
                                          const std::atomic<bool>* cancelled = nullptr);

// The positions ropePrecisionSampled checks, ascending, up to maxPosition: every one up to 512;
// past that 32 per octave from each power of two (each about 2.2 % past the last), 2^k + 1 (the
// first position a format rounds once it stops holding every integer) and 65520 (float16's first
// overflow); and maxPosition itself. 811 of them up to 2^18.
std::vector<long long> ropePrecisionSamplePositions(long long maxPosition);
// A coarse scan for a control that moves (a few milliseconds where ropePrecision takes a
// second): the same error at ropePrecisionSamplePositions only, one thread. firstPositionOver
// is the first of those over the threshold, so never before ropePrecision's (the same where the
// error grows steadily; later, or none, where a lone position pokes over first); each pair stops
// there, and maxPhaseError is the largest it met until then; maxCosSinError is not computed (0).
Result<RopePrecisionReport> ropePrecisionSampled(const RopeFrequencies& freqs, FloatFormat format,
                                                 long long maxPosition, double threshold = 0.1);

// How the first failing position moves with rope_theta: for each base, default frequencies of
// headDim dims, and the earliest position (over all pairs) past the threshold.
struct BasePrecision {
    double base = 0;
    long long firstPositionOver = -1;
    int firstPair = -1;
};
Result<std::vector<BasePrecision>> ropePrecisionByBase(int headDim,
                                                       const std::vector<double>& bases,
                                                       FloatFormat format,
                                                       long long maxPosition = 1 << 20,
                                                       double threshold = 0.1);

}  // namespace poslab
