// table_structure.cpp — principal components, column spectra and the shuffled baseline of a
// position table (analysis/table_structure.hpp); the eigen-solvers are base/symmetric_eigen.cpp's.
#include "poslab/analysis/table_structure.hpp"

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstring>
#include <functional>
#include <limits>
#include <numeric>
#include <optional>
#include <random>
#include <sstream>
#include <system_error>
#include <thread>

#include "poslab/base/limits.hpp"
#include "poslab/base/parallel.hpp"
#include "poslab/base/random.hpp"
#include "poslab/base/row_gram.hpp"
#include "poslab/base/symmetric_eigen.hpp"

namespace poslab {

namespace {

constexpr double kPi = 3.14159265358979323846;

// exp(-2 pi i k / n) for k = 0..n/2-1, n a power of two: every twiddle factor of an n-point FFT.
// Stage `length` uses entry k n / length, whose angle -2 pi / n * (k n / length) is the same
// double as -2 pi / length * k (the two differ by powers of two), so the factors are those the
// FFT once computed in place, read from a table instead of two calls to sin and cos per
// butterfly.
std::vector<std::complex<double>> fftTwiddles(std::size_t n) {
    std::vector<std::complex<double>> twiddles(n / 2);
    const double angle = -2 * kPi / double(n);
    for (std::size_t k = 0; k < n / 2; ++k)
        twiddles[k] = {std::cos(angle * double(k)), std::sin(angle * double(k))};
    return twiddles;
}

// In-place radix-2 FFT (bit reversal, then butterflies even +- odd * twiddle) of kFftLanes
// sequences of n values (a power of two) at once, stored interleaved (re[i * kFftLanes + lane],
// im likewise); twiddles = fftTwiddles(n). Each sequence gets the operations a std::complex FFT
// does (the product as (ac - bd, ad + bc): the same bits as the one-column FFT this replaced),
// but eight share each twiddle factor, index and branch, and the lanes vectorise (AVX2 in its
// clone, which has no fused multiply-add to contract into: the same bits again).
constexpr std::size_t kFftLanes = 8;

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
__attribute__((target_clones("avx2", "default")))
#endif
void fftLanes(double* re, double* im, std::size_t n,
              const std::vector<std::complex<double>>& twiddles) {
    for (std::size_t i = 1, j = 0; i < n; ++i) {  // bit-reversal permutation
        std::size_t bit = n >> 1;
        for (; j & bit; bit >>= 1) j ^= bit;
        j ^= bit;
        if (i < j) {
            for (std::size_t l = 0; l < kFftLanes; ++l) {
                std::swap(re[i * kFftLanes + l], re[j * kFftLanes + l]);
                std::swap(im[i * kFftLanes + l], im[j * kFftLanes + l]);
            }
        }
    }
    for (std::size_t length = 2; length <= n; length <<= 1) {
        const std::size_t stride = n / length, half = length / 2;
        for (std::size_t start = 0; start < n; start += length) {
            for (std::size_t k = 0; k < half; ++k) {
                const double wr = twiddles[k * stride].real(), wi = twiddles[k * stride].imag();
                double* er = re + (start + k) * kFftLanes;
                double* ei = im + (start + k) * kFftLanes;
                double* orr = re + (start + k + half) * kFftLanes;
                double* oi = im + (start + k + half) * kFftLanes;
                for (std::size_t l = 0; l < kFftLanes; ++l) {
                    const double tr = orr[l] * wr - oi[l] * wi;  // odd * twiddle
                    const double ti = orr[l] * wi + oi[l] * wr;
                    const double xr = er[l], xi = ei[l];
                    er[l] = xr + tr;
                    ei[l] = xi + ti;
                    orr[l] = xr - tr;
                    oi[l] = xi - ti;
                }
            }
        }
    }
}

// |re + i im|: sqrt(re^2 + im^2) where the squares neither overflow nor lose bits to
// underflow (within an ulp of hypot, at a fraction of its cost: a table has millions of bins),
// else hypot.
double magnitude(double re, double im) {
    const double squares = re * re + im * im;
    if (squares < std::numeric_limits<double>::max() && squares > 0x1p-900)
        return std::sqrt(squares);
    return std::hypot(re, im);
}

}  // namespace

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

Status checkStructureSize(std::size_t rows, std::size_t cols) {
    if (rows == 0 || cols == 0) return Error{"the table is empty"};
    if (rows * cols > kMaxStructureValues) {
        return Error{"the table has " + std::to_string(rows) + " x " + std::to_string(cols) +
                     " values, over the structure analysis cap of " +
                     std::to_string(kMaxStructureValues) + " (crop rows or dimensions first)"};
    }
    if (std::min(rows, cols) > kMaxStructureSide) {
        return Error{"the table is " + std::to_string(rows) + " x " + std::to_string(cols) +
                     ": PCA needs min(rows, dims) <= " + std::to_string(kMaxStructureSide) +
                     " (crop it first)"};
    }
    return success();
}

namespace {

Status checkTable(const Matrix& table) {
    if (auto status = checkStructureSize(table.rows, table.cols); !status) return status;
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

// principalComponents of a table checkTable has passed, calling gramMade() once the n x n
// matrix is made, before its eigenpairs are sought (analyzeTableStructure starts the spectra
// there).
Result<TablePca> principalComponentsWith(const Matrix& table, int components, int projected,
                                         const std::function<void()>& gramMade) {
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
    // The eigenproblem is that of R R^T / L for the n rows R of length m: the table's centred
    // columns (covariance, m = L) or its centred rows (Gram matrix, m = d).
    const std::size_t m = covariance ? rows : cols;
    // The table and the work space beside it, counted against the memory cap together: R, the
    // n x n matrix, the Krylov basis beside it and the projections (checkTable bounds rows x cols
    // and n, so the sum cannot overflow).
    const std::size_t workDoubles =
        rows * cols + PaddedRows::storedDoubles(n, m) + PaddedRows::storedDoubles(n, n) +
        (n > kJacobiLimit ? kMaxKrylovDimension * n : n * n) + rows * std::size_t(projected);
    if (workDoubles > maxMatrixBytes() / sizeof(double)) {
        return Error{"PCA of a " + std::to_string(rows) + " x " + std::to_string(cols) +
                     " table needs " + std::to_string((workDoubles * sizeof(double) >> 20) + 1) +
                     " MiB with its work space, over the memory cap of " +
                     std::to_string(maxMatrixBytes() >> 20) + " MiB"};
    }
    // Scaled by a power of two (exact) so that the largest magnitude is below 1: squares and
    // sums of values near the largest double stay finite. Undone on the results.
    double largest = 0;
    for (double value : table.values) largest = std::max(largest, std::abs(value));
    int exponent = 0;
    if (largest > 0) std::frexp(largest, &exponent);
    // x 2^-e as a product by the power of two where that is a double (the same correctly
    // rounded value as ldexp, without a library call per value), else by ldexp.
    const double factor = std::ldexp(1.0, -exponent);
    const bool exactFactor = std::isfinite(factor) && factor > 0;
    auto scaled = [&](double value) {
        return exactFactor ? value * factor : std::ldexp(value, -exponent);
    };
    // Each column's sum over the rows in row order (the same bits on any number of cores), the
    // columns shared between the cores; rows read in memory order within a core's columns.
    std::vector<double> mean(cols, 0.0);
    parallelFor((long long)cols, 256, [&](long long first, long long last) {
        for (std::size_t r = 0; r < rows; ++r) {
            const double* values = table.row(r);
            for (auto c = std::size_t(first); c < std::size_t(last); ++c)
                mean[c] += scaled(values[c]);
        }
    });
    for (double& value : mean) value /= double(rows);
    PaddedRows data(n, m, PaddedRows::Contents::WrittenByCaller);  // every value written below
    if (covariance) {  // transposed 64 table rows at a time (each R row written in short runs)
        parallelFor((long long)cols, 64, [&](long long first, long long last) {
            for (std::size_t r0 = 0; r0 < rows; r0 += 64) {
                const std::size_t r1 = std::min(rows, r0 + 64);
                for (auto c = std::size_t(first); c < std::size_t(last); ++c) {
                    double* out = data.row(c);
                    for (std::size_t r = r0; r < r1; ++r) out[r] = scaled(table(r, c)) - mean[c];
                }
            }
        });
    } else {
        parallelFor((long long)rows, 64, [&](long long first, long long last) {
            for (auto r = std::size_t(first); r < std::size_t(last); ++r) {
                const double* values = table.row(r);
                double* out = data.row(r);
                for (std::size_t c = 0; c < cols; ++c) out[c] = scaled(values[c]) - mean[c];
            }
        });
    }

    TablePca pca;
    pca.rank = int(n);
    for (std::size_t i = 0; i < n; ++i) {
        const double* values = data.row(i);
        for (std::size_t k = 0; k < m; ++k) pca.totalVariance += values[k] * values[k];
    }
    pca.totalVariance /= double(rows);
    const int wanted = std::min<int>(components, int(n));
    const std::size_t shown = std::min<std::size_t>(std::size_t(projected), n);
    const int needed = std::max(wanted, int(shown));
    const PaddedRows gram = rowGram(data, double(rows));
    gramMade();
    const SymmetricEigen eigen = topEigenpairs(gram, needed);
    pca.converged = eigen.converged;
    for (int j = 0; j < wanted; ++j) {
        const double variance = std::max(0.0, eigen.values[std::size_t(j)]);
        pca.variance.push_back(variance);
        pca.explained.push_back(pca.totalVariance > 0 ? variance / pca.totalVariance : 0);
    }
    // Coordinates: Xc v for covariance eigenvectors v (sum over the columns c of v_c times
    // column c, in column order); for Gram eigenvectors u (Xc = U S V^T, eigenvalue s^2 / L)
    // they are u * s = u * sqrt(lambda L).
    pca.projections = Matrix(rows, shown);
    if (covariance) {
        Matrix coordinates(shown, rows);  // row j: every position's coordinate on component j
        parallelFor((long long)rows, 1024, [&](long long first, long long last) {
            for (std::size_t c = 0; c < cols; ++c) {
                const double* column = data.row(c);
                for (std::size_t j = 0; j < shown; ++j) {
                    const double weight = eigen.vectors(c, j);
                    double* out = coordinates.row(j);
                    for (long long r = first; r < last; ++r) out[r] += weight * column[r];
                }
            }
        });
        for (std::size_t r = 0; r < rows; ++r) {
            for (std::size_t j = 0; j < shown; ++j) pca.projections(r, j) = coordinates(j, r);
        }
    } else {
        for (std::size_t j = 0; j < shown; ++j) {
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

}  // namespace

Result<TablePca> principalComponents(const Matrix& table, int components, int projected) {
    if (auto s = checkTable(table); !s) return s.error();
    return principalComponentsWith(table, components, projected, [] {});
}

namespace {

// columnSpectrum of the table's rows taken in `order` (row r of the series is table row
// order[r]; null: in order), without copying the rows out.
TableSpectrum spectrumOfRows(const Matrix& table, const std::vector<std::size_t>* order) {
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
    const std::vector<std::complex<double>> twiddles = fftTwiddles(padded);
    // Columns in blocks: each block's columns are copied out row by row (the table is read in
    // memory order, not one strided column at a time), transformed on every core, and their
    // magnitudes added to the mean in column order (the sums do not depend on the cores).
    constexpr std::size_t kBlock = 64;
    const std::size_t cols = table.cols;
    Matrix block(kBlock, rows);       // row j: column c0 + j of the table
    Matrix magnitudes(kBlock, bins);  // row j: |X_k| / L of that column, k = 1..bins
    for (std::size_t c0 = 0; c0 < cols; c0 += kBlock) {
        const std::size_t width = std::min(kBlock, cols - c0);
        for (std::size_t r = 0; r < rows; ++r) {
            const double* in = table.row(order ? (*order)[r] : r) + c0;
            for (std::size_t j = 0; j < width; ++j) block(j, r) = in[j];
        }
        parallelFor((long long)width, 8, [&](long long first, long long last) {
            std::vector<double> re(padded * kFftLanes), im(padded * kFftLanes);
            for (long long j0 = first; j0 < last; j0 += long(kFftLanes)) {
                const std::size_t lanes = std::min<std::size_t>(kFftLanes, std::size_t(last - j0));
                std::fill(re.begin(), re.end(), 0.0);
                std::fill(im.begin(), im.end(), 0.0);
                for (std::size_t l = 0; l < lanes; ++l) {
                    const double* column = block.row(std::size_t(j0) + l);
                    double mean = 0;
                    for (std::size_t r = 0; r < rows; ++r) mean += column[r];
                    mean /= double(rows);
                    for (std::size_t r = 0; r < rows; ++r) re[r * kFftLanes + l] = column[r] - mean;
                }
                fftLanes(re.data(), im.data(), padded, twiddles);
                for (std::size_t l = 0; l < lanes; ++l) {
                    double* out = magnitudes.row(std::size_t(j0) + l);
                    for (std::size_t k = 1; k <= bins; ++k)
                        out[k - 1] =
                            magnitude(re[k * kFftLanes + l], im[k * kFftLanes + l]) / double(rows);
                }
            }
        });
        for (std::size_t j = 0; j < width; ++j) {
            const double* magnitude = magnitudes.row(j);
            double best = 0;
            for (std::size_t k = 1; k <= bins; ++k) {
                spectrum.meanMagnitude[k - 1] += magnitude[k - 1] / double(cols);
                if (magnitude[k - 1] > best * (1 + 1e-12) && magnitude[k - 1] > 1e-300) {
                    best = magnitude[k - 1];
                    spectrum.dominantFrequency[c0 + j] = spectrum.frequency[k - 1];
                }
            }
        }
    }
    return spectrum;
}

}  // namespace

TableSpectrum columnSpectrum(const Matrix& table) {
    return spectrumOfRows(table, nullptr);
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
    if (auto s = checkTable(table); !s) return s.error();  // once: every value read (serial)
    TableStructure result;
    result.rows = table.rows;
    result.cols = table.cols;
    // The two spectra on a thread of their own while the PCA seeks its eigenpairs (the Krylov
    // steps leave a core idle for about half their time: the Rayleigh-Ritz checks are serial),
    // started once the n x n matrix is made (whose kernel keeps both cores busy by itself: run
    // beside it, the spectra only moved the idle time to the Krylov steps); each result is the
    // same whenever it runs. One core, or no threads at all (the single-threaded page:
    // std::thread throws there), computes them in turn.
    const std::vector<std::size_t> order = shuffledOrder(table.rows, options.shuffleSeed);
    auto spectraWork = [&] {
        result.spectrum = columnSpectrum(table);
        result.shuffledSpectrum = spectrumOfRows(table, &order);  // rowsInOrder's spectrum
    };
    std::optional<std::thread> spectra;
    auto startSpectra = [&] {
        if (std::thread::hardware_concurrency() <= 1) return;
        try {
            spectra.emplace(spectraWork);
        } catch (const std::system_error&) {
            spectra.reset();  // no thread to be had: in turn below
        }
    };
    struct JoinOnExit {  // also when the PCA throws (std::bad_alloc)
        std::optional<std::thread>& thread;
        ~JoinOnExit() {
            if (thread) thread->join();
        }
    };
    Result<TablePca> pca = [&] {
        JoinOnExit joined{spectra};
        return principalComponentsWith(table, options.components, 3, startSpectra);  // PC1-PC3
    }();
    if (pca && !spectra) spectraWork();
    if (!pca) return pca.error();
    result.pca = std::move(pca).value();

    // The covariance does not depend on row order: the shuffled rows have the same components,
    // and their coordinates are the real ones in shuffled order.
    result.shuffledPca = result.pca;
    // Signs kept as the table's (not re-chosen to rise with the random order): the two
    // trajectories then show the same cloud of points, joined in a different order.
    result.shuffledPca.projections = rowsInOrder(result.pca.projections, order);

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
    note << "PCA of " << table.rows << " positions × " << table.cols << " dims via the " << n
         << " × " << n << (table.cols <= table.rows ? " covariance" : " Gram matrix") << " ("
         << (n <= kJacobiLimit ? "Jacobi"
                               : "block Lanczos, residual ≤ $10^{-10}$ of the top eigenvalue")
         << (result.pca.converged ? "" : ", not fully converged")
         << "); spectra zero-padded to a power of two; caps: " << kMaxStructureValues
         << " values, min(rows, dims) ≤ " << kMaxStructureSide;
    result.note = note.str();
    return result;
}

}  // namespace poslab
