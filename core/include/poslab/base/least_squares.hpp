// least_squares.hpp — the X that minimises ||A X - B|| (Frobenius norm; each column of B on its
// own), by Householder QR with column pivoting.
//
// QR works on A itself, not on the normal equations AᵀA, whose condition number is the square
// of A's: the sin-only shift fit (analysis/intuition) has slow sine columns that are nearly
// linear in p, hence nearly parallel, and AᵀA would lose every digit there. A column the
// pivoting finds dependent on the ones before it (|R_kk| below max(rows, cols) · eps · |R_00|)
// is left out and its row of X set to zero: the "basic" least-squares solution. The residual is
// still the least one; only X is then one of many that reach it.
#pragma once

#include "poslab/base/matrix.hpp"
#include "poslab/base/result.hpp"

namespace poslab {

struct LeastSquares {
    Matrix solution;  // A.cols x B.cols: X
    Matrix residual;  // A.rows x B.cols: A X - B, multiplied out again (not from the QR)
    int rank = 0;     // columns of A the solution uses
};
// A and B need the same number of rows (>= 1), at least one column each, and finite entries.
Result<LeastSquares> leastSquares(const Matrix& a, const Matrix& b);

}  // namespace poslab
