// Many frequencies against one: distances between table rows measured directly on the rows,
// the one-frequency table's period, and what its collisions and the per-pair distances say.
#include "poslab/analysis/frequency_resolution.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <vector>

namespace poslab {
namespace {

double rowDistance(const std::vector<double>& a, const std::vector<double>& b) {
    double sum = 0;
    for (std::size_t c = 0; c < a.size(); ++c) sum += (a[c] - b[c]) * (a[c] - b[c]);
    return std::sqrt(sum);
}

std::vector<double> standardRow(const FrequencyResolutionParams& params, double p) {
    std::vector<double> row(std::size_t(params.dModel));
    sinusoidalRow(standardTable(params), p, row.data());
    return row;
}

TEST(FrequencyResolutionTest, DistancesAreThoseBetweenTheRowsAtAnyPosition) {
    const FrequencyResolutionParams params{16, 100, 200, 3};
    auto r = frequencyResolution(params);
    ASSERT_TRUE(r.ok()) << r.error().message;
    for (int offset : {0, 1, 7, 50, 199}) {
        for (double p : {0.0, 17.0, 300.0}) {
            EXPECT_NEAR(r->standardDistance[std::size_t(offset)],
                        rowDistance(standardRow(params, p + offset), standardRow(params, p)),
                        1e-12);
            EXPECT_NEAR(
                r->sharedDistance[std::size_t(offset)],
                rowDistance(sharedFrequencyRow(params, p + offset), sharedFrequencyRow(params, p)),
                1e-12);
        }
    }
}

TEST(FrequencyResolutionTest, MinimaAreTheClosestPairsFoundByBruteForce) {
    const FrequencyResolutionParams params{8, 10000, 150, 0};
    auto r = frequencyResolution(params);
    ASSERT_TRUE(r.ok());
    double standard = INFINITY, shared = INFINITY;
    long long sharedCloser = 0;
    for (int p = 0; p < 150; ++p) {
        for (int q = p + 1; q < 150; ++q) {
            standard =
                std::min(standard, rowDistance(standardRow(params, p), standardRow(params, q)));
        }
    }
    for (int p = 0; p < 150; ++p) {
        for (int q = p + 1; q < 150; ++q) {
            const double d =
                rowDistance(sharedFrequencyRow(params, p), sharedFrequencyRow(params, q));
            shared = std::min(shared, d);
            if (d < standard) ++sharedCloser;
        }
    }
    EXPECT_NEAR(r->standardMinimum, standard, 1e-12);
    EXPECT_NEAR(r->sharedMinimum, shared, 1e-12);
    EXPECT_EQ(r->collidingPairs, sharedCloser);
    EXPECT_GT(sharedCloser, 0);
}

TEST(FrequencyResolutionTest, OneFrequencyTableRepeatsEveryWavelength) {
    const FrequencyResolutionParams params{64, 10000, 512, 5};
    const double w = sharedFrequency(params);
    EXPECT_NEAR(w, std::pow(10000.0, -10.0 / 64), 1e-15);
    const double period = 2 * std::numbers::pi / w;
    for (double p : {0.0, 3.0, 41.5}) {
        EXPECT_LT(
            rowDistance(sharedFrequencyRow(params, p + period), sharedFrequencyRow(params, p)),
            1e-12);
        EXPECT_LT(
            rowDistance(sharedFrequencyRow(params, p + 3 * period), sharedFrequencyRow(params, p)),
            1e-11);
    }
    // The fastest pair (w = 1) alone: 53 turns take 333.009 positions, so positions 333 apart
    // nearly coincide, while neighbours stay 2 sin(1/2) sqrt(32) apart.
    auto fast = frequencyResolution({64, 10000, 512, 0});
    ASSERT_TRUE(fast.ok());
    EXPECT_NEAR(fast->sharedDistance[333], std::sqrt(32.0) * std::abs(2 * std::sin(333 / 2.0)),
                1e-12);
    EXPECT_LT(fast->sharedMinimum, 0.06);
    EXPECT_GT(fast->collidingOffsets, 10);
    EXPECT_NEAR(fast->sharedDistance[1], std::sqrt(32.0) * 2 * std::sin(0.5), 1e-12);
}

TEST(FrequencyResolutionTest, StandardTableKeepsTenThousandPositionsApart) {
    auto r = frequencyResolution({64, 10000, 10000, 0});
    ASSERT_TRUE(r.ok());
    EXPECT_GT(r->standardMinimum, 1.0);  // the closest positions are neighbours: 1.47
    EXPECT_EQ(r->standardMinimumOffset, 1);
    // The slowest pair shared by all: neighbours nearly coincide, every offset "collides".
    auto slow = frequencyResolution({64, 10000, 512, 31});
    ASSERT_TRUE(slow.ok());
    EXPECT_EQ(slow->collidingOffsets, 511);
    EXPECT_EQ(slow->collidingPairs, 511LL * 512 / 2);
}

TEST(FrequencyResolutionTest, FastPairsTellNeighboursApartSlowPairsFarPositions) {
    auto r = frequencyResolution({16, 10000, 1000, 0});
    ASSERT_TRUE(r.ok());
    ASSERT_EQ(r->neighbourByPair.size(), 8u);
    EXPECT_EQ(r->farOffset, 500);
    EXPECT_NEAR(r->neighbourByPair[0], 2 * std::sin(0.5), 1e-15);
    for (std::size_t i = 1; i < 8; ++i) EXPECT_LT(r->neighbourByPair[i], r->neighbourByPair[i - 1]);
    // The slowest pair, w = 10000^(-14/16): 0.0003 between neighbours, 0.16 over 500 positions.
    const double w = std::pow(10000.0, -14.0 / 16);
    EXPECT_NEAR(r->neighbourByPair[7], 2 * std::sin(w / 2), 1e-15);
    EXPECT_NEAR(r->farByPair[7], 2 * std::sin(w * 250), 1e-15);
    EXPECT_GT(r->farByPair[7], 100 * r->neighbourByPair[7]);
}

// The shared-pair slider reuses the standard distances of an earlier result of the same table:
// the numbers equal the rows' own distances, and a different table is never reused.
TEST(FrequencyResolutionTest, ReusedStandardDistancesAreTheRowsDistances) {
    const FrequencyResolutionParams first{16, 100, 200, 3};
    auto before = frequencyResolution(first);
    ASSERT_TRUE(before.ok());
    FrequencyResolutionParams moved = first;
    moved.sharedPair = 6;
    auto r = frequencyResolution(moved, &*before);
    ASSERT_TRUE(r.ok());
    for (int offset : {1, 7, 50, 199}) {
        EXPECT_NEAR(r->standardDistance[std::size_t(offset)],
                    rowDistance(standardRow(moved, 9.0 + offset), standardRow(moved, 9.0)), 1e-12);
        EXPECT_NEAR(
            r->sharedDistance[std::size_t(offset)],
            rowDistance(sharedFrequencyRow(moved, 9.0 + offset), sharedFrequencyRow(moved, 9.0)),
            1e-12);
    }
    FrequencyResolutionParams otherBase = moved;
    otherBase.base = 10000;  // another table: its own distances, not the earlier ones
    auto other = frequencyResolution(otherBase, &*before);
    ASSERT_TRUE(other.ok());
    EXPECT_NEAR(other->standardDistance[7],
                rowDistance(standardRow(otherBase, 7.0), standardRow(otherBase, 0.0)), 1e-12);
    FrequencyResolutionParams longer = moved;
    longer.positions = 300;  // more offsets than the earlier result has
    auto extended = frequencyResolution(longer, &*before);
    ASSERT_TRUE(extended.ok());
    EXPECT_NEAR(extended->standardDistance[250],
                rowDistance(standardRow(longer, 250.0), standardRow(longer, 0.0)), 1e-12);
}

// At N's top the shared distances are built from sines of sums (a block's start plus
// the step within it); they are still the distances between the one-frequency table's rows,
// across block edges and at the largest offsets (angles to 32,768 rad: the reference's own
// rounding of the angle is ~1e-11, hence the tolerance).
TEST(FrequencyResolutionTest, SharedDistancesAtTheTopAreTheRowsDistances) {
    for (int pair : {0, 11, 31}) {  // d 64: the standard table's O(N d) part stays quick
        const FrequencyResolutionParams params{64, 10000, kMaxResolutionPositions, pair};
        auto r = frequencyResolution(params);
        ASSERT_TRUE(r.ok()) << r.error().message;
        for (int offset : {1, 255, 256, 257, 4095, 40000, 65535}) {
            EXPECT_NEAR(r->sharedDistance[std::size_t(offset)],
                        rowDistance(sharedFrequencyRow(params, 3.0 + offset),
                                    sharedFrequencyRow(params, 3.0)),
                        1e-8)
                << "pair " << pair << ", D = " << offset;
        }
    }
}

TEST(FrequencyResolutionTest, ValidateNamesTheOptionAndItsRange) {
    EXPECT_EQ(validate(FrequencyResolutionParams{15, 10000, 64, 0}).error().message,
              "d_model must be even, 2..1024 (got 15)");
    EXPECT_EQ(validate(FrequencyResolutionParams{64, 10000, 1, 0}).error().message,
              "positions must be 2..65536 (got 1)");
    EXPECT_EQ(validate(FrequencyResolutionParams{64, 10000, 64, 32}).error().message,
              "shared_pair must be 0..31 (got 32)");
    EXPECT_FALSE(validate(FrequencyResolutionParams{64, 1, 64, 0}).ok());
    auto table = sharedFrequencyTable({4, 100, 3, 1});
    ASSERT_TRUE(table.ok());
    EXPECT_NEAR((*table)(2, 0), std::sin(2 * 0.1), 1e-15);  // pair 1 of d = 4, base 100: w = 0.1
    EXPECT_NEAR((*table)(2, 3), std::cos(2 * 0.1), 1e-15);
}

}  // namespace
}  // namespace poslab
