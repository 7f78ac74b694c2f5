#include "poslab/encodings/xpos.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "../test_math.hpp"

namespace poslab {
namespace {

XposParams smallHead() {
    XposParams p;
    p.headDim = 8;
    return p;
}

const std::vector<double> kQ = {0.5, -1.0, 0.25, 2.0, -0.75, 1.5, 1.0, -0.5};
const std::vector<double> kK = {1.0, 0.5, -0.5, 0.25, 2.0, -1.0, 0.5, 0.75};

TEST(XposTest, ZetaIsTorchscaleScaleBuffer) {
    // (arange(0, 8, 2) + 0.4 * 8) / (1.4 * 8), printed by Python in double.
    const std::vector<double> expected = {0.28571428571428575, 0.46428571428571436,
                                          0.6428571428571429, 0.8214285714285714};
    const std::vector<double> zeta = xposZeta(smallHead());
    ASSERT_EQ(zeta.size(), expected.size());
    for (std::size_t i = 0; i < zeta.size(); ++i) EXPECT_NEAR(zeta[i], expected[i], 1e-15) << i;
}

TEST(XposTest, RotatedQueryMatchesTorchscaleForward) {
    // XPOS(8).forward on a 6-token sequence, row 5, reproduced in Python double from the
    // torchscale source (min_pos = -6 // 2 = -3, interleaved pairs, rotate_every_two).
    // Tolerance 1e-12: same operations in double (torch itself runs in float32: ~1e-6).
    const std::vector<double> expected = {
        -0.8131044180466689, -0.7593990160541078, -0.7372425396980865, 1.8694103122250336,
        -0.8226104723436147, 1.4581222540931233,  1.001717474514029,   -0.494613563931418};
    const std::vector<double> q5 = xposApply(kQ, 5, 6, XposRole::Query, smallHead());
    ASSERT_EQ(q5.size(), expected.size());
    for (std::size_t i = 0; i < q5.size(); ++i) EXPECT_NEAR(q5[i], expected[i], 1e-12) << i;
}

TEST(XposTest, ScoreDependsOnlyOnOffset) {
    // Written out from torchscale in Python: q at 5 . k at 2 and q at 3 . k at 0 (both r = 3),
    // and a key after its query (r = -3), where the scale grows instead of decaying.
    const XposParams p = smallHead();
    auto score = [&](int n, int m) {
        return dot(xposApply(kQ, n, 6, XposRole::Query, p), xposApply(kK, m, 6, XposRole::Key, p));
    };
    EXPECT_NEAR(score(5, 2), -2.086024501713259, 1e-12);
    EXPECT_NEAR(score(3, 0), -2.0860245017132604, 1e-12);
    EXPECT_NEAR(score(2, 5), -2.9498575210805997, 1e-12);
    EXPECT_NEAR(score(4, 4), -2.5, 1e-12);  // r = 0: plain q . k
    // Identity: the closed form in r matches every (n, m) pair of a 40-token sequence.
    for (int n = 0; n < 40; n += 3) {
        for (int m = 0; m < 40; m += 5) {
            const double direct = dot(xposApply(kQ, n, 40, XposRole::Query, p),
                                      xposApply(kK, m, 40, XposRole::Key, p));
            EXPECT_NEAR(direct, xposScore(kQ, kK, p, n - m), 1e-12) << n << " " << m;
        }
    }
}

TEST(XposTest, OnesScoreDecaysBelowRope) {
    // d = 64: sum_i 2 zeta_i^(r/512) cos(r 10000^(-i/32)) and the mean of zeta_i^(r/512),
    // printed by Python from the formula.
    const XposParams p;
    EXPECT_DOUBLE_EQ(xposOnesScore(p, 0), 64.0);
    EXPECT_NEAR(xposOnesScore(p, 1), 61.77378974878442, 1e-11);
    EXPECT_NEAR(xposOnesScore(p, 100), 33.21660354988638, 1e-11);
    EXPECT_NEAR(xposOnesScore(p, 1000), 12.086306212203436, 1e-10);
    EXPECT_NEAR(xposDecay(p, 100), 0.9058223300366303, 1e-14);
    EXPECT_NEAR(xposDecay(p, 1000), 0.44815498702948514, 1e-14);
    // scale_base huge: zeta^(r/sb) -> 1, no decay; xPos becomes RoPE (tolerance 1e-6).
    XposParams flat = p;
    flat.scaleBase = 1e9;
    for (double r : {3.0, 77.0, 500.0})
        EXPECT_NEAR(xposOnesScore(flat, r), ropeOnesScore(p, r), 1e-6);
}

TEST(XposTest, ScoreMatrixIsCausalAndToeplitz) {
    auto m = xposScoreMatrix(XposParams{}, 12);
    ASSERT_TRUE(m.ok());
    EXPECT_TRUE(std::isinf((*m)(2, 5)));
    EXPECT_DOUBLE_EQ((*m)(7, 3), (*m)(10, 6));
    EXPECT_DOUBLE_EQ((*m)(7, 3), xposOnesScore(XposParams{}, 4));
}

TEST(XposTest, ValidateNamesParameterAndRange) {
    XposParams p;
    p.headDim = 7;
    EXPECT_EQ(validate(p).error().message, "head_dim must be even (got 7)");
    p = {};
    p.scaleBase = 0;
    EXPECT_NE(validate(p).error().message.find("scale_base"), std::string::npos);
    p = {};
    p.gamma = -1;
    EXPECT_NE(validate(p).error().message.find("gamma"), std::string::npos);
    EXPECT_FALSE(xposScoreMatrix(XposParams{}, 0).ok());
}

}  // namespace
}  // namespace poslab
