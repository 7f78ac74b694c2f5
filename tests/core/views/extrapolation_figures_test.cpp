// The extrapolation figure: every panel, its error for bad lengths, and the learned panel as the
// table's own values (block means at the largest setting, never the whole table).
#include "poslab/views/extrapolation_figures.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "figure_checks.hpp"
#include "poslab/encodings/learned.hpp"

namespace poslab {
namespace {

TEST(ExtrapolationFiguresTest, EveryPanelAndItsErrors) {
    auto extrapolation = extrapolationFigure({}, 1400, 900, paperTheme());
    ASSERT_TRUE(extrapolation.ok()) << extrapolation.error().message;
    for (const char* title :
         {"Sinusoidal", "Learned", "RoPE: slow pairs", "RoPE scalings", "ALiBi", "T5"}) {
        EXPECT_TRUE(hasText(*extrapolation, title)) << title;
    }
    ExtrapolationOptions bad;
    bad.evaluationLength = bad.trainingLength;
    EXPECT_EQ(extrapolationFigure(bad, 800, 600, paperTheme()).error().message,
              "evaluation_length must be 513..262144 (got 512)");
}

TEST(ExtrapolationFiguresTest, ExtrapolationLearnedPanelIsTheTableBlockMeans) {
    // Small enough for one texel per row: the rows of the table, then masked rows.
    ExtrapolationOptions o;
    o.trainingLength = 50;
    o.evaluationLength = 120;
    o.dModel = 32;
    auto figure = extrapolationFigure(o, 1400, 900, paperTheme());
    ASSERT_TRUE(figure.ok());
    LearnedParams p;
    p.seqLen = 50;
    p.dModel = 32;
    const Matrix table = learnedTable(p).value();
    const HeatmapItem* learned = nullptr;
    for (const FigureItem& item : figure->items) {
        const auto* h = std::get_if<HeatmapItem>(&item);
        if (h && h->range.low == -0.06 && h->values->cols == 32) learned = h;
    }
    ASSERT_NE(learned, nullptr);
    ASSERT_EQ(learned->values->rows, 120u);
    ASSERT_EQ(learned->values->cols, 32u);
    for (std::size_t r = 0; r < 120; ++r) {
        for (std::size_t c = 0; c < 32; ++c) {
            if (r < 50)
                EXPECT_EQ((*learned->values)(r, c), table(r, c));
            else
                EXPECT_EQ((*learned->values)(r, c), -INFINITY);
        }
    }
    // At the largest setting the table (65536 x 1024) is never held, only its block means.
    o.trainingLength = 65536;
    o.evaluationLength = 262144;
    o.dModel = 1024;
    auto large = extrapolationFigure(o, 1200, 800, paperTheme());
    ASSERT_TRUE(large.ok()) << large.error().message;
    for (const FigureItem& item : large->items) {
        if (const auto* h = std::get_if<HeatmapItem>(&item)) {
            EXPECT_LE(h->values->rows, 800u);
            EXPECT_LE(h->values->cols, 1200u);
        }
    }
}

// fairseq's slopes for 8 heads are 2^-1 .. 2^-8. At the training length 512 the bias -m * 512 is
// -256, -128, -64, -32, -16, -8, -4, -2: five heads at or below -10 (e^-10 of the weight), and the
// gentlest, m = 1/256, still only -2 there. "Familiar to every head" was false.
TEST(ExtrapolationFiguresTest, AlibiCaptionCountsTheHeadsThatForgetFarKeys) {
    std::vector<double> slopes;
    for (int h = 1; h <= 8; ++h) slopes.push_back(std::ldexp(1.0, -h));
    const std::string caption = alibiExtrapolationCaption(slopes, 512);
    EXPECT_NE(caption.find("5 of 8 heads"), std::string::npos) << caption;
    EXPECT_NE(caption.find("m = 0.00391"), std::string::npos) << caption;
    EXPECT_NE(caption.find("\u22122 at 512"), std::string::npos) << caption;  // U+2212 minus
    EXPECT_NE(caption.find("below \u221210"), std::string::npos) << caption;
    EXPECT_EQ(caption.find("every head"), std::string::npos) << caption;
    // Trained on 65536, even 1/256 reaches -256: every head.
    EXPECT_NE(alibiExtrapolationCaption(slopes, 65536).find("Every head"), std::string::npos);
    ExtrapolationOptions options;
    auto figure = extrapolationFigure(options, 1800, 1200, paperTheme());
    ASSERT_TRUE(figure.ok());
    std::string all;
    for (const FigureItem& item : figure->items)
        if (const auto* text = std::get_if<TextItem>(&item)) all += text->text + " ";
    EXPECT_EQ(all.find("familiar window to every head"), std::string::npos);
}

// The ALiBi panel's caption names the gentlest head (m = 0.00391 of 8 heads), so the plot draws
// it: four heads from the steepest to the gentlest (it drew heads 0, 2, 4 and 6 of 8, lesson 6.3).
TEST(ExtrapolationFiguresTest, AlibiPanelDrawsTheSteepestAndTheGentlestHead) {
    auto figure = extrapolationFigure(ExtrapolationOptions{}, 1800, 1200, paperTheme());
    ASSERT_TRUE(figure.ok());
    std::vector<std::string> keys;  // legend keys "head N, m = ..."
    for (const FigureItem& item : figure->items) {
        const auto* text = std::get_if<TextItem>(&item);
        if (text && text->text.rfind("head ", 0) == 0) keys.push_back(text->text);
    }
    EXPECT_EQ(keys, (std::vector<std::string>{"head 0, m = 0.5", "head 2, m = 0.125",
                                              "head 5, m = 0.0156", "head 7, m = 0.00391"}));
}

// Lesson 6.3 at 1024x768 in presentation mode: the ALiBi panel alone in the 1008 x 372 px the
// card leaves. Under the figure's title row and its own, over a paragraph box sized as a third of
// the cell, its plot was about 90 px tall; alone, the panel's title names the lengths, the
// figure's row goes to the plot and the paragraph takes the lines it needs.
TEST(ExtrapolationFiguresTest, OnePanelAtATimeOnAProjectorIsARealPlot) {
    ExtrapolationOptions options;  // lesson 6's state
    options.trainingLength = 512;
    options.evaluationLength = 4096;
    const Theme projector = scaledTheme(darkTheme(), 1.75f);
    const PanelGrid grid = extrapolationPanels(1008, 372, projector, 4);
    ASSERT_TRUE(grid.oneAtATime());
    auto figure = extrapolationFigure(options, 1008, 372, projector, 4);
    ASSERT_TRUE(figure.ok()) << figure.error().message;
    ASSERT_EQ(figure->panels.size(), 1u);
    const Box plot = figure->panels.front().plot;
    EXPECT_GE(plot.height, projector.fontSize * 5) << plot.height;  // five lines of its text
    EXPECT_TRUE(hasText(*figure, "ALiBi: keeps working past 512 (to 4096)"));
    EXPECT_FALSE(hasText(*figure, "what each encoding does"));
    // A grid of every panel keeps the figure's title and the panels' short ones.
    auto whole = extrapolationFigure(options, 1800, 1200, darkTheme());
    ASSERT_TRUE(whole.ok());
    EXPECT_TRUE(hasText(*whole, "what each encoding does"));
    EXPECT_FALSE(hasText(*whole, "past 512 (to 4096)"));
}

}  // namespace
}  // namespace poslab
