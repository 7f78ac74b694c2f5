// fire.hpp — FIRE, "Functional Interpolation for Relative Positions Improves Long Context
// Transformers" (Li et al. 2023, arXiv 2310.04418), as the public PyTorch implementation
// computes it (mcleish7/arithmetic, cramming/architectures/embeddings.py, class FIRE, written
// after the paper's appendix code).
//
// For query i and key j <= i (0-based positions):
//   phi(i, j) = psi(|i - j|) / (psi(max(i, L)) + eps),  psi(x) = log(|c x| + 1)
//   bias_h(i, j) = MLP(phi)_h,  MLP = Linear(1, width) -> ReLU -> Linear(width, heads)
// c (init 0.1) and L (init 512, through a learned multiplier) are learned; phi lies in [0, 1)
// for every i, which is the part that lets FIRE read positions beyond training: a long query
// sees its keys at the same fractions of its own (log) position.
//
// Where the code differs from the paper, and which this file follows (the code):
//  - eps = 1e-6 is added to the normaliser (the paper writes the plain quotient).
//  - c and L enter through absolute values (|c x|, |L_multiplier * init_L|).
//  - The MLP's weights here are seeded stand-ins for trained ones, drawn as torch's nn.Linear
//    default initialisation does: weights and biases uniform in +-1/sqrt(fan_in).
#pragma once

#include <cstdint>
#include <vector>

#include "poslab/base/matrix.hpp"
#include "poslab/base/result.hpp"

namespace poslab {

inline constexpr int kMaxFireHeads = 128;
inline constexpr int kMaxFireMlpWidth = 1024;

// ---- Parameters
struct FireParams {
    double c = 0.1;          // log transform scale: 1e-6..1e3 (init_c 0.1)
    double threshold = 512;  // L, the normaliser's floor: 1..1e9 (init_L 512)
    double eps = 1e-6;       // added to the normaliser: 0..1
    int mlpWidth = 32;       // hidden units: 1..1024 (mlp_width 32)
    int heads = 8;           // MLP outputs: 1..128
    int head = 0;            // which output, 0..heads-1
    std::uint64_t seed = 0;  // the MLP's weights
    friend bool operator==(const FireParams&, const FireParams&) = default;  // caches key on it
};
Status validate(const FireParams& params);

// ---- The interpolated distance
double firePsi(double c, double x);                                        // log(|c x| + 1)
double firePhi(const FireParams& params, long long query, long long key);  // uses |query - key|

// ---- The MLP
struct FireMlp {
    int width = 0, heads = 0;
    std::vector<double> w1, b1;  // width each (Linear(1, width))
    std::vector<double> w2;      // heads x width, row-major (Linear(width, heads))
    std::vector<double> b2;      // heads
};
// torch's nn.Linear default init from std::mt19937_64(seed): each value is
// low + (high - low) * (engine() >> 11) * 2^-53 with +-1/sqrt(fan_in), drawn in the order
// w1, b1, w2, b2. Precondition: width and heads >= 1.
FireMlp seededFireMlp(int width, int heads, std::uint64_t seed);
double fireMlpOutput(const FireMlp& mlp, int head, double phi);  // b2 + W2 relu(w1 phi + b1)
// One head of the MLP as the piecewise-linear function it is (a ReLU MLP of one input): a line
// between consecutive kinks -b1_k / w1_k, found by binary search. O(log width) per value
// instead of O(width), for figures that evaluate it per texel; equal to fireMlpOutput up to
// rounding (sums in another order: ~1e-15 relative).
struct FireMlpLines {
    std::vector<double> kinks;             // ascending
    std::vector<double> slope, intercept;  // kinks.size() + 1 lines, the first left of kinks[0]
    double operator()(double phi) const;
};
FireMlpLines fireMlpLines(const FireMlp& mlp, int head);

// ---- Matrices
// seqLen x seqLen: phi(i, j) for j <= i, -inf for j > i (causal).
Result<Matrix> firePhiMatrix(const FireParams& params, int seqLen);
// seqLen x seqLen: the seeded MLP's bias for `head`, -inf for j > i.
Result<Matrix> fireBiasMatrix(const FireParams& params, int seqLen);

}  // namespace poslab
