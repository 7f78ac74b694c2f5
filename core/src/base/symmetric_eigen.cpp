// symmetric_eigen.cpp — eigenpairs of symmetric matrices and operators (base/symmetric_eigen.hpp):
// cyclic Jacobi, Householder + implicit QL, and block Lanczos with Rayleigh-Ritz.
#include "poslab/base/symmetric_eigen.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <random>

#include "poslab/base/parallel.hpp"
#include "poslab/base/random.hpp"

namespace poslab {

// x . y over n entries, four running sums (the compiler may not reorder a single sum, and the
// four keep both of a core's adders busy).
double fourSumDot(const double* x, const double* y, std::size_t n) {
    double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
    std::size_t i = 0;
    for (; i + 4 <= n; i += 4) {
        s0 += x[i] * y[i];
        s1 += x[i + 1] * y[i + 1];
        s2 += x[i + 2] * y[i + 2];
        s3 += x[i + 3] * y[i + 3];
    }
    for (; i < n; ++i) s0 += x[i] * y[i];
    return (s0 + s1) + (s2 + s3);
}

namespace {

// Block Krylov: vectors per block (eigenvalues repeated up to the block size are all found; a
// larger multiplicity only when the space is exhausted), and the largest basis built before
// giving up on convergence.
constexpr std::size_t kKrylovBlock = 4;  // 4 vectors: about half the passes over the table of
                                         // single-vector Lanczos, and fewer flops than wider blocks

// Eigenpairs sorted by descending value (columns of vectors follow).
void sortDescending(SymmetricEigen& eigen) {
    const std::size_t n = eigen.values.size();
    std::vector<std::size_t> order(n);
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return eigen.values[a] > eigen.values[b];
    });
    SymmetricEigen sorted;
    sorted.values.resize(n);
    sorted.vectors = Matrix(eigen.vectors.rows, n);
    for (std::size_t j = 0; j < n; ++j) {
        sorted.values[j] = eigen.values[order[j]];
        for (std::size_t i = 0; i < eigen.vectors.rows; ++i) {
            sorted.vectors(i, j) = eigen.vectors(i, order[j]);
        }
    }
    sorted.iterations = eigen.iterations;
    sorted.converged = eigen.converged;
    eigen = std::move(sorted);
}

Matrix firstColumns(const Matrix& m, std::size_t count) {
    Matrix out(m.rows, count);
    for (std::size_t i = 0; i < m.rows; ++i) std::copy_n(m.row(i), count, out.row(i));
    return out;
}

// Basis vectors are stored as the rows of `basis` (each contiguous). Makes `v` orthogonal to
// rows [0, count) by classical Gram-Schmidt run twice (enough in double precision), returns its
// norm afterwards.
// firstPass (count entries, optional): the first pass's coefficients, basis_i . v as given.
double orthogonalizeAgainst(const PaddedRows& basis, std::size_t count, double* v,
                            double* firstPass = nullptr) {
    const std::size_t n = basis.length();
    std::vector<double> coefficients(count);
    for (int pass = 0; pass < 2; ++pass) {
        for (std::size_t i = 0; i < count; ++i) coefficients[i] = fourSumDot(basis.row(i), v, n);
        if (pass == 0 && firstPass) std::copy(coefficients.begin(), coefficients.end(), firstPass);
        for (std::size_t i = 0; i < count; ++i) {
            const double* q = basis.row(i);
            const double h = coefficients[i];
            for (std::size_t r = 0; r < n; ++r) v[r] -= h * q[r];
        }
    }
    return std::sqrt(fourSumDot(v, v, n));
}

}  // namespace

// ---- Eigen-solvers

