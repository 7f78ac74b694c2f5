// The understanding figures: each builder makes a figure with the parts it promises (heatmaps,
// curves, text), respects its box, and turns bad options into one-line errors.
#include "poslab/views/understanding_figures.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "poslab/analysis/intuition.hpp"
#include "poslab/encodings/learned.hpp"

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

// ---- Bounded work at the largest settings: estimates against the full computation

// Every text of a figure joined by spaces (paragraphs wrap a sentence over several items).
std::string allText(const Figure& figure) {
    std::string out;
    for (const FigureItem& item : figure.items) {
        if (const auto* t = std::get_if<TextItem>(&item)) out += t->text + " ";
    }
    return out;
}

TEST(UnderstandingFiguresTest, NearOrthogonalityDrawsAPrefixOfTheSeededStream) {
    // At most 2^24 random components: d = 8192 draws 2048 of a million vectors, d = 64 all 20000.
    EXPECT_EQ(nearOrthogonalitySamples(8192, 1000000), 2048);
    EXPECT_EQ(nearOrthogonalitySamples(64, 20000), 20000);
    EXPECT_EQ(nearOrthogonalitySamples(64, 1000000), 262144);
    EXPECT_LE(8192LL * nearOrthogonalitySamples(8192, 1000000), kOrthogonalityComponents);
    // The same cosines as randomPositionCosines, value for value (the first draws of the stream).
    const auto fast = nearOrthogonalityCosines(48, 500, 3);
    const auto full = randomPositionCosines(48, 10000, 500, 4096, 3);
    ASSERT_TRUE(fast.ok() && full.ok());
    ASSERT_EQ(fast->size(), full->size());
    for (std::size_t i = 0; i < fast->size(); ++i) EXPECT_EQ((*fast)[i], (*full)[i]) << i;
    // The subsample's spread is the law's: std 1/sqrt(d) within 10% (its own error is ~1.6%).
    const auto wide = nearOrthogonalityCosines(8192, 1000000, 1);
    ASSERT_TRUE(wide.ok());
    ASSERT_EQ(wide->size(), 2048u);
    double sum2 = 0;
    for (double c : *wide) sum2 += c * c;
    EXPECT_NEAR(std::sqrt(sum2 / 2048), 1 / std::sqrt(8192.0), 0.1 / std::sqrt(8192.0));
    // The figure says how many of the requested draws it shows.
    auto figure = nearOrthogonalityFigure(8192, 1000000, 1, 1200, 800, paperTheme());
    ASSERT_TRUE(figure.ok());
    EXPECT_TRUE(hasText(*figure, "first 2048 of 1000000 seeded draws"));
    auto all = nearOrthogonalityFigure(64, 5000, 1, 1200, 800, paperTheme());
    ASSERT_TRUE(all.ok());
    EXPECT_FALSE(hasText(*all, "seeded draws"));
    EXPECT_TRUE(hasText(*all, "5000 random vectors"));
}

TEST(UnderstandingFiguresTest, SampledShiftCheckIsTheFullCheckAtEvenlySpacedPositions) {
    for (SinusoidalLayout layout : {SinusoidalLayout::Interleaved, SinusoidalLayout::Concat,
                                    SinusoidalLayout::Tensor2Tensor}) {
        for (int d : {16, 15}) {
            const SinusoidalParams params{d, 16, 100, layout};
            const ShiftCheck full = checkShift(params, 3.5, 5000).value();
            const auto sampled = sampledShiftCheck(params, 3.5, 5000, 64);
            ASSERT_TRUE(sampled.ok());
            ASSERT_EQ(sampled->positions.size(), 64u);
            EXPECT_EQ(sampled->positions.front(), 0);
            EXPECT_EQ(sampled->positions.back(), 4999);
            EXPECT_FALSE(sampled->everyPosition());
            double largest = 0;
            for (std::size_t s = 0; s < sampled->positions.size(); ++s) {
                const int p = sampled->positions[s];
                if (s > 0) {
                    EXPECT_NEAR(p - sampled->positions[s - 1], 4999.0 / 63, 1);
                }
                EXPECT_EQ(sampled->residual[s], full.residual[std::size_t(p)]) << p;
                largest = std::max(largest, full.residual[std::size_t(p)]);
            }
            EXPECT_EQ(sampled->maxResidual, largest);
            EXPECT_LE(sampled->maxResidual, full.maxResidual);
            // Fewer positions than samples: every one, and the same answer.
            const auto every = sampledShiftCheck(params, 3.5, 50, 64);
            ASSERT_TRUE(every.ok());
            EXPECT_TRUE(every->everyPosition());
            const ShiftCheck small = checkShift(params, 3.5, 50).value();
            EXPECT_EQ(every->maxResidual, small.maxResidual);
            EXPECT_EQ(every->worstPosition, small.worstPosition);
            EXPECT_EQ(every->worstColumn, small.worstColumn);
        }
    }
    EXPECT_EQ(
        sampledShiftCheck({16, 16, 10000, SinusoidalLayout::Interleaved}, 1, 0).error().message,
        "positions must be 1..1048576 (got 0)");
}

