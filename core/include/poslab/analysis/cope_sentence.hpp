// cope_sentence.hpp — one CoPE head (encodings/cope.hpp) over a sentence the user types, with
// the Intuitions view's seeded toy head (analysis/toy_attention.hpp) supplying q and k.
//
// Tokens: the sentence split at white space, with . , ! ? ; : split off as tokens of their own
// ("sat." is "sat" and "."), so that a head can count words or sentences rather than tokens.
// Gate sources:
//   seeded     g_ij = sigmoid(q_i . k_j / sqrt(d)), q_i = x_i W_q, k_j = x_j W_k, the toy head's
//              word vectors and seeded weights (toyWeights(d, seed)): an untrained head
//   tokens     every gate 1: p_ij = i - j + 1, token distance (plus one)
//   words      1 on words, 0 on punctuation: p counts the words from the key to the query
//   sentences  1 on . ! ?, 0 elsewhere: p counts the sentence ends between key and query
// The last three are the heads the paper describes a trained model learning, set by hand.
// Position table e (d x npos): N(0, 1) entries from NormalSampler(tableSeed), a stand-in for the
// learned pos_emb (the authors initialise it to zeros and train it). npos 0 means the code's
// default, tokens + 1.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "poslab/base/enum_names.hpp"
#include "poslab/base/matrix.hpp"
#include "poslab/base/result.hpp"
#include "poslab/encodings/cope.hpp"

namespace poslab {

// ---- Parameters
enum class CopeGateSource { Seeded, Tokens, Words, Sentences };
inline constexpr EnumNames<CopeGateSource, 4> kCopeGateSourceNames{
    {{CopeGateSource::Seeded, "seeded"},
     {CopeGateSource::Tokens, "tokens"},
     {CopeGateSource::Words, "words"},
     {CopeGateSource::Sentences, "sentences"}}};
std::string_view copeGateSourceName(CopeGateSource source);
Result<CopeGateSource> parseCopeGateSource(std::string_view name);

inline constexpr int kMaxCopeTokens = 64;          // tokens in the sentence, 2..64
inline constexpr int kMaxCopeSentenceBytes = 400;  // bytes typed
inline constexpr int kMaxCopeDModel = 64;          // head width, 2..64

struct CopeSentenceParams {
    std::string sentence = "The cat sat. The dog ran to the cat. It sat down.";
    CopeGateSource gates = CopeGateSource::Seeded;
    int dModel = 16;              // head width d, 2..64
    std::uint64_t seed = 0;       // W_q, W_k (toyWeights)
    std::uint64_t tableSeed = 1;  // the position table e
    int npos = 0;                 // positions with an embedding; 0: tokens + 1 (the code's default)
    bool divideGates = true;      // sigmoid(q.k / sqrt(d)) as the code does; false: the paper's
    friend bool operator==(const CopeSentenceParams&,
                           const CopeSentenceParams&) = default;  // member-wise: caches key on it
};
Status validate(const CopeSentenceParams& params);  // "sentence must have 2..64 tokens (got 1)"

// ---- Tokens
std::vector<std::string> copeTokens(std::string_view sentence);   // words and punctuation marks
bool isPunctuationToken(std::string_view token);                  // . , ! ? ; :
bool endsSentence(std::string_view token);                        // . ! ?
int effectiveNpos(const CopeSentenceParams& params, int tokens);  // npos, or tokens + 1 for 0

// ---- The head
struct CopeSentence {
    std::vector<std::string> tokens;
    int npos = 0;           // after the default
    Matrix gateLogits;      // n x n: q_i . k_j (not divided); zero for the hand-set sources
    Matrix gates;           // n x n: g_ij, 0 above the diagonal
    Matrix positions;       // n x n: p_ij (0 above the diagonal)
    Matrix positionLogits;  // n x npos: q_i . e[t]
    Matrix bias;            // n x n: interpolated b_ij, -inf above the diagonal (masked)
    Matrix weights;         // n x n: softmax of (q.k + b) / sqrt(d), causal
};
Result<CopeSentence> copeSentence(const CopeSentenceParams& params);

}  // namespace poslab
