#include "poslab/views/rope_usage_figures.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "figure_checks.hpp"

namespace poslab {
namespace {

// A measured model without files: 3 layers, 4 heads, 2 KV heads, head_dim 16, base 10000,
// context 64. The squared norms of pair i's two query rows are 1 / (2 (1 + i)) each and of its
// key rows 0.5 each, so usage_i = sqrt(1 / (1 + i)) * 1: fast pairs used most.
// (headDim 64, context 4096: the shape --check-layout's checkpoint has, 32 pairs.)
RopeUsageData syntheticData(int context = 64, int headDim = 16) {
    CheckpointAttention attention;
    attention.config.modelType = "llama";
    attention.config.rope.headDim = headDim;
    attention.config.rope.trainingLength = context;
    attention.layers = 3;
    attention.heads = 4;
    attention.kvHeads = 2;
    attention.headDim = headDim;
    attention.checkpoint.source = "synthetic";
    QkRowSquares rows;
    rows.layers = 3, rows.heads = 4, rows.kvHeads = 2, rows.headDim = headDim;
    const int pairs = headDim / 2;
    for (int l = 0; l < 3; ++l) {
        for (int h = 0; h < 4; ++h) {
            for (int r = 0; r < headDim; ++r) rows.query.push_back(1.0 / (1 + r % pairs) / 2);
        }
        for (int g = 0; g < 2; ++g) {
            for (int r = 0; r < headDim; ++r) rows.key.push_back(0.5);
        }
    }
    auto data = ropeUsageData(attention, rows);
    EXPECT_TRUE(data.ok()) << data.error().message;
    return std::move(data).value();
}

TEST(RopeUsageFiguresTest, WavelengthsAndTheIncompleteBandFollowTheFrequencies) {
    const RopeUsageData data = syntheticData();
    ASSERT_EQ(data.wavelengths.size(), 8u);
    // theta_i = 10000^(-2i/16): lambda_i = 2 pi * 10000^(i/8).
    for (int i = 0; i < 8; ++i) {
        EXPECT_NEAR(data.wavelengths[i], 2 * M_PI * std::pow(10000.0, i / 8.0),
                    1e-9 * data.wavelengths[i]);
    }
    // lambda_1 = 2 pi * 10^0.5 = 19.9 < 64 < lambda_2 = 2 pi * 10 = 62.8? 62.8 < 64 too;
    // lambda_3 = 2 pi * 10^1.5 = 198.7 > 64: pairs 3..7 never complete a turn.
    EXPECT_EQ(firstIncompletePair(data), 3);
    EXPECT_EQ(keptPairs(data, 0.75), 6);
    EXPECT_EQ(keptPairs(data, 1.0), 8);
}

TEST(RopeUsageFiguresTest, DrawsFourPanelsAndSaysItIsWeightsOnly) {
    const RopeUsageData data = syntheticData();
    Figure figure = emptyFigure(1400, 900, paperTheme());
    drawRopeUsage(figure, {0, 0, 1400, 900}, data, {1, 0.75}, paperTheme());
    EXPECT_EQ(heatmapCount(figure), 4);  // two heatmaps, each with its colour bar
    EXPECT_TRUE(hasText(figure, "Weights-only measure"));
    EXPECT_TRUE(hasText(figure, "Layer 1: usage per head"));
    EXPECT_TRUE(hasText(figure, "λ > context 64"));
    EXPECT_TRUE(hasText(figure, "keeps the fastest 6 of 8 pairs"));
    EXPECT_TRUE(hasText(figure, "5 pairs (from pair 3) never complete a turn"));
    // Typeset as a paper would: "4 heads × 16", never the letter x between numbers.
    EXPECT_NE(allText(figure).find("llama: 3 layers, 4 heads × 16, 2 KV heads"), std::string::npos)
        << allText(figure);
    EXPECT_EQ(allText(figure).find(" heads x "), std::string::npos);
    EXPECT_TRUE(allCoordinatesFinite(figure));
    // The share p-RoPE keeps, from the planted profile usage_i = 1 / sqrt(1 + i) written out.
    double kept = 0, total = 0;
    for (int i = 0; i < 8; ++i) {
        total += 1.0 / std::sqrt(1.0 + i);
        if (i < 6) kept += 1.0 / std::sqrt(1.0 + i);
    }
    EXPECT_NEAR(data.meanPerPair[0], 1.0, 1e-12);
    EXPECT_NEAR(data.meanPerPair[3], 0.5, 1e-12);
    EXPECT_NEAR(keptUsageShare(data.meanPerPair, 0.75), kept / total, 1e-12);
}

TEST(RopeUsageFiguresTest, ValidatesLayerAndKeepFraction) {
    const RopeUsageData data = syntheticData();
    EXPECT_TRUE(validate(RopeUsageViewParams{2, 0.5}, data).ok());
    EXPECT_EQ(validate(RopeUsageViewParams{3, 0.5}, data).error().message,
              "--layer must be 0..2 (got 3)");
    EXPECT_FALSE(validate(RopeUsageViewParams{0, 0.0}, data).ok());
    EXPECT_FALSE(validate(RopeUsageViewParams{0, 1.5}, data).ok());
}

TEST(RopeUsageFiguresTest, OnePanelAtATimeWhenSmall) {
    const RopeUsageData data = syntheticData();
    const Theme theme = scaledTheme(darkTheme(), 1.75f);
    for (int panel = 0; panel < 4; ++panel) {
        Figure figure = emptyFigure(600, 400, theme);
        drawRopeUsage(figure, {0, 0, 600, 400}, data, {0, 0.5}, theme, panel);
        EXPECT_TRUE(count(figure).insideFigure) << panel;
    }
}

// The labels of the heatmaps' lines (the p-RoPE cut, the context's first incomplete pair, the
// wavelength decades) hide no cell, at the GUI's sizes: its figure at 1440x900, each panel alone
// at 1024x768 in presentation mode and at 480x320. Labels that found no room above the plot sat
// inside it ("λ > context 4096" and "p-RoPE 0.75" over the slow pairs, #28's check with a
// checkpoint loaded); the cut's and the context's labels keep their place first.
TEST(RopeUsageFiguresTest, LineLabelsHideNoCell) {
    for (const auto& [context, headDim] : {std::pair{64, 16}, std::pair{4096, 64}}) {
        const RopeUsageData data = syntheticData(context, headDim);
        const std::string contextLabel = "λ > context " + std::to_string(context);
        Figure whole = emptyFigure(1086, 732, darkTheme());
        drawRopeUsage(whole, {0, 0, 1086, 732}, data, {0, 0.75}, darkTheme());
        EXPECT_EQ(layoutFaults(whole), "") << headDim;
        EXPECT_TRUE(hasText(whole, contextLabel)) << headDim;
        EXPECT_TRUE(hasText(whole, "p-RoPE 0.75")) << headDim;
        const Theme projector = scaledTheme(darkTheme(), 1.75f);
        for (const auto& [width, height, theme] :
             {std::tuple{1008.0f, 348.0f, projector}, std::tuple{237.0f, 254.0f, darkTheme()}}) {
            for (int panel = 0; panel < 2; ++panel) {
                Figure figure = emptyFigure(width, height, theme);
                drawRopeUsage(figure, {0, 0, width, height}, data, {0, 0.75}, theme, panel);
                EXPECT_EQ(layoutFaults(figure), "") << headDim << " " << width << " " << panel;
            }
        }
    }
}

// The GUI's figure at 1024x768 (671 x 572, the 16-layer checkpoint's shape: 32 pairs, context
// 2048): "p-RoPE 0.75" took the room left of its line, across the context's line three pairs
// before it, and "λ > context 2048" was dropped from both maps (#28). Each map labels both lines
// now, and the labels hide no cell and touch no other text.
TEST(RopeUsageFiguresTest, BothMapsLabelTheContextAtTheLaptopSize) {
    const RopeUsageData data = syntheticData(2048, 64);
    // λ_21 = 2π·10000^(21/32) = 2650 > 2048 > 1987 = 2π·10000^(20/32) = λ_20.
    ASSERT_EQ(firstIncompletePair(data), 21);
    Figure figure = emptyFigure(671, 572, darkTheme());
    drawRopeUsage(figure, {0, 0, 671, 572}, data, {0, 0.75}, darkTheme());
    EXPECT_EQ(layoutFaults(figure), "");
    int context = 0, cut = 0;
    for (const std::string& text : texts(figure)) {
        context += text.rfind("λ > ", 0) == 0 && text.find("2048") != std::string::npos;
        cut += text == "p-RoPE 0.75";
    }
    EXPECT_EQ(context, 2) << allText(figure);
    EXPECT_EQ(cut, 2) << allText(figure);
}

// The notes panel at that size (about 320 x 250 px): the weights-only caution's last lines ran
// past the panel and were dropped without a mark ("… bounds how much each pair can"). The notes
// take the largest size down to the readable floor that shows them whole.
TEST(RopeUsageFiguresTest, NotesShowTheWholeCautionAtTheLaptopSize) {
    const RopeUsageData data = syntheticData(2048, 64);
    Figure figure = emptyFigure(671, 572, darkTheme());
    drawRopeUsage(figure, {0, 0, 671, 572}, data, {0, 0.75}, darkTheme());
    EXPECT_NE(allText(figure).find("does not see the activations a prompt produces."),
              std::string::npos)
        << allText(figure);
    EXPECT_EQ(textsCutShort(figure), std::vector<std::string>{});
    for (const TextItem* text : itemsOf<TextItem>(figure))
        EXPECT_GE(text->size, darkTheme().fontSize * 0.75f) << text->text;
}

}  // namespace
}  // namespace poslab
