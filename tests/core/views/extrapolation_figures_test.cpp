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

TEST(ExtrapolationFiguresTest, RelativeFamilySetShowsEveryMemberPastTraining) {
    ExtrapolationOptions o;
    o.set = ExtrapolationSet::RelativeFamily;
    for (int eval : {2048, 262144}) {  // the largest used length stays finite and bounded
        o.evaluationLength = eval;
        auto figure = extrapolationFigure(o, 1400, 900, paperTheme());
        ASSERT_TRUE(figure.ok()) << figure.error().message;
        for (const char* title :
             {"KERPLE: a kernel", "Sandwich: bounded", "FIRE: progressive", "xPos: the decay",
              "DeBERTa buckets", "The family past training"}) {
            EXPECT_TRUE(hasText(*figure, title)) << title;
        }
        EXPECT_FALSE(hasText(*figure, "Sinusoidal: continues"));
        const Counts c = count(*figure);  // fails on a non-finite point
        EXPECT_EQ(c.heatmaps, 0);
        EXPECT_GE(c.polylines, 6);
    }
    EXPECT_EQ(parseExtrapolationSet("relative").value(), ExtrapolationSet::RelativeFamily);
    EXPECT_EQ(parseExtrapolationSet("x").error().message,
              "set must be textbook or relative (got 'x')");
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
    EXPECT_NE(caption.find("-2 at 512"), std::string::npos) << caption;
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

TEST(ExtrapolationFiguresTest, RelativeFamilyExportHoldsTheTabsCurves) {
    // The Relative family tab's CSV used to be RoPE's per-pair table. Its columns now follow the
    // panels; values checked against the formulas written out here (KERPLE's kernels with the
    // Relative view's defaults r1 0.5, r2 0.8 and r1 1, r2 1; transformers'
    // make_log_bucket_position(r, 256, 512)).
    ExtrapolationOptions options;
    options.set = ExtrapolationSet::RelativeFamily;
    options.trainingLength = 512;
    options.evaluationLength = 2048;
    std::vector<std::string> names;
    auto table = relativeExtrapolationTable(options, &names);
    ASSERT_TRUE(table) << table.error().message;
    ASSERT_EQ(table->rows, 2049u);  // every distance 0..2048
    ASSERT_EQ(names.size(), table->cols);
    EXPECT_EQ(names[0], "distance");
    auto column = [&](const std::string& prefix) {
        for (std::size_t c = 0; c < names.size(); ++c)
            if (names[c].rfind(prefix, 0) == 0) return int(c);
        ADD_FAILURE() << "no column " << prefix;
        return 0;
    };
    const int power = column("KERPLE: a kernel at every distance: power");
    const int logarithmic = column("KERPLE: a kernel at every distance: log");
    const int bucket = column("DeBERTa buckets: clamped: make_log_bucket_position");
    const int fireTrained = column("FIRE: progressive interpolation: query at 511");
    for (std::size_t r : {0u, 1u, 7u, 511u, 512u, 1000u, 2048u}) {
        const double d = double(r);
        EXPECT_EQ((*table)(r, 0), d);
        EXPECT_NEAR((*table)(r, std::size_t(power)), -0.5 * std::pow(d, 0.8), 1e-12) << r;
        EXPECT_NEAR((*table)(r, std::size_t(logarithmic)), -1.0 * std::log(1 + 1.0 * d), 1e-12);
        // make_log_bucket_position: mid = 128; beyond it ceil(log(r / mid) / log(511 / mid) *
        // (mid - 1)) + mid.
        const double mid = 128;
        const double expected =
            d <= mid ? d : std::ceil(std::log(d / mid) / std::log(511.0 / mid) * (mid - 1)) + mid;
        EXPECT_EQ((*table)(r, std::size_t(bucket)), expected) << r;
        // FIRE's query at 511 has no key farther than 511.
        EXPECT_EQ(std::isnan((*table)(r, std::size_t(fireTrained))), r > 511) << r;
    }
    // Every panel's every curve is a column (2 + 3 + 3 + 2 + 2 + the family) after the distance.
    EXPECT_GT(table->cols, 1u + 12u);
    // A long evaluation length: every k-th distance, at most 8194 rows, the last the length.
    options.trainingLength = 4096;
    options.evaluationLength = 262144;
    auto sparse = relativeExtrapolationTable(options);
    ASSERT_TRUE(sparse);
    EXPECT_LE(sparse->rows, 8194u);
    EXPECT_EQ((*sparse)(sparse->rows - 1, 0), 262144.0);
    options.evaluationLength = 10;  // shorter than training: refused as the figure is
    EXPECT_FALSE(relativeExtrapolationTable(options));
}

}  // namespace
}  // namespace poslab
