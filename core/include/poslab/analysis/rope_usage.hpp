// rope_usage.hpp — which rotary frequencies a trained model uses, from its weights alone.
//
// Barbero et al., "Round and Round We Go! What makes Rotary Positional Encodings useful?"
// (arXiv 2410.06205), section 5: a pair's contribution to q . k is bounded by the norms of the
// query and key components that pair carries; over all inputs, by the norms of the W_q and W_k
// rows that produce them. So for layer l, query head h and rotary pair i:
//   query(l, h, i) = || W_q rows of head h that form pair i ||_F   (two rows: sqrt(a^2 + b^2))
//   key(l, g, i)   = || W_k rows of key head g that form pair i ||_F, g = h / (heads / kvHeads)
//   usage(l, h, i) = query(l, h, i) * key(l, g, i)
// g is the key head HF's repeat_kv gives query head h under grouped-query attention. Which two
// rows form pair i follows the checkpoint's pairing: Half (rows i, i + d/2 of the head, HF's
// rotate_half layout) or Interleaved (rows 2i, 2i + 1); d = rotated dims, the rest of the head is
// NoPE and not counted. Pair 0 is the fastest (theta_0 = 1 rad/token), pair d/2 - 1 the slowest.
//
// This is a weights-only measure: an upper bound on how much each pair can move a score, blind
// to the activations the model actually produces (and to biases).
#pragma once

#include <vector>

#include "poslab/base/matrix.hpp"
#include "poslab/base/result.hpp"
#include "poslab/encodings/rope.hpp"

namespace poslab {

// ---- The input: one squared norm per projection row
struct ProjectionRowSquares {
    int layers = 0, heads = 0, kvHeads = 0, headDim = 0;
    int rotatedDims = 0;  // even, 2..headDim: int(headDim * rotary fraction)
    RopePairing pairing = RopePairing::Half;
    const std::vector<double>* query = nullptr;  // layers x heads x headDim, row sums of w^2
    const std::vector<double>* key = nullptr;    // layers x kvHeads x headDim
};

// The two rows of a head (0-based within the head) that rotary pair `pair` rotates together.
struct PairRows {
    int first = 0, second = 0;
};
PairRows rotaryPairRows(int pair, int rotatedDims, RopePairing pairing);

// ---- The measure
struct RopeUsage {
    int layers = 0, heads = 0, kvHeads = 0, pairs = 0;
    std::vector<double> query;  // layers x heads x pairs
    std::vector<double> key;    // layers x kvHeads x pairs
    std::vector<double> usage;  // layers x heads x pairs: query * key of its key head
    double at(int layer, int head, int pair) const {  // usage
        return usage[(std::size_t(layer) * heads + head) * pairs + pair];
    }
    int keyHeadOf(int head) const { return head / (heads / kvHeads); }  // HF's repeat_kv
};
Result<RopeUsage> ropeUsage(const ProjectionRowSquares& rows);

// ---- Summaries for the figures
Matrix usageByLayer(const RopeUsage& usage);                     // layers x pairs, mean over heads
Result<Matrix> usageOfLayer(const RopeUsage& usage, int layer);  // heads x pairs
std::vector<double> meanUsagePerPair(const RopeUsage& usage);    // pairs: mean over layers, heads
// The share of total mean usage carried by the pairs p-RoPE keeps at fraction p: the fastest
// floor(p * pairs) (as rope.hpp's comparePartialRotary counts them).
double keptUsageShare(const std::vector<double>& meanPerPair, double p);

}  // namespace poslab
