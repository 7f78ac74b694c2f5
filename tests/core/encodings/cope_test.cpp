#include "poslab/encodings/cope.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace poslab {
namespace {

Matrix filled(std::size_t n, double value) {
    return Matrix(n, n, value);
}

TEST(CopeTest, SigmoidValuesAndSymmetry) {
    EXPECT_DOUBLE_EQ(sigmoid(0), 0.5);
    EXPECT_NEAR(sigmoid(1), 0.7310585786300049, 1e-15);  // 1 / (1 + e^-1)
    EXPECT_NEAR(sigmoid(-1), 0.2689414213699951, 1e-15);
    EXPECT_DOUBLE_EQ(sigmoid(800), 1.0);  // no overflow either way
    EXPECT_GE(sigmoid(-800), 0.0);
    EXPECT_LT(sigmoid(-800), 1e-300);
}

TEST(CopeTest, GatesDivideBySqrtHeadDimAndMaskTheFuture) {
    CopeParams p;
    const Matrix gates = copeGates(filled(3, 2.0), 4, p);  // sigmoid(2 / 2) = sigmoid(1)
    EXPECT_NEAR(gates(0, 0), 0.7310585786300049, 1e-15);
    EXPECT_NEAR(gates(2, 1), 0.7310585786300049, 1e-15);
    EXPECT_EQ(gates(0, 1), 0.0);
    EXPECT_EQ(gates(1, 2), 0.0);
    p.divideGates = false;  // the paper's sigmoid(q.k)
    EXPECT_NEAR(copeGates(filled(3, 2.0), 4, p)(1, 0), 0.8807970779778823, 1e-15);
    p.causal = false;
    EXPECT_GT(copeGates(filled(3, 2.0), 4, p)(0, 2), 0.5);
}

TEST(CopeTest, AllGatesOneGiveTokenDistancePlusOne) {
    CopeParams p;
    p.npos = 100;
    Matrix gates(6, 6);
    for (std::size_t i = 0; i < 6; ++i)
        for (std::size_t j = 0; j <= i; ++j) gates(i, j) = 1;
    const Matrix positions = copePositions(gates, p);
    for (std::size_t i = 0; i < 6; ++i) {
        for (std::size_t j = 0; j < 6; ++j) {
            EXPECT_EQ(positions(i, j), j <= i ? double(i - j + 1) : 0.0) << i << "," << j;
        }
    }
}

TEST(CopeTest, PositionsAreReversedCumulativeSumsClampedToNposMinusOne) {
    // Row 0.5, 0.25, 1, 0 (the 0 masked): positions 1.75, 1.25, 1, 0, as flip-cumsum-flip gives.
    Matrix gates(1, 4);
    gates.values = {0.5, 0.25, 1.0, 0.0};
    CopeParams p;
    p.npos = 10;
    Matrix positions = copePositions(gates, p);
    EXPECT_DOUBLE_EQ(positions(0, 0), 1.75);
    EXPECT_DOUBLE_EQ(positions(0, 1), 1.25);
    EXPECT_DOUBLE_EQ(positions(0, 2), 1.0);
    EXPECT_DOUBLE_EQ(positions(0, 3), 0.0);
    p.npos = 2;  // clamp(max = npos - 1 = 1)
    positions = copePositions(gates, p);
    EXPECT_DOUBLE_EQ(positions(0, 0), 1.0);
    EXPECT_DOUBLE_EQ(positions(0, 1), 1.0);
    EXPECT_DOUBLE_EQ(positions(0, 3), 0.0);
}

TEST(CopeTest, InterpolatesBetweenFloorAndCeil) {
    Matrix z(1, 4);
    z.values = {10, 20, 40, 80};  // q . e[t] for t = 0..3
    Matrix p(1, 4);
    p.values = {0, 1.25, 2.5, 3};
    auto b = copeInterpolatedLogits(z, p);
    ASSERT_TRUE(b.ok());
    EXPECT_DOUBLE_EQ((*b)(0, 0), 10);
    EXPECT_DOUBLE_EQ((*b)(0, 1), 20 * 0.75 + 40 * 0.25);  // 25
    EXPECT_DOUBLE_EQ((*b)(0, 2), 60);
    EXPECT_DOUBLE_EQ((*b)(0, 3), 80);  // an integer position: ceil = floor, weight 0
    p.values[1] = 3.5;
    EXPECT_FALSE(copeInterpolatedLogits(z, p).ok());
}

TEST(CopeTest, PositionLogitsAreQueriesTimesTable) {
    Matrix q(1, 2);
    q.values = {1, 2};
    Matrix e(2, 3);
    e.values = {1, 0, -1, 3, 4, 5};  // row c, column t
    auto z = copePositionLogits(q, e);
    ASSERT_TRUE(z.ok());
    EXPECT_DOUBLE_EQ((*z)(0, 0), 7);
    EXPECT_DOUBLE_EQ((*z)(0, 1), 8);
    EXPECT_DOUBLE_EQ((*z)(0, 2), 9);
    EXPECT_FALSE(copePositionLogits(q, Matrix(3, 3)).ok());
}

TEST(CopeTest, ValidateNamesNpos) {
    CopeParams p;
    p.npos = 0;
    auto s = validate(p);
    ASSERT_FALSE(s.ok());
    EXPECT_EQ(s.error().message, "npos must be 1..65536 (got 0)");
}

}  // namespace
}  // namespace poslab
