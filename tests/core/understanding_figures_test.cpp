// The understanding figures: each builder makes a figure with the parts it promises (heatmaps,
// curves, text), respects its box, and turns bad options into one-line errors.
#include "poslab/understanding_figures.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace poslab {
namespace {

struct Counts {
    int heatmaps = 0, polylines = 0, texts = 0;
    bool insideFigure = true;
};

Counts count(const Figure& figure) {
    Counts c;
    auto inside = [&](Point p) {
        if (p.x < -1 || p.y < -1 || p.x > figure.width + 1 || p.y > figure.height + 1)
            c.insideFigure = false;
    };
    for (const FigureItem& item : figure.items) {
        if (const auto* h = std::get_if<HeatmapItem>(&item)) {
            ++c.heatmaps;
            if (!h->values || h->values->empty()) ADD_FAILURE() << "empty heatmap";
        } else if (const auto* p = std::get_if<PolylineItem>(&item)) {
            ++c.polylines;
            for (Point q : p->points) {
                if (!std::isfinite(q.x) || !std::isfinite(q.y)) ADD_FAILURE() << "non-finite point";
            }
        } else if (const auto* t = std::get_if<TextItem>(&item)) {
            ++c.texts;
            inside(t->anchor);
        }
    }
    return c;
}

bool hasText(const Figure& figure, const std::string& part) {
    for (const FigureItem& item : figure.items) {
        if (const auto* t = std::get_if<TextItem>(&item);
            t && t->text.find(part) != std::string::npos)
            return true;
    }
    return false;
}

TEST(UnderstandingFiguresTest, SimilarityFigureHasHeatmapCurveAndTitle) {
    for (SimilarityEncoding encoding :
         {SimilarityEncoding::Sinusoidal, SimilarityEncoding::Learned, SimilarityEncoding::Rope}) {
        SimilarityParams params;
        params.encoding = encoding;
        params.seqLen = 300;
        params.learned.dModel = 16;
        auto figure = similarityFigure(params, {}, 1200, 800, paperTheme());
        ASSERT_TRUE(figure.ok()) << figure.error().message;
        const Counts c = count(*figure);
        EXPECT_GE(c.heatmaps, 2);  // the matrix and its colour bar
        EXPECT_GE(c.polylines, 1);
        EXPECT_TRUE(c.insideFigure);
        EXPECT_TRUE(hasText(*figure, similarityTitle(params)));
    }
}

TEST(UnderstandingFiguresTest, SimilarityHeatmapTexelsNeverExceedThePixels) {
    SimilarityParams params;
    params.seqLen = 65536;
    auto sample = similaritySample(params, {}, 500, 400);
    ASSERT_TRUE(sample.ok());
    EXPECT_LE(sample->values->rows, 500u);
    EXPECT_LE(sample->values->cols, 400u);
    // The diagonal texels average cells near offset 0, the brightest part of a cosine matrix.
    EXPECT_GT((*sample->values)(0, 0), (*sample->values)(0, sample->values->cols - 1));
}

TEST(UnderstandingFiguresTest, MeaningFiguresDrawEveryTerm) {
    MeaningParams params;
    params.seqLen = 20;
    params.dModel = 32;
    auto terms = meaningFigure(params, 1200, 800, darkTheme());
    ASSERT_TRUE(terms.ok());
    EXPECT_GE(count(*terms).heatmaps, 10);  // five heatmaps and five colour bars
    EXPECT_TRUE(hasText(*terms, "content·position"));
    auto add = addVersusConcatFigure(params, 1200, 800, darkTheme());
    ASSERT_TRUE(add.ok());
    EXPECT_TRUE(hasText(*add, "4·(2d)² = 16384"));  // 4 (2 * 32)^2
    auto ortho = nearOrthogonalityFigure(100, 2000, 1, 1000, 600, paperTheme());
    ASSERT_TRUE(ortho.ok());
    EXPECT_TRUE(hasText(*ortho, "±1/√d = ±0.1"));
    params.dModel = 1;
    EXPECT_EQ(meaningFigure(params, 800, 600, paperTheme()).error().message,
              "d_model must be 2..2048 (got 1)");
}

TEST(UnderstandingFiguresTest, IntuitionFigures) {
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
    EXPECT_TRUE(hasText(*shift, "T_k for k = 5"));
}

TEST(UnderstandingFiguresTest, ExtrapolationAndComparison) {
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

    auto compare = comparisonFigure({}, 1400, 900, paperTheme());
    ASSERT_TRUE(compare.ok()) << compare.error().message;
    EXPECT_GE(count(*compare).heatmaps, 10);
    RopeConfiguration a{"A: base 10000", {}}, b{"B: base 500000", {}};
    b.rope.base = 500000;
    auto ab = abComparisonFigure(a, b, 4096, 1200, 800, paperTheme());
    ASSERT_TRUE(ab.ok()) << ab.error().message;
    EXPECT_TRUE(hasText(*ab, "A: base 10000"));
}

TEST(UnderstandingFiguresTest, ParagraphsWrapInsideTheirBox) {
    Figure figure = emptyFigure(400, 300, paperTheme());
    const Box box{10, 10, 200, 100};
    const float used =
        drawParagraph(figure, box,
                      "one two three four five six seven eight nine ten eleven twelve "
                      "thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty",
                      paperTheme());
    int lines = 0;
    for (const FigureItem& item : figure.items) {
        const auto* t = std::get_if<TextItem>(&item);
        ASSERT_NE(t, nullptr);
        EXPECT_LE(estimateTextWidth(t->text, t->size), box.width + 1) << t->text;
        EXPECT_LE(t->anchor.y + t->size, box.bottom() + 1);
        ++lines;
    }
    EXPECT_GE(lines, 3);
    EXPECT_GT(used, 0);
    const Box cell = gridCell({0, 0, 100, 50}, 2, 3, 1, 2, 5);
    EXPECT_FLOAT_EQ(cell.x, 70);
    EXPECT_FLOAT_EQ(cell.y, 27);
    EXPECT_FLOAT_EQ(cell.width, 30);
}

}  // namespace
}  // namespace poslab
