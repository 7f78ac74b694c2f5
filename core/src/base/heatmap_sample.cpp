#include "poslab/base/heatmap_sample.hpp"

#include <algorithm>
#include <atomic>
#include <limits>
#include <numeric>
#include <vector>

namespace poslab {

namespace {

constexpr double kMinusInf = -std::numeric_limits<double>::infinity();

}  // namespace

std::uint64_t nextMatrixVersion() {
    static std::atomic<std::uint64_t> counter{0};
    return ++counter;
}

std::string blockNote(const HeatmapSample& sample, const std::string& summary) {
    if (sample.rowsPerTexel <= 1 && sample.colsPerTexel <= 1) return "";
    return "each pixel: " + summary + " " + std::to_string(sample.rowsPerTexel) + "×" +
           std::to_string(sample.colsPerTexel) + " cells";
}

int texelBudget(double pixels) {
    if (!(pixels >= 1)) return 1;
    return pixels >= kMaxTexelsPerSide ? kMaxTexelsPerSide : int(pixels);
}

int texelBudget(double pixels, bool cellResolution) {
    return cellResolution ? kMaxTexelsPerSide : texelBudget(pixels);
}

long long cellsPerTexel(long long cells, int maxTexels) {
    if (maxTexels < 1) maxTexels = 1;
    return std::max(1LL, (cells + maxTexels - 1) / maxTexels);
}

Matrix averageColumns(const Matrix& values, long long colsPerTexel) {
    if (colsPerTexel <= 1) return values;
    const std::size_t group = std::size_t(colsPerTexel);
    const std::size_t outCols = (values.cols + group - 1) / group;
    Matrix out(values.rows, outCols);
    for (std::size_t r = 0; r < values.rows; ++r) {
        const double* in = values.row(r);
        double* o = out.row(r);
        for (std::size_t g = 0; g < outCols; ++g) {
            const std::size_t begin = g * group, end = std::min(values.cols, begin + group);
            double sum = 0;
            for (std::size_t c = begin; c < end; ++c) sum += in[c];
            o[g] = sum / double(end - begin);
        }
    }
    return out;
}

Matrix averageBlocks(const Matrix& values, long long rowsPerTexel, long long colsPerTexel) {
    Matrix columns = averageColumns(values, colsPerTexel);
    if (rowsPerTexel <= 1) return columns;
    const std::size_t group = std::size_t(rowsPerTexel);
    const std::size_t outRows = (columns.rows + group - 1) / group;
    Matrix out(outRows, columns.cols);
    for (std::size_t g = 0; g < outRows; ++g) {
        const std::size_t begin = g * group, end = std::min(columns.rows, begin + group);
        double* o = out.row(g);
        for (std::size_t r = begin; r < end; ++r) {
            const double* in = columns.row(r);
            for (std::size_t c = 0; c < columns.cols; ++c) o[c] += in[c];
        }
        for (std::size_t c = 0; c < columns.cols; ++c) o[c] /= double(end - begin);
    }
    return out;
}

CellWindow clampWindow(CellWindow window, long long rows, long long cols) {
    rows = std::max(1LL, rows);
    cols = std::max(1LL, cols);
    window.rowCount = std::clamp(window.rowCount <= 0 ? rows : window.rowCount, 1LL, rows);
    window.colCount = std::clamp(window.colCount <= 0 ? cols : window.colCount, 1LL, cols);
    window.firstRow = std::clamp(window.firstRow, 0LL, rows - window.rowCount);
    window.firstCol = std::clamp(window.firstCol, 0LL, cols - window.colCount);
    return window;
}

HeatmapSample relativeOffsetSample(const std::vector<double>& byOffset, int length,
                                   CellWindow window, int maxRows, int maxCols,
                                   BlockSummary summary) {
    HeatmapSample sample;
    length = std::max(1, length);
    window = clampWindow(window, length, length);
    sample.window = window;
    sample.rowsPerTexel = cellsPerTexel(window.rowCount, maxRows);
    sample.colsPerTexel = cellsPerTexel(window.colCount, maxCols);
    const long long texRows = (window.rowCount + sample.rowsPerTexel - 1) / sample.rowsPerTexel;
    const long long texCols = (window.colCount + sample.colsPerTexel - 1) / sample.colsPerTexel;
    sample.rowSpan = double(texRows * sample.rowsPerTexel);
    sample.colSpan = double(texCols * sample.colsPerTexel);
    sample.version = nextMatrixVersion();
    auto texels = std::make_shared<Matrix>(std::size_t(texRows), std::size_t(texCols));
    if (byOffset.size() != std::size_t(2 * length - 1)) {  // caller error: draw it as missing
        std::fill(texels->values.begin(), texels->values.end(),
                  std::numeric_limits<double>::quiet_NaN());
        sample.values = std::move(texels);
        return sample;
    }
    const long long last = length - 1;
    auto valueAt = [&](long long i, long long j) { return byOffset[std::size_t(j - i + last)]; };

    const bool exactCells = sample.rowsPerTexel == 1 && sample.colsPerTexel == 1;
    if (summary == BlockSummary::CentreCell || exactCells) {
        for (long long tr = 0; tr < texRows; ++tr) {
            const long long r0 = window.firstRow + tr * sample.rowsPerTexel;
            const long long r1 =
                std::min(window.firstRow + window.rowCount, r0 + sample.rowsPerTexel);
            const long long row = r0 + (r1 - r0 - 1) / 2;
            double* out = texels->row(std::size_t(tr));
            for (long long tc = 0; tc < texCols; ++tc) {
                const long long c0 = window.firstCol + tc * sample.colsPerTexel;
                const long long c1 =
                    std::min(window.firstCol + window.colCount, c0 + sample.colsPerTexel);
                out[tc] = valueAt(row, c0 + (c1 - c0 - 1) / 2);
            }
        }
        sample.values = std::move(texels);
        return sample;
    }

    // Row i of a block covers one run of offsets, so its sum is a difference of prefix sums P;
    // the block's rows are consecutive runs, so summing those differences is a difference of
    // prefix sums of P (Q). Every block then costs O(1), whatever its size. Long double keeps
    // the integer sums of the ALiBi pattern exact up to L = 2^20 (Q < 2^61).
    const std::size_t count = byOffset.size();
    // Q from a running P (P is not read again), and the counts only when a value is masked (else
    // a block's count is its area): at L 65,536 the four arrays were 6 MB of fresh pages a
    // sample, more time in page faults than in the sums. The same sums in the same order.
    const bool anyMasked = std::find(byOffset.begin(), byOffset.end(), kMinusInf) != byOffset.end();
    std::vector<long double> prefix2(count + 2, 0.0L);
    std::vector<long long> unmasked2(anyMasked ? count + 2 : 0, 0);
    long double prefix = 0.0L;
    long long unmasked = 0;
    for (std::size_t k = 0; k <= count; ++k) {
        prefix2[k + 1] = prefix2[k] + prefix;
        if (anyMasked) unmasked2[k + 1] = unmasked2[k] + unmasked;
        if (k == count) break;
        const bool masked = byOffset[k] == kMinusInf;
        prefix = prefix + (masked ? 0.0L : (long double)byOffset[k]);
        unmasked += masked ? 0 : 1;
    }
    // Sum over rows r0..r1-1 of P[c - i + L - 1] = Q[c - r0 + L] - Q[c - r1 + L].
    auto rowsSum = [&](long long c, long long r0, long long r1) {
        return prefix2[std::size_t(c - r0 + length)] - prefix2[std::size_t(c - r1 + length)];
    };
    auto rowsCount = [&](long long c, long long r0, long long r1) {
        return unmasked2[std::size_t(c - r0 + length)] - unmasked2[std::size_t(c - r1 + length)];
    };
    auto blockMean = [&](long long r0, long long r1, long long c0, long long c1) {
        const long double sum = rowsSum(c1, r0, r1) - rowsSum(c0, r0, r1);
        const long long cells =
            anyMasked ? rowsCount(c1, r0, r1) - rowsCount(c0, r0, r1) : (r1 - r0) * (c1 - c0);
        return cells == 0 ? kMinusInf : double(sum / (long double)cells);
    };
    // A whole a x b block reads Q only at its corner's offset d = c0 - r0 plus constants, so its
    // mean is a function of d, on a lattice of step gcd(a, b). Where the lattice has fewer points
    // than there are whole blocks (L 65,536 in 700 x 600 texels: 65,536 points, 420,000 blocks)
    // each point is computed once, in the same operations: the texels are the same bits.
    const long long a = sample.rowsPerTexel, b = sample.colsPerTexel;
    const long long wholeRows = window.rowCount / a, wholeCols = window.colCount / b;
    const long long step = std::gcd(a, b);
    const long long lowest = window.firstCol - (window.firstRow + (wholeRows - 1) * a);
    const long long points =
        wholeRows > 0 && wholeCols > 0
            ? (window.firstCol + (wholeCols - 1) * b - window.firstRow - lowest) / step + 1
            : 0;
    std::vector<double> byCorner;
    if (points > 0 && points < wholeRows * wholeCols) {
        byCorner.resize(std::size_t(points));
        for (long long k = 0; k < points; ++k) {
            const long long d = lowest + k * step;
            byCorner[std::size_t(k)] = blockMean(0, a, d, d + b);
        }
    }
    for (long long tr = 0; tr < texRows; ++tr) {
        const long long r0 = window.firstRow + tr * a;
        const long long r1 = std::min(window.firstRow + window.rowCount, r0 + a);
        double* out = texels->row(std::size_t(tr));
        const bool wholeRow = tr < wholeRows && !byCorner.empty();
        for (long long tc = 0; tc < texCols; ++tc) {
            const long long c0 = window.firstCol + tc * b;
            if (wholeRow && tc < wholeCols) {
                out[tc] = byCorner[std::size_t((c0 - r0 - lowest) / step)];
                continue;
            }
            out[tc] = blockMean(r0, r1, c0, std::min(window.firstCol + window.colCount, c0 + b));
        }
    }
    sample.values = std::move(texels);
    return sample;
}

HeatmapSample emptyHeatmapSample(CellWindow window, long long rowsPerTexel,
                                 long long colsPerTexel) {
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

}  // namespace poslab