SymmetricEigen jacobiEigen(const Matrix& symmetric) {
    const std::size_t n = symmetric.rows;
    Matrix a(n, n);
    for (std::size_t i = 0; i < n; ++i) {
        for (std::size_t j = 0; j < n; ++j) {
            a(i, j) = 0.5 * (symmetric(i, j) + symmetric(j, i));
        }
    }
    SymmetricEigen result;
    result.vectors = Matrix(n, n);
    for (std::size_t i = 0; i < n; ++i) result.vectors(i, i) = 1;
    double scale = 0;
    for (double v : a.values) scale += v * v;
    result.converged = false;
    for (int sweep = 0; sweep < 100; ++sweep) {
        double off = 0;
        for (std::size_t p = 0; p < n; ++p) {
            for (std::size_t q = p + 1; q < n; ++q) off += a(p, q) * a(p, q);
        }
        result.iterations = sweep;
        if (off <= 1e-30 * scale || off == 0) {
            result.converged = true;
            break;
        }
        for (std::size_t p = 0; p < n; ++p) {
            for (std::size_t q = p + 1; q < n; ++q) {
                const double apq = a(p, q);
                if (apq == 0) continue;
                // The rotation in the (p, q) plane that zeroes a(p, q); t = tan of its angle,
                // the smaller root of t^2 + 2 theta t - 1 = 0, for stability.
                const double theta = (a(q, q) - a(p, p)) / (2 * apq);
                const double t =
                    (theta >= 0 ? 1.0 : -1.0) / (std::abs(theta) + std::sqrt(theta * theta + 1));
                const double c = 1 / std::sqrt(t * t + 1), s = t * c;
                for (std::size_t k = 0; k < n; ++k) {  // A J
                    const double akp = a(k, p), akq = a(k, q);
                    a(k, p) = c * akp - s * akq;
                    a(k, q) = s * akp + c * akq;
                }
                for (std::size_t k = 0; k < n; ++k) {  // J^T (A J)
                    const double apk = a(p, k), aqk = a(q, k);
                    a(p, k) = c * apk - s * aqk;
                    a(q, k) = s * apk + c * aqk;
                }
                for (std::size_t k = 0; k < n; ++k) {  // V J
                    const double vkp = result.vectors(k, p), vkq = result.vectors(k, q);
                    result.vectors(k, p) = c * vkp - s * vkq;
                    result.vectors(k, q) = s * vkp + c * vkq;
                }
            }
        }
    }
    result.values.resize(n);
    for (std::size_t i = 0; i < n; ++i) result.values[i] = a(i, i);
    sortDescending(result);
    return result;
}

namespace {
// Every eigenvalue of `symmetric` (descending) and, as the rows of vectors, the eigenvectors'
// entries rowBegin..rowEnd-1 (vectors(r, j): entry rowBegin + r of the vector of values[j]).
SymmetricEigen denseEigenRows(const Matrix& symmetric, std::size_t rowBegin, std::size_t rowEnd);
}  // namespace

SymmetricEigen denseSymmetricEigen(const Matrix& symmetric) {
    return denseEigenRows(symmetric, 0, symmetric.rows);
}

