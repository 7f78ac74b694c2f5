// xpos.hpp — xPos, "A Length-Extrapolatable Transformer" (Sun et al. 2022), as torchscale
// computes it (torchscale/component/xpos_relative_position.py, class XPOS).
//
// xPos is RoPE on interleaved pairs (2i, 2i + 1) with every pair also scaled. Pair i has
//   zeta_i = (2i + gamma d) / ((1 + gamma) d) = (2i/d + gamma) / (1 + gamma),  gamma = 0.4
// (torchscale writes (arange(0, d, 2) + 0.4 d) / (1.4 d)). A query at position n is scaled by
// zeta_i^(n / scale_base), a key at position m by zeta_i^(-m / scale_base) (downscale=True), so
// q_n . k_m carries zeta_i^((n - m) / scale_base): below 1 when the key is behind the query, a
// decay that grows with distance, and the score still depends on n - m only.
//
// Where the code differs from the paper, and which this file follows (the code):
//  - Rotation angles use theta_i = 10000^(-2i/d): fixed_pos_embedding is called on a tensor of
//    d/2 columns and takes 10000^(-j/(d/2)). The base is a parameter here; 10000 is the code's.
//  - The scale exponent uses positions centred on the sequence: torchscale's forward() raises
//    zeta to (pos + min_pos) / scale_base with min_pos = floor(-L/2), while the rotation uses
//    pos itself. The centring cancels in q . k; it only changes the length of each vector.
//  - torchscale computes in float32; this file in double (differences ~1e-6 relative).
#pragma once

#include <vector>

#include "poslab/base/matrix.hpp"
#include "poslab/base/result.hpp"

namespace poslab {

// ---- Parameters
struct XposParams {
    int headDim = 64;        // d, even, 2..kMaxDModel
    double gamma = 0.4;      // zeta offset: 0..10 (0.4 in torchscale)
    double scaleBase = 512;  // scale_base: 1..1e9 (512 in torchscale)
    double base = 10000;     // rotation base: > 1 (10000 in torchscale)
    friend bool operator==(const XposParams&, const XposParams&) = default;  // caches key on it
};
Status validate(const XposParams& params);  // one-line error naming the parameter and range

// ---- Per-pair constants
std::vector<double> xposZeta(const XposParams& params);    // d/2 values zeta_i, i = 0..d/2-1
std::vector<double> xposThetas(const XposParams& params);  // d/2 values base^(-2i/d)

// ---- Rotating one vector (torchscale's apply_rotary_pos_emb with scale)
enum class XposRole { Query, Key };  // queries upscale (zeta^p), keys downscale (zeta^-p)
// x rotated to `position` and scaled by zeta^(+-(position + centre)/scale_base), centre =
// floor(-seqLen/2) as torchscale's forward(x) with x of seqLen positions and offset 0.
// x needs headDim values. Precondition: validate(params).
std::vector<double> xposApply(const std::vector<double>& x, int position, int seqLen, XposRole role,
                              const XposParams& params);

// ---- Scores against relative distance r = n - m (query n, key m)
// The envelope xPos multiplies RoPE by, averaged over pairs: mean_i zeta_i^(r/scale_base).
double xposDecay(const XposParams& params, double distance);
// q . k for q = k = all ones (every pair (1, 1)): sum_i 2 zeta_i^(r/sb) cos(r theta_i), and the
// same without zeta (plain RoPE, interleaved pairs, same thetas).
double xposOnesScore(const XposParams& params, double distance);
double ropeOnesScore(const XposParams& params, double distance);
// q_n . k_m for given q and k (headDim values each) as a function of r = n - m alone:
// sum_i zeta_i^(r/sb) [(q0 k0 + q1 k1) cos(r theta_i) - (q1 k0 - q0 k1) sin(r theta_i)] over pairs.
double xposScore(const std::vector<double>& q, const std::vector<double>& k,
                 const XposParams& params, double distance);
// seqLen x seqLen causal score matrix for q = k = ones: [n][m] = xposOnesScore(n - m) for m <= n,
// -inf for m > n (the future is masked).
Result<Matrix> xposScoreMatrix(const XposParams& params, int seqLen);

}  // namespace poslab
