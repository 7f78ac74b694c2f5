// kerple.hpp — KERPLE, "Kernelized Relative Positional Embedding for Length Extrapolation"
// (Chi, Fan, Ramadge & Rudnicky 2022), as the authors' Megatron/GPT-NeoX code computes it
// (chijames/KERPLE, megatron/mpu/layers.py: ParallelKerplePower, ParallelKerpleLog).
//
// Each head adds a conditionally positive definite kernel of the distance |m - n| to its logits:
//   power        -r1 |m - n|^r2            (the paper's "power" variant; r2 = 1 is ALiBi's form)
//   logarithmic  -r1 log(1 + r2 |m - n|)   (the variant the paper recommends)
// with r1, r2 learned per head.
//
// Where the code differs from the paper, and which this file follows (the code):
//  - Clamps. Before every forward pass the code clamps the parameters in place: every one to
//    >= 0.01 (eps = 1e-2), and the power exponent also to <= 2. kerpleEffective() applies them;
//    the bias always uses the clamped values, and the figures say when a value was clamped.
//  - Names. The code calls its parameters bias_p and bias_a, swapped between variants:
//      power  bias = -bias_a * diff^bias_p   so bias_a = r1 (scale), bias_p = r2 (exponent)
//      log    bias = -bias_p * log(1 + bias_a * diff)   so bias_p = r1 (scale), bias_a = r2
//    This file uses the paper's r1 (outside) and r2 (inside) for both.
//  - Causal. The code builds diff = tril(i - j): future keys get diff 0, hence bias 0, and are
//    then removed by the causal mask; here they are -inf (masked) directly.
#pragma once

#include <string_view>

#include "poslab/base/enum_names.hpp"
#include "poslab/base/matrix.hpp"
#include "poslab/base/result.hpp"

namespace poslab {

// ---- Parameters
enum class KerpleKernel { Power, Logarithmic };
inline constexpr EnumNames<KerpleKernel, 2> kKerpleKernelNames{
    {{KerpleKernel::Power, "power"}, {KerpleKernel::Logarithmic, "log"}}};
inline constexpr double kKerpleMinParameter = 0.01;  // the code's eps clamp
inline constexpr double kKerpleMaxExponent = 2.0;    // the power exponent's upper clamp
inline constexpr double kKerpleMaxInput = 1000.0;    // what validate() accepts (before clamping)

struct KerpleParams {
    KerpleKernel kernel = KerpleKernel::Logarithmic;
    double r1 = 1.0;  // scale outside: 0..1000, clamped to >= 0.01
    double r2 = 1.0;  // power: exponent, clamped to 0.01..2; log: inside scale, clamped >= 0.01
    friend bool operator==(const KerpleParams&, const KerpleParams&) = default;  // caches key on it
};
Status validate(const KerpleParams& params);               // r1, r2 finite in 0..1000
KerpleParams kerpleEffective(const KerpleParams& params);  // the code's clamps applied
bool kerpleClamped(const KerpleParams& params);            // a clamp changed r1 or r2

// ---- Bias
// The bias at distance |m - n| (>= 0) with the clamped parameters.
double kerpleBias(const KerpleParams& params, double distance);
// seqLen x seqLen: [i][j] = kerpleBias(i - j) for j <= i, -inf for j > i.
Result<Matrix> kerpleBiasMatrix(const KerpleParams& params, int seqLen);

}  // namespace poslab
