#include "poslab/analysis/meaning.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <random>
#include <string>

#include "poslab/base/format.hpp"
#include "poslab/base/heatmap_sample.hpp"
#include "poslab/base/limits.hpp"
#include "poslab/base/random.hpp"
#include "poslab/base/sampling.hpp"
#include "poslab/base/validate.hpp"
#include "poslab/encodings/learned.hpp"
#include "poslab/encodings/sinusoidal.hpp"

namespace poslab {

namespace {

// a . b over d values
double dot(const double* a, const double* b, std::size_t d) {
    double sum = 0;
    for (std::size_t k = 0; k < d; ++k) sum += a[k] * b[k];
    return sum;
}

Matrix products(const Matrix& a, const Matrix& b, double scale) {
    Matrix out(a.rows, b.rows);
    for (std::size_t i = 0; i < a.rows; ++i) {
        for (std::size_t j = 0; j < b.rows; ++j)
            out(i, j) = scale * dot(a.row(i), b.row(j), a.cols);
    }
    return out;
}

}  // namespace

std::string_view positionTableName(PositionTableKind kind) {
    return enumName(kPositionTableNames, kind);
}

Result<PositionTableKind> parsePositionTable(std::string_view name) {
    return parseEnum(kPositionTableNames, name, "positions");
}

Status validate(const MeaningParams& params) {
    if (params.tokens) {
        if (params.tokens->empty()) return Error{"the token vectors are empty"};
        if (params.tokens->cols != std::size_t(params.dModel)) {
            return Error{"d_model must equal the token vectors' width " +
                         std::to_string(params.tokens->cols) + " (got " +
                         std::to_string(params.dModel) + ")"};
        }
        if (std::size_t(params.seqLen) > params.tokens->rows) {
            return Error{"seq_len must be 2.." + std::to_string(params.tokens->rows) +
                         " for these token vectors (got " + std::to_string(params.seqLen) + ")"};
        }
    }
    if (auto s = requireIntInRange("d_model", params.dModel, 2, 2048); !s) return s;
    if (auto s = requireIntInRange("seq_len", params.seqLen, 2, 1024); !s) return s;
    if (auto s = requireInRange("base", params.base, 1.0, 1e12, false); !s) return s;
    if (auto s = requireIntInRange("vocabulary", params.vocabulary, 1, 100000); !s) return s;
    if (auto s = requireInRange("content_scale", params.contentScale, 0.0, 100.0); !s) return s;
    if (auto s = requireInRange("position_scale", params.positionScale, 0.0, 100.0); !s) return s;
    return success();
}

Result<MeaningSequence> buildSequence(const MeaningParams& params) {
    if (auto s = validate(params); !s) return s.error();
    const std::size_t L = std::size_t(params.seqLen), d = std::size_t(params.dModel);
    MeaningSequence sequence;
    sequence.tokens = Matrix(L, d);
    sequence.tokenIds.assign(L, -1);
    if (params.tokens) {
        std::copy_n(params.tokens->values.begin(), L * d, sequence.tokens.values.begin());
    } else {
        // Token ids from one engine; each vocabulary entry's vector from its own sampler seeded
        // by (seed, id), so a token keeps its vector when the vocabulary or length changes.
        std::mt19937_64 ids(params.seed * 0x9E3779B97F4A7C15ull + 1);
        for (std::size_t i = 0; i < L; ++i)
            sequence.tokenIds[i] = int(ids() % std::uint64_t(params.vocabulary));
        for (std::size_t i = 0; i < L; ++i) {
            const std::uint64_t id = std::uint64_t(sequence.tokenIds[i]);
            NormalSampler sampler(params.seed * 1000003ull + id * 0xD1B54A32D192ED03ull);
            for (std::size_t k = 0; k < d; ++k)
                sequence.tokens(i, k) = params.contentScale * sampler.next();
        }
    }
    if (params.positions == PositionTableKind::Sinusoidal) {
        SinusoidalParams p;
        p.dModel = params.dModel;
        p.seqLen = params.seqLen;
        p.base = params.base;
        auto table = sinusoidalTable(p);
        if (!table) return table.error();
        sequence.positions = std::move(table).value();
    } else {
        LearnedParams p;
        p.dModel = params.dModel;
        p.seqLen = params.seqLen;
        p.seed = params.seed + 1000;
        auto table = learnedTable(p);
        if (!table) return table.error();
        sequence.positions = std::move(table).value();
    }
    for (double& v : sequence.positions.values) v *= params.positionScale;
    return sequence;
}

Result<LogitTerms> decomposeLogits(const Matrix& tokens, const Matrix& positions, double scale) {
    if (tokens.rows != positions.rows || tokens.cols != positions.cols || tokens.empty()) {
        return Error{"token and position vectors must have the same non-empty shape (got " +
                     std::to_string(tokens.rows) + " x " + std::to_string(tokens.cols) + " and " +
                     std::to_string(positions.rows) + " x " + std::to_string(positions.cols) + ")"};
    }
    if (auto s = checkMatrixSize(tokens.rows, tokens.rows * 5, "the logit terms"); !s)
        return s.error();
    LogitTerms terms;
    terms.contentContent = products(tokens, tokens, scale);
    terms.contentPosition = products(tokens, positions, scale);
    terms.positionContent = products(positions, tokens, scale);
    terms.positionPosition = products(positions, positions, scale);
    Matrix sums = tokens;
    for (std::size_t i = 0; i < sums.values.size(); ++i) sums.values[i] += positions.values[i];
    terms.total = products(sums, sums, scale);
    return terms;
}

Result<LogitTerms> decomposeLogits(const MeaningParams& params) {
    auto sequence = buildSequence(params);
    if (!sequence) return sequence.error();
    return decomposeLogits(sequence->tokens, sequence->positions,
                           1.0 / std::sqrt(double(params.dModel)));
}

Result<std::vector<double>> randomPositionCosines(int dModel, double base, int samples,
                                                  int maxPosition, std::uint64_t seed) {
    if (auto s = requireIntInRange("d_model", dModel, 2, kMaxDModel); !s) return s.error();
    if (auto s = requireIntInRange("samples", samples, 1, 1000000); !s) return s.error();
    if (auto s = requireIntInRange("max_position", maxPosition, 1, kMaxSeqLen); !s)
        return s.error();
    if (auto s = requireInRange("base", base, 1.0, 1e12, false); !s) return s.error();
    SinusoidalParams p;
    p.dModel = dModel;
    p.base = base;
    NormalSampler sampler(seed);
    std::mt19937_64 positions(seed + 7);
    std::vector<double> cosines(static_cast<std::size_t>(samples));
    std::vector<double> x(static_cast<std::size_t>(dModel)), pe(x.size());
    for (double& c : cosines) {
        for (double& v : x) v = sampler.next();
        sinusoidalRow(p, double(positions() % std::uint64_t(maxPosition)), pe.data());
        const double xp = dot(x.data(), pe.data(), x.size());
        const double xx = dot(x.data(), x.data(), x.size());
        const double pp = dot(pe.data(), pe.data(), x.size());
        c = xp / std::sqrt(xx * pp);
    }
    return cosines;
}

double randomCosineDensity(int dModel, double cosine) {
    if (dModel < 2 || !(cosine > -1 && cosine < 1)) return 0;
    const double d = dModel;
    const double logNorm =
        std::lgamma(d / 2) - std::lgamma((d - 1) / 2) - 0.5 * std::log(std::numbers::pi);
    return std::exp(logNorm + (d - 3) / 2 * std::log1p(-cosine * cosine));
}

Histogram makeHistogram(const std::vector<double>& values, int bins, double low, double high) {
    Histogram h;
    h.low = low;
    h.high = high;
    bins = std::max(bins, 1);
    h.density.assign(std::size_t(bins), 0.0);
    if (values.empty() || !(high > low)) return h;
    const double width = (high - low) / bins;    // inf for ranges past the largest double
    const double halfSpan = high / 2 - low / 2;  // finite for any finite ends
    long double sum = 0, sum2 = 0;
    for (double v : values) {
        sum += v;
        sum2 += (long double)v * v;
        if (!(v >= low && v <= high)) continue;
        // From halves: (v - low) / width is inf / inf = NaN, an invalid int, for such ranges.
        const double position =
            std::isfinite(width) ? (v - low) / width : (v / 2 - low / 2) / halfSpan * bins;
        const int bin = std::clamp(int(std::min(position, double(bins))), 0, bins - 1);
        h.density[std::size_t(bin)] += 1;
    }
    const double n = double(values.size());
    for (double& count : h.density) {  // per unit of value; halves keep an inf width out
        count = std::isfinite(width) ? count / (n * width) : count / n / 2 / (halfSpan / bins);
    }
    h.mean = double(sum / n);
    h.stddev = std::sqrt(std::max(0.0, double(sum2 / n) - h.mean * h.mean));
    return h;
}

Result<double> positionRecoveryError(const MeaningParams& params) {
    auto sequence = buildSequence(params);
    if (!sequence) return sequence.error();
    const std::size_t L = sequence->tokens.rows, d = sequence->tokens.cols;
    std::vector<double> norms(L);
    for (std::size_t j = 0; j < L; ++j) {
        const double n = std::sqrt(dot(sequence->positions.row(j), sequence->positions.row(j), d));
        norms[j] = n > 0 ? n : 1;
    }
    std::vector<double> sum(d);
    double error = 0;
    for (std::size_t i = 0; i < L; ++i) {
        for (std::size_t k = 0; k < d; ++k)
            sum[k] = sequence->tokens(i, k) + sequence->positions(i, k);
        std::size_t best = 0;
        double bestScore = -INFINITY;
        for (std::size_t j = 0; j < L; ++j) {
            const double score = dot(sum.data(), sequence->positions.row(j), d) / norms[j];
            if (score > bestScore) bestScore = score, best = j;
        }
        error += std::abs(double(best) - double(i));
    }
    return error / double(L);
}

namespace {

// a . b over n values, four running sums (the maps and read-back are dot-product bound).
double dot4(const double* a, const double* b, std::size_t n) {
    double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
    std::size_t k = 0;
    for (; k + 4 <= n; k += 4) {
        s0 += a[k] * b[k];
        s1 += a[k + 1] * b[k + 1];
        s2 += a[k + 2] * b[k + 2];
        s3 += a[k + 3] * b[k + 3];
    }
    for (; k < n; ++k) s0 += a[k] * b[k];
    return (s0 + s1) + (s2 + s3);
}

// scale * a_i . b_j for every row pair; symmetric when a and b are the same matrix.
Matrix scaledProducts(const Matrix& a, const Matrix& b, double scale) {
    Matrix out(a.rows, b.rows);
    const bool symmetric = &a == &b;
    for (std::size_t i = 0; i < a.rows; ++i) {
        for (std::size_t j = symmetric ? i : 0; j < b.rows; ++j) {
            out(i, j) = scale * dot4(a.row(i), b.row(j), a.cols);
            if (symmetric) out(j, i) = out(i, j);
        }
    }
    return out;
}

Matrix transposed(const Matrix& m) {
    Matrix out(m.cols, m.rows);
    for (std::size_t i = 0; i < m.rows; ++i)
        for (std::size_t j = 0; j < m.cols; ++j) out(j, i) = m(i, j);
    return out;
}

}  // namespace

Result<LogitTermMaps> logitTermMaps(const MeaningParams& params, int maxTexels, long long budget) {
    auto sequence = buildSequence(params);
    if (!sequence) return sequence.error();
    const Matrix& x = sequence->tokens;
    const Matrix& p = sequence->positions;
    Matrix sums = x;
    for (std::size_t i = 0; i < sums.values.size(); ++i) sums.values[i] += p.values[i];
    const double scale = 1.0 / std::sqrt(double(params.dModel));  // as decomposeLogits
    const std::size_t L = x.rows, d = x.cols;
    LogitTermMaps maps;
    maps.seqLen = int(L);
    maps.cellsPerTexel = cellsPerTexel((long long)L, std::max(1, maxTexels));
    // Block means of each term from the blocks' mean vectors (the terms are bilinear).
    // Means of groups of rows (the last may be shorter); every column kept.
    const Matrix xm = averageBlocks(x, maps.cellsPerTexel, 1);
    const Matrix pm = averageBlocks(p, maps.cellsPerTexel, 1);
    const Matrix sm = averageBlocks(sums, maps.cellsPerTexel, 1);
    maps.means.contentContent = scaledProducts(xm, xm, scale);
    maps.means.contentPosition = scaledProducts(xm, pm, scale);
    // p_i·x_j is x_j·p_i: the same products summed in the same order, so the transpose holds
    // the same bits for a fifth less work (a vector file's maps are cell for cell: L² d each).
    maps.means.positionContent = transposed(maps.means.contentPosition);
    maps.means.positionPosition = scaledProducts(pm, pm, scale);
    maps.means.total = scaledProducts(sm, sm, scale);
    // RMS over every cell, or over evenly spaced query rows when that costs too much.
    const long long perRow = 5LL * (long long)L * (long long)d;
    const int rows = int(std::clamp<long long>(budget / std::max(1LL, perRow), 1, (long long)L));
    const std::vector<int> queries = evenlySpaced(int(L), rows);
    maps.rmsRows = int(queries.size());
    long double squares[5] = {};
    for (int i : queries) {
        const std::size_t r = std::size_t(i);
        for (std::size_t j = 0; j < L; ++j) {
            const double terms[5] = {dot4(x.row(r), x.row(j), d), dot4(x.row(r), p.row(j), d),
                                     dot4(p.row(r), x.row(j), d), dot4(p.row(r), p.row(j), d),
                                     dot4(sums.row(r), sums.row(j), d)};
            for (int t = 0; t < 5; ++t)
                squares[t] += (long double)(scale * terms[t]) * (scale * terms[t]);
        }
    }
    const double cells = double(queries.size()) * double(L);
    for (int t = 0; t < 5; ++t) maps.rms[t] = std::sqrt(double(squares[t] / cells));
    return maps;
}

int nearOrthogonalitySamples(int dModel, int requested) {
    const long long affordable =
        std::max<long long>(100, kOrthogonalityComponents / std::max(1, dModel));
    return int(std::clamp<long long>(requested, 1, std::max<long long>(1, affordable)));
}

Result<double> sampledRecoveryError(const MeaningParams& params, int queries) {
    auto sequence = buildSequence(params);
    if (!sequence) return sequence.error();
    const Matrix& x = sequence->tokens;
    const Matrix& p = sequence->positions;
    const std::size_t L = x.rows, d = x.cols;
    std::vector<double> norms(L);
    for (std::size_t j = 0; j < L; ++j) {
        const double n = std::sqrt(dot4(p.row(j), p.row(j), d));
        norms[j] = n > 0 ? n : 1;
    }
    const std::vector<int> chosen = evenlySpaced(int(L), queries);
    std::vector<double> sum(d);
    double error = 0;
    for (int query : chosen) {
        const std::size_t i = std::size_t(query);
        for (std::size_t k = 0; k < d; ++k) sum[k] = x(i, k) + p(i, k);
        std::size_t best = 0;
        double bestScore = -INFINITY;
        for (std::size_t j = 0; j < L; ++j) {
            const double score = dot4(sum.data(), p.row(j), d) / norms[j];
            if (score > bestScore) bestScore = score, best = j;
        }
        error += std::abs(double(best) - double(i));
    }
    return error / double(chosen.size());
}

int recoveryQueries(int seqLen, int dModel) {
    const long long perQuery = std::max(1LL, (long long)seqLen * dModel);
    return int(std::clamp<long long>(kRecoveryBudget / perQuery, std::min(16, seqLen), seqLen));
}

Result<std::vector<double>> nearOrthogonalityCosines(int dModel, int samples, std::uint64_t seed) {
    if (auto s = requireIntInRange("samples", samples, 1, 1000000); !s) return s.error();
    if (auto s = requireIntInRange("d_model", dModel, 2, kMaxDModel); !s) return s.error();
    // randomPositionCosines(dModel, 10000, n, 4096, seed), draw for draw: x ~ N(0, I) from
    // NormalSampler(seed), the position from mt19937_64(seed + 7), sequential dot products.
    SinusoidalParams p;
    p.dModel = dModel;
    p.base = 10000;
    const SinusoidalRows table(p);
    NormalSampler sampler(seed);
    std::mt19937_64 positions(seed + 7);
    const int n = nearOrthogonalitySamples(dModel, samples);
    std::vector<double> cosines(static_cast<std::size_t>(n));
    std::vector<double> x(static_cast<std::size_t>(dModel)), pe(x.size());
    auto dot = [&](const double* a, const double* b) {
        double sum = 0;
        for (std::size_t k = 0; k < x.size(); ++k) sum += a[k] * b[k];
        return sum;
    };
    for (double& c : cosines) {
        for (double& v : x) v = sampler.next();
        table.row(double(positions() % std::uint64_t(4096)), pe.data());
        c = dot(x.data(), pe.data()) /
            std::sqrt(dot(x.data(), x.data()) * dot(pe.data(), pe.data()));
    }
    return cosines;
}

}  // namespace poslab
