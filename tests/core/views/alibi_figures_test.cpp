// The ALiBi figures: the paper's slopes in the grid, square cells, the softmax preview, and
// bounded work for long sequences.
#include "poslab/views/alibi_figures.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "../test_math.hpp"
#include "figure_checks.hpp"
#include "poslab/base/random.hpp"
#include "poslab/figure/figure_controls.hpp"
#include "poslab/figure/text_boxes.hpp"

namespace poslab {
namespace {

// ALiBi's causal attention weight of `key` for `query` with no content: the softmax of
// -slope * (query - j) over the keys j <= query, written out.
double causalWeight(double slope, int query, int key) {
    double total = 0;
    for (int j = 0; j <= query; ++j) total += std::exp(-slope * (query - j));
    return std::exp(-slope * (query - key)) / total;
}

TEST(AlibiFiguresTest, SlopeText) {
    EXPECT_EQ(alibiSlopeText(0.5), "1/2");
    EXPECT_EQ(alibiSlopeText(1.0 / 256), "1/256");
    EXPECT_EQ(alibiSlopeText(std::exp2(-0.5)), "2^-0.5");
    EXPECT_EQ(alibiSlopeText(std::exp2(-1.0 / 16)), "2^-0.0625");
    EXPECT_EQ(alibiSlopeText(0.3), "0.3");
}

TEST(AlibiFiguresTest, GridShowsEverySlopeOfThePaper) {
    AlibiFigureOptions options;  // 8 heads, causal
    Figure figure = emptyFigure(1400, 900, paperTheme());
    ASSERT_TRUE(drawAlibiFigure(figure, {0, 0, 1400, 900}, options, paperTheme()));
    // Written out whole: GCC 12 warns (-Wrestrict, falsely) on string concatenation here.
    const char* expected[] = {"h0  m=1/2",  "h1  m=1/4",  "h2  m=1/8",   "h3  m=1/16",
                              "h4  m=1/32", "h5  m=1/64", "h6  m=1/128", "h7  m=1/256"};
    for (const char* title : expected) EXPECT_TRUE(hasText(figure, title)) << title;
    EXPECT_TRUE(hasText(figure, "masked"));  // causal: a legend for the masked colour
    EXPECT_TRUE(hasText(figure, "Head 0: m = 1/2"));
    // 8 heads + enlarged + attention + colour bars (grid, enlarged, attention).
    EXPECT_EQ(heatmapCount(figure), 8 + 2 + 3);

    options.symmetric = true;
    Figure symmetric = emptyFigure(1400, 900, paperTheme());
    ASSERT_TRUE(drawAlibiFigure(symmetric, {0, 0, 1400, 900}, options, paperTheme()));
    EXPECT_FALSE(hasText(symmetric, "masked"));
}

TEST(AlibiFiguresTest, GridCellsAreSquareAndInsideTheGrid) {
    for (int heads : {1, 3, 8, 12, 32, 128}) {
        AlibiFigureOptions options;
        options.heads = heads;
        const AlibiLayout layout = alibiLayout({0, 0, 1100, 820}, options, darkTheme());
        ASSERT_EQ(layout.cells.size(), std::size_t(heads));
        for (const Box& c : layout.cells) {
            EXPECT_EQ(c.width, c.height);
            EXPECT_GE(c.width, 8);
            EXPECT_GE(c.x, layout.grid.x);
            EXPECT_LE(c.right(), layout.colorbar.x);
            EXPECT_LE(c.bottom(), layout.grid.bottom());
        }
    }
}

// The shared colour bar's tick labels stay clear of its rotated caption at every size and text
// scale: the block was sized from the ticks of a taller bar than the one drawn, so at 1920x1080
// in presentation mode "−12.5" ran into "bias (shared scale)".
TEST(AlibiFiguresTest, ColourBarLabelsClearTheirCaption) {
    AlibiFigureOptions options;
    for (float scale : {1.0f, 1.5f, 2.0f, 2.4f}) {
        for (Box area : {Box{0, 0, 1904, 948}, Box{0, 0, 1264, 504}, Box{0, 0, 1400, 900},
                         Box{0, 0, 1000, 700}}) {
            const Theme theme = scaledTheme(darkTheme(), scale);
            Figure figure = emptyFigure(area.width, area.height, theme);
            ASSERT_TRUE(drawAlibiFigure(figure, area, options, theme));
            EXPECT_TRUE(overlappingTexts(figure).empty())
                << "scale " << scale << ", " << area.width << "x" << area.height;
        }
    }
}

// The query's label above the attention preview sat on the colour bar's top edge (F5 and
// `render alibi --width 600`, #28): the bar is a mark, and no heatmap, map or bar, lies under it.
TEST(AlibiFiguresTest, QueryLabelClearsEveryMapAndBar) {
    AlibiFigureOptions options;
    const std::string label = "query " + std::to_string(alibiQueryIndex(options));
    struct Seen {
        const char* name;
        Theme theme;
        Box area;
        int panel;
    };
    const Seen seen[] = {{"one column", forFiles(paperTheme(), 1), {0, 0, 600, 1200}, 3},
                         {"F5 1024x768", scaledTheme(darkTheme(), 1.75f), {0, 0, 700, 640}, 3},
                         {"1440x900", darkTheme(), {0, 0, 1100, 800}, 3}};
    for (const Seen& s : seen) {
        SCOPED_TRACE(s.name);
        Figure figure = emptyFigure(s.area.width, s.area.height, s.theme);
        ASSERT_TRUE(drawAlibiFigure(figure, s.area, options, s.theme, s.panel));
        int found = 0;
        for (const FigureItem& item : figure.items) {
            const auto* text = std::get_if<TextItem>(&item);
            if (!text || text->text != label) continue;
            ++found;
            for (const FigureItem& other : figure.items) {
                const auto* map = std::get_if<HeatmapItem>(&other);
                if (!map) continue;
                EXPECT_FALSE(boxesOverlap(textBox(*text), map->box, 0))
                    << "'" << label << "' over the heatmap at " << map->box.x << ", " << map->box.y
                    << " (" << map->box.width << " x " << map->box.height << ")";
            }
        }
        EXPECT_EQ(found, 1);
    }
}

TEST(AlibiFiguresTest, AttentionPreviewIsTheSoftmaxOfTheBias) {
    AlibiFigureOptions options;
    options.heads = 4;  // slopes 2^-2, 2^-4, 2^-6, 2^-8
    options.seqLen = 12;
    options.queryIndex = 7;
    const AlibiLayout layout = alibiLayout({0, 0, 1400, 900}, options, darkTheme());
    auto data = computeAlibiFigureData(options, layout);
    ASSERT_TRUE(data);
    const Matrix& weights = *data->attention.values;
    ASSERT_EQ(weights.rows, 4u);
    ASSERT_EQ(weights.cols, 12u);
    for (int h = 0; h < 4; ++h) {
        const double m = std::exp2(-2.0 * (h + 1));
        for (int j = 0; j < 12; ++j) {
            if (j > 7) {
                EXPECT_EQ(weights(h, j), -kInf) << "future keys are masked";
            } else {
                EXPECT_NEAR(weights(h, j), causalWeight(m, 7, j), 1e-14);
            }
        }
    }
    // The steepest head prefers the most recent key the most.
    EXPECT_GT(weights(0, 7), weights(3, 7));
    EXPECT_NEAR(data->attentionMax, weights(0, 7), 1e-15);
}

// A moving query row keeps the bias heatmaps (same versions: the GUI keeps their textures) while
// the preview follows the row; a new enlarged head or length makes them again. Every value is
// checked against the bias -m·(i - j) (future keys masked) and the softmax written out here.
TEST(AlibiFiguresTest, BiasCacheKeepsTheHeatmapsWhileTheQueryMoves) {
    AlibiFigureOptions options;
    options.heads = 4;  // slopes 2^-2, 2^-4, 2^-6, 2^-8
    options.seqLen = 12;
    options.enlargedHead = 1;
    const AlibiLayout layout = alibiLayout({0, 0, 1400, 900}, options, darkTheme());
    auto slopeOf = [](int h) { return std::exp2(-2.0 * (h + 1)); };
    auto expectBias = [&](const HeatmapSample& sample, double m, const char* what) {
        const Matrix& v = *sample.values;
        ASSERT_EQ(v.rows, 12u) << what;
        ASSERT_EQ(v.cols, 12u) << what;
        for (int i = 0; i < 12; ++i) {
            for (int j = 0; j < 12; ++j) {
                if (j > i)
                    EXPECT_EQ(v(i, j), -kInf) << what << " " << i << "," << j;
                else
                    EXPECT_DOUBLE_EQ(v(i, j), -m * (i - j)) << what << " " << i << "," << j;
            }
        }
    };
    auto expectPreview = [&](const AlibiFigureData& data, int query) {
        const Matrix& weights = *data.attention.values;
        for (int h = 0; h < 4; ++h)
            EXPECT_NEAR(weights(h, query), causalWeight(slopeOf(h), query, query), 1e-14)
                << "head " << h;
    };

    AlibiBiasCache cache;
    options.queryIndex = 7;
    auto first = computeAlibiFigureData(options, layout, &cache);
    ASSERT_TRUE(first);
    options.queryIndex = 3;
    options.contentScale = 0;
    auto second = computeAlibiFigureData(options, layout, &cache);
    ASSERT_TRUE(second);
    ASSERT_EQ(second->heads.size(), 4u);
    for (int h = 0; h < 4; ++h) {
        EXPECT_EQ(second->heads[std::size_t(h)].version, first->heads[std::size_t(h)].version);
        expectBias(second->heads[std::size_t(h)], slopeOf(h), "grid");
    }
    EXPECT_EQ(second->enlarged.version, first->enlarged.version);
    expectBias(second->enlarged, slopeOf(1), "enlarged");
    expectPreview(*first, 7);
    expectPreview(*second, 3);

    // Another enlarged head: made again, with its slope.
    options.enlargedHead = 2;
    auto third = computeAlibiFigureData(options, layout, &cache);
    ASSERT_TRUE(third);
    EXPECT_NE(third->enlarged.version, second->enlarged.version);
    expectBias(third->enlarged, slopeOf(2), "enlarged head 2");
    EXPECT_DOUBLE_EQ(third->enlargedRange.low, -slopeOf(2) * 11);

    // Without a cache every call makes its own.
    auto uncached = computeAlibiFigureData(options, layout);
    ASSERT_TRUE(uncached);
    EXPECT_NE(uncached->heads[0].version, third->heads[0].version);
    expectBias(uncached->heads[0], slopeOf(0), "uncached grid");
}

// A preview wider than its pixels: each texel is the mean of its heads' and keys' weights (the
// unmasked ones), the heads computed on every core in texel rows.
TEST(AlibiFiguresTest, AttentionTexelsAreMeansOfTheirWeights) {
    for (const bool symmetric : {false, true}) {
        AlibiFigureOptions options;
        options.heads = 24;
        options.seqLen = 5000;
        options.queryIndex = 3001;
        options.symmetric = symmetric;
        options.contentScale = 2;
        const AlibiLayout layout = alibiLayout({0, 0, 600, 400}, options, darkTheme());
        auto data = computeAlibiFigureData(options, layout);
        ASSERT_TRUE(data);
        const HeatmapSample& attention = data->attention;
        const Matrix& texels = *attention.values;
        ASSERT_GT(attention.colsPerTexel, 1);
        const std::vector<double> slopes = alibiSlopes(options.heads);
        const std::vector<double> logits = alibiContentLogits(5000, 2, options.contentSeed);
        std::vector<std::vector<double>> rows;
        double largest = 0;
        for (double slope : slopes) {
            rows.push_back(*alibiAttentionRow(slope, 3001, 5000, logits, symmetric));
            for (int j = 0; j < 5000; ++j)
                if (symmetric || j <= 3001)
                    largest = std::max(largest, rows.back()[std::size_t(j)]);
        }
        EXPECT_EQ(data->attentionMax, largest);
        for (std::size_t tr = 0; tr < texels.rows; ++tr) {
            for (std::size_t tc = 0; tc < texels.cols; ++tc) {
                double sum = 0, count = 0;
                for (long long h = (long long)tr * attention.rowsPerTexel;
                     h < std::min<long long>(24, (long long)(tr + 1) * attention.rowsPerTexel);
                     ++h) {
                    for (long long k = (long long)tc * attention.colsPerTexel;
                         k < std::min<long long>(attention.window.colCount,
                                                 (long long)(tc + 1) * attention.colsPerTexel);
                         ++k) {
                        const long long j = attention.window.firstCol + k;
                        if (!symmetric && j > 3001) continue;
                        sum += rows[std::size_t(h)][std::size_t(j)];
                        count += 1;
                    }
                }
                if (count == 0) {
                    EXPECT_EQ(texels(tr, tc), -kInf) << tr << " " << tc;
                } else {
                    EXPECT_NEAR(texels(tr, tc), sum / count, 1e-15 * std::abs(sum / count))
                        << tr << " " << tc;
                }
            }
        }
    }
}

TEST(AlibiFiguresTest, ContentLogitsAreScaledSeededNormals) {
    EXPECT_TRUE(alibiContentLogits(10, 0, 3).empty());
    const std::vector<double> logits = alibiContentLogits(5, 2.5, 3);
    NormalSampler sampler(3);
    ASSERT_EQ(logits.size(), 5u);
    for (double v : logits) EXPECT_EQ(v, 2.5 * sampler.next());
}

TEST(AlibiFiguresTest, PreviewWindowEndsAtTheQuery) {
    AlibiFigureOptions options;
    options.seqLen = 100;
    options.queryIndex = 50;
    options.previewKeys = 10;
    CellWindow w = alibiPreviewWindow(options);
    EXPECT_EQ(w.firstCol, 41);
    EXPECT_EQ(w.colCount, 10);
    options.symmetric = true;
    w = alibiPreviewWindow(options);
    EXPECT_EQ(w.firstCol, 45);
    options.queryIndex = 2;
    EXPECT_EQ(alibiPreviewWindow(options).firstCol, 0);
    options.previewKeys = 0;
    EXPECT_EQ(alibiPreviewWindow(options).colCount, 100);
}

TEST(AlibiFiguresTest, LongSequencesStayWithinThePixels) {
    AlibiFigureOptions options;
    options.heads = 128;
    options.seqLen = 65536;
    options.enlargedHead = 5;
    const AlibiLayout layout = alibiLayout({0, 0, 1200, 800}, options, darkTheme());
    auto data = computeAlibiFigureData(options, layout);
    ASSERT_TRUE(data);
    EXPECT_EQ(data->heads.size(), 128u);
    EXPECT_LE(float(data->heads[0].values->cols), layout.cells[0].width);
    EXPECT_LE(float(data->enlarged.values->cols), layout.enlarged.width);
    EXPECT_LE(float(data->attention.values->cols), layout.attention.width);
    EXPECT_LE(float(data->attention.values->rows), layout.attention.height);
}

TEST(AlibiFiguresTest, InvalidOptionsAreRefused) {
    AlibiFigureOptions options;
    options.heads = 0;
    Figure figure;
    EXPECT_EQ(drawAlibiFigure(figure, {0, 0, 800, 600}, options, darkTheme()).error().message,
              "heads must be 1..128 (got 0)");
    options.heads = 8;
    options.enlargedHead = 8;
    EXPECT_EQ(validate(options).error().message, "head must be 0..7 (got 8)");
    options.enlargedHead = 0;
    options.queryIndex = 32;
    EXPECT_EQ(validate(options).error().message, "query must be 0..31 (got 32)");
}

// An item written out in full (numbers as their bits, so equal text means equal items).
std::string itemText(const FigureItem& item) {
    auto num = [](auto v) {
        if constexpr (sizeof v == 4)
            return std::to_string(std::bit_cast<std::uint32_t>(v)) + " ";
        else
            return std::to_string(std::bit_cast<std::uint64_t>(v)) + " ";
    };
    auto pt = [&](Point p) { return num(p.x) + num(p.y); };
    auto box = [&](Box b) { return num(b.x) + num(b.y) + num(b.width) + num(b.height); };
    auto rgba = [](Rgba c) {
        return std::to_string(std::uint32_t(c.r) << 24 | std::uint32_t(c.g) << 16 |
                              std::uint32_t(c.b) << 8 | c.a) +
               " ";
    };
    return std::visit(
        [&](const auto& i) -> std::string {
            using T = std::decay_t<decltype(i)>;
            if constexpr (std::is_same_v<T, TextItem>) {
                return "T " + i.text + " " + pt(i.anchor) + num(i.size) + rgba(i.color) +
                       std::to_string(int(i.horizontal) * 100 + int(i.vertical) * 10 +
                                      int(i.vertical90));
            } else if constexpr (std::is_same_v<T, LineItem>) {
                return "L " + pt(i.from) + pt(i.to) + rgba(i.color) + num(i.width) +
                       std::to_string(i.dashed);
            } else if constexpr (std::is_same_v<T, PolylineItem> ||
                                 std::is_same_v<T, PolygonItem>) {
                std::string s = "P ";
                for (Point p : i.points) s += pt(p);
                return s;
            } else if constexpr (std::is_same_v<T, RectItem>) {
                return "R " + box(i.box) + rgba(i.fill) + rgba(i.stroke) + num(i.strokeWidth);
            } else if constexpr (std::is_same_v<T, CircleItem>) {
                return "C " + pt(i.center) + num(i.radius) + rgba(i.fill) + rgba(i.stroke);
            } else if constexpr (std::is_same_v<T, HeatmapItem>) {
                return "H " + box(i.box) + std::to_string(i.version) + " " + num(i.range.low) +
                       num(i.range.high);
            } else if constexpr (std::is_same_v<T, ClipPush>) {
                return "[ " + box(i.box);
            } else {
                return "]";
            }
        },
        item);
}

// The attention preview split off (the GUI copies the rest while the query row moves): the rest
// followed by the preview is the one figure, item for item, and the rest does not change with
// the query row while the preview does.
TEST(AlibiFiguresTest, PreviewSplitOffLeavesTheRestUnchangedByTheQueryRow) {
    AlibiFigureOptions options;
    options.heads = 16;
    options.seqLen = 300;
    options.contentScale = 1;
    const Theme theme = darkTheme();
    const AlibiLayout layout = alibiLayout({0, 0, 1400, 900}, options, theme);
    AlibiBiasCache biasCache;  // as the GUI keeps the bias heatmaps while the row moves
    auto drawn = [&](int query) {
        options.queryIndex = query;
        auto data = computeAlibiFigureData(options, layout, &biasCache);
        EXPECT_TRUE(data);
        Figure whole = emptyFigure(1400, 900, theme);
        drawAlibiFigure(whole, layout, options, *data, theme);
        Figure rest = emptyFigure(1400, 900, theme), preview = emptyFigure(1400, 900, theme);
        drawAlibiFigure(rest, layout, options, *data, theme, nullptr, &preview);
        std::vector<std::string> joined, one, kept;
        for (const FigureItem& item : rest.items) joined.push_back(itemText(item));
        kept = joined;
        for (const FigureItem& item : preview.items) joined.push_back(itemText(item));
        for (const FigureItem& item : whole.items) one.push_back(itemText(item));
        EXPECT_EQ(joined, one);
        EXPECT_TRUE(hasText(preview, "Query " + std::to_string(query) + ":"));
        EXPECT_FALSE(hasText(rest, "Query "));
        EXPECT_GE(heatmapCount(rest), 16 + 1);  // the grid's heads and the enlarged head
        EXPECT_GE(heatmapCount(preview), 1);
        return std::pair{kept, preview.items.size()};
    };
    const auto [first, previewItems] = drawn(40);
    EXPECT_GT(previewItems, 0u);
    EXPECT_EQ(drawn(250).first, first);
}

class AlibiNonFiniteAreaTest : public ::testing::TestWithParam<float> {};

TEST_P(AlibiNonFiniteAreaTest, FigureEndsWithBoundedTexels) {
    // Texel counts from int(area.width) were undefined for inf and NaN sizes.
    const float side = GetParam();
    AlibiFigureOptions options;
    options.seqLen = 300;  // a huge finite area gives every cell one texel: 9 x 300^2 of them
    finishesPromptly([&] {
        const AlibiLayout layout = alibiLayout({0, 0, side, side}, options, darkTheme());
        auto data = computeAlibiFigureData(options, layout);
        ASSERT_TRUE(data);
        EXPECT_GE(data->enlarged.values->cols, 1u);
        EXPECT_LE(data->enlarged.values->cols, std::size_t(kMaxTexelsPerSide));
        EXPECT_LE(data->attention.values->rows, std::size_t(kMaxTexelsPerSide));
        Figure figure;
        drawAlibiFigure(figure, layout, options, *data, darkTheme());
    });
}

INSTANTIATE_TEST_SUITE_P(Sizes, AlibiNonFiniteAreaTest,
                         ::testing::Values(INFINITY, -INFINITY, NAN, 3e38f, 0.f, -5.f));

}  // namespace
}  // namespace poslab
