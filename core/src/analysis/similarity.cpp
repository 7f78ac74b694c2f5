#include "poslab/analysis/similarity.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <optional>
#include <string>
#include <thread>

#include "poslab/base/format.hpp"
#include "poslab/base/heatmap_sample.hpp"
#include "poslab/base/limits.hpp"
#include "poslab/base/parallel.hpp"
#include "poslab/base/phase_grid.hpp"
#include "poslab/base/validate.hpp"

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace poslab {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// Offsets between exact sin/cos evaluations in cosineSums.
constexpr int kPhaseBlock = 64;

// Asks Linux to back [data, data + bytes) with 2 MiB pages before the first write. An L x L
// matrix is written once, straight after allocation, and at L = 4096 (128 MiB) the 32768 page
// faults of 4 KiB pages cost more than computing and copying the values; with huge pages there
// are 64. Only a hint: without transparent huge pages nothing changes.
void adviseHugePages(const void* data, std::size_t bytes) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    constexpr std::uintptr_t kHuge = std::uintptr_t(2) << 20;
    const auto begin = (reinterpret_cast<std::uintptr_t>(data) + kHuge - 1) & ~(kHuge - 1);
    const auto end = (reinterpret_cast<std::uintptr_t>(data) + bytes) & ~(kHuge - 1);
    if (end > begin) madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
#else
    (void)data;
    (void)bytes;
#endif
}

// Storage for `count` values that the caller fills by appending (no zero fill first), advised
// to huge pages when fresh. The pages are left to fault in as the rows are appended: the kernel
// zeroes each 2 MiB page just before it is overwritten, while it is still in cache. (Mapping them
// ahead, even on two threads with MADV_POPULATE_WRITE, measured slower: 26-35 ms against 21 ms
// for 128 MiB, because zeroing and writing then each stream the whole matrix through memory.)
class AppendStorage {
  public:
    AppendStorage(std::vector<double>& values, std::size_t count) {
        if (values.capacity() >= count) {
            values.clear();
            return;
        }
        std::vector<double>().swap(values);
        values.reserve(count);
        adviseHugePages(values.data(), count * sizeof(double));
    }
    AppendStorage(const AppendStorage&) = delete;
    AppendStorage& operator=(const AppendStorage&) = delete;
};

std::size_t workerCount(std::size_t work) {
    const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
    return std::max<std::size_t>(1, std::min<std::size_t>(cores, work));
}

// Fills out's rows [first, last) of the Gram matrix: blocks of 4 x 4 rows keep 16 running sums in
// registers, so each loaded value serves four products.
void gramRows(const Matrix& table, Matrix& out, std::size_t firstBlock, std::size_t stride) {
    const std::size_t n = table.rows, d = table.cols;
    constexpr std::size_t B = 4;
    for (std::size_t ib = firstBlock * B; ib < n; ib += stride * B) {
        const std::size_t iEnd = std::min(n, ib + B);
        for (std::size_t jb = ib; jb < n; jb += B) {
            const std::size_t jEnd = std::min(n, jb + B);
            if (iEnd - ib == B && jEnd - jb == B) {
                double s[B][B] = {};
                const double* a[B] = {table.row(ib), table.row(ib + 1), table.row(ib + 2),
                                      table.row(ib + 3)};
                const double* b[B] = {table.row(jb), table.row(jb + 1), table.row(jb + 2),
                                      table.row(jb + 3)};
                for (std::size_t k = 0; k < d; ++k) {
                    const double a0 = a[0][k], a1 = a[1][k], a2 = a[2][k], a3 = a[3][k];
                    for (std::size_t c = 0; c < B; ++c) {
                        const double bv = b[c][k];
                        s[0][c] += a0 * bv;
                        s[1][c] += a1 * bv;
                        s[2][c] += a2 * bv;
                        s[3][c] += a3 * bv;
                    }
                }
                for (std::size_t r = 0; r < B; ++r) {
                    for (std::size_t c = 0; c < B; ++c) out(ib + r, jb + c) = s[r][c];
                }
            } else {
                for (std::size_t i = ib; i < iEnd; ++i) {
                    for (std::size_t j = jb; j < jEnd; ++j) {
                        double sum = 0;
                        const double* x = table.row(i);
                        const double* y = table.row(j);
                        for (std::size_t k = 0; k < d; ++k) sum += x[k] * y[k];
                        out(i, j) = sum;
                    }
                }
            }
        }
    }
}

// sum over t in [a, b] of (alpha + beta t) g(t), from prefix sums P0[t+1] = sum_{u<=t} g,
// P1[t+1] = sum u g (indices shifted so that t = -(L-1) is 0).
struct OffsetPrefix {
    std::vector<long double> p0, p1;
    long long shift = 0;  // index of offset t is t + shift
    explicit OffsetPrefix(const std::vector<double>& byOffset, long long seqLen)
        : shift(seqLen - 1) {
        p0.assign(byOffset.size() + 1, 0);
        p1.assign(byOffset.size() + 1, 0);
        for (std::size_t i = 0; i < byOffset.size(); ++i) {
            const long double t = (long double)(i) - (long double)(shift);
            p0[i + 1] = p0[i] + byOffset[i];
            p1[i + 1] = p1[i] + t * byOffset[i];
        }
    }
    long double weighted(long long a, long long b, long double alpha, long double beta) const {
        if (b < a) return 0;
        const std::size_t lo = std::size_t(a + shift), hi = std::size_t(b + shift + 1);
        return alpha * (p0[hi] - p0[lo]) + beta * (p1[hi] - p1[lo]);
    }
};

// Sum of g(i - j) over rows [r0, r0 + R) and columns [c0, c0 + C): the count of pairs with
// i - j = t is min(r0 + R, c0 + C + t) - max(r0, c0 + t), piecewise linear in t.
long double toeplitzBlockSum(const OffsetPrefix& prefix, long long r0, long long R, long long c0,
                             long long C) {
    const long long tLow = r0 - c0 - C + 1, tHigh = r0 + R - 1 - c0;
    long long cuts[4] = {tLow, r0 - c0, r0 + R - c0 - C, tHigh + 1};
    std::sort(cuts + 1, cuts + 3);
    long double total = 0;
    for (int piece = 0; piece < 3; ++piece) {
        const long long a = std::max(cuts[piece], tLow);
        const long long b = std::min(cuts[piece + 1] - 1, tHigh);
        if (b < a) continue;
        // Within the piece each of lower/upper is one branch. Pick it at the piece's end: a
        // piece starting on a cut takes the branch after it (both agree on the cut itself).
        const bool lowerIsRow = r0 >= c0 + b;          // lower = r0, else c0 + t
        const bool upperIsRow = r0 + R <= c0 + C + b;  // upper = r0 + R, else c0 + C + t
        long double alpha = 0, beta = 0;
        if (upperIsRow)
            alpha += r0 + R;
        else
            alpha += c0 + C, beta += 1;
        if (lowerIsRow)
            alpha -= r0;
        else
            alpha -= c0, beta -= 1;
        total += prefix.weighted(a, b, alpha, beta);
    }
    return total;
}

