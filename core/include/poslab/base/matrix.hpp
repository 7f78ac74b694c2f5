// matrix.hpp — the dense row-major matrix every encoding produces.
//
// Values are double so exports keep full precision; the GUI converts visible windows to float.
#pragma once

#include <cstddef>
#include <vector>

namespace poslab {

struct Matrix {
    std::size_t rows = 0;
    std::size_t cols = 0;
    std::vector<double> values;  // rows * cols, row-major: (r, c) is values[r * cols + c]

    Matrix() = default;
    Matrix(std::size_t rowCount, std::size_t colCount, double fill = 0.0)
        : rows(rowCount), cols(colCount), values(rowCount * colCount, fill) {}

    double& operator()(std::size_t r, std::size_t c) { return values[r * cols + c]; }
    double operator()(std::size_t r, std::size_t c) const { return values[r * cols + c]; }
    double* row(std::size_t r) { return values.data() + r * cols; }  // pointer to row r
    const double* row(std::size_t r) const { return values.data() + r * cols; }
    bool empty() const { return values.empty(); }
};

}  // namespace poslab
