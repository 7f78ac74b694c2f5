// meaning.hpp — how position and meaning coexist when the position vector is ADDED to the
// word vector (the seed question: how does the model tell them apart, and is anything lost?).
//
// With x_i the token ("content") vector and p_i the position vector of token i, the attention
// logit of query i and key j (identity projections, scaled by 1/sqrt(d)) splits exactly into
//
//   (x_i + p_i) . (x_j + p_j) = x_i.x_j  +  x_i.p_j  +  p_i.x_j  +  p_i.p_j
//                               content     content    position    position
//                               ·content    ·position  ·content    ·position
//
// In high dimension random content vectors are nearly orthogonal to every position vector (their
// cosine has mean 0 and standard deviation 1/sqrt(d)), so the two cross terms are small noise and
// the sum keeps content matches (cc) and position structure (pp) apart. Real models also learn
// W_Q and W_K, which can amplify or suppress each term; identity projections show the raw geometry.
// Concatenation [x; p] instead gives exactly cc + pp, at twice the width.
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "poslab/base/enum_names.hpp"
#include "poslab/base/matrix.hpp"
#include "poslab/base/result.hpp"

namespace poslab {

enum class PositionTableKind { Sinusoidal, Learned };  // what p_i is

struct MeaningParams {
    int dModel = 64;  // width of x and p, 2..2048
    int seqLen = 48;  // tokens in the sequence, 2..1024
    PositionTableKind positions = PositionTableKind::Sinusoidal;
    double base = 10000;        // sinusoidal base, > 1
    int vocabulary = 12;        // distinct random tokens drawn for the sequence, 1..100000:
                                // repeated tokens show up as content matches in the cc term
    double contentScale = 1.0;  // std of each token-vector component, 0..100 (sinusoidal PE
                                // components have RMS 1/sqrt(2); learned ones 0.02 * positionScale)
    double positionScale = 1.0;  // multiplies every position vector, 0..100
    std::uint64_t seed = 1;      // tokens, their vectors and (learned) the position table
    // Token vectors loaded from a .npy file (rows = the sequence's tokens, cols = dModel) instead
    // of random ones; seqLen must not exceed its rows.
    std::shared_ptr<const Matrix> tokens;
    friend bool operator==(const MeaningParams&, const MeaningParams&) = default;  // member-wise: caches key on it
};

inline constexpr EnumNames<PositionTableKind, 2> kPositionTableNames{
    {{PositionTableKind::Sinusoidal, "sinusoidal"}, {PositionTableKind::Learned, "learned"}}};
std::string_view positionTableName(PositionTableKind kind);  // "sinusoidal", "learned"
Result<PositionTableKind> parsePositionTable(std::string_view name);

Status validate(const MeaningParams& params);

struct MeaningSequence {
    Matrix tokens;              // L x d: x_i
    Matrix positions;           // L x d: p_i
    std::vector<int> tokenIds;  // which vocabulary entry each token is (-1 for loaded vectors)
};
Result<MeaningSequence> buildSequence(const MeaningParams& params);

// The four L x L terms and their sum, each scaled by `scale` (1/sqrt(d) in attention).
struct LogitTerms {
    Matrix contentContent;    // x_i . x_j
    Matrix contentPosition;   // x_i . p_j  (query content, key position)
    Matrix positionContent;   // p_i . x_j
    Matrix positionPosition;  // p_i . p_j
    Matrix total;             // (x_i + p_i) . (x_j + p_j), computed from the sums, not the terms
};
Result<LogitTerms> decomposeLogits(const Matrix& tokens, const Matrix& positions, double scale);
Result<LogitTerms> decomposeLogits(const MeaningParams& params);  // scale 1/sqrt(d)

// ---- Near-orthogonality: cosines between random Gaussian vectors and position vectors
// `samples` cosines cos(x, PE(pos)) with x ~ N(0, I_d) and pos uniform in 0..maxPosition-1.
Result<std::vector<double>> randomPositionCosines(int dModel, double base, int samples,
                                                  int maxPosition, std::uint64_t seed);
// The exact density of cos(x, v) for x ~ N(0, I_d) and any fixed v != 0:
// Gamma(d/2) / (sqrt(pi) Gamma((d-1)/2)) (1 - c^2)^((d-3)/2) on (-1, 1); d >= 2.
double randomCosineDensity(int dModel, double cosine);

struct Histogram {
    double low = -1, high = 1;
    std::vector<double> density;  // per bin, integrates to the fraction of values inside
    double mean = 0, stddev = 0;  // of all values
};
Histogram makeHistogram(const std::vector<double>& values, int bins, double low, double high);

// ---- What addition loses: position read back from x_i + p_i as the position whose vector
// matches best, argmax_j (x_i + p_i) . p_j / |p_j|. Returns the mean |recovered - i| over i.
// (With concatenation the position part is separate and the error is 0.)
Result<double> positionRecoveryError(const MeaningParams& params);

// ---- The figures' numerics: block means and sampled RMS, read-back at a budget
// The logit terms as the heatmaps show them: means of b x b blocks of cells, at most maxTexels a
// side. A block mean is exact and cheap: the mean of x_i·p_j over i in I, j in J is
// mean_I(x) · mean_J(p), so the maps cost (L/b)^2 d, not L^2 d. Each term's RMS is over all L^2
// cells while that costs at most `budget` multiply-adds (all five terms), else over `rmsRows`
// evenly spaced query rows i (every key j), which the figure states.
inline constexpr long long kLogitTermBudget = 1LL << 28;
struct LogitTermMaps {
    LogitTerms means;             // cc, cp, pc, pp, total: ceil(L / b) square, divided by sqrt(d)
    int seqLen = 0;               // L
    long long cellsPerTexel = 1;  // b
    double rms[5] = {};           // cc, cp, pc, pp, total
    int rmsRows = 0;              // query rows the RMS is over (L: all, exact)
};
Result<LogitTermMaps> logitTermMaps(const MeaningParams& params, int maxTexels,
                                    long long budget = kLogitTermBudget);
// The draws the near-orthogonality figure makes of `requested`: at most kOrthogonalityComponents
// random components in all (d each), never fewer than 100 vectors. The cosines are a prefix of
// the seeded stream, so the figure shows the first draws of exactly what was asked for.
inline constexpr long long kOrthogonalityComponents = 1LL << 24;
int nearOrthogonalitySamples(int dModel, int requested);
// Those draws: randomPositionCosines(dModel, 10000, nearOrthogonalitySamples(...), 4096, seed),
// value for value, at a fraction of the cost (each column's frequency computed once).
Result<std::vector<double>> nearOrthogonalityCosines(int dModel, int samples, std::uint64_t seed);
// Position read back from x + p as in positionRecoveryError, for `queries` evenly spaced query
// positions i (all of them when queries >= L): the mean |recovered - i| over those.
Result<double> sampledRecoveryError(const MeaningParams& params, int queries);
// The query positions the add-vs-concat figure reads back at width d: all L while L^2 d fits
// kRecoveryBudget multiply-adds, else as many evenly spaced ones as fit (at least 16).
inline constexpr long long kRecoveryBudget = 1LL << 27;
int recoveryQueries(int seqLen, int dModel);

}  // namespace poslab
