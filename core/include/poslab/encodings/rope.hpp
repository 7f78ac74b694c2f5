// rope.hpp — rotary position embedding (Su et al. 2021, "RoFormer"), as Hugging Face applies it.
//
// The first d = int(head_dim * rotary_fraction) dimensions of a query or key are split into d/2
// pairs; pair i at position m is rotated by the angle m * theta_i, theta_i = base^(-2i/d) (or a
// scaled variant, see rope_scaling.hpp). The remaining head_dim - d dimensions pass through.
//
//   Half         dim j pairs with j + d/2: Llama, GPT-NeoX, Mistral, Qwen (HF's rotate_half)
//   Interleaved  dim 2i pairs with 2i + 1: GPT-J, RoFormer, Mesh-TF (rotate_every_two)
//
// Both rotate (x1, x2) to (x1 cos - x2 sin, x2 cos + x1 sin), then multiply by the attention
// factor (1 except for yarn), as HF multiplies cos and sin by attention_scaling. So
// q_m . k_n depends on m - n only, and the two pairings are the same map up to a permutation.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "poslab/base/enum_names.hpp"
#include "poslab/base/matrix.hpp"
#include "poslab/base/result.hpp"
#include "poslab/encodings/rope_scaling.hpp"

namespace poslab {

enum class RopePairing { Half, Interleaved };

struct RopeParams {
    int headDim = 128;                        // 2..8192
    double base = 10000;                      // rope_theta: > 1 and <= 1e12
    double rotaryFraction = 1.0;              // partial_rotary_factor: (0, 1]
    RopePairing pairing = RopePairing::Half;  // which dimensions form a pair
    RopeScalingParams scaling;                // context extension (none by default)
    int seqLen = 4096;          // current sequence length (dynamic-ntk depends on it), >= 1
    int trainingLength = 4096;  // max_position_embeddings / original training context, >= 1
    friend bool operator==(const RopeParams&, const RopeParams&) = default;  // member-wise: caches key on it
};

// ---- Names, for the command line, the GUI and saved files
inline constexpr EnumNames<RopePairing, 2> kPairingNames{
    {{RopePairing::Half, "half"}, {RopePairing::Interleaved, "interleaved"}}};
std::string_view pairingName(RopePairing pairing);        // "half", "interleaved"
Result<RopePairing> parsePairing(std::string_view name);  // inverse of pairingName()

// ---- Validation and frequencies
Status validate(const RopeParams& params);  // every field the chosen scaling reads
int rotatedDims(const RopeParams& params);  // int(head_dim * rotary_fraction), truncated as HF
int originalMaxPositions(const RopeParams& params);  // L0: scaling's value, else trainingLength
Result<RopeFrequencies> ropeFrequencies(const RopeParams& params);      // scaled per params
Result<RopeFrequencies> unscaledFrequencies(const RopeParams& params);  // HF "default"

// ---- Two ways to rotate only a fraction p of a head, side by side
// GPT-NeoX partial rotary (partial_rotary_factor, rotary_pct): d' = int(p * head_dim) dims rotate
// with theta_i = base^(-2i/d'), so the d'/2 pairs span the whole frequency range.
// p-RoPE (Gemma's "proportional"): the fastest floor(p * head_dim / 2) pairs keep their full-RoPE
// theta_i = base^(-2i/head_dim); the slow remainder is dropped (theta = 0, NoPE channels).
struct PartialRotaryComparison {
    std::vector<double> neoxPartial;   // int(p * head_dim) / 2 entries
    std::vector<double> proportional;  // head_dim / 2 entries, zeros after the rotated ones
    int neoxRotatedDims = 0;           // int(p * head_dim), HF truncation (must be even)
    int proportionalRotatedPairs = 0;  // floor(p * head_dim / 2)
};
Result<PartialRotaryComparison> comparePartialRotary(int headDim, double base, double fraction);

// ---- Wavelengths
std::vector<double> ropeWavelengths(const RopeFrequencies& freqs);  // 2 pi / theta_i, positions
// true for pairs whose wavelength exceeds contextLength: they turn less than once in the context,
// so the model never saw their full circle (these are what the scalings interpolate).
std::vector<bool> ropeIncompleteTurns(const RopeFrequencies& freqs, double contextLength);
// What a scaled model meets that it never saw: true for pairs that never closed a turn in
// training (2 pi / theta_i > trainingLength, the unscaled theta_i) and whose scaled angle at the
// context, theta'_i * contextLength, exceeds the largest one seen, theta_i * trainingLength (one
// part in 1e9 of slack: linear scaling by L / T lands exactly on it). Unscaled with a context
// longer than training, this is ropeIncompleteTurns(plain, trainingLength). Both lists are one
// entry per pair; a shorter one ends the result.
std::vector<bool> ropeUnseenAngles(const RopeFrequencies& scaled, const RopeFrequencies& plain,
                                   double contextLength, double trainingLength);

// ---- Rotation and attention scores. Precondition for vectors: size >= freqs.rotatedDims (the
// head dimension; extra entries pass through). ropeRotate returns v unchanged and ropeScore NaN
// when it does not hold; the Result functions report it.
// Query and key values every score of them stays finite for: finite components and
// |q| |k| <= kMaxRopeScoreBound (a score is at most attention_factor^2 |q| |k|). The error
// names the offending entry or the product: "q and k are too large: |q| |k| = 4e+308 ...".
inline constexpr double kMaxRopeScoreBound = 1e300;
Status validateQueryKey(const std::vector<double>& q, const std::vector<double>& k);
std::vector<double> ropeRotate(const std::vector<double>& v, double position,
                               const RopeFrequencies& freqs, RopePairing pairing);
// rotate(q, m) . rotate(k, n), evaluated through m - n in O(d).
double ropeScore(const std::vector<double>& q, const std::vector<double>& k, double m, double n,
                 const RopeFrequencies& freqs, RopePairing pairing);
// The 2L-1 distinct scores: entry t is the score for m - n = t - (seqLen - 1). O(L d).
Result<std::vector<double>> ropeOffsetScores(const std::vector<double>& q,
                                             const std::vector<double>& k, int seqLen,
                                             const RopeFrequencies& freqs, RopePairing pairing);
// L x L, row m, column n = rotate(q, m) . rotate(k, n): a Toeplitz fill of ropeOffsetScores().
// At L = 4096, d = 128 the scores take under 1 ms; writing the 128 MiB is the cost: about 100 ms
// into fresh memory on a 2-core VM (first-touch page faults; a bare fill of the same size costs
// the same), about 11 ms into memory already in use (ropeScoreMatrixInto).
Result<Matrix> ropeScoreMatrix(const std::vector<double>& q, const std::vector<double>& k,
                               int seqLen, const RopeFrequencies& freqs, RopePairing pairing);
// The same, reusing out's storage when its capacity suffices: for views that recompute live.
Status ropeScoreMatrixInto(Matrix& out, const std::vector<double>& q, const std::vector<double>& k,
                           int seqLen, const RopeFrequencies& freqs, RopePairing pairing);

// ---- Angle tables: row = position, column = pair, value = (position * theta_i) mod 2 pi,
// in [0, 2 pi).
Result<Matrix> ropeAngleTable(const RopeFrequencies& freqs, int seqLen);  // positions 0..L-1
Result<Matrix> ropeAngleTableWindow(const RopeFrequencies& freqs, long long firstRow,
                                    int rows);  // positions firstRow .. firstRow + rows - 1

// ---- Inputs and reference curves
// dims standard normal values: the first dims draws of NormalSampler(seed) (random.hpp), the
// same with every standard library. An odd length is the prefix of the next even one.
std::vector<double> seededGaussianVector(int dims, std::uint64_t seed);

// RoFormer's long-term decay bound (Su et al. section 3.4.3, Fig. 2) for r = 0..maxDistance:
// (1/(d/2)) sum_{j=1}^{d/2} |S_j|, S_j = sum_{k=0}^{j-1} exp(i r theta_k), theta_k = base^(-2k/d).
// 32.5 at r = 0 for d = 128 (the mean of 1..64), falling to about 6.5 at r = 250.
Result<std::vector<double>> ropeDecayBound(int headDim, double base, int maxDistance);

}  // namespace poslab
