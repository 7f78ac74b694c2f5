// alibi.hpp — Attention with Linear Biases (Press, Smith & Lewis 2022, "Train Short, Test Long").
//
// ALiBi adds no position vectors. Each head h adds -m_h * (i - j) to the logit of query i and
// key j, a penalty that grows linearly with distance. The slopes m_h are a geometric sequence
// fixed before training, computed as get_slopes(n) in the authors' fairseq code
// (ofirpress/attention_with_linear_biases, fairseq/models/transformer.py):
//
//   n a power of two   start = 2^(-2^-(log2(n) - 3)) = 2^(-8/n),  m_h = start * start^h
//   otherwise          p = 2^floor(log2 n):  get_slopes(p) + get_slopes(2p)[0::2][:n - p]
//
// So 8 heads get 1/2, 1/4, ..., 1/256, and 12 heads get those 8 followed by the 16-head slopes
// at even indices (2^-0.5, 2^-1.5, 2^-2.5, 2^-3.5): the list is not sorted when n is not a
// power of two. fairseq adds +m * j to every row instead of -m * (i - j); the two differ by a
// per-row constant, which softmax ignores, so the attention is the same.
#pragma once

#include <utility>
#include <vector>

#include "poslab/base/matrix.hpp"
#include "poslab/base/parameter.hpp"
#include "poslab/base/result.hpp"

namespace poslab {

inline constexpr int kMaxAlibiHeads = 128;

// ---- Descriptors (parameter.hpp): validate(), the sliders, the options and sessions read these
inline constexpr IntParameter kAlibiHeadsParam{
    "heads", "heads", 1, kMaxAlibiHeads, 8, "number of heads", ParameterScale::Linear, "heads"};

struct AlibiParams {
    int heads = 8;           // number of attention heads, 1..128 (sets the slopes)
    int head = 0;            // which head's slope to use, 0..heads-1
    int seqLen = 64;         // rows and columns of the bias matrix, 1..kMaxSeqLen
    bool symmetric = false;  // -m |i - j| with no mask (encoder form) instead of causal
    friend bool operator==(const AlibiParams&,
                           const AlibiParams&) = default;  // member-wise: caches key on it
};

// ---- Slopes
std::vector<double> alibiSlopes(int heads);  // get_slopes(heads) in double; empty if heads < 1

// ---- Validation and the bias matrix
Status validate(const AlibiParams& params);  // ranges and memory cap
// Bias for query i, key j: causal -m (i - j) for j <= i and -infinity for j > i (the future is
// masked); symmetric -m |i - j| everywhere.
double alibiBiasValue(double slope, int query, int key, bool symmetric);
Result<Matrix> alibiBias(const AlibiParams& params);  // seqLen x seqLen, row = query, col = key

// ---- Attention preview
// softmax_j(contentLogits[j] + bias(queryIndex, j)) for j = 0..seqLen-1, computed stably (the
// largest unmasked logit is subtracted first). Masked keys (causal, j > queryIndex) get exactly
// 0. slope: 0..1e6. contentLogits must hold seqLen finite values, or be empty to mean all zeros
// (position only).
Result<std::vector<double>> alibiAttentionRow(double slope, int queryIndex, int seqLen,
                                              const std::vector<double>& contentLogits,
                                              bool symmetric);
// The same row written into `weights` (resized to seqLen), for callers of many rows: the buffer
// is reused, no allocation per row. nonZero (if given): keys [first, end); every weight outside
// is exactly 0 (masked, or so far from the query that its exp() underflows).
Status alibiAttentionRowInto(double slope, int queryIndex, int seqLen,
                             const std::vector<double>& contentLogits, bool symmetric,
                             std::vector<double>& weights, std::pair<int, int>* nonZero = nullptr);

}  // namespace poslab
