#include "poslab/encodings/cope.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "poslab/base/validate.hpp"

namespace poslab {

Status validate(const CopeParams& params) {
    return requireIntInRange("npos", params.npos, 1, kMaxCopePositions);
}

double sigmoid(double x) {
    // exp of a large positive argument overflows; use the form whose exp argument is <= 0.
    if (x >= 0) return 1 / (1 + std::exp(-x));
    const double e = std::exp(x);
    return e / (1 + e);
}

Matrix copeGates(const Matrix& gateLogits, int headDim, const CopeParams& params) {
    Matrix gates(gateLogits.rows, gateLogits.cols);
    const double scale = params.divideGates && headDim > 0 ? 1 / std::sqrt(double(headDim)) : 1.0;
    for (std::size_t i = 0; i < gates.rows; ++i) {
        for (std::size_t j = 0; j < gates.cols; ++j) {
            const bool masked = params.causal && j > i;
            gates(i, j) = masked ? 0.0 : sigmoid(gateLogits(i, j) * scale);
        }
    }
    return gates;
}

Matrix copePositions(const Matrix& gates, const CopeParams& params) {
    Matrix positions(gates.rows, gates.cols);
    const double cap = double(std::max(params.npos, 1) - 1);
    for (std::size_t i = 0; i < gates.rows; ++i) {
        // gates.flip(-1).cumsum(-1).flip(-1): sum from the end of the row down to column j.
        double sum = 0;
        for (std::size_t j = gates.cols; j-- > 0;) {
            sum += gates(i, j);
            positions(i, j) = std::min(sum, cap);  // .clamp(max=npos - 1)
        }
    }
    return positions;
}

Result<Matrix> copePositionLogits(const Matrix& queries, const Matrix& table) {
    if (queries.cols != table.rows) {
        return Error{"position table must have head_dim = " + std::to_string(queries.cols) +
                     " rows (got " + std::to_string(table.rows) + ")"};
    }
    Matrix logits(queries.rows, table.cols);
    for (std::size_t i = 0; i < queries.rows; ++i) {
        for (std::size_t c = 0; c < queries.cols; ++c) {
            const double q = queries(i, c);
            const double* e = table.row(c);
            double* out = logits.row(i);
            for (std::size_t t = 0; t < table.cols; ++t) out[t] += q * e[t];
        }
    }
    return logits;
}

Result<Matrix> copeInterpolatedLogits(const Matrix& positionLogits, const Matrix& positions) {
    if (positions.rows != positionLogits.rows) {
        return Error{"positions must have " + std::to_string(positionLogits.rows) +
                     " rows, one per query (got " + std::to_string(positions.rows) + ")"};
    }
    const double last = double(positionLogits.cols) - 1;
    Matrix bias(positions.rows, positions.cols);
    for (std::size_t i = 0; i < positions.rows; ++i) {
        for (std::size_t j = 0; j < positions.cols; ++j) {
            const double p = positions(i, j);
            if (!(p >= 0 && p <= last)) {
                return Error{"position " + formatNumber(p) + " must be 0.." + formatNumber(last)};
            }
            const double floorP = std::floor(p), ceilP = std::ceil(p);
            const double w = p - floorP;  // pos_ceil_weight
            bias(i, j) = positionLogits(i, std::size_t(ceilP)) * w +
                         positionLogits(i, std::size_t(floorP)) * (1 - w);
        }
    }
    return bias;
}

}  // namespace poslab
