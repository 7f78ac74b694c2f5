// The similarity figures: heatmap, curve and title, and bounded work at the largest settings.
#include "poslab/views/similarity_figures.hpp"

#include <gtest/gtest.h>

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

}  // namespace
}  // namespace poslab