namespace {

// Mostly row updates the compiler vectorises (no sums reordered; AVX2 has no fused multiply-add
// to contract into), so the two clones give the same bits.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
__attribute__((target_clones("avx2", "default")))
#endif
SymmetricEigen
denseEigenRows(const Matrix& symmetric, std::size_t rowBegin, std::size_t rowEnd) {
    const std::size_t n = symmetric.rows, kept = rowEnd - rowBegin;
    SymmetricEigen result;
    if (n == 0) return result;
    // The eigenvectors' entries rowBegin..rowEnd-1 are built as the columns of qt (row i: entries
    // of vector i), so every update below runs along contiguous rows, which the compiler
    // vectorises, and costs kept rather than n per row.
    Matrix qt(n, kept);
    for (std::size_t r = rowBegin; r < rowEnd; ++r) qt(r, r - rowBegin) = 1;
    Matrix a(n, n);  // the lower triangle is kept
    for (std::size_t i = 0; i < n; ++i) {
        for (std::size_t j = 0; j <= i; ++j) a(i, j) = 0.5 * (symmetric(i, j) + symmetric(j, i));
    }
    // 1. Householder: A = Q T Q^T with T tridiagonal. Step k reflects rows and columns k+1..n-1
    //    with H = I - beta v v^T so that column k below the diagonal becomes (alpha, 0, ..., 0).
    std::vector<double> v(n), p(n), w(n), qv(kept);
    for (std::size_t k = 0; k + 2 < n; ++k) {
        const std::size_t m = n - k - 1;  // the reflected block's size
        double norm2 = 0;
        for (std::size_t i = 0; i < m; ++i) norm2 += a(k + 1 + i, k) * a(k + 1 + i, k);
        if (norm2 == 0) continue;
        const double x0 = a(k + 1, k);
        const double alpha = x0 > 0 ? -std::sqrt(norm2) : std::sqrt(norm2);
        for (std::size_t i = 0; i < m; ++i) v[i] = a(k + 1 + i, k);
        v[0] -= alpha;
        const double vv = norm2 - x0 * x0 + v[0] * v[0];
        if (vv == 0) continue;
        const double beta = 2 / vv;
        // p = beta A v from the lower triangle, one pass over each row: row i's part left of
        // the diagonal gives p_i its sum over j < i and adds a_ij v_i to every p_j.
        std::fill(p.begin(), p.begin() + long(m), 0.0);
        for (std::size_t i = 0; i < m; ++i) {
            const double* row = a.row(k + 1 + i) + k + 1;
            const double vi = v[i];
            for (std::size_t j = 0; j < i; ++j) p[j] += row[j] * vi;
            p[i] += fourSumDot(row, v.data(), i) + row[i] * vi;
        }
        for (std::size_t i = 0; i < m; ++i) p[i] *= beta;
        const double half = 0.5 * beta * fourSumDot(p.data(), v.data(), m);
        for (std::size_t i = 0; i < m; ++i) w[i] = p[i] - half * v[i];
        for (std::size_t i = 0; i < m; ++i) {  // A -= v w^T + w v^T, lower triangle
            double* row = a.row(k + 1 + i) + k + 1;
            const double vi = v[i], wi = w[i];
            for (std::size_t j = 0; j <= i; ++j) row[j] -= vi * w[j] + wi * v[j];
        }
        a(k + 1, k) = alpha;
        for (std::size_t i = 1; i < m; ++i) a(k + 1 + i, k) = 0;
        // Q H on columns k+1..: Q minus beta (Q v) v^T, i.e. rows k+1.. of qt minus
        // beta v_j (Q v)^T (on the kept entries).
        std::fill(qv.begin(), qv.end(), 0.0);
        for (std::size_t j = 0; j < m; ++j) {
            const double* row = qt.row(k + 1 + j);
            for (std::size_t r = 0; r < kept; ++r) qv[r] += v[j] * row[r];
        }
        for (std::size_t j = 0; j < m; ++j) {
            double* row = qt.row(k + 1 + j);
            const double weight = beta * v[j];
            for (std::size_t r = 0; r < kept; ++r) row[r] -= weight * qv[r];
        }
    }
    std::vector<double> d(n), e(n, 0.0);  // e[i] couples i and i+1
    for (std::size_t i = 0; i < n; ++i) d[i] = a(i, i);
    for (std::size_t i = 0; i + 1 < n; ++i) e[i] = a(i + 1, i);
    // 2. Implicit QL with Wilkinson-like shifts on T (tql2), the rotations applied to Q's columns.
    result.converged = true;
    for (std::size_t l = 0; l < n; ++l) {
        int iterations = 0;
        for (;;) {
            std::size_t m = l;
            for (; m + 1 < n; ++m) {
                const double dd = std::abs(d[m]) + std::abs(d[m + 1]);
                if (std::abs(e[m]) <= std::numeric_limits<double>::epsilon() * dd) break;
            }
            if (m == l) break;
            if (++iterations > 60) {
                result.converged = false;
                break;
            }
            result.iterations = std::max(result.iterations, iterations);
            double g = (d[l + 1] - d[l]) / (2 * e[l]);
            double r = std::hypot(g, 1.0);
            g = d[m] - d[l] + e[l] / (g + (g >= 0 ? r : -r));
            double s = 1, c = 1, shift = 0;
            bool underflow = false;
            for (std::size_t i = m; i-- > l;) {
                const double f = s * e[i], b = c * e[i];
                r = std::hypot(f, g);
                e[i + 1] = r;
                if (r == 0) {  // the rotation vanished: deflate here and start over
                    d[i + 1] -= shift;
                    e[m] = 0;
                    underflow = true;
                    break;
                }
                s = f / r;
                c = g / r;
                g = d[i + 1] - shift;
                r = (d[i] - g) * s + 2 * c * b;
                shift = s * r;
                d[i + 1] = g + shift;
                g = c * r - b;
                double* zi = qt.row(i);
                double* zi1 = qt.row(i + 1);
                for (std::size_t k = 0; k < kept; ++k) {
                    const double zk1 = zi1[k], zk = zi[k];
                    zi1[k] = s * zk + c * zk1;
                    zi[k] = c * zk - s * zk1;
                }
            }
            if (underflow) continue;
            d[l] -= shift;
            e[l] = g;
            e[m] = 0;
        }
    }
    result.values = d;
    result.vectors = Matrix(kept, n);
    for (std::size_t i = 0; i < n; ++i) {
        for (std::size_t r = 0; r < kept; ++r) result.vectors(r, i) = qt(i, r);
    }
    sortDescending(result);
    return result;
}

}  // namespace

