#include "poslab/analysis/table_structure.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <numeric>
#include <vector>

#include "../base/householder.hpp"
#include "../test_math.hpp"
#include "poslab/base/random.hpp"

namespace poslab {
namespace {

// Above kJacobiLimit PCA runs block Lanczos on the table itself; the covariance written out here
// and solved by Jacobi gives the same variances and, up to sign, the same coordinates. A random
// table is the hard case: its top eigenvalues lie close together.
TEST(TableStructureTest, LargeTablePcaMatchesTheFullSolver) {
    const std::size_t rows = 260, cols = 196;  // n = 196 > kJacobiLimit
    NormalSampler sampler(5);
    Matrix table(rows, cols);
    for (double& v : table.values) v = 0.02 * sampler.next() + 0.5;
    std::vector<double> mean(cols, 0.0);
    for (std::size_t r = 0; r < rows; ++r) {
        for (std::size_t c = 0; c < cols; ++c) mean[c] += table(r, c) / double(rows);
    }
    Matrix covariance(cols, cols);
    for (std::size_t i = 0; i < cols; ++i) {
        for (std::size_t j = 0; j < cols; ++j) {
            for (std::size_t r = 0; r < rows; ++r)
                covariance(i, j) +=
                    (table(r, i) - mean[i]) * (table(r, j) - mean[j]) / double(rows);
        }
    }
    const SymmetricEigen full = jacobiEigen(covariance);
    auto pca = principalComponents(table, 12, 3);
    ASSERT_TRUE(pca);
    EXPECT_TRUE(pca->converged);
    for (std::size_t j = 0; j < 12; ++j)
        EXPECT_NEAR(pca->variance[j], full.values[j], 1e-10 * full.values[0]) << j;
    for (std::size_t j = 0; j < 3; ++j) {
        double norm = 0, agree = 0;
        for (std::size_t r = 0; r < rows; ++r) {
            double expected = 0;
            for (std::size_t c = 0; c < cols; ++c)
                expected += (table(r, c) - mean[c]) * full.vectors(c, j);
            norm += expected * expected;
            agree += expected * pca->projections(r, j);
        }
        EXPECT_NEAR(std::abs(agree) / norm, 1.0, 1e-7) << j;  // same coordinates up to sign
    }
}

// The Gram route (fewer positions than dimensions, above kJacobiLimit) on a table whose
// spectrum is known: column j = s_j cos(2 pi (j + 1) p / L) for j < 8, the rest zero. The
// columns have mean 0 and are orthogonal with |column|^2 = s_j^2 L / 2, so the variances are
// s_j^2 / 2 exactly and the rank is 8.
TEST(TableStructureTest, GramRoutePcaFindsTheKnownSpectrum) {
    const std::size_t rows = 200, cols = 400;
    Matrix table(rows, cols);
    const double s[] = {9, 8, 7, 6, 5, 4, 3, 2};
    for (std::size_t p = 0; p < rows; ++p) {
        for (std::size_t j = 0; j < 8; ++j)
            table(p, j * 7) = s[j] * std::cos(2 * kPi * double(j + 1) * double(p) / double(rows));
    }
    auto pca = principalComponents(table, 10, 3);
    ASSERT_TRUE(pca);
    EXPECT_TRUE(pca->converged);
    for (std::size_t j = 0; j < 8; ++j) EXPECT_NEAR(pca->variance[j], s[j] * s[j] / 2, 1e-9) << j;
    EXPECT_NEAR(pca->variance[8], 0, 1e-9);
    EXPECT_NEAR(pca->variance[9], 0, 1e-9);
    EXPECT_NEAR(pca->totalVariance, 284.0 / 2, 1e-9);  // sum of s_j^2 / 2
    // Coordinates on component 1: +-9 cos(2 pi p / L).
    for (std::size_t p = 0; p < rows; ++p)
        EXPECT_NEAR(std::abs(pca->projections(p, 0)),
                    std::abs(9 * std::cos(2 * kPi * double(p) / double(rows))), 1e-7);
}

// ---- PCA with known structure

// The rows of `curve` (3 columns) placed in an orthonormal 3-D subspace of R^16 (a rotation of the
// first three coordinate axes), plus a fixed offset the centring removes.
Matrix embedIn16(const Matrix& curve);

// Rows on a helix: position p at (R cos(2 pi p / T), R sin(2 pi p / T), s p) in an orthonormal
// 3-D subspace of R^16 (a rotation of the first three coordinate axes), plus a fixed offset.
Matrix embedIn16(const Matrix& curve) {
    std::vector<std::vector<double>> basis;  // Gram-Schmidt on fixed random directions
    NormalSampler sampler(3);
    while (basis.size() < 3) {
        std::vector<double> v(16);
        for (double& x : v) x = sampler.next();
        for (const auto& b : basis) {
            const double dot = std::inner_product(v.begin(), v.end(), b.begin(), 0.0);
            for (int i = 0; i < 16; ++i) v[i] -= dot * b[i];
        }
        const double norm = std::sqrt(std::inner_product(v.begin(), v.end(), v.begin(), 0.0));
        for (double& x : v) x /= norm;
        basis.push_back(v);
    }
    Matrix table(curve.rows, 16);
    for (std::size_t p = 0; p < curve.rows; ++p) {
        for (int i = 0; i < 16; ++i) {
            table(p, i) = 0.3 * i;
            for (int k = 0; k < 3; ++k) table(p, i) += curve(p, k) * basis[k][i];
        }
    }
    return table;
}

Matrix helixTable(std::size_t rows, double radius, double period, double slope) {
    Matrix curve(rows, 3);
    for (std::size_t p = 0; p < rows; ++p) {
        const double angle = 2 * kPi * double(p) / period;
        curve(p, 0) = radius * std::cos(angle);
        curve(p, 1) = radius * std::sin(angle);
        curve(p, 2) = slope * double(p);
    }
    return embedIn16(curve);
}

TEST(TableStructureTest, CircleNeedsTwoComponentsAndItsProjectionsTraceIt) {
    const std::size_t rows = 64;  // whole turns: the circle's centre is the mean of its points
    const Matrix table = helixTable(rows, 2.0, 32, 0.0);
    auto pca = principalComponents(table, 5);
    ASSERT_TRUE(pca) << pca.error().message;
    // Variance of R cos over whole periods is R^2 / 2 on each of the two axes.
    EXPECT_NEAR(pca->variance[0], 2.0, 1e-10);
    EXPECT_NEAR(pca->variance[1], 2.0, 1e-10);
    EXPECT_NEAR(pca->explained[0] + pca->explained[1], 1.0, 1e-12);
    EXPECT_NEAR(pca->variance[2], 0.0, 1e-10);
    // Each position's (PC1, PC2) lies on the circle of radius 2, a turn every 32 positions.
    for (std::size_t p = 0; p < rows; ++p) {
        EXPECT_NEAR(std::hypot(pca->projections(p, 0), pca->projections(p, 1)), 2.0, 1e-9);
    }
    const double step = std::atan2(pca->projections(1, 1), pca->projections(1, 0)) -
                        std::atan2(pca->projections(0, 1), pca->projections(0, 0));
    EXPECT_NEAR(std::abs(std::remainder(step, 2 * kPi)), 2 * kPi / 32, 1e-9);
}

TEST(TableStructureTest, ThreeDimensionalCurveNeedsThreeComponents) {
    // A curve through three orthogonal directions: (cos 2t, sin 2t, h cos t), t = 2 pi p / L.
    // Over whole periods the three coordinates are uncorrelated (distinct integer frequencies),
    // so their variances 1/2, 1/2 and h^2 / 2 are the eigenvalues: three components, 100%.
    const std::size_t rows = 96;
    const double h = 2.0;
    Matrix curve(rows, 3);
    for (std::size_t p = 0; p < rows; ++p) {
        const double t = 2 * kPi * double(p) / double(rows);
        curve(p, 0) = std::cos(2 * t);
        curve(p, 1) = std::sin(2 * t);
        curve(p, 2) = h * std::cos(t);
    }
    const Matrix table = embedIn16(curve);
    auto pca = principalComponents(table, 6);
    ASSERT_TRUE(pca);
    EXPECT_NEAR(pca->variance[0], h * h / 2, 1e-10);
    EXPECT_NEAR(pca->variance[1], 0.5, 1e-10);
    EXPECT_NEAR(pca->variance[2], 0.5, 1e-10);
    EXPECT_NEAR(pca->explained[0] + pca->explained[1] + pca->explained[2], 1.0, 1e-12);
    EXPECT_NEAR(pca->explained[0], 2.0 / 3.0, 1e-12);
    // The first component is h cos t itself (up to sign).
    for (std::size_t p = 0; p < rows; ++p) {
        EXPECT_NEAR(std::abs(pca->projections(p, 0)), std::abs(curve(p, 2)), 1e-9);
    }
}

TEST(TableStructureTest, ExplainedVarianceSumsToTheTotal) {
    // With every component kept, the eigenvalues sum to the total variance, the sum of the
    // columns' variances written out here; both the covariance and the Gram route.
    for (auto [rows, cols] : {std::pair<std::size_t, std::size_t>{40, 9}, {7, 30}}) {
        NormalSampler sampler(rows);
        Matrix table(rows, cols);
        for (double& v : table.values) v = sampler.next() * 3 + 1;
        double total = 0;
        for (std::size_t c = 0; c < cols; ++c) {
            double mean = 0, square = 0;
            for (std::size_t r = 0; r < rows; ++r) mean += table(r, c) / double(rows);
            for (std::size_t r = 0; r < rows; ++r) square += std::pow(table(r, c) - mean, 2);
            total += square / double(rows);
        }
        auto pca = principalComponents(table, int(std::min(rows, cols)));
        ASSERT_TRUE(pca);
        EXPECT_NEAR(pca->totalVariance, total, 1e-10 * total);
        const double sum = std::accumulate(pca->variance.begin(), pca->variance.end(), 0.0);
        EXPECT_NEAR(sum, total, 1e-10 * total);
        EXPECT_NEAR(std::accumulate(pca->explained.begin(), pca->explained.end(), 0.0), 1.0, 1e-10);
        // The projections' variance on component j is its eigenvalue.
        for (std::size_t j = 0; j < pca->projections.cols; ++j) {
            double square = 0;
            for (std::size_t r = 0; r < rows; ++r) square += std::pow(pca->projections(r, j), 2);
            EXPECT_NEAR(square / double(rows), pca->variance[j], 1e-9 * total);
        }
    }
}

// Every component projected: the coordinates keep all the variance (sum of squares over rows and
// components / L = the columns' total variance, written out) and distinct components are
// uncorrelated (their coordinates orthogonal over the positions); both routes.
TEST(TableStructureTest, AllProjectedComponentsKeepTheVarianceAndAreOrthogonal) {
    for (auto [rows, cols] : {std::pair<std::size_t, std::size_t>{30, 6}, {5, 12}}) {
        NormalSampler sampler(rows + 100);
        Matrix table(rows, cols);
        for (double& v : table.values) v = sampler.next() * 2 - 1;
        double total = 0;
        for (std::size_t c = 0; c < cols; ++c) {
            double mean = 0, square = 0;
            for (std::size_t r = 0; r < rows; ++r) mean += table(r, c) / double(rows);
            for (std::size_t r = 0; r < rows; ++r) square += std::pow(table(r, c) - mean, 2);
            total += square / double(rows);
        }
        const int rank = int(std::min(rows, cols));
        auto pca = principalComponents(table, 3, rank);
        ASSERT_TRUE(pca);
        ASSERT_EQ(pca->projections.cols, std::size_t(rank));
        EXPECT_EQ(pca->variance.size(), 3u);  // the bars asked for, independent of the columns
        double kept = 0;
        for (double v : pca->projections.values) kept += v * v / double(rows);
        EXPECT_NEAR(kept, total, 1e-9 * total);
        for (int a = 0; a < rank; ++a) {
            for (int b = a + 1; b < rank; ++b) {
                double dot = 0;
                for (std::size_t r = 0; r < rows; ++r)
                    dot +=
                        pca->projections(r, std::size_t(a)) * pca->projections(r, std::size_t(b));
                EXPECT_NEAR(dot / double(rows), 0, 1e-9 * total) << a << ", " << b;
            }
        }
    }
    EXPECT_FALSE(principalComponents(Matrix(4, 2, 1.0), 2, 0));
    EXPECT_FALSE(principalComponents(Matrix(4, 2, 1.0), 2, kMaxStructureComponents + 1));
}

// ---- Spectra

TEST(TableStructureTest, SinusoidalSpectrumPeaksAtTheKnownFrequencies) {
    const int d = 16, rows = 512;
    const double base = 10000;
    Matrix table(rows, d);  // the paper's interleaved table, written out
    for (int p = 0; p < rows; ++p) {
        for (int i = 0; i < d / 2; ++i) {
            const double angle = p / std::pow(base, 2.0 * i / d);
            table(p, 2 * i) = std::sin(angle);
            table(p, 2 * i + 1) = std::cos(angle);
        }
    }
    const std::vector<double> omega = sinusoidalFrequencies(d, base);
    ASSERT_EQ(omega.size(), 8u);
    EXPECT_NEAR(omega[0], 1 / (2 * kPi), 1e-15);
    const TableSpectrum spectrum = columnSpectrum(table);
    ASSERT_EQ(spectrum.frequency.size(), 256u);
    for (int i = 0; i < d / 2; ++i) {
        if (omega[i] < 4.0 / rows) continue;  // fewer than 4 cycles in the table: unresolved
        for (int column : {2 * i, 2 * i + 1}) {
            EXPECT_NEAR(spectrum.dominantFrequency[column], omega[i], 1.0 / rows) << column;
        }
    }
}

// The FFT against the DFT's definition, |sum_r (x_r - mean) e^(-2 pi i k r / N)| / L, on a table
// whose length is not a power of two (zero-padded to N = 64) and whose 150 columns span three
// of the blocks the columns are transformed in.
TEST(TableStructureTest, SpectrumIsTheDefinitionsDftOverEveryColumnBlock) {
    const std::size_t rows = 37, cols = 150, padded = 64;
    Matrix table(rows, cols);
    NormalSampler sampler(5);
    for (double& v : table.values) v = sampler.next();
    for (std::size_t r = 0; r < rows; ++r) table(r, 70) = std::cos(2 * kPi * 5 * double(r) / 64);
    const TableSpectrum spectrum = columnSpectrum(table);
    ASSERT_EQ(spectrum.frequency.size(), padded / 2);
    std::vector<double> mean(padded / 2, 0.0);
    for (std::size_t c = 0; c < cols; ++c) {
        double columnMean = 0;
        for (std::size_t r = 0; r < rows; ++r) columnMean += table(r, c) / double(rows);
        double best = -1;
        std::size_t bestK = 0;
        for (std::size_t k = 1; k <= padded / 2; ++k) {
            double re = 0, im = 0;
            for (std::size_t r = 0; r < rows; ++r) {
                const double angle = -2 * kPi * double(k * r % padded) / double(padded);
                re += (table(r, c) - columnMean) * std::cos(angle);
                im += (table(r, c) - columnMean) * std::sin(angle);
            }
            const double magnitude = std::hypot(re, im) / double(rows);
            mean[k - 1] += magnitude / double(cols);
            if (magnitude > best) best = magnitude, bestK = k;
        }
        EXPECT_DOUBLE_EQ(spectrum.dominantFrequency[c], double(bestK) / double(padded)) << c;
    }
    EXPECT_DOUBLE_EQ(spectrum.dominantFrequency[70], 5.0 / 64);
    for (std::size_t k = 0; k < padded / 2; ++k)
        EXPECT_NEAR(spectrum.meanMagnitude[k], mean[k], 1e-13) << k;
}

TEST(TableStructureTest, ShuffledRowsLoseTheirSmoothness) {
    const Matrix table = helixTable(200, 1.0, 50, 0.01);
    StructureOptions options;
    options.components = 4;
    auto structure = analyzeTableStructure(table, options);
    ASSERT_TRUE(structure) << structure.error().message;
    // Same eigenvalues whatever the row order.
    for (std::size_t j = 0; j < 3; ++j) {
        EXPECT_NEAR(structure->shuffledPca.variance[j], structure->pca.variance[j], 1e-10);
    }
    // A smooth curve has lag-1 autocorrelation near 1 (cos(2 pi / 50) = 0.992 for the circle);
    // a random order, near 0 (standard deviation 1 / sqrt(200) = 0.07).
    for (std::size_t j = 0; j < 3; ++j) {
        EXPECT_GT(structure->lag1[j], 0.98);
        EXPECT_LT(std::abs(structure->shuffledLag1[j]), 0.25);
    }
    EXPECT_NEAR(lag1Autocorrelation({1, -1, 1, -1}), -0.75, 1e-15);  // written out: -3/4
    // The shuffled coordinates are the table's own points in the shuffled order, signs and all
    // (they used to be flipped to rise with the random order: a mirrored cloud in the 3-D view).
    const std::vector<std::size_t> order = shuffledOrder(200, options.shuffleSeed);
    const Matrix& moved = structure->shuffledPca.projections;
    ASSERT_EQ(moved.rows, 200u);
    for (std::size_t i = 0; i < moved.rows; ++i) {
        for (std::size_t j = 0; j < moved.cols; ++j)
            ASSERT_EQ(moved(i, j), structure->pca.projections(order[i], j)) << i << ", " << j;
    }
    // The circle's columns oscillate once per 50 positions; shuffled, the spectrum goes flat
    // (white noise): its peak stands far less above its mean.
    auto peakiness = [](const std::vector<double>& magnitude) {
        const double peak = *std::max_element(magnitude.begin(), magnitude.end());
        return peak / (std::accumulate(magnitude.begin(), magnitude.end(), 0.0) / magnitude.size());
    };
    const auto& real = structure->spectrum;
    const std::size_t peak =
        std::max_element(real.meanMagnitude.begin(), real.meanMagnitude.end()) -
        real.meanMagnitude.begin();
    EXPECT_NEAR(real.frequency[peak], 1.0 / 50, 1.0 / 256);  // 200 rows padded to 256
    EXPECT_GT(peakiness(real.meanMagnitude),
              3 * peakiness(structure->shuffledSpectrum.meanMagnitude));
    // The shuffled spectrum (read through the order, no copy of the table) is that of the
    // rows copied out in the shuffled order.
    const TableSpectrum copied = columnSpectrum(rowsInOrder(table, order));
    EXPECT_EQ(structure->shuffledSpectrum.meanMagnitude, copied.meanMagnitude);
    EXPECT_EQ(structure->shuffledSpectrum.frequency, copied.frequency);
    ASSERT_EQ(structure->shuffledSpectrum.dominantFrequency.size(),
              copied.dominantFrequency.size());
    for (std::size_t c = 0; c < copied.dominantFrequency.size(); ++c)
        EXPECT_TRUE(structure->shuffledSpectrum.dominantFrequency[c] ==
                        copied.dominantFrequency[c] ||
                    (std::isnan(structure->shuffledSpectrum.dominantFrequency[c]) &&
                     std::isnan(copied.dominantFrequency[c])))
            << c;
}

TEST(TableStructureTest, ShuffledOrderIsAPermutationFixedBySeed) {
    const auto order = shuffledOrder(1000, 5);
    auto sorted = order;
    std::sort(sorted.begin(), sorted.end());
    for (std::size_t i = 0; i < sorted.size(); ++i) EXPECT_EQ(sorted[i], i);
    EXPECT_EQ(order, shuffledOrder(1000, 5));
    EXPECT_NE(order, shuffledOrder(1000, 6));
}

TEST(TableStructureTest, BadTablesAreRefused) {
    Matrix table(4, 3, 1.0);
    table(2, 1) = NAN;
    auto nan = analyzeTableStructure(table, {});
    ASSERT_FALSE(nan);
    EXPECT_EQ(nan.error().message, "the table holds a non-finite value at row 2, dimension 1");
    auto empty = analyzeTableStructure(Matrix(), {});
    ASSERT_FALSE(empty);
    EXPECT_EQ(empty.error().message, "the table is empty");
    auto large = analyzeTableStructure(Matrix(5000, 5000), {});
    ASSERT_FALSE(large);
    EXPECT_EQ(large.error().message,
              "the table has 5000 x 5000 values, over the structure analysis cap of 16777216 "
              "(crop rows or dimensions first)");
    StructureOptions options;
    options.components = 0;
    auto components = analyzeTableStructure(Matrix(3, 3), options);
    ASSERT_FALSE(components);
    EXPECT_EQ(components.error().message, "components must be 1..64 (got 0)");
}

TEST(TableStructureTest, PcaOfHugeFiniteValuesIsTheScaledPca) {
    // PCA(c T) = c PCA(T) (variances c^2): with c = 2^1000 the squares of the entries overflow,
    // which made every coordinate NaN before the table was scaled first (issue #32).
    Matrix table(6, 3);
    for (std::size_t r = 0; r < 6; ++r) {
        table(r, 0) = double(r);
        table(r, 1) = std::sin(double(r));
        table(r, 2) = 0.25 * double(r * r);
    }
    Matrix huge = table;
    for (double& value : huge.values) value = std::ldexp(value, 1000);
    auto small = principalComponents(table, 2, 2);
    auto large = principalComponents(huge, 2, 2);
    ASSERT_TRUE(small.ok());
    ASSERT_TRUE(large.ok()) << large.error().message;
    for (std::size_t k = 0; k < small->projections.values.size(); ++k) {
        EXPECT_TRUE(std::isfinite(large->projections.values[k]));
        EXPECT_DOUBLE_EQ(large->projections.values[k],
                         std::ldexp(small->projections.values[k], 1000));
    }
    EXPECT_DOUBLE_EQ(large->explained[0], small->explained[0]);
}

TEST(TableStructureTest, PcaWorkSpaceCountsAgainstTheMemoryCap) {
    Matrix table(2048, 512);  // 8 MiB table, 8 MiB centred copy, 2 MiB covariance
    for (std::size_t k = 0; k < table.values.size(); ++k) table.values[k] = double(k % 7);
    ::setenv("POSLAB_MEMORY_CAP_MIB", "16", 1);
    auto refused = principalComponents(table, 2, 2);
    ::unsetenv("POSLAB_MEMORY_CAP_MIB");
    ASSERT_FALSE(refused.ok());
    EXPECT_NE(refused.error().message.find("over the memory cap of 16 MiB"), std::string::npos)
        << refused.error().message;
}

}  // namespace
}  // namespace poslab

