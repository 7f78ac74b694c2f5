// toy_attention.hpp — why a transformer needs position at all: one self-attention head over a
// short sentence, run on the sentence and on a reordering of its words.
//
// Without any position signal, attention is permutation-equivariant: reorder the input rows and
// the output rows are reordered the same way, nothing else changes (each output is a weighted sum
// over a set of tokens, and a set has no order). "The cat chased the mouse" and "The mouse chased
// the cat" then give each word exactly the same output vector. Every position encoding breaks
// this: added to the word vectors (sinusoidal, learned), rotating q and k (RoPE), or biasing the
// logits by distance (ALiBi). The head is bidirectional (encoder style): a causal mask would
// itself be a position signal.
//
// Everything is fixed and seeded, nothing is trained:
//   word vector   N(0, 1) components from a normal sampler seeded with the 64-bit FNV-1a hash of
//                 the lower-cased word (ASCII letters folded): "The" and "the" are one token and
//                 the same word always gets the same vector, in every sentence.
//   W_q, W_k, W_v d x d, N(0, 1/d) entries drawn in that order from NormalSampler(seed).
//   learned table N(0, 1) rows from learnedTable(seed + 1) (std 1: a trained table is O(1) too).
//   sinusoidal    the interleaved table with `base`; RoPE: half pairing with `base`;
//   ALiBi         symmetric -m |i - j| with m = 1/2, head 0 of 8 (the encoder form).
// Row vectors: q_i = x_i W_q, k_j = x_j W_k, v_j = x_j W_v; score_ij = q_i . k_j / sqrt(d) (+
// bias); weights = softmax of each row; output_i = sum_j weight_ij v_j.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "poslab/base/enum_names.hpp"
#include "poslab/base/matrix.hpp"
#include "poslab/base/result.hpp"

namespace poslab {

// ---- Parameters
enum class ToyPosition { None, Sinusoidal, Learned, Rope, Alibi };  // the position signal
inline constexpr EnumNames<ToyPosition, 5> kToyPositionNames{
    {{ToyPosition::None, "none"},
     {ToyPosition::Sinusoidal, "sinusoidal"},
     {ToyPosition::Learned, "learned"},
     {ToyPosition::Rope, "rope"},
     {ToyPosition::Alibi, "alibi"}}};
std::string_view toyPositionName(ToyPosition position);  // "none", "sinusoidal", ...
Result<ToyPosition> parseToyPosition(std::string_view name);

inline constexpr int kMaxToyWords = 16;  // words in the sentence, 2..16
inline constexpr int kMaxToySentenceBytes = 200;
inline constexpr int kMaxToyDModel = 64;  // even, 2..64

struct ToyAttentionParams {
    std::string sentence = "The cat chased the mouse";  // words split at white space
    std::string shuffled = "The mouse chased the cat";  // the same words reordered (any case);
                                                        // empty: a seeded shuffle
    std::uint64_t shuffleSeed = 1;                      // the shuffle used when `shuffled` is empty
    ToyPosition position = ToyPosition::None;
    int dModel = 16;         // word vector and head width, even, 2..64
    std::uint64_t seed = 0;  // W_q, W_k, W_v and the learned table
    double base = 10000;     // sinusoidal and RoPE base, > 1
    friend bool operator==(const ToyAttentionParams&,
                           const ToyAttentionParams&) = default;  // member-wise: caches key on it
};
Status validate(const ToyAttentionParams& params);  // "sentence must have 2..16 words (got 1)"
// Only the limits a stored value can break (text lengths, d_model, base): a session saved while
// the sentence was half typed reads back as typed, and the figure says what is wrong with it.
Status validateRanges(const ToyAttentionParams& params);

// ---- Words and weights
std::vector<std::string> splitWords(std::string_view sentence);  // at spaces, tabs, newlines
std::string foldCase(std::string_view word);    // ASCII letters lower-cased, other bytes kept
std::uint64_t wordHash(std::string_view word);  // 64-bit FNV-1a of foldCase(word)
std::vector<double> wordVector(std::string_view word, int dModel);      // see the header comment
Matrix wordVectors(const std::vector<std::string>& words, int dModel);  // one row per word
struct ToyWeights {
    Matrix query, key, value;  // d x d each
};
ToyWeights toyWeights(int dModel, std::uint64_t seed);
// x W for the row vector x (w.rows entries): a word's q, k or v (also CoPE's, cope_sentence).
std::vector<double> projectRow(const double* x, const Matrix& w);

// ---- Reordering
// shuffled word i is word permutation[i] of `words`, matched case-insensitively: the n-th
// occurrence of a word in `shuffled` is its n-th occurrence in `words`. An error names the word
// that is extra or missing.
Result<std::vector<int>> matchPermutation(const std::vector<std::string>& words,
                                          const std::vector<std::string>& shuffled);
// A uniformly random permutation of 0..count-1 (Fisher-Yates on mt19937_64(seed)); never the
// identity when count >= 2 (that one is rotated by one place instead).
std::vector<int> seededPermutation(int count, std::uint64_t seed);

// ---- The head
struct ToyAttention {
    Matrix input;    // n x d: word vectors, plus the position vector for sinusoidal and learned
    Matrix scores;   // n x n: q_i . k_j / sqrt(d), plus the ALiBi bias
    Matrix weights;  // n x n: softmax of each row of scores (rows sum to 1)
    Matrix output;   // n x d: sum_j weights_ij v_j
};
// words: n x d word vectors (row i at position i); params supplies position, dModel, seed, base.
Result<ToyAttention> attendToy(const Matrix& words, const ToyWeights& weights,
                               const ToyAttentionParams& params);

struct ShuffleComparison {
    std::vector<std::string> words, shuffledWords;  // as typed
    std::vector<int> permutation;  // shuffled word i is original word permutation[i]
    ToyAttention original, shuffled;
    // How far the shuffled run is from "the original's outputs, merely permuted":
    std::vector<double>
        tokenDeviation;          // [i] max_c |shuffled.output(i, c) - original.output(perm[i], c)|
    double outputDeviation = 0;  // the largest of those
    double attentionDeviation =
        0;                   // max_ij |shuffled.weights(i, j) - original.weights(perm i, perm j)|
    double outputScale = 0;  // max |original.output|, for scale
};
Result<ShuffleComparison> compareShuffle(const ToyAttentionParams& params);

}  // namespace poslab
