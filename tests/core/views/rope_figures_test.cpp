#include "poslab/views/rope_figures.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <numeric>
#include <string>
#include <vector>

#include "rope_figure_checks.hpp"

namespace poslab {
namespace {

using namespace rope_checks;

TEST(RopeFiguresTest, InvalidParametersDrawTheMessage) {
    RopeParams p = params(16);
    p.headDim = 3;
    Figure figure = emptyFigure(600, 400, darkTheme());
    drawRopeFrequencies(figure, {0, 0, 600, 400}, p, {}, darkTheme());
    EXPECT_TRUE(hasText(figure, "must be even"));
    EXPECT_EQ(firstDataHeatmap(figure), nullptr);

    RopeRotationOptions wrongSize;
    wrongSize.q = {1, 2};
    wrongSize.k = {1, 2};
    Figure rotation = emptyFigure(600, 400, darkTheme());
    drawRopeRotation(rotation, {0, 0, 600, 400}, params(16), wrongSize, darkTheme());
    EXPECT_TRUE(hasText(rotation, "q and k need 16 entries each (got 2 and 2)"));
}

TEST(RopeFiguresTest, TitlesNameTheSetup) {
    RopeParams p = params(100);
    p.rotaryFraction = 0.5;
    p.pairing = RopePairing::Interleaved;
    p.scaling.type = RopeScaling::Linear;
    p.scaling.factor = 4;
    EXPECT_EQ(ropeTitle(p), "head_dim 100 (50 rotated), base 10000, interleaved pairs, linear ×4");
    EXPECT_EQ(ropeScalingSummary(params(8)), "no scaling");
    RopeParams proportional = params(512);  // Gemma 4's full layers: p = 0.25, factor 1
    proportional.scaling.type = RopeScaling::Proportional;
    proportional.scaling.ropeProportion = 0.25;
    EXPECT_EQ(ropeScalingSummary(proportional), "p-RoPE 25% rotating");
    EXPECT_EQ(parseTurnReference("training").value(), RopeTurnReference::Training);
    EXPECT_FALSE(parseTurnReference("both").ok());
}

// YaRN's attention factor 0.1 ln s + 1 scales cos and sin, so every q.k carries its square:
// s = 4 gives (0.1 ln 4 + 1)^2 = 1.2968..., which the rotation legend and the score colour bar
// state; without scaling they say nothing about it.
TEST(RopeFiguresTest, ScoresNameTheAttentionFactorSquared) {
    RopeParams p = params(16, 64);
    p.scaling.type = RopeScaling::Yarn;
    p.scaling.factor = 4;
    p.scaling.originalMaxPositions = 32;
    const double gain = std::pow(0.1 * std::log(4.0) + 1.0, 2.0);
    char expected[64];
    std::snprintf(expected, sizeof expected, "attention factor² %.4g", gain);
    RopeScoreOptions scores;
    scores.q = seededGaussianVector(16, 1);
    scores.k = seededGaussianVector(16, 2);
    Figure figure = emptyFigure(900, 700, paperTheme());
    drawRopeScores(figure, {0, 0, 900, 700}, p, scores, paperTheme(), nullptr);
    EXPECT_TRUE(hasText(figure, expected)) << expected;
    RopeRotationOptions rotation;
    rotation.q = scores.q;
    rotation.k = scores.k;
    Figure rotated = emptyFigure(900, 700, paperTheme());
    drawRopeRotation(rotated, {0, 0, 900, 700}, p, rotation, paperTheme());
    EXPECT_TRUE(hasText(rotated, expected)) << expected;
    Figure plain = emptyFigure(900, 700, paperTheme());
    drawRopeScores(plain, {0, 0, 900, 700}, params(16, 64), scores, paperTheme(), nullptr);
    EXPECT_FALSE(hasText(plain, "attention factor"));
}

// What every RoPE figure checks first: rotatable vectors, and frequencies or the reason why not.
TEST(RopeFiguresTest, VectorsFitWhenEqualAndLongEnoughForEveryPair) {
    const RopeFrequencies freqs = ropeFrequencies(params(8)).value();  // 4 pairs
    ASSERT_EQ(freqs.inverse.size(), 4u);
    EXPECT_TRUE(ropeVectorsFit(std::vector<double>(8), std::vector<double>(8), freqs));
    EXPECT_TRUE(ropeVectorsFit(std::vector<double>(9), std::vector<double>(9), freqs));
    EXPECT_FALSE(ropeVectorsFit(std::vector<double>(7), std::vector<double>(7), freqs));
    EXPECT_FALSE(ropeVectorsFit(std::vector<double>(8), std::vector<double>(10), freqs));
}

TEST(RopeFiguresTest, FrequenciesOrNoteDrawsTheReasonThereAreNone) {
    Figure good = emptyFigure(600, 400, darkTheme());
    const auto freqs = ropeFrequenciesOrNote(good, {0, 0, 600, 400}, params(16), darkTheme());
    ASSERT_TRUE(freqs.has_value());
    ASSERT_EQ(freqs->inverse.size(), 8u);
    EXPECT_DOUBLE_EQ(freqs->inverse[1], theta(1, 16, 10000));
    EXPECT_TRUE(texts(good).empty());

    RopeParams odd = params(16);
    odd.headDim = 3;
    Figure bad = emptyFigure(600, 400, darkTheme());
    EXPECT_FALSE(ropeFrequenciesOrNote(bad, {0, 0, 600, 400}, odd, darkTheme()).has_value());
    EXPECT_TRUE(hasText(bad, "must be even"));
}

}  // namespace
}  // namespace poslab