namespace poslab {
namespace {

TEST(TableStructureTest, SizeIsCheckedBeforeATableIsMade) {
    // `render learned-pca --seq-len 65536 --d-model 8192` used to build the 4 GiB table first.
    EXPECT_TRUE(checkStructureSize(4096, 4096));
    EXPECT_TRUE(checkStructureSize(1 << 20, 16));
    auto tooMany = checkStructureSize(65536, 8192);
    ASSERT_FALSE(tooMany);
    EXPECT_EQ(tooMany.error().message,
              "the table has 65536 x 8192 values, over the structure analysis cap of 16777216 "
              "(crop rows or dimensions first)");
    EXPECT_FALSE(checkStructureSize(0, 5));
}

}  // namespace
}  // namespace poslab

namespace poslab {
namespace {

// A table with a spectrum known exactly, for both routes above kJacobiLimit (PCA by block
// Lanczos on the n x n matrix R R^T / L formed by base/row_gram.hpp): X = offset + U S V^T with
// U's columns orthonormal and of mean zero (cosines and sines of distinct whole frequencies over
// the L positions, times sqrt(2 / L)), V's columns orthonormal (columns of the Householder
// reflection I - 2 u u^T / u.u) and singular values from 1000 down to 0.001. The centred table is
// U S V^T, so the variances are s_j^2 / L exactly, and their sum is the total variance.
//
// Accuracy the figure needs: explained-variance bars and their percentages (three significant
// digits at most) and the coordinates drawn at pixel precision, i.e. about 1e-4 of the largest
// variance. Forming R R^T squares the singular values, so a variance's rounding error is of the
// order of machine epsilon times the largest variance (not times its own): 1e-12 of the largest
// variance is asked here, eight orders of magnitude below what is drawn; the smallest variances
// (1e-6 / L, 1e-12 of the largest) are not resolved relative to themselves, and need not be.
Matrix knownSpectrumTable(std::size_t rows, std::size_t cols, const std::vector<double>& s) {
    const Matrix v = test_support::householderReflection(cols, 17);  // V's columns: orthonormal
    Matrix table(rows, cols);
    for (std::size_t p = 0; p < rows; ++p) {
        for (std::size_t c = 0; c < cols; ++c) table(p, c) = 0.25 + 0.001 * double(c);
        for (std::size_t j = 0; j < s.size(); ++j) {
            const double frequency = double(j / 2 + 1);  // cos for even j, sin for odd j
            const double angle = 2 * kPi * frequency * double(p) / double(rows);
            const double uj =
                std::sqrt(2.0 / double(rows)) * (j % 2 == 0 ? std::cos(angle) : std::sin(angle));
            for (std::size_t c = 0; c < cols; ++c) table(p, c) += uj * s[j] * v(c, j);
        }
    }
    return table;
}

TEST(TableStructureTest, BothRoutesFindAKnownSpectrumOverTwelveOrdersOfMagnitude) {
    const std::vector<double> s = {1000, 700, 300, 100, 30, 10, 3, 1, 0.3, 0.1, 0.01, 0.001};
    for (auto [rows, cols] : {std::pair<std::size_t, std::size_t>{260, 420}, {420, 260}}) {
        const Matrix table = knownSpectrumTable(rows, cols, s);
        auto pca = principalComponents(table, 14, 3);
        ASSERT_TRUE(pca) << pca.error().message;
        EXPECT_TRUE(pca->converged);
        const double top = s[0] * s[0] / double(rows);
        double total = 0;
        for (double value : s) total += value * value / double(rows);
        for (std::size_t j = 0; j < s.size(); ++j)
            EXPECT_NEAR(pca->variance[j], s[j] * s[j] / double(rows), 1e-12 * top) << j;
        EXPECT_NEAR(pca->variance[12], 0, 1e-12 * top);  // rank 12
        EXPECT_NEAR(pca->totalVariance, total, 1e-12 * total);
        double sum = 0;
        for (double variance : pca->variance) sum += variance;
        EXPECT_NEAR(sum, pca->totalVariance, 1e-11 * total);  // all the variance is in 12
        // Coordinates on component j: s_j u_j(p), up to sign.
        for (std::size_t j = 0; j < 3; ++j) {
            const double frequency = double(j / 2 + 1);
            double agree = 0, norm = 0;
            for (std::size_t p = 0; p < rows; ++p) {
                const double angle = 2 * kPi * frequency * double(p) / double(rows);
                const double expected = s[j] * std::sqrt(2.0 / double(rows)) *
                                        (j % 2 == 0 ? std::cos(angle) : std::sin(angle));
                agree += expected * pca->projections(p, j);
                norm += expected * expected;
            }
            EXPECT_NEAR(std::abs(agree) / norm, 1.0, 1e-12) << j;
        }
    }
}

}  // namespace
}  // namespace poslab
