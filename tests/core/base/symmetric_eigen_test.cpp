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

// A random symmetric positive semi-definite matrix B B^T (n x n, rank r).
Matrix randomPsd(std::size_t n, std::size_t rank, std::uint64_t seed) {
    NormalSampler sampler(seed);
    Matrix b(n, rank);
    for (double& v : b.values) v = sampler.next();
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

TEST(SymmetricEigenTest, BlockLanczosAgreesWithJacobi) {
    const Matrix a = randomPsd(200, 40, 7);  // above kJacobiLimit: block Lanczos
    const SymmetricEigen top = topEigenpairs(a, 5);
    const SymmetricEigen all = jacobiEigen(a);
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
