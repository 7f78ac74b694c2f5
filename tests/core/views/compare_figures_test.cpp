// The comparison figure: every encoding side by side (RoPE A/B: compare_ab_figures_test.cpp).
#include "poslab/views/compare_figures.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <variant>

#include "figure_checks.hpp"
#include "poslab/encodings/fire.hpp"
#include "poslab/figure/figure_controls.hpp"
#include "poslab/figure/text_boxes.hpp"
#include "poslab/views/print_room.hpp"

namespace poslab {
namespace {

TEST(CompareFiguresTest, Comparison) {
    auto compare = comparisonFigure({}, 1400, 900, paperTheme());
    ASSERT_TRUE(compare.ok()) << compare.error().message;
    EXPECT_GE(count(*compare).heatmaps, 10);
}

// The sinusoidal curve and RoPE's expected q.k over q = k are one function, sum_k cos(w_k r) /
// (d/2): drawn alike, one hid the other. The sinusoidal one is solid, RoPE's dashed over it (many
// pieces in its colour, every point on the sinusoidal line), and its key says they coincide.
TEST(CompareFiguresTest, TheRopeCurveOnTheSinusoidalOneIsDashedAndSaidToBeTheSame) {
    const Theme theme = paperTheme();
    auto figure = comparisonFigure({}, 1200, 800, theme);  // L 128: the query at 64
    ASSERT_TRUE(figure.ok()) << figure.error().message;
    std::vector<const PolylineItem*> sinusoidal, rope;
    for (const FigureItem& item : figure->items) {
        const auto* line = std::get_if<PolylineItem>(&item);
        if (line && line->color == seriesColor(0, theme)) sinusoidal.push_back(line);
        if (line && line->color == seriesColor(2, theme)) rope.push_back(line);
    }
    ASSERT_EQ(sinusoidal.size(), 1u);  // one solid line over every offset
    EXPECT_GE(rope.size(), 10u);       // dashes
    EXPECT_GT(sinusoidal[0]->width, rope[0]->width);
    // Each dash lies on the sinusoidal line: the same points (pixels, 1e-3).
    const std::vector<Point>& under = sinusoidal[0]->points;
    for (const PolylineItem* dash : rope) {
        for (Point p : dash->points) {
            const auto same = std::find_if(under.begin(), under.end(), [&](Point q) {
                return std::abs(q.x - p.x) < 1e-3f && std::abs(q.y - p.y) < 1e-3f;
            });
            EXPECT_NE(same, under.end()) << p.x << ", " << p.y;
        }
    }
    EXPECT_TRUE(hasText(*figure, "(same as sinusoidal)"));
}

TEST(CompareFiguresTest, EveryBiasSlotDrawsWithItsTitle) {
    const std::pair<CompareBias, const char*> slots[] = {
        {CompareBias::KerplePower, "KERPLE (power):"},
        {CompareBias::KerpleLog, "KERPLE (log):"},
        {CompareBias::Sandwich, "Sandwich:"},
        {CompareBias::Fire, "FIRE head 0: MLP"},
        {CompareBias::Xpos, "xPos: $q·k$"},
        {CompareBias::Deberta, "DeBERTa: c2p + p2c"}};
    for (const auto& [bias, title] : slots) {
        CompareOptions o;
        o.biasB = bias;
        auto figure = comparisonFigure(o, 1400, 900, paperTheme());
        ASSERT_TRUE(figure.ok()) << figure.error().message;
        // A title may break over two lines (allText joins them with a space).
        EXPECT_NE(allText(*figure).find(title), std::string::npos) << title;
        EXPECT_TRUE(hasText(*figure, "ALiBi head 0:"));
        EXPECT_EQ(count(*figure).heatmaps >= 10, true);  // count() fails on a non-finite point
    }
    EXPECT_EQ(parseCompareBias("kerple-log").value(), CompareBias::KerpleLog);
    EXPECT_EQ(parseCompareBias("rope").error().message,
              "bias encoding must be alibi, t5, kerple-power, kerple-log, sandwich, fire, xpos or "
              "deberta (got 'rope')");
}

// The curves against the formulas written out here (the Relative view's defaults), tolerance
// 1e-12 relative: KERPLE power -r1 r^r2 (0.5, 0.8) and log -r1 log(1 + r2 r) (1, 1); Sandwich
// (sum_{i=1..d/2} cos(r 10000^(-2i/d)) - d/2) / (8 (h + 1) / H) with d 128, H 8, h 0; xPos
// log(mean_i zeta_i^(r/512)), zeta_i = (2i/d + 0.4) / 1.4 with d = d_model; FIRE's phi
// log(c r + 1) / (log(c max(i, L) + 1) + eps) with c 0.1, L 512, eps 1e-6 through the seeded MLP.
TEST(CompareFiguresTest, BiasCurvesMatchTheFormulas) {
    CompareOptions o;  // L 128, d 64: the query is 64
    const int query = 64;
    auto at = [&](CompareBias bias, int r) {
        const LineSeries s = compareBiasCurve(o, bias, query);
        EXPECT_EQ(s.x.size(), 128u);
        EXPECT_EQ(s.x[std::size_t(query - r)], double(-r));
        return s.y[std::size_t(query - r)];
    };
    auto near = [](double got, double want) {
        EXPECT_NEAR(got, want, 1e-12 * std::max(1.0, std::abs(want)));
    };
    for (int r : {0, 1, 5, 37, 64}) {
        near(at(CompareBias::KerplePower, r), -0.5 * std::pow(double(r), 0.8));
        near(at(CompareBias::KerpleLog, r), -std::log1p(double(r)));
        double sum = 0;
        for (int i = 1; i <= 64; ++i) sum += std::cos(r * std::pow(10000.0, -2.0 * i / 128));
        near(at(CompareBias::Sandwich, r), (sum - 64) / 1.0);
        double mean = 0;
        for (int i = 0; i < 32; ++i) mean += std::pow((2.0 * i / 64 + 0.4) / 1.4, r / 512.0);
        near(at(CompareBias::Xpos, r), std::log(mean / 32));
        const FireMlp mlp = seededFireMlp(32, 8, 0);
        auto phi = [](int distance) {
            return std::log(0.1 * distance + 1) / (std::log(0.1 * 512 + 1) + 1e-6);
        };
        near(at(CompareBias::Fire, r),
             fireMlpOutput(mlp, 0, phi(r)) - fireMlpOutput(mlp, 0, phi(0)));
        near(at(CompareBias::Alibi, r), -std::pow(2.0, -1.0) * r);  // 8 heads: slope 2^-1 first
    }
    // The causal members mask the keys after the query; T5 and DeBERTa see both sides.
    for (CompareBias bias : {CompareBias::KerplePower, CompareBias::Sandwich, CompareBias::Fire,
                             CompareBias::Xpos, CompareBias::Alibi})
        EXPECT_TRUE(std::isnan(compareBiasCurve(o, bias, query).y[std::size_t(query + 1)]));
    for (CompareBias bias : {CompareBias::T5, CompareBias::Deberta}) {
        for (double y : compareBiasCurve(o, bias, query).y) EXPECT_TRUE(std::isfinite(y));
    }
}

TEST(CompareFiguresTest, RelativeMembersSayTheirParameters) {
    // Compare draws the relative family with the Relative view's defaults (KERPLE power r1 0.5,
    // r2 0.8; log r1 1, r2 1; Sandwich d 128 head 0 of 8, compression 8 (0 + 1) / 8 = 1) and its
    // own width and base for xPos: the panel prints these under the bias menus.
    CompareOptions o;
    o.dModel = 96;
    o.base = 500000;
    EXPECT_EQ(compareBiasParameters(o, CompareBias::KerplePower), "r1 0.5, r2 0.8");
    EXPECT_EQ(compareBiasParameters(o, CompareBias::KerpleLog), "r1 1, r2 1");
    EXPECT_EQ(compareBiasParameters(o, CompareBias::Sandwich),
              "d 128, head 0 of 8 (compression 1)");
    EXPECT_EQ(compareBiasParameters(o, CompareBias::Xpos).rfind("head_dim 96, gamma 0.4", 0), 0u);
    EXPECT_NE(compareBiasParameters(o, CompareBias::Xpos).find("base 500000"), std::string::npos);
    EXPECT_NE(compareBiasParameters(o, CompareBias::Deberta).find("256 buckets, max_position 512"),
              std::string::npos);
    EXPECT_EQ(compareBiasParameters(o, CompareBias::Alibi), "");
    EXPECT_EQ(compareBiasParameters(o, CompareBias::T5), "");
}

TEST(CompareFiguresTest, RelativeMembersTakeTheirOwnParameters) {
    // Set from the Compare panel and `render compare`: each member's curve follows the formula
    // written out with the parameters given, not the defaults.
    CompareOptions o;  // L 128: the query is 64
    o.kerplePower = {KerpleKernel::Power, 2.0, 1.5};
    o.kerpleLog = {KerpleKernel::Logarithmic, 3.0, 0.25};
    o.sandwich = {64, 4, 2};  // d 64, head 2 of 4: compression 8 * 3 / 4 = 6
    o.xposGamma = 1.0;
    o.xposScaleBase = 100;
    o.fire.c = 0.5;
    o.fire.threshold = 32;
    const int query = 64;
    for (int r : {1, 9, 64}) {
        const std::size_t j = std::size_t(query - r);
        auto y = [&](CompareBias bias) { return compareBiasCurve(o, bias, query).y[j]; };
        EXPECT_NEAR(y(CompareBias::KerplePower), -2.0 * std::pow(double(r), 1.5), 1e-10);
        EXPECT_NEAR(y(CompareBias::KerpleLog), -3.0 * std::log(1 + 0.25 * r), 1e-12);
        double sum = 0;
        for (int i = 1; i <= 32; ++i) sum += std::cos(r * std::pow(10000.0, -2.0 * i / 64));
        EXPECT_NEAR(y(CompareBias::Sandwich), (sum - 32) / 6.0, 1e-12);
        // xPos at d 64: zeta_i = (2i/64 + 1) / 2, the log of its mean decay zeta^(r/100).
        double mean = 0;
        for (int i = 0; i < 32; ++i) mean += std::pow((2.0 * i / 64 + 1.0) / 2.0, r / 100.0);
        EXPECT_NEAR(y(CompareBias::Xpos), std::log(mean / 32), 1e-12);
        // FIRE phi with c 0.5, L 32: log(0.5 r + 1) / (log(0.5 max(64, 32) + 1) + 1e-6).
        const FireMlp mlp = seededFireMlp(32, 8, 0);
        auto phi = [](int d) { return std::log(0.5 * d + 1) / (std::log(0.5 * 64 + 1) + 1e-6); };
        EXPECT_NEAR(y(CompareBias::Fire),
                    fireMlpOutput(mlp, 0, phi(r)) - fireMlpOutput(mlp, 0, phi(0)), 1e-12);
    }
    EXPECT_EQ(compareBiasParameters(o, CompareBias::KerpleLog), "r1 3, r2 0.25");
    EXPECT_EQ(compareBiasParameters(o, CompareBias::Sandwich), "d 64, head 2 of 4 (compression 6)");
    // Out of range: refused in one line naming the parameter.
    o.sandwich.head = 4;
    EXPECT_EQ(validate(o).error().message.rfind("head must be 0..3", 0), 0u);
    o.sandwich.head = 0;
    o.fire.c = 0;
    EXPECT_EQ(validate(o).error().message.rfind("c must be", 0), 0u);
}

// Issue #28: at 1024x768 beside the controls (a 670 x 652 figure) the cosine plot is short above
// its three legend rows, with no room for a second title line: "Vector encodings: cosine
// similarity to the query…". Its shorter title, whole; the long one where it fits (1400 x 900).
TEST(CompareFiguresTest, CosinePlotsTitleIsWholeAt1024x768) {
    auto small = comparisonFigure({}, 670, 652, darkTheme());
    ASSERT_TRUE(small.ok());
    EXPECT_EQ(textsCutShort(*small), std::vector<std::string>{});
    EXPECT_TRUE(hasText(*small, "Vector encodings: cosine to the query at 64"));
    auto large = comparisonFigure({}, 1400, 900, darkTheme());
    ASSERT_TRUE(large.ok());
    EXPECT_TRUE(hasText(*large, "cosine similarity to the query at 64"));
}

// The two-column layout (the default 1200 x 800 file, a window some 700 to 1000 px wide) left
// the third heatmap row's second cell empty beside T5. Now every heatmap row is filled across
// the figure: ALiBi and T5 share a cell where each half is wide enough, else the last row's
// maps share its width. And in a one-column print the figure's title, two lines there, kept
// no gap above the first panel's title: it gets the gap a one-line title has.
TEST(CompareFiguresTest, NoHeatmapCellIsLeftEmptyAndTheTitleKeepsItsGap) {
    struct Size {
        float width, height;
        bool file;
    };
    for (const Size size : {Size{1200, 800, true}, Size{1600, 900, true}, Size{670, 652, false},
                            Size{900, 700, false}, Size{1100, 780, false}}) {
        PanelRoom room;
        Theme theme = size.file ? forFiles(paperTheme(), 1) : darkTheme();
        if (size.file) theme.panelRoom = &room;
        auto figure = comparisonFigure({}, size.width, size.height, theme);
        ASSERT_TRUE(figure.ok());
        ASSERT_GE(figure->panels.size(), 7u);
        const std::string where =
            std::to_string(int(size.width)) + "x" + std::to_string(int(size.height));
        // The five heatmaps (panels 0-4) by row: each row reaches across the figure.
        std::map<int, float> rightmost;
        for (std::size_t k = 0; k < 5; ++k) {
            const Box& cell = figure->panels[k].area;
            float& right = rightmost[int(std::lround(cell.y))];
            right = std::max(right, cell.right());
        }
        for (const auto& [row, right] : rightmost)
            EXPECT_GT(right, size.width - 20) << where << ", the row at y " << row;
    }
    // One column in print: 600 px wide, the height the file grows to.
    PanelRoom room;
    Theme theme = forFiles(paperTheme(), 1);
    theme.panelRoom = &room;
    (void)comparisonFigure({}, 600, 400, theme);
    const float height = 400 + room.missingHeight;
    theme.panelRoom = nullptr;
    PanelRoom grown;
    theme.panelRoom = &grown;
    auto figure = comparisonFigure({}, 600, height, theme);
    ASSERT_TRUE(figure.ok());
    float titleBottom = 0, panelTitleTop = 0;
    for (const FigureItem& item : figure->items) {
        const auto* text = std::get_if<TextItem>(&item);
        if (!text) continue;
        if (text->text.rfind("Sinusoidal: added vector", 0) == 0) {
            panelTitleTop = textBox(*text).y;
            break;
        }
        titleBottom = std::max(titleBottom, textBox(*text).bottom());  // the figure's title
    }
    ASSERT_GT(titleBottom, 0);
    ASSERT_GT(panelTitleTop, 0);
    EXPECT_GE(panelTitleTop - titleBottom, 0.5f * theme.titleSize)
        << "the title ends at " << titleBottom << ", the first panel's title starts at "
        << panelTitleTop;
}

// ALiBi's and T5's maps side by side start level. At one column T5's title took three lines
// beside ALiBi's two, and its map sat a line lower, which reads as another scale of position;
// so with a long bias title (FIRE's) in either slot.
TEST(CompareFiguresTest, BiasMapsSideBySideStartLevel) {
    struct Size {
        float width, height;
        bool file;
    };
    for (CompareBias second : {CompareBias::T5, CompareBias::Fire, CompareBias::KerpleLog}) {
        CompareOptions o;
        o.biasB = second;
        for (const Size size : {Size{600, 0, true}, Size{1200, 800, true}, Size{1100, 780, false},
                                Size{670, 652, false}, Size{1400, 900, false}}) {
            Theme theme = size.file ? forFiles(paperTheme(), 1) : darkTheme();
            float height = size.height;
            if (height == 0) {  // one column: the height the file grows to
                PanelRoom room;
                theme.panelRoom = &room;
                (void)comparisonFigure(o, size.width, 400, theme);
                height = 400 + room.missingHeight;
            }
            PanelRoom grown;
            if (size.file) theme.panelRoom = &grown;
            auto figure = comparisonFigure(o, size.width, height, theme);
            ASSERT_TRUE(figure.ok());
            ASSERT_GE(figure->panels.size(), 5u);
            const PanelSpan &alibi = figure->panels[3], &other = figure->panels[4];
            const std::string where = std::to_string(int(size.width)) + "x" +
                                      std::to_string(int(height)) + ", slot B " +
                                      std::to_string(int(second));
            if (std::abs(alibi.area.y - other.area.y) > 0.5f) continue;  // not in one row
            EXPECT_NEAR(alibi.plot.y, other.plot.y, 0.5f) << where;
            EXPECT_EQ(layoutFaults(*figure), "") << where;
        }
    }
}

// Issue #28: at one column (`render compare --width 600`) the cosine and bias legends stood beside
// their plots, "RoPE, E over q = k (same as sinusoidal)" on four lines. The project keeps names
// whole: as render builds the file, each curve plot's legend is in rows under the plot, one
// line of text per key, and the file stays under 1,900 px (1,670 with the legends beside).
TEST(CompareFiguresTest, OneColumnCurveLegendsAreRowsUnderThePlotsWithNamesWhole) {
    auto build = [](const Theme& t, float w, float h) {
        return comparisonFigure(CompareOptions{}, w, h, t);
    };
    auto figure = buildWithAllPanels(build, forFiles(paperTheme(), 1), 600, 400, true, 8192);
    ASSERT_TRUE(figure.ok()) << figure.error().message;
    ASSERT_EQ(figure->panels.size(), 7u);
    EXPECT_LT(figure->height, 1900.f);
    for (std::size_t panel : {5u, 6u}) {
        const PanelSpan& span = figure->panels[panel];
        const std::vector<PanelLegend> legends = panelLegends(*figure, span);
        ASSERT_EQ(legends.size(), 1u) << "panel " << panel;
        EXPECT_GE(legends[0].box.y, span.plot.bottom()) << "panel " << panel;
        EXPECT_EQ(legends[0].lines, panel == 5 ? 3u : 2u)
            << "panel " << panel << ": a name split over lines";
    }
    EXPECT_EQ(layoutFaults(*figure), "");
}

// ALiBi's bias curve leaves the plot at its bottom (−10, a range chosen for T5) and nothing said
// so (#28): a note in the plot says where it goes, hiding no curve and no text.
TEST(CompareFiguresTest, AlibiLeavingThePlotIsSaidWhereItHidesNothing) {
    struct Size {
        float width, height;
        bool file;
    };
    // Files as `poslab render compare` builds them (every panel; `--width 600` alone grows).
    for (const Size size : {Size{1200, 800, true}, Size{600, 400, true}, Size{1400, 900, false},
                            Size{1100, 780, false}}) {
        const Theme theme = size.file ? forFiles(paperTheme(), 1) : darkTheme();
        auto build = [](const Theme& t, float w, float h) {
            return comparisonFigure(CompareOptions{}, w, h, t);
        };
        auto figure = size.file ? buildWithAllPanels(build, theme, size.width, size.height,
                                                     size.width < 1000, 8192)
                                : build(theme, size.width, size.height);
        ASSERT_TRUE(figure.ok());
        const std::string where =
            std::to_string(int(size.width)) + "x" + std::to_string(int(size.height));
        // The note: one line, or consecutive lines that read as it (wrapped in a narrow plot).
        const std::string note = "ALiBi continues below \u221210";
        std::vector<std::size_t> lines;
        int notes = 0;
        for (std::size_t i = 0; i < figure->items.size(); ++i) {
            std::string joined;
            std::vector<std::size_t> run;
            for (std::size_t j = i; j < figure->items.size() && joined.size() < note.size(); ++j) {
                const auto* text = std::get_if<TextItem>(&figure->items[j]);
                if (!text) break;
                joined += (joined.empty() ? "" : " ") + text->text;
                run.push_back(j);
            }
            if (joined != note) continue;
            ++notes;
            lines = run;
        }
        for (std::size_t i : lines) {
            const Box box = textBox(std::get<TextItem>(figure->items[i]));
            EXPECT_EQ(marksCovered(*figure, box), 0) << where;
            const Box& plot = figure->panels.back().plot;  // inside the bias curves' plot
            EXPECT_TRUE(box.x >= plot.x && box.right() <= plot.right() && box.y >= plot.y &&
                        box.bottom() <= plot.bottom())
                << where;
            for (std::size_t j = 0; j < figure->items.size(); ++j) {
                const auto* other = std::get_if<TextItem>(&figure->items[j]);
                if (!other || j == i || other->text.empty()) continue;
                EXPECT_FALSE(boxesOverlap(box, textBox(*other), 1))
                    << where << ": over '" << other->text << "'";
            }
        }
        // A print plot with no free place (95 px tall at 1200 x 800) says it in its legend.
        std::string words;  // every text, as the legend wraps its keys
        for (const FigureItem& item : figure->items)
            if (const auto* text = std::get_if<TextItem>(&item)) words += text->text + " ";
        const int keys = words.find("(causal), continues below \u221210") != std::string::npos;
        if (size.file) {
            EXPECT_EQ(notes + keys, 1) << where;
        } else {
            EXPECT_EQ(notes, 1) << where;
        }
    }
}

}  // namespace
}  // namespace poslab
