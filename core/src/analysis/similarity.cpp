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

// The rows as they are compared: for cosine each row scaled to unit length (divided by its
// largest entry first, so the squares cannot overflow even for entries of 1e200). Rows with no
// direction (all zero, as padding rows are, or holding a non-finite entry) become zero rows and
// are flagged in `undefined`: their cosines are undefined, shown masked (-inf), never NaN.
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
                     "), $d_{model}$ = " + std::to_string(params.sinusoidal.dModel) +
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

}  // namespace poslab
