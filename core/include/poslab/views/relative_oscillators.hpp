// relative_oscillators.hpp — the rotary members of the relative family (RoPE's and xPos's q.k
// for q = k = ones, xPos's decay, Sandwich's bias) as sums of damped oscillations
//   f(r) = (offset + Re sum_k weight_k exp(r w_k)) / divisor,   w_k = log|z_k| + i theta_k,
// evaluated without visiting every distance.
//
// Why: at head_dim 8,192 and L = 2^20 the per-offset route (every distance, every pair) is
// O(L d) = 4e9 terms (31 s for `render relative-family`). A texel of the causal L x L matrix is
// the mean of f(i - j) over a block of cells, and a block sum of exponentials has a closed form
// (a product of two geometric sums), so a heatmap costs O(texels a side x pairs) and a curve
// O(distances x pairs), whatever L is. Values are the exact block means of the formula, to
// rounding (the tests sum the cells one by one).
//
// Usage:
//   const Oscillators osc = xposOscillators(params);          // or ropeOnes..., sandwich...
//   double v = oscillatorValue(osc, 100);                     // one distance, O(pairs)
//   auto ys = oscillatorValues(osc, distances);               // many, O(1) per pair when even
//   HeatmapSample s = causalOscillatorSample(osc, L, maxRows, maxCols);  // block means
#pragma once

#include <complex>
#include <vector>

#include "poslab/base/heatmap_sample.hpp"
#include "poslab/encodings/sandwich.hpp"
#include "poslab/encodings/xpos.hpp"

namespace poslab {

// ---- The sums
struct Oscillators {
    std::vector<std::complex<double>> rate;  // w_k: log of the per-distance factor z_k
    std::vector<double> weight;              // real weight_k
    double offset = 0;                       // added to the sum (Sandwich: -d/2)
    double divisor = 1;  // the sum divided by it last (Sandwich's compression, xPos decay's d/2):
                         // weights stay 1 or 2, so f(0) is exact (Sandwich's 0, RoPE's d)
};
Oscillators xposOnesOscillators(const XposParams& params);   // sum 2 zeta^(r/sb) cos(r theta)
Oscillators ropeOnesOscillators(const XposParams& params);   // sum 2 cos(r theta) (xPos's thetas)
Oscillators xposDecayOscillators(const XposParams& params);  // mean zeta^(r/sb)
Oscillators sandwichOscillators(const SandwichParams& params);  // (sum cos(r w) - d/2) / compr.

// ---- Values
double oscillatorValue(const Oscillators& osc, double distance);  // direct, O(pairs)
// Values at ascending distances: where consecutive gaps repeat, one complex multiply per pair
// (restarted from exp every 64 steps, so rounding does not accumulate).
std::vector<double> oscillatorValues(const Oscillators& osc, const std::vector<double>& distances);

// ---- The causal L x L matrix M[i][j] = f(i - j) for j <= i, -inf for j > i
// Square texels of B = max(ceil(L / maxRows), ceil(L / maxCols)) cells a side, each the mean of
// its unmasked cells (BlockSummary::MeanOfUnmasked); B = 1: the cells themselves.
HeatmapSample causalOscillatorSample(const Oscillators& osc, int length, int maxRows, int maxCols);

}  // namespace poslab
