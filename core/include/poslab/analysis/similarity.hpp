// similarity.hpp — how alike two positions look to a model: similarity between position vectors.
//
//   sinusoidal  PE(i) . PE(j), or the cosine of the angle between them
//   learned     the same for the rows of a learned table (seeded initial table or a .npy file)
//   rope        the attention score R(m) q . R(n) k of query/key vectors rotated to positions m, n:
//               its expectation over random Gaussian q = k (the default), or one seeded sample
//
// Where the similarity depends on i - j only, one row is computed in O(L d) and the L x L
// Toeplitz matrix filled from it, never the O(L^2 d) product:
//
//   sinusoidal  each frequency pair contributes sin(wi) sin(wj) + cos(wi) cos(wj) = cos(w (i - j)),
//               so PE(i) . PE(j) = sum_k cos(w_k (i - j)). An odd d_model (interleaved, concat)
//               leaves a lone sine column, whose sin(wi) sin(wj) is NOT a function of i - j: it is
//               added as a rank-one term, and rows then differ in norm (see OffsetSimilarity).
//               tensor2tensor's zero column adds nothing, so t2t stays Toeplitz for every d.
//   rope        R(m)q . R(n)k = sum_i A^2 [(q1k1 + q2k2) cos(t_i(m-n)) - (q2k1 - q1k2) sin(...)]
//               + the pass-through dims (rope.hpp). For q = k ~ N(0, I) its expectation is
//               A^2 * 2 sum_i cos(t_i (m - n)) + (head_dim - rotated dims): the same cosine sum
//               as the sinusoidal table, weighted by the pair's energy.
// Learned tables have no such structure: their Gram matrix costs O(L^2 d).
//
// Sources: similarity.cpp (names, validation, whole matrices), similarity_offsets.cpp (the offset
// structure and profiles) and similarity_samples.cpp (heatmap samples and curves).
#pragma once

#include <cmath>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "poslab/base/enum_names.hpp"
#include "poslab/base/heatmap_sample.hpp"
#include "poslab/base/matrix.hpp"
#include "poslab/base/result.hpp"
#include "poslab/encodings/learned.hpp"
#include "poslab/encodings/rope.hpp"
#include "poslab/encodings/sinusoidal.hpp"

