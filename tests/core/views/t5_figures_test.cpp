// The T5 figures: bucket texels equal to Hugging Face's buckets, range texts, edited biases, and
// no L x L matrix at huge lengths.
#include "poslab/views/t5_figures.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <tuple>
#include <vector>

#include "../test_math.hpp"
#include "figure_checks.hpp"

namespace poslab {
namespace {

TEST(T5FiguresTest, BucketTexelsAreHuggingFaceBuckets) {
    // 32 buckets, max_distance 128, bidirectional: keys 16, 32, 64 before the query are buckets
    // 10, 12, 14; after it 26, 28, 30 (log(2^k)/log(16) * 8 is exactly 2k in float32).
    T5FigureOptions options;
    options.params = {100, 32, 128, true};
    const T5Layout layout = t5Layout({0, 0, 2600, 1800}, darkTheme());
    auto data = computeT5FigureData(options, layout);
    ASSERT_TRUE(data);
    const Matrix& ids = *data->buckets.values;
    ASSERT_EQ(ids.rows, 100u);  // one texel per cell at this size
    EXPECT_EQ(ids(80, 64), 10);
    EXPECT_EQ(ids(80, 48), 12);
    EXPECT_EQ(ids(80, 16), 14);
    EXPECT_EQ(ids(0, 16), 26);
    EXPECT_EQ(ids(0, 32), 28);
    EXPECT_EQ(ids(0, 64), 30);
    EXPECT_EQ(ids(5, 5), 0);
    EXPECT_EQ(ids(0, 1), 17);  // the first bucket after the query: n + 1
    // The bias matrix reads each cell's bucket value.
    const Matrix& bias = *data->bias.values;
    EXPECT_EQ(bias(80, 64), data->biases[10]);
    EXPECT_EQ(bias(0, 64), data->biases[30]);
    EXPECT_EQ(data->biases, seededBucketBiases(32, 0));
}

// Every cell of the bucket and bias matrices, at one texel per cell, is the bucket function's
// bucket of j - i (Hugging Face's, tested against its published buckets in t5_bias_test) and
// that bucket's bias: both directions, buckets nobody reaches, a max_distance past the length.
TEST(T5FiguresTest, EveryCellIsTheBucketOfItsOffset) {
    const T5Layout layout = t5Layout({0, 0, 2600, 1800}, darkTheme());
    for (const T5Params& params : {T5Params{300, 32, 128, true}, T5Params{300, 32, 128, false},
                                   T5Params{200, 255, 140, true}, T5Params{150, 8, 1000, false},
                                   T5Params{250, 1024, 20000, true}}) {
        T5FigureOptions options;
        options.params = params;
        auto data = computeT5FigureData(options, layout);
        ASSERT_TRUE(data) << data.error().message;
        const Matrix& ids = *data->buckets.values;
        const Matrix& bias = *data->bias.values;
        ASSERT_EQ(ids.rows, std::size_t(params.seqLen));  // one texel per cell
        ASSERT_EQ(bias.cols, std::size_t(params.seqLen));
        for (int i = 0; i < params.seqLen; ++i) {
            for (int j = 0; j < params.seqLen; ++j) {
                const int bucket = t5RelativePositionBucket(j - i, params.bidirectional,
                                                            params.numBuckets, params.maxDistance);
                ASSERT_EQ(ids(i, j), double(bucket % kColormapSize))
                    << params.numBuckets << " " << i << "," << j;
                ASSERT_EQ(bias(i, j), data->biases[std::size_t(bucket)]) << i << "," << j;
            }
        }
    }
}

TEST(T5FiguresTest, RangeTexts) {
    // Bucket 10 holds distances d with floor(log(d/8)/log(16) * 8) = 2: d/8 in [2, 2^1.5),
    // so d = 16..22. Bucket 15, the last before the query, starts at 8 * 16^(7/8) = 90.5.
    T5Params p{64, 32, 128, true};
    std::vector<std::string> expected(32);
    for (const BucketRange& r : t5BucketRanges(p)) expected[std::size_t(r.bucket)] = t5RangeText(r);
    EXPECT_EQ(expected[0], "0");
    EXPECT_EQ(expected[3], "-3");
    EXPECT_EQ(expected[10], "-22..-16");
    EXPECT_EQ(expected[15], "-inf..-91");
    EXPECT_EQ(expected[26], "16..22");
    EXPECT_EQ(expected[31], "91..+inf");
    EXPECT_EQ(expected[16], "");  // bucket n: no key after the query has distance 0
}

TEST(T5FiguresTest, EditedBiasesAreDrawn) {
    T5FigureOptions options;
    options.params = {20, 8, 16, false};
    options.bucketBiases = {0, 1, 2, 3, 4, 5, 6, 7};
    const T5Layout layout = t5Layout({0, 0, 1600, 1000}, darkTheme());
    auto data = computeT5FigureData(options, layout);
    ASSERT_TRUE(data);
    const Matrix& bias = *data->bias.values;
    // Decoder buckets: every future key in bucket 0; distance d < 4 is bucket d.
    EXPECT_EQ(bias(3, 10), 0);
    EXPECT_EQ(bias(5, 2), 3);
    EXPECT_EQ(data->biasRange.high, 7);
    options.bucketBiases = {1, 2};
    EXPECT_FALSE(validate(options));
    options.bucketBiases = {0, 1, 2, 3, 4, 5, 6, kInf};
    EXPECT_EQ(validate(options).error().message, "bucket bias 7 must be a finite number (got inf)");
}

TEST(T5FiguresTest, FigureHasEveryPart) {
    T5FigureOptions options;
    Figure figure = emptyFigure(1400, 900, paperTheme());
    ASSERT_TRUE(drawT5Figure(figure, {0, 0, 1400, 900}, options, paperTheme()));
    EXPECT_TRUE(hasText(figure, "Bucket of $j-i$ (32 buckets, max_distance 128)"));
    EXPECT_TRUE(hasText(figure, "bidirectional"));
    EXPECT_TRUE(hasText(figure, "bucket id"));
    EXPECT_TRUE(hasText(figure, "max_distance"));
    EXPECT_TRUE(hasText(figure, "exact below 8"));
    EXPECT_TRUE(hasText(figure, "seed 0"));
    // Bucket ids, legend strip, bias matrix and its colour bar.
    EXPECT_EQ(heatmapCount(figure), 4);

    options.params.numBuckets = 3;
    EXPECT_EQ(drawT5Figure(figure, {0, 0, 1400, 900}, options, paperTheme()).error().message,
              "num_buckets must be 4..1024 when bidirectional (got 3)");
}

TEST(T5FiguresTest, HugeLengthsNeedNoMatrix) {
    // 1048576^2 doubles would be 8 TiB; the figure samples texels from offsets instead.
    T5FigureOptions options;
    options.params = {1 << 20, 32, 128, true};
    const T5Layout layout = t5Layout({0, 0, 1200, 800}, darkTheme());
    auto data = computeT5FigureData(options, layout);
    ASSERT_TRUE(data);
    EXPECT_LE(float(data->buckets.values->cols), layout.buckets.width);
    EXPECT_LE(float(data->bias.values->rows), layout.bias.height);
}

TEST(T5FiguresTest, BiasesOfTheLargestMagnitudeDrawFiniteTicks) {
    // +-1.7e308 per bucket: the colour bar's range is wider than the largest double, so a tick's
    // fraction (t - low) / (high - low) was inf / inf = NaN. Every tick must land on the bar.
    T5FigureOptions options;
    options.params = {40, 8, 32, true};
    for (int b = 0; b < 8; ++b) options.bucketBiases.push_back(b % 2 ? 1.7e308 : -1.7e308);
    for (const Theme& theme : {darkTheme(), paperTheme()}) {
        Figure figure = emptyFigure(1200, 800, theme);
        finishesPromptly([&] {
            ASSERT_TRUE(drawT5Figure(figure, {0, 0, 1200, 800}, options, theme));
        });
        EXPECT_TRUE(allCoordinatesFinite(figure));
        EXPECT_TRUE(count(figure).insideFigure);
        EXPECT_TRUE(hasText(figure, "10^{308}"))  // a power of ten, as the whole bar writes
            << allText(figure);
    }
}

class T5NonFiniteAreaTest : public ::testing::TestWithParam<float> {};

TEST_P(T5NonFiniteAreaTest, FigureEndsWithBoundedTexels) {
    // An inf or NaN area once went through int(area.width): undefined behaviour, and on x86 a
    // texel count of INT_MIN. The budget is 1..65536 texels a side whatever the size.
    const float side = GetParam();
    T5FigureOptions options;
    options.params = {1 << 16, 32, 128, true};
    const T5Layout layout = t5Layout({0, 0, side, side}, darkTheme());
    finishesPromptly([&] {
        auto data = computeT5FigureData(options, layout);
        ASSERT_TRUE(data);
        EXPECT_GE(data->bias.values->rows, 1u);
        EXPECT_LE(data->bias.values->rows, std::size_t(kMaxTexelsPerSide));
        EXPECT_LE(data->buckets.values->cols, std::size_t(kMaxTexelsPerSide));
        Figure figure;
        drawT5Figure(figure, layout, options, *data, darkTheme());
    });
}

INSTANTIATE_TEST_SUITE_P(Sizes, T5NonFiniteAreaTest,
                         ::testing::Values(INFINITY, -INFINITY, NAN, 3e38f, 0.f, -5.f));

TEST(T5FiguresTest, MatricesHaveSquareCells) {
    T5FigureOptions options;
    options.params = {100, 32, 128, true};
    for (Box area : {Box{0, 0, 1600, 700}, Box{0, 0, 900, 1200}}) {
        Figure figure = emptyFigure(area.width, area.height, paperTheme());
        const T5Layout layout = t5Layout(area, paperTheme());
        auto data = computeT5FigureData(options, layout);
        ASSERT_TRUE(data);
        T5FigureFrames frames;
        drawT5Figure(figure, layout, options, *data, paperTheme(), &frames);
        for (const PlotFrame* f : {&frames.buckets, &frames.bias}) {
            EXPECT_NEAR(f->plot.width / 100, f->plot.height / 100, 1e-3f) << area.width;
        }
    }
}

TEST(T5FiguresTest, StepsByDistanceAreTheBucketFunctionAtEveryDistance) {
    // The step curve from the buckets' ranges, read at every integer distance, equals Hugging
    // Face's _relative_position_bucket for key - query = -distance (causal); steps sit at the
    // first distance of each new bucket. Sampled curves moved them by a distance or two.
    for (auto [buckets, maxDistance, reach] :
         {std::tuple{32, 128, 2048}, std::tuple{8, 16, 100}, std::tuple{64, 1000, 262144}}) {
        std::vector<double> x, y;
        t5StepsByDistance(buckets, maxDistance, reach, x, y);
        ASSERT_GE(x.size(), 2u);
        EXPECT_EQ(x.front(), 0);
        EXPECT_EQ(x.back(), reach);
        EXPECT_LE(x.size(), std::size_t(2 * buckets + 1));  // O(buckets), whatever the reach
        std::size_t k = 0;
        for (int d = 0; d <= reach; ++d) {
            while (k + 1 < x.size() && x[k + 1] <= d) ++k;  // the last point at or before d
            ASSERT_EQ(int(y[k]), t5RelativePositionBucket(-d, false, buckets, maxDistance))
                << buckets << " " << maxDistance << " distance " << d;
        }
    }
}

// "max_distance 128" was placed by hand at the bottom of the bucket chart, where the curve of the
// negative side runs: over the data in the whole figure at 1024x768 (670 x 678) and in panel 3
// alone at 480x320 (237 x 358). Both edge labels now go where they hide no step (or into a
// legend as dashed keys), and stay named.
TEST(T5FiguresTest, EdgeLabelsHideNoStepOfTheCurve) {
    for (const auto& [width, height, panel] :
         {std::tuple{670.f, 678.f, 0}, std::tuple{237.f, 358.f, 2}}) {
        Figure figure = emptyFigure(width, height, darkTheme());
        ASSERT_TRUE(
            drawT5Figure(figure, {0, 0, width, height}, T5FigureOptions{}, darkTheme(), panel));
        EXPECT_EQ(layoutFaults(figure), "") << width << " x " << height;
        EXPECT_TRUE(hasText(figure, "max_distance 128")) << width << " x " << height;
    }
}

// A projector's 1010 x 630 at 1.75 times the text (FigureLayoutTest's F5 size): the four panels
// took a grid there, the edge chart 95 px tall under its two-line title, and its legend of
// "max_distance 128" and "exact below 8" sat on the steps (#28). Every panel the view shows
// there, in both themes, keeps its text off the data by markClearance, with the edges named.
TEST(T5FiguresTest, ProjectorPanelsKeepTheEdgeLabelsOffTheCurve) {
    for (const Theme& unscaled : {darkTheme(), paperTheme()}) {
        const Theme theme = scaledTheme(unscaled, 1.75f);
        bool named = false;
        for (int panel = 0; panel < kT5Panels.count; ++panel) {
            Figure figure = emptyFigure(1010, 630, theme);
            ASSERT_TRUE(drawT5Figure(figure, {0, 0, 1010, 630}, T5FigureOptions{}, theme, panel));
            EXPECT_EQ(layoutFaults(figure), "") << "panel " << panel;
            std::string crowded;
            for (const TextOverMark& over : textsCrowdingMarks(figure))
                crowded += std::get<TextItem>(figure.items[over.text]).text + "\n";
            EXPECT_EQ(crowded, "") << themeName(theme.id) << " panel " << panel;
            named =
                named || (hasText(figure, "max_distance 128") && hasText(figure, "exact below 8"));
        }
        EXPECT_TRUE(named) << themeName(theme.id);
    }
}

}  // namespace
}  // namespace poslab
