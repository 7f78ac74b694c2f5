// sandwich.hpp — Sandwich, from "Dissecting Transformer Length Extrapolation via the Lens of
// Receptive Field Analysis" (Chi, Fan, Rudnicky & Ramadge 2023), as NeMo computes it
// (nemo/.../position_embedding/sandwich_relative_position_embedding.py).
//
// The bias is the inner product of two sinusoidal position embeddings, which depends on the
// distance r = |m - n| only, shifted to 0 at r = 0 and divided by a per-head compression:
//   bias_h(r) = (sum_{i=1..d/2} cos(r * 10000^(-2i/d)) - d/2) / (8 h / H),  h = 1..H
// (8h/H grows linearly over the heads, the counterpart of ALiBi's geometric slopes 2^(-8h/H)).
//
// Where the implementations differ, and which this file follows (NeMo's, the complete one):
//  - The frequency index runs from 1 (torch.arange(1, d/2 + 1)), not from 0 as in the
//    Transformer's sinusoids: the fastest frequency is 10000^(-2/d), not 1.
//  - A copy circulating in forks uses arange(1, d/2) (one frequency short) and leaves out the
//    cosine; the paper and NeMo take the cosine of d/2 frequencies, as here.
//  - Causal: NeMo applies tril to the relative positions, so future keys get bias 0 before the
//    causal mask removes them; here they are -inf (masked) directly.
#pragma once

#include <vector>

#include "poslab/base/matrix.hpp"
#include "poslab/base/result.hpp"

namespace poslab {

inline constexpr int kMaxSandwichHeads = 128;

// ---- Parameters
struct SandwichParams {
    int headDim = 128;  // d (NeMo's hidden_size per head): even, 2..kMaxDModel
    int heads = 8;      // H: 1..128
    int head = 0;       // which head, 0..heads-1 (compression 8 (head + 1) / heads)
    friend bool operator==(const SandwichParams&,
                           const SandwichParams&) = default;  // caches key on it
};
Status validate(const SandwichParams& params);

// ---- Bias
std::vector<double> sandwichFrequencies(int headDim);      // 10000^(-2i/d), i = 1..d/2
double sandwichCompression(const SandwichParams& params);  // 8 (head + 1) / heads
// sum_{i=1..d/2} cos(r w_i) - d/2: 0 at r = 0, never positive.
double sandwichKernel(int headDim, double distance);
double sandwichBias(const SandwichParams& params, double distance);  // kernel / compression
// Biases at distances 0..count-1 in O(count d) with the phase grid (phase_grid.hpp).
std::vector<double> sandwichBiasByDistance(const SandwichParams& params, int count);
// seqLen x seqLen: [i][j] = sandwichBias(i - j) for j <= i, -inf for j > i.
Result<Matrix> sandwichBiasMatrix(const SandwichParams& params, int seqLen);

}  // namespace poslab
