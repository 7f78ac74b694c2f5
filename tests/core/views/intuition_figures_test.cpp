// The binary clock and linear shift figures: their parts, their errors, and a sparse T_k at the
// largest width.
#include "poslab/views/intuition_figures.hpp"

#include <gtest/gtest.h>

#include "figure_checks.hpp"

namespace poslab {
namespace {

TEST(IntuitionFiguresTest, BinaryClockAndLinearShift) {
    auto clock = binaryClockFigure({}, 1200, 800, paperTheme());
    ASSERT_TRUE(clock.ok());
    EXPECT_GE(count(*clock).polylines, 10);  // square wave and sinusoid per bit
    EXPECT_TRUE(hasText(*clock, "bit 3: period 16"));
    BinaryClockOptions bad;
    bad.bits = 0;
    EXPECT_EQ(binaryClockFigure(bad, 800, 600, paperTheme()).error().message,
              "bits must be 1..12 (got 0)");

    auto shift = linearShiftFigure({}, 1200, 800, paperTheme());
    ASSERT_TRUE(shift.ok());
    EXPECT_TRUE(hasText(*shift, "$T_k$ for $k$ = 5"));
}

TEST(IntuitionFiguresTest, LinearShiftAtItsLargestStaysSparseAndSaysWhatItChecked) {
    LinearShiftOptions options;
    options.sinusoidal.dModel = 8192;
    options.positions = 1 << 20;
    options.shownDims = 8192;
    auto figure = linearShiftFigure(options, 1200, 800, paperTheme());
    ASSERT_TRUE(figure.ok()) << figure.error().message;
    EXPECT_TRUE(hasText(*figure, "at 2048 evenly spaced p of 1048576"));
    for (const FigureItem& item : figure->items) {
        if (const auto* h = std::get_if<HeatmapItem>(&item)) {
            EXPECT_LE(h->values->rows, 800u);  // the corner of T_k, block means
            EXPECT_LE(h->values->cols, 1200u);
        }
        if (const auto* line = std::get_if<PolylineItem>(&item)) {
            EXPECT_LE(line->points.size(), 2u * 1200) << "more points than pixels";
        }
    }
}

TEST(IntuitionFiguresTest, SineOnlyShiftShowsBothResiduals) {
    LinearShiftOptions options;
    options.sinOnly = true;
    auto figure = linearShiftFigure(options, 1200, 800, paperTheme());
    ASSERT_TRUE(figure.ok()) << figure.error().message;
    EXPECT_TRUE(hasText(*figure, "best T on the sines alone (ridge least squares)"));
    EXPECT_TRUE(hasText(*figure, "sin + cos: $T_k$, a rotation"));
    EXPECT_TRUE(hasText(*figure, "sin only: least-squares T"));
    options.sinusoidal.dModel = 600;
    EXPECT_EQ(linearShiftFigure(options, 800, 600, paperTheme()).error().message,
              "d_model must be 1..512 (got 600)");
}

TEST(IntuitionFiguresTest, AttentionShuffleDrawsTheWordsTheMatricesAndTheVerdict) {
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

TEST(IntuitionFiguresTest, FrequencyResolutionNamesItsNumbers) {
    auto figure = frequencyResolutionFigure({}, 1200, 800, paperTheme());
    ASSERT_TRUE(figure.ok()) << figure.error().message;
    EXPECT_TRUE(hasText(*figure, "neighbours, D = 1"));
    EXPECT_TRUE(hasText(*figure, "far apart, D = 256"));
    EXPECT_GE(count(*figure).polylines, 4);
    EXPECT_EQ(frequencyResolutionFigure({63, 10000, 64, 0}, 800, 600, paperTheme()).error().message,
              "d_model must be even, 2..1024 (got 63)");
}

}  // namespace
}  // namespace poslab
