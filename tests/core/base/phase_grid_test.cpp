// forEachGridPhase: every grid point once, in order, with cos and sin equal to the directly
// evaluated cos(x_j w_k), sin(x_j w_k) within a few ulps of the angle.
#include "poslab/base/phase_grid.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

namespace poslab {
namespace {

struct Grid {
    double first, step;
    long long count;
};

class PhaseGridTest : public ::testing::TestWithParam<Grid> {};

TEST_P(PhaseGridTest, EqualsDirectCosAndSin) {
    const Grid g = GetParam();
    // RoPE's frequencies 10000^(-2k/64) and a few awkward ones.
    std::vector<double> frequencies;
    for (int k = 0; k < 32; ++k) frequencies.push_back(std::pow(10000.0, -2.0 * k / 64));
    frequencies.push_back(3.0);
    frequencies.push_back(1e-9);
    long long expectedJ = 0;
    double worst = 0;
    forEachGridPhase(frequencies, g.first, g.step, g.count,
                     [&](long long j, const double* c, const double* s) {
                         EXPECT_EQ(j, expectedJ++);
                         const double x = g.first + double(j) * g.step;
                         for (std::size_t k = 0; k < frequencies.size(); ++k) {
                             const double angle = x * frequencies[k];
                             worst = std::max(worst, std::abs(c[k] - std::cos(angle)));
                             worst = std::max(worst, std::abs(s[k] - std::sin(angle)));
                         }
                     });
    EXPECT_EQ(expectedJ, g.count);
    // The angle x w itself carries a rounding error of about |x w| * 2^-52; beyond that the
    // angle-addition step costs a few ulps.
    const double largestAngle = (std::abs(g.first) + std::abs(g.step) * double(g.count)) * 3.0;
    EXPECT_LE(worst, 1e-14 + 8 * largestAngle * 0x1p-52) << "largest angle " << largestAngle;
}

INSTANTIATE_TEST_SUITE_P(Grids, PhaseGridTest,
                         ::testing::Values(Grid{0, 1, 1}, Grid{0, 1, 31}, Grid{0, 1, 32},
                                           Grid{0, 1, 33}, Grid{-500, 1, 1001},
                                           Grid{0.5, 0.25, 100}, Grid{1e6, 7, 200}));

TEST(PhaseGridEdgeTest, NoPointsNoCallsAndNoFrequenciesStillVisitsEveryPoint) {
    int calls = 0;
    forEachGridPhase({1.0}, 0, 1, 0, [&](long long, const double*, const double*) { ++calls; });
    EXPECT_EQ(calls, 0);
    forEachGridPhase({}, 0, 1, 70, [&](long long, const double*, const double*) { ++calls; });
    EXPECT_EQ(calls, 70);
}

}  // namespace
}  // namespace poslab
