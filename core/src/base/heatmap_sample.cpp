#include "poslab/base/heatmap_sample.hpp"

#include <algorithm>
#include <atomic>

namespace poslab {

std::uint64_t nextMatrixVersion() {
    static std::atomic<std::uint64_t> counter{0};
    return ++counter;
}

std::string blockNote(const HeatmapSample& sample, const std::string& summary) {
    if (sample.rowsPerTexel <= 1 && sample.colsPerTexel <= 1) return "";
    return "each pixel: " + summary + " " + std::to_string(sample.rowsPerTexel) + "x" +
           std::to_string(sample.colsPerTexel) + " cells";
}

int texelBudget(double pixels) {
    if (!(pixels >= 1)) return 1;
    return pixels >= kMaxTexelsPerSide ? kMaxTexelsPerSide : int(pixels);
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

}  // namespace poslab
