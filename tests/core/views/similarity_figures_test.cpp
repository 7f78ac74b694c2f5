// The similarity figures: heatmap, curve and title, and bounded work at the largest settings.
#include "poslab/views/similarity_figures.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <memory>

#include "cell_resolution_checks.hpp"
#include "figure_checks.hpp"

namespace poslab {
namespace {

TEST(SimilarityFiguresTest, SimilarityFigureHasHeatmapCurveAndTitle) {
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

TEST(SimilarityFiguresTest, OffsetAxisLabelIsNotSmallerThanItsTicksOnAProjector) {
    // At 1024x768 F5 the curve's plot is ~285 px wide: "offset j − i (key − query)" was shrunk to
    // about 0.8 of the axis's other text. The short "offset j − i" at full size there; the long
    // one where it fits (a wide figure).
    const Theme projector = scaledTheme(darkTheme(), 1.75f);
    auto narrow = similarityFigure(SimilarityParams{}, {}, 1008, 590, projector);
    ASSERT_TRUE(narrow.ok()) << narrow.error().message;
    float labelSize = 0;
    for (const FigureItem& item : narrow->items)
        if (const auto* text = std::get_if<TextItem>(&item))
            if (text->text.rfind("offset j − i", 0) == 0) labelSize = text->size;
    EXPECT_GE(labelSize, projector.fontSize * 0.99f);
    auto wide = similarityFigure(SimilarityParams{}, {}, 1400, 900, darkTheme());
    ASSERT_TRUE(wide.ok()) << wide.error().message;
    EXPECT_TRUE(hasText(*wide, "offset j − i (key − query)"));
}

TEST(SimilarityFiguresTest, LongProfilesAndLargeTablesAreSampledNotTabulated) {
    // RoPE at 2^20 positions and head_dim 8192: a grid curve through offset 0 and block means.
    SimilarityParams rope;
    rope.encoding = SimilarityEncoding::Rope;
    rope.seqLen = 1 << 20;
    rope.rope.headDim = 8192;
    rope.ropeVectors = RopeVectors::SameSample;
    auto figure = similarityFigure(rope, {}, 1200, 800, paperTheme());
    ASSERT_TRUE(figure.ok()) << figure.error().message;
    EXPECT_TRUE(hasText(*figure, "apart"));
    for (const FigureItem& item : figure->items) {
        if (const auto* line = std::get_if<PolylineItem>(&item)) {
            EXPECT_LE(line->points.size(), 2u * 1200);
        }
    }
    // Learned: L x d at most 2^25, the Gram matrix only below 2^31 multiply-adds.
    SimilarityParams learned;
    learned.encoding = SimilarityEncoding::Learned;
    learned.seqLen = 8192;
    learned.learned.dModel = 8192;
    EXPECT_EQ(similarityFigure(learned, {}, 1200, 800, paperTheme()).error().message,
              "seq_len x d_model must be at most 33554432 for a learned similarity figure (got "
              "8192 x 8192)");
    learned.seqLen = 4096;
    learned.learned.dModel = 1024;
    auto sketch = similarityFigure(learned, {}, 1200, 800, paperTheme());
    ASSERT_TRUE(sketch.ok()) << sketch.error().message;
    EXPECT_TRUE(hasText(*sketch, "no mean over all queries"));
}

TEST(SimilarityFiguresTest, ZeroRowsOfALearnedTableAreExplained) {
    // A trained table with padding rows (all zero): their cosines are undefined. The cells are
    // masked, so the figure must say what masked means and how many rows it is.
    auto table = std::make_shared<Matrix>(12, 4);
    for (std::size_t r = 0; r < 12; ++r) {
        for (std::size_t c = 0; c < 4; ++c) (*table)(r, c) = r % 4 == 3 ? 0.0 : double(r + c + 1);
    }
    SimilarityParams params;
    params.encoding = SimilarityEncoding::Learned;
    params.learnedTable = table;
    params.seqLen = 12;
    auto figure = similarityFigure(params, {}, 1200, 800, paperTheme());
    ASSERT_TRUE(figure.ok()) << figure.error().message;
    EXPECT_TRUE(hasText(*figure, "undefined")) << allText(*figure);
    EXPECT_TRUE(hasText(*figure, "cosine undefined for zero rows: 3 rows")) << allText(*figure);
    // The dot product of a zero row is 0, well defined: no note.
    params.metric = SimilarityMetric::Dot;
    figure = similarityFigure(params, {}, 1200, 800, paperTheme());
    ASSERT_TRUE(figure.ok());
    EXPECT_FALSE(hasText(*figure, "cosine undefined"));
}

class SimilarityNonFiniteAreaTest : public ::testing::TestWithParam<float> {};

TEST_P(SimilarityNonFiniteAreaTest, FigureEndsWithBoundedWork) {
    const float side = GetParam();
    for (SimilarityEncoding encoding :
         {SimilarityEncoding::Sinusoidal, SimilarityEncoding::Learned, SimilarityEncoding::Rope}) {
        SimilarityParams params;
        params.encoding = encoding;
        params.seqLen = 512;
        params.learned.dModel = 8;
        finishesPromptly([&] {
            auto figure = similarityFigure(params, {}, side, side, darkTheme());
            if (!figure.ok()) return;
            for (const FigureItem& item : figure->items) {
                if (const auto* h = std::get_if<HeatmapItem>(&item)) {
                    EXPECT_LE(h->values->rows, std::size_t(kMaxTexelsPerSide));
                    EXPECT_LE(h->values->cols, std::size_t(kMaxTexelsPerSide));
                }
            }
        });
    }
}

INSTANTIATE_TEST_SUITE_P(Sizes, SimilarityNonFiniteAreaTest,
                         ::testing::Values(INFINITY, NAN, 3e38f, 0.f, -5.f));

// The map as the GUI draws it in a figure area (similarityLayout): the side of its square, and
// the texts right of the plot (the colour bar's ticks and caption) in `barTexts`.
float mapSideIn(float width, float height, std::vector<TextItem>* barTexts = nullptr) {
    const Theme theme = darkTheme();
    const SimilarityLayout layout = similarityLayout(width, height, theme.fontSize);
    SimilarityParams params;
    params.seqLen = 512;
    auto offsets = offsetSimilarity(params);
    EXPECT_TRUE(offsets.ok());
    const HeatmapSample sample = offsetSimilaritySample(*offsets, {}, texelBudget(layout.mapHeight),
                                                        texelBudget(layout.mapWidth));
    Figure figure = emptyFigure(width, height, theme);
    PlotFrame frame;
    drawSimilarityHeatmap(figure, {0, 0, layout.mapWidth, layout.mapHeight}, params, sample, {},
                          theme, &frame);
    // The curve keeps 14 lines under a stacked map (room for its legend below it).
    if (layout.stacked) {
        EXPECT_GE(height - layout.mapHeight, 14 * theme.fontSize) << width;
    }
    if (barTexts) {
        for (const FigureItem& item : figure.items)
            if (const auto* text = std::get_if<TextItem>(&item);
                text && text->anchor.x > frame.plot.right())
                barTexts->push_back(*text);
    }
    return std::min(frame.plot.width, frame.plot.height);
}

// 1024x768 with the controls beside the figures leaves a 670 x 677 area: side by side, the map
// sat in a 375 px column, 203 px a side over 400 px of nothing. Over its curve, each as wide as
// the area, it is some 300 px a side (the largest square its box holds), and the curve keeps
// its 14 lines. Wider areas (1440x900's 1090 x 810) keep the two side by side, where the map is
// the larger.
TEST(SimilarityFiguresTest, GuiMapUsesATallNarrowArea) {
    const float tall = mapSideIn(670, 677);
    EXPECT_GE(tall, 0.4f * 670) << tall;
    EXPECT_TRUE(similarityLayout(670, 677, darkTheme().fontSize).stacked);
    EXPECT_FALSE(similarityLayout(1090, 810, darkTheme().fontSize).stacked);
    EXPECT_GE(mapSideIn(1090, 810), 0.4f * 810);
}

// At 1024x768 (no presentation mode) the caption "Cosine similarity (mean of 2 × 2 cells per
// pixel)" ran along a bar some 300 px long as one line shrunk to about 10.5 px, under the
// view's 14 px text: a caption wraps onto a second line before it shrinks.
TEST(SimilarityFiguresTest, ColourBarCaptionKeepsTheViewsTextSize) {
    const float fontSize = darkTheme().fontSize;
    for (auto [width, height] : {std::pair{670.f, 677.f}, std::pair{1090.f, 810.f}}) {
        std::vector<TextItem> barTexts;
        mapSideIn(width, height, &barTexts);
        int captions = 0;
        for (const TextItem& text : barTexts) {
            if (!text.vertical90) continue;
            ++captions;
            EXPECT_GE(text.size, fontSize * 0.999f) << width << ": " << text.text;
            EXPECT_EQ(text.text.find("…"), std::string::npos) << text.text;
        }
        EXPECT_GE(captions, 1) << width;
    }
}

// A vector file (Theme::cellResolution, #28) holds the similarity map cell for cell: 1024
// positions in a 600 x 400 figure are 1024 x 1024 cosines of the paper's vectors, written out
// here; the colour bar says "cosine similarity", not "(mean of 3 × 3 cells per pixel)". A
// loaded table's dot products likewise, each E(i) · E(j) of the rows given.
double paperSimilarityValue(int position, int column, int d) {
    const double angle = position / std::pow(10000.0, 2.0 * (column / 2) / d);
    return column % 2 == 0 ? std::sin(angle) : std::cos(angle);
}

TEST(SimilarityFiguresTest, VectorFileHoldsEveryCell) {
    const Theme theme = vectorFileTheme(paperTheme());
    SimilarityParams params;
    params.seqLen = 1024;
    params.sinusoidal.dModel = 64;
    auto figure = similarityFigure(params, {}, 600, 400, theme);
    ASSERT_TRUE(figure.ok()) << figure.error().message;
    auto maps = mapsOf(*figure);
    ASSERT_EQ(maps.size(), 1u);
    EXPECT_LT(maps[0]->box.height, 1024.0f);  // more cells than pixels
    ASSERT_EQ(maps[0]->values->rows, 1024u);
    ASSERT_EQ(maps[0]->values->cols, 1024u);
    expectNoSamplingNote(*figure);
    auto cosine = [](int i, int j) {
        double dot = 0, ii = 0, jj = 0;
        for (int c = 0; c < 64; ++c) {
            const double a = paperSimilarityValue(i, c, 64), b = paperSimilarityValue(j, c, 64);
            dot += a * b, ii += a * a, jj += b * b;
        }
        return dot / std::sqrt(ii * jj);
    };
    const int picked[][2] = {{0, 0}, {0, 1}, {5, 900}, {511, 512}, {1023, 3}, {1023, 1023}};
    for (const auto& [i, j] : picked)
        expectCell(*maps[0], std::size_t(i), std::size_t(j), cosine(i, j), 1e-9);

    auto table = std::make_shared<Matrix>(1024, 3);
    for (std::size_t r = 0; r < 1024; ++r)
        (*table)(r, 0) = std::sin(0.01 * double(r)), (*table)(r, 1) = double(r % 7) - 3,
                    (*table)(r, 2) = 0.5;
    SimilarityParams learned;
    learned.encoding = SimilarityEncoding::Learned;
    learned.metric = SimilarityMetric::Dot;
    learned.seqLen = 1024;
    learned.learnedTable = table;
    auto loaded = similarityFigure(learned, {}, 600, 400, theme);
    ASSERT_TRUE(loaded.ok()) << loaded.error().message;
    maps = mapsOf(*loaded);
    ASSERT_EQ(maps.size(), 1u);
    ASSERT_EQ(maps[0]->values->rows, 1024u);
    ASSERT_EQ(maps[0]->values->cols, 1024u);
    expectNoSamplingNote(*loaded);
    for (const auto& [i, j] : picked) {
        const double dot =
            std::sin(0.01 * i) * std::sin(0.01 * j) + double(i % 7 - 3) * double(j % 7 - 3) + 0.25;
        expectCell(*maps[0], std::size_t(i), std::size_t(j), dot, 1e-9);
    }
}

}  // namespace
}  // namespace poslab