SymmetricEigen blockKrylovEigenpairs(std::size_t n, const BlockOperator& apply, int count,
                                     double tolerance) {
    SymmetricEigen result;
    result.converged = false;
    if (n == 0) return result;
    const std::size_t k = std::clamp<std::size_t>(std::size_t(std::max(count, 1)), 1, n);
    const std::size_t block = std::min(n, kKrylovBlock);
    const std::size_t maxDimension = std::min(n, std::max(kMaxKrylovDimension, 2 * block));
    PaddedRows basis(maxDimension, n);     // row i: basis vector i (rows not yet made are zero)
    Matrix h(maxDimension, maxDimension);  // basis^T A basis
    NormalSampler sampler(12345);
    auto randomUnitVector = [&](std::size_t index) {  // orthogonal to rows [0, index)
        double* v = basis.row(index);
        for (double norm = 0; norm < 1e-3;) {
            for (std::size_t r = 0; r < n; ++r) v[r] = sampler.next();
            const double before = std::sqrt(fourSumDot(v, v, n));
            norm = orthogonalizeAgainst(basis, index, v) / before;
            if (norm >= 1e-3) {
                const double length = std::sqrt(fourSumDot(v, v, n));
                for (std::size_t r = 0; r < n; ++r) v[r] /= length;
            } else {
                std::fill(v, v + n, 0.0);  // rows not yet made stay zero
            }
        }
    };
    for (std::size_t i = 0; i < block; ++i) randomUnitVector(i);
    std::size_t dimension = block, start = 0, lastChecked = 0;
    double scale = 0;  // largest |A x| seen for a unit x: what "small" is measured against
    Matrix x, y, coefficients;
    for (;;) {
        const std::size_t width = dimension - start;  // the newest block
        x = Matrix(n, width);
        for (std::size_t c = 0; c < width; ++c) {
            const double* q = basis.row(start + c);
            for (std::size_t r = 0; r < n; ++r) x(r, c) = q[r];
        }
        apply(x, y);
        PaddedRows residual(width, n);       // row c: A q_c, then its part outside the basis
        std::vector<double> applied(width);  // |A q_c|
        for (std::size_t c = 0; c < width; ++c) {
            double* w = residual.row(c);
            for (std::size_t r = 0; r < n; ++r) w[r] = y(r, c);
            applied[c] = std::sqrt(fourSumDot(w, w, n));
            scale = std::max(scale, applied[c]);
        }
        projectOutRows(basis, dimension, residual, coefficients);
        for (std::size_t c = 0; c < width; ++c) {
            for (std::size_t i = 0; i < start; ++i)
                h(i, start + c) = h(start + c, i) = coefficients(i, c);
            for (std::size_t i = start; i < dimension; ++i) h(i, start + c) = coefficients(i, c);
        }
        for (std::size_t i = start; i < dimension; ++i) {  // the new diagonal block, symmetrised
            for (std::size_t j = start; j < i; ++j) h(i, j) = h(j, i) = 0.5 * (h(i, j) + h(j, i));
        }
        result.iterations += 1;
        const bool full = dimension == n;
        const bool last = full || dimension + 1 > maxDimension;
        if (last || (dimension >= k && dimension * 4 >= lastChecked * 5)) {
            lastChecked = dimension;
            Matrix projected(dimension, dimension);
            for (std::size_t i = 0; i < dimension; ++i)
                std::copy_n(h.row(i), dimension, projected.row(i));
            // Only the newest block's entries of the Ritz vectors are needed for the residuals.
            SymmetricEigen ritz = denseEigenRows(projected, start, dimension);
            // |A (basis^T y) - theta basis^T y| = |residual^T y_newest|: A basis^T = basis^T H +
            // R^T.
            double worst = 0;
            std::vector<double> r(n);
            for (std::size_t j = 0; j < k; ++j) {
                std::fill(r.begin(), r.end(), 0.0);
                for (std::size_t c = 0; c < width; ++c) {
                    const double weight = ritz.vectors(c, j);
                    const double* rc = residual.row(c);
                    for (std::size_t t = 0; t < n; ++t) r[t] += weight * rc[t];
                }
                worst = std::max(worst, std::sqrt(fourSumDot(r.data(), r.data(), n)));
            }
            const double top = std::abs(ritz.values.front());
            result.converged = full || worst <= tolerance * top || top == 0;
            if (result.converged || last) {
                ritz = denseSymmetricEigen(projected);
                result.values.assign(ritz.values.begin(), ritz.values.begin() + long(k));
                result.vectors = Matrix(n, k);
                for (std::size_t i = 0; i < dimension; ++i) {
                    const double* q = basis.row(i);
                    const double* yi = ritz.vectors.row(i);
                    for (std::size_t r2 = 0; r2 < n; ++r2) {
                        double* out = result.vectors.row(r2);
                        for (std::size_t j = 0; j < k; ++j) out[j] += q[r2] * yi[j];
                    }
                }
                return result;
            }
        }
        // The next block: the residuals (already orthogonal to the basis, twice) made orthonormal
        // among themselves; one that vanished (A has an invariant subspace there, e.g. a table of
        // low rank) is replaced by a random direction.
        const std::size_t next = std::min(block, maxDimension - dimension);
        for (std::size_t c = 0; c < next; ++c) {
            double* v = basis.row(dimension + c);
            if (c < width) std::copy_n(residual.row(c), n, v);
            const double before = c < width ? applied[c] : 0;
            double norm = std::sqrt(fourSumDot(v, v, n));
            if (c > 0 && c < width) {  // against this block's earlier vectors, twice
                for (int pass = 0; pass < 2; ++pass) {
                    for (std::size_t i = dimension; i < dimension + c; ++i) {
                        const double* q = basis.row(i);
                        const double dot = fourSumDot(q, v, n);
                        for (std::size_t t = 0; t < n; ++t) v[t] -= dot * q[t];
                    }
                }
                norm = std::sqrt(fourSumDot(v, v, n));
            }
            if (c >= width || norm <= 1e-8 * before || norm <= 1e-14 * scale || norm == 0) {
                std::fill(v, v + n, 0.0);
                randomUnitVector(dimension + c);
            } else {
                for (std::size_t r = 0; r < n; ++r) v[r] /= norm;
            }
        }
        start = dimension;
        dimension += next;
    }
}

SymmetricEigen topEigenpairs(const PaddedRows& symmetric, int count) {
    const std::size_t n = symmetric.count();
    const std::size_t k = std::clamp<std::size_t>(std::size_t(std::max(count, 1)), 1, n);
    if (n <= kJacobiLimit) {
        SymmetricEigen full = jacobiEigen(toMatrix(symmetric));
        full.values.resize(k);
        full.vectors = firstColumns(full.vectors, k);
        return full;
    }
    const BlockOperator apply = [&symmetric](const Matrix& x, Matrix& y) {
        symmetricTimesBlock(symmetric, x, y);
    };
    return blockKrylovEigenpairs(n, apply, int(k));
}

SymmetricEigen topEigenpairs(const Matrix& symmetric, int count) {
    const std::size_t n = symmetric.rows;
    PaddedRows a(n, n);  // symmetrised, as for Jacobi
    for (std::size_t i = 0; i < n; ++i) {
        for (std::size_t j = 0; j < n; ++j) a.row(i)[j] = 0.5 * (symmetric(i, j) + symmetric(j, i));
    }
    return topEigenpairs(a, count);
}

}  // namespace poslab
