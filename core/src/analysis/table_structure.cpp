#include "poslab/analysis/table_structure.hpp"

#include <algorithm>
#include <cmath>
#include <complex>
#include <limits>
#include <numeric>
#include <random>
#include <sstream>

#include "poslab/base/limits.hpp"
#include "poslab/base/parallel.hpp"
#include "poslab/base/random.hpp"

namespace poslab {

namespace {

constexpr double kPi = 3.14159265358979323846;
// Enough for a table whose spectrum decays (any trained one) to converge; a flat spectrum (a
// random table) stops here with its top eigenvalues a little low, and says so.
constexpr int kMaxSubspaceIterations = 200;

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

// Orthonormal columns by modified Gram-Schmidt, run twice (enough for double precision). A
// column that vanishes is replaced by a unit vector orthogonal to the others.
void orthonormalizeColumns(Matrix& q) {
    const std::size_t n = q.rows, m = q.cols;
    for (std::size_t j = 0; j < m; ++j) {
        for (int pass = 0; pass < 2; ++pass) {
            for (std::size_t i = 0; i < j; ++i) {
                double dot = 0;
                for (std::size_t r = 0; r < n; ++r) dot += q(r, i) * q(r, j);
                for (std::size_t r = 0; r < n; ++r) q(r, j) -= dot * q(r, i);
            }
        }
        double norm = 0;
        for (std::size_t r = 0; r < n; ++r) norm += q(r, j) * q(r, j);
        norm = std::sqrt(norm);
        if (norm < 1e-300) {  // try coordinate vectors until one survives projection
            for (std::size_t e = 0; e < n && norm < 0.5; ++e) {
                for (std::size_t r = 0; r < n; ++r) q(r, j) = r == e ? 1 : 0;
                for (std::size_t i = 0; i < j; ++i) {
                    const double dot = q(e, i);
                    for (std::size_t r = 0; r < n; ++r) q(r, j) -= dot * q(r, i);
                }
                norm = 0;
                for (std::size_t r = 0; r < n; ++r) norm += q(r, j) * q(r, j);
                norm = std::sqrt(norm);
            }
        }
        for (std::size_t r = 0; r < n; ++r) q(r, j) /= norm;
    }
}

// a (n x n) times b (n x m), rows shared out between workers.
Matrix multiply(const Matrix& a, const Matrix& b) {
    Matrix out(a.rows, b.cols);
    parallelFor((long long)a.rows, 16, [&](long long first, long long last) {
        for (long long i = first; i < last; ++i) {
            const double* ai = a.row(std::size_t(i));
            double* oi = out.row(std::size_t(i));
            for (std::size_t k = 0; k < a.cols; ++k) {
                const double aik = ai[k];
                const double* bk = b.row(k);
                for (std::size_t j = 0; j < b.cols; ++j) oi[j] += aik * bk[j];
            }
        }
    });
    return out;
}

// x^T y over columns: (x.cols x y.cols).
Matrix columnDots(const Matrix& x, const Matrix& y) {
    Matrix out(x.cols, y.cols);
    for (std::size_t r = 0; r < x.rows; ++r) {
        const double* xr = x.row(r);
        const double* yr = y.row(r);
        for (std::size_t i = 0; i < x.cols; ++i) {
            for (std::size_t j = 0; j < y.cols; ++j) out(i, j) += xr[i] * yr[j];
        }
    }
    return out;
}

// In-place radix-2 FFT; data.size() is a power of two.
void fft(std::vector<std::complex<double>>& data) {
    const std::size_t n = data.size();
    for (std::size_t i = 1, j = 0; i < n; ++i) {  // bit-reversal permutation
        std::size_t bit = n >> 1;
        for (; j & bit; bit >>= 1) j ^= bit;
        j ^= bit;
        if (i < j) std::swap(data[i], data[j]);
    }
    for (std::size_t length = 2; length <= n; length <<= 1) {
        const double angle = -2 * kPi / double(length);
        for (std::size_t start = 0; start < n; start += length) {
            for (std::size_t k = 0; k < length / 2; ++k) {
                const std::complex<double> twiddle(std::cos(angle * double(k)),
                                                   std::sin(angle * double(k)));
                const std::complex<double> even = data[start + k];
                const std::complex<double> odd = data[start + k + length / 2] * twiddle;
                data[start + k] = even + odd;
                data[start + k + length / 2] = even - odd;
            }
        }
    }
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

SymmetricEigen topEigenpairs(const Matrix& symmetric, int count) {
    const std::size_t n = symmetric.rows;
    const std::size_t k = std::clamp<std::size_t>(std::size_t(std::max(count, 1)), 1, n);
    auto keepTop = [&](SymmetricEigen full) {
        full.values.resize(k);
        Matrix vectors(n, k);
        for (std::size_t i = 0; i < n; ++i) {
            for (std::size_t j = 0; j < k; ++j) vectors(i, j) = full.vectors(i, j);
        }
        full.vectors = std::move(vectors);
        return full;
    };
    if (n <= kJacobiLimit) return keepTop(jacobiEigen(symmetric));

    // Subspace iteration: Q spans m > k vectors; each step Z = A Q, the Ritz pairs of A on
    // span(Q) from the small m x m matrix Q^T Z, then Q = orth(Z W). The oversampling makes the
    // top k converge at the rate lambda_{m+1} / lambda_k.
    const std::size_t m = std::min(n, k + 8);
    Matrix q(n, m);
    NormalSampler sampler(12345);
    for (double& v : q.values) v = sampler.next();
    orthonormalizeColumns(q);
    SymmetricEigen result;
    result.converged = false;
    for (int iteration = 1; iteration <= kMaxSubspaceIterations; ++iteration) {
        const Matrix z = multiply(symmetric, q);
        SymmetricEigen ritz = jacobiEigen(columnDots(q, z));
        const Matrix zw = multiply(z, ritz.vectors);  // A (Q W)
        const Matrix qw = multiply(q, ritz.vectors);  // Ritz vectors
        // Residual of each wanted Ritz pair: |A x - theta x|.
        double worst = 0;
        for (std::size_t j = 0; j < k; ++j) {
            double r2 = 0;
            for (std::size_t i = 0; i < n; ++i) {
                const double r = zw(i, j) - ritz.values[j] * qw(i, j);
                r2 += r * r;
            }
            worst = std::max(worst, std::sqrt(r2));
        }
        result.values.assign(ritz.values.begin(), ritz.values.begin() + long(k));
        result.vectors = Matrix(n, k);
        for (std::size_t i = 0; i < n; ++i) {
            for (std::size_t j = 0; j < k; ++j) result.vectors(i, j) = qw(i, j);
        }
        result.iterations = iteration;
        const double top = std::abs(ritz.values.front());
        if (worst <= 1e-6 * top || top == 0) {
            result.converged = true;
            break;
        }
        q = zw;
        orthonormalizeColumns(q);
    }
    return result;
}

// ---- Pieces

std::vector<double> sinusoidalFrequencies(int dModel, double base) {
    std::vector<double> omega;
    for (int i = 0; 2 * i < dModel; ++i) {
        omega.push_back(std::pow(base, -2.0 * i / dModel) / (2 * kPi));
    }
    return omega;
}

double lag1Autocorrelation(const std::vector<double>& series) {
    if (series.size() < 2) return 0;
    const double mean = std::accumulate(series.begin(), series.end(), 0.0) / double(series.size());
    double numerator = 0, denominator = 0;
    for (std::size_t t = 0; t < series.size(); ++t) {
        const double x = series[t] - mean;
        denominator += x * x;
        if (t + 1 < series.size()) numerator += x * (series[t + 1] - mean);
    }
    return denominator > 0 ? numerator / denominator : 0;
}

std::vector<std::size_t> shuffledOrder(std::size_t count, std::uint64_t seed) {
    // Fisher-Yates with the standard-fixed mt19937_64 and a plain modulo, so a seed gives the
    // same order everywhere (uniform_int_distribution is implementation-defined).
    std::vector<std::size_t> order(count);
    std::iota(order.begin(), order.end(), 0);
    std::mt19937_64 engine(seed);
    for (std::size_t i = count; i > 1; --i) std::swap(order[i - 1], order[engine() % i]);
    return order;
}

Matrix rowsInOrder(const Matrix& table, const std::vector<std::size_t>& order) {
    Matrix out(order.size(), table.cols);
    for (std::size_t i = 0; i < order.size(); ++i) {
        std::copy(table.row(order[i]), table.row(order[i]) + table.cols, out.row(i));
    }
    return out;
}

namespace {

Status checkTable(const Matrix& table) {
    if (table.rows == 0 || table.cols == 0) return Error{"the table is empty"};
    if (table.rows * table.cols > kMaxStructureValues) {
        return Error{"the table has " + std::to_string(table.rows) + " x " +
                     std::to_string(table.cols) + " values, over the structure analysis cap of " +
                     std::to_string(kMaxStructureValues) + " (crop rows or dimensions first)"};
    }
    if (std::min(table.rows, table.cols) > kMaxStructureSide) {
        return Error{"the table is " + std::to_string(table.rows) + " x " +
                     std::to_string(table.cols) + ": PCA needs min(rows, dims) <= " +
                     std::to_string(kMaxStructureSide) + " (crop it first)"};
    }
    for (std::size_t r = 0; r < table.rows; ++r) {
        for (std::size_t c = 0; c < table.cols; ++c) {
            if (!std::isfinite(table(r, c))) {
                return Error{"the table holds a non-finite value at row " + std::to_string(r) +
                             ", dimension " + std::to_string(c)};
            }
        }
    }
    return success();
}

// An eigenvector's sign is arbitrary: choose for each column the one that rises with position.
void risingWithPosition(Matrix& projections) {
    const std::size_t rows = projections.rows;
    for (std::size_t j = 0; j < projections.cols; ++j) {
        double trend = 0;
        for (std::size_t r = 0; r < rows; ++r) {
            trend += (double(r) - double(rows - 1) / 2) * projections(r, j);
        }
        if (trend < 0) {
            for (std::size_t r = 0; r < rows; ++r) projections(r, j) = -projections(r, j);
        }
    }
}

}  // namespace

Result<TablePca> principalComponents(const Matrix& table, int components, int projected) {
    if (auto s = checkTable(table); !s) return s.error();
    if (components < 1 || components > kMaxStructureComponents) {
        return Error{"components must be 1.." + std::to_string(kMaxStructureComponents) + " (got " +
                     std::to_string(components) + ")"};
    }
    if (projected < 1 || projected > kMaxStructureComponents) {
        return Error{"projected components must be 1.." + std::to_string(kMaxStructureComponents) +
                     " (got " + std::to_string(projected) + ")"};
    }
    const std::size_t rows = table.rows, cols = table.cols;
    const bool covariance = cols <= rows;  // the smaller of d x d and L x L
    const std::size_t n = covariance ? cols : rows;
    // The table and the work space beside it: the centred rows (one copy, laid out for the dot
    // products), the n x n matrix and the projections, counted against the memory cap together
    // (checkTable bounds rows x cols and n, so the sum cannot overflow).
    const std::size_t needed = 2 * rows * cols + n * n + rows * std::size_t(projected);
    if (needed > maxMatrixBytes() / sizeof(double)) {
        return Error{"PCA of a " + std::to_string(rows) + " x " + std::to_string(cols) +
                     " table needs " + std::to_string((needed * sizeof(double) >> 20) + 1) +
                     " MiB with its work space, over the memory cap of " +
                     std::to_string(maxMatrixBytes() >> 20) + " MiB"};
    }
    // Scaled by a power of two (exact) so that the largest magnitude is below 1: squares and
    // sums of values near the largest double stay finite. Undone on the results.
    double largest = 0;
    for (double value : table.values) largest = std::max(largest, std::abs(value));
    int exponent = 0;
    if (largest > 0) std::frexp(largest, &exponent);
    // Either matrix is a table of row dot products: of Xc^T's rows (the columns) or of Xc's.
    // `vectors` is the only copy: the centred value (r, c) is centred(r, c) below.
    Matrix vectors(n, covariance ? rows : cols);
    for (std::size_t c = 0; c < cols; ++c) {
        double mean = 0;
        for (std::size_t r = 0; r < rows; ++r) mean += std::ldexp(table(r, c), -exponent);
        mean /= double(rows);
        for (std::size_t r = 0; r < rows; ++r) {
            const double value = std::ldexp(table(r, c), -exponent) - mean;
            if (covariance)
                vectors(c, r) = value;
            else
                vectors(r, c) = value;
        }
    }
    auto centred = [&](std::size_t r, std::size_t c) {
        return covariance ? vectors(c, r) : vectors(r, c);
    };
    Matrix gram(n, n);
    parallelFor((long long)n, 4, [&](long long first, long long last) {
        for (long long i = first; i < last; ++i) {
            const double* a = vectors.row(std::size_t(i));
            for (std::size_t j = std::size_t(i); j < n; ++j) {
                const double* b = vectors.row(j);
                double sum = 0;
                for (std::size_t t = 0; t < vectors.cols; ++t) sum += a[t] * b[t];
                gram(std::size_t(i), j) = sum / double(rows);
            }
        }
    });
    for (std::size_t i = 0; i < n; ++i) {
        for (std::size_t j = 0; j < i; ++j) gram(i, j) = gram(j, i);
    }

    TablePca pca;
    pca.rank = int(n);
    for (std::size_t i = 0; i < n; ++i) pca.totalVariance += gram(i, i);
    const int wanted = std::min<int>(components, int(n));
    const std::size_t shown = std::min<std::size_t>(std::size_t(projected), n);
    const SymmetricEigen eigen = topEigenpairs(gram, std::max(wanted, int(shown)));
    pca.converged = eigen.converged;
    for (int j = 0; j < wanted; ++j) {
        const double variance = std::max(0.0, eigen.values[std::size_t(j)]);
        pca.variance.push_back(variance);
        pca.explained.push_back(pca.totalVariance > 0 ? variance / pca.totalVariance : 0);
    }
    // Coordinates: Xc v for covariance eigenvectors v; for Gram eigenvectors u (Xc = U S V^T,
    // eigenvalue s^2 / L) they are u * s = u * sqrt(lambda L).
    pca.projections = Matrix(rows, shown);
    for (std::size_t j = 0; j < shown; ++j) {
        if (covariance) {
            for (std::size_t r = 0; r < rows; ++r) {
                double sum = 0;
                for (std::size_t c = 0; c < cols; ++c) sum += centred(r, c) * eigen.vectors(c, j);
                pca.projections(r, j) = sum;
            }
        } else {
            const double s = std::sqrt(std::max(0.0, eigen.values[j]) * double(rows));
            for (std::size_t r = 0; r < rows; ++r) pca.projections(r, j) = eigen.vectors(r, j) * s;
        }
    }
    // Back to the table's units: variances by 2^(2e), coordinates by 2^e. A coordinate beyond
    // the largest double (a table of values near it) is refused rather than written as inf.
    for (double& variance : pca.variance) variance = std::ldexp(variance, 2 * exponent);
    pca.totalVariance = std::ldexp(pca.totalVariance, 2 * exponent);
    for (double& value : pca.projections.values) {
        value = std::ldexp(value, exponent);
        if (!std::isfinite(value))
            return Error{
                "the table's values are so large that its principal coordinates exceed "
                "the largest double"};
    }
    risingWithPosition(pca.projections);
    return pca;
}

TableSpectrum columnSpectrum(const Matrix& table) {
    TableSpectrum spectrum;
    const std::size_t rows = table.rows;
    if (rows < 2 || table.cols == 0) return spectrum;
    std::size_t padded = 1;
    while (padded < rows) padded <<= 1;
    const std::size_t bins = padded / 2;
    for (std::size_t k = 1; k <= bins; ++k)
        spectrum.frequency.push_back(double(k) / double(padded));
    spectrum.meanMagnitude.assign(bins, 0.0);
    spectrum.dominantFrequency.assign(table.cols, std::numeric_limits<double>::quiet_NaN());
    std::vector<std::complex<double>> data(padded);
    for (std::size_t c = 0; c < table.cols; ++c) {
        double mean = 0;
        for (std::size_t r = 0; r < rows; ++r) mean += table(r, c);
        mean /= double(rows);
        std::fill(data.begin(), data.end(), std::complex<double>(0, 0));
        for (std::size_t r = 0; r < rows; ++r) data[r] = table(r, c) - mean;
        fft(data);
        double best = 0;
        for (std::size_t k = 1; k <= bins; ++k) {
            const double magnitude = std::abs(data[k]) / double(rows);
            spectrum.meanMagnitude[k - 1] += magnitude / double(table.cols);
            if (magnitude > best * (1 + 1e-12) && magnitude > 1e-300) {
                best = magnitude;
                spectrum.dominantFrequency[c] = spectrum.frequency[k - 1];
            }
        }
    }
    return spectrum;
}

// ---- Everything

Status validate(const StructureOptions& options) {
    if (options.components < 1 || options.components > kMaxStructureComponents) {
        return Error{"components must be 1.." + std::to_string(kMaxStructureComponents) + " (got " +
                     std::to_string(options.components) + ")"};
    }
    return success();
}

Result<TableStructure> analyzeTableStructure(const Matrix& table, const StructureOptions& options) {
    if (auto s = validate(options); !s) return s.error();
    if (auto s = checkTable(table); !s) return s.error();
    TableStructure result;
    result.rows = table.rows;
    result.cols = table.cols;
    auto pca = principalComponents(table, options.components);
    if (!pca) return pca.error();
    result.pca = std::move(pca).value();
    result.spectrum = columnSpectrum(table);

    // The covariance does not depend on row order: the shuffled rows have the same components,
    // and their coordinates are the real ones in shuffled order.
    const std::vector<std::size_t> order = shuffledOrder(table.rows, options.shuffleSeed);
    const Matrix shuffled = rowsInOrder(table, order);
    result.shuffledPca = result.pca;
    // Signs kept as the table's (not re-chosen to rise with the random order): the two
    // trajectories then show the same cloud of points, joined in a different order.
    result.shuffledPca.projections = rowsInOrder(result.pca.projections, order);
    result.shuffledSpectrum = columnSpectrum(shuffled);

    auto lag1Of = [](const Matrix& projections) {
        std::vector<double> lags;
        for (std::size_t j = 0; j < projections.cols; ++j) {
            std::vector<double> series(projections.rows);
            for (std::size_t r = 0; r < projections.rows; ++r) series[r] = projections(r, j);
            lags.push_back(lag1Autocorrelation(series));
        }
        return lags;
    };
    result.lag1 = lag1Of(result.pca.projections);
    result.shuffledLag1 = lag1Of(result.shuffledPca.projections);

    std::ostringstream note;
    const std::size_t n = std::min(table.rows, table.cols);
    note << "PCA of " << table.rows << " positions x " << table.cols << " dims via the " << n
         << " x " << n << (table.cols <= table.rows ? " covariance" : " Gram matrix") << " ("
         << (n <= kJacobiLimit ? "Jacobi" : "subspace iteration")
         << (result.pca.converged ? "" : ", not fully converged")
         << "); spectra zero-padded to a power of two; caps: " << kMaxStructureValues
         << " values, min(rows, dims) <= " << kMaxStructureSide;
    result.note = note.str();
    return result;
}

}  // namespace poslab
