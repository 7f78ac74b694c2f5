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

// Implicit QL with Wilkinson-like shifts (tql2) on the symmetric tridiagonal matrix with diagonal
// d and off-diagonal e (e[i] couples i and i + 1; e[n - 1] = 0): d becomes the eigenvalues (in no
// order), e is destroyed. Each rotation is applied to rows i, i + 1 of qt when given (the
// eigenvectors' entries as columns). False when an eigenvalue took over 60 iterations; `most`:
// the most any took.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
__attribute__((target_clones("avx2", "default")))
#endif
bool tridiagonalQl(std::vector<double>& d, std::vector<double>& e, Matrix* qt, int& most) {
    const std::size_t n = d.size(), kept = qt ? qt->cols : 0;
    bool converged = true;
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
                converged = false;
                break;
            }
            most = std::max(most, iterations);
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
                if (!qt) continue;
                double* zi = qt->row(i);
                double* zi1 = qt->row(i + 1);
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
    return converged;
}

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
    // 2. Implicit QL on T, the rotations applied to Q's columns.
    result.converged = tridiagonalQl(d, e, &qt, result.iterations);
    result.values = d;
    result.vectors = Matrix(kept, n);
    for (std::size_t i = 0; i < n; ++i) {
        for (std::size_t r = 0; r < kept; ++r) result.vectors(r, i) = qt(i, r);
    }
    sortDescending(result);
    return result;
}

}  // namespace

// ---- Symmetric band matrices

SymmetricBand::SymmetricBand(std::size_t n, std::size_t halfWidth)
    : n_(n), width_(halfWidth), values_(n * (2 * halfWidth + 1), 0.0) {}

namespace {

// The rotation of planes p and q = p + 1 (x' = c x + s y, y' = -s x + c y for the pair of
// entries in row or column p and q) applied on both sides of `a`, for the other rows and columns
// lo..hi (every one that can hold a non-zero in p or q).
void rotateBandPlanes(SymmetricBand& a, std::size_t p, std::size_t q, double c, double s,
                      std::size_t lo, std::size_t hi) {
    for (std::size_t i = lo; i <= hi; ++i) {
        if (i == p || i == q) continue;
        const double x = a.at(i, p), y = a.at(i, q);
        a.set(i, p, c * x + s * y);
        a.set(i, q, c * y - s * x);
    }
    const double app = a.at(p, p), aqq = a.at(q, q), apq = a.at(p, q);
    a.set(p, p, c * c * app + 2 * c * s * apq + s * s * aqq);
    a.set(q, q, s * s * app - 2 * c * s * apq + c * c * aqq);
    a.set(p, q, (c * c - s * s) * apq + c * s * (aqq - app));
}

// |A|_1 of a band matrix: the largest column sum of magnitudes.
double bandNorm(const SymmetricBand& a) {
    const std::size_t n = a.size(), w = a.halfWidth();
    double norm = 0;
    for (std::size_t j = 0; j < n; ++j) {
        double sum = 0;
        for (std::size_t i = j > w ? j - w : 0; i <= std::min(n - 1, j + w); ++i)
            sum += std::abs(a.at(i, j));
        norm = std::max(norm, sum);
    }
    return norm;
}

// A - shift I, LU-factored with partial pivoting (LINPACK's band layout): row i holds columns
// i - w .. i + 2w (U gains w diagonals from the row exchanges; L's multipliers are kept where
// they eliminated). A zero pivot (shift an eigenvalue to the last bit) becomes `tiny`: the solve
// then returns a huge multiple of the eigenvector, which is what inverse iteration wants.
class ShiftedBandLu {
  public:
    ShiftedBandLu(const SymmetricBand& a, double shift, double tiny)
        : n_(a.size()), w_(a.halfWidth()), stride_(3 * w_ + 1), lu_(n_ * stride_, 0.0), pivot_(n_) {
        for (std::size_t i = 0; i < n_; ++i) {
            for (std::size_t j = i > w_ ? i - w_ : 0; j <= std::min(n_ - 1, i + w_); ++j)
                at(i, j) = a.at(i, j) - (i == j ? shift : 0);
        }
        for (std::size_t j = 0; j < n_; ++j) {
            const std::size_t last = std::min(n_ - 1, j + w_), right = std::min(n_ - 1, j + 2 * w_);
            std::size_t best = j;
            for (std::size_t i = j + 1; i <= last; ++i)
                if (std::abs(at(i, j)) > std::abs(at(best, j))) best = i;
            pivot_[j] = best;
            if (best != j)
                for (std::size_t c = j; c <= right; ++c) std::swap(at(j, c), at(best, c));
            if (std::abs(at(j, j)) < tiny) at(j, j) = at(j, j) < 0 ? -tiny : tiny;
            for (std::size_t i = j + 1; i <= last; ++i) {
                const double l = at(i, j) / at(j, j);
                at(i, j) = l;
                if (l == 0) continue;
                for (std::size_t c = j + 1; c <= right; ++c) at(i, c) -= l * at(j, c);
            }
        }
    }
    void solve(std::vector<double>& x) const {  // x = (A - shift I)^-1 x
        for (std::size_t j = 0; j < n_; ++j) {
            std::swap(x[j], x[pivot_[j]]);
            for (std::size_t i = j + 1; i <= std::min(n_ - 1, j + w_); ++i) x[i] -= at(i, j) * x[j];
        }
        for (std::size_t j = n_; j-- > 0;) {
            double sum = x[j];
            for (std::size_t c = j + 1; c <= std::min(n_ - 1, j + 2 * w_); ++c)
                sum -= at(j, c) * x[c];
            x[j] = sum / at(j, j);
        }
    }

