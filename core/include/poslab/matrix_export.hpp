// matrix_export.hpp — save a matrix in the format its file name asks for.
#pragma once

#include <string>

#include "poslab/matrix.hpp"
#include "poslab/result.hpp"

namespace poslab {

Status checkMatrixExtension(const std::string& path);  // ok for .csv and .npy (any case)
Status saveMatrix(const Matrix& matrix, const std::string& path);  // .csv or .npy, atomically

}  // namespace poslab
