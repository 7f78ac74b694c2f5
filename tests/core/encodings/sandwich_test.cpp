#include "poslab/encodings/sandwich.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace poslab {
namespace {

SandwichParams sandwich(int d, int heads, int head) {
    SandwichParams p;
    p.headDim = d;
    p.heads = heads;
    p.head = head;
    return p;
}

TEST(SandwichTest, MatchesNemo) {
    // NeMo's SandwichRelativePositionEmbedding: (sum cos(r / 10000^(2 i / d)) for i = 1..d/2
    // - d/2) / (h * 8 / H), h = 1..H; printed by Python from those lines. Tolerance 1e-12.
    EXPECT_NEAR(sandwichBias(sandwich(8, 8, 0), 3), -0.04511802212203131, 1e-12);
    EXPECT_NEAR(sandwichBias(sandwich(128, 8, 0), 100), -33.31891417038038, 1e-12);
    EXPECT_NEAR(sandwichBias(sandwich(128, 8, 7), 100), -4.164864271297548, 1e-12);
    EXPECT_NEAR(sandwichBias(sandwich(64, 12, 4), 1000), -6.7924224483282645, 1e-12);
}

TEST(SandwichTest, IndexStartsAtOne) {
    // d = 2: one frequency, 10000^(-2/2) = 1e-4 (index 0 would give 1).
    const auto w = sandwichFrequencies(2);
    ASSERT_EQ(w.size(), 1u);
    EXPECT_DOUBLE_EQ(w[0], 1e-4);
    EXPECT_NEAR(sandwichKernel(2, 1000), std::cos(0.1) - 1, 1e-15);
}

TEST(SandwichTest, PhaseGridAgreesWithDirectSum) {
    const SandwichParams p = sandwich(128, 8, 2);
    const auto curve = sandwichBiasByDistance(p, 3000);
    EXPECT_EQ(curve[0], 0.0);
    for (int r : {1, 17, 999, 2999}) EXPECT_NEAR(curve[std::size_t(r)], sandwichBias(p, r), 1e-9);
    for (double b : curve) EXPECT_LE(b, 1e-12);  // the kernel is never positive
}

TEST(SandwichTest, MatrixAndValidation) {
    auto m = sandwichBiasMatrix(sandwich(16, 4, 1), 10);
    ASSERT_TRUE(m.ok());
    EXPECT_TRUE(std::isinf((*m)(0, 1)));
    EXPECT_NEAR((*m)(9, 2), sandwichBias(sandwich(16, 4, 1), 7), 1e-12);
    EXPECT_EQ(validate(sandwich(16, 4, 4)).error().message.rfind("head must be", 0), 0u);
    EXPECT_EQ(validate(sandwich(15, 4, 0)).error().message, "head_dim must be even (got 15)");
}

}  // namespace
}  // namespace poslab
