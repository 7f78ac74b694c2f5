// 2-D axial RoPE: scores depend on (dx, dy) only, match the formula written out for a 2x2 grid,
// and reduce to 1-D RoPE along x when the y pairs of q and k are zero.
#include "poslab/encodings/axial_rope.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "poslab/encodings/rope.hpp"

namespace poslab {
namespace {

TEST(AxialRopeTest, ScoreDependsOnlyOnOffset) {
    for (AxialRopeLayout layout : {AxialRopeLayout::RopeVit, AxialRopeLayout::Pixtral}) {
        AxialRopeParams params;
        params.layout = layout;
        params.vectors = AxialVectors::Random;
        params.seed = 7;
        auto pairs = axialRopePairs(params);
        ASSERT_TRUE(pairs);
        const auto q = axialQuery(params), k = axialKey(params);
        const double a = axialRopeScore(q, k, 2, 3, 5, 1, *pairs);
        EXPECT_NEAR(axialRopeScore(q, k, 9, 10, 12, 8, *pairs), a, 1e-9);
        EXPECT_NEAR(axialRopeScore(q, k, 0, 2, 3, 0, *pairs), a, 1e-9);
        EXPECT_GT(std::abs(a - axialRopeScore(q, k, 2, 3, 5, 2, *pairs)), 1e-6);
    }
}

TEST(AxialRopeTest, TwoByTwoGridMatchesTheFormula) {
    // RoPE-ViT, d = 8, base 100: theta = 100^(-4k/8) = 1, 0.1 on x and on y. With q = k = ones
    // each pair adds 2 cos(offset * theta); over |q||k| = 8.
    AxialRopeParams params;
    params.headDim = 8;
    params.base = 100;
    params.gridWidth = params.gridHeight = 2;
    params.queryX = params.queryY = 0;
    auto map = axialSimilarityMap(params);
    ASSERT_TRUE(map);
    const double one = 2 * std::cos(1.0) + 2 * std::cos(0.1);  // one axis moved by 1
    EXPECT_NEAR((*map)(0, 0), 1.0, 1e-12);
    EXPECT_NEAR((*map)(0, 1), (one + 4) / 8, 1e-12);
    EXPECT_NEAR((*map)(1, 0), (one + 4) / 8, 1e-12);
    EXPECT_NEAR((*map)(1, 1), 2 * one / 8, 1e-12);
    // Pixtral, d = 8, base 10000: freqs 1, 0.1, 0.01, 0.001; rows (y) take 1 and 0.01, columns
    // (x) take 0.1 and 0.001.
    params.layout = AxialRopeLayout::Pixtral;
    params.base = 10000;
    map = axialSimilarityMap(params);
    ASSERT_TRUE(map);
    const double x = 2 * std::cos(0.1) + 2 * std::cos(0.001);
    const double y = 2 * std::cos(1.0) + 2 * std::cos(0.01);
    EXPECT_NEAR((*map)(0, 1), (x + 4) / 8, 1e-12);
    EXPECT_NEAR((*map)(1, 0), (y + 4) / 8, 1e-12);
    EXPECT_NEAR((*map)(1, 1), (x + y) / 8, 1e-12);
}

TEST(AxialRopeTest, PixtralPairsAsHfBuildsThem) {
    AxialRopeParams params;
    params.layout = AxialRopeLayout::Pixtral;
    params.headDim = 64;
    params.base = 10000;
    auto pairs = axialRopePairs(params);
    ASSERT_TRUE(pairs);
    ASSERT_EQ(pairs->size(), 32u);
    // freqs_h = freqs[::2] first, freqs_w = freqs[1::2] after; freqs_j = 10000^(-2j/64).
    EXPECT_EQ((*pairs)[3].axis, PatchAxis::Y);
    EXPECT_NEAR((*pairs)[3].theta, std::pow(10000.0, -2.0 * 6 / 64), 1e-15);
    EXPECT_EQ((*pairs)[16 + 3].axis, PatchAxis::X);
    EXPECT_NEAR((*pairs)[16 + 3].theta, std::pow(10000.0, -2.0 * 7 / 64), 1e-15);
    EXPECT_EQ((*pairs)[3].first, 3);
    EXPECT_EQ((*pairs)[3].second, 35);
}

TEST(AxialRopeTest, RowEqualsOneDimensionalRopeWhenYPairsAreZero) {
    // RoPE-ViT's x pairs are dims 0..d/2-1, adjacent, theta_k = base^(-4k/d) = base^(-2k/(d/2)):
    // 1-D RoPE with head_dim d/2 and interleaved pairs.
    AxialRopeParams params;
    params.headDim = 32;
    params.base = 100;
    auto pairs = axialRopePairs(params);
    ASSERT_TRUE(pairs);
    auto q = seededGaussianVector(32, 3), k = seededGaussianVector(32, 4);
    for (int i = 16; i < 32; ++i) q[std::size_t(i)] = k[std::size_t(i)] = 0;
    RopeParams rope;
    rope.headDim = 16;
    rope.base = 100;
    auto freqs = ropeFrequencies(rope);
    ASSERT_TRUE(freqs);
    const std::vector<double> q16(q.begin(), q.begin() + 16), k16(k.begin(), k.begin() + 16);
    for (int x = 0; x < 16; ++x) {
        const double oneD = ropeScore(q16, k16, 5, x, *freqs, RopePairing::Interleaved);
        EXPECT_NEAR(axialRopeScore(q, k, 5, 2, x, 2, *pairs), oneD, 1e-9) << "x " << x;
        EXPECT_NEAR(axialRopeScore(q, k, 5, 2, x, 9, *pairs), oneD, 1e-9) << "x " << x;
    }
}

TEST(AxialRopeTest, MapEqualsRotatedQueryDotRotatedKeyAtEveryPatch) {
    // The map is computed per axis offset; here each patch's score is written out as the
    // definition: q rotated to the query patch, k rotated to the key patch, their dot product.
    for (const AxialRopeLayout layout : {AxialRopeLayout::RopeVit, AxialRopeLayout::Pixtral}) {
        AxialRopeParams params;
        params.layout = layout;
        params.headDim = 24;
        params.base = layout == AxialRopeLayout::Pixtral ? 10000 : 100;
        params.gridWidth = 7;
        params.gridHeight = 5;
        params.queryX = 4;
        params.queryY = 1;
        params.vectors = AxialVectors::Random;
        params.seed = 11;
        auto map = axialSimilarityMap(params);
        auto pairs = axialRopePairs(params);
        ASSERT_TRUE(map);
        ASSERT_TRUE(pairs);
        const std::vector<double> q = axialQuery(params), k = axialKey(params);
        double qq = 0, kk = 0;
        for (std::size_t i = 0; i < q.size(); ++i) qq += q[i] * q[i], kk += k[i] * k[i];
        auto rotated = [&](const std::vector<double>& v, int x, int y) {
            std::vector<double> out = v;
            for (const AxialPair& pair : *pairs) {
                const double angle = (pair.axis == PatchAxis::X ? x : y) * pair.theta;
                const double a = v[std::size_t(pair.first)], b = v[std::size_t(pair.second)];
                out[std::size_t(pair.first)] = a * std::cos(angle) - b * std::sin(angle);
                out[std::size_t(pair.second)] = a * std::sin(angle) + b * std::cos(angle);
            }
            return out;
        };
        const std::vector<double> rq = rotated(q, params.queryX, params.queryY);
        for (int y = 0; y < params.gridHeight; ++y) {
            for (int x = 0; x < params.gridWidth; ++x) {
                const std::vector<double> rk = rotated(k, x, y);
                double dot = 0;
                for (std::size_t i = 0; i < rq.size(); ++i) dot += rq[i] * rk[i];
                EXPECT_NEAR((*map)(std::size_t(y), std::size_t(x)),
                            dot / std::sqrt(qq) / std::sqrt(kk), 1e-12)
                    << axialRopeLayoutName(layout) << " patch (" << x << ", " << y << ")";
            }
        }
    }
}

TEST(AxialRopeTest, BadParamsGetOneLine) {
    AxialRopeParams params;
    params.headDim = 30;
    auto s = validate(params);
    ASSERT_FALSE(s);
    EXPECT_EQ(s.error().message, "head_dim must be a multiple of 4 for 2-D RoPE (got 30)");
    params.headDim = 64;
    params.queryX = 16;
    EXPECT_FALSE(validate(params));
}

}  // namespace
}  // namespace poslab
