#include "poslab/base/least_squares.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <numeric>
#include <string>
#include <utility>
#include <vector>

namespace poslab {

namespace {

bool allFinite(const Matrix& m) {
    return std::all_of(m.values.begin(), m.values.end(), [](double v) { return std::isfinite(v); });
}

// The columns of m, each contiguous: QR walks columns.
std::vector<std::vector<double>> columnsOf(const Matrix& m) {
    std::vector<std::vector<double>> columns(m.cols, std::vector<double>(m.rows));
    for (std::size_t r = 0; r < m.rows; ++r) {
        for (std::size_t c = 0; c < m.cols; ++c) columns[c][r] = m(r, c);
    }
    return columns;
}

// Euclidean norm of column[first..], scaled against overflow.
double tailNorm(const std::vector<double>& column, std::size_t first) {
    double scale = 0, sum = 1;
    for (std::size_t r = first; r < column.size(); ++r) {
        const double v = std::abs(column[r]);
        if (v == 0) continue;
        if (v > scale) {
            sum = 1 + sum * (scale / v) * (scale / v);
            scale = v;
        } else {
            sum += (v / scale) * (v / scale);
        }
    }
    return scale * std::sqrt(sum);
}

}  // namespace

Result<LeastSquares> leastSquares(const Matrix& a, const Matrix& b) {
    if (a.rows == 0 || a.cols == 0 || b.cols == 0)
        return Error{"least squares needs a non-empty A and B"};
    if (a.rows != b.rows) {
        return Error{"least squares needs A and B with the same rows (got " +
                     std::to_string(a.rows) + " and " + std::to_string(b.rows) + ")"};
    }
    if (!allFinite(a) || !allFinite(b)) return Error{"least squares needs finite A and B"};
    const std::size_t m = a.rows, n = a.cols, nb = b.cols;
    auto r = columnsOf(a);              // becomes R (upper triangle) as the reflections are applied
    auto qtb = columnsOf(b);            // becomes Qᵀ B
    std::vector<std::size_t> order(n);  // order[k]: the column of A now at position k
    std::iota(order.begin(), order.end(), std::size_t(0));
    const std::size_t steps = std::min(m, n);
    const double eps = std::numeric_limits<double>::epsilon();
    double tolerance = 0;
    int rank = 0;
    std::vector<double> v(m);
    for (std::size_t k = 0; k < steps; ++k) {
        // Pivot: the remaining column with the largest norm below row k.
        std::size_t best = k;
        double bestNorm = -1;
        for (std::size_t c = k; c < n; ++c) {
            const double norm = tailNorm(r[c], k);
            if (norm > bestNorm) bestNorm = norm, best = c;
        }
        if (k == 0) tolerance = double(std::max(m, n)) * eps * bestNorm;
        if (bestNorm <= tolerance || bestNorm == 0) break;
        std::swap(r[k], r[best]);
        std::swap(order[k], order[best]);
        // Householder reflection H = I - 2 v vᵀ / (vᵀ v) taking column k below row k to
        // (alpha, 0, ..., 0); alpha's sign opposite to r(k, k) avoids cancellation in v[k].
        std::vector<double>& pivot = r[k];
        const double alpha = pivot[k] >= 0 ? -bestNorm : bestNorm;
        for (std::size_t row = k; row < m; ++row) v[row] = pivot[row];
        v[k] -= alpha;
        double vv = 0;
        for (std::size_t row = k; row < m; ++row) vv += v[row] * v[row];
        auto reflect = [&](std::vector<double>& column) {
            double dot = 0;
            for (std::size_t row = k; row < m; ++row) dot += v[row] * column[row];
            const double f = 2 * dot / vv;
            for (std::size_t row = k; row < m; ++row) column[row] -= f * v[row];
        };
        if (vv > 0) {
            for (std::size_t c = k + 1; c < n; ++c) reflect(r[c]);
            for (std::size_t c = 0; c < nb; ++c) reflect(qtb[c]);
        }
        pivot[k] = alpha;
        std::fill(pivot.begin() + std::ptrdiff_t(k) + 1, pivot.end(), 0.0);
        rank = int(k) + 1;
    }

    LeastSquares out;
    out.rank = rank;
    out.solution = Matrix(n, nb);
    // R11 z = (Qᵀ B)[0..rank): back substitution, then undo the column order.
    const std::size_t used = std::size_t(rank);
    for (std::size_t c = 0; c < nb; ++c) {
        std::vector<double> z(used, 0.0);
        for (std::size_t i = used; i-- > 0;) {
            double sum = qtb[c][i];
            for (std::size_t j = i + 1; j < used; ++j) sum -= r[j][i] * z[j];
            z[i] = sum / r[i][i];
        }
        for (std::size_t i = 0; i < used; ++i) out.solution(order[i], c) = z[i];
    }
    out.residual = Matrix(m, nb);
    for (std::size_t row = 0; row < m; ++row) {
        const double* aRow = a.row(row);
        for (std::size_t c = 0; c < nb; ++c) {
            double sum = -b(row, c);
            for (std::size_t j = 0; j < n; ++j) sum += aRow[j] * out.solution(j, c);
            out.residual(row, c) = sum;
        }
    }
    return out;
}

}  // namespace poslab
