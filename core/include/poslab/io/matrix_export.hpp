// matrix_export.hpp — save a matrix in the format its file name asks for.
#pragma once

#include <functional>
#include <string>

#include "poslab/base/matrix.hpp"
#include "poslab/base/result.hpp"

namespace poslab {

Status checkMatrixExtension(const std::string& path);  // ok for .csv and .npy (any case)
Status saveMatrix(const Matrix& matrix, const std::string& path);  // .csv or .npy, atomically

// Large tables need not exist in memory: produce(firstRow, rowCount, chunk) fills `chunk` with
// rowCount x cols values, and each chunk is written as it comes (same formats, atomically).
using RowProducer = std::function<Status(std::size_t firstRow, std::size_t rowCount, Matrix& chunk)>;
Status saveMatrixStreaming(const std::string& path, std::size_t rows, std::size_t cols,
                           const RowProducer& produce);

}  // namespace poslab
