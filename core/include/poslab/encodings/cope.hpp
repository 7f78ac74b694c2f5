// cope.hpp — Contextual Position Encoding (CoPE; Golovneva et al. 2024), as the authors' code
// computes it (facebookresearch/RAM, projects/cope/src/cope/context_position.py).
//
// One head, queries q_i and keys k_j (rows), head width d:
//   gates      g_ij = sigmoid(q_i . k_j / sqrt(d)) times the causal mask (0 for j > i)
//   positions  p_ij = sum_{k = j..n-1} g_ik = sum_{k = j..i} g_ik   (a reversed cumulative sum)
//              clamped to at most npos - 1 (npos defaults to block_size + 1: p = 0 is possible)
//   logits     z_i[t] = q_i . e[t] for the integer positions t = 0..npos-1 (e: d x npos table)
//   bias       b_ij = z_i[ceil p] w + z_i[floor p] (1 - w),  w = p - floor p
//   scores     (q_i . k_j + b_ij) / sqrt(d)   (the default; --cope-nodiv adds b after dividing)
// Where the code differs from the paper: the paper writes g_ij = sigmoid(q_i . k_j); the code
// divides by sqrt(d) first (gate_logits / sqrt(head_dim)). The paper's sum runs to i; the code
// sums to the end of the row and relies on the mask's zeros. The clamp to npos - 1 is the code's.
//
// With every gate 1, p_ij = i - j + 1 for j <= i: the count of tokens from the key to the query,
// both included (the usual token distance plus one). Gates of 1 on some tokens and 0 on others
// count those tokens only: words, sentences, whatever the head has learned to gate on.
#pragma once

#include "poslab/base/matrix.hpp"
#include "poslab/base/result.hpp"

namespace poslab {

inline constexpr int kMaxCopePositions = 1 << 16;  // npos: 1..65536

// ---- Parameters of one CoPE head
struct CopeParams {
    int npos = 65;            // positions with an embedding (the code's cope_npos), 1..65536
    bool causal = true;       // multiply the gates by the causal mask
    bool divideGates = true;  // sigmoid(q.k / sqrt(d)) as the code does (false: the paper's)
    friend bool operator==(const CopeParams&,
                           const CopeParams&) = default;  // member-wise: caches key on it
};
Status validate(const CopeParams& params);  // "npos must be 1..65536 (got 0)"

// ---- The steps (each n x n unless said otherwise)
double sigmoid(double x);  // 1 / (1 + e^-x), without overflow for large |x|
// Gates from gate logits q_i . k_j (not yet divided): sigmoid(logit / sqrt(headDim)) when
// params.divideGates, else sigmoid(logit); 0 above the diagonal when params.causal.
Matrix copeGates(const Matrix& gateLogits, int headDim, const CopeParams& params);
// p_ij = sum_{k >= j} g_ik, clamped to npos - 1. Square gates only.
Matrix copePositions(const Matrix& gates, const CopeParams& params);
// b_ij from the n x npos integer-position logits z (z_i[t] = q_i . e[t]) and the positions:
// linear interpolation between floor(p) and ceil(p). Positions must lie in [0, npos - 1].
Result<Matrix> copeInterpolatedLogits(const Matrix& positionLogits, const Matrix& positions);
// z = q e: rows of q (n x d) times the d x npos table.
Result<Matrix> copePositionLogits(const Matrix& queries, const Matrix& table);

}  // namespace poslab
