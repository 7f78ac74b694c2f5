// npy_reader.hpp — reading numpy .npy files (format versions 1.0, 2.0 and 3.0) into a Matrix.
//
// Accepted: 2-D arrays of little-endian float32 ('<f4') or float64 ('<f8'), in C or Fortran
// order (Fortran order is transposed into the row-major Matrix). Rows are positions, columns are
// dimensions, as in a trained position-embedding table saved with numpy.save.
//
// The header is a Python dict literal. It is parsed as one (any key order, either quote style,
// any spacing, trailing commas, "(5)" being an int and "(5,)" a tuple) and must hold exactly
// the keys 'descr', 'fortran_order' and 'shape', as numpy requires. NaN and infinities in the
// data are kept as they are. Every failure is an Error of one line that starts with the file
// name: "emb.npy: expected a 2-D array (positions x dimensions), got shape (5,)". Nothing here
// throws, out-of-memory included.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "poslab/base/limits.hpp"
#include "poslab/base/matrix.hpp"
#include "poslab/base/result.hpp"

namespace poslab {

inline constexpr std::size_t kMaxNpyHeaderBytes = 10000;  // numpy.load's max_header_size default
// Files above this are refused before reading: the largest accepted array (a float64 matrix at
// the hard cap: 4 GiB, 1 GiB in the page) plus a generous header allowance. In the page this was
// once 1 MiB: the 4 GiB cap wrapped to 0 in a 32-bit size_t.
inline constexpr std::uintmax_t kMaxNpyFileBytes =
    std::uintmax_t(kHardMatrixCap) + (std::uintmax_t(1) << 20);

// What the preamble and header say, after validation.
struct NpyArrayInfo {
    int majorVersion = 1;        // 1, 2 or 3 (minor version is always 0)
    bool isFloat32 = false;      // '<f4' when true, '<f8' otherwise
    bool fortranOrder = false;   // column-major data
    std::size_t rows = 0;        // shape[0], >= 1
    std::size_t cols = 0;        // shape[1], >= 1
    std::size_t dataOffset = 0;  // bytes before the first element
    std::size_t itemSize() const { return isFloat32 ? 4 : 8; }
    std::size_t dataBytes() const { return rows * cols * itemSize(); }  // checked not to overflow
};

// ---- In memory (name is what error messages call the data)
Result<NpyArrayInfo> parseNpyHeader(std::string_view bytes, std::string_view name = "npy data");
Result<Matrix> parseNpy(std::string_view bytes, std::string_view name = "npy data");

// ---- From a file: reads the header first, so a bad or oversized array is refused before its
// data is read. Bytes after the data are ignored, as numpy.load ignores them.
Result<Matrix> loadNpy(const std::string& path);

}  // namespace poslab