namespace poslab {

enum class SimilarityEncoding { Sinusoidal, Learned, Rope };
enum class SimilarityMetric { Cosine, Dot };
// Which query/key vectors RoPE rotates: the expectation over q = k ~ N(0, I) (what "a token
// compared with itself at another position" gives on average), one seeded sample with q = k, or
// seeded independent q and k (whose expected score is 0 at every offset).
enum class RopeVectors { Expected, SameSample, IndependentSamples };

inline constexpr int kMaxGuiLearnedSimilarity = 4096;  // the GUI's cap for the O(L^2 d) Gram matrix

struct SimilarityParams {
    SimilarityEncoding encoding = SimilarityEncoding::Sinusoidal;
    SimilarityMetric metric = SimilarityMetric::Cosine;
    int seqLen = 256;             // positions 0..L-1 compared; overrides each encoding's own length
    SinusoidalParams sinusoidal;  // dModel, base, layout (seqLen ignored)
    LearnedParams learned;        // dModel, seed, std (seqLen ignored)
    RopeParams rope;              // head dim, base, pairing, scaling (seqLen := this seqLen)
    RopeVectors ropeVectors = RopeVectors::Expected;
    std::uint64_t ropeSeed = 0;  // for the sampled RoPE vectors
    // A trained table (rows = positions) used instead of the seeded learned one; seqLen must not
    // exceed its rows.
    std::shared_ptr<const Matrix> learnedTable;
    friend bool operator==(const SimilarityParams&, const SimilarityParams&) = default;  // member-wise: caches key on it
};

// ---- Names, for the command line, the GUI and saved files
inline constexpr EnumNames<SimilarityEncoding, 3> kSimilarityEncodingNames{
    {{SimilarityEncoding::Sinusoidal, "sinusoidal"},
     {SimilarityEncoding::Learned, "learned"},
     {SimilarityEncoding::Rope, "rope"}}};
std::string_view similarityEncodingName(SimilarityEncoding encoding);  // "sinusoidal", "learned", …
Result<SimilarityEncoding> parseSimilarityEncoding(std::string_view name);
inline constexpr EnumNames<SimilarityMetric, 2> kSimilarityMetricNames{
    {{SimilarityMetric::Cosine, "cosine"}, {SimilarityMetric::Dot, "dot"}}};
std::string_view similarityMetricName(SimilarityMetric metric);  // "cosine", "dot"
Result<SimilarityMetric> parseSimilarityMetric(std::string_view name);
inline constexpr EnumNames<RopeVectors, 3> kRopeVectorsNames{
    {{RopeVectors::Expected, "expected"},
     {RopeVectors::SameSample, "same"},
     {RopeVectors::IndependentSamples, "independent"}}};
std::string_view ropeVectorsName(RopeVectors vectors);  // "expected", "same", "independent"
Result<RopeVectors> parseRopeVectors(std::string_view name);

// The chosen encoding's fields (and its L x d table's memory). The L x L matrix's memory is checked
// by similarityMatrix: offset profiles and heatmap samples need only O(L) memory.
Status validate(const SimilarityParams& params);
bool dependsOnOffsetOnly(const SimilarityParams& params);     // the matrix is Toeplitz
std::string similarityTitle(const SimilarityParams& params);  // "Cosine similarity, sinusoidal …"

// ---- Offset structure (sinusoidal and RoPE)
// M[i][j] = (byOffset[i - j + L - 1] + rankOne[i] rankOne[j]) * scale[i] * scale[j], where empty
// rankOne / scale vectors mean 0 / 1. Toeplitz exactly when both are empty.
struct OffsetSimilarity {
    int seqLen = 0;
    std::vector<double> byOffset;  // 2L - 1 values: entry t is for i - j = t - (L - 1)
    std::vector<double> rankOne;   // empty, or L values (odd d_model's lone sine column)
    std::vector<double> scale;     // empty, or L values (1 / |PE(i)| when norms differ)
    bool toeplitz() const { return rankOne.empty() && scale.empty(); }
    double at(long long i, long long j) const;  // one entry, O(1)
    double atOffset(long long offset) const { return byOffset[std::size_t(offset + seqLen - 1)]; }
};
// offsetProfile's profile tabulated at every offset (one source of truth for each encoding),
// plus an odd d_model's rank-one term and per-row norms. Errors for learned tables (no offset
// structure). O(L d).
Result<OffsetSimilarity> offsetSimilarity(const SimilarityParams& params);

// sum_k weights[k] cos(frequencies[k] r) for r = 0 .. count-1, in O(count * K) multiply-adds and
// O(count / 64 * K) sin/cos evaluations (angle addition from exact values every 64 offsets).
std::vector<double> cosineSums(const std::vector<double>& frequencies,
                               const std::vector<double>& weights, int count);

// ---- Offset profiles as sums of cosines and sines (the Toeplitz encodings)
// f(t) = constant + sum_k (cosWeights[k] cos(t w_k) - sinWeights[k] sin(t w_k)): the similarity
// at offset t = i - j, evaluated where a figure needs it instead of tabulated at all 2L - 1
// offsets, which costs 2L x K terms (RoPE at L = 2^20, head_dim 8192: 2^32).
struct OffsetProfile {
    int seqLen = 0;
    std::vector<double> frequencies, cosWeights, sinWeights;
    double constant = 0;
    long long tabulationTerms() const {  // what offsetSimilarity costs: (2L - 1) x K
        return (2LL * seqLen - 1) * (long long)std::max<std::size_t>(frequencies.size(), 1);
    }
};
// Sinusoidal with even d_model (or t2t) and RoPE, as offsetSimilarity gives them; errors for
// the others (learned, an odd d_model's rank-one term).
Result<OffsetProfile> offsetProfile(const SimilarityParams& params);
// rotate(q, m) . rotate(k, n) at t = m - n (ropeOffsetScores' values, one offset at a time).
OffsetProfile ropeScoreProfile(const std::vector<double>& q, const std::vector<double>& k,
                               int seqLen, const RopeFrequencies& freqs, RopePairing pairing);
// f(first), f(first + step), ..., count values: O(count x K) multiply-adds, sin/cos every 32.
std::vector<double> profileValues(const OffsetProfile& profile, double first, double step,
                                  long long count);
// Texel means of the L x L matrix M[i][j] = f(i - j) over the window, exact, in at most `budget`
// terms. The sum over an a x b block is Re sum_k z_k D_a(w_k) conj(D_b(w_k)) e^(i (i0 - j0) w_k)
// plus the constant, z_k = cosWeights[k] + i sinWeights[k], D_a(w) = sum_{u<a} e^(i u w): a texel
// depends only on its corner's offset i0 - j0, on a lattice of step gcd(a, b), and costs lattice
// points x K. Past the budget the blocks grow to multiples of a power of two (by at most an
// eighth while that suffices) so that the lattice coarsens; rowsPerTexel / colsPerTexel report
// the blocks averaged.
inline constexpr long long kProfileBudget = 1LL << 27;
HeatmapSample profileSample(const OffsetProfile& profile, CellWindow window, int maxRows,
                            int maxCols, long long budget = kProfileBudget);

// ---- Matrices
Result<Matrix> similarityMatrix(const SimilarityParams& params);  // L x L
// The same into out's storage (reused when large enough): for views that recompute live.
Status similarityMatrixInto(Matrix& out, const SimilarityParams& params);
Matrix fillOffsetSimilarity(const OffsetSimilarity& similarity);  // the L x L matrix, O(L^2)
// ---- Undefined cosines
// A row with no direction (all zero, as a padding row is, or holding a non-finite value) has no
// cosine with anything: the table functions below give kUndefinedCosine (-inf, which heatmaps
// draw as masked cells) for it, never NaN, and leave such rows out of block means. Views state
// how many rows that is with undefinedCosineNote ("cosine undefined for zero rows: 3 rows").
inline constexpr double kUndefinedCosine = -INFINITY;
long long undefinedCosineRows(const Matrix& table);  // rows that are zero or hold inf/NaN
// Row i of `table` as it is compared, into out[0..d): itself for dot, its unit vector for cosine
// (scaled by its largest entry first, so no square overflows). False for a cosine row with no
// direction (zero, or holding inf/NaN), whose cosines are kUndefinedCosine.
bool comparedRow(const Matrix& table, std::size_t i, SimilarityMetric metric, double* out);
std::string undefinedCosineNote(long long rows);     // "" for 0 rows

// Row-by-row similarity of a table's rows (the Gram matrix, optionally normalised): O(L^2 d),
// symmetric blocks computed once, on every core. Cosines are computed from unit rows (no
// overflow for large entries); a zero row's cosines are kUndefinedCosine.
Result<Matrix> gramSimilarity(const Matrix& table, SimilarityMetric metric);
Result<Matrix> similarityTable(const SimilarityParams& params);  // the L x d rows compared

// ---- What the heatmap shows at the current zoom (see heatmap_sample.hpp): block means of the
// visible window. Toeplitz matrices use prefix sums along the offsets, so a texel costs O(1)
// whatever the zoom; with a rank-one term or per-row norms (odd d_model) the norm factor of a
// block is taken as the mean over the block (relative error below 1/d_model).
HeatmapSample offsetSimilaritySample(const OffsetSimilarity& similarity, CellWindow window,
                                     int maxRows, int maxCols);
HeatmapSample matrixSample(const std::shared_ptr<const Matrix>& matrix, CellWindow window,
                           int maxRows, int maxCols);  // block means of a stored matrix
// ---- Tables too large for their O(L^2 d) Gram matrix in a figure
// Block means of a table's similarity matrix without it: the mean of u_i . u_j over a block is
// the dot product of the blocks' mean rows (u = the rows, normalised for cosine; zero rows are
// left out, a block of only zero rows gives kUndefinedCosine), so texels cost O(L d + texels d),
// exact. Square blocks of the larger of the two directions' cells per pixel, so a full window is
// one symmetric product.
inline constexpr long long kGramBudget = 1LL << 31;  // figures build the Gram matrix below this
inline constexpr long long kMaxLearnedFigureCells = 1LL << 25;  // L x d of a learned figure
// rowsPerBlock > 0: a coarse sample while the window moves: each block's mean of at most that
// many of its rows, evenly spaced, so O(texels x rowsPerBlock x d) whatever the window holds
// (the first frames of a zoom out compared every row of the table); 0: every row, exact.
HeatmapSample tableSimilaritySample(const Matrix& table, SimilarityMetric metric, CellWindow window,
                                    int maxRows, int maxCols, int rowsPerBlock = 0);
// Whether an L x d table's Gram matrix is within kGramBudget multiply-adds (symmetric: half).
inline bool gramFitsBudget(long long rows, long long dims) {
    return rows * rows * dims / 2 <= kGramBudget;
}
// One entry of gramSimilarity(table, metric) in O(d) (same to rounding; kUndefinedCosine for
// a zero row).
double tableSimilarityAt(const Matrix& table, SimilarityMetric metric, long long i, long long j);

// ---- Similarity against offset
struct SimilarityCurve {
    long long step = 1;                 // between offsets (1: every offset; else a grid)
    std::vector<double> offsets;        // key - query: -(L-1) .. L-1
    std::vector<double> fromReference;  // M[reference][reference + offset], NaN outside 0..L-1
    std::vector<double> diagonalMean;   // mean over every pair at that offset (equal to the
                                        // reference row when Toeplitz); empty when not computed
};
SimilarityCurve offsetCurve(const OffsetSimilarity& similarity, int reference,
                            bool withDiagonalMean = true);  // diagonal mean skipped for L > 8192
SimilarityCurve matrixCurve(const Matrix& matrix, int reference);  // any square matrix
// The reference row's curve straight from a table's rows, O(L d); no diagonal mean (O(L^2 d)).
SimilarityCurve tableCurve(const Matrix& table, SimilarityMetric metric, int reference);
// A profile's curve over key - query offsets -reach..reach: every offset while there are at most
// maxPoints, else an even grid of at most that many through offset 0 (step in curve.step).
// fromReference is the reference row's part of it (NaN past the matrix), diagonalMean the whole
// profile.
SimilarityCurve profileCurve(const OffsetProfile& profile, int reference, long long reach,
                             long long maxPoints);

// Texels for the heatmap (block means at most one per pixel). Learned tables compute their
// O(L^2 d) Gram matrix here; the GUI caches it and calls matrixSample instead.
Result<HeatmapSample> similaritySample(const SimilarityParams& params, CellWindow window,
                                       int maxRows, int maxCols);

}  // namespace poslab
