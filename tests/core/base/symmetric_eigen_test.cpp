#include "poslab/base/symmetric_eigen.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <numeric>
#include <vector>

#include "householder.hpp"
#include "poslab/base/random.hpp"

namespace poslab {
namespace {

// ---- The eigen-solvers

TEST(SymmetricEigenTest, JacobiSolvesTheHandWorkedTridiagonal) {
    // [[2,-1,0],[-1,2,-1],[0,-1,2]]: eigenvalues 2 + sqrt 2, 2, 2 - sqrt 2 with eigenvectors
    // (1, -sqrt 2, 1)/2, (1, 0, -1)/sqrt 2, (1, sqrt 2, 1)/2 (the path graph's Laplacian family).
    Matrix a(3, 3);
    a.values = {2, -1, 0, -1, 2, -1, 0, -1, 2};
    const SymmetricEigen eigen = jacobiEigen(a);
    ASSERT_TRUE(eigen.converged);
    const double r2 = std::sqrt(2.0);
    EXPECT_NEAR(eigen.values[0], 2 + r2, 1e-14);
    EXPECT_NEAR(eigen.values[1], 2, 1e-14);
    EXPECT_NEAR(eigen.values[2], 2 - r2, 1e-14);
    const double expected[3][3] = {{0.5, -r2 / 2, 0.5}, {1 / r2, 0, -1 / r2}, {0.5, r2 / 2, 0.5}};
    for (int j = 0; j < 3; ++j) {
        const double sign = eigen.vectors(0, j) >= 0 ? 1 : -1;  // eigenvectors up to sign
        for (int i = 0; i < 3; ++i) EXPECT_NEAR(sign * eigen.vectors(i, j), expected[j][i], 1e-14);
    }
}

// The factor B (n x rank, seeded normal draws) of randomPsd.
Matrix randomFactor(std::size_t n, std::size_t rank, std::uint64_t seed) {
    NormalSampler sampler(seed);
    Matrix b(n, rank);
    for (double& v : b.values) v = sampler.next();
    return b;
}

// A random symmetric positive semi-definite matrix B W B^T (n x n, rank r; W = diag(1 / (1 + k))).
Matrix randomPsd(std::size_t n, std::size_t rank, std::uint64_t seed) {
    const Matrix b = randomFactor(n, rank, seed);
    Matrix a(n, n);
    for (std::size_t i = 0; i < n; ++i) {
        for (std::size_t j = 0; j < n; ++j) {
            for (std::size_t k = 0; k < rank; ++k) a(i, j) += b(i, k) * b(j, k) / (1.0 + k);
        }
    }
    return a;
}

TEST(SymmetricEigenTest, EigenpairsSatisfyTheirDefinition) {
    // A v = lambda v (to the stopping rule: residual under 1e-6 of the largest eigenvalue) and
    // V^T V = I, for the Jacobi solver and the subspace iteration alike.
    for (std::size_t n : {std::size_t(40), std::size_t(260)}) {
        const Matrix a = randomPsd(n, 30, n);
        const SymmetricEigen eigen = topEigenpairs(a, 6);
        ASSERT_TRUE(eigen.converged) << n;
        ASSERT_EQ(eigen.values.size(), 6u);
        for (std::size_t j = 0; j < 6; ++j) {
            if (j > 0) {
                EXPECT_GE(eigen.values[j - 1], eigen.values[j]);
            }
            for (std::size_t i = 0; i < n; ++i) {
                double av = 0;
                for (std::size_t k = 0; k < n; ++k) av += a(i, k) * eigen.vectors(k, j);
                EXPECT_NEAR(av, eigen.values[j] * eigen.vectors(i, j),
                            1e-6 * eigen.values[0]);  // the stop rule
            }
            for (std::size_t l = 0; l < 6; ++l) {
                double dot = 0;
                for (std::size_t i = 0; i < n; ++i)
                    dot += eigen.vectors(i, j) * eigen.vectors(i, l);
                EXPECT_NEAR(dot, j == l ? 1.0 : 0.0, 1e-10);
            }
        }
    }
}

// The nonzero eigenvalues of B W B^T (n x n) are those of W^1/2 B^T B W^1/2 (rank x rank), so
// Jacobi on the 40 x 40 matrix gives the 200 x 200 one's spectrum (the test took 4.8 s of CPU
// under ASan+UBSan with Jacobi on the whole matrix, 0.16 s so).
TEST(SymmetricEigenTest, BlockLanczosAgreesWithJacobi) {
    const std::size_t n = 200, rank = 40;
    const Matrix a = randomPsd(n, rank, 7);  // above kJacobiLimit: block Lanczos
    const SymmetricEigen top = topEigenpairs(a, 5);
    const Matrix b = randomFactor(n, rank, 7);
    Matrix small(rank, rank);
    for (std::size_t k = 0; k < rank; ++k) {
        for (std::size_t l = 0; l < rank; ++l) {
            for (std::size_t i = 0; i < n; ++i) small(k, l) += b(i, k) * b(i, l);
            small(k, l) /= std::sqrt((1.0 + double(k)) * (1.0 + double(l)));
        }
    }
    const SymmetricEigen all = jacobiEigen(small);
    for (std::size_t j = 0; j < 5; ++j)
        EXPECT_NEAR(top.values[j], all.values[j], 1e-9 * all.values[0]);
}

// Householder + QL against Jacobi on an indefinite symmetric matrix: the same eigenvalues, the
// same eigenvectors up to sign (the eigenvalues of a random matrix are well apart).
TEST(SymmetricEigenTest, DenseSolverAgreesWithJacobi) {
    const std::size_t n = 60;
    NormalSampler sampler(3);
    Matrix a(n, n);
    for (std::size_t i = 0; i < n; ++i) {
        for (std::size_t j = 0; j <= i; ++j) a(i, j) = a(j, i) = sampler.next();
    }
    const SymmetricEigen dense = denseSymmetricEigen(a);
    const SymmetricEigen jacobi = jacobiEigen(a);
    ASSERT_TRUE(dense.converged);
    const double scale = std::max(std::abs(jacobi.values.front()), std::abs(jacobi.values.back()));
    for (std::size_t j = 0; j < n; ++j) {
        EXPECT_NEAR(dense.values[j], jacobi.values[j], 1e-12 * scale) << j;
        double dot = 0;
        for (std::size_t i = 0; i < n; ++i) dot += dense.vectors(i, j) * jacobi.vectors(i, j);
        EXPECT_NEAR(std::abs(dot), 1.0, 1e-9) << j;
    }
}

// A = H diag(lambda) H with H = I - 2 u u^T / u.u (orthogonal): a spectrum known exactly, with
// the top eigenvalue three times over (block Lanczos finds every copy; single-vector Lanczos
// would find one) and a slowly decaying tail.
TEST(SymmetricEigenTest, BlockLanczosFindsAKnownSpectrumWithARepeatedEigenvalue) {
    const std::size_t n = 300;
    std::vector<double> lambda(n);
    const double top[] = {10, 10, 10, 7, 5, 4.5};
    for (std::size_t i = 0; i < n; ++i) lambda[i] = i < 6 ? top[i] : 4.0 / (1.0 + 0.05 * double(i));
    const Matrix h = test_support::householderReflection(n, 11);
    Matrix a(n, n);
    for (std::size_t i = 0; i < n; ++i) {
        for (std::size_t j = 0; j < n; ++j) {
            double sum = 0;
            for (std::size_t k = 0; k < n; ++k) sum += h(i, k) * lambda[k] * h(k, j);
            a(i, j) = sum;
        }
    }
    const SymmetricEigen eigen = topEigenpairs(a, 6);
    ASSERT_TRUE(eigen.converged);
    for (std::size_t j = 0; j < 6; ++j) EXPECT_NEAR(eigen.values[j], top[j], 1e-9) << j;
    // The three vectors of the repeated eigenvalue span its eigenspace: each lies in
    // span(H e_0, H e_1, H e_2), i.e. H v has nothing outside its first three entries.
    for (std::size_t j = 0; j < 3; ++j) {
        double outside = 0;
        for (std::size_t i = 3; i < n; ++i) {
            double hv = 0;
            for (std::size_t k = 0; k < n; ++k) hv += h(i, k) * eigen.vectors(k, j);
            outside += hv * hv;
        }
        EXPECT_LT(std::sqrt(outside), 1e-8) << j;
    }
}

// ---- Band matrices

// A random symmetric band matrix (half-width w, entries N(0, 1), the diagonal shifted by
// `shift`) written out in full, and as a SymmetricBand.
Matrix randomBand(std::size_t n, std::size_t w, double shift, std::uint64_t seed) {
    NormalSampler sampler(seed);
    Matrix a(n, n);
    for (std::size_t i = 0; i < n; ++i) {
        for (std::size_t j = i; j < n && j <= i + w; ++j)
            a(i, j) = a(j, i) = sampler.next() + (i == j ? shift : 0);
    }
    return a;
}

SymmetricBand asBand(const Matrix& a, std::size_t w) {
    SymmetricBand band(a.rows, w);
    for (std::size_t i = 0; i < a.rows; ++i) {
        for (std::size_t j = i; j < a.rows && j <= i + w; ++j) band.set(i, j, a(i, j));
    }
    return band;
}

// |A v - lambda v| for column j of the eigenvectors, and the largest |v_i . v_j - delta_ij|.
double residualOf(const Matrix& a, const SymmetricEigen& eigen, std::size_t j) {
    double sum = 0;
    for (std::size_t r = 0; r < a.rows; ++r) {
        double av = -eigen.values[j] * eigen.vectors(r, j);
        for (std::size_t c = 0; c < a.cols; ++c) av += a(r, c) * eigen.vectors(c, j);
        sum += av * av;
    }
    return std::sqrt(sum);
}

double orthonormalityError(const SymmetricEigen& eigen) {
    double worst = 0;
    for (std::size_t i = 0; i < eigen.vectors.cols; ++i) {
        for (std::size_t j = 0; j <= i; ++j) {
            double dot = 0;
            for (std::size_t r = 0; r < eigen.vectors.rows; ++r)
                dot += eigen.vectors(r, i) * eigen.vectors(r, j);
            worst = std::max(worst, std::abs(dot - (i == j ? 1.0 : 0.0)));
        }
    }
    return worst;
}

// Schwarz's band reduction + QL against Jacobi on the full matrix, for every half-width the
// block Lanczos uses and beyond (indefinite: eigenvalues of both signs); the vectors by inverse
// iteration satisfy A v = lambda v and are orthonormal.
TEST(SymmetricEigenTest, BandSolverAgreesWithJacobi) {
    const std::size_t n = 60;
    for (std::size_t w : {std::size_t(1), std::size_t(2), std::size_t(4), std::size_t(7)}) {
        const Matrix a = randomBand(n, w, 0.0, 40 + w);
        const SymmetricEigen jacobi = jacobiEigen(a);
        const double scale =
            std::max(std::abs(jacobi.values.front()), std::abs(jacobi.values.back()));
        const std::vector<double> values = bandEigenvalues(asBand(a, w));
        ASSERT_EQ(values.size(), n);
        for (std::size_t j = 0; j < n; ++j)
            EXPECT_NEAR(values[j], jacobi.values[j], 1e-12 * scale) << w << " " << j;
        const SymmetricEigen top = bandTopEigenpairs(asBand(a, w), 20);
        ASSERT_EQ(top.vectors.cols, 20u);
        for (std::size_t j = 0; j < 20; ++j) {
            EXPECT_EQ(top.values[j], values[j]);
            EXPECT_LT(residualOf(a, top, j), 1e-11 * scale) << w << " " << j;
        }
        EXPECT_LT(orthonormalityError(top), 1e-12) << w;
    }
}

// Two copies of one band block side by side: every eigenvalue twice (to the last bit). Inverse
// iteration gives each pair two orthogonal vectors that span its eigenspace, and a cluster of
// close but distinct eigenvalues (a second matrix, the copy shifted by 1e-9) as well.
TEST(SymmetricEigenTest, BandSolverGivesRepeatedEigenvaluesAnOrthonormalBasis) {
    const std::size_t half = 25, w = 4;
    for (double offset : {0.0, 1e-9}) {
        const Matrix block = randomBand(half, w, 3.0, 9);
        Matrix a(2 * half, 2 * half);
        for (std::size_t i = 0; i < half; ++i) {
            for (std::size_t j = 0; j < half; ++j) {
                a(i, j) = block(i, j);
                a(half + i, half + j) = block(i, j) + (i == j ? offset : 0.0);
            }
        }
        const SymmetricEigen jacobi = jacobiEigen(block);
        const SymmetricEigen top = bandTopEigenpairs(asBand(a, w), 10);
        const double scale = std::abs(jacobi.values.front());
        for (std::size_t j = 0; j < 10; ++j) {
            EXPECT_NEAR(top.values[j], jacobi.values[j / 2] + (j % 2 == 0 ? offset : 0.0),
                        1e-13 * scale)
                << offset << " " << j;
            EXPECT_LT(residualOf(a, top, j), 1e-11 * scale) << offset << " " << j;
        }
        EXPECT_LT(orthonormalityError(top), 1e-10) << offset;
    }
}

// The hard case of the PCA render: the Gram matrix of independent normal rows (Marchenko-Pastur
// spectrum, no gap at the top), 64 components of 160. Block Lanczos (called directly: topEigenpairs
// would take Jacobi at this size) against Jacobi on the whole matrix: the eigenvalues to 1e-10 of
// the largest, the vectors to the stopping rule.
TEST(SymmetricEigenTest, BlockLanczosFindsSixtyFourOfAGaplessSpectrum) {
    const std::size_t n = 160, m = 640;
    NormalSampler sampler(21);
    Matrix rows(n, m);
    for (double& v : rows.values) v = sampler.next();
    Matrix a(n, n);
    PaddedRows padded(n, n);
    for (std::size_t i = 0; i < n; ++i) {
        for (std::size_t j = 0; j <= i; ++j) {
            double sum = 0;
            for (std::size_t k = 0; k < m; ++k) sum += rows(i, k) * rows(j, k);
            a(i, j) = a(j, i) = padded.row(i)[j] = padded.row(j)[i] = sum / double(m);
        }
    }
    const SymmetricEigen all = jacobiEigen(a);
    const SymmetricEigen top = blockKrylovEigenpairs(
        n, [&](const Matrix& x, Matrix& y) { symmetricTimesBlock(padded, x, y); }, 64);
    ASSERT_TRUE(top.converged);
    ASSERT_EQ(top.values.size(), 64u);
    for (std::size_t j = 0; j < 64; ++j) {
        EXPECT_NEAR(top.values[j], all.values[j], 1e-10 * all.values[0]) << j;
        EXPECT_LT(residualOf(a, top, j), 2e-10 * all.values[0]) << j;
    }
    EXPECT_LT(orthonormalityError(top), 1e-9);
}

// The four running sums, written out: the same order of additions, so the same bits.
TEST(SymmetricEigenTest, FourSumDotAddsItsFourRunningSumsInPairs) {
    const double x[7] = {1, 2, 3, 4, 5, 6, 7}, y[7] = {1, 1e-17, 1, 1, 1e16, -1e16, 2};
    // One pass of four (entries 0..3), then the tail 4..6 into the first sum.
    double s0 = 1 * 1;
    s0 += 5 * 1e16;
    s0 += 6 * -1e16;
    s0 += 7 * 2;
    const double s1 = 2 * 1e-17, s2 = 3, s3 = 4;
    EXPECT_EQ(fourSumDot(x, y, 7), (s0 + s1) + (s2 + s3));
    EXPECT_EQ(fourSumDot(x, y, 0), 0.0);
    EXPECT_EQ(fourSumDot(x, y, 3), 1 + 2e-17 + 3);
}

}  // namespace
}  // namespace poslab
