// npy.hpp — numpy's .npy format (version 1.0), what numpy.save writes and numpy.load reads.
//
// Writing: float64, little-endian, C order, 2-D, with the header padded exactly as numpy pads it
// (so files are byte-for-byte what numpy.save produces for the same array).
#pragma once

#include <cstdio>
#include <string>

#include "poslab/base/matrix.hpp"
#include "poslab/base/result.hpp"

namespace poslab {

std::string npyHeader(std::size_t rows, std::size_t cols);   // magic + version + length + dict
Status writeNpy(const Matrix& matrix, std::FILE* file);       // to an open file
Status saveNpy(const Matrix& matrix, const std::string& path);  // atomically to a path

}  // namespace poslab
