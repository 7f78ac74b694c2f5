// symmetric_eigen.hpp — eigenpairs of symmetric matrices, and of positive semi-definite operators
// known only by their action on a block of vectors. Cyclic Jacobi for small matrices; Householder
// tridiagonalisation + implicit QL for dense ones; band reduction + QL and inverse iteration for
// band ones (block Lanczos' Rayleigh-Ritz step); block Lanczos for the top eigenpairs of large
// ones. Used by the table structure analysis (analysis/table_structure.hpp).
#pragma once

#include <cstddef>
#include <functional>
#include <vector>

#include "poslab/base/matrix.hpp"
#include "poslab/base/row_gram.hpp"

namespace poslab {

inline constexpr std::size_t kJacobiLimit = 192;          // full Jacobi up to this size
inline constexpr double kEigenTolerance = 1e-10;          // Ritz residual / largest eigenvalue
inline constexpr std::size_t kMaxKrylovDimension = 1536;  // block Lanczos gives up beyond this

// ---- Symmetric eigen-decomposition
struct SymmetricEigen {
    std::vector<double> values;  // descending
    Matrix vectors;              // n x values.size(); column j is the unit eigenvector of values[j]
    int iterations = 0;          // Jacobi sweeps or subspace iterations used
    bool converged = true;
};
// All eigenpairs by cyclic Jacobi rotations. `symmetric` must be square (only its upper triangle
// is trusted to be the lower one's mirror; the result is for the symmetrised matrix).
SymmetricEigen jacobiEigen(const Matrix& symmetric);
// All eigenpairs by Householder tridiagonalisation and implicit QL (O(n^3), far fewer operations
// than Jacobi's sweeps).
SymmetricEigen denseSymmetricEigen(const Matrix& symmetric);
// ---- Symmetric band matrices (block Lanczos' projected matrix is one, of half-width = block)
class SymmetricBand {
  public:
    SymmetricBand() = default;
    SymmetricBand(std::size_t n, std::size_t halfWidth);  // n x n, zero
    std::size_t size() const { return n_; }
    std::size_t halfWidth() const { return width_; }  // entries with |i - j| <= this are kept
    double at(std::size_t i, std::size_t j) const { return values_[index(i, j)]; }  // in the band
    void set(std::size_t i, std::size_t j, double value) {  // (i, j) and (j, i), in the band
        values_[index(i, j)] = value;
        values_[index(j, i)] = value;
    }

  private:
    std::size_t index(std::size_t i, std::size_t j) const {
        return i * (2 * width_ + 1) + j + width_ - i;
    }
    std::size_t n_ = 0, width_ = 0;
    std::vector<double> values_;  // row i: columns i - width .. i + width
};
// Every eigenvalue, descending: Schwarz's reduction to tridiagonal form by Givens rotations
// (O(width n^2)), then implicit QL.
std::vector<double> bandEigenvalues(const SymmetricBand& band);
// The `count` largest eigenpairs (vectors n x count, unit columns): the eigenvalues above, the
// vectors by inverse iteration on the band LU (O(width^2 n) each), those of eigenvalues within
// 1e-3 |A| of each other kept orthogonal (LAPACK dstein's recipe: a repeated eigenvalue gets a
// basis of its eigenspace).
SymmetricEigen bandTopEigenpairs(const SymmetricBand& band, std::size_t count);

// A symmetric operator by its action on a block of vectors: y = A x, x and y n x b (column j is
// vector j; y is resized by the operator).
using BlockOperator = std::function<void(const Matrix& x, Matrix& y)>;
// The `count` largest eigenpairs (1 <= count <= n) of a positive semi-definite operator by block
// Lanczos: blocks of 4 vectors from a seeded random start (an eigenvalue repeated up to 4 times
// is found every time it occurs), full reorthogonalisation, Rayleigh-Ritz on the growing basis
// (its block tridiagonal projection, by bandTopEigenpairs, each time the basis has grown by a
// tenth) until every wanted Ritz residual |A v - theta v| <= tolerance x theta_1, or the basis
// holds n vectors (exact) or 1536 (converged = false). iterations = blocks applied.
SymmetricEigen blockKrylovEigenpairs(std::size_t n, const BlockOperator& apply, int count,
                                     double tolerance = kEigenTolerance);
// The same for an explicit matrix: Jacobi for n <= kJacobiLimit, else block Lanczos (its products
// by base/row_gram.hpp's SIMD kernel). The PaddedRows form is taken as symmetric as it is.
SymmetricEigen topEigenpairs(const Matrix& symmetric, int count);
SymmetricEigen topEigenpairs(const PaddedRows& symmetric, int count);

// ---- Pieces
// x . y over n entries in four running sums, added (s0 + s1) + (s2 + s3): the order every caller
// relies on for bit-identical results.
double fourSumDot(const double* x, const double* y, std::size_t n);

}  // namespace poslab