HeatmapSample emptySample(CellWindow window, long long rowsPerTexel, long long colsPerTexel) {
    HeatmapSample sample;
    sample.window = window;
    sample.rowsPerTexel = rowsPerTexel;
    sample.colsPerTexel = colsPerTexel;
    const long long texelRows = (window.rowCount + rowsPerTexel - 1) / rowsPerTexel;
    const long long texelCols = (window.colCount + colsPerTexel - 1) / colsPerTexel;
    sample.rowSpan = double(texelRows * rowsPerTexel);
    sample.colSpan = double(texelCols * colsPerTexel);
    sample.version = nextMatrixVersion();
    return sample;
}

// The rows as they are compared: for cosine each row scaled to unit length (divided by its
// largest entry first, so the squares cannot overflow even for entries of 1e200). Rows with no
// direction (all zero, as padding rows are, or holding a non-finite entry) become zero rows and
// are flagged in `undefined`: their cosines are undefined, shown masked (-inf), never NaN.
// Row i of `table` as it is compared into `out` (d values): itself for dot, its unit vector for
// cosine (scaled by its largest entry first, so no square overflows). False for a cosine row with
// no direction (zero, or holding inf/NaN): its cosines are undefined. One row at a time, so the
// callers that sweep a table never hold a second copy of it.
bool comparedRow(const Matrix& table, std::size_t i, SimilarityMetric metric, double* out) {
    const double* r = table.row(i);
    if (metric != SimilarityMetric::Cosine) {
        std::copy_n(r, table.cols, out);
        return true;
    }
    double largest = 0;
    bool finite = true;
    for (std::size_t k = 0; k < table.cols; ++k) {
        finite = finite && std::isfinite(r[k]);
        largest = std::max(largest, std::abs(r[k]));
    }
    if (!finite || largest == 0) return false;
    double squares = 0;
    for (std::size_t k = 0; k < table.cols; ++k) squares += (r[k] / largest) * (r[k] / largest);
    const double norm = std::sqrt(squares);
    for (std::size_t k = 0; k < table.cols; ++k) out[k] = r[k] / largest / norm;
    return true;
}