  private:
    double& at(std::size_t i, std::size_t j) { return lu_[i * stride_ + j + w_ - i]; }
    double at(std::size_t i, std::size_t j) const { return lu_[i * stride_ + j + w_ - i]; }
    std::size_t n_, w_, stride_;
    std::vector<double> lu_;
    std::vector<std::size_t> pivot_;
};

}  // namespace

std::vector<double> bandEigenvalues(const SymmetricBand& band) {
    const std::size_t n = band.size(), b = band.halfWidth();
    if (n == 0) return {};
    // Schwarz's reduction (Numer. Math. 12, 1968): the half-bandwidth lowered one at a time from
    // b to 1. At width k, entry (j + k, j) is rotated into (j + k - 1, j) by the planes
    // j + k - 1, j + k; that fills (j + 2k, j + k - 1), one outside the band, which the planes
    // j + 2k - 1, j + 2k move k rows down, and so on off the end. Room for that one extra
    // diagonal: a copy of half-width b + 1.
    SymmetricBand a(n, b + 1);
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = i; j <= std::min(n - 1, i + b); ++j) a.set(i, j, band.at(i, j));
    for (std::size_t k = b; k >= 2; --k) {
        for (std::size_t j = 0; j + k < n; ++j) {
            std::size_t target = j, q = j + k;  // entry (q, target) is made zero
            while (q < n) {
                const std::size_t p = q - 1;
                const double x = a.at(p, target), y = a.at(q, target);
                if (y == 0) break;  // nothing to remove, so no bulge further down
                const double r = std::hypot(x, y);
                rotateBandPlanes(a, p, q, x / r, y / r, q > k + 1 ? q - k - 1 : 0,
                                 std::min(n - 1, q + k));
                a.set(p, target, r);
                a.set(q, target, 0);
                target = p;  // the bulge at (q + k, p)
                q += k;
            }
        }
    }
    std::vector<double> d(n), e(n, 0.0);
    for (std::size_t i = 0; i < n; ++i) d[i] = a.at(i, i);
    for (std::size_t i = 0; i + 1 < n; ++i) e[i] = a.at(i + 1, i);
    int iterations = 0;
    tridiagonalQl(d, e, nullptr, iterations);
    std::sort(d.begin(), d.end(), std::greater<>());
    return d;
}

SymmetricEigen bandTopEigenpairs(const SymmetricBand& band, std::size_t count) {
    const std::size_t n = band.size();
    SymmetricEigen result;
    const std::vector<double> all = bandEigenvalues(band);
    count = std::min(count, n);
    result.values.assign(all.begin(), all.begin() + long(count));
    result.vectors = Matrix(n, count);
    if (count == 0) return result;
    // Inverse iteration as LAPACK's dstein: eigenvalues closer than 1e-3 |A| form a cluster whose
    // vectors are kept orthogonal to each other, and a shift closer than 10 eps |A| to the one
    // before it is moved that far apart (a repeated eigenvalue gets independent vectors).
    const double norm = bandNorm(band);
    const double eps = std::numeric_limits<double>::epsilon();
    const double clusterGap = 1e-3 * norm, shiftGap = 10 * eps * norm;
    const double tiny = std::max(eps * norm, std::numeric_limits<double>::min());
    NormalSampler sampler(271828);
    std::vector<double> x(n);
    std::size_t clusterStart = 0;
    double previousShift = 0;
    for (std::size_t j = 0; j < count; ++j) {
        double shift = result.values[j];
        if (j > 0 && result.values[j - 1] - result.values[j] > clusterGap) clusterStart = j;
        if (j > clusterStart) shift = std::min(shift, previousShift - shiftGap);
        previousShift = shift;
        const ShiftedBandLu lu(band, shift, tiny);
        for (double& v : x) v = sampler.next();
        // Three solves (each multiplies the error by about eps |A| / gap), restarted from a new
        // random vector when one comes back without a usable direction.
        for (int done = 0, tries = 0; done < 3 && tries < 8; ++tries) {
            lu.solve(x);
            double largest = 0;  // scaled first: a solve can grow x by 1 / tiny
            for (double v : x) largest = std::max(largest, std::abs(v));
            if (!(largest > 0) || !std::isfinite(largest)) {
                for (double& v : x) v = sampler.next();
                continue;
            }
            for (double& v : x) v /= largest;
            for (int pass = 0; pass < 2; ++pass) {  // against the cluster's vectors so far
                for (std::size_t i = clusterStart; i < j; ++i) {
                    double dot = 0;
                    for (std::size_t r = 0; r < n; ++r) dot += result.vectors(r, i) * x[r];
                    for (std::size_t r = 0; r < n; ++r) x[r] -= dot * result.vectors(r, i);
                }
            }
            const double length = std::sqrt(fourSumDot(x.data(), x.data(), n));
            if (!(length > 1e-8)) {  // all inside the cluster's earlier vectors
                for (double& v : x) v = sampler.next();
                continue;
            }
            for (double& v : x) v /= length;
            ++done;
        }
        for (std::size_t r = 0; r < n; ++r) result.vectors(r, j) = x[r];
    }
    return result;
}

