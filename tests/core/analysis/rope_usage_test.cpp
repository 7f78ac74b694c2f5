#include "poslab/analysis/rope_usage.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace poslab {
namespace {

TEST(RopeUsageTest, PairRowsFollowThePairing) {
    // rotate_half pairs dimension j with j + d/2; rotate_every_two pairs 2i with 2i + 1.
    EXPECT_EQ(rotaryPairRows(0, 8, RopePairing::Half).second, 4);
    EXPECT_EQ(rotaryPairRows(3, 8, RopePairing::Half).first, 3);
    EXPECT_EQ(rotaryPairRows(3, 8, RopePairing::Interleaved).first, 6);
    EXPECT_EQ(rotaryPairRows(3, 8, RopePairing::Interleaved).second, 7);
}

TEST(RopeUsageTest, NormsAreTheFrobeniusNormsOfTheTwoRows) {
    // 1 layer, 2 query heads sharing 1 key head, head_dim 4 (2 pairs).
    const std::vector<double> q = {1, 4, 9, 16, /* head 1 */ 0, 1, 0, 3};
    const std::vector<double> k = {25, 0, 11, 2};
    auto usage = ropeUsage({1, 2, 1, 4, 4, RopePairing::Half, &q, &k});
    ASSERT_TRUE(usage.ok()) << usage.error().message;
    ASSERT_EQ(usage->pairs, 2);
    EXPECT_DOUBLE_EQ(usage->query[0], std::sqrt(1.0 + 9.0));  // rows 0 and 2
    EXPECT_DOUBLE_EQ(usage->query[1], std::sqrt(4.0 + 16.0));
    EXPECT_DOUBLE_EQ(usage->key[0], 6.0);
    EXPECT_DOUBLE_EQ(usage->key[1], std::sqrt(2.0));
    EXPECT_DOUBLE_EQ(usage->at(0, 1, 0), 0.0);
    EXPECT_DOUBLE_EQ(usage->at(0, 1, 1), 2.0 * std::sqrt(2.0));
    auto interleaved = ropeUsage({1, 2, 1, 4, 4, RopePairing::Interleaved, &q, &k});
    ASSERT_TRUE(interleaved.ok());
    EXPECT_DOUBLE_EQ(interleaved->query[0], std::sqrt(5.0));  // rows 0 and 1
    EXPECT_DOUBLE_EQ(interleaved->key[1], std::sqrt(13.0));
}

TEST(RopeUsageTest, GroupedQueryHeadsUseTheirKeyHead) {
    // 4 query heads, 2 key heads: heads 0,1 -> key 0; heads 2,3 -> key 1 (HF's repeat_kv).
    std::vector<double> q(4 * 2, 1.0), k = {1, 1, 4, 4};
    auto usage = ropeUsage({1, 4, 2, 2, 2, RopePairing::Half, &q, &k});
    ASSERT_TRUE(usage.ok());
    EXPECT_DOUBLE_EQ(usage->at(0, 1, 0), std::sqrt(2.0) * std::sqrt(2.0));
    EXPECT_DOUBLE_EQ(usage->at(0, 2, 0), std::sqrt(2.0) * std::sqrt(8.0));
}

TEST(RopeUsageTest, HfPermutationMapsInterleavedToHalfWithTheSameUsage) {
    // transformers' convert_llama_weights_to_hf: permute(w) = w.view(heads, d/2, 2, cols)
    // .transpose(1, 2).reshape(...): original row 2i + t of a head becomes row t * d/2 + i.
    const int heads = 2, d = 8;
    std::vector<double> meta(heads * d), hf(heads * d);
    for (int r = 0; r < heads * d; ++r) meta[r] = 1.0 + r * r;
    for (int h = 0; h < heads; ++h) {
        for (int i = 0; i < d / 2; ++i) {
            for (int t = 0; t < 2; ++t) hf[h * d + t * d / 2 + i] = meta[h * d + 2 * i + t];
        }
    }
    auto a = ropeUsage({1, heads, heads, d, d, RopePairing::Interleaved, &meta, &meta});
    auto b = ropeUsage({1, heads, heads, d, d, RopePairing::Half, &hf, &hf});
    ASSERT_TRUE(a.ok() && b.ok());
    EXPECT_EQ(a->usage, b->usage);
}

TEST(RopeUsageTest, PartialRotaryLeavesNoPeRowsOut) {
    std::vector<double> q = {1, 1, 1, 1, 100, 100}, k = {1, 1, 1, 1, 100, 100};
    auto usage = ropeUsage({1, 1, 1, 6, 4, RopePairing::Half, &q, &k});
    ASSERT_TRUE(usage.ok());
    EXPECT_EQ(usage->pairs, 2);
    EXPECT_DOUBLE_EQ(usage->at(0, 0, 1), 2.0);
}

TEST(RopeUsageTest, SummariesAverageAsStated) {
    std::vector<double> q = {1, 0, 1, 0, /* head 1 */ 4, 0, 4, 0, /* layer 1 */ 1, 1, 1, 1,
                             1, 1, 1, 1};
    std::vector<double> k = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1};
    auto usage = ropeUsage({2, 2, 2, 4, 4, RopePairing::Interleaved, &q, &k});
    ASSERT_TRUE(usage.ok());
    const Matrix byLayer = usageByLayer(*usage);
    EXPECT_DOUBLE_EQ(byLayer(0, 0), (1.0 + 2.0) / 2 * std::sqrt(2.0));
    auto layer1 = usageOfLayer(*usage, 1);
    ASSERT_TRUE(layer1.ok());
    EXPECT_DOUBLE_EQ((*layer1)(1, 1), 2.0);
    EXPECT_FALSE(usageOfLayer(*usage, 2).ok());
    EXPECT_EQ(usageOfLayer(*usage, 2).error().message, "layer must be 0..1 (got 2)");
    const std::vector<double> mean = meanUsagePerPair(*usage);
    EXPECT_DOUBLE_EQ(mean[0], (std::sqrt(2.0) + 2 * std::sqrt(2.0) + 2.0 + 2.0) / 4);
    EXPECT_DOUBLE_EQ(keptUsageShare({3, 1}, 0.5), 0.75);
    EXPECT_DOUBLE_EQ(keptUsageShare({3, 1}, 0.49), 0.0);
}

TEST(RopeUsageTest, RefusesInconsistentShapes) {
    std::vector<double> q(8, 1.0), k(8, 1.0);
    EXPECT_FALSE(ropeUsage({1, 3, 2, 4, 4, RopePairing::Half, &q, &k}).ok());
    EXPECT_FALSE(ropeUsage({1, 2, 2, 4, 3, RopePairing::Half, &q, &k}).ok());
    EXPECT_FALSE(ropeUsage({1, 2, 2, 4, 6, RopePairing::Half, &q, &k}).ok());
    EXPECT_FALSE(ropeUsage({1, 2, 1, 4, 4, RopePairing::Half, &q, &k}).ok());  // k too long
    EXPECT_TRUE(ropeUsage({1, 2, 2, 4, 4, RopePairing::Half, &q, &k}).ok());
}

}  // namespace
}  // namespace poslab
