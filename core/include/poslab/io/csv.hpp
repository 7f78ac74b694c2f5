// csv.hpp — matrices as comma-separated text.
//
// One row per line, no header, values in the shortest decimal form that reads back to the same
// double; infinities and NaN are spelled inf, -inf and nan (numpy.loadtxt reads them).
#pragma once

#include <cstdio>
#include <string>
#include <string_view>

#include "poslab/base/matrix.hpp"
#include "poslab/base/result.hpp"

namespace poslab {

Status writeCsv(const Matrix& matrix, std::FILE* file);   // to an open file
Status saveCsv(const Matrix& matrix, const std::string& path);  // atomically to a path
Result<Matrix> parseCsv(std::string_view text);           // the inverse, for tests and loading

}  // namespace poslab