SymmetricEigen blockKrylovEigenpairs(std::size_t n, const BlockOperator& apply, int count,
                                     double tolerance) {
    SymmetricEigen result;
    result.converged = false;
    if (n == 0) return result;
    const std::size_t k = std::clamp<std::size_t>(std::size_t(std::max(count, 1)), 1, n);
    const std::size_t block = std::min(n, kKrylovBlock);
    const std::size_t maxDimension = std::min(n, std::max(kMaxKrylovDimension, 2 * block));
    PaddedRows basis(maxDimension, n);  // row i: basis vector i (rows not yet made are zero)
    // basis^T A basis is block tridiagonal: A q_i lies in the span of the blocks up to the next
    // one, and the next block is made from the residuals in order, so entry (i, j) is zero when
    // |i - j| > block (the reorthogonalisation's coefficients there are rounding errors, which
    // block Lanczos leaves out as single-vector Lanczos does).
    SymmetricBand h(maxDimension, block);
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
        for (std::size_t c = 0; c < width; ++c) {  // the coupling to the block before
            for (std::size_t i = start + c > block ? start + c - block : 0; i < start; ++i)
                h.set(i, start + c, coefficients(i, c));
        }
        for (std::size_t i = start; i < dimension; ++i) {  // the new diagonal block, symmetrised
            for (std::size_t j = start; j <= i; ++j)
                h.set(i, j, 0.5 * (coefficients(i, j - start) + coefficients(j, i - start)));
        }
        result.iterations += 1;
        const bool full = dimension == n;
        const bool last = full || dimension + 1 > maxDimension;
        // Rayleigh-Ritz on the band (O(block D^2), small next to the D block steps' O(n D^2)
        // orthogonalisation) each time the basis has grown by a tenth: at most a tenth more
        // basis than convergence needs.
        if (last || (dimension >= k && dimension * 10 >= lastChecked * 11)) {
            lastChecked = dimension;
            SymmetricBand projected(dimension, block);
            for (std::size_t i = 0; i < dimension; ++i) {
                for (std::size_t j = i; j < std::min(dimension, i + block + 1); ++j)
                    projected.set(i, j, h.at(i, j));
            }
            const SymmetricEigen ritz = bandTopEigenpairs(projected, k);
            // |A (basis^T y) - theta basis^T y| = |residual^T y_newest|: A basis^T = basis^T H +
            // R^T.
            double worst = 0;
            std::vector<double> r(n);
            for (std::size_t j = 0; j < k; ++j) {
                std::fill(r.begin(), r.end(), 0.0);
                for (std::size_t c = 0; c < width; ++c) {
                    const double weight = ritz.vectors(start + c, j);
                    const double* rc = residual.row(c);
                    for (std::size_t t = 0; t < n; ++t) r[t] += weight * rc[t];
                }
                worst = std::max(worst, std::sqrt(fourSumDot(r.data(), r.data(), n)));
            }
            const double top = std::abs(ritz.values.front());
            result.converged = full || worst <= tolerance * top || top == 0;
            if (result.converged || last) {
                result.values = ritz.values;
                result.vectors = Matrix(n, k);
                // Row r of the vectors: sum over i of (entry r of q_i) y_i, in basis order.
                parallelFor((long long)n, 64, [&](long long first, long long end) {
                    for (std::size_t i = 0; i < dimension; ++i) {
                        const double* q = basis.row(i);
                        const double* yi = ritz.vectors.row(i);
                        for (auto r2 = std::size_t(first); r2 < std::size_t(end); ++r2) {
                            double* out = result.vectors.row(r2);
                            for (std::size_t j = 0; j < k; ++j) out[j] += q[r2] * yi[j];
                        }
                    }
                });
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
