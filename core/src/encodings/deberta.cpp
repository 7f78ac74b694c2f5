#include "poslab/encodings/deberta.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <string>

#include "poslab/base/limits.hpp"
#include "poslab/base/parallel.hpp"
#include "poslab/base/random.hpp"
#include "poslab/base/validate.hpp"

namespace poslab {

namespace {

// A seed per (stream, row): splitmix64 of the pair, so rows are independent of each other and of
// how many were drawn before (a view draws only the rows it shows).
std::uint64_t rowSeed(std::uint64_t seed, int stream, long long index) {
    std::uint64_t z =
        seed + 0x9e3779b97f4a7c15ull * (std::uint64_t(index) * 4 + std::uint64_t(stream) + 1);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

}  // namespace

Status validate(const DebertaParams& params) {
    if (auto s = requireIntInRange("seq_len", params.seqLen, 1, kMaxSeqLen); !s) return s;
    if (params.positionBuckets != 0) {
        if (auto s = requireIntInRange("position_buckets", params.positionBuckets, 2,
                                       kMaxDebertaBuckets);
            !s) {
            return s;
        }
    }
    // The log branch divides by log((max_position - 1) / mid), which must be > 0.
    const int lowest = params.positionBuckets > 0 ? params.positionBuckets / 2 + 2 : 1;
    if (auto s = requireIntInRange("max_relative_positions", params.maxRelativePositions, lowest,
                                   kMaxSeqLen);
        !s) {
        return s;
    }
    return requireIntInRange("head_dim", params.headDim, 1, kMaxDebertaHeadDim);
}

long long debertaLogBucket(long long relativePosition, int bucketSize, int maxPosition) {
    const long long mid = bucketSize / 2;
    const long long magnitude = relativePosition < 0 ? -relativePosition : relativePosition;
    // abs_pos = mid - 1 inside (-mid, mid): those keep relative_pos through the where below.
    const long long absPos = magnitude < mid ? mid - 1 : magnitude;
    if (absPos <= mid) return relativePosition;
    const float ratio = float(absPos) / float(mid);         // abs_pos / mid, float32
    const float logRatio = float(std::log(double(ratio)));  // torch.log, correctly rounded
    const float span = float(double(maxPosition - 1) / double(mid));  // torch.tensor(py float)
    const float logSpan = float(std::log(double(span)));
    const float scaled = logRatio / logSpan * float(mid - 1);
    const float logPos = std::ceil(scaled) + float(mid);
    const long long bucket = (long long)logPos;  // .to(torch.long); integral already
    return relativePosition < 0 ? -bucket : bucket;
}

long long debertaRelativePosition(long long query, long long key, const DebertaParams& params) {
    const long long delta = query - key;  // q_ids[:, None] - k_ids[None, :]
    if (params.positionBuckets > 0 && params.maxRelativePositions > 0) {
        return debertaLogBucket(delta, params.positionBuckets, params.maxRelativePositions);
    }
    return delta;
}

int debertaAttSpan(const DebertaParams& params) {
    return params.positionBuckets > 0 ? params.positionBuckets : params.maxRelativePositions;
}

int debertaScaleFactor(const DebertaParams& params) {
    return 1 + (params.c2p ? 1 : 0) + (params.p2c ? 1 : 0);
}

namespace {
int clampIndex(long long value, int span) {
    return int(std::clamp<long long>(value + span, 0, 2LL * span - 1));
}
}  // namespace

int debertaC2pIndex(long long query, long long key, const DebertaParams& params) {
    return clampIndex(debertaRelativePosition(query, key, params), debertaAttSpan(params));
}

int debertaP2cIndex(long long query, long long key, const DebertaParams& params) {
    // r_pos[key][query], negated, gathered on the key's row, then transposed.
    return clampIndex(-debertaRelativePosition(key, query, params), debertaAttSpan(params));
}

int debertaPaperP2cIndex(long long query, long long key, const DebertaParams& params) {
    return clampIndex(debertaRelativePosition(key, query, params), debertaAttSpan(params));
}

std::vector<double> debertaVector(const DebertaParams& params, DebertaStream stream,
                                  long long index) {
    NormalSampler sampler(rowSeed(params.seed, int(stream), index));
    std::vector<double> v(std::size_t(std::max(params.headDim, 0)));
    for (double& x : v) x = sampler.next();
    return v;
}

Result<DebertaTerm> parseDebertaTerm(std::string_view name) {
    return parseEnum(kDebertaTermNames, name, "term");
}

double debertaTermValue(const DebertaParams& params, DebertaTerm term, long long query,
                        long long key) {
    const Matrix one = debertaTermSample(params, term, {query}, {key});
    return one(0, 0);
}

namespace {

// sum over i of a[i] b[i], in order from 0 (std::inner_product's order: the same bits).
double dotInOrder(const double* a, const double* b, std::size_t n) {
    double sum = 0.0;
    for (std::size_t i = 0; i < n; ++i) sum = sum + a[i] * b[i];
    return sum;
}
// The same for the memo's rows (the memo path and the all-cores path share the one sum).
double dot(const std::vector<double>& a, const std::vector<double>& b) {
    return dotInOrder(a.data(), b.data(), std::min(a.size(), b.size()));
}

// Row r: debertaVector(params, stream, ids[r]) (fillScaledNormals at scale 1 is NormalSampler's
// sequence bit for bit), the rows drawn on every core.
Matrix debertaVectors(const DebertaParams& params, DebertaStream stream,
                      const std::vector<long long>& ids) {
    const std::size_t d = std::size_t(std::max(params.headDim, 0));
    Matrix out(ids.size(), d);
    parallelFor((long long)ids.size(), 32, [&](long long first, long long last) {
        for (auto r = std::size_t(first); r < std::size_t(last); ++r)
            fillScaledNormals(out.row(r), d, rowSeed(params.seed, int(stream), ids[r]), 1.0);
    });
    return out;
}

// Four dot products of one row with rows b[0..3], each summed in order from 0 as dotInOrder does
// (the same bits): four independent running sums instead of one chain of additions.
void fourDotsInOrder(const double* a, const double* const b[4], std::size_t n, double out[4]) {
    double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0;
    for (std::size_t i = 0; i < n; ++i) {
        s0 = s0 + a[i] * b[0][i];
        s1 = s1 + a[i] * b[1][i];
        s2 = s2 + a[i] * b[2][i];
        s3 = s3 + a[i] * b[3][i];
    }
    out[0] = s0;
    out[1] = s1;
    out[2] = s2;
    out[3] = s3;
}

// A relative term (c2p or p2c): out(a, b) += dot(content row, relative row index(a, b)) * scale,
// for content rows `content` (one per a when byRow, else one per b) and the relative stream's
// rows. The relative rows the cells meet are drawn once each, a group at a time on every core
// (4 MiB of rows at most held); each content row's dot products are made once per index (far
// from the diagonal most cells clamp to a few indices), the content rows shared between cores.
// Each cell gets its one addition from the group holding its index.
template <typename IndexOf>
void addRelativeTerm(const DebertaParams& params, DebertaStream stream, const Matrix& content,
                     std::size_t rowCount, std::size_t colCount, bool byRow, double scale,
                     const IndexOf& indexOf, Matrix& out) {
    const std::size_t outer = byRow ? rowCount : colCount, inner = byRow ? colCount : rowCount;
    const std::size_t indices = std::size_t(2) * std::size_t(debertaAttSpan(params));
    std::vector<int> index(outer * inner);  // index(o, i): cell (a, b) = (o, i) or (i, o)
    parallelFor((long long)outer, 8, [&](long long first, long long last) {
        for (auto o = std::size_t(first); o < std::size_t(last); ++o) {
            for (std::size_t i = 0; i < inner; ++i)
                index[o * inner + i] = byRow ? indexOf(o, i) : indexOf(i, o);
        }
    });
    std::vector<std::size_t> slot(indices, 0);  // 1 + the index's place in `used`; 0: unused
    for (int i : index) slot[std::size_t(i)] = 1;
    std::vector<long long> used;
    for (std::size_t i = 0; i < indices; ++i) {
        if (slot[i] == 0) continue;
        used.push_back((long long)i);
        slot[i] = used.size();
    }
    const std::size_t d = std::size_t(std::max(params.headDim, 0));
    const std::size_t group =
        std::max<std::size_t>(1, (std::size_t(1) << 19) / std::max<std::size_t>(d, 1));
    for (std::size_t g0 = 0; g0 < used.size(); g0 += group) {
        const std::size_t g1 = std::min(used.size(), g0 + group);
        const Matrix relative = debertaVectors(
            params, stream,
            std::vector<long long>(used.begin() + long(g0), used.begin() + long(g1)));
        parallelFor((long long)outer, 8, [&](long long first, long long last) {
            std::vector<double> memo(g1 - g0);
            std::vector<std::size_t> memoOf(g1 - g0, ~std::size_t{0});  // the o it is for
            std::vector<std::size_t> pending;  // this o's indices still without a dot product
            for (auto o = std::size_t(first); o < std::size_t(last); ++o) {
                pending.clear();
                for (std::size_t i = 0; i < inner; ++i) {
                    const std::size_t k = slot[std::size_t(index[o * inner + i])] - 1;
                    if (k < g0 || k >= g1 || memoOf[k - g0] == o) continue;
                    memoOf[k - g0] = o;
                    pending.push_back(k - g0);
                }
                std::size_t p = 0;
                for (; p + 4 <= pending.size(); p += 4) {
                    const double* rows[4] = {relative.row(pending[p]), relative.row(pending[p + 1]),
                                             relative.row(pending[p + 2]),
                                             relative.row(pending[p + 3])};
                    double dots[4];
                    fourDotsInOrder(content.row(o), rows, d, dots);
                    for (int j = 0; j < 4; ++j) memo[pending[p + std::size_t(j)]] = dots[j] * scale;
                }
                for (; p < pending.size(); ++p)
                    memo[pending[p]] =
                        dotInOrder(content.row(o), relative.row(pending[p]), d) * scale;
                for (std::size_t i = 0; i < inner; ++i) {
                    const std::size_t k = slot[std::size_t(index[o * inner + i])] - 1;
                    if (k < g0 || k >= g1) continue;
                    out(byRow ? o : i, byRow ? i : o) += memo[k - g0];
                }
            }
        });
    }
}

// The sample with no memo (a render, one call): the vectors drawn and the dot products made on
// every core, each sum in the same order as with a memo (the same bits).
Matrix sampleOnEveryCore(const DebertaParams& params, DebertaTerm term,
                         const std::vector<long long>& rows, const std::vector<long long>& cols) {
    Matrix out(rows.size(), cols.size());
    const double scale = 1 / std::sqrt(double(params.headDim) * debertaScaleFactor(params));
    const bool wantC2c = term == DebertaTerm::C2c || term == DebertaTerm::Sum;
    const bool wantC2p = params.c2p && (term == DebertaTerm::C2p || term == DebertaTerm::Sum);
    const bool wantP2c = params.p2c && (term == DebertaTerm::P2c || term == DebertaTerm::Sum);

    Matrix q, k;  // row a: q of query rows[a]; row b: k of key cols[b]
    if (wantC2c || wantC2p) q = debertaVectors(params, DebertaStream::Query, rows);
    if (wantC2c || wantP2c) k = debertaVectors(params, DebertaStream::Key, cols);
    const std::size_t d = std::size_t(std::max(params.headDim, 0));
    // Each cell adds c2c, then c2p, then p2c: the terms one after another, each cell's addition
    // of a term made by one core.
    if (wantC2c) {
        parallelFor((long long)rows.size(), 8, [&](long long first, long long last) {
            for (auto a = std::size_t(first); a < std::size_t(last); ++a)
                for (std::size_t b = 0; b < cols.size(); ++b)
                    out(a, b) += dotInOrder(q.row(a), k.row(b), d) * scale;
        });
    }
    if (wantC2p) {
        addRelativeTerm(
            params, DebertaStream::PositionKey, q, rows.size(), cols.size(), true, scale,
            [&](std::size_t a, std::size_t b) { return debertaC2pIndex(rows[a], cols[b], params); },
            out);
    }
    if (wantP2c) {
        addRelativeTerm(
            params, DebertaStream::PositionQuery, k, rows.size(), cols.size(), false, scale,
            [&](std::size_t a, std::size_t b) { return debertaP2cIndex(rows[a], cols[b], params); },
            out);
    }
    return out;
}

}  // namespace

Matrix debertaTermSample(const DebertaParams& params, DebertaTerm term,
                         const std::vector<long long>& rows, const std::vector<long long>& cols,
                         DebertaSampleMemo* memo) {
    if (!memo) return sampleOnEveryCore(params, term, rows, cols);
    Matrix out(rows.size(), cols.size());
    const double scale = 1 / std::sqrt(double(params.headDim) * debertaScaleFactor(params));
    const bool wantC2c = term == DebertaTerm::C2c || term == DebertaTerm::Sum;
    const bool wantC2p = params.c2p && (term == DebertaTerm::C2p || term == DebertaTerm::Sum);
    const bool wantP2c = params.p2c && (term == DebertaTerm::P2c || term == DebertaTerm::Sum);
    const int span = debertaAttSpan(params);

    DebertaSampleMemo& kept = *memo;
    if (kept.seed != params.seed || kept.headDim != params.headDim) {
        kept = DebertaSampleMemo{};
        kept.seed = params.seed;
        kept.headDim = params.headDim;
    }
    if (kept.rows != rows || kept.cols != cols) {  // Kr and Qr stay (seq_len moved)
        kept.rows = rows;
        kept.cols = cols;
        kept.q.clear();
        kept.k.clear();
        kept.c2c.clear();
        kept.c2pDots.clear();
        kept.p2cDots.clear();
    }
    const std::size_t indices = std::size_t(2) * std::size_t(span);
    auto embedding = [&](std::vector<std::vector<double>>& table, DebertaStream stream,
                         std::size_t index) -> const std::vector<double>& {
        if (table.size() < indices) table.resize(indices);
        auto& row = table[index];
        if (row.empty()) row = debertaVector(params, stream, (long long)index);
        return row;
    };
    auto& q = kept.q;
    auto& k = kept.k;
    if ((wantC2c || wantC2p) && q.empty()) {
        q.resize(rows.size());
        for (std::size_t a = 0; a < rows.size(); ++a)
            q[a] = debertaVector(params, DebertaStream::Query, rows[a]);
    }
    if ((wantC2c || wantP2c) && k.empty()) {
        k.resize(cols.size());
        for (std::size_t b = 0; b < cols.size(); ++b)
            k[b] = debertaVector(params, DebertaStream::Key, cols[b]);
    }
    if (wantC2c) {
        if (kept.c2c.empty()) {
            kept.c2c.resize(rows.size() * cols.size());
            for (std::size_t a = 0; a < rows.size(); ++a)
                for (std::size_t b = 0; b < cols.size(); ++b)
                    kept.c2c[a * cols.size() + b] = dot(q[a], k[b]);
        }
        for (std::size_t a = 0; a < rows.size(); ++a)
            for (std::size_t b = 0; b < cols.size(); ++b)
                out(a, b) += kept.c2c[a * cols.size() + b] * scale;
    }
    // Far from the diagonal most cells clamp to index 0 or 2k - 1, so each row (c2p) or column
    // (p2c) meets few distinct indices: its dot products are memoised per index (NaN: not yet),
    // for this call only when the span is too wide to keep them.
    const double unset = std::numeric_limits<double>::quiet_NaN();
    const bool keepDots = indices <= std::size_t(DebertaSampleMemo::kDotsSpan);
    std::vector<double> scratch;
    // The dot products of line `line` (a row for c2p, a column for p2c) by index.
    auto dotsOf = [&](std::vector<std::vector<double>>& kept, std::size_t lines,
                      std::size_t line) -> std::vector<double>& {
        if (!keepDots) {
            scratch.assign(indices, unset);
            return scratch;
        }
        if (kept.size() != lines) kept.assign(lines, {});
        std::vector<double>& dots = kept[line];
        if (dots.size() < indices) dots.resize(indices, unset);
        return dots;
    };
    if (wantC2p) {
        for (std::size_t a = 0; a < rows.size(); ++a) {
            std::vector<double>& dots = dotsOf(kept.c2pDots, rows.size(), a);
            for (std::size_t b = 0; b < cols.size(); ++b) {
                const std::size_t index = std::size_t(debertaC2pIndex(rows[a], cols[b], params));
                if (std::isnan(dots[index]))
                    dots[index] = dot(q[a], embedding(kept.kr, DebertaStream::PositionKey, index));
                out(a, b) += dots[index] * scale;
            }
        }
    }
    if (wantP2c) {
        for (std::size_t b = 0; b < cols.size(); ++b) {
            std::vector<double>& dots = dotsOf(kept.p2cDots, cols.size(), b);
            for (std::size_t a = 0; a < rows.size(); ++a) {
                const std::size_t index = std::size_t(debertaP2cIndex(rows[a], cols[b], params));
                if (std::isnan(dots[index]))
                    dots[index] =
                        dot(k[b], embedding(kept.qr, DebertaStream::PositionQuery, index));
                out(a, b) += dots[index] * scale;
            }
        }
    }
    return out;
}

Result<Matrix> debertaRelativePositionMatrix(const DebertaParams& params) {
    if (auto s = validate(params); !s) return s.error();
    const std::size_t n = std::size_t(params.seqLen);
    if (auto s = checkMatrixSize(n, n, "the DeBERTa relative position matrix"); !s)
        return s.error();
    Matrix out(n, n);
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < n; ++j)
            out(i, j) = double(debertaRelativePosition((long long)i, (long long)j, params));
    return out;
}

Result<Matrix> debertaTermMatrix(const DebertaParams& params, DebertaTerm term) {
    if (auto s = validate(params); !s) return s.error();
    const std::size_t n = std::size_t(params.seqLen);
    if (auto s = checkMatrixSize(n, n, "the DeBERTa score matrix"); !s) return s.error();
    std::vector<long long> all(n);
    std::iota(all.begin(), all.end(), 0LL);
    return debertaTermSample(params, term, all, all);
}

}  // namespace poslab
