#include "poslab/encodings/kerple.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace poslab {
namespace {

KerpleParams kerple(KerpleKernel kernel, double r1, double r2) {
    KerpleParams p;
    p.kernel = kernel;
    p.r1 = r1;
    p.r2 = r2;
    return p;
}

TEST(KerpleTest, LogKernelMatchesAuthorsCode) {
    // ParallelKerpleLog: -bias_p * log(1 + bias_a * diff), bias_p = r1, bias_a = r2, both
    // clamped to >= 0.01. Values printed by Python from those lines; tolerance 1e-14.
    EXPECT_NEAR(kerpleBias(kerple(KerpleKernel::Logarithmic, 1.5, 0.3), 10), -2.0794415416798357,
                1e-14);
    // r1 = 0.005 is clamped to 0.01.
    EXPECT_NEAR(kerpleBias(kerple(KerpleKernel::Logarithmic, 0.005, 2.0), 7), -0.027080502011022103,
                1e-14);
    // r2 = 0.001 is clamped to 0.01: -2 log(2).
    EXPECT_NEAR(kerpleBias(kerple(KerpleKernel::Logarithmic, 2.0, 0.001), 100), -1.3862943611198906,
                1e-14);
}

TEST(KerpleTest, PowerKernelMatchesAuthorsCode) {
    // ParallelKerplePower: -bias_a * diff^bias_p, bias_a = r1 (>= 0.01), bias_p = r2 in
    // [0.01, 2]. Tolerance 1e-14.
    EXPECT_NEAR(kerpleBias(kerple(KerpleKernel::Power, 0.5, 1.5), 9), -13.5, 1e-14);
    // r2 clamped to 2, then r1 to 0.01.
    EXPECT_NEAR(kerpleBias(kerple(KerpleKernel::Power, 0.25, 3.0), 4), -4.0, 1e-14);
    EXPECT_NEAR(kerpleBias(kerple(KerpleKernel::Power, 0.001, 0.5), 16), -0.04, 1e-14);
    // r2 = 1 is ALiBi with slope r1.
    EXPECT_DOUBLE_EQ(kerpleBias(kerple(KerpleKernel::Power, 0.25, 1.0), 12), -3.0);
}

TEST(KerpleTest, ClampsAreReported) {
    EXPECT_FALSE(kerpleClamped(kerple(KerpleKernel::Power, 1, 2)));
    EXPECT_TRUE(kerpleClamped(kerple(KerpleKernel::Power, 1, 2.5)));
    EXPECT_FALSE(kerpleClamped(kerple(KerpleKernel::Logarithmic, 1, 2.5)));  // no upper clamp
    EXPECT_TRUE(kerpleClamped(kerple(KerpleKernel::Logarithmic, 0, 1)));
    EXPECT_DOUBLE_EQ(kerpleEffective(kerple(KerpleKernel::Logarithmic, 0, 1)).r1, 0.01);
}

TEST(KerpleTest, MatrixIsCausalZeroOnDiagonal) {
    auto m = kerpleBiasMatrix(kerple(KerpleKernel::Logarithmic, 1, 1), 8);
    ASSERT_TRUE(m.ok());
    EXPECT_EQ((*m)(3, 3), 0.0);
    EXPECT_TRUE(std::isinf((*m)(3, 4)));
    EXPECT_NEAR((*m)(7, 0), -std::log(8.0), 1e-15);
}

TEST(KerpleTest, ValidateNamesParameterAndRange) {
    EXPECT_EQ(validate(kerple(KerpleKernel::Power, -1, 1)).error().message.rfind("r1 must be", 0),
              0u);
    EXPECT_EQ(validate(kerple(KerpleKernel::Power, 1, NAN)).error().message.rfind("r2 must be", 0),
              0u);
    EXPECT_FALSE(kerpleBiasMatrix(KerpleParams{}, 0).ok());
}

}  // namespace
}  // namespace poslab
