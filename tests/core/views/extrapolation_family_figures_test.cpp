// The Extrapolation view's relative-family set (extrapolation_family_figures.hpp): the figure's
// six panels and the table its export writes.
#include "poslab/views/extrapolation_family_figures.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "figure_checks.hpp"

namespace poslab {
namespace {

TEST(ExtrapolationFamilyFiguresTest, RelativeFamilySetShowsEveryMemberPastTraining) {
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

TEST(ExtrapolationFamilyFiguresTest, RelativeFamilyExportHoldsTheTabsCurves) {
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
