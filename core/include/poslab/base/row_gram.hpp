// row_gram.hpp — dot products of many rows at once: the Gram matrix R R^T of a set of rows (the
// covariance or Gram matrix of a table's PCA) and the product of such a matrix with a block of
// vectors (the block Lanczos step on it).
//
// The kernels work on cache-sized pieces (a block of rows kept in L2, a tile of dot products kept
// in registers) and use the widest SIMD registers the processor has (AVX-512, AVX2 or SSE2,
// chosen when called). Every dot product is summed in the same order on every processor and for
// any number of cores: eight running sums over the entries (entry k into sum k mod 8) within
// each stretch of kGramChunk entries, the eight added in a fixed tree, the stretches in order.
// No multiply-add is fused, so the three code paths give the same bits.
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

#include "poslab/base/matrix.hpp"

namespace poslab {

inline constexpr std::size_t kGramChunk = 512;  // entries per stretch (4 KiB of a row)

// ---- Rows laid out for the kernels
// `count` rows of `length` values: each row starts on a 64-byte boundary and is zero-padded to
// a multiple of 8 values, and the row count is padded to a multiple of 4 with zero rows. The
// padding is zero and stays zero (the kernels read it; zeros add nothing to a dot product).
class PaddedRows {
  public:
    // Zero: every value starts at zero. WrittenByCaller: only the padding is zeroed, and the
    // caller writes each row's `length` values before anything reads them (no zeroing pass over
    // a buffer about to be overwritten: 128 MiB for the largest table's PCA, whose pages are then
    // first touched by the writers on every core).
    enum class Contents { Zero, WrittenByCaller };
    PaddedRows() = default;
    PaddedRows(std::size_t count, std::size_t length, Contents contents = Contents::Zero);
    PaddedRows(PaddedRows&&) noexcept = default;  // the buffer moves, its alignment with it
    PaddedRows& operator=(PaddedRows&&) noexcept = default;
    PaddedRows(const PaddedRows&) = delete;  // a copy's buffer would be aligned differently
    PaddedRows& operator=(const PaddedRows&) = delete;
    std::size_t count() const { return count_; }         // rows asked for
    std::size_t length() const { return length_; }       // values per row asked for
    std::size_t stride() const { return stride_; }       // values from one row to the next
    std::size_t paddedCount() const { return padded_; }  // rows stored, a multiple of 4
    double* row(std::size_t i) { return storage_.get() + offset_ + i * stride_; }
    const double* row(std::size_t i) const { return storage_.get() + offset_ + i * stride_; }
    // How many doubles a PaddedRows(count, length) holds (for memory caps, before making one).
    static std::size_t storedDoubles(std::size_t count, std::size_t length);

  private:
    std::unique_ptr<double[]> storage_;  // the rows start offset_ values in (a 64-byte boundary)
    std::size_t offset_ = 0, count_ = 0, length_ = 0, stride_ = 0, padded_ = 0;
};

// ---- Products
// G = R R^T / divisor (count x count, symmetric, as padded rows): G(i, j) = row i . row j /
// divisor. Only the upper triangle is computed (the lower is its mirror), each core taking the
// next column block not yet taken, the largest first.
PaddedRows rowGram(const PaddedRows& rows, double divisor);
Matrix toMatrix(const PaddedRows& rows);  // count x length
// y = A x for a symmetric n x n matrix A stored as padded rows (A.count() == n) and x n x b
// (column j is vector j); y is resized to n x b. Rows of A shared between the cores.
void symmetricTimesBlock(const PaddedRows& a, const Matrix& x, Matrix& y);
// Two passes of block classical Gram-Schmidt: w_c -= sum over i < count of (q_i . w_c) q_i, twice
// ("twice is enough" in double precision), for the rows q_i of `basis` (rows from count on must
// be zero: they are read, in tiles of 4) and every row w_c of `w`. coefficients (count x
// w.count(), overwritten): q_i . w_c before the passes, the sum of both passes' dot products.
// Dot products and updates shared between the cores by stretches of kGramChunk entries (each
// dot product still its stretches' sums in order: the same bits on any number of cores).
void projectOutRows(const PaddedRows& basis, std::size_t count, PaddedRows& w,
                    Matrix& coefficients);

}  // namespace poslab
