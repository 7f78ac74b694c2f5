// similarity_samples.cpp — what the Similarity view draws at the current zoom
// (analysis/similarity.hpp): heatmap samples of the L x L similarity (from the offset structure,
// a held matrix, or a table's rows block by block) and the curves of one reference position.
// The offset structure, profiles and whole matrices are similarity.cpp's.
#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <numeric>
#include <vector>

#include "poslab/analysis/similarity.hpp"
#include "poslab/base/heatmap_sample.hpp"
#include "poslab/base/limits.hpp"
#include "poslab/base/parallel.hpp"

namespace poslab {

namespace {

constexpr double kNoValue = std::numeric_limits<double>::quiet_NaN();

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

}  // namespace

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
    HeatmapSample sample = emptyHeatmapSample(window, rpt, cpt);
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
            double value = kNoValue;
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
    if (rows == 0 || cols == 0) return emptyHeatmapSample({0, 1, 0, 1}, 1, 1);
    window = clampWindow(
        window.rowCount > 0 && window.colCount > 0 ? window : CellWindow{0, rows, 0, cols}, rows,
        cols);
    const long long rpt = cellsPerTexel(window.rowCount, maxRows);
    const long long cpt = cellsPerTexel(window.colCount, maxCols);
    HeatmapSample sample = emptyHeatmapSample(window, rpt, cpt);
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
            (*values)(std::size_t(r), std::size_t(c)) = count > 0 ? sum / double(count) : kNoValue;
        }
    }
    sample.values = std::move(values);
    return sample;
}

namespace {

// Means of the compared rows over `count` blocks of `per` rows from `first` (cut at the table),
// leaving out rows whose cosine is undefined; blockUndefined[u]: the block has no other row.
// Each row is compared as it is read. sampled > 0: at most `sampled` rows of each block, evenly
// spaced (a coarse sample).
Matrix compareRowMeans(const Matrix& table, SimilarityMetric metric, long long first, long long per,
                       long long count, std::vector<char>& blockUndefined, long long sampled = 0) {
    Matrix means(std::size_t(count), table.cols);
    blockUndefined.assign(std::size_t(count), 0);
    std::vector<double> row(table.cols);
    const long long L = (long long)table.rows;
    for (long long u = 0; u < count; ++u) {
        const long long r0 = first + u * per, r1 = std::min(L, r0 + per);
        const long long rows = std::max(0LL, r1 - r0);
        const long long taken = sampled > 0 ? std::min(rows, sampled) : rows;
        double* out = means.row(std::size_t(u));
        long long defined = 0;
        for (long long t = 0; t < taken; ++t) {
            // Every row, or the centres of `taken` equal parts of the block.
            const long long r = taken == rows ? r0 + t : r0 + (2 * t + 1) * rows / (2 * taken);
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
                                    int maxRows, int maxCols, int rowsPerBlock) {
    const long long L = std::max<long long>(1, (long long)table.rows);
    const CellWindow w = clampWindow(window, L, L);  // empty counts: everything
    const long long per =
        std::max(cellsPerTexel(w.rowCount, maxRows), cellsPerTexel(w.colCount, maxCols));
    HeatmapSample sample = emptyHeatmapSample(w, per, per);
    if (table.empty()) {
        sample.values = std::make_shared<const Matrix>();
        return sample;
    }
    const long long texelRows = (w.rowCount + per - 1) / per;
    const long long texelCols = (w.colCount + per - 1) / per;
    std::vector<char> rowBlockUndefined, colBlockUndefined;
    const Matrix rows =
        compareRowMeans(table, metric, w.firstRow, per, texelRows, rowBlockUndefined, rowsPerBlock);
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
        compareRowMeans(table, metric, w.firstCol, per, texelCols, colBlockUndefined, rowsPerBlock);
    auto values = std::make_shared<Matrix>(std::size_t(texelRows), std::size_t(texelCols));
    for (long long u = 0; u < texelRows; ++u) {
        const double* a = rows.row(std::size_t(u));
        for (long long v = 0; v < texelCols; ++v) {
            const double* b = cols.row(std::size_t(v));
            double sum = 0;
            if (rowsPerBlock > 0) {
                // Coarse: four running sums (no chain of dependent adds; other roundings)
                double part[4] = {0, 0, 0, 0};
                std::size_t k = 0;
                for (; k + 4 <= table.cols; k += 4) {
                    for (int lane = 0; lane < 4; ++lane) part[lane] += a[k + lane] * b[k + lane];
                }
                for (; k < table.cols; ++k) part[0] += a[k] * b[k];
                sum = (part[0] + part[1]) + (part[2] + part[3]);
            } else {
                for (std::size_t k = 0; k < table.cols; ++k) sum += a[k] * b[k];
            }
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
    curve.fromReference.assign(curve.offsets.size(), kNoValue);
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
        curve.fromReference[std::size_t(t)] =
            key >= 0 && key < L ? similarity.at(ref, key) : kNoValue;
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
            key >= 0 && key < L ? curve.diagonalMean[std::size_t(j)] : kNoValue;
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
            key >= 0 && key < L ? matrix(std::size_t(ref), std::size_t(key)) : kNoValue;
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