// Every row as compared (a second table: only for the Gram matrix, whose own L x L dwarfs it).
Matrix comparedRows(const Matrix& table, SimilarityMetric metric, std::vector<char>& undefined) {
    undefined.assign(table.rows, 0);
    if (metric != SimilarityMetric::Cosine) return table;
    Matrix unit(table.rows, table.cols);
    for (std::size_t i = 0; i < table.rows; ++i)
        undefined[i] = !comparedRow(table, i, metric, unit.row(i));
    return unit;
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Names and validation
// ---------------------------------------------------------------------------------------------

std::string_view similarityEncodingName(SimilarityEncoding encoding) {
    return enumName(kSimilarityEncodingNames, encoding);
}

Result<SimilarityEncoding> parseSimilarityEncoding(std::string_view name) {
    return parseEnum(kSimilarityEncodingNames, name, "encoding");
}

long long undefinedCosineRows(const Matrix& table) {
    std::vector<double> row(table.cols);
    long long count = 0;
    for (std::size_t i = 0; i < table.rows; ++i)
        count += !comparedRow(table, i, SimilarityMetric::Cosine, row.data());
    return count;
}

std::string undefinedCosineNote(long long rows) {
    if (rows <= 0) return "";
    return "cosine undefined for zero rows: " + std::to_string(rows) +
           (rows == 1 ? " row" : " rows");
}

std::string_view similarityMetricName(SimilarityMetric metric) {
    return enumName(kSimilarityMetricNames, metric);
}

Result<SimilarityMetric> parseSimilarityMetric(std::string_view name) {
    return parseEnum(kSimilarityMetricNames, name, "metric");
}

std::string_view ropeVectorsName(RopeVectors vectors) {
    return enumName(kRopeVectorsNames, vectors);
}

Result<RopeVectors> parseRopeVectors(std::string_view name) {
    return parseEnum(kRopeVectorsNames, name, "rope_vectors");
}

Status validate(const SimilarityParams& params) {
    if (auto s = requireIntInRange("seq_len", params.seqLen, 1, kMaxSeqLen); !s) return s;
    switch (params.encoding) {
        case SimilarityEncoding::Sinusoidal: {
            SinusoidalParams p = params.sinusoidal;
            p.seqLen = params.seqLen;
            if (auto s = validate(p); !s) return s;
            // One dimension: t2t rows are all zero, and the others' position 0 is sin(0) = 0,
            // so cosines would be undefined (NaN) rather than a result.
            if (params.metric == SimilarityMetric::Cosine && p.dModel < 2) {
                return Error{"d_model must be 2..8192 for cosine similarity (got " +
                             std::to_string(p.dModel) + ": " +
                             (p.layout == SinusoidalLayout::Tensor2Tensor
                                  ? "every row is zero)"
                                  : "position 0 is the zero vector)")};
            }
            break;
        }
        case SimilarityEncoding::Learned:
            if (params.learnedTable) {
                if (params.learnedTable->empty()) return Error{"the learned table is empty"};
                if (std::size_t(params.seqLen) > params.learnedTable->rows) {
                    return Error{"seq_len must be 1.." + std::to_string(params.learnedTable->rows) +
                                 " for this table (got " + std::to_string(params.seqLen) + ")"};
                }
            } else {
                LearnedParams p = params.learned;
                p.seqLen = params.seqLen;
                if (auto s = validate(p); !s) return s;
            }
            break;
        case SimilarityEncoding::Rope: {
            RopeParams p = params.rope;
            p.seqLen = params.seqLen;
            if (auto s = validate(p); !s) return s;
            break;
        }
    }
    return success();  // the L x L cap is checked where a matrix is made (similarityMatrix)
}

bool dependsOnOffsetOnly(const SimilarityParams& params) {
    switch (params.encoding) {
        case SimilarityEncoding::Sinusoidal:
            return params.sinusoidal.dModel % 2 == 0 ||
                   params.sinusoidal.layout == SinusoidalLayout::Tensor2Tensor;
        case SimilarityEncoding::Learned:
            return false;
        case SimilarityEncoding::Rope:
            return true;
    }
    return false;
}

std::string similarityTitle(const SimilarityParams& params) {
    std::string title =
        params.metric == SimilarityMetric::Cosine ? "Cosine similarity" : "Dot product";
    switch (params.encoding) {
        case SimilarityEncoding::Sinusoidal:
            title += " of sinusoidal rows (" + std::string(layoutName(params.sinusoidal.layout)) +
                     "), d_model = " + std::to_string(params.sinusoidal.dModel) +
                     ", base = " + formatValue(params.sinusoidal.base, 6);
            break;
        case SimilarityEncoding::Learned:
            if (params.learnedTable) {
                title +=
                    " of a loaded table's rows, d = " + std::to_string(params.learnedTable->cols);
            } else {
                title += " of learned rows at initialisation, d = " +
                         std::to_string(params.learned.dModel) + ", seed " +
                         std::to_string(params.learned.seed);
            }
            break;
        case SimilarityEncoding::Rope:
            title +=
                std::string(params.metric == SimilarityMetric::Cosine ? " of" : ",") +
                " RoPE q_m·k_n (" +
                (params.ropeVectors == RopeVectors::Expected ? std::string("expected, q = k random")
                 : params.ropeVectors == RopeVectors::SameSample ? "one sample, q = k"
                                                                 : "one sample, q, k independent") +
                "), head_dim = " + std::to_string(params.rope.headDim) +
                ", base = " + formatValue(params.rope.base, 6);
            if (params.rope.scaling.type != RopeScaling::None) {
                title += ", " + std::string(scalingName(params.rope.scaling.type)) + " x" +
                         formatValue(params.rope.scaling.factor, 4);
            }
            break;
    }
    return title;
}

// ---------------------------------------------------------------------------------------------
// Offset structure
// ---------------------------------------------------------------------------------------------

double OffsetSimilarity::at(long long i, long long j) const {
    double value = byOffset[std::size_t(i - j + seqLen - 1)];
    if (!rankOne.empty()) value += rankOne[std::size_t(i)] * rankOne[std::size_t(j)];
    if (!scale.empty()) value *= scale[std::size_t(i)] * scale[std::size_t(j)];
    return value;
}

namespace {

// even[r] = sum_k cosWeights[k] cos(w_k r) and, with kSines, odd[r] = sum_k sinWeights[k]
// sin(w_k r), for r = 0 .. count-1 (both resized to count). The engine of cosineSums and of
// tabulated offset profiles, whose f(+-r) = C(r) -+ S(r); kSines is a template argument so that
// the cosine-only loop (sinusoidal, expected RoPE: the live views) carries no sine work.
template <bool kSines>
void harmonicSums(const std::vector<double>& frequencies, const std::vector<double>& cosWeights,
                  const std::vector<double>* sinWeights, int count, std::vector<double>& even,
                  std::vector<double>* odd) {
    even.assign(std::size_t(std::max(count, 0)), 0.0);
    if constexpr (kSines) odd->assign(even.size(), 0.0);
    std::size_t K = std::min(frequencies.size(), cosWeights.size());
    if constexpr (kSines) K = std::min(K, sinWeights->size());
    if (count <= 0 || K == 0) return;
    // cos((b + j) w) = cos(bw) cos(jw) - sin(bw) sin(jw) and sin((b + j) w) = sin(bw) cos(jw) +
    // cos(bw) sin(jw): a table of cos/sin(jw) for j < 64 and exact cos/sin(bw) at every block
    // start b turn each sum into two dot products per offset.
    const int steps = std::min(kPhaseBlock, count);
    std::vector<double> stepCos(std::size_t(steps) * K), stepSin(stepCos.size());
    for (int j = 0; j < steps; ++j) {
        for (std::size_t k = 0; k < K; ++k) {
            stepCos[std::size_t(j) * K + k] = std::cos(j * frequencies[k]);
            stepSin[std::size_t(j) * K + k] = std::sin(j * frequencies[k]);
        }
    }
    // Frequencies in chunks of 64, outermost: a chunk's slice of the tables (64 KB) stays in cache
    // while every block of offsets uses it, instead of streaming the whole tables per block.
    constexpr std::size_t kChunk = 64;
    const int blocks = (count + kPhaseBlock - 1) / kPhaseBlock;
    auto work = [&](int firstBlock, int lastBlock) {
        double a[kChunk], b[kChunk], e[kChunk], g[kChunk];
        for (std::size_t k0 = 0; k0 < K; k0 += kChunk) {
            const std::size_t n = std::min(kChunk, K - k0);
            for (int block = firstBlock; block < lastBlock; ++block) {
                const int start = block * kPhaseBlock;
                for (std::size_t k = 0; k < n; ++k) {
                    const double angle = double(start) * frequencies[k0 + k];
                    const double c = std::cos(angle), s = std::sin(angle);
                    a[k] = cosWeights[k0 + k] * c;
                    b[k] = cosWeights[k0 + k] * s;
                    if constexpr (kSines) {
                        e[k] = (*sinWeights)[k0 + k] * s;
                        g[k] = (*sinWeights)[k0 + k] * c;
                    }
                }
                const int end = std::min(count, start + kPhaseBlock);
                for (int r = start; r < end; ++r) {
                    const double* c = &stepCos[std::size_t(r - start) * K + k0];
                    const double* s = &stepSin[std::size_t(r - start) * K + k0];
                    // Four independent sums hide the add latency.
                    double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
                    std::size_t k = 0;
                    for (; k + 4 <= n; k += 4) {
                        s0 += a[k] * c[k] - b[k] * s[k];
                        s1 += a[k + 1] * c[k + 1] - b[k + 1] * s[k + 1];
                        s2 += a[k + 2] * c[k + 2] - b[k + 2] * s[k + 2];
                        s3 += a[k + 3] * c[k + 3] - b[k + 3] * s[k + 3];
                    }
                    for (; k < n; ++k) s0 += a[k] * c[k] - b[k] * s[k];
                    even[std::size_t(r)] += (s0 + s1) + (s2 + s3);
                    if constexpr (kSines) {
                        double t0 = 0, t1 = 0;
                        for (k = 0; k + 2 <= n; k += 2) {
                            t0 += e[k] * c[k] + g[k] * s[k];
                            t1 += e[k + 1] * c[k + 1] + g[k + 1] * s[k + 1];
                        }
                        if (k < n) t0 += e[k] * c[k] + g[k] * s[k];
                        (*odd)[std::size_t(r)] += t0 + t1;
                    }
                }
            }
        }
    };
    // Large profiles (the live view at 65536 positions) split the blocks between the cores.
    const bool large = double(count) * double(K) >= double(1 << 22);
    parallelFor(blocks, large ? 1 : blocks + 1,
                [&](long long first, long long last) { work(int(first), int(last)); });
}

// The part of the similarity that depends on i - j alone, as a profile: all of it for the
// sinusoidal table with even d_model (or t2t) and for RoPE. An odd d_model (interleaved, concat)
// gives its frequency pairs' dot product, unnormalised, and the lone sine column's frequency in
// *loneSine: offsetSimilarity adds that column's rank-one term and the per-row norms. params
// must be valid and not learned.
Result<OffsetProfile> toeplitzProfile(const SimilarityParams& params,
                                      std::optional<double>* loneSine) {
    const int L = params.seqLen;
    const bool cosine = params.metric == SimilarityMetric::Cosine;
    OffsetProfile profile;
    profile.seqLen = L;
    if (params.encoding == SimilarityEncoding::Sinusoidal) {
        // Each pair with both sine and cosine adds cos(w t): all of t2t's (its odd column is
        // zero), floor(d/2) for the other layouts, whose odd d leaves frequency index (d-1)/2 as a
        // lone sine.
        SinusoidalParams p = params.sinusoidal;
        p.seqLen = L;
        profile.frequencies = sinusoidalFrequencies(p);
        const bool lone = p.layout != SinusoidalLayout::Tensor2Tensor && p.dModel % 2 == 1;
        if (lone) {
            if (loneSine) *loneSine = profile.frequencies.back();
            profile.frequencies.pop_back();
        }
        const double pairs = double(profile.frequencies.size());
        profile.cosWeights.assign(profile.frequencies.size(), cosine && !lone ? 1.0 / pairs : 1.0);
        profile.sinWeights.assign(profile.frequencies.size(), 0.0);
        return profile;
    }
    RopeParams p = params.rope;
    p.seqLen = L;
    auto freqs = ropeFrequencies(p);
    if (!freqs) return freqs.error();
    const int passDims = p.headDim - freqs->rotatedDims;
    const double gain = freqs->attentionFactor * freqs->attentionFactor;
    if (params.ropeVectors == RopeVectors::Expected) {
        // E[q_a q_b] = [a == b] for q ~ N(0, I): each pair adds 2 A^2 cos(t_i r), each
        // pass-through dim 1. Cosine: normalised by the value at offset 0, which is the exact
        // E[cos] when A = 1 or every dim rotates (q / |q| is uniform on the sphere).
        const double atZero = gain * freqs->rotatedDims + passDims;
        const double factor = cosine ? 1.0 / atZero : 1.0;
        profile.frequencies = freqs->inverse;
        profile.cosWeights.assign(freqs->inverse.size(), 2 * gain * factor);
        profile.sinWeights.assign(freqs->inverse.size(), 0.0);
        profile.constant = passDims * factor;
        return profile;
    }
    const std::vector<double> q = seededGaussianVector(p.headDim, params.ropeSeed);
    const std::vector<double> k =
        params.ropeVectors == RopeVectors::SameSample
            ? q
            : seededGaussianVector(p.headDim, params.ropeSeed ^ 0x9E3779B97F4A7C15ull);
    profile = ropeScoreProfile(q, k, L, *freqs, p.pairing);
    if (cosine) {
        auto norm = [&](const std::vector<double>& v) {
            const std::vector<double> rotated = ropeRotate(v, 0, *freqs, p.pairing);
            double sum = 0;
            for (double x : rotated) sum += x * x;
            return std::sqrt(sum);
        };
        const double factor = 1.0 / (norm(q) * norm(k));  // rotations keep norms: one for all rows
        for (double& w : profile.cosWeights) w *= factor;
        for (double& w : profile.sinWeights) w *= factor;
        profile.constant *= factor;
    }
    return profile;
}

}  // namespace

std::vector<double> cosineSums(const std::vector<double>& frequencies,
                               const std::vector<double>& weights, int count) {
    std::vector<double> sums;
    harmonicSums<false>(frequencies, weights, nullptr, count, sums, nullptr);
    return sums;
}

Result<OffsetSimilarity> offsetSimilarity(const SimilarityParams& params) {
    if (auto s = validate(params); !s) return s.error();
    if (params.encoding == SimilarityEncoding::Learned) {
        return Error{"learned tables have no offset structure (use gramSimilarity)"};
    }
    std::optional<double> loneSine;
    auto profile = toeplitzProfile(params, &loneSine);
    if (!profile) return profile.error();
    // The profile at every offset from sums over r = 0 .. L-1: f(+-r) = constant + C(r) -+ S(r).
    const int L = params.seqLen;
    const bool withSines = std::any_of(profile->sinWeights.begin(), profile->sinWeights.end(),
                                       [](double w) { return w != 0; });
    std::vector<double> even, odd;
    if (withSines) {
        harmonicSums<true>(profile->frequencies, profile->cosWeights, &profile->sinWeights, L, even,
                           &odd);
    } else {
        harmonicSums<false>(profile->frequencies, profile->cosWeights, nullptr, L, even, nullptr);
    }
    OffsetSimilarity result;
    result.seqLen = L;
    result.byOffset.resize(std::size_t(2 * L - 1));
    for (int r = 0; r < L; ++r) {
        const double sine = withSines ? odd[std::size_t(r)] : 0.0;
        result.byOffset[std::size_t(L - 1 + r)] = profile->constant + even[std::size_t(r)] - sine;
        result.byOffset[std::size_t(L - 1 - r)] = profile->constant + even[std::size_t(r)] + sine;
    }
    if (!loneSine) return result;
    // An odd d_model's lone sine column: sin(wi) sin(wj) as a rank-one term, and for cosine the
    // per-row norms |PE(i)|^2 = pairs + sin^2(wi).
    const double pairs = double(profile->frequencies.size());
    result.rankOne.resize(std::size_t(L));
    for (int i = 0; i < L; ++i) result.rankOne[std::size_t(i)] = std::sin(i * *loneSine);
    if (params.metric == SimilarityMetric::Cosine) {
        result.scale.resize(std::size_t(L));
        for (int i = 0; i < L; ++i) {
            const double u = result.rankOne[std::size_t(i)];
            const double norm2 = pairs + u * u;  // 0 only for d = 1 at i = 0
            result.scale[std::size_t(i)] = norm2 > 0 ? 1.0 / std::sqrt(norm2) : kNaN;
        }
    }
    return result;
}

// ---------------------------------------------------------------------------------------------
// Offset profiles
// ---------------------------------------------------------------------------------------------

namespace {

// Corner offsets i0 - j0 of the texels of an a x b block grid over window w: the lattice from
// `low` in steps of gcd(a, b), `count` points.
struct OffsetLattice {
    long long low = 0, step = 1, count = 1;
};
OffsetLattice offsetLattice(const CellWindow& w, long long a, long long b) {
    const long long rows = (w.rowCount + a - 1) / a, cols = (w.colCount + b - 1) / b;
    OffsetLattice lattice;
    lattice.step = std::gcd(a, b);
    lattice.low = w.firstRow - (w.firstCol + (cols - 1) * b);
    const long long high = w.firstRow + (rows - 1) * a - w.firstCol;
    lattice.count = (high - lattice.low) / lattice.step + 1;
    return lattice;
}

long long roundUpTo(long long value, long long multiple) {
    return (value + multiple - 1) / multiple * multiple;
}

// D_a(w) conj(D_b(w)) / (a b), with D_a(w) = sum_{u<a} e^(i u w)
//   = e^(i (a-1) w / 2) sin(a w / 2) / sin(w / 2).
void blockKernel(double w, long long a, long long b, double& re, double& im) {
    const double half = std::sin(0.5 * w);
    auto gain = [&](long long n) {  // D_n's magnitude (signed) over n
        if (n == 1 || std::abs(half) < 1e-300) return 1.0;
        return std::sin(0.5 * w * double(n)) / (half * double(n));
    };
    const double magnitude = gain(a) * gain(b);
    const double phase = 0.5 * w * double(a - b);
    re = magnitude * std::cos(phase);
    im = magnitude * std::sin(phase);
}

// The profile with each weight multiplied by the a x b block kernel: its value at i0 - j0 is the
// mean of f over the block with that corner (less the constant, which every cell shares).
OffsetProfile blockProfile(const OffsetProfile& profile, long long a, long long b) {
    OffsetProfile out = profile;
    for (std::size_t k = 0; k < profile.frequencies.size(); ++k) {
        double kr = 0, ki = 0;
        blockKernel(profile.frequencies[k], a, b, kr, ki);
        const double zr = profile.cosWeights[k], zi = profile.sinWeights[k];
        out.cosWeights[k] = zr * kr - zi * ki;
        out.sinWeights[k] = zr * ki + zi * kr;
    }
    return out;
}

}  // namespace

std::vector<double> profileValues(const OffsetProfile& profile, double first, double step,
                                  long long count) {
    std::vector<double> values(std::size_t(std::max(count, 0LL)));
    const std::size_t K = profile.frequencies.size();
    const double* a = profile.cosWeights.data();
    const double* b = profile.sinWeights.data();
    forEachGridPhase(profile.frequencies, first, step, count,
                     [&](long long j, const double* cosines, const double* sines) {
                         double s0 = 0, s1 = 0;
                         std::size_t k = 0;
                         for (; k + 2 <= K; k += 2) {
                             s0 += a[k] * cosines[k] - b[k] * sines[k];
                             s1 += a[k + 1] * cosines[k + 1] - b[k + 1] * sines[k + 1];
                         }
                         if (k < K) s0 += a[k] * cosines[k] - b[k] * sines[k];
                         values[std::size_t(j)] = profile.constant + (s0 + s1);
                     });
    return values;
}

OffsetProfile ropeScoreProfile(const std::vector<double>& q, const std::vector<double>& k,
                               int seqLen, const RopeFrequencies& freqs, RopePairing pairing) {
    // R(m)q . R(n)k = pass-through + sum_i A^2 [(q1k1 + q2k2) cos(t_i r) - (q2k1 - q1k2) sin(t_i
    // r)] with r = m - n (rope.hpp), pair i being dims (i, i + d/2) or (2i, 2i + 1).
    const std::size_t pairs = freqs.inverse.size();
    const double gain = freqs.attentionFactor * freqs.attentionFactor;
    OffsetProfile profile;
    profile.seqLen = seqLen;
    profile.frequencies = freqs.inverse;
    profile.cosWeights.assign(pairs, 0.0);
    profile.sinWeights.assign(pairs, 0.0);
    if (q.size() < 2 * pairs || k.size() != q.size()) return profile;
    for (std::size_t i = 0; i < pairs; ++i) {
        const std::size_t first = pairing == RopePairing::Half ? i : 2 * i;
        const std::size_t second = pairing == RopePairing::Half ? i + pairs : 2 * i + 1;
        const double q1 = q[first], q2 = q[second], k1 = k[first], k2 = k[second];
        profile.cosWeights[i] = gain * (q1 * k1 + q2 * k2);
        profile.sinWeights[i] = gain * (q2 * k1 - q1 * k2);
    }
    for (std::size_t j = 2 * pairs; j < q.size(); ++j) profile.constant += q[j] * k[j];
    return profile;
}

Result<OffsetProfile> offsetProfile(const SimilarityParams& params) {
    if (auto s = validate(params); !s) return s.error();
    if (!dependsOnOffsetOnly(params)) {
        return Error{"this similarity is not a function of i - j alone (use offsetSimilarity)"};
    }
    return toeplitzProfile(params, nullptr);
}

HeatmapSample profileSample(const OffsetProfile& profile, CellWindow window, int maxRows,
                            int maxCols, long long budget) {
    const long long L = std::max(profile.seqLen, 1);
    const CellWindow w = clampWindow(window, L, L);  // empty counts: everything
    const long long K = std::max<long long>(1, (long long)profile.frequencies.size());
    // The pixels' blocks, unless their lattice is too fine for the budget: then multiples of a
    // power of two s (each grows by less than s, at first an eighth of the smaller), doubling s
    // until the lattice, of step >= s, fits.
    const long long a0 = cellsPerTexel(w.rowCount, maxRows);
    const long long b0 = cellsPerTexel(w.colCount, maxCols);
    long long a = a0, b = b0;
    if (offsetLattice(w, a, b).count * K > budget) {
        long long s = 1;
        while (s * 16 <= std::min(a0, b0)) s *= 2;
        do {
            a = roundUpTo(a0, s);
            b = roundUpTo(b0, s);
            s *= 2;
        } while (offsetLattice(w, a, b).count * K > budget && s <= 2 * L);
    }
    HeatmapSample sample = emptySample(w, a, b);
    const long long texelRows = (w.rowCount + a - 1) / a;
    const long long texelCols = (w.colCount + b - 1) / b;
    auto values = std::make_shared<Matrix>(std::size_t(texelRows), std::size_t(texelCols));
    // Full blocks: one value per lattice point.
    const OffsetLattice lattice = offsetLattice(w, a, b);
    const std::vector<double> full = profileValues(blockProfile(profile, a, b), double(lattice.low),
                                                   double(lattice.step), lattice.count);
    for (long long u = 0; u < texelRows; ++u) {
        double* out = values->row(std::size_t(u));
        for (long long v = 0; v < texelCols; ++v) {
            const long long t = w.firstRow + u * a - (w.firstCol + v * b);
            out[v] = full[std::size_t((t - lattice.low) / lattice.step)];
        }
    }
    // Blocks cut at the matrix edge: the last texel row (offsets step -b along it), the last
    // column (step a) and their corner, each with its own kernel.
    const long long lastU = texelRows - 1, lastV = texelCols - 1;
    const long long lastRows = std::min(a, L - (w.firstRow + lastU * a));
    const long long lastCols = std::min(b, L - (w.firstCol + lastV * b));
    if (lastRows < a) {
        const std::vector<double> row =
            profileValues(blockProfile(profile, lastRows, b),
                          double(w.firstRow + lastU * a - w.firstCol), double(-b), texelCols);
        for (long long v = 0; v < texelCols; ++v)
            (*values)(std::size_t(lastU), std::size_t(v)) = row[std::size_t(v)];
    }
    if (lastCols < b) {
        const std::vector<double> column =
            profileValues(blockProfile(profile, a, lastCols),
                          double(w.firstRow - (w.firstCol + lastV * b)), double(a), texelRows);
        for (long long u = 0; u < texelRows; ++u)
            (*values)(std::size_t(u), std::size_t(lastV)) = column[std::size_t(u)];
    }
    if (lastRows < a && lastCols < b) {
        (*values)(std::size_t(lastU), std::size_t(lastV)) =
            profileValues(blockProfile(profile, lastRows, lastCols),
                          double(w.firstRow + lastU * a - (w.firstCol + lastV * b)), 1, 1)[0];
    }
    sample.values = std::move(values);
    return sample;
}

// ---------------------------------------------------------------------------------------------
// Matrices
// ---------------------------------------------------------------------------------------------

namespace {

// Appends the L x L values to out.values, which an AppendStorage has prepared.
void appendOffsetRows(const OffsetSimilarity& similarity, Matrix& out) {
    const std::size_t L = std::size_t(similarity.seqLen);
    out.rows = L;
    out.cols = L;
    // Row i, column j holds offset i - j. Reversed, the offsets make each row one contiguous
    // slice starting at L - 1 - i.
    const std::vector<double> reversed(similarity.byOffset.rbegin(), similarity.byOffset.rend());
    if (similarity.toeplitz()) {
        for (std::size_t i = 0; i < L; ++i) {
            const auto start = reversed.begin() + std::ptrdiff_t(L - 1 - i);
            out.values.insert(out.values.end(), start, start + std::ptrdiff_t(L));
        }
        return;
    }
    const std::vector<double> ones(L, 1.0), zeros(L, 0.0);
    const std::vector<double>& u = similarity.rankOne.empty() ? zeros : similarity.rankOne;
    const std::vector<double>& s = similarity.scale.empty() ? ones : similarity.scale;
    std::vector<double> row(L);
    for (std::size_t i = 0; i < L; ++i) {
        const double* t = reversed.data() + (L - 1 - i);
        const double ui = u[i], si = s[i];
        for (std::size_t j = 0; j < L; ++j) row[j] = (t[j] + ui * u[j]) * (si * s[j]);
        out.values.insert(out.values.end(), row.begin(), row.end());
    }
}

}  // namespace

Matrix fillOffsetSimilarity(const OffsetSimilarity& similarity) {
    Matrix out;
    const AppendStorage storage(out.values,
                                std::size_t(similarity.seqLen) * std::size_t(similarity.seqLen));
    appendOffsetRows(similarity, out);
    return out;
}

Result<Matrix> similarityTable(const SimilarityParams& params) {
    if (auto s = validate(params); !s) return s.error();
    switch (params.encoding) {
        case SimilarityEncoding::Sinusoidal: {
            SinusoidalParams p = params.sinusoidal;
            p.seqLen = params.seqLen;
            return sinusoidalTable(p);
        }
        case SimilarityEncoding::Learned: {
            if (params.learnedTable) {
                Matrix table(std::size_t(params.seqLen), params.learnedTable->cols);
                std::copy_n(params.learnedTable->values.begin(), table.values.size(),
                            table.values.begin());
                return table;
            }
            LearnedParams p = params.learned;
            p.seqLen = params.seqLen;
            return learnedTable(p);
        }
        case SimilarityEncoding::Rope:
            break;
    }
    return Error{"RoPE has no position table: it rotates queries and keys"};
}

Result<Matrix> gramSimilarity(const Matrix& table, SimilarityMetric metric) {
    if (table.empty()) return Error{"the table is empty"};
    if (auto s = checkMatrixSize(table.rows, table.rows, "the similarity matrix"); !s)
        return s.error();
    const std::size_t n = table.rows;
    std::vector<char> undefined;
    const Matrix rows = comparedRows(table, metric, undefined);
    Matrix out(n, n);
    const std::size_t blocks = (n + 3) / 4;
    const std::size_t workers = workerCount(blocks * rows.cols >= (1u << 16) ? blocks : 1);
    if (workers == 1) {
        gramRows(rows, out, 0, 1);
    } else {
        // Row blocks dealt round-robin: the upper triangle's rows shrink, so this balances.
        std::vector<std::thread> threads;
        for (std::size_t w = 0; w < workers; ++w) {
            threads.emplace_back([&, w] { gramRows(rows, out, w, workers); });
        }
        for (std::thread& t : threads) t.join();
    }
    for (std::size_t i = 0; i < n; ++i) {
        for (std::size_t j = i; j < n; ++j) {
            double v = out(i, j);
            if (metric == SimilarityMetric::Cosine)
                v = undefined[i] || undefined[j] ? kUndefinedCosine : std::clamp(v, -1.0, 1.0);
            out(i, j) = v;
            out(j, i) = v;
        }
    }
    return out;
}

double tableSimilarityAt(const Matrix& table, SimilarityMetric metric, long long i, long long j) {
    if (i < 0 || j < 0 || i >= (long long)table.rows || j >= (long long)table.rows) return kNaN;
    Matrix pair(2, table.cols);
    std::copy_n(table.row(std::size_t(i)), table.cols, pair.row(0));
    std::copy_n(table.row(std::size_t(j)), table.cols, pair.row(1));
    std::vector<char> undefined;
    const Matrix rows = comparedRows(pair, metric, undefined);
    if (undefined[0] || undefined[1]) return kUndefinedCosine;
    double dot = 0;
    for (std::size_t k = 0; k < table.cols; ++k) dot += rows(0, k) * rows(1, k);
    return metric == SimilarityMetric::Cosine ? std::clamp(dot, -1.0, 1.0) : dot;
}

Status similarityMatrixInto(Matrix& out, const SimilarityParams& params) {
    if (auto s = validate(params); !s) return s;
    if (auto s = checkMatrixSize(std::size_t(params.seqLen), std::size_t(params.seqLen),
                                 "the similarity matrix");
        !s) {
        return s;
    }
    if (params.encoding == SimilarityEncoding::Learned) {
        auto table = similarityTable(params);
        if (!table) return table.error();
        auto gram = gramSimilarity(*table, params.metric);
        if (!gram) return gram.error();
        out = std::move(gram).value();
        return success();
    }
    auto offsets = offsetSimilarity(params);
    if (!offsets) return offsets.error();
    const AppendStorage storage(out.values,
                                std::size_t(params.seqLen) * std::size_t(params.seqLen));
    appendOffsetRows(*offsets, out);
    return success();
}

Result<Matrix> similarityMatrix(const SimilarityParams& params) {
    Matrix out;
    if (auto s = similarityMatrixInto(out, params); !s) return s.error();
    return out;
}

// ---------------------------------------------------------------------------------------------
// Heatmap samples
// ---------------------------------------------------------------------------------------------

HeatmapSample offsetSimilaritySample(const OffsetSimilarity& similarity, CellWindow window,
                                     int maxRows, int maxCols) {
    const long long L = similarity.seqLen;
    window = clampWindow(
        window.rowCount > 0 && window.colCount > 0 ? window : CellWindow{0, L, 0, L}, L, L);
    const long long rpt = cellsPerTexel(window.rowCount, maxRows);
    const long long cpt = cellsPerTexel(window.colCount, maxCols);
    HeatmapSample sample = emptySample(window, rpt, cpt);
    const long long texelRows = (window.rowCount + rpt - 1) / rpt;
    const long long texelCols = (window.colCount + cpt - 1) / cpt;
    auto values = std::make_shared<Matrix>(std::size_t(texelRows), std::size_t(texelCols));
    if (rpt == 1 && cpt == 1) {
        for (long long r = 0; r < texelRows; ++r) {
            for (long long c = 0; c < texelCols; ++c) {
                (*values)(std::size_t(r), std::size_t(c)) =
                    similarity.at(window.firstRow + r, window.firstCol + c);
            }
        }
        sample.values = std::move(values);
        return sample;
    }
    const OffsetPrefix prefix(similarity.byOffset, L);
    // Block means of the rank-one and norm factors, for the odd-d_model case.
    auto blockMean = [&](const std::vector<double>& v, long long first, long long count) {
        long double sum = 0;
        for (long long i = first; i < first + count; ++i) sum += v[std::size_t(i)];
        return double(sum / count);
    };
    std::vector<double> rowU, rowS, colU, colS, rowUS, colUS;
    const bool hasU = !similarity.rankOne.empty(), hasS = !similarity.scale.empty();
    auto factors = [&](long long first, long long texels, long long per, std::vector<double>& u,
                       std::vector<double>& s, std::vector<double>& us) {
        u.assign(std::size_t(texels), 0);
        s.assign(std::size_t(texels), 1);
        us.assign(std::size_t(texels), 0);
        for (long long t = 0; t < texels; ++t) {
            const long long a = first + t * per;
            const long long count = std::min(per, L - a);
            if (count <= 0) continue;
            if (hasS) s[std::size_t(t)] = blockMean(similarity.scale, a, count);
            if (hasU) {
                long double sum = 0;
                for (long long i = a; i < a + count; ++i) {
                    sum += similarity.rankOne[std::size_t(i)] *
                           (hasS ? similarity.scale[std::size_t(i)] : 1.0);
                }
                us[std::size_t(t)] = double(sum / count);
            }
        }
    };
    factors(window.firstRow, texelRows, rpt, rowU, rowS, rowUS);
    factors(window.firstCol, texelCols, cpt, colU, colS, colUS);
    for (long long r = 0; r < texelRows; ++r) {
        const long long r0 = window.firstRow + r * rpt;
        const long long R = std::min(rpt, L - r0);
        for (long long c = 0; c < texelCols; ++c) {
            const long long c0 = window.firstCol + c * cpt;
            const long long C = std::min(cpt, L - c0);
            double value = kNaN;
            if (R > 0 && C > 0) {
                value = double(toeplitzBlockSum(prefix, r0, R, c0, C) / (long double)(R * C));
                if (hasS) value *= rowS[std::size_t(r)] * colS[std::size_t(c)];
                if (hasU)
                    value += rowUS[std::size_t(r)] * colUS[std::size_t(c)];  // exact: separable
            }
            (*values)(std::size_t(r), std::size_t(c)) = value;
        }
    }
    sample.values = std::move(values);
    return sample;
}

HeatmapSample matrixSample(const std::shared_ptr<const Matrix>& matrix, CellWindow window,
                           int maxRows, int maxCols) {
    const long long rows = matrix ? (long long)matrix->rows : 0,
                    cols = matrix ? (long long)matrix->cols : 0;
    if (rows == 0 || cols == 0) return emptySample({0, 1, 0, 1}, 1, 1);
    window = clampWindow(
        window.rowCount > 0 && window.colCount > 0 ? window : CellWindow{0, rows, 0, cols}, rows,
        cols);
    const long long rpt = cellsPerTexel(window.rowCount, maxRows);
    const long long cpt = cellsPerTexel(window.colCount, maxCols);
    HeatmapSample sample = emptySample(window, rpt, cpt);
    if (rpt == 1 && cpt == 1 && window.rowCount == rows && window.colCount == cols) {
        sample.values = matrix;  // the whole matrix, one texel per cell: no copy
        return sample;
    }
    const long long texelRows = (window.rowCount + rpt - 1) / rpt;
    const long long texelCols = (window.colCount + cpt - 1) / cpt;
    auto values = std::make_shared<Matrix>(std::size_t(texelRows), std::size_t(texelCols));
    for (long long r = 0; r < texelRows; ++r) {
        const long long r0 = window.firstRow + r * rpt, r1 = std::min(rows, r0 + rpt);
        for (long long c = 0; c < texelCols; ++c) {
            const long long c0 = window.firstCol + c * cpt, c1 = std::min(cols, c0 + cpt);
            double sum = 0;
            long long count = 0;
            for (long long i = r0; i < r1; ++i) {
                const double* row = matrix->row(std::size_t(i));
                for (long long j = c0; j < c1; ++j) sum += row[j];
                count += c1 - c0;
            }
            (*values)(std::size_t(r), std::size_t(c)) = count > 0 ? sum / double(count) : kNaN;
        }
    }
    sample.values = std::move(values);
    return sample;
}

namespace {

// Means of the compared rows over `count` blocks of `per` rows from `first` (cut at the table),
// leaving out rows whose cosine is undefined; blockUndefined[u]: the block has no other row.
// Means of the compared rows in blocks of `per` from `first`, each row compared as it is read.
Matrix compareRowMeans(const Matrix& table, SimilarityMetric metric, long long first, long long per,
                       long long count, std::vector<char>& blockUndefined) {
    Matrix means(std::size_t(count), table.cols);
    blockUndefined.assign(std::size_t(count), 0);
    std::vector<double> row(table.cols);
    const long long L = (long long)table.rows;
    for (long long u = 0; u < count; ++u) {
        const long long r0 = first + u * per, r1 = std::min(L, r0 + per);
        double* out = means.row(std::size_t(u));
        long long defined = 0;
        for (long long r = r0; r < r1; ++r) {
            if (!comparedRow(table, std::size_t(r), metric, row.data())) continue;
            for (std::size_t k = 0; k < table.cols; ++k) out[k] += row[k];
            ++defined;
        }
        blockUndefined[std::size_t(u)] = defined == 0 && r1 > r0;
        for (std::size_t k = 0; k < table.cols; ++k) out[k] /= double(std::max(1LL, defined));
    }
    return means;
}

}  // namespace

HeatmapSample tableSimilaritySample(const Matrix& table, SimilarityMetric metric, CellWindow window,
                                    int maxRows, int maxCols) {
    const long long L = std::max<long long>(1, (long long)table.rows);
    const CellWindow w = clampWindow(window, L, L);  // empty counts: everything
    const long long per =
        std::max(cellsPerTexel(w.rowCount, maxRows), cellsPerTexel(w.colCount, maxCols));
    HeatmapSample sample = emptySample(w, per, per);
    if (table.empty()) {
        sample.values = std::make_shared<const Matrix>();
        return sample;
    }
    const long long texelRows = (w.rowCount + per - 1) / per;
    const long long texelCols = (w.colCount + per - 1) / per;
    std::vector<char> rowBlockUndefined, colBlockUndefined;
    const Matrix rows =
        compareRowMeans(table, metric, w.firstRow, per, texelRows, rowBlockUndefined);
    const bool cosine = metric == SimilarityMetric::Cosine;
    if (w.firstRow == w.firstCol && w.rowCount == w.colCount) {
        // The same blocks down and across: one symmetric product, on every core.
        auto gram = gramSimilarity(rows, SimilarityMetric::Dot);
        if (!gram) {
            sample.values = std::make_shared<const Matrix>();
            return sample;
        }
        Matrix values = std::move(gram).value();
        for (std::size_t u = 0; u < values.rows && cosine; ++u) {
            for (std::size_t v = 0; v < values.cols; ++v) {
                if (rowBlockUndefined[u] || rowBlockUndefined[v]) values(u, v) = kUndefinedCosine;
            }
        }
        sample.values = std::make_shared<const Matrix>(std::move(values));
        return sample;
    }
    const Matrix cols =
        compareRowMeans(table, metric, w.firstCol, per, texelCols, colBlockUndefined);
    auto values = std::make_shared<Matrix>(std::size_t(texelRows), std::size_t(texelCols));
    for (long long u = 0; u < texelRows; ++u) {
        const double* a = rows.row(std::size_t(u));
        for (long long v = 0; v < texelCols; ++v) {
            const double* b = cols.row(std::size_t(v));
            double sum = 0;
            for (std::size_t k = 0; k < table.cols; ++k) sum += a[k] * b[k];
            if (cosine && (rowBlockUndefined[std::size_t(u)] || colBlockUndefined[std::size_t(v)]))
                sum = kUndefinedCosine;
            (*values)(std::size_t(u), std::size_t(v)) = sum;
        }
    }
    sample.values = std::move(values);
    return sample;
}

// ---------------------------------------------------------------------------------------------
// Curves
// ---------------------------------------------------------------------------------------------

SimilarityCurve tableCurve(const Matrix& table, SimilarityMetric metric, int reference) {
    const long long L = (long long)table.rows;
    SimilarityCurve curve;
    if (L == 0) return curve;
    const long long ref = std::clamp<long long>(reference, 0, L - 1);
    std::vector<double> x(table.cols), y(table.cols);
    const bool referenceDefined = comparedRow(table, std::size_t(ref), metric, x.data());
    curve.offsets.resize(std::size_t(2 * L - 1));
    curve.fromReference.assign(curve.offsets.size(), kNaN);
    for (long long t = 0; t < 2 * L - 1; ++t) curve.offsets[std::size_t(t)] = double(t - (L - 1));
    for (long long j = 0; j < L; ++j) {
        const bool defined = comparedRow(table, std::size_t(j), metric, y.data());
        double sum = 0;
        for (std::size_t k = 0; k < table.cols; ++k) sum += x[k] * y[k];
        if (!referenceDefined || !defined) sum = kUndefinedCosine;
        curve.fromReference[std::size_t(j - ref + L - 1)] = sum;
    }
    return curve;
}

SimilarityCurve offsetCurve(const OffsetSimilarity& similarity, int reference,
                            bool withDiagonalMean) {
    const long long L = similarity.seqLen;
    SimilarityCurve curve;
    curve.offsets.resize(std::size_t(2 * L - 1));
    curve.fromReference.resize(curve.offsets.size());
    const long long ref = std::clamp<long long>(reference, 0, L - 1);
    for (long long t = 0; t < 2 * L - 1; ++t) {
        const long long offset = t - (L - 1);  // key - query
        curve.offsets[std::size_t(t)] = double(offset);
        const long long key = ref + offset;
        curve.fromReference[std::size_t(t)] = key >= 0 && key < L ? similarity.at(ref, key) : kNaN;
    }
    if (!withDiagonalMean) return curve;
    if (similarity.toeplitz()) {
        curve.diagonalMean.resize(curve.offsets.size());
        // M[i][i + offset] = byOffset[-offset + L - 1]
        for (long long t = 0; t < 2 * L - 1; ++t) {
            curve.diagonalMean[std::size_t(t)] = similarity.atOffset(-(t - (L - 1)));
        }
    } else if (L <= 8192) {
        curve.diagonalMean.assign(curve.offsets.size(), 0.0);
        for (long long t = 0; t < 2 * L - 1; ++t) {
            const long long offset = t - (L - 1);
            long double sum = 0;
            const long long first = std::max(0LL, -offset), last = std::min(L, L - offset);
            for (long long i = first; i < last; ++i) sum += similarity.at(i, i + offset);
            curve.diagonalMean[std::size_t(t)] = double(sum / (long double)(last - first));
        }
    }
    return curve;
}

SimilarityCurve profileCurve(const OffsetProfile& profile, int reference, long long reach,
                             long long maxPoints) {
    const long long L = std::max(profile.seqLen, 1);
    reach = std::clamp(reach, 0LL, L - 1);
    const long long count = 2 * reach + 1;
    SimilarityCurve curve;
    curve.step = count <= maxPoints ? 1 : (count + maxPoints - 1) / std::max(1LL, maxPoints);
    // The grid is centred on offset 0 (the peak, where q = k gives exactly 1): -h s .. h s.
    const long long half = reach / curve.step;
    const long long points = 2 * half + 1;
    // Key - query offset o is i - j = -o.
    curve.diagonalMean =
        profileValues(profile, double(half * curve.step), double(-curve.step), points);
    curve.offsets.resize(std::size_t(points));
    curve.fromReference.resize(std::size_t(points));
    const long long ref = std::clamp<long long>(reference, 0, L - 1);
    for (long long j = 0; j < points; ++j) {
        const long long offset = (j - half) * curve.step;
        curve.offsets[std::size_t(j)] = double(offset);
        const long long key = ref + offset;
        curve.fromReference[std::size_t(j)] =
            key >= 0 && key < L ? curve.diagonalMean[std::size_t(j)] : kNaN;
    }
    return curve;
}

SimilarityCurve matrixCurve(const Matrix& matrix, int reference) {
    const long long L = (long long)std::min(matrix.rows, matrix.cols);
    SimilarityCurve curve;
    if (L == 0) return curve;
    curve.offsets.resize(std::size_t(2 * L - 1));
    curve.fromReference.resize(curve.offsets.size());
    curve.diagonalMean.resize(curve.offsets.size());
    const long long ref = std::clamp<long long>(reference, 0, L - 1);
    for (long long t = 0; t < 2 * L - 1; ++t) {
        const long long offset = t - (L - 1);
        curve.offsets[std::size_t(t)] = double(offset);
        const long long key = ref + offset;
        curve.fromReference[std::size_t(t)] =
            key >= 0 && key < L ? matrix(std::size_t(ref), std::size_t(key)) : kNaN;
        long double sum = 0;
        const long long first = std::max(0LL, -offset), last = std::min(L, L - offset);
        for (long long i = first; i < last; ++i)
            sum += matrix(std::size_t(i), std::size_t(i + offset));
        curve.diagonalMean[std::size_t(t)] = double(sum / (long double)(last - first));
    }
    return curve;
}

Result<HeatmapSample> similaritySample(const SimilarityParams& params, CellWindow window,
                                       int maxRows, int maxCols) {
    if (params.encoding == SimilarityEncoding::Learned) {
        auto matrix = similarityMatrix(params);
        if (!matrix) return matrix.error();
        return matrixSample(std::make_shared<const Matrix>(std::move(matrix).value()), window,
                            maxRows, maxCols);
    }
    auto offsets = offsetSimilarity(params);
    if (!offsets) return offsets.error();
    return offsetSimilaritySample(*offsets, window, maxRows, maxCols);
}

}  // namespace poslab
