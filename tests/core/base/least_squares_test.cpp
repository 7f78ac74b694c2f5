// Least squares by pivoted QR: a straight-line fit worked out by hand, an exact square system,
// the normal-equation identity Aᵀ(AX - B) = 0, a rank-deficient A, and the input errors.
#include "poslab/base/least_squares.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace poslab {
namespace {

Matrix fromRows(std::size_t rows, std::size_t cols, std::initializer_list<double> values) {
    Matrix m(rows, cols);
    m.values.assign(values.begin(), values.end());
    return m;
}

TEST(LeastSquaresTest, FitsALineThroughThreePointsAsWorkedByHand) {
    // y = c0 + c1 x through (0, 6), (1, 0), (2, 0). Normal equations:
    //   [3 3; 3 5] [c0; c1] = [6; 0]  ->  c0 = 5, c1 = -3, fitted 5, 2, -1, residual -1, 2, -1.
    const Matrix a = fromRows(3, 2, {1, 0, 1, 1, 1, 2});
    const Matrix b = fromRows(3, 1, {6, 0, 0});
    auto fit = leastSquares(a, b);
    ASSERT_TRUE(fit.ok()) << fit.error().message;
    EXPECT_EQ(fit->rank, 2);
    EXPECT_NEAR(fit->solution(0, 0), 5, 1e-13);
    EXPECT_NEAR(fit->solution(1, 0), -3, 1e-13);
    EXPECT_NEAR(fit->residual(0, 0), -1, 1e-13);
    EXPECT_NEAR(fit->residual(1, 0), 2, 1e-13);
    EXPECT_NEAR(fit->residual(2, 0), -1, 1e-13);
}

TEST(LeastSquaresTest, SolvesASquareSystemExactly) {
    // [2 1 0; 1 3 1; 0 1 4] x = b for x = (1, -2, 3): b = (0, -2, 10); B holds x and 2x.
    const Matrix a = fromRows(3, 3, {2, 1, 0, 1, 3, 1, 0, 1, 4});
    const Matrix b = fromRows(3, 2, {0, 0, -2, -4, 10, 20});
    auto fit = leastSquares(a, b);
    ASSERT_TRUE(fit.ok());
    const double x[3] = {1, -2, 3};
    for (std::size_t i = 0; i < 3; ++i) {
        EXPECT_NEAR(fit->solution(i, 0), x[i], 1e-13);
        EXPECT_NEAR(fit->solution(i, 1), 2 * x[i], 1e-13);
    }
    for (double r : fit->residual.values) EXPECT_NEAR(r, 0, 1e-13);
}

TEST(LeastSquaresTest, ResidualIsOrthogonalToEveryColumn) {
    // The least-squares optimum satisfies Aᵀ (A X - B) = 0 (the normal equations).
    Matrix a(40, 5), b(40, 3);
    for (std::size_t r = 0; r < 40; ++r) {
        for (std::size_t c = 0; c < 5; ++c) a(r, c) = std::sin(0.7 * double(r) * double(c + 1));
        for (std::size_t c = 0; c < 3; ++c) b(r, c) = std::cos(0.3 * double(r) + double(c));
    }
    auto fit = leastSquares(a, b);
    ASSERT_TRUE(fit.ok());
    EXPECT_EQ(fit->rank, 5);
    for (std::size_t j = 0; j < 5; ++j) {
        for (std::size_t c = 0; c < 3; ++c) {
            double dot = 0;
            for (std::size_t r = 0; r < 40; ++r) dot += a(r, j) * fit->residual(r, c);
            EXPECT_NEAR(dot, 0, 1e-12);
        }
    }
}

TEST(LeastSquaresTest, DependentColumnIsLeftOutAndTheResidualStaysLeast) {
    // The second column is twice the first: rank 1, and the fit is the one-column fit
    // y = c x through (1, 1), (2, 3): c = (1 + 6) / (1 + 4) = 1.4, split over the two columns
    // as the pivot chooses; the fitted values and the residual are unique.
    const Matrix a = fromRows(2, 2, {1, 2, 2, 4});
    const Matrix b = fromRows(2, 1, {1, 3});
    auto fit = leastSquares(a, b);
    ASSERT_TRUE(fit.ok());
    EXPECT_EQ(fit->rank, 1);
    EXPECT_NEAR(fit->solution(0, 0) + 2 * fit->solution(1, 0), 1.4, 1e-13);
    EXPECT_NEAR(fit->residual(0, 0), 1.4 - 1, 1e-13);
    EXPECT_NEAR(fit->residual(1, 0), 2.8 - 3, 1e-13);
}

TEST(LeastSquaresTest, RefusesMismatchedEmptyAndNonFiniteInput) {
    EXPECT_EQ(leastSquares(Matrix(3, 2, 1.0), Matrix(2, 1, 1.0)).error().message,
              "least squares needs A and B with the same rows (got 3 and 2)");
    EXPECT_FALSE(leastSquares(Matrix(), Matrix()).ok());
    Matrix bad(2, 2, 1.0);
    bad(1, 1) = NAN;
    EXPECT_EQ(leastSquares(bad, Matrix(2, 1, 1.0)).error().message,
              "least squares needs finite A and B");
}

}  // namespace
}  // namespace poslab
