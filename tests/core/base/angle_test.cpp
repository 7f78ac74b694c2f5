// directionAngle against libm's atan2 (shifted into [0, 2 pi)), which is correctly rounded or
// nearly so: random vectors at every scale and in every quadrant, the axes and diagonals, the
// table's own points, and the special values.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <random>

#include "../test_math.hpp"
#include "poslab/base/angle.hpp"

namespace poslab {
namespace {

double reference(double y, double x) {
    const double angle = std::atan2(y, x);
    const double shifted = angle < 0 ? angle + kTwoPi : angle;
    return shifted >= kTwoPi ? 0.0 : shifted;
}

// Distance on the circle: 0 and 2 pi are the same direction.
double circularError(double a, double b) {
    return std::abs(std::remainder(a - b, kTwoPi));
}

// A few units in the last place of 2 pi.
constexpr double kTolerance = 4 * std::numeric_limits<double>::epsilon() * kTwoPi;

TEST(AngleTest, MatchesAtan2OnRandomVectorsAtEveryScale) {
    std::mt19937_64 random(7);
    std::uniform_real_distribution<double> unit(-1.0, 1.0);
    std::uniform_int_distribution<int> exponent(-300, 300);
    double worst = 0;
    for (int i = 0; i < 200000; ++i) {
        const double scale = std::ldexp(1.0, exponent(random));
        // Mostly comparable coordinates; sometimes wildly different magnitudes.
        const double y = unit(random) * scale;
        const double x = unit(random) * (i % 8 == 0 ? std::ldexp(1.0, exponent(random)) : scale);
        const double got = directionAngle(y, x);
        ASSERT_GE(got, 0.0) << y << " " << x;
        ASSERT_LT(got, kTwoPi) << y << " " << x;
        worst = std::max(worst, circularError(got, reference(y, x)));
    }
    EXPECT_LE(worst, kTolerance);
}

TEST(AngleTest, AxesDiagonalsAndTablePoints) {
    const double pi = std::numbers::pi;
    EXPECT_EQ(directionAngle(0, 1), 0.0);
    EXPECT_NEAR(directionAngle(1, 0), pi / 2, kTolerance);
    EXPECT_NEAR(directionAngle(0, -1), pi, kTolerance);
    EXPECT_NEAR(directionAngle(-1, 0), 3 * pi / 2, kTolerance);
    for (int quadrant = 0; quadrant < 4; ++quadrant) {
        const double x = quadrant == 0 || quadrant == 3 ? 1 : -1;
        const double y = quadrant < 2 ? 1 : -1;
        EXPECT_NEAR(directionAngle(y, x), pi / 4 + quadrant * pi / 2, kTolerance) << quadrant;
    }
    // Exactly on, and a hair either side of, the points k / 32 the reduction is built on.
    for (int k = 0; k <= 32; ++k) {
        for (double nudge : {0.0, 1e-17, -1e-17, 1.0 / 128, -1.0 / 128}) {
            const double t = std::clamp(k / 32.0 + nudge, 0.0, 1.0);
            for (auto [y, x] : {std::pair{t, 1.0}, {1.0, t}, {-t, -1.0}, {-1.0, t}}) {
                EXPECT_LE(circularError(directionAngle(y, x), reference(y, x)), kTolerance)
                    << y << " " << x;
            }
        }
    }
}

TEST(AngleTest, SpecialValues) {
    EXPECT_EQ(directionAngle(0, 0), 0.0);
    EXPECT_EQ(directionAngle(-0.0, 1), 0.0);
    // Just below the positive x axis: 2 pi - 1e-300 rounds to 2 pi, which is the angle 0.
    EXPECT_EQ(directionAngle(-1e-300, 1), 0.0);
    EXPECT_GT(directionAngle(-1e-10, 1), 6.28);
    EXPECT_TRUE(std::isnan(directionAngle(NAN, 1)));
    EXPECT_TRUE(std::isnan(directionAngle(1, NAN)));
    EXPECT_NEAR(directionAngle(INFINITY, 1), std::numbers::pi / 2, kTolerance);
    EXPECT_NEAR(directionAngle(-INFINITY, -INFINITY), 5 * std::numbers::pi / 4, kTolerance);
}

}  // namespace
}  // namespace poslab
