#include "poslab/views/attention_shuffle_figures.hpp"

#include <gtest/gtest.h>

#include "figure_checks.hpp"

namespace poslab {
namespace {

TEST(AttentionShuffleFiguresTest, AttentionShuffleDrawsTheWordsTheMatricesAndTheVerdict) {
    ToyAttentionParams params;
    auto figure = attentionShuffleFigure(params, 1200, 800, paperTheme());
    ASSERT_TRUE(figure.ok()) << figure.error().message;
    const Counts c = count(*figure);
    EXPECT_GE(c.heatmaps, 4);  // two attention matrices and two outputs (plus colour bars)
    EXPECT_TRUE(hasText(*figure, "chased"));
    EXPECT_TRUE(hasText(*figure, "attention, shuffled"));
    EXPECT_NE(allText(*figure).find("bag of words"), std::string::npos);
    int lines = 0;
    for (const FigureItem& item : figure->items) lines += std::holds_alternative<LineItem>(item);
    EXPECT_GE(lines, 5);  // one per word from the sentence to its new place
    params.position = ToyPosition::Sinusoidal;
    auto moved = attentionShuffleFigure(params, 1200, 800, paperTheme());
    ASSERT_TRUE(moved.ok());
    EXPECT_NE(allText(*moved).find("order reaches the model"), std::string::npos);
    params.shuffled = "the dog";
    EXPECT_EQ(attentionShuffleFigure(params, 800, 600, paperTheme()).error().message,
              "shuffled must have the sentence's 5 words (got 2)");
}

}  // namespace
}  // namespace poslab