TEST(UnderstandingFiguresTest, LinearShiftAtItsLargestStaysSparseAndSaysWhatItChecked) {
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

// The mean of each b x b block of an L x L matrix, written out.
Matrix blockMeans(const Matrix& m, std::size_t b) {
    Matrix out((m.rows + b - 1) / b, (m.cols + b - 1) / b);
    for (std::size_t u = 0; u < out.rows; ++u) {
        for (std::size_t v = 0; v < out.cols; ++v) {
            double sum = 0;
            int cells = 0;
            for (std::size_t i = u * b; i < std::min(m.rows, (u + 1) * b); ++i) {
                for (std::size_t j = v * b; j < std::min(m.cols, (v + 1) * b); ++j)
                    sum += m(i, j), ++cells;
            }
            out(u, v) = sum / cells;
        }
    }
    return out;
}

double rmsOverRows(const Matrix& m, const std::vector<int>& rows) {
    double sum = 0;
    for (int i : rows) {
        for (std::size_t j = 0; j < m.cols; ++j) sum += m(std::size_t(i), j) * m(std::size_t(i), j);
    }
    return std::sqrt(sum / double(rows.size() * m.cols));
}

TEST(UnderstandingFiguresTest, LogitTermMapsAreTheBlockMeansOfTheFullTerms) {
    MeaningParams params;
    params.seqLen = 40;
    params.dModel = 16;
    params.vocabulary = 7;
    const LogitTerms full = decomposeLogits(params).value();
    const auto maps = logitTermMaps(params, 13);  // 4 x 4 cells a texel: 10 x 10
    ASSERT_TRUE(maps.ok());
    EXPECT_EQ(maps->cellsPerTexel, 4);
    EXPECT_EQ(maps->rmsRows, 40);  // all rows: exact
    const Matrix* fullTerms[5] = {&full.contentContent, &full.contentPosition,
                                  &full.positionContent, &full.positionPosition, &full.total};
    const Matrix* mapTerms[5] = {&maps->means.contentContent, &maps->means.contentPosition,
                                 &maps->means.positionContent, &maps->means.positionPosition,
                                 &maps->means.total};
    std::vector<int> every(40);
    for (int i = 0; i < 40; ++i) every[std::size_t(i)] = i;
    for (int t = 0; t < 5; ++t) {
        const Matrix expected = blockMeans(*fullTerms[t], 4);
        ASSERT_EQ(mapTerms[t]->rows, 10u);
        for (std::size_t i = 0; i < expected.values.size(); ++i)
            EXPECT_NEAR(mapTerms[t]->values[i], expected.values[i], 1e-12) << t;
        EXPECT_NEAR(maps->rms[t], rmsOverRows(*fullTerms[t], every), 1e-12) << t;
    }
    // A budget for 8 rows: the RMS over 8 evenly spaced query rows (all keys), which is within
    // 20% of the RMS over every cell here.
    const auto sampled = logitTermMaps(params, 13, 8LL * 5 * 40 * 16);
    ASSERT_TRUE(sampled.ok());
    EXPECT_EQ(sampled->rmsRows, 8);
    const std::vector<int> rows = {0, 6, 11, 17, 22, 28, 33, 39};  // round(s * 39 / 7)
    for (int t = 0; t < 5; ++t) {
        EXPECT_NEAR(sampled->rms[t], rmsOverRows(*fullTerms[t], rows), 1e-12) << t;
        EXPECT_NEAR(sampled->rms[t], maps->rms[t], 0.2 * maps->rms[t]) << t;
    }
    // The figure says the RMS is an estimate.
    Figure figure = emptyFigure(1200, 800, paperTheme());
    drawLogitTerms(figure, {0, 0, 1200, 800}, params, *sampled, paperTheme());
    EXPECT_TRUE(hasText(figure, "(rms ≈ "));
    EXPECT_NE(allText(figure).find("over 8 evenly spaced query rows of 40"), std::string::npos);
}

TEST(UnderstandingFiguresTest, RecoveryErrorOverEvenlySpacedQueries) {
    MeaningParams params;
    params.seqLen = 60;
    params.dModel = 8;
    params.contentScale = 1.5;
    // All queries: positionRecoveryError itself.
    EXPECT_NEAR(sampledRecoveryError(params, 60).value(), positionRecoveryError(params).value(),
                1e-12);
    // 7 queries: the read-back written out for i = round(s * 59 / 6).
    const MeaningSequence sequence = buildSequence(params).value();
    const std::size_t d = 8;
    double error = 0;
    for (int s = 0; s < 7; ++s) {
        const std::size_t i = std::size_t(std::llround(s * 59.0 / 6));
        std::size_t best = 0;
        double bestScore = -INFINITY;
        for (std::size_t j = 0; j < 60; ++j) {
            double dot = 0, norm = 0;
            for (std::size_t k = 0; k < d; ++k) {
                dot +=
                    (sequence.tokens(i, k) + sequence.positions(i, k)) * sequence.positions(j, k);
                norm += sequence.positions(j, k) * sequence.positions(j, k);
            }
            const double score = dot / (norm > 0 ? std::sqrt(norm) : 1);
            if (score > bestScore) bestScore = score, best = j;
        }
        error += std::abs(double(best) - double(i));
    }
    EXPECT_NEAR(sampledRecoveryError(params, 7).value(), error / 7, 1e-12);
    // The figure's choice: every query while L^2 d fits the budget, else evenly spaced ones.
    EXPECT_EQ(recoveryQueries(48, 64), 48);
    EXPECT_EQ(recoveryQueries(1024, 2048), 64);  // 2^27 / (1024 * 2048)
    EXPECT_EQ(recoveryQueries(1024, 1 << 20), 16);
    MeaningParams large;
    large.seqLen = 1024;
    large.dModel = 512;
    auto figure = addVersusConcatFigure(large, 1200, 800, paperTheme());
    ASSERT_TRUE(figure.ok());
    EXPECT_NE(allText(*figure).find("over 256 evenly spaced of 1024 positions"), std::string::npos)
        << allText(*figure);
}

TEST(UnderstandingFiguresTest, ExtrapolationLearnedPanelIsTheTableBlockMeans) {
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

TEST(UnderstandingFiguresTest, LongProfilesAndLargeTablesAreSampledNotTabulated) {
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
